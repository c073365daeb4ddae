/*
 * postmaster_internal.h: what the postmaster's files share (postmaster.c, listen.c).
 */
#ifndef RL_POSTMASTER_INTERNAL_H
#define RL_POSTMASTER_INTERNAL_H

#include <stdbool.h>

#define MAXLISTEN			64

/* the listening sockets (listen.c) */
extern int	ListenSockets[MAXLISTEN];
extern bool ListenIsUnix[MAXLISTEN];
extern int	NumListenSockets;

void		OpenListenSockets(int port);

#endif
