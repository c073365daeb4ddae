/*
 * rl_signal.h: installing signal handlers the same way in every process.
 */
#ifndef RL_SIGNAL_H
#define RL_SIGNAL_H

#include <stdbool.h>

/*
 * Install handler (or SIG_IGN / SIG_DFL) for signo. restart_syscalls: SA_RESTART,
 * for processes whose loops wait in poll() and check flags afterwards; a backend
 * blocked in recv() needs EINTR instead, to notice a cancel or a shutdown at once.
 */
void		rl_set_signal_handler(int signo, void (*handler) (int), bool restart_syscalls);

#endif
