/*
 * parse_utility.c: utility commands: CREATE and DROP of tables, schemas
 * and indexes, ALTER TABLE, SET and transaction control, and COPY (analyze_internal.h).
 */

#include <strings.h>
#include <time.h>

#include "parser/analyze_internal.h"
#include "catalog/acl.h"
#include "catalog/pg_authid.h"

/* ---------- CREATE TABLE, DROP TABLE, CREATE SCHEMA ---------- */

/*
 * declared_type -- a column's PostgreSQL type as the cache declares it ("varchar(10)";
 * numeric as numeric.h's NUMERIC_CACHE_TYPE, with its collation; json and floats
 * with the suffixes of catalog_cache.h that give them the affinity they need)
 */
static char *
declared_type(Oid type, int32_t typmod)
{
	const char *name = typio_lookup(type)->name;
	Oid			elem = typio_lookup(type)->elem;

	if (elem == NUMERICOID && typmod >= 4)	/* an array's typmod is its elements' */
		return psprintf("%s(%d,%d)", name, (typmod - 4) >> 16, (typmod - 4) & 0xffff);
	if (type == NUMERICOID && typmod >= 4)
		return psprintf(NUMERIC_CACHE_TYPE "(%d,%d) COLLATE " NUMERIC_COLLATION,
						(typmod - 4) >> 16, (typmod - 4) & 0xffff);
	if (type == NUMERICOID)
		return pstrdup(NUMERIC_CACHE_TYPE " COLLATE " NUMERIC_COLLATION);
	if ((type == VARCHAROID || type == BPCHAROID || elem == VARCHAROID || elem == BPCHAROID) && typmod >= 4)
		return psprintf("%s(%d)", name, typmod - 4);
	if (type == JSONOID || type == JSONBOID)
		return psprintf("%s" CACHE_TEXT_SUFFIX, name);
	if (type == FLOAT4OID || type == FLOAT8OID)
		return psprintf("%s" CACHE_BLOB_SUFFIX, name);
	return pstrdup(name);
}

/* sqlite_literal -- a constant as a SQLite literal in its canonical form (DEFAULT) */
static char *
sqlite_literal(const Value *v)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	if (v->isnull)
		rlbuf_append_str(&b, "NULL");
	else if (v->type == BOOLOID)
		rlbuf_append_str(&b, v->u.b ? "1" : "0");
	else if (v->type == FLOAT4OID || v->type == FLOAT8OID)
		rlbuf_printf(&b, "%.17g", v->u.f);
	else if (v->type == UUIDOID || v->type == BYTEAOID)
	{
		const uint8_t *p = v->type == UUIDOID ? v->u.uuid : (const uint8_t *) v->u.s.data;
		size_t		n = v->type == UUIDOID ? 16 : v->u.s.len;

		rlbuf_append_str(&b, "X'");
		for (size_t i = 0; i < n; i++)
			rlbuf_printf(&b, "%02x", p[i]);
		rlbuf_append_str(&b, "'");
	}
	else if (typio_lookup(v->type)->typlen == 8 || typio_lookup(v->type)->category == TYPCATEGORY_NUMERIC ||
			 v->type == DATEOID || v->type == TIDOID)
		rlbuf_append_str(&b, v->type == NUMERICOID ? psprintf("'%s'", v->u.s.data)
						 : psprintf("%lld", (long long) v->u.i));
	else
	{
		char	   *text = v->type == INTERVALOID ? typio_output(v, NULL) : v->u.s.data;
		char	   *q = sqlite3_mprintf("%Q", text);

		rlbuf_append_str(&b, q);
		sqlite3_free(q);
	}
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}

/*
 * key_list -- ("a", "b") of a PRIMARY KEY / UNIQUE constraint; each named column
 * must exist. A primary key (notnull given: its columns become NOT NULL) has its
 * first column DESC: that is how the cache, which keeps every key as a UNIQUE
 * constraint, tells a primary key (pg_constraint, syscat.c); uniqueness is the same.
 */
static char *
key_list(ParseState *ps, Node **keys, size_t n, const char *colname, RlBuf *names, bool *notnull,
		 PgQuery__CreateStmt *cs)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "(");
	for (size_t i = 0; i < (colname ? 1 : n); i++)
	{
		const char *key = colname ? colname : string_value(keys[i]);
		bool		found = false;

		for (size_t c = 0; c < cs->n_table_elts; c++)
			if (cs->table_elts[c]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF &&
				strcmp(cs->table_elts[c]->column_def->colname, key) == 0)
			{
				found = true;
				if (notnull)
					notnull[c] = true;
			}
		if (!found)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_COLUMN),
					errmsg("column \"%s\" named in key does not exist", key));
		rlbuf_printf(&b, "%s%s%s", i ? ", " : "", quote_ident(key), notnull && i == 0 ? " DESC" : "");
		rlbuf_printf(names, "_%s", key);
	}
	rlbuf_append_str(&b, ")");
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}

static void
add_key(ParseState *ps, PgQuery__Constraint *con, const char *colname, const char *table,
		RlBuf *constraints, bool *notnull, PgQuery__CreateStmt *cs)
{
	RlBuf		names;
	bool		primary = con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;

	rlbuf_init_in(&names, CurrentMemoryContext);
	char	   *keys = key_list(ps, con->keys, con->n_keys, colname, &names, primary ? notnull : NULL, cs);
	const char *conname = is_set(con->conname) ? con->conname
		: primary ? psprintf("%s_pkey", table) : psprintf("%s%s_key", table, rlbuf_cstr(&names));

	rlbuf_free(&names);
	rlbuf_printf(constraints, ", CONSTRAINT %s UNIQUE %s", quote_ident(conname), keys);
}

/*
 * column_definition -- a column's SQLite definition (name, declared type, NOT NULL,
 * DEFAULT constant) for CREATE TABLE and ALTER TABLE ... ADD COLUMN; not_null: a key
 * makes it so
 */
