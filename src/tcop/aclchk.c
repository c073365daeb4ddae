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

#define STR(x) #x
#define XSTR(x) STR(x)

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

/* acl_names -- whether the stored acl has an item for role (its grantee) */
static bool
acl_names(const char *acl, uint32_t role)
{
	char	   *mine = psprintf("%u=", role);

	return acl && (strncmp(acl, mine, strlen(mine)) == 0 || strstr(acl, psprintf(",%s", mine)) != NULL);
}

/* role_object -- counts an object role owns or is named in the acl of, and writes its line */
static int
role_object(uint32_t role, const char *kind, const char *name, uint32_t owner, const char *acl, RlBuf *detail)
{
	if (owner != role && !acl_names(acl, role))
		return 0;
	if (detail)
		rlbuf_printf(detail, "%s%s %s %s", detail->len ? "\n" : "", owner == role ? "owner of" : "privileges for",
					 kind, name);
	return 1;
}

/*
 * role_objects -- the schemas and tables of database datid (read in its cache file)
 * that role owns or holds privileges on: PostgreSQL's DETAIL line of each in detail
 * (NULL: only counted), schemas first, each kind in the order its rows were written;
 * their number
 */
static int
role_objects(uint32_t datid, uint32_t role, RlBuf *detail)
{
	char		path[4096];
	sqlite3    *db = NULL;
	sqlite3_stmt *schemas = NULL,
			   *tables = NULL;
	int			n = 0;

	catalog_cache_path(path, sizeof(path), DataDir, datid);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
	{
		sqlite3_busy_timeout(db, CACHE_BUSY_TIMEOUT_MS);
		/* public is pg_database_owner's */
		sqlite3_prepare_v2(db, "SELECT s.nspid, s.nspname, s.nspowner, a.nspacl FROM (SELECT " XSTR(PG_PUBLIC_NAMESPACE)
						   " AS nspid, 'public' AS nspname, " XSTR(ROLE_PG_DATABASE_OWNER) " AS nspowner"
						   " UNION ALL SELECT nspid, nspname, nspowner FROM " CACHE_NAMESPACE_TABLE ") AS s LEFT JOIN "
						   CACHE_NAMESPACE_ACL_TABLE " AS a USING (nspid)", -1, &schemas, NULL);
		sqlite3_prepare_v2(db, "SELECT relname, relowner, relacl FROM " CACHE_CLASS_ACL_TABLE, -1, &tables, NULL);
	}
	while (schemas != NULL && sqlite3_step(schemas) == SQLITE_ROW)
		n += role_object(role, "schema", (const char *) sqlite3_column_text(schemas, 1),
						 (uint32_t) sqlite3_column_int64(schemas, 2), (const char *) sqlite3_column_text(schemas, 3),
						 detail);
	while (tables != NULL && sqlite3_step(tables) == SQLITE_ROW)
	{
		const char *relname = (const char *) sqlite3_column_text(tables, 0);
		char	   *name = cache_pg_name(palloc(strlen(relname) + 1), relname);
		int64_t		nsp = cache_name_namespace(relname);

		/* a table of another schema than public by its qualified name */
		if (nsp != 0)
		{
			sqlite3_stmt *lookup = NULL;

			if (sqlite3_prepare_v2(db, "SELECT nspname FROM " CACHE_NAMESPACE_TABLE " WHERE nspid = ?1", -1, &lookup,
								   NULL) == SQLITE_OK && sqlite3_bind_int64(lookup, 1, nsp) == SQLITE_OK &&
				sqlite3_step(lookup) == SQLITE_ROW)
				name = psprintf("%s.%s", (const char *) sqlite3_column_text(lookup, 0), name);
			sqlite3_finalize(lookup);
		}
		n += role_object(role, "table", name, (uint32_t) sqlite3_column_int64(tables, 1),
						 (const char *) sqlite3_column_text(tables, 2), detail);
	}
	sqlite3_finalize(schemas);
	sqlite3_finalize(tables);
	sqlite3_close(db);
	return n;
}

char *
RoleDatabaseDependencies(uint32_t role)
{
	sqlite3    *db = catalog_open_registry(DataDir);
	sqlite3_stmt *stmt = NULL;
	RlBuf		detail,
				elsewhere;

	rlbuf_init_in(&detail, CurrentMemoryContext);
	rlbuf_init_in(&elsewhere, CurrentMemoryContext);
	role_objects(MyDatabaseId, role, &detail);
	if (db == NULL || sqlite3_prepare_v2(db, "SELECT d.datname, a.datdba, a.datacl, d.datid FROM " CACHE_DATABASE_TABLE
										 " AS d LEFT JOIN " CACHE_DATABASE_ACL_TABLE " AS a USING (datname)"
										 " ORDER BY d.datid", -1, &stmt, NULL) != SQLITE_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s",
					   db ? sqlite3_errmsg(db) : rl_last_error()));
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		const char *name = (const char *) sqlite3_column_text(stmt, 0);
		uint32_t	owner = (uint32_t) sqlite3_column_int64(stmt, 1);
		uint32_t	datid = (uint32_t) sqlite3_column_int64(stmt, 3);
		int			n;

		if (sqlite3_column_type(stmt, 1) != SQLITE_NULL && owner == role)
			rlbuf_printf(&detail, "%sowner of database %s", detail.len ? "\n" : "", name);
		else if (acl_names((const char *) sqlite3_column_text(stmt, 2), role))
			rlbuf_printf(&detail, "%sprivileges for database %s", detail.len ? "\n" : "", name);
		/* the objects of the other databases are counted after the shared ones */
		if (datid != MyDatabaseId && (n = role_objects(datid, role, NULL)) > 0)
			rlbuf_printf(&elsewhere, "\n%d object%s in database %s", n, n == 1 ? "" : "s", name);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	if (elsewhere.len)
		rlbuf_append_str(&detail, rlbuf_cstr(&elsewhere) + (detail.len ? 0 : 1));
	return detail.len ? pstrdup(rlbuf_cstr(&detail)) : NULL;
}
