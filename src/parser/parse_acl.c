/*
 * parse_acl.c: what statements need of relations' and schemas' privileges
 * (require_relation, require_schema: the executor's caller checks them when the
 * statement runs, tcop/aclchk.h), and GRANT / REVOKE ON TABLE, ON ALL TABLES IN
 * SCHEMA and ON SCHEMA (analyze_internal.h).
 *
 * A GRANT or REVOKE on tables or schemas is a write to the session's catalog like
 * any other, so it is transactional: its statements bring the ACL row into being
 * with the default (rl_class_acl, rl_namespace_acl: catalog_cache.h) and change it
 * with rl_acl_update (executor/sqlite_exec.h) where the capture sees the
 * transaction's earlier changes. The grantor recorded is the owner, as PostgreSQL
 * records it when the owner or a superuser grants; only they may (WITH GRANT OPTION
 * is not supported, so no other role holds a grant option).
 */
#include <sqlite3.h>

#include "catalog/acl.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class_acl.h"
#include "utils/guc.h"
#include "parser/analyze.h"
#include "parser/analyze_internal.h"

static void
add_requirement(ParseState *ps, RequiredPrivilege r)
{
	ps->privileges = ps->privileges
		? repalloc(ps->privileges, sizeof(RequiredPrivilege) * (size_t) (ps->nprivileges + 1))
		: palloc(sizeof(RequiredPrivilege));
	ps->privileges[ps->nprivileges++] = r;
}

void
require_relation(ParseState *ps, const CacheRelation *rel, const char *privileges, int location)
{
	/* the catalogs only read, and a temporary table is its session's */
	if (rel->sql != NULL || rel->temp)
		return;
	add_requirement(ps, (RequiredPrivilege) {
		.table = rel->table,
		.nsp = cache_name_namespace(rel->table) ? (Oid) cache_name_namespace(rel->table) : PG_PUBLIC_NAMESPACE,
		.name = rel->name,
		.privileges = privileges,
		.position = location >= 0 ? char_position(ps, location) : 0,
	});
}

void
check_schema_create(ParseState *ps, Oid nsp, int location)
{
	if (!GetConfigBool("is_superuser") && !RoleHasPrivilege(MyRoleId, NULL, nsp, "C"))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied for schema %s", NamespaceName(nsp)),
				errposition(char_position(ps, location)));
}

void
require_schema(ParseState *ps, Oid nsp, const char *name, const char *privileges, int location)
{
	add_requirement(ps, (RequiredPrivilege) {
		.nsp = nsp, .name = name, .privileges = privileges,
		.position = location >= 0 ? char_position(ps, location) : 0,
	});
}

/*
 * the ACL letters of GRANT's privileges on an object of kind (ALL: every one of all):
 * 42601 for a word that names no privilege, 0LP01 for a privilege of other objects
 * (USAGE is the caller's to refuse for tables, after their names: PostgreSQL allows
 * it of sequences)
 */
static const char *
privilege_letters(ParseState *ps, PgQuery__Node **privileges, size_t n, const char *kind, const char *all)
{
	static const struct
	{
		const char *name;
		char		letter;
	}			names[] = {
		{"select", 'r'}, {"insert", 'a'}, {"update", 'w'}, {"delete", 'd'}, {"truncate", 'D'},
		{"references", 'x'}, {"trigger", 't'}, {"usage", 'U'}, {"create", 'C'}, {"connect", 'c'},
		{"temporary", 'T'}, {"temp", 'T'}, {"execute", 'X'},
	};
	char	   *letters = palloc0(n + 1);

	if (n == 0)
		return all;
	for (size_t i = 0; i < n; i++)
	{
		const PgQuery__AccessPriv *priv = privileges[i]->access_priv;
		size_t		k;

		for (k = 0; k < sizeof(names) / sizeof(names[0]) && strcmp(names[k].name, priv->priv_name) != 0; k++)
			;
		if (k == sizeof(names) / sizeof(names[0]))
			ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("unrecognized privilege type \"%s\"", priv->priv_name));
		if (strchr(all, names[k].letter) == NULL && !(names[k].letter == 'U' && strcmp(kind, "relation") == 0))
		{
			char	   *upper = pstrdup(priv->priv_name);

			for (char *p = upper; *p; p++)
				*p = (char) (*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("invalid privilege type %s for %s", upper, kind));
		}
		if (priv->n_cols)
			not_supported(ps, "column privileges", -1);
		letters[i] = names[k].letter;
	}
	return letters;
}

Oid
GranteeOid(const void *rolespec)
{
	const PgQuery__RoleSpec *spec = rolespec;
	Oid			oid;

	switch (spec->roletype)
	{
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC:
			return ACL_ID_PUBLIC;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
			if ((oid = RoleOidByName(spec->rolename)) == 0)
				ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
						errmsg("role \"%s\" does not exist", spec->rolename));
			return oid;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
			return SessionUserId;
		default:
			return MyRoleId;
	}
}

/*
 * The statements of a grant on one object: its ACL row made if there is none (insert,
 * or NULL), the default written out where the ACL is NULL, then each grantee's change
 */
static void
add_acl_updates(ParseState *ps, AnalyzedStmt *stmt, const PgQuery__GrantStmt *g, const char *insert,
				const char *table, const char *column, const char *owner, const char *defacl, const char *where,
				const char *letters)
{
	if (insert)
		add_sql(ps, stmt, insert);
	add_sql(ps, stmt, psprintf("UPDATE main.%s SET %s = coalesce(%s, %s) WHERE %s", table, column, column, defacl,
							   where));
	for (size_t k = 0; k < g->n_grantees; k++)
		add_sql(ps, stmt, psprintf("UPDATE main.%s SET %s = rl_acl_update(%s, %u, %s, '%s', %d) WHERE %s",
								   table, column, column, GranteeOid(g->grantees[k]->role_spec), owner,
								   letters, g->is_grant, where));
}