static char *
column_definition(ParseState *ps, PgQuery__ColumnDef *cd, bool not_null)
{
	int32_t		typmod;
	Oid			type = type_from_typename(ps, cd->type_name, &typmod);
	char	   *def = NULL;

	not_null |= cd->is_not_null;
	for (size_t k = 0; k < cd->n_constraints; k++)
	{
		PgQuery__Constraint *con = cd->constraints[k]->constraint;

		switch (con->contype)
		{
			case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
				not_null = true;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
			case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
			case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
				{
					Expr	   *e = coerce_expr(ps, transform_expr(ps, con->raw_expr), type, typmod,
												COERCE_ASSIGNMENT);

					/* a constant of another type (bigint DEFAULT 5): its value, cast now */
					if (e != NULL && e->kind == EXPR_CAST && e->args[0]->kind == EXPR_CONST)
						e = make_const(ExecCastValue(&e->args[0]->constval, type, typmod, false), e->location);
					if (e == NULL || e->kind != EXPR_CONST)
						not_supported(ps, "DEFAULT expressions other than constants", con->location);
					def = sqlite_literal(&e->constval);
					break;
				}
			default:
				not_supported(ps, "this column constraint", con->location);
		}
	}
	return psprintf("%s %s%s%s%s", quote_ident(cd->colname), declared_type(type, typmod),
					not_null ? " NOT NULL" : "", def ? " DEFAULT " : "", def ? def : "");
}

/*
 * creation_namespace -- the schema CREATE TABLE puts rv in: the one it names, or the
 * first of the search path that exists (3F000 if it names none or none exists)
 */
static Oid
creation_namespace(ParseState *ps, PgQuery__RangeVar *rv)
{
	Oid			nsp;

	if (is_set(rv->schemaname))
		nsp = NamespaceOid(rv->schemaname);
	else
	{
		Oid		   *path;

		nsp = SearchPathNamespaces(&path) > 0 ? path[0] : InvalidOid;
		if (nsp == InvalidOid)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_SCHEMA_NAME),
					errmsg("no schema has been selected to create in"),
					errposition(char_position(ps, rv->location)));
	}
	if (nsp == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", rv->schemaname),
				errposition(char_position(ps, rv->location)));
	if (nsp == PG_CATALOG_NAMESPACE)
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to create \"pg_catalog.%s\"", rv->relname),
				errdetail("System catalog modifications are currently disallowed."));
	if (nsp == INFORMATION_SCHEMA_NAMESPACE)
		not_supported(ps, "tables in information_schema", rv->location);
	return nsp;
}

