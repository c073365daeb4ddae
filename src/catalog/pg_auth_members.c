/*
 * pg_auth_members.c: the roles' memberships (catalog/pg_auth_members.h).
 *
 * Every question is one recursive SQLite query over the registry's edges (its rows
 * and PostgreSQL's built-in ones) on a read-only connection of its own, as the
 * roles' lookups are (authid.c): a membership granted by another session counts
 * at the next statement.
 */
#include <stdlib.h>

#include <sqlite3.h>

#include "catalog/acl.h"
#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/pg_auth_members.h"
#include "common/rl_buffer.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/*
 * The membership edges (roleid, member, grantor, admin_option): the registry's,
 * pg_monitor's as initdb grants them, and pg_database_owner's implicit member
 * ?3 (the database's owner; none for 0)
 */
#define EDGES_SQL \
	"SELECT roleid, member, grantor, admin_option FROM " CACHE_AUTH_MEMBERS_TABLE \
	" UNION ALL SELECT column1, 3373, 10, 0 FROM (VALUES (3374), (3375), (3377))"
#define EDGES_WITH_DBA_SQL EDGES_SQL " UNION ALL SELECT 6171, ?3, 10, 0 WHERE ?3 <> 0"

/*
 * The roles ?1 reaches (itself first), following every edge, or with ?4 only
 * those of roles that inherit
 */
#define REACHED_SQL \
	"WITH RECURSIVE edges AS (" EDGES_WITH_DBA_SQL "), reached(r) AS (SELECT ?1 UNION" \
	" SELECT e.roleid FROM reached JOIN edges AS e ON e.member = reached.r" \
	" WHERE ?4 = 0 OR reached.r NOT IN (SELECT oid FROM " CACHE_NOINHERIT_TABLE "))"

/* the first column of sql's one row as a bool, ?1 .. ?4 bound to a .. d */
static bool
ask(const char *sql, int64_t a, int64_t b, int64_t c, int64_t d)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	bool		answer;

	if (db == NULL || sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
	{
		const char *why = db ? pstrdup(sqlite3_errmsg(db)) : rl_last_error();

		sqlite3_close(db);
		ereport(ERROR, errcode(ERRCODE_IO_ERROR), errmsg("could not read the roles' registry: %s", why));
	}
	sqlite3_bind_int64(stmt, 1, a);
	sqlite3_bind_int64(stmt, 2, b);
	sqlite3_bind_int64(stmt, 3, c);
	sqlite3_bind_int64(stmt, 4, d);
	answer = sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0) != 0;
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return answer;
}

/* whether role is a superuser */
static bool
is_superuser_role(Oid role)
{
	return ask("SELECT EXISTS (SELECT 1 FROM " CACHE_AUTHID_TABLE " WHERE oid = ?1 AND rolsuper)", role, 0, 0, 0);
}

bool
RoleReaches(Oid member, Oid role, RoleRecurse how, bool superuser, Oid dba)
{
	return (superuser && is_superuser_role(member)) ||
		ask(REACHED_SQL " SELECT EXISTS (SELECT 1 FROM reached WHERE r = ?2)",
			member, role, dba, how == ROLERECURSE_PRIVS);
}

bool
RoleIsAdminOf(Oid member, Oid role)
{
	/* a superuser is; by policy no role is of itself */
	if (is_superuser_role(member))
		return true;
	return member != role &&
		ask(REACHED_SQL " SELECT EXISTS (SELECT 1 FROM reached JOIN edges AS e ON e.member = reached.r"
			" WHERE e.roleid = ?2 AND e.admin_option)", member, role, 0, 0);
}

bool
RoleDirectMember(Oid role, Oid member, bool *admin)
{
	*admin = ask("SELECT EXISTS (SELECT 1 FROM (" EDGES_SQL ") WHERE roleid = ?1 AND member = ?2 AND admin_option)",
				 role, member, 0, 0);
	return ask("SELECT EXISTS (SELECT 1 FROM (" EDGES_SQL ") WHERE roleid = ?1 AND member = ?2)",
			   role, member, 0, 0);
}

bool
AclPermits(const char *acl, Oid role, char privilege, Oid dba)
{
	uint32_t   *grantees;
	int			n = acl_grantees(acl, privilege, &grantees);

	/* PUBLIC's and the role's own items first: they need no look-up */
	for (int i = 0; i < n; i++)
		if (grantees[i] == ACL_ID_PUBLIC || grantees[i] == role)
			return true;
	for (int i = 0; i < n; i++)
		if (RoleReaches(role, grantees[i], ROLERECURSE_PRIVS, false, dba))
			return true;
	return false;
}

Oid
CurrentDatabaseOwner(void)
{
	static Oid	owner;
	char	   *acl = NULL;

	if (owner == 0 && catalog_database_owner(DataDir, MyDatabaseName, &owner, &acl) != RL_OK)
		owner = 0;
	free(acl);
	return owner ? owner : BOOTSTRAP_SUPERUSERID;
}

char *
BuildPgAuthMembersSql(void)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	if (db != NULL)
		sqlite3_prepare_v2(db, EDGES_SQL, -1, &stmt, NULL);
	while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW)
		rlbuf_printf(&b, "%s(%lld, %lld, %lld, %d)", b.len ? ", " : "", sqlite3_column_int64(stmt, 0),
					 sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2), sqlite3_column_int(stmt, 3));
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return psprintf("SELECT column1 AS roleid, column2 AS member, column3 AS grantor, column4 AS admin_option"
					" FROM (VALUES %s)", b.len ? rlbuf_cstr(&b) : "(NULL, NULL, NULL, NULL) LIMIT 0");
}
