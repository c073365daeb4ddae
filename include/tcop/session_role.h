/*
 * session_role.h: who the session is, as PostgreSQL 15 has it (session_role.c).
 *
 * The authenticated user is the role that logged in. The session user
 * (session_user) starts as it; SET SESSION AUTHORIZATION makes it another role, if
 * the authenticated user is a superuser. The current user (current_user, whose
 * privileges every check asks about) is the session user, or the role SET ROLE
 * chose among those the session user is a member of. Both are the settings
 * session_authorization and role, so SET LOCAL, RESET and a rolled-back transaction
 * take them back as they do any setting; is_superuser follows the current user.
 * The globals of miscadmin.h mirror them.
 */
#ifndef RL_SESSION_ROLE_H
#define RL_SESSION_ROLE_H

#include <stdbool.h>
#include <stdint.h>

/* At login, once the role is authenticated: the three users are it. */
void		InitSessionUser(uint32_t role, const char *name, bool superuser);

#endif