void
analyze_create_table(ParseState *ps, PgQuery__CreateStmt *cs, AnalyzedStmt *stmt)
{
	PgQuery__RangeVar *rv = cs->relation;
	bool		temp = strcmp(rv->relpersistence, "t") == 0 ||
		(is_set(rv->schemaname) && strcmp(rv->schemaname, "pg_temp") == 0);
	const char *table = rv->relname;
	RlBuf		sql,
				constraints;
	bool	   *notnull = palloc0(sizeof(bool) * (cs->n_table_elts + 1));

	if (cs->n_inh_relations || cs->partspec || cs->partbound || cs->of_typename)
		not_supported(ps, "INHERITS, PARTITION and OF in CREATE TABLE", rv->location);

	Oid			nsp = temp ? InvalidOid : creation_namespace(ps, rv);

	if (!temp)
		check_schema_create(ps, nsp, rv->location);

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "CREATE TABLE";
	stmt->target = temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
	if (strncmp(table, "sqlite_", 7) == 0 || strcmp(table, CACHE_RELATION_TABLE) == 0 ||
		strcmp(table, CACHE_META_TABLE) == 0 || strcmp(table, CACHE_SCAN_BASE_TABLE) == 0 ||
		strcmp(table, CACHE_NAMESPACE_TABLE) == 0 ||
		(temp ? CacheTempRelationExists(table) : CacheLookupRelationIn(nsp, table) != NULL))
	{
		if (!cs->if_not_exists)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_TABLE),
					errmsg("relation \"%s\" already exists", table));
		skip_notice(stmt, ERRCODE_DUPLICATE_TABLE, psprintf("relation \"%s\" already exists, skipping", table));
		return;
	}
	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&constraints, CurrentMemoryContext);
	size_t		ncolumns = 0;

	for (size_t i = 0; i < cs->n_table_elts; i++)
		ncolumns += cs->table_elts[i]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF;
	check_column_limit(ncolumns, MAX_TABLE_COLUMNS, "tables", "columns");
	for (size_t i = 0; i < cs->n_table_elts; i++)
	{
		Node	   *elt = cs->table_elts[i];

		if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
		{
			PgQuery__Constraint *con = elt->constraint;

			if (con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY &&
				con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
				not_supported(ps, "this table constraint", con->location);
			add_key(ps, con, NULL, table, &constraints, notnull, cs);
			continue;
		}
		if (elt->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
			not_supported(ps, node_name(elt), -1);
		for (size_t k = 0; k < elt->column_def->n_constraints; k++)
		{
			PgQuery__Constraint *con = elt->column_def->constraints[k]->constraint;

			if (con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
				con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
				add_key(ps, con, elt->column_def->colname, table, &constraints, notnull, cs);
		}
	}
	const char *relname = temp ? CacheSqliteName(table) : CacheTableName(nsp, table);

	rlbuf_printf(&sql, "CREATE %sTABLE %s (%s INTEGER PRIMARY KEY", temp ? "TEMP " : "",
				 quote_table(relname), CACHE_ROWID_COLUMN);
	for (size_t i = 0; i < cs->n_table_elts; i++)
	{
		if (cs->table_elts[i]->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
			continue;
		PgQuery__ColumnDef *cd = cs->table_elts[i]->column_def;

		for (size_t k = i + 1; k < cs->n_table_elts; k++)
			if (cs->table_elts[k]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF &&
				strcmp(cs->table_elts[k]->column_def->colname, cd->colname) == 0)
				ereport(ERROR,
						errcode(ERRCODE_DUPLICATE_COLUMN),
						errmsg("column \"%s\" specified more than once", cd->colname));
		rlbuf_printf(&sql, ", %s", column_definition(ps, cd, notnull[i]));
	}
	rlbuf_printf(&sql, "%s)", rlbuf_cstr(&constraints));
	rlbuf_free(&constraints);
	if (temp)
	{
		stmt->temp_table = table;
		stmt->on_commit_drop = cs->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP;
	}
	else
	{
		Expr	   *args[2] = {make_const(typio_string(TEXTOID, relname, strlen(relname)), -1),
		make_const(typio_string(TEXTOID, rlbuf_cstr(&sql), sql.len), -1)};

		add_sql(ps, stmt, psprintf("INSERT INTO main.%s (relname, sql) VALUES (%s, %s)", CACHE_RELATION_TABLE,
								   deparse_to_string(ps, args[0]), deparse_to_string(ps, args[1])));
		/* its owner is the current user */
		add_sql(ps, stmt, psprintf("INSERT OR REPLACE INTO main.%s (relname, relowner) VALUES (%s, %u)",
								   CACHE_CLASS_ACL_TABLE, deparse_to_string(ps, args[0]), MyRoleId));
	}
	add_sql(ps, stmt, rlbuf_cstr(&sql));
	rlbuf_free(&sql);
}

/* has_column -- whether rel has a column of that name */
static bool
has_column(const CacheRelation *rel, const char *name)
{
	for (int i = 0; i < rel->ncolumns; i++)
		if (strcmp(rel->columns[i].name, name) == 0)
			return true;
	return false;
}

static Oid	role_oid(PgQuery__RoleSpec *role, const char **name);

/*
 * add_primary_key -- ADD [CONSTRAINT name] PRIMARY KEY (columns), which pg_dump writes
 * after a table's rows: the executor makes the table again with the key
 * (CacheAddTableKey). Its columns must be NOT NULL already, as a dump's are; other
 * constraints are not supported.
 */
static void
add_primary_key(ParseState *ps, CacheRelation *rel, PgQuery__Constraint *con, AnalyzedStmt *stmt)
{
	if (con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY)
		not_supported(ps, "ADD CONSTRAINT other than PRIMARY KEY", con->location);
	if (rel->temp)
		not_supported(ps, "ADD PRIMARY KEY to a temporary table", con->location);
	stmt->add_key_columns = palloc0(sizeof(char *) * (con->n_keys + 1));
	for (size_t i = 0; i < con->n_keys; i++)
	{
		const char *name = string_value(con->keys[i]);

		if (!has_column(rel, name))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_COLUMN),
					errmsg("column \"%s\" of relation \"%s\" does not exist", name, rel->name));
		stmt->add_key_columns[i] = name;
	}
	if (rel->npkey > 0 || stmt->add_key != NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				errmsg("multiple primary keys for table \"%s\" are not allowed", rel->name));
	stmt->add_key = is_set(con->conname) ? con->conname : psprintf("%s_pkey", rel->name);
}

/*
 * analyze_alter_table -- ALTER TABLE name ADD COLUMN / DROP COLUMN, each action one
 * SQLite ALTER TABLE, and ADD PRIMARY KEY (add_primary_key); the executor runs them
 * outside the capture of changes and then records the table's new CREATE statement
 * in rl_relation (CacheAlterTableEnd), which is what carries the change to the
 * writer. A column is dropped only while the transaction has not changed the
 * table's rows: they would not fit it any more. OWNER TO the session's user, which
 * owns every relation, does nothing.
 */
void
analyze_alter_table(ParseState *ps, PgQuery__AlterTableStmt *as, AnalyzedStmt *stmt)
{
	PgQuery__RangeVar *rv = as->relation;
	const char *schema = is_set(rv->schemaname) ? rv->schemaname : NULL;
	CacheRelation *rel = CacheLookupRelation(schema, rv->relname);

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER TABLE";
	stmt->target = CACHE_WRITE_MAIN;
	if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		not_supported(ps, "ALTER of anything but a table", rv->location);
	if (rel == NULL && as->missing_ok)
	{
		skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("relation \"%s\" does not exist, skipping", rv->relname));
		return;
	}
	if (rel == NULL && schema && strcmp(schema, "pg_temp") != 0 && NamespaceOid(schema) == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", schema));
	if (rel == NULL)
		lookup_relation(ps, rv);	/* its error */
	check_writable(ps, rel, rv->location);
	require_relation(ps, rel, ACL_PRIVILEGE_OWNER, -1);
	size_t		ncolumns = (size_t) rel->ncolumns;

	for (size_t i = 0; i < as->n_cmds; i++)
		ncolumns += as->cmds[i]->alter_table_cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn;
	check_column_limit(ncolumns, MAX_TABLE_COLUMNS, "tables", "columns");
	/* PostgreSQL's passes: the drops first, then the rest, each in the order written */
	const char **dropped = palloc(sizeof(char *) * (as->n_cmds + 1));
	size_t		ndropped = 0;

	for (size_t n = 0; n < 2 * as->n_cmds; n++)
	{
		PgQuery__AlterTableCmd *cmd = as->cmds[n % as->n_cmds]->alter_table_cmd;
		const char *action = NULL;

		if ((cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn) != (n < as->n_cmds))
			continue;

		if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn)
		{
			PgQuery__ColumnDef *cd = cmd->def->column_def;

			for (size_t k = 0; k < cd->n_constraints; k++)
				if (cd->constraints[k]->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
					cd->constraints[k]->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
					not_supported(ps, "ADD COLUMN with a key", cd->location);
			bool		exists = has_column(rel, cd->colname);

			for (size_t k = 0; k < ndropped; k++)
				exists &= strcmp(dropped[k], cd->colname) != 0;
			if (exists)
			{
				if (!cmd->missing_ok)
					ereport(ERROR,
							errcode(ERRCODE_DUPLICATE_COLUMN),
							errmsg("column \"%s\" of relation \"%s\" already exists", cd->colname, rel->name));
				skip_notice(stmt, ERRCODE_DUPLICATE_COLUMN, psprintf("column \"%s\" of relation \"%s\" already exists, skipping",
										cd->colname, rel->name));
				continue;
			}
			action = psprintf("ADD COLUMN %s", column_definition(ps, cd, false));
		}
		else if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn)
		{
			bool		exists = has_column(rel, cmd->name);

			for (size_t k = 0; k < ndropped; k++)
				exists &= strcmp(dropped[k], cmd->name) != 0;
			if (!exists)
			{
				if (!cmd->missing_ok)
					ereport(ERROR,
							errcode(ERRCODE_UNDEFINED_COLUMN),
							errmsg("column \"%s\" of relation \"%s\" does not exist", cmd->name, rel->name));
				skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("column \"%s\" of relation \"%s\" does not exist, skipping",
										cmd->name, rel->name));
				continue;
			}
			if (!rel->temp && CacheTransactionChanged(rel->table))
				not_supported(ps, "DROP COLUMN of a table whose rows the transaction changed", rv->location);
			action = psprintf("DROP COLUMN %s", quote_ident(cmd->name));
			dropped[ndropped++] = cmd->name;
		}
		else if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint)
		{
			add_primary_key(ps, rel, cmd->def->constraint, stmt);
			continue;
		}
		else if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner)
		{
			const char *role_name;

			/* every relation is the session user's: OWNER TO that user changes nothing */
			if (role_oid(cmd->newowner, &role_name) != BOOTSTRAP_SUPERUSERID)
				not_supported(ps, "OWNER TO a role other than the session user", rv->location);
			continue;
		}
		else
			not_supported(ps, "this ALTER TABLE action", rv->location);
		add_sql(ps, stmt, psprintf("ALTER TABLE %s %s", relation_sql(rel), action));
	}
	if (stmt->nsql == 0 && stmt->add_key == NULL)
		return;					/* only IF [NOT] EXISTS that skipped, or OWNER TO */
	if (rel->temp)
		stmt->target = CACHE_WRITE_TEMP;
	else
		stmt->alter_table = rel->table;
}

