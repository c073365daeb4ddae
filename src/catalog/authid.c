/*
 * authid.c: reading the roles' registry (catalog/authid.h).
 *
 * A read-only connection to the postgres database's cache file per lookup, as
 * catalog_find_database does: lookups happen once per connection (authentication)
 * and per role command, and the registry is the writer's to change.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "utils/mcxt.h"

sqlite3 *
catalog_open_registry(const char *data_directory)
{
	char		path[4096];
	sqlite3    *db = NULL;

	catalog_cache_path(path, sizeof(path), data_directory, CACHE_POSTGRES_DATID);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
	{
		rl_error(RL_IO_ERROR, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	cache_connection_setup(db);
	return db;
}

/* find_role -- the role whose rolname is name, or if name is NULL whose oid is oid */
static RlStatus
find_role(const char *data_directory, const char *name, uint32_t oid, RoleInfo *role)
{
	sqlite3    *db;
	sqlite3_stmt *stmt = NULL;
	RlStatus	rc;

	memset(role, 0, sizeof(*role));
	if ((db = catalog_open_registry(data_directory)) == NULL)
		return RL_IO_ERROR;
	if (sqlite3_prepare_v2(db, "SELECT oid, rolname, rolsuper, rolcreaterole, rolcreatedb, rolcanlogin,"
						   " rolconnlimit, rolpassword, rolvaliduntil FROM " CACHE_AUTHID_TABLE
						   " WHERE rolname = ?1 OR (?1 IS NULL AND oid = ?2)", -1, &stmt, NULL) != SQLITE_OK)
		rc = rl_error(RL_IO_ERROR, "look up role: %s", sqlite3_errmsg(db));
	else
	{
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 2, oid);
		rc = sqlite3_step(stmt) == SQLITE_ROW ? RL_OK
			: name ? rl_error(RL_NOT_FOUND, "role \"%s\" does not exist", name)
			: rl_error(RL_NOT_FOUND, "role with OID %u does not exist", oid);
	}
	if (rc == RL_OK)
	{
		const char *password = (const char *) sqlite3_column_text(stmt, 7);

		role->oid = (uint32_t) sqlite3_column_int64(stmt, 0);
		snprintf(role->rolname, sizeof(role->rolname), "%s", (const char *) sqlite3_column_text(stmt, 1));
		role->rolsuper = sqlite3_column_int(stmt, 2) != 0;
		role->rolcreaterole = sqlite3_column_int(stmt, 3) != 0;
		role->rolcreatedb = sqlite3_column_int(stmt, 4) != 0;
		role->rolcanlogin = sqlite3_column_int(stmt, 5) != 0;
		role->rolconnlimit = sqlite3_column_int(stmt, 6);
		role->rolpassword = password ? pstrdup(password) : NULL;
		role->rolvaliduntil = sqlite3_column_type(stmt, 8) == SQLITE_NULL ? ROLE_NO_VALID_UNTIL
			: sqlite3_column_int64(stmt, 8);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return rc;
}

RlStatus
catalog_find_role(const char *data_directory, const char *name, RoleInfo *role)
{
	return find_role(data_directory, name, 0, role);
}

RlStatus
catalog_find_role_oid(const char *data_directory, uint32_t oid, RoleInfo *role)
{
	return find_role(data_directory, NULL, oid, role);
}

void
role_info_free(RoleInfo *role)
{
	if (role->rolpassword)
		pfree(role->rolpassword);
	role->rolpassword = NULL;
}

RlStatus
catalog_database_owner(const char *data_directory, const char *datname, uint32_t *datdba, char **acl)
{
	sqlite3    *db;
	sqlite3_stmt *stmt = NULL;
	RlStatus	rc = RL_OK;

	*datdba = BOOTSTRAP_SUPERUSERID;
	*acl = NULL;
	if ((db = catalog_open_registry(data_directory)) == NULL)
		return RL_IO_ERROR;
	if (sqlite3_prepare_v2(db, "SELECT datdba, datacl FROM " CACHE_DATABASE_ACL_TABLE " WHERE datname = ?1",
						   -1, &stmt, NULL) != SQLITE_OK)
		rc = rl_error(RL_IO_ERROR, "look up database: %s", sqlite3_errmsg(db));
	else
	{
		sqlite3_bind_text(stmt, 1, datname, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) == SQLITE_ROW)
		{
			*datdba = (uint32_t) sqlite3_column_int64(stmt, 0);
			if (sqlite3_column_type(stmt, 1) != SQLITE_NULL)
				*acl = strdup((const char *) sqlite3_column_text(stmt, 1));
		}
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return rc;
}

char *
catalog_bootstrap_superuser(const char *data_directory)
{
	char		path[4096];
	char		line[256] = "";
	FILE	   *f;
	struct passwd *pw;

	snprintf(path, sizeof(path), "%s/%s", data_directory, BOOTSTRAP_SUPERUSER_FILE);
	if ((f = fopen(path, "r")) != NULL)
	{
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
		line[strcspn(line, "\r\n")] = '\0';
	}
	if (line[0] != '\0')
		return strdup(line);
	pw = getpwuid(geteuid());
	return strdup(pw && pw->pw_name ? pw->pw_name : "postgres");
}
