/*
 * pg_authid.c: the roles' relations of pg_catalog (catalog/pg_authid.h).
 *
 * Each is made, when a statement names it, from the roles' registry read on its own
 * connection to the postgres database's cache file (roles are cluster-wide, and each
 * database has its own cache file), as pg_database is, plus PostgreSQL 15's
 * predefined roles with their OIDs, which cannot log in and have no attributes.
 * pg_authid and pg_shadow show password verifiers and are the superuser's only:
 * others get PostgreSQL's 42501 when a statement names them.
 */
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/pg_authid.h"
#include "common/rl_buffer.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"

/* PostgreSQL 15's predefined roles: (oid, name) */
#define PREDEFINED_ROLES \
	"(6171, 'pg_database_owner'), (6181, 'pg_read_all_data'), (6182, 'pg_write_all_data')," \
	" (3373, 'pg_monitor'), (3374, 'pg_read_all_settings'), (3375, 'pg_read_all_stats')," \
	" (3377, 'pg_stat_scan_tables'), (4569, 'pg_read_server_files'), (4570, 'pg_write_server_files')," \
	" (4571, 'pg_execute_server_program'), (4200, 'pg_signal_backend'), (4544, 'pg_checkpoint')"

/*
 * authid_sql -- pg_authid's rows as a SELECT: the registry's as VALUES, then the
 * predefined roles
 */
static char *
authid_sql(void)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	if (db != NULL)
		sqlite3_prepare_v2(db, "SELECT oid, rolname, rolsuper, rolcreaterole, rolcreatedb, rolcanlogin,"
						   " rolconnlimit, rolpassword, rolvaliduntil,"
						   " oid NOT IN (SELECT oid FROM " CACHE_NOINHERIT_TABLE ") FROM " CACHE_AUTHID_TABLE,
						   -1, &stmt, NULL);
	while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW)
	{
		/* initdb's superuser alone has REPLICATION and BYPASSRLS */
		int			bootstrap = sqlite3_column_int64(stmt, 0) == BOOTSTRAP_SUPERUSERID;
		char	   *row = sqlite3_mprintf("(%lld, %Q, %d, %d, %d, %d, %d, %d, %d, %d, %Q, %s), ",
										  sqlite3_column_int64(stmt, 0),
										  (const char *) sqlite3_column_text(stmt, 1),
										  sqlite3_column_int(stmt, 2), sqlite3_column_int(stmt, 9),
										  sqlite3_column_int(stmt, 3),
										  sqlite3_column_int(stmt, 4), sqlite3_column_int(stmt, 5),
										  bootstrap, bootstrap, sqlite3_column_int(stmt, 6),
										  (const char *) sqlite3_column_text(stmt, 7),
										  sqlite3_column_type(stmt, 8) == SQLITE_NULL ? "NULL"
										  : (const char *) sqlite3_column_text(stmt, 8));

		rlbuf_append_str(&b, row);
		sqlite3_free(row);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return psprintf("SELECT column1 AS oid, column2 AS rolname, column3 AS rolsuper, column4 AS rolinherit,"
					" column5 AS rolcreaterole, column6 AS rolcreatedb, column7 AS rolcanlogin,"
					" column8 AS rolreplication, column9 AS rolbypassrls, column10 AS rolconnlimit,"
					" column11 AS rolpassword, column12 AS rolvaliduntil FROM (VALUES %s"
					" UNION ALL SELECT column1, column2, 0, 1, 0, 0, 0, 0, 0, -1, NULL, NULL"
					" FROM (VALUES " PREDEFINED_ROLES "))",
					b.len ? psprintf("%.*s", (int) b.len - 2, rlbuf_cstr(&b))
					: "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) LIMIT 0");
}

/* the superuser's only, as PostgreSQL's ACL on these relations */
static void
check_superuser(const char *kind, const char *name)
{
	if (!GetConfigBool("is_superuser"))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied for %s %s", kind, name));
}

char *
BuildPgAuthidSql(void)
{
	check_superuser("table", "pg_authid");
	return authid_sql();
}

/* an element of a text[] literal, quoted where PostgreSQL's array output quotes it */
static void
append_array_element(RlBuf *b, const char *e, size_t len)
{
	bool		quote = len == 0 || (len == 4 && strncasecmp(e, "NULL", 4) == 0);

	for (size_t i = 0; i < len && !quote; i++)
		quote = strchr("{}\",\\ \t\n", e[i]) != NULL;
	if (!quote)
	{
		rlbuf_printf(b, "%.*s", (int) len, e);
		return;
	}
	rlbuf_append_str(b, "\"");
	for (size_t i = 0; i < len; i++)
		rlbuf_printf(b, "%s%c", e[i] == '"' || e[i] == '\\' ? "\\" : "", e[i]);
	rlbuf_append_str(b, "\"");
}