static void drop_catalog_table(ParseState *ps, AnalyzedStmt *stmt, const char *table);

/*
 * DROP TABLE | VIEW | INDEX [IF EXISTS] name, ...: RockLake has tables only (a key's
 * index goes with its table), so VIEW and INDEX drop nothing but answer as PostgreSQL
 * does for the names they are given: missing (42P01, 42704, or the NOTICE) or of
 * another kind (42809)
 */
void
analyze_drop(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt)
{
	CacheRelation **rels = palloc(sizeof(CacheRelation *) * (ds->n_objects + 1));
	bool		view = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
	bool		index = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX;
	const char *kind = view ? "view" : index ? "index" : "table";

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = view ? "DROP VIEW" : index ? "DROP INDEX" : "DROP TABLE";
	stmt->target = CACHE_WRITE_MAIN;
	/* every name first (an error drops nothing), each table once, as PostgreSQL's RemoveRelations */
	for (size_t i = 0; i < ds->n_objects; i++)
	{
		PgQuery__List *names = ds->objects[i]->list;
		const char *name = string_value(names->items[names->n_items - 1]);
		const char *schema = names->n_items > 1 ? string_value(names->items[names->n_items - 2]) : NULL;
		CacheRelation *rel = CacheLookupRelation(schema, name);
		bool		no_schema = rel == NULL && schema && strcmp(schema, "pg_temp") != 0 &&
			NamespaceOid(schema) == InvalidOid;
		const char *what = psprintf("%s \"%s\"", no_schema ? "schema" : kind, no_schema ? schema : name);

		rels[i] = rel;
		if (rel != NULL && (view || index))
			ereport(ERROR,
					errcode(ERRCODE_WRONG_OBJECT_TYPE),
					errmsg("\"%s\" is not %s", name, view ? "a view" : "an index"),
					errhint("Use DROP TABLE to remove a table."));
		if (rel == NULL && index && !no_schema &&
			SystemRegLookup(REGCLASSOID, schema ? psprintf("%s.%s", quote_ident(schema), quote_ident(name))
							: quote_ident(name)) != InvalidOid)
			not_supported(ps, "DROP INDEX of a key's index", -1);
		if (rel == NULL)
		{
			if (!ds->missing_ok)
				ereport(ERROR,
						errcode(no_schema ? ERRCODE_INVALID_SCHEMA_NAME : index ? ERRCODE_UNDEFINED_OBJECT
								: ERRCODE_UNDEFINED_TABLE),
						errmsg("%s does not exist", what));
			skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("%s does not exist, skipping", what));
			continue;
		}
		check_writable(ps, rel, -1);
		for (size_t k = 0; k < i; k++)
			if (rels[k] && rels[k]->temp == rel->temp && strcmp(rels[k]->table, rel->table) == 0)
				rels[i] = NULL;
		if (rels[i] == NULL)
			continue;
		require_relation(ps, rel, ACL_PRIVILEGE_OWNER, -1);
		if (rel->temp)
			stmt->target = CACHE_WRITE_TEMP;
		else
			drop_catalog_table(ps, stmt, rel->table);
		add_sql(ps, stmt, psprintf("DROP TABLE %s", relation_sql(rel)));
	}
}

/*
 * TRUNCATE [TABLE] [ONLY] name [*], ...: each table's rows deleted, as DELETE without
 * WHERE (no sequences to restart; nothing references a table, so CASCADE changes nothing)
 */
void
analyze_truncate(ParseState *ps, PgQuery__TruncateStmt *ts, AnalyzedStmt *stmt)
{
	bool		any_main = false,
				any_temp = false;

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "TRUNCATE TABLE";
	for (size_t i = 0; i < ts->n_relations; i++)
	{
		PgQuery__RangeVar rv = *ts->relations[i]->range_var;

		rv.location = -1;		/* PostgreSQL's TRUNCATE errors have no position */

		CacheRelation *rel = lookup_relation(ps, &rv);

		check_writable(ps, rel, -1);
		require_relation(ps, rel, "D", -1);
		any_main |= !rel->temp;
		any_temp |= rel->temp;
		add_sql(ps, stmt, psprintf("DELETE FROM %s", relation_sql(rel)));
	}
	if (any_main && any_temp)
		not_supported(ps, "TRUNCATE of temporary and other tables together", -1);
	stmt->target = any_main ? CACHE_WRITE_MAIN : CACHE_WRITE_TEMP;
}

