/*
 * postmaster.h: the postmaster, the server's first process: it owns the data
 * directory, the listen sockets and every other process of the server.
 *
 * main.c reads the command line and the configuration, then calls PostmasterMain,
 * which never returns: it takes postmaster.pid, opens the sockets, starts the
 * writer and the pool of idle backends, and serves until it is told to stop
 * (SIGTERM smart, SIGINT fast, SIGQUIT immediate) or the writer is fenced.
 */
#ifndef RL_POSTMASTER_H
#define RL_POSTMASTER_H

#include <sys/types.h>

extern pid_t PostmasterPid;

/* argv is recorded in postmaster.opts for pg_ctl restart. Exits 0, 1 on error, or
 * POSTMASTER_EXIT_FENCED. */
/*
 * The postmaster's exit status once another server has taken its store over: a
 * supervisor must not restart it (it would take the store back, and the two would
 * fence each other in turn); every other failure exit is 1 and may be restarted.
 */
#define POSTMASTER_EXIT_FENCED 3

void		PostmasterMain(int argc, char **argv) __attribute__((noreturn));

#endif
