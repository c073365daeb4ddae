/*
 * backend.h: the entry point of a backend, the process that serves one client
 * connection.
 *
 * The postmaster pre-forks backends; each waits, idle, for the postmaster to hand it
 * an accepted client socket (SCM_RIGHTS) together with the identity below, then calls
 * BackendMain, which runs the whole session (SSL/GSSENC negotiation, startup packet,
 * authentication, the message loop) and exits when the client goes away. A backend
 * serves exactly one connection in its life.
 */
#ifndef RL_BACKEND_H
#define RL_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

/* The longest first packet the postmaster accepts (PostgreSQL's MAX_STARTUP_PACKET_LENGTH). */
#define MAX_STARTUP_PACKET_LENGTH 10000

typedef struct BackendStartupInfo
{
	int			client_sock;	/* the accepted connection (blocking mode) */
	int32_t		cancel_key;		/* chosen by the postmaster; sent in BackendKeyData */
	char		remote_host[64];	/* "[local]" for a Unix socket, else the address */
	char		remote_port[16];	/* "" for a Unix socket */
	const char *data_directory;
	const char *writer_socket_path; /* the writer's Unix socket (commit requests) */

	/*
	 * The postmaster reads the first packet of every connection itself (it must
	 * see CancelRequests and answer refusals while starting or stopping), so
	 * those bytes are no longer in the socket: here they are, whole, including
	 * the leading Int32 length word (8 <= first_packet_len <=
	 * MAX_STARTUP_PACKET_LENGTH). It is never a CancelRequest. It may be an
	 * SSLRequest or GSSENCRequest (8 bytes): then the backend answers it and
	 * reads the next packet from client_sock itself. Otherwise it is the
	 * StartupMessage (any protocol version: the backend judges it).
	 */
	const uint8_t *first_packet;
	uint32_t	first_packet_len;

	/*
	 * Set for a dead-end child (the postmaster refuses the connection, 57P03 or
	 * 53300, but the client asked for SSL): negotiate encryption and read the
	 * startup packet as usual, then FATAL with this instead of authenticating.
	 */
	const char *refusal_sqlstate;
	const char *refusal_message;
} BackendStartupInfo;

/*
 * The backend's signal handlers (miscadmin.h), with the NoticeResponses its SIGQUIT
 * handler writes to client_sock (-1: none), and the writer's waits interruptible.
 */
void		BackendInitSignals(int client_sock);
/* What the session does when the catalog cache's connection changes (catalog/cache.h's hooks). */
void		BackendInitCache(void);

/* What a StartupMessage asks for (BackendReadStartup) */
typedef struct StartupParams
{
	const char *user;
	const char *database;
	int			nsettings;
	const char **names;			/* settings to apply after authentication */
	const char **values;
	int			nprotocol_options;
	const char **protocol_options;	/* unrecognized _pq_.* */
} StartupParams;

/*
 * The two halves of a session that take apart what the client sends, run by
 * BackendMain (and by the fuzz targets, test/fuzz/, on a socket of their own after
 * pq_init): BackendReadStartup answers SSLRequest and GSSENCRequest and reads the
 * StartupMessage into sp (FATAL if it is malformed), false if the client went away
 * or sent a CancelRequest; BackendMessageLoop serves messages until Terminate or
 * the end of the connection, each ERROR recovered from, and returns.
 */
bool		BackendReadStartup(StartupParams *sp);
void		BackendMessageLoop(void);

/*
 * Serve the connection; exits the process (status 0, or 1 after FATAL). On entry
 * SIGTERM, SIGQUIT, SIGINT and SIGHUP still have the idle child's dispositions
 * (exit 0 / exit 0 / ignored / ignored): BackendMain installs its own handlers
 * (SIGINT cancel, SIGTERM 57P01, SIGQUIT as above, SIGHUP reload at the next idle
 * point with ProcessConfigFile(ConfigFileName, true)).
 */
void		BackendMain(const BackendStartupInfo *info) __attribute__((noreturn));

/*
 * What a pre-forked backend does while it waits for its client: open the catalog
 * cache the last session used, compile that session's statements and parse its
 * queries (CacheWarm); called again, it does so only if a session ended since.
 */
void		BackendWarmUp(const char *data_directory);

#endif
