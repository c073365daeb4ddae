/*
 * pqcomm.h: the backend's connection to its client: buffered socket I/O, optional
 * TLS, reading whole messages and the flush rules.
 *
 * A backend serves one connection, so this module keeps it in file-level state
 * (as PostgreSQL's pqcomm.c does) and MyProcPort describes it. Output is built in
 * the send buffer with pq_beginmessage/pq_endmessage (pqformat.h) and goes out
 * only at pq_flush: the backend flushes at ReadyForQuery, on Flush, before
 * CopyInResponse waits for data, after every error or notice, and whenever the
 * buffer grows past PQ_SEND_BUFFER_SIZE.
 */
#ifndef RL_PQCOMM_H
#define RL_PQCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpq/pqformat.h"

#define PQ_SEND_BUFFER_SIZE		8192
/* Largest bodies accepted: PostgreSQL's PQ_LARGE/SMALL_MESSAGE_LIMIT */
#define PQ_LARGE_MESSAGE_LIMIT	(0x3fffffff - 1)
#define PQ_SMALL_MESSAGE_LIMIT	10000
/* SASL and password messages (PostgreSQL's PG_MAX_AUTH_TOKEN_LENGTH) */
#define PQ_AUTH_MESSAGE_LIMIT	65535

#define EOF_ON_CLIENT			(-1)

typedef struct Port
{
	int			sock;
	bool		is_unix;		/* a Unix-domain socket ("[local]") */
	bool		ssl_in_use;
	char		remote_host[64];
	char		remote_port[16];
} Port;

extern Port *MyProcPort;

/*
 * Take over the accepted socket. prefetched holds bytes the postmaster already
 * read from it (the first packet); they are returned before the socket's.
 */
void		pq_init(int sock, const char *remote_host, const char *remote_port,
					const uint8_t *prefetched, size_t prefetched_len);

/* Read exactly len bytes: 0, or EOF_ON_CLIENT (connection closed or broken). */
int			pq_getbytes(void *buf, size_t len);
/* Bytes already received but not yet consumed (pipelined by the client). */
size_t		pq_buffered_input(void);

/*
 * Read one typed message: pq_getmsgtype returns its type byte (or
 * EOF_ON_CLIENT), pq_getmsgbody its body into a buffer palloc'd in the current
 * memory context, once the caller has chosen the size limit for that type. A
 * body longer than maxlen, or a length word below 4, is FATAL 08P01 (the stream
 * cannot be resynchronised). pq_getmsgbody returns 0 or EOF_ON_CLIENT.
 */
int			pq_getmsgtype(void);
int			pq_getmsgbody(char type, uint8_t **body, size_t *len, size_t maxlen);

/*
 * Read an untyped startup-phase packet (length word, then body); lengths
 * outside 8..maxlen are refused like PostgreSQL: nothing sent, connection
 * closed (returns EOF_ON_CLIENT after a COMMERROR log line).
 */
int			pq_getstartuppacket(uint8_t **body, size_t *len, size_t maxlen);

/* Build a message in the send buffer. */
void		pq_beginmsg(PqMsgBuilder *msg, char msgtype);
void		pq_endmsg(PqMsgBuilder *msg);
/* Drop a message left half-built by an error (before an ErrorResponse goes out). */
void		pq_abort_partial_message(void);
/* Send one raw byte (the answer to SSLRequest / GSSENCRequest) and flush. */
int			pq_putrawbyte(uint8_t b);
/* Write out the send buffer: 0, or EOF_ON_CLIENT once the client is gone. */
int			pq_flush(void);

/*
 * Send len bytes of whole messages built elsewhere (a kept copy of a scan): what the
 * send buffer holds goes first, then the bytes from where they are, not copied; a
 * few messages that fit the send buffer join it instead.
 */
int			pq_putmessages(const void *data, size_t len);

/*
 * TLS: pq_secure_init loads ssl_cert_file and ssl_key_file (relative to the data
 * directory) once per process (false, with a LOG line, if they do not load: the
 * backend then answers 'N' to SSLRequest); the key must be private to the server's
 * user as PostgreSQL requires. pq_secure_check loads them and lets them go, FATAL
 * if they do not load: the postmaster's start with ssl on.
 * pq_secure_open_server runs the handshake after the 'S' (0 or EOF_ON_CLIENT).
 */
bool		pq_secure_init(void);
void		pq_secure_check(void);
int			pq_secure_open_server(void);

#endif