/*
 * LOCK [TABLE] name, ... [IN mode MODE] [NOWAIT]: every transaction reads one snapshot
 * of the catalog from its first statement to its end and a writer that would
 * conflict with it fails (40001) rather than waits, so there is nothing to lock;
 * the names must be relations and the statement in a transaction block, as in
 * PostgreSQL (pg_dump locks every table it dumps).
 */
void
analyze_lock(ParseState *ps, PgQuery__LockStmt *ls, AnalyzedStmt *stmt)
{
	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_LOCK;
	stmt->command_tag = "LOCK TABLE";
	for (size_t i = 0; i < ls->n_relations; i++)
		(void) lookup_relation(ps, ls->relations[i]->range_var);
}

/* text_sql -- a string as a constant of the statement's SQL */
static const char *
text_sql(ParseState *ps, const char *text)
{
	return deparse_to_string(ps, make_const(typio_string(TEXTOID, text, strlen(text)), -1));
}

/* drop_catalog_table -- the catalog's table table (a cache name) goes with its rl_relation row */
static void
drop_catalog_table(ParseState *ps, AnalyzedStmt *stmt, const char *table)
{
	add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE relname = %s", CACHE_RELATION_TABLE, text_sql(ps, table)));
	add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE relname = %s", CACHE_CLASS_ACL_TABLE, text_sql(ps, table)));
	stmt->dropped = stmt->dropped ? repalloc(stmt->dropped, sizeof(char *) * (size_t) (stmt->ndropped + 1))
		: palloc(sizeof(char *));
	stmt->dropped[stmt->ndropped++] = table;
}

/* ---------- schemas ---------- */

/* role_oid -- the role a RoleSpec names (a role of the registry or pg_database_owner; 42704 else) */
static Oid
role_oid(PgQuery__RoleSpec *role, const char **name)
{
	Oid			oid;

	switch (role->roletype)
	{
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_ROLE:
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_USER:
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
			*name = MyUserName;
			return MyRoleId;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
			*name = role->rolename;
			if (strcmp(role->rolename, "pg_database_owner") == 0)
				return ROLE_PG_DATABASE_OWNER;
			if ((oid = RoleOidByName(role->rolename)) != 0)
				return oid;
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("role \"%s\" does not exist", role->rolename));
		default:
			ereport(ERROR,
					errcode(ERRCODE_RESERVED_NAME),
					errmsg("role name \"public\" is reserved"));
	}
	return InvalidOid;
}

/* check_schema_name -- 42939 for a name PostgreSQL keeps for its own schemas */
static void
check_schema_name(const char *name)
{
	if (strncmp(name, "pg_", 3) == 0)
		ereport(ERROR,
				errcode(ERRCODE_RESERVED_NAME),
				errmsg("unacceptable schema name \"%s\"", name),
				errdetail("The prefix \"pg_\" is reserved for system schemas."));
}

/*
 * schema_of -- the schema of that name that can be altered or dropped: 3F000 if there
 * is none (InvalidOid with missing_ok), 0A000 for public, pg_catalog and
 * information_schema, which RockLake keeps as they are
 */
static Oid
schema_of(ParseState *ps, const char *name, bool missing_ok, const char *command)
{
	Oid			nsp = NamespaceOid(name);

	if (nsp == InvalidOid && !missing_ok)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", name));
	if (nsp == PG_PUBLIC_NAMESPACE || nsp == PG_CATALOG_NAMESPACE || nsp == INFORMATION_SCHEMA_NAMESPACE)
		not_supported(ps, psprintf("%s of %s", command, name), -1);
	return nsp;
}

/* CREATE SCHEMA [IF NOT EXISTS] [name] [AUTHORIZATION role]: a row of rl_namespace */
void
analyze_create_schema(ParseState *ps, PgQuery__CreateSchemaStmt *cs, AnalyzedStmt *stmt)
{
	const char *role_name = MyUserName;
	Oid			owner = cs->authrole ? role_oid(cs->authrole, &role_name) : MyRoleId;
	const char *name = is_set(cs->schemaname) ? cs->schemaname : role_name;

	if (cs->n_schema_elts)
		not_supported(ps, "CREATE SCHEMA with elements", -1);
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "CREATE SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	check_schema_name(name);
	if (NamespaceOid(name) != InvalidOid)
	{
		if (!cs->if_not_exists)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_SCHEMA),
					errmsg("schema \"%s\" already exists", name));
		skip_notice(stmt, ERRCODE_DUPLICATE_SCHEMA, psprintf("schema \"%s\" already exists, skipping", name));
		return;
	}
	/* OIDs from FirstNormalObjectId on, as PostgreSQL's; the id is in the tables' names for good */
	add_sql(ps, stmt, psprintf("INSERT INTO main.%s (nspid, nspname, nspowner) SELECT coalesce(max(nspid), %d) + 1,"
							   " %s, %u FROM main.%s", CACHE_NAMESPACE_TABLE, FirstNormalObjectId - 1,
							   text_sql(ps, name), owner, CACHE_NAMESPACE_TABLE));
}

/*
 * DROP SCHEMA [IF EXISTS] name, ... [CASCADE | RESTRICT]: its tables are what depends
 * on a schema; without CASCADE any is 2BP01, with it each goes as DROP TABLE's would
 */
