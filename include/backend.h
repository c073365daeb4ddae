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

#include <stdint.h>

typedef struct BackendStartupInfo
{
	int			client_sock;	/* the accepted connection */
	int32_t		cancel_key;		/* chosen by the postmaster; sent in BackendKeyData */
	char		remote_host[64];	/* "[local]" for a Unix socket, else the address */
	char		remote_port[16];	/* "" for a Unix socket */
	const char *data_directory;
	const char *writer_socket_path; /* the writer's Unix socket (commit requests) */
} BackendStartupInfo;

/* Serve the connection; exits the process (status 0, or 1 after FATAL). */
void		BackendMain(const BackendStartupInfo *info) __attribute__((noreturn));

#endif
