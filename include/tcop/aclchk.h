/*
 * aclchk.h: databases' owners and privileges: GRANT and REVOKE ON DATABASE, the
 * CONNECT check at connection, the owner's check of DROP DATABASE, and what a role
 * owns or holds that keeps DROP ROLE from dropping it (aclchk.c).
 */
#ifndef RL_ACLCHK_H
#define RL_ACLCHK_H

#include <stdint.h>

/*
 * GRANT / REVOKE privileges ON DATABASE ... TO / FROM roles | PUBLIC; node is the
 * GrantStmt's parse tree node. Stored in the registry (catalog/acl.h).
 */
void		ExecuteGrantOnDatabase(const void *node);
/* FATAL 42501 "permission denied for database" unless the session's role may connect */
void		CheckDatabaseConnect(const char *name);
/* ERROR 42501 "must be owner of database" unless the session's role owns it or is a superuser */
void		CheckDatabaseOwner(const char *name);
/* What of the databases role owns or holds privileges on, as DROP ROLE's DETAIL; NULL if nothing */
char	   *RoleDatabaseDependencies(uint32_t role);

#endif