void
analyze_drop_schema(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt)
{
	RlBuf		detail;
	int			ndependent = 0,
				nschemas = 0;
	const char *first = NULL;

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "DROP SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	rlbuf_init_in(&detail, CurrentMemoryContext);
	Oid		   *nsps = palloc(sizeof(Oid) * (ds->n_objects + 1));

	for (size_t i = 0; i < ds->n_objects; i++)
		if ((nsps[i] = schema_of(ps, string_value(ds->objects[i]), ds->missing_ok, "DROP SCHEMA")) == InvalidOid)
			skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION,
						psprintf("schema \"%s\" does not exist, skipping", string_value(ds->objects[i])));
	/* PostgreSQL reports what depends on the last schema named first */
	for (size_t i = ds->n_objects; i-- > 0;)
	{
		const char *name = string_value(ds->objects[i]);
		char	  **tables;

		if (nsps[i] == InvalidOid)
			continue;
		nschemas++;
		first = name;
		for (int t = 0, n = NamespaceTables(nsps[i], &tables); t < n; t++)
		{
			char	   *table = pstrdup(cache_unqualified_name(tables[t]));

			table = cache_pg_name(table, table);
			table = IdentifierIsSafe(table) ? table : quote_table(table);
			/* qualified when it is not visible, each name quoted where it must be */
			const char *shown = SearchPathRank(name) > 0 ? table
				: psprintf("%s.%s", IdentifierIsSafe(name) ? name : quote_table(name), table);

			if (ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
				rlbuf_printf(&detail, "%sdrop cascades to table %s", ndependent++ ? "\n" : "", shown);
			else
				rlbuf_printf(&detail, "%stable %s depends on schema %s", ndependent++ ? "\n" : "", shown, name);
			drop_catalog_table(ps, stmt, tables[t]);
			add_sql(ps, stmt, psprintf("DROP TABLE main.%s", quote_table(tables[t])));
		}
		add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE nspid = %u", CACHE_NAMESPACE_TABLE, nsps[i]));
		add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE nspid = %u", CACHE_NAMESPACE_ACL_TABLE, nsps[i]));
		require_schema(ps, nsps[i], name, ACL_PRIVILEGE_OWNER, -1);
	}
	if (ndependent && ds->behavior != PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
		ereport(ERROR,
				errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				nschemas > 1 ? errmsg("cannot drop desired object(s) because other objects depend on them")
				: errmsg("cannot drop schema %s because other objects depend on it", first),
				errdetail("%s", rlbuf_cstr(&detail)),
				errhint("Use DROP ... CASCADE to drop the dependent objects too."));
	if (ndependent == 1)
		stmt->run_notice = rlbuf_cstr(&detail);
	else if (ndependent)
	{
		stmt->run_notice = psprintf("drop cascades to %d other objects", ndependent);
		stmt->run_notice_detail = rlbuf_cstr(&detail);
	}
	if (stmt->nsql == 0)
		stmt->target = CACHE_READ;
}

/* ALTER SCHEMA name RENAME TO new: the row's name (its tables are named by its id) */
void
analyze_rename_schema(ParseState *ps, PgQuery__RenameStmt *rs, AnalyzedStmt *stmt)
{
	Oid			nsp = schema_of(ps, rs->subname, false, "ALTER SCHEMA");

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	if (NamespaceOid(rs->newname) != InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_SCHEMA),
				errmsg("schema \"%s\" already exists", rs->newname));
	check_schema_name(rs->newname);
	require_schema(ps, nsp, rs->subname, ACL_PRIVILEGE_OWNER, -1);
	add_sql(ps, stmt, psprintf("UPDATE main.%s SET nspname = %s WHERE nspid = %u", CACHE_NAMESPACE_TABLE,
							   text_sql(ps, rs->newname), nsp));
}

/* ALTER SCHEMA name OWNER TO role */
void
analyze_schema_owner(ParseState *ps, PgQuery__AlterOwnerStmt *os, AnalyzedStmt *stmt)
{
	const char *role_name;
	Oid			nsp = schema_of(ps, string_value(os->object), false, "ALTER SCHEMA");
	Oid			owner = role_oid(os->newowner, &role_name);

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	require_schema(ps, nsp, string_value(os->object), ACL_PRIVILEGE_OWNER, -1);
	add_sql(ps, stmt, psprintf("UPDATE main.%s SET nspowner = %u WHERE nspid = %u", CACHE_NAMESPACE_TABLE,
							   owner, nsp));
}

/* ---------- COPY of a table ---------- */

static void
analyze_copy_table(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt)
{
	CacheRelation *rel = lookup_relation(ps, cs->relation);
	int			ncols = cs->n_attlist ? (int) cs->n_attlist : rel->ncolumns;
	ResultColumn *cols = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));
	RlBuf		sql;

	for (int i = 0; i < ncols; i++)
		cols[i] = cs->n_attlist ? *relation_column(ps, rel, string_value(cs->attlist[i]), cs->relation->location)
			: rel->columns[i];
	require_relation(ps, rel, cs->is_from ? "a" : "r", -1);
	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (cs->is_from)
	{
		check_writable(ps, rel, cs->relation->location);
		rlbuf_printf(&sql, "INSERT INTO %s (", relation_sql(rel));
		for (int i = 0; i < ncols; i++)
			append_ident(&sql, i ? ", " : NULL, cols[i].name);
		rlbuf_append_str(&sql, ") VALUES (");
		for (int i = 0; i < ncols; i++)
		{
			Expr	   *p = make_expr(EXPR_PARAM, cols[i].type, -1);

			p->paramno = i;
			if (cols[i].typmod >= 0)
			{
				/* varchar(n), numeric(p, s): the value is the column's, as an INSERT's */
				rlbuf_append_str(&sql, i ? ", " : "");
				deparse(ps, &sql, coerce_expr(ps, p, cols[i].type, cols[i].typmod, COERCE_ASSIGNMENT));
			}
			else
				rlbuf_printf(&sql, "%s?%d", i ? ", " : "", add_bind(ps, p));
		}
		rlbuf_append_str(&sql, ")");
		stmt->kind = STMT_COPY_IN;
		stmt->name = rel->name;
		stmt->target = rel->temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
		stmt->changed_table = rel->temp ? NULL : rel->table;
		stmt->ncolumns = ncols;
		stmt->columns = cols;
		add_sql(ps, stmt, rlbuf_cstr(&sql));
	}
	else
	{
		AnalyzedStmt *q = palloc0(sizeof(AnalyzedStmt));

		rlbuf_append_str(&sql, "SELECT ");
		for (int i = 0; i < ncols; i++)
			append_ident(&sql, i ? ", " : NULL, cols[i].name);
		rlbuf_printf(&sql, " FROM %s", relation_sql(rel));
		if (rel->sql == NULL)
			rlbuf_printf(&sql, " ORDER BY %s", CACHE_ROWID_COLUMN);
		q->kind = STMT_ROWS;
		q->command_tag = "SELECT";
		q->ncolumns = ncols;
		q->columns = cols;
		q->target = CACHE_READ;
		add_sql(ps, q, rlbuf_cstr(&sql));
		stmt->kind = STMT_COPY_OUT;
		stmt->copy_query = q;
	}
	rlbuf_free(&sql);
}

