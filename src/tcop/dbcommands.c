/*
 * dbcommands.c: CREATE DATABASE and DROP DATABASE.
 *
 * Databases are independent catalogs; their registry is rl_database in the postgres
 * database's catalog (catalog_cache.h). Creating or dropping one is therefore an
 * ordinary commit to that catalog, computed as a changeset on the postgres cache
 * file whatever database the session is connected to, and sent to the writer on a
 * connection attached to the postgres database; the writer opens or closes the
 * database's store and cache once the commit is durable. Like PostgreSQL, neither
 * runs inside a transaction block.
 */
#include <stdio.h>
#include <string.h>

#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/pg_authid.h"
#include "catalog/writer.h"
#include "tcop/aclchk.h"
#include "tcop/dbcommands.h"
#include "tcop/user.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/*
 * Compute the changeset of sql (one or more statements, ?1 bound to name in each)
 * on the registry and commit it through the writer.
 */
void
commit_to_registry(const char *sql, const char *name)
{
	char		path[4096];
	sqlite3    *db = NULL;
	CacheCapture *capture = NULL;
	RlBuf		changeset;
	WriterConn *conn;
	WriterCommitResult result;
	RlStatus	rc;

	catalog_cache_path(path, sizeof(path), DataDir, CACHE_POSTGRES_DATID);
	rlbuf_init(&changeset);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		rc = rl_error(RL_IO_ERROR, "%s", sqlite3_errmsg(db));
	else
	{
		cache_connection_setup(db);
		rc = cache_capture_begin(db, NULL, &capture);
	}
	if (rc == RL_OK)
	{
		sqlite3_stmt *stmt;
		const char *tail = sql;

		while (rc == RL_OK && *tail != '\0')
		{
			if (sqlite3_prepare_v2(db, tail, -1, &stmt, &tail) != SQLITE_OK)
				rc = rl_error(RL_IO_ERROR, "%s", sqlite3_errmsg(db));
			else if (stmt != NULL)
			{
				if (sqlite3_bind_parameter_count(stmt) > 0)
					sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
				if (sqlite3_step(stmt) != SQLITE_DONE)
					rc = rl_error(RL_IO_ERROR, "%s", sqlite3_errmsg(db));
				sqlite3_finalize(stmt);
			}
		}
		RlStatus	end = cache_capture_end(capture, &changeset);

		if (rc == RL_OK)
			rc = end;
	}
	sqlite3_close(db);
	if (rc != RL_OK)
	{
		rlbuf_free(&changeset);
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not change the database registry: %s", rl_last_error()));
	}
	conn = writer_connect(psprintf("%s/%s", DataDir, WRITER_SOCKET_NAME));
	rc = conn ? writer_commit(conn, 0, changeset.data, changeset.len, &result) : RL_IO_ERROR;
	if (conn)
		writer_disconnect(conn);
	rlbuf_free(&changeset);
	if (rc != RL_OK)
		CacheCommitOutcomeUnknown(rc);
	if (!result.committed)
		ereport(ERROR, errcode(result.sqlstate), errmsg("%s", result.message));
}

void
CreateDatabase(const char *name, const char *owner)
{
	uint32_t	datid;
	uint32_t	datdba = owner ? RoleOidByName(owner) : MyRoleId;

	PreventInTransactionBlock("CREATE DATABASE");
	if (datdba == 0)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", owner));
	CheckCreatedbPrivilege();
	/* PostgreSQL: one may give a database only to a role one is a member of */
	if (datdba != MyRoleId && !GetConfigBool("is_superuser"))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be member of role \"%s\"", owner));
	if (catalog_find_database(DataDir, name, &datid) == RL_OK)
		ereport(ERROR, errcode(ERRCODE_DUPLICATE_DATABASE),
				errmsg("database \"%s\" already exists", name));
	/* owned by its creator, with the default ACL */
	commit_to_registry(psprintf("INSERT INTO " CACHE_DATABASE_TABLE
								" SELECT coalesce(max(datid), 0) + 1, ?1 FROM " CACHE_DATABASE_TABLE ";"
								"INSERT INTO " CACHE_DATABASE_ACL_TABLE " (datname, datdba) VALUES (?1, %u)",
								datdba), name);
}

void
DropDatabase(const char *name, bool missing_ok)
{
	uint32_t	datid;

	PreventInTransactionBlock("DROP DATABASE");
	if (catalog_find_database(DataDir, name, &datid) != RL_OK)
	{
		if (!missing_ok)
			ereport(ERROR, errcode(ERRCODE_INVALID_CATALOG_NAME),
					errmsg("database \"%s\" does not exist", name));
		ereport(NOTICE, errmsg("database \"%s\" does not exist, skipping", name));
		return;
	}
	CheckDatabaseOwner(name);
	if (datid == MyDatabaseId)
		ereport(ERROR, errcode(ERRCODE_OBJECT_IN_USE),
				errmsg("cannot drop the currently open database"));
	if (datid == CACHE_POSTGRES_DATID)
		ereport(ERROR, errcode(ERRCODE_OBJECT_IN_USE),
				errmsg("cannot drop database \"%s\": it holds the registry of databases", name));
	commit_to_registry("DELETE FROM " CACHE_DATABASE_ACL_TABLE " WHERE datname = ?1;"
					   "DELETE FROM " CACHE_DB_ROLE_SETTING_TABLE " WHERE datname = ?1;"
					   "DELETE FROM " CACHE_PUBLISH_PIN_TABLE " WHERE datname = ?1;"
					   "DELETE FROM " CACHE_DATABASE_TABLE " WHERE datname = ?1", name);
}