char *
BuildPgDbRoleSettingSql(void)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	if (db != NULL)
		sqlite3_prepare_v2(db, "SELECT coalesce((SELECT datid FROM " CACHE_DATABASE_TABLE " AS d WHERE d.datname = s.datname),"
						   " 0), setrole, setconfig FROM " CACHE_DB_ROLE_SETTING_TABLE " AS s ORDER BY id", -1, &stmt, NULL);
	while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW)
	{
		RlBuf		array;
		char	   *row;

		rlbuf_init_in(&array, CurrentMemoryContext);
		rlbuf_append_str(&array, "{");
		for (const char *line = (const char *) sqlite3_column_text(stmt, 2); *line;)
		{
			size_t		len = strcspn(line, "\n");

			if (array.len > 1)
				rlbuf_append_str(&array, ",");
			append_array_element(&array, line, len);
			line += len + (line[len] == '\n');
		}
		rlbuf_append_str(&array, "}");
		row = sqlite3_mprintf("%s(%lld, %lld, %Q)", b.len ? ", " : "", sqlite3_column_int64(stmt, 0),
							  sqlite3_column_int64(stmt, 1), rlbuf_cstr(&array));
		rlbuf_append_str(&b, row);
		sqlite3_free(row);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	if (b.len == 0)
		return pstrdup("SELECT NULL AS setdatabase, NULL AS setrole, NULL AS setconfig WHERE 0");
	return psprintf("SELECT column1 AS setdatabase, column2 AS setrole, column3 AS setconfig FROM (VALUES %s)",
					rlbuf_cstr(&b));
}

/* a role's settings for every database (rolconfig, useconfig) */
#define ROLCONFIG_SQL(oid) "(SELECT s.setconfig FROM (%s) AS s WHERE s.setdatabase = 0 AND s.setrole = " oid ")"

char *
BuildPgRolesSql(void)
{
	return psprintf("SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin,"
					" rolreplication, rolconnlimit, '********' AS rolpassword, rolvaliduntil, rolbypassrls,"
					" " ROLCONFIG_SQL("a.oid") " AS rolconfig, oid FROM (%s) AS a",
					BuildPgDbRoleSettingSql(), authid_sql());
}

/* pg_shadow's and pg_user's columns, the password as passwd says */
static char *
user_sql(const char *passwd)
{
	return psprintf("SELECT rolname AS usename, oid AS usesysid, rolcreatedb AS usecreatedb,"
					" rolsuper AS usesuper, rolreplication AS userepl, rolbypassrls AS usebypassrls,"
					" %s AS passwd, rolvaliduntil AS valuntil, " ROLCONFIG_SQL("a.oid") " AS useconfig"
					" FROM (%s) AS a WHERE rolcanlogin", passwd, BuildPgDbRoleSettingSql(), authid_sql());
}

char *
BuildPgUserSql(void)
{
	return user_sql("'********'");
}

char *
BuildPgShadowSql(void)
{
	check_superuser("view", "pg_shadow");
	return user_sql("rolpassword");
}

Oid
RoleOidByName(const char *name)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	Oid			oid = 0;

	if (db != NULL)
		sqlite3_prepare_v2(db, "SELECT oid FROM " CACHE_AUTHID_TABLE " WHERE rolname = ?1"
						   " UNION ALL SELECT column1 FROM (VALUES " PREDEFINED_ROLES ") WHERE column2 = ?1",
						   -1, &stmt, NULL);
	if (stmt != NULL)
	{
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) == SQLITE_ROW)
			oid = (Oid) sqlite3_column_int64(stmt, 0);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return oid;
}

char *
RoleNameById(Oid oid)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	char	   *name = NULL;

	if (db != NULL)
		sqlite3_prepare_v2(db, "SELECT rolname FROM " CACHE_AUTHID_TABLE " WHERE oid = ?1"
						   " UNION ALL SELECT column2 FROM (VALUES " PREDEFINED_ROLES ") WHERE column1 = ?1",
						   -1, &stmt, NULL);
	if (stmt != NULL)
	{
		sqlite3_bind_int64(stmt, 1, oid);
		if (sqlite3_step(stmt) == SQLITE_ROW)
			name = pstrdup((const char *) sqlite3_column_text(stmt, 0));
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return name ? name : psprintf("unknown (OID=%u)", oid);
}