/* set_value_text -- the value of SET name = a, b as GUC text ("a, b") */
static const char *
set_value_text(ParseState *ps, PgQuery__VariableSetStmt *vs)
{
	RlBuf		buf;

	rlbuf_init_in(&buf, CurrentMemoryContext);
	for (size_t i = 0; i < vs->n_args; i++)
	{
		Node	   *arg = vs->args[i];

		if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
			arg = arg->type_cast->arg;	/* SET x = interval '1s' and the like */
		if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
			not_supported(ps, "this SET value", -1);
		Expr	   *c = transform_const(ps, arg->a_const);
		const char *value = typio_output(&c->constval, NULL);

		/* a list of names, each quoted where it must be (PostgreSQL's GUC_LIST_QUOTE) */
		if (strcmp(vs->name, "search_path") == 0 && arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
			!IdentifierIsSafe(value))
			value = quote_table(value);
		rlbuf_printf(&buf, "%s%s", i ? ", " : "", value);
	}
	char	   *s = pstrdup(rlbuf_cstr(&buf));

	rlbuf_free(&buf);
	return s;
}

/*
 * transaction_read_only_option -- the read-only mode a list of transaction options
 * (BEGIN's, SET TRANSACTION's) gives: "on", "off", or NULL when it gives none
 */
static const char *
transaction_read_only_option(PgQuery__Node **options, size_t n)
{
	const char *mode = NULL;

	for (size_t i = 0; i < n; i++)
	{
		const PgQuery__DefElem *d = options[i]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM ?
			options[i]->def_elem : NULL;

		if (d && strcmp(d->defname, "transaction_read_only") == 0 && d->arg &&
			d->arg->node_case == PG_QUERY__NODE__NODE_A_CONST)
			mode = d->arg->a_const->ival && d->arg->a_const->ival->ival ? "on" : "off";
	}
	return mode;
}

void
analyze_set(ParseState *ps, PgQuery__VariableSetStmt *vs, AnalyzedStmt *stmt)
{
	stmt->name = vs->name;
	stmt->set_local = vs->is_local;
	switch (vs->kind)
	{
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
			stmt->utility = UTIL_SET;
			stmt->value = set_value_text(ps, vs);
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
			stmt->utility = UTIL_RESET;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
			stmt->utility = UTIL_RESET_ALL;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
			if (strcmp(vs->name, "TRANSACTION SNAPSHOT") == 0)
				not_supported(ps, "SET TRANSACTION SNAPSHOT", -1);
			stmt->utility = UTIL_SET_TRANSACTION;
			stmt->value = transaction_read_only_option(vs->args, vs->n_args);
			break;
		default:
			not_supported(ps, "SET FROM CURRENT", -1);
	}
	stmt->command_tag = vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ||
		vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI ? "SET" : "RESET";
	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT)
		stmt->command_tag = "SET";
}

/* analyze_alter_system -- ALTER SYSTEM SET / RESET: the SET it holds, for the file */
void
analyze_alter_system(ParseState *ps, PgQuery__AlterSystemStmt *as, AnalyzedStmt *stmt)
{
	analyze_set(ps, as->setstmt, stmt);
	if (stmt->utility == UTIL_SET_TRANSACTION)
		not_supported(ps, "ALTER SYSTEM SET of this setting", -1);
	if (stmt->utility == UTIL_RESET_ALL)
		stmt->name = NULL;
	if (stmt->utility != UTIL_SET)
		stmt->value = NULL;
	stmt->utility = UTIL_ALTER_SYSTEM;
	stmt->command_tag = "ALTER SYSTEM";
}

void
analyze_transaction(ParseState *ps, PgQuery__TransactionStmt *ts, AnalyzedStmt *stmt)
{
	static const struct
	{
		PgQuery__TransactionStmtKind kind;
		UtilityKind utility;
		const char *tag;
	}			map[] = {
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN, UTIL_BEGIN, "BEGIN"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START, UTIL_BEGIN, "START TRANSACTION"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT, UTIL_COMMIT, "COMMIT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK, UTIL_ROLLBACK, "ROLLBACK"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT, UTIL_SAVEPOINT, "SAVEPOINT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE, UTIL_RELEASE, "RELEASE"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO, UTIL_ROLLBACK_TO, "ROLLBACK"},
	};

	if (ts->chain)
		not_supported(ps, "AND CHAIN", -1);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].kind == ts->kind)
		{
			stmt->utility = map[i].utility;
			stmt->command_tag = map[i].tag;
			stmt->name = ts->savepoint_name;
			if (stmt->utility == UTIL_BEGIN)
				stmt->value = transaction_read_only_option(ts->options, ts->n_options);
			return;
		}
	not_supported(ps, "two-phase commit", -1);
}

void
analyze_copy(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt)
{
	if (is_set(cs->filename) || cs->is_program)
		not_supported(ps, "COPY to or from a file or program", -1);
	if (cs->where_clause)
		not_supported(ps, "COPY FROM ... WHERE", -1);
	if (cs->query && cs->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		not_supported(ps, "COPY of this statement", -1);

	CopyFormat	format = COPY_FORMAT_TEXT;

	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;

		if (strcmp(d->defname, "format") == 0)
		{
			const char *f = string_value(d->arg);

			if (strcmp(f, "csv") == 0)
				format = COPY_FORMAT_CSV;
			else if (strcmp(f, "binary") == 0)
				format = COPY_FORMAT_BINARY;
			else if (strcmp(f, "text") != 0)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("COPY format \"%s\" not recognized", f),
						errposition(char_position(ps, d->location)));
		}
	}
	copy_options_init(&stmt->copy, format);
	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;
		const char *v = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING ? d->arg->string->sval : NULL;

		if (strcmp(d->defname, "format") == 0)
			continue;
		else if (strcmp(d->defname, "header") == 0)
			stmt->copy.header = d->arg == NULL ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN && d->arg->boolean->boolval) ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER && d->arg->integer->ival) ||
				(v && (strcmp(v, "true") == 0 || strcmp(v, "on") == 0));
		else if (strcmp(d->defname, "delimiter") == 0 && v && strlen(v) == 1)
			stmt->copy.delim = v[0];
		else if (strcmp(d->defname, "null") == 0 && v)
			stmt->copy.null_string = v;
		else if (strcmp(d->defname, "quote") == 0 && v && strlen(v) == 1)
			stmt->copy.quote = v[0];
		else if (strcmp(d->defname, "escape") == 0 && v && strlen(v) == 1)
			stmt->copy.escape = v[0];
		else
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("option \"%s\" not recognized", d->defname),
					errposition(char_position(ps, d->location)));
	}
	stmt->kind = STMT_COPY_OUT;
	stmt->command_tag = "COPY";
	if (cs->relation)
		analyze_copy_table(ps, cs, stmt);
	else
	{
		stmt->copy_query = palloc0(sizeof(AnalyzedStmt));
		analyze_select(ps, cs->query->select_stmt, stmt->copy_query);
	}
}

