/*
 * pqcomm.c: the backend's end of the client connection.
 *
 * Reads go through a receive buffer (one recv() usually brings a whole pipeline
 * of extended-protocol messages), writes through the send buffer that pqformat's
 * builder fills in place. TLS, when negotiated, sits below both buffers: the
 * buffering logic does not care whether bytes come from recv() or SSL_read().
 *
 * Blocking reads are interruptible: a read that must wait sleeps in ppoll() with
 * the signals unblocked only as it starts (wait_readable), after a look at the
 * flags, so a signal that came before the wait is not slept through; EINTR goes to
 * ProcessClientReadInterrupt, which decides (terminate: FATAL now; cancel while
 * idle: nothing to cancel; cancel of a statement waiting for its client, COPY FROM
 * STDIN: ERROR, if no byte of the next message has been read, else once the message
 * is). A failed write marks
 * the connection lost; the backend then leaves at its next interrupt check instead
 * of raising errors nobody can receive.
 */
#define _GNU_SOURCE				/* ppoll */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "libpq/pqcomm.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

#define PQ_RECV_BUFFER_SIZE 16384	/* holds a whole startup packet */

static Port port;
Port	   *MyProcPort;

static uint8_t recv_buffer[PQ_RECV_BUFFER_SIZE];
static size_t recv_pointer;		/* next byte to return */
static size_t recv_length;		/* end of valid data */

static RlBuf send_buffer;
static size_t partial_message_start;	/* offset of a message being built */
static bool partial_message;

static SSL_CTX *ssl_context;
static SSL *ssl_conn;

void
pq_init(int sock, const char *remote_host, const char *remote_port,
		const uint8_t *prefetched, size_t prefetched_len)
{
	port.sock = sock;
	port.is_unix = strcmp(remote_host, "[local]") == 0;
	port.ssl_in_use = false;
	snprintf(port.remote_host, sizeof(port.remote_host), "%s", remote_host);
	snprintf(port.remote_port, sizeof(port.remote_port), "%s", remote_port);
	MyProcPort = &port;
	rlbuf_free(&send_buffer);	/* one an earlier pq_init left (the fuzz targets') */
	if (prefetched_len > sizeof(recv_buffer))
		prefetched_len = 0;		/* the postmaster bounds it; be safe anyway */
	if (prefetched_len > 0)
		memcpy(recv_buffer, prefetched, prefetched_len);
	recv_pointer = 0;
	recv_length = prefetched_len;
}

/*
 * wait_readable -- sleep until the client's socket is readable, without missing a
 * signal; -1 with errno EINTR when one came (or had come)
 *
 * A SIGTERM that arrives while the backend is busy (its postmaster's death sends
 * one too) only sets a flag; a plain blocking recv() afterwards would sleep with
 * the flag set for as long as the client says nothing, and such backends outlived
 * a SIGKILLed postmaster by hours. So the flags are looked at with every signal
 * blocked, and ppoll() unblocks them atomically as it starts to sleep. A cancel in
 * the middle of a message waits for the rest of it (ProcessClientReadInterrupt),
 * so it alone does not end the sleep.
 */
static int
wait_readable(bool at_message_start)
{
	sigset_t	all,
				saved;
	struct pollfd pfd = {port.sock, POLLIN, 0};
	int			rc = -1;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	if (InterruptPending && (at_message_start || !QueryCancelPending || ProcDiePending))
		errno = EINTR;
	else
		rc = ppoll(&pfd, 1, NULL, &saved);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return rc < 0 ? -1 : 0;
}

/*
 * secure_read -- one recv()/SSL_read() into buf
 *
 * Returns the byte count, 0 at EOF, -1 on error with errno set (EINTR for a
 * signal). What has arrived is taken at once; only an empty socket is waited on.
 */
static ssize_t
secure_read(void *buf, size_t len, bool at_message_start)
{
	if (ssl_conn == NULL)
	{
		ssize_t		n = recv(port.sock, buf, len, MSG_DONTWAIT);

		if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return n;
		return wait_readable(at_message_start) < 0 ? -1 : recv(port.sock, buf, len, MSG_DONTWAIT);
	}
	if (SSL_pending(ssl_conn) == 0 && wait_readable(at_message_start) < 0)
		return -1;

	ERR_clear_error();
	int			n = SSL_read(ssl_conn, buf, (int) len);

	if (n > 0)
		return n;
	switch (SSL_get_error(ssl_conn, n))
	{
		case SSL_ERROR_ZERO_RETURN:
			return 0;
		case SSL_ERROR_SYSCALL:
			if (errno == 0)
				return 0;		/* EOF without close_notify */
			return -1;
		default:
			errno = ECONNRESET;
			return -1;
	}
}

static ssize_t
secure_write(const void *buf, size_t len)
{
	if (ssl_conn == NULL)
		return send(port.sock, buf, len, MSG_NOSIGNAL);

	ERR_clear_error();
	int			n = SSL_write(ssl_conn, buf, (int) len);

	if (n > 0)
		return n;
	if (SSL_get_error(ssl_conn, n) != SSL_ERROR_SYSCALL || errno == 0)
		errno = ECONNRESET;
	return -1;
}

