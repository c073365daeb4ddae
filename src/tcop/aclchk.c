/*
 * aclchk.c: databases' owners and privileges (tcop/aclchk.h).
 *
 * A database's owner (datdba) is the role that created it; its ACL (datacl) is NULL,
 * PostgreSQL's default (PUBLIC may connect and make temporary tables, the owner may
 * do everything), until a GRANT or REVOKE writes it out. Both live in the registry
 * (rl_database_acl, catalog/acl.h) and change by commits through the writer, as
 * roles do, so GRANT and REVOKE refuse to run inside a transaction block. The
 * grantor is always the owner, as PostgreSQL records it when a superuser grants;
 * WITH GRANT OPTION is not supported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pg_query/pg_query.pb-c.h>

#include "catalog/acl.h"
#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/pg_authid.h"
#include "common/rl_buffer.h"
#include "parser/analyze.h"
#include "tcop/aclchk.h"
#include "tcop/dbcommands.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* a database's owner and its ACL in stored form, the default written out */
static uint32_t
database_acl(const char *name, char **acl)
{
	uint32_t	owner;
	char	   *stored;

	if (catalog_database_owner(DataDir, name, &owner, &stored) != RL_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s", rl_last_error()));
	*acl = acl_database(stored, owner);
	free(stored);
	return owner;
}

/* the letters of GRANT's privileges on a database (ALL: every one) */
static const char *
database_privileges(PgQuery__Node **privileges, size_t n)
{
	char	   *letters = palloc0(n + 1);

	if (n == 0)
		return ACL_ALL_RIGHTS_DATABASE;
	for (size_t i = 0; i < n; i++)
	{
		const char *name = privileges[i]->access_priv->priv_name;

		if (privileges[i]->access_priv->n_cols)
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("column privileges are only valid for relations"));
		if (strcmp(name, "connect") == 0)
			letters[i] = 'c';
		else if (strcmp(name, "temporary") == 0 || strcmp(name, "temp") == 0)
			letters[i] = 'T';
		else if (strcmp(name, "create") == 0)
			letters[i] = 'C';
		else
		{
			char	   *upper = pstrdup(name);

			for (char *p = upper; *p; p++)
				*p = (char) (*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("invalid privilege type %s for database", upper));
		}
	}
	return letters;
}

void
ExecuteGrantOnDatabase(const void *node)
{
	const PgQuery__GrantStmt *g = ((const PgQuery__Node *) node)->grant_stmt;
	const char *privileges = database_privileges(g->privileges, g->n_privileges);

	if (g->grant_option)
		ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s is not supported", g->is_grant ? "WITH GRANT OPTION" : "GRANT OPTION FOR"));
	PreventInTransactionBlock(g->is_grant ? "GRANT" : "REVOKE");
	for (size_t i = 0; i < g->n_objects; i++)
	{
		const char *name = g->objects[i]->string->sval;
		uint32_t	datid;
		char	   *acl;
		uint32_t	owner;

		if (catalog_find_database(DataDir, name, &datid) != RL_OK)
			ereport(ERROR, errcode(ERRCODE_INVALID_CATALOG_NAME), errmsg("database \"%s\" does not exist", name));
		owner = database_acl(name, &acl);
		if (!GetConfigBool("is_superuser") && owner != MyRoleId)
		{
			/* PostgreSQL: a role with privileges but no grant option is warned, others refused */
			if (!acl_allows(acl, MyRoleId, 'C') && !acl_allows(acl, MyRoleId, 'T') &&
				!acl_allows(acl, MyRoleId, 'c'))
				ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						errmsg("permission denied for database %s", name));
			if (g->is_grant)
				ereport(WARNING, errcode(ERRCODE_WARNING_PRIVILEGE_NOT_GRANTED),
						errmsg("no privileges were granted for \"%s\"", name));
			else
				ereport(WARNING, errcode(ERRCODE_WARNING_PRIVILEGE_NOT_REVOKED),
						errmsg("no privileges could be revoked for \"%s\"", name));
			continue;
		}
		for (size_t k = 0; k < g->n_grantees; k++)
			acl = acl_update(acl, GranteeOid(g->grantees[k]->role_spec), owner, privileges, g->is_grant);
		char	   *sql = sqlite3_mprintf("INSERT INTO " CACHE_DATABASE_ACL_TABLE " (datname, datdba, datacl)"
										  " VALUES (%Q, %u, %Q) ON CONFLICT (datname) DO UPDATE SET datacl = excluded.datacl",
										  name, owner, acl);
		/* in palloc'd memory: committing may raise an ERROR */
		char	   *copy = sql ? pstrdup(sql) : NULL;

		sqlite3_free(sql);
		if (copy == NULL)
			ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		commit_to_registry(copy, NULL);
	}
}

void
CheckDatabaseConnect(const char *name)
{
	char	   *acl;

	if (GetConfigBool("is_superuser"))
		return;
	database_acl(name, &acl);
	if (!acl_allows(acl, MyRoleId, 'c'))
		ereport(FATAL, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied for database \"%s\"", name),
				errdetail("User does not have CONNECT privilege."));
}

void
CheckDatabaseOwner(const char *name)
{
	char	   *acl;

	if (!GetConfigBool("is_superuser") && database_acl(name, &acl) != MyRoleId)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("must be owner of database %s", name));
}

char *
RoleDatabaseDependencies(uint32_t role)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	RlBuf		detail;

	rlbuf_init_in(&detail, CurrentMemoryContext);
	if (db == NULL || sqlite3_prepare_v2(db, "SELECT d.datname, a.datdba, a.datacl FROM " CACHE_DATABASE_TABLE
										 " AS d JOIN " CACHE_DATABASE_ACL_TABLE " AS a USING (datname)"
										 " ORDER BY d.datid", -1, &stmt, NULL) != SQLITE_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s",
					   db ? sqlite3_errmsg(db) : rl_last_error()));
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		const char *name = (const char *) sqlite3_column_text(stmt, 0);
		uint32_t	owner = (uint32_t) sqlite3_column_int64(stmt, 1);
		const char *acl = (const char *) sqlite3_column_text(stmt, 2);
		char	   *mine = psprintf("%u=", role);

		if (owner == role)
			rlbuf_printf(&detail, "%sowner of database %s", detail.len ? "\n" : "", name);
		/* an item of its own: its first, or one after a comma */
		else if (acl && (strncmp(acl, mine, strlen(mine)) == 0 || strstr(acl, psprintf(",%s", mine))))
			rlbuf_printf(&detail, "%sprivileges for database %s", detail.len ? "\n" : "", name);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return detail.len ? pstrdup(rlbuf_cstr(&detail)) : NULL;
}