/* ---------- EXPLAIN ---------- */

/* option_text -- an EXPLAIN option's argument as PostgreSQL's defGetString gives it (NULL: none) */
static const char *
option_text(const PgQuery__DefElem *d)
{
	if (d->arg == NULL)
		return NULL;
	switch (d->arg->node_case)
	{
		case PG_QUERY__NODE__NODE_INTEGER:
			return psprintf("%d", d->arg->integer->ival);
		case PG_QUERY__NODE__NODE_FLOAT:
			return d->arg->float_->fval;
		case PG_QUERY__NODE__NODE_BOOLEAN:
			return d->arg->boolean->boolval ? "true" : "false";
		default:
			return string_value(d->arg);
	}
}

/* option_boolean -- PostgreSQL's defGetBoolean: none, 1, 0, true, false, on, off */
static bool
option_boolean(const PgQuery__DefElem *d)
{
	const char *v = option_text(d);

	if (v == NULL)
		return true;
	if (d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
	{
		if (d->arg->integer->ival == 0 || d->arg->integer->ival == 1)
			return d->arg->integer->ival == 1;
	}
	else if (strcasecmp(v, "true") == 0 || strcasecmp(v, "on") == 0)
		return true;
	else if (strcasecmp(v, "false") == 0 || strcasecmp(v, "off") == 0)
		return false;
	ereport(ERROR,
			errcode(ERRCODE_SYNTAX_ERROR),
			errmsg("%s requires a Boolean value", d->defname));
	return false;
}

/*
 * analyze_explain -- EXPLAIN [ANALYZE] [VERBOSE] statement and EXPLAIN (option, ...)
 * statement: the statement is analysed first, as PostgreSQL's parse analysis does
 * before ExplainQuery reads the options, and its analysis is the planning time shown
 */
void
analyze_explain(ParseState *ps, PgQuery__ExplainStmt *es, const RawStatement *raw, AnalyzedStmt *stmt)
{
	ExplainOptions *opts = palloc0(sizeof(ExplainOptions));
	RawStatement inner = {.node = es->query, .location = raw->location, .length = raw->length};
	struct timespec start,
				end;
	bool		timing_set = false,
				summary_set = false,
				wal = false;

	clock_gettime(CLOCK_MONOTONIC, &start);
	opts->query = AnalyzeStatement(&inner, ps->query, ps->paramtypes, ps->params_allowed ? ps->nparams : -1);
	clock_gettime(CLOCK_MONOTONIC, &end);
	opts->planning_ms = (double) (end.tv_sec - start.tv_sec) * 1000.0 + (double) (end.tv_nsec - start.tv_nsec) / 1e6;
	opts->costs = true;
	for (size_t i = 0; i < es->n_options; i++)
	{
		const PgQuery__DefElem *d = es->options[i]->def_elem;

		if (strcmp(d->defname, "analyze") == 0)
			opts->analyze = option_boolean(d);
		else if (strcmp(d->defname, "verbose") == 0)
			opts->verbose = option_boolean(d);
		else if (strcmp(d->defname, "costs") == 0)
			opts->costs = option_boolean(d);
		else if (strcmp(d->defname, "buffers") == 0)
			opts->buffers = option_boolean(d);
		else if (strcmp(d->defname, "wal") == 0)
			wal = option_boolean(d);
		else if (strcmp(d->defname, "settings") == 0)
			opts->settings = option_boolean(d);
		else if (strcmp(d->defname, "timing") == 0)
		{
			timing_set = true;
			opts->timing = option_boolean(d);
		}
		else if (strcmp(d->defname, "summary") == 0)
		{
			summary_set = true;
			opts->summary = option_boolean(d);
		}
		else if (strcmp(d->defname, "format") == 0)
		{
			const char *f = option_text(d);

			if (f == NULL)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("%s requires a parameter", d->defname));
			if (strcmp(f, "xml") == 0 || strcmp(f, "json") == 0 || strcmp(f, "yaml") == 0)
				not_supported(ps, psprintf("EXPLAIN (FORMAT %s)", f), d->location);
			if (strcmp(f, "text") != 0)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("unrecognized value for EXPLAIN option \"%s\": \"%s\"", d->defname, f),
						errposition(char_position(ps, d->location)));
		}
		else
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("unrecognized EXPLAIN option \"%s\"", d->defname),
					errposition(char_position(ps, d->location)));
	}
	if (wal && !opts->analyze)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("EXPLAIN option WAL requires ANALYZE"));
	opts->timing = timing_set ? opts->timing : opts->analyze;
	if (opts->timing && !opts->analyze)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("EXPLAIN option TIMING requires ANALYZE"));
	opts->summary = summary_set ? opts->summary : opts->analyze;
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "EXPLAIN";
	stmt->explain = opts;
	stmt->nparams = opts->query->nparams;
	stmt->paramtypes = opts->query->paramtypes;
	stmt->ncolumns = 1;
	stmt->columns = palloc(sizeof(ResultColumn));
	stmt->columns[0] = (ResultColumn) {"QUERY PLAN", TEXTOID, -1};
}