/* the relations a GRANT names: its tables, or those of its schemas (ALL TABLES IN SCHEMA) */
static CacheRelation **
grant_relations(ParseState *ps, const PgQuery__GrantStmt *g, Node *object, int *n)
{
	CacheRelation **rels;
	const char *schema;
	Oid			nsp;
	char	  **tables;

	if (g->targtype != PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_ALL_IN_SCHEMA)
	{
		PgQuery__RangeVar rv = *object->range_var;

		rv.location = -1;		/* PostgreSQL's GRANT errors have no position */
		rels = palloc(sizeof(CacheRelation *));
		rels[0] = lookup_relation(ps, &rv);
		if (rels[0]->temp)
			not_supported(ps, "GRANT on a temporary table", object->range_var->location);
		check_writable(ps, rels[0], object->range_var->location);
		*n = 1;
		return rels;
	}
	schema = string_value(object);
	if ((nsp = NamespaceOid(schema)) == InvalidOid)
		ereport(ERROR, errcode(ERRCODE_INVALID_SCHEMA_NAME), errmsg("schema \"%s\" does not exist", schema));
	*n = NamespaceTables(nsp == PG_PUBLIC_NAMESPACE ? 0 : nsp, &tables);	/* public's have no prefix */
	rels = palloc(sizeof(CacheRelation *) * (size_t) (*n + 1));
	for (int t = 0; t < *n; t++)
	{
		const char *own = cache_unqualified_name(tables[t]);

		rels[t] = CacheLookupRelationIn(nsp, cache_pg_name(pstrdup(own), own));
	}
	return rels;
}

/* GRANT / REVOKE ON TABLE t, ... or ON ALL TABLES IN SCHEMA s, ... */
static void
grant_on_tables(ParseState *ps, const PgQuery__GrantStmt *g, AnalyzedStmt *stmt)
{
	const char *letters = privilege_letters(ps, g->privileges, g->n_privileges, "relation",
											ACL_ALL_RIGHTS_RELATION);

	for (size_t i = 0; i < g->n_objects; i++)
	{
		int			n;
		CacheRelation **rels = grant_relations(ps, g, g->objects[i], &n);

		if (n > 0 && strchr(letters, 'U'))
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION), errmsg("invalid privilege type USAGE for table"));
		for (int t = 0; t < n; t++)
		{
			/* in palloc'd memory: what follows may raise an ERROR */
			char	   *quoted = sqlite3_mprintf("%Q", rels[t]->table);
			char	   *name = quoted ? pstrdup(quoted) : NULL;

			sqlite3_free(quoted);
			if (name == NULL)
				ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
			require_relation(ps, rels[t], ACL_PRIVILEGE_GRANT, -1);
			add_acl_updates(ps, stmt, g, psprintf("INSERT INTO main.%s (relname, relowner) VALUES (%s,"
												  " rl_database_owner()) ON CONFLICT (relname) DO NOTHING",
												  CACHE_CLASS_ACL_TABLE, name),
							CACHE_CLASS_ACL_TABLE, "relacl", "relowner",
							"relowner || '=" ACL_ALL_RIGHTS_RELATION "/' || relowner",
							psprintf("relname = %s", name), letters);
		}
	}
}

/* GRANT / REVOKE ON SCHEMA s, ... */
static void
grant_on_schemas(ParseState *ps, const PgQuery__GrantStmt *g, AnalyzedStmt *stmt)
{
	const char *letters = privilege_letters(ps, g->privileges, g->n_privileges, "schema",
											ACL_ALL_RIGHTS_NAMESPACE);

	for (size_t i = 0; i < g->n_objects; i++)
	{
		const char *schema = string_value(g->objects[i]);
		Oid			nsp = NamespaceOid(schema);
		Oid			owner = NamespaceOwner(nsp);

		if (nsp == InvalidOid)
			ereport(ERROR, errcode(ERRCODE_INVALID_SCHEMA_NAME), errmsg("schema \"%s\" does not exist", schema));
		if (nsp == PG_CATALOG_NAMESPACE || nsp == INFORMATION_SCHEMA_NAMESPACE)
			not_supported(ps, psprintf("GRANT on schema %s", schema), -1);
		require_schema(ps, nsp, schema, ACL_PRIVILEGE_GRANT, -1);
		add_acl_updates(ps, stmt, g, psprintf("INSERT INTO main.%s (nspid) VALUES (%u) ON CONFLICT (nspid) DO NOTHING",
											  CACHE_NAMESPACE_ACL_TABLE, nsp),
						CACHE_NAMESPACE_ACL_TABLE, "nspacl", psprintf("%u", owner),
						psprintf("'%s'", NamespaceDefaultAcl(nsp, owner)), psprintf("nspid = %u", nsp), letters);
	}
}

void
analyze_grant(ParseState *ps, PgQuery__GrantStmt *g, AnalyzedStmt *stmt)
{
	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = g->is_grant ? "GRANT" : "REVOKE";
	stmt->target = CACHE_WRITE_MAIN;
	if (g->grant_option)
		not_supported(ps, g->is_grant ? "WITH GRANT OPTION" : "GRANT OPTION FOR", -1);
	if (g->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
		grant_on_schemas(ps, g, stmt);
	else
		grant_on_tables(ps, g, stmt);
}
