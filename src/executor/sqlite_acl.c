/*
 * sqlite_acl.c: the SQLite functions of access control lists (executor/sqlite_exec.h),
 * so that GRANT and REVOKE change an ACL inside the statement that writes it (in the
 * transaction's capture, seeing its earlier changes) and the catalogs show ACLs:
 *
 *   rl_acl_update(acl, grantee, grantor, letters, is_grant)  acl.h's acl_update
 *   rl_acl_text(acl)        PostgreSQL's aclitem[] text, roles by name (NULL: NULL)
 *   rl_database_owner()     the session's database's owner (pg_auth_members.h)
 */
#include <string.h>

#include "catalog/acl.h"
#include "catalog/pg_auth_members.h"
#include "executor/sqlite_exec.h"

static void
rl_acl_update(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *acl = (const char *) sqlite3_value_text(argv[0]);
	char	   *updated = acl_update(acl ? acl : "", (uint32_t) sqlite3_value_int64(argv[1]),
									 (uint32_t) sqlite3_value_int64(argv[2]),
									 (const char *) sqlite3_value_text(argv[3]), sqlite3_value_int(argv[4]) != 0);

	(void) argc;
	sqlite3_result_text(ctx, updated, -1, SQLITE_TRANSIENT);
}

static void
rl_acl_text(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *acl = (const char *) sqlite3_value_text(argv[0]);

	(void) argc;
	if (acl == NULL)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_text(ctx, acl_text(acl), -1, SQLITE_TRANSIENT);
}

static void
rl_database_owner(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	(void) argv;
	sqlite3_result_int64(ctx, CurrentDatabaseOwner());
}

void
ExecRegisterAclFunctions(sqlite3 *db)
{
	sqlite3_create_function(db, "rl_acl_update", 5, SQLITE_UTF8, NULL, rl_acl_update, NULL, NULL);
	sqlite3_create_function(db, "rl_acl_text", 1, SQLITE_UTF8, NULL, rl_acl_text, NULL, NULL);
	sqlite3_create_function(db, "rl_database_owner", 0, SQLITE_UTF8, NULL, rl_database_owner, NULL, NULL);
}