/*
 * pq_recvbuf -- refill the receive buffer; 0, or EOF_ON_CLIENT
 *
 * at_message_start: what is read begins a message (see ProcessClientReadInterrupt).
 * The flags are looked at before every read, so a signal that came before the wait
 * is not left for after it.
 */
static int
pq_recvbuf(bool at_message_start)
{
	if (recv_pointer > 0)
	{
		memmove(recv_buffer, recv_buffer + recv_pointer, recv_length - recv_pointer);
		recv_length -= recv_pointer;
		recv_pointer = 0;
	}
	for (;;)
	{
		if (InterruptPending)
			ProcessClientReadInterrupt(at_message_start);

		ssize_t		n = secure_read(recv_buffer + recv_length,
									sizeof(recv_buffer) - recv_length, at_message_start);

		if (n > 0)
		{
			recv_length += (size_t) n;
			return 0;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ereport(COMMERROR,
					errcode(ERRCODE_CONNECTION_FAILURE),
					errmsg("could not receive data from client: %s", strerror(errno)));
		return EOF_ON_CLIENT;
	}
}

int
pq_getbytes(void *buf, size_t len)
{
	uint8_t    *out = buf;

	while (len > 0)
	{
		if (recv_pointer >= recv_length && pq_recvbuf(false) != 0)
			return EOF_ON_CLIENT;
		size_t		n = recv_length - recv_pointer;

		if (n > len)
			n = len;
		memcpy(out, recv_buffer + recv_pointer, n);
		recv_pointer += n;
		out += n;
		len -= n;
	}
	return 0;
}

size_t
pq_buffered_input(void)
{
	return recv_length - recv_pointer;
}

/* read_body -- read a body of len bytes into a fresh palloc'd buffer */
static int
read_body(uint8_t **body, size_t len)
{
	*body = palloc(len + 1);
	(*body)[len] = '\0';		/* lets callers treat a text body as a C string */
	return pq_getbytes(*body, len);
}

int
pq_getmsgtype(void)
{
	if (recv_pointer >= recv_length && pq_recvbuf(true) != 0)
		return EOF_ON_CLIENT;
	return recv_buffer[recv_pointer++];
}

int
pq_getmsgbody(char type, uint8_t **body, size_t *len, size_t maxlen)
{
	uint8_t		lenbuf[4];

	if (pq_getbytes(lenbuf, 4) != 0)
		return EOF_ON_CLIENT;
	uint32_t	msglen = rl_load_u32be(lenbuf);

	if (msglen < 4 || msglen - 4 > maxlen)
		ereport(FATAL,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid message length"),
				errdetail("Message type %d declares a length of %u bytes.",
						  (unsigned char) type, msglen));
	*len = msglen - 4;
	return read_body(body, *len);
}

int
pq_getstartuppacket(uint8_t **body, size_t *len, size_t maxlen)
{
	uint8_t		lenbuf[4];

	if (pq_getbytes(lenbuf, 4) != 0)
		return EOF_ON_CLIENT;	/* no log: health checks just connect and close */
	uint32_t	msglen = rl_load_u32be(lenbuf);

	if (msglen < 8 || msglen > maxlen)
	{
		ereport(COMMERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid length of startup packet"));
		return EOF_ON_CLIENT;
	}
	*len = msglen - 4;
	if (read_body(body, *len) != 0)
	{
		ereport(COMMERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("incomplete startup packet"));
		return EOF_ON_CLIENT;
	}
	return 0;
}

void
pq_beginmsg(PqMsgBuilder *msg, char msgtype)
{
	partial_message_start = send_buffer.len;
	partial_message = true;
	pq_beginmessage(msg, &send_buffer, msgtype);
}

/*
 * pq_endmsg -- finish a message in the send buffer
 *
 * A long result set goes out in PQ_SEND_BUFFER_SIZE pieces rather than piling up
 * in memory.
 */
void
pq_endmsg(PqMsgBuilder *msg)
{
	pq_endmessage(msg);
	partial_message = false;
	if (send_buffer.len >= PQ_SEND_BUFFER_SIZE)
		pq_flush();
}

void
pq_abort_partial_message(void)
{
	if (partial_message)
		send_buffer.len = partial_message_start;
	partial_message = false;
}

int
pq_putrawbyte(uint8_t b)
{
	rlbuf_put_u8(&send_buffer, b);
	return pq_flush();
}

/* send_bytes -- write data to the client whole; EOF_ON_CLIENT once it is gone */
static int
send_bytes(const uint8_t *data, size_t len)
{
	size_t		done = 0;

	if (ClientConnectionLost)
		return EOF_ON_CLIENT;
	while (done < len)
	{
		ssize_t		n = secure_write(data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			/* nobody can receive an error now: log it and leave at the next check */
			ClientConnectionLost = 1;
			InterruptPending = 1;
			ereport(COMMERROR,
					errcode(ERRCODE_CONNECTION_FAILURE),
					errmsg("could not send data to client: %s", strerror(errno)));
			return EOF_ON_CLIENT;
		}
		done += (size_t) n;
	}
	return 0;
}

int
pq_flush(void)
{
	int			rc = send_bytes(send_buffer.data, send_buffer.len);

	rlbuf_reset(&send_buffer);
	return rc;
}

int
pq_putmessages(const void *data, size_t len)
{
	int			rc;

	/* a few messages join the buffer: a write of their own would cost more than the copy */
	if (send_buffer.len + len <= PQ_SEND_BUFFER_SIZE)
	{
		rlbuf_append(&send_buffer, data, len);
		return 0;
	}
	rc = pq_flush();
	return rc == 0 ? send_bytes(data, len) : rc;
}

/* ssl_error -- a report at elevel with OpenSSL's reason for a failed step */
static void
ssl_error(int elevel, const char *what, const char *path)
{
	unsigned long e = ERR_get_error();

	ereport(elevel,
			errcode(ERRCODE_CONFIG_FILE_ERROR),
			errmsg("%s \"%s\": %s", what, path,
				   e ? ERR_reason_error_string(e) : "no SSL error reported"));
}

/*
 * key_file_private -- PostgreSQL's rule for the private key: a regular file, owned
 * by the server's user with no group or world access (0600 or less), or by root with
 * at most group read (0640); otherwise reported at elevel
 */
static bool
key_file_private(int elevel, const char *key_file)
{
	struct stat st;

	if (stat(key_file, &st) != 0)
	{
		ereport(elevel, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("could not access private key file \"%s\": %s", key_file, strerror(errno)));
		return false;
	}
	if (!S_ISREG(st.st_mode))
	{
		ereport(elevel, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("private key file \"%s\" is not a regular file", key_file));
		return false;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0)
	{
		ereport(elevel, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("private key file \"%s\" must be owned by the database user or root", key_file));
		return false;
	}
	if ((st.st_uid == geteuid() && (st.st_mode & (S_IRWXG | S_IRWXO))) ||
		(st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO))))
	{
		ereport(elevel, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("private key file \"%s\" has group or world access", key_file),
				errdetail("File must have permissions u=rw (0600) or less if owned by the database user, or permissions u=rw,g=r (0640) or less if owned by root."));
		return false;
	}
	return true;
}

