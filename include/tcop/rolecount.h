/*
 * rolecount.h: how many sessions each role has, for CONNECTION LIMIT (rolecount.c).
 *
 * A table of (pid, role) slots in memory the postmaster maps before it forks, as the
 * commit horizon is: a backend takes a slot once its role is known and gives it back
 * when it exits. A slot whose process is gone (killed) is neither counted nor kept.
 */
#ifndef RL_ROLECOUNT_H
#define RL_ROLECOUNT_H

#include <stdbool.h>
#include <stdint.h>

/* The postmaster, before it forks anything: maps the shared table. */
void		RoleConnectionsInit(void);

/*
 * A backend whose session is role's: counts it, and FATAL 53300 "too many
 * connections for role" if that makes more than limit (-1: none; a superuser has
 * none), as PostgreSQL's InitializeSessionUserId.
 */
void		RoleConnectionEnter(uint32_t role, const char *name, int32_t limit, bool superuser);

#endif
