/*
 * aclchk.h: databases' owners and privileges: GRANT and REVOKE ON DATABASE, the
 * CONNECT check at connection, the owner's check of DROP DATABASE, and what a role
 * owns or holds that keeps DROP ROLE from dropping it (aclchk.c); and the check of
 * what a statement needs of relations and schemas when it runs (aclchk_rel.c).
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
/*
 * What role owns or holds privileges on, as DROP ROLE's DETAIL: the schemas and tables
 * of the session's database, the databases, then the number of such objects in each
 * other database; NULL if nothing
 */
char	   *RoleDatabaseDependencies(uint32_t role);

struct AnalyzedStmt;

/*
 * ERROR 42501 unless the current user has what stmt needs (its RequiredPrivilege
 * list): a relation's privileges ("permission denied for table t"), preceded by its
 * schema's USAGE ("permission denied for schema s"), a schema's, or ownership ("must
 * be owner of table t"). A superuser has everything. false, with PostgreSQL's
 * WARNING, for a GRANT or REVOKE by a role with privileges on an object it does not
 * own (it holds no grant option): the statement then changes nothing.
 */
bool		ExecCheckPrivileges(const struct AnalyzedStmt *stmt);
#endif