/* load_context -- the TLS context of ssl_cert_file and ssl_key_file, or NULL */
static SSL_CTX *
load_context(int elevel)
{
	const char *cert = GetConfigOption("ssl_cert_file");
	const char *key = GetConfigOption("ssl_key_file");
	const char *cert_file = cert[0] == '/' ? cert : psprintf("%s/%s", DataDir, cert);
	const char *key_file = key[0] == '/' ? key : psprintf("%s/%s", DataDir, key);
	SSL_CTX    *ctx = SSL_CTX_new(TLS_server_method());

	if (ctx == NULL)
	{
		ssl_error(elevel, "could not create an SSL context for", cert_file);
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_AUTO_RETRY);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert_file) != 1)
	{
		SSL_CTX_free(ctx);
		ssl_error(elevel, "could not load server certificate file", cert_file);
		return NULL;
	}
	if (!key_file_private(elevel, key_file))
	{
		SSL_CTX_free(ctx);
		return NULL;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key_file, SSL_FILETYPE_PEM) != 1 ||
		SSL_CTX_check_private_key(ctx) != 1)
	{
		SSL_CTX_free(ctx);
		ssl_error(elevel, "could not load private key file", key_file);
		return NULL;
	}
	return ctx;
}

bool
pq_secure_init(void)
{
	if (ssl_context == NULL)
		ssl_context = load_context(LOG);
	return ssl_context != NULL;
}

void
pq_secure_check(void)
{
	SSL_CTX_free(load_context(FATAL));
}

int
pq_secure_open_server(void)
{
	ssl_conn = SSL_new(ssl_context);
	if (ssl_conn == NULL || SSL_set_fd(ssl_conn, port.sock) != 1)
		return EOF_ON_CLIENT;
	for (;;)
	{
		ERR_clear_error();
		int			r = SSL_accept(ssl_conn);

		if (r == 1)
			break;
		if (SSL_get_error(ssl_conn, r) == SSL_ERROR_SYSCALL && errno == EINTR)
		{
			ProcessClientReadInterrupt(false);
			continue;
		}
		unsigned long e = ERR_get_error();

		ereport(COMMERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("could not accept SSL connection: %s",
					   e ? ERR_reason_error_string(e) : "EOF detected"));
		SSL_free(ssl_conn);
		ssl_conn = NULL;
		return EOF_ON_CLIENT;
	}
	port.ssl_in_use = true;
	SetQuitNoticeSocket(-1);
	return 0;
}
