/*
 * role_settings.c: ALTER ROLE / ALTER DATABASE ... SET and RESET, and the settings
 * they keep applied at login (tcop/role_settings.h).
 *
 * A row of rl_db_role_setting is one (database, role) pair's settings, "name=value"
 * lines in the order they were first set, as pg_db_role_setting's setconfig keeps
 * them; a setting set again keeps its place, and a row left without settings goes.
 * The rows are the registry's, changed by commits through the writer as the roles
 * are (tcop/user.h): not in a transaction block.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <pg_query/pg_query.pb-c.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "common/rl_buffer.h"
#include "tcop/aclchk.h"
#include "tcop/dbcommands.h"
#include "tcop/role_settings.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* the setconfig of (datname, role), "" if there is none */
static char *
current_settings(const char *datname, uint32_t role)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	char	   *settings = pstrdup("");

	if (db == NULL || sqlite3_prepare_v2(db, "SELECT setconfig FROM " CACHE_DB_ROLE_SETTING_TABLE
										 " WHERE datname = ?1 AND setrole = ?2", -1, &stmt, NULL) != SQLITE_OK)
	{
		const char *why = db ? pstrdup(sqlite3_errmsg(db)) : rl_last_error();

		sqlite3_close(db);
		ereport(ERROR, errcode(ERRCODE_IO_ERROR), errmsg("could not read the roles' registry: %s", why));
	}
	sqlite3_bind_text(stmt, 1, datname, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, role);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		settings = pstrdup((const char *) sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return settings;
}

/* settings with name set to value (value NULL: without it; name NULL: none) */
static char *
changed_settings(const char *settings, const char *name, const char *value)
{
	RlBuf		out;
	bool		placed = false;
	size_t		nlen = name ? strlen(name) : 0;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (const char *line = settings; name && *line;)
	{
		size_t		len = strcspn(line, "\n");

		if (len > nlen && line[nlen] == '=' && strncasecmp(line, name, nlen) == 0)
		{
			if (value)
				rlbuf_printf(&out, "%s%s=%s", out.len ? "\n" : "", name, value);
			placed = true;
		}
		else
			rlbuf_printf(&out, "%s%.*s", out.len ? "\n" : "", (int) len, line);
		line += len + (line[len] == '\n');
	}
	if (name && value && !placed)
		rlbuf_printf(&out, "%s%s=%s", out.len ? "\n" : "", name, value);
	return pstrdup(rlbuf_cstr(&out));
}

/* the role ALTER ROLE names, its privileges checked; 0 for ALL */
static uint32_t
setting_role(const PgQuery__RoleSpec *spec, const char *datname)
{
	RoleInfo	me;
	RoleInfo	role;
	const char *name;
	bool		found;

	if (catalog_find_role_oid(DataDir, MyRoleId, &me) != RL_OK)
		memset(&me, 0, sizeof(me));
	role_info_free(&me);
	if (spec == NULL)
	{
		if (datname[0] == '\0' && !me.rolsuper)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to alter settings globally"));
		if (datname[0] != '\0')
			CheckDatabaseOwner(datname);
		return 0;
	}
	name = spec->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING ? spec->rolename
		: spec->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER ? SessionUserName : MyUserName;
	if (spec->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"public\" does not exist"));
	found = catalog_find_role(DataDir, name, &role) == RL_OK;
	if (!found)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", name));
	role_info_free(&role);
	if (role.rolsuper && !me.rolsuper)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to alter superusers"));
	if (!role.rolsuper && !me.rolsuper && !me.rolcreaterole && role.oid != MyRoleId)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied"));
	return role.oid;
}

void
AlterRoleSetting(const void *node, const char *name, const char *value)
{
	const PgQuery__Node *n = node;
	bool		database = n->node_case == PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT;
	const char *datname = database ? n->alter_database_set_stmt->dbname
		: n->alter_role_set_stmt->database ? n->alter_role_set_stmt->database : "";
	uint32_t	datid;
	uint32_t	role = 0;
	char	   *settings;
	char	   *sql,
			   *copy;

	if (datname[0] != '\0' && catalog_find_database(DataDir, datname, &datid) != RL_OK)
		ereport(ERROR, errcode(ERRCODE_INVALID_CATALOG_NAME), errmsg("database \"%s\" does not exist", datname));
	if (database)
		CheckDatabaseOwner(datname);
	else
		role = setting_role(n->alter_role_set_stmt->role, datname);
	if (name && GetConfigOption(name) == NULL)
		UnrecognizedConfigOption(name);
	if (name)
		name = GetConfigOptionName(name);	/* PostgreSQL keeps the canonical spelling */
	PreventInTransactionBlock(database ? "ALTER DATABASE" : "ALTER ROLE");
	settings = changed_settings(current_settings(datname, role), name, value);
	sql = settings[0] == '\0'
		? sqlite3_mprintf("DELETE FROM " CACHE_DB_ROLE_SETTING_TABLE " WHERE datname = ?1 AND setrole = %u", role)
		: sqlite3_mprintf("INSERT INTO " CACHE_DB_ROLE_SETTING_TABLE " (datname, setrole, setconfig) VALUES (?1, %u, %Q)"
						  " ON CONFLICT (datname, setrole) DO UPDATE SET setconfig = excluded.setconfig",
						  role, settings);
	/* in palloc'd memory: committing may raise an ERROR */
	copy = sql ? pstrdup(sql) : NULL;
	sqlite3_free(sql);
	if (copy == NULL)
		ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	commit_to_registry(copy, datname);
}

void
ApplyRoleSettings(const char *datname, uint32_t role)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;

	if (db == NULL || sqlite3_prepare_v2(db, "SELECT datname <> '', setrole <> 0, setconfig FROM "
										 CACHE_DB_ROLE_SETTING_TABLE " WHERE datname IN (?1, '')"
										 " AND setrole IN (?2, 0)", -1, &stmt, NULL) != SQLITE_OK)
	{
		sqlite3_close(db);
		return;					/* a registry without the relation yet: no settings */
	}
	sqlite3_bind_text(stmt, 1, datname, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, role);
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		bool		for_database = sqlite3_column_int(stmt, 0) != 0;
		bool		for_role = sqlite3_column_int(stmt, 1) != 0;
		GucSource	source = for_database ? (for_role ? PGC_S_DATABASE_USER : PGC_S_DATABASE)
			: (for_role ? PGC_S_USER : PGC_S_GLOBAL);
		char	   *lines = pstrdup((const char *) sqlite3_column_text(stmt, 2));

		for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n"))
		{
			char	   *eq = strchr(line, '=');
			const char *msg = NULL;

			if (eq == NULL)
				continue;
			*eq = '\0';
			if (!set_config_option(line, eq + 1, source, false, &msg, NULL))
				ereport(WARNING, errmsg("%s", msg ? msg : "invalid setting"));
		}
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
}
