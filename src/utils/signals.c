/*
 * signals.c: one way to install signal handlers for the postmaster, the backends and
 * the writer (see rl_signal.h), so each process says only which signals it handles
 * and whether interrupted system calls restart.
 */
#include <signal.h>
#include <string.h>

#include "utils/rl_signal.h"

void
rl_set_signal_handler(int signo, void (*handler) (int), bool restart_syscalls)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart_syscalls ? SA_RESTART : 0;
	sigaction(signo, &sa, NULL);
}
