/*
 * rolemembers.h: role membership commands (rolemembers.c): GRANT role TO role
 * [WITH ADMIN OPTION] [GRANTED BY], REVOKE [ADMIN OPTION FOR] role FROM role, the
 * IN ROLE, ROLE and ADMIN clauses of CREATE ROLE and ALTER GROUP ... ADD / DROP
 * USER, with PostgreSQL 15's checks, notices and wording. Memberships are rows of
 * the registry's rl_auth_members (catalog/pg_auth_members.h), changed by commits
 * through the writer as the roles are (tcop/user.h).
 */
#ifndef RL_ROLEMEMBERS_H
#define RL_ROLEMEMBERS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/rl_buffer.h"

/* GRANT / REVOKE of roles: node is the GrantRoleStmt's parse tree node */
void		GrantRole(const void *node);

/*
 * Append to sql the statements that make the memberships of CREATE ROLE name's
 * IN ROLE (addroleto), ROLE (rolemembers) and ADMIN (adminmembers) clauses, each a
 * list of RoleSpec nodes (NULL for none), once their privileges are checked; ?1 is
 * the new role's name in the commit to the registry.
 */
void		CreateRoleMembershipsSql(RlBuf *sql, const char *name, const void *addroleto,
									 const void *rolemembers, const void *adminmembers);

/*
 * ALTER GROUP name ADD USER (add) / DROP USER members: the statements into sql, as
 * GRANT and REVOKE name TO / FROM them would; members is a list of RoleSpec nodes.
 */
void		AlterGroupMembersSql(RlBuf *sql, const char *name, const void *members, bool add);

#endif
