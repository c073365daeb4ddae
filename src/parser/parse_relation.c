/*
 * parse_relation.c: names and FROM: qualified names resolved to
 * relations, columns and schemas, and the FROM clause's items, joins and scopes
 * (analyze_internal.h).
 */

#include "parser/analyze_internal.h"

/* ---------- names ---------- */

RangeItem *
make_range_item(const char *alias, int ncolumns, ResultColumn *columns, PgQuery__Alias *a)
{
	RangeItem  *item = palloc0(sizeof(RangeItem));

	item->alias = a && is_set(a->aliasname) ? a->aliasname : alias;
	item->ncolumns = ncolumns;
	item->columns = palloc(sizeof(ResultColumn) * (size_t) (ncolumns ? ncolumns : 1));
	memcpy(item->columns, columns, sizeof(ResultColumn) * (size_t) ncolumns);
	for (size_t i = 0; a && i < a->n_colnames && (int) i < ncolumns; i++)
		item->columns[i].name = string_value(a->colnames[i]);
	return item;
}

void
scope_add(Scope *scope, RangeItem *item)
{
	scope->items = repalloc(scope->items, sizeof(RangeItem *) * (size_t) (scope->nitems + 1));
	scope->items[scope->nitems++] = item;
}

Expr *
make_var(const RangeItem *item, const char *column, Oid type, int32_t typmod, int location)
{
	Expr	   *e = make_expr(EXPR_VAR, type, location);

	e->typmod = typmod;
	e->sql = quote_qualified(item->bare ? NULL : item->sql_alias ? item->sql_alias : item->alias, column);
	e->range = item;
	e->column = -1;
	return e;
}

/* visible_column -- whether column i answers to its bare name (not merged into a USING column) */
bool
visible_column(const RangeItem *item, int i)
{
	return item->merged_away == NULL || !item->merged_away[i];
}

/* column_expr -- column i of item as an expression */
Expr *
column_expr(const RangeItem *item, int i, int location)
{
	if (item->computed && item->computed[i])
	{
		Expr	   *e = palloc(sizeof(Expr));

		*e = *item->computed[i];
		e->location = location;
		return e;
	}

	Expr	   *e = make_var(item, item->columns[i].name, item->columns[i].type, item->columns[i].typmod,
							 location);

	e->column = i;
	if (item->column_sql)
		e->sql = item->column_sql[i];
	return e;
}

/*
 * item_column -- a column of item by name (ctid for tables, tableoid for system
 * catalogs), or NULL; qualified or bare
 */
static Expr *
item_column(ParseState *ps, const RangeItem *item, const char *name, bool bare, int location)
{
	for (int i = 0; i < item->ncolumns; i++)
		if (strcmp(item->columns[i].name, name) == 0 && (!bare || visible_column(item, i)))
			return column_expr(item, i, location);
	if (item->catalog && strcmp(name, "tableoid") == 0 && SystemCatalogOid(item->relation) != InvalidOid)
		return make_const(typio_int(OIDOID, SystemCatalogOid(item->relation)), location);
	if (item->is_table && strcmp(name, "ctid") == 0)
	{
		if (item->catalog)
			not_supported(ps, "ctid of system catalogs", location);
		return make_var(item, CACHE_ROWID_COLUMN, TIDOID, -1, location);
	}
	return NULL;
}

/* input_column -- whether a FROM item in scope has a column of that bare name */
bool
input_column(ParseState *ps, const char *name)
{
	for (Scope *s = ps->scope; s != NULL; s = s->parent)
		for (int i = 0; i < s->nitems; i++)
			for (int c = 0; c < s->items[i]->ncolumns; c++)
				if (strcmp(s->items[i]->columns[c].name, name) == 0 && visible_column(s->items[i], c))
					return true;
	return false;
}

/*
 * find_item -- the range item a column reference qualifies with alias (and, if not
 * NULL, schema: a table of that schema); 42P09 if two of one scope answer to it
 */
const RangeItem *
find_item(ParseState *ps, const char *schema, const char *alias, int location)
{
	Oid			nsp = schema ? NamespaceOid(schema) : InvalidOid;
	bool		other_schema = false;	/* an item of that name, of another schema */

	for (Scope *s = ps->scope; s != NULL; s = s->parent)
	{
		const RangeItem *found = NULL;

		for (int i = 0; i < s->nitems; i++)
		{
			if (strcmp(s->items[i]->alias, alias) != 0)
				continue;
			other_schema |= schema && s->items[i]->nsp != nsp;
			if (schema && s->items[i]->nsp != nsp)
				continue;
			if (found)
				ereport(ERROR,
						errcode(ERRCODE_AMBIGUOUS_ALIAS),
						errmsg("table reference \"%s\" is ambiguous", alias),
						errposition(char_position(ps, location)));
			found = s->items[i];
		}
		if (found)
		{
			if (s->level < ps->min_ref_level)
				ps->min_ref_level = s->level;
			return found;
		}
	}
	if (other_schema)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("invalid reference to FROM-clause entry for table \"%s\"", alias),
				errhint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.",
						alias),
				errposition(char_position(ps, location)));
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_TABLE),
			errmsg("missing FROM-clause entry for table \"%s\"", alias),
			errposition(char_position(ps, location)));
	return NULL;
}

Expr *
transform_column_ref(ParseState *ps, PgQuery__ColumnRef *cr)
{
	Node	   *last = cr->fields[cr->n_fields - 1];
	const char *name = string_value(last);

	if (last->node_case == PG_QUERY__NODE__NODE_A_STAR)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg(ps->scope ? "row expressions with * are not supported"
					   : "SELECT * with no tables specified is not valid"),
				errposition(char_position(ps, cr->location)));
	if (cr->n_fields >= 2)
	{
		const char *alias = string_value(cr->fields[cr->n_fields - 2]);
		const char *schema = cr->n_fields >= 3 ? string_value(cr->fields[cr->n_fields - 3]) : NULL;
		const RangeItem *item = find_item(ps, schema, alias, cr->location);
		Expr	   *e = item_column(ps, item, name, false, cr->location);

		if (e == NULL)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_COLUMN),
					errmsg("column %s.%s does not exist", alias, name),
					errposition(char_position(ps, cr->location)));
		for (Scope *s = ps->scope; ps->subplan && s != NULL; s = s->parent)
			for (int i = 0; i < s->nitems; i++)
				if (s->items[i] == item)
					return subplan_outer_ref(ps, e, s->level);
		return e;
	}
	for (Scope *s = ps->scope; s != NULL; s = s->parent)
	{
		Expr	   *found = NULL;

		for (int i = 0; i < s->nitems; i++)
		{
			Expr	   *e = item_column(ps, s->items[i], name, true, cr->location);

			if (e != NULL && found != NULL)
				ereport(ERROR,
						errcode(ERRCODE_AMBIGUOUS_COLUMN),
						errmsg("column reference \"%s\" is ambiguous", name),
						errposition(char_position(ps, cr->location)));
			found = found ? found : e;
		}
		if (found)
		{
			if (s->level < ps->min_ref_level)
				ps->min_ref_level = s->level;
			return ps->subplan ? subplan_outer_ref(ps, found, s->level) : found;
		}
	}
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_COLUMN),
			errmsg("column \"%s\" does not exist", name),
			errposition(char_position(ps, cr->location)));
	return NULL;
}

/* ---------- FROM ---------- */

/* quote_table -- a name in double quotes as it is: a table's cache name (namespace.h), a search_path entry */
char *
quote_table(const char *table)
{
	char	   *sql = sqlite3_mprintf("\"%w\"", table);
	char	   *quoted = pstrdup(sql);

	sqlite3_free(sql);
	return quoted;
}

const char *
relation_sql(const CacheRelation *rel)
{
	if (rel->sql)
		return psprintf("(%s)", rel->sql);
	return psprintf("%s.%s", rel->temp ? "temp" : "main", quote_table(rel->table));
}

/*
 * note_relation -- rel (NULL: the WITH query relname), named item in the SQL being
 * made, for EXPLAIN, which shows SQLite's plan with the relations' own names
 */
void
note_relation(ParseState *ps, const RangeItem *item, const char *relname, const CacheRelation *rel, bool target)
{
	ps->relations = ps->relations ? repalloc(ps->relations, sizeof(PlannedRelation) * (size_t) (ps->nrelations + 1))
		: palloc(sizeof(PlannedRelation));
	ps->relations[ps->nrelations++] = (PlannedRelation) {
		.sql_name = CacheSqliteName(item->sql_alias ? item->sql_alias : item->alias),
		.relname = relname,
		.alias = item->alias,
		.nsp = rel == NULL || rel->temp ? InvalidOid : rel->sql ? (item->nsp ? item->nsp : PG_CATALOG_NAMESPACE)
		: cache_name_namespace(rel->table) ? (Oid) cache_name_namespace(rel->table) : PG_PUBLIC_NAMESPACE,
		.target = target,
		.catalog = rel && rel->sql != NULL,
		.cte = rel == NULL,
	};
}

/* check_writable -- 42501 for a system catalog, which only reads */
void
check_writable(ParseState *ps, const CacheRelation *rel, int location)
{
	if (rel->sql)
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied: \"%s\" is a system catalog", rel->name),
				errposition(char_position(ps, location)));
}

/* lookup_relation -- a table by RangeVar: 42P01 if there is none */
CacheRelation *
lookup_relation(ParseState *ps, PgQuery__RangeVar *rv)
{
	const char *schema = is_set(rv->schemaname) ? rv->schemaname : NULL;
	CacheRelation *rel = CacheLookupRelation(schema, rv->relname);

	if (rel == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation \"%s%s%s\" does not exist", schema ? schema : "", schema ? "." : "",
					   rv->relname),
				errposition(char_position(ps, rv->location)));
	return rel;
}

static void transform_from_item(ParseState *ps, Node *node, Scope *scope, RlBuf *sql);

/*
 * check_refname -- a table item of FROM against those before it in scope: one of the
 * same name is 42712, as in PostgreSQL, unless both are tables without aliases and
 * different tables (of two schemas), which the SQL then tells apart by an alias of
 * the later one's own
 */
static void
check_refname(ParseState *ps, const Scope *scope, RangeItem *item, int location)
{
	for (int i = 0; i < scope->nitems; i++)
	{
		const RangeItem *other = scope->items[i];

		if (strcmp(other->alias, item->alias) != 0)
			continue;
		if (item->aliased || other->aliased || other->relation == NULL ||
			strcmp(other->relation, item->relation) == 0)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_ALIAS),
					errmsg("table name \"%s\" specified more than once", item->alias),
					errposition(char_position(ps, location)));
		item->sql_alias = psprintf("%s^%d", item->alias, scope->nitems);
	}
}

/*
 * using_column -- the column a USING join names, in the items [from, to) of one
 * side, where it must be found exactly once; it is merged away from then on
 */
static Expr *
using_column(ParseState *ps, Scope *scope, int from, int to, const char *name, const char *side)
{
	Expr	   *found = NULL;

	for (int k = from; k < to; k++)
	{
		RangeItem  *item = scope->items[k];

		for (int i = 0; i < item->ncolumns; i++)
		{
			if (strcmp(item->columns[i].name, name) != 0 || !visible_column(item, i))
				continue;
			if (found)
				ereport(ERROR,
						errcode(ERRCODE_DUPLICATE_COLUMN),
						errmsg("common column name \"%s\" appears more than once in %s table", name, side));
			found = column_expr(item, i, -1);
			if (item->merged_away == NULL)
				item->merged_away = palloc0(sizeof(bool) * (size_t) item->ncolumns);
			item->merged_away[i] = true;
		}
	}
	if (found == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" specified in USING clause does not exist in %s table", name, side));
	return found;
}

/*
 * join_using -- JOIN ... USING (columns): its ON condition, and a range item of
 * the merged columns (the left one, the right one for RIGHT JOIN, COALESCE of
 * both for FULL JOIN) placed before the joined items, where PostgreSQL lists them
 * for *. The merged item's alias is empty, which no quoted identifier can be.
 */
static Expr *
join_using(ParseState *ps, PgQuery__JoinExpr *j, Scope *scope, int first, int middle)
{
	int			n = (int) j->n_using_clause;
	int			right_end = scope->nitems;
	RangeItem  *merged = palloc0(sizeof(RangeItem));
	Expr	   *on = NULL;

	merged->alias = "";
	merged->ncolumns = n;
	merged->columns = palloc(sizeof(ResultColumn) * (size_t) n);
	merged->computed = palloc(sizeof(Expr *) * (size_t) n);
	for (int k = 0; k < n; k++)
	{
		const char *name = string_value(j->using_clause[k]);
		Expr	   *l = using_column(ps, scope, first, middle, name, "left");
		Expr	   *r = using_column(ps, scope, middle, right_end, name, "right");
		Expr	   *eq = make_op(ps, "=", l, r, -1);
		Expr	   *value = j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ? r : l;

		on = on ? make_bool_expr(EXPR_AND, on, eq, -1) : eq;
		if (j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL)
		{
			value = make_expr(EXPR_COALESCE, UNKNOWNOID, -1);
			value->nargs = 2;
			value->args = palloc(sizeof(Expr *) * 2);
			value->args[0] = l;
			value->args[1] = r;
			value->type = select_common_type(ps, value->args, 2, "JOIN/USING");
			coerce_all(ps, value->args, 2, value->type, "JOIN/USING");
		}
		merged->columns[k] = (ResultColumn) {.name = name, .type = value->type, .typmod = value->typmod};
		merged->computed[k] = value;
	}
	scope_add(scope, merged);
	memmove(&scope->items[first + 1], &scope->items[first], sizeof(RangeItem *) * (size_t) (right_end - first));
	scope->items[first] = merged;
	return on;
}

/*
 * set_source -- the SQLite FROM item iterating a set-returning function call:
 * the function returns its whole set as an array, rl_array_json() turns that
 * into JSON in the elements' canonical SQLite forms, and json_each() yields
 * them (value, and key counting from 0).
 */
char *
set_source(ParseState *ps, Expr *srf, const char *alias)
{
	return psprintf("json_each(rl_array_json(%s, %u)) AS %s", deparse_to_string(ps, srf), srf->type,
					quote_ident(alias));
}

/*
 * transform_range_function -- f(args) [WITH ORDINALITY] [AS alias(columns)] in
 * FROM; its arguments may refer to earlier FROM items, as PostgreSQL's implicit
 * LATERAL allows
 */
static void
transform_range_function(ParseState *ps, PgQuery__RangeFunction *rf, Scope *scope, RlBuf *sql)
{
	Node	   *call = rf->n_functions == 1 && rf->functions[0]->list->n_items > 0
		? rf->functions[0]->list->items[0] : NULL;

	if (rf->is_rowsfrom || rf->n_coldeflist || call == NULL ||
		call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
		not_supported(ps, "ROWS FROM and column definition lists", -1);
	Scope	   *saved_scope = ps->scope;
	Expr	   *saved_srf = ps->srf;

	ps->scope = scope;
	ps->srf = NULL;
	Expr	   *f = transform_expr(ps, call);

	if (f != ps->srf)
		not_supported(ps, "functions in FROM that do not return a set", call->func_call->location);
	ps->scope = saved_scope;
	ps->srf = saved_srf;

	const char *name = rf->alias && is_set(rf->alias->aliasname) ? rf->alias->aliasname : f->func->name;

	/* pg_options_to_table's rows are (option_name, option_value): each "name=value" split at its = */
	bool		options = strcmp(f->func->name, "pg_options_to_table") == 0;
	ResultColumn columns[3] = {{name, f->type, -1}};

	if (options)
	{
		columns[0] = (ResultColumn) {"option_name", TEXTOID, -1};
		columns[1] = (ResultColumn) {"option_value", TEXTOID, -1};
	}
	columns[1 + options] = (ResultColumn) {"ordinality", INT8OID, -1};
	RangeItem  *item = make_range_item(name, 1 + options + rf->ordinality, columns, rf->alias);
	const char *q = quote_ident(item->alias);

	item->column_sql = palloc(sizeof(char *) * 3);
	item->column_sql[0] = options ? psprintf("CASE instr(%s.value, '=') WHEN 0 THEN %s.value"
											 " ELSE substr(%s.value, 1, instr(%s.value, '=') - 1) END", q, q, q, q)
		: psprintf("%s.value", q);
	if (options)
		item->column_sql[1] = psprintf("CASE instr(%s.value, '=') WHEN 0 THEN NULL"
									   " ELSE substr(%s.value, instr(%s.value, '=') + 1) END", q, q, q);
	item->column_sql[1 + options] = psprintf("(%s.key + 1)", q);
	rlbuf_append_str(sql, set_source(ps, f, item->alias));
	scope_add(scope, item);
}

static void
transform_from_item(ParseState *ps, Node *node, Scope *scope, RlBuf *sql)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_RANGE_VAR:
			{
				PgQuery__RangeVar *rv = node->range_var;

				if (!is_set(rv->schemaname))
					for (CteItem *c = ps->ctes; c != NULL; c = c->next)
						if (strcmp(c->name, rv->relname) == 0)
						{
							/* SQLite reads a recursive query only in its arms' own FROM */
							if (c->self_depth && c->self_depth != ps->query_depth)
								not_supported(ps, "a recursive reference inside a subquery", rv->location);

							RangeItem  *item = make_range_item(rv->relname, c->ncolumns, c->columns, rv->alias);

							ps->cte_ref = true;
							note_relation(ps, item, c->name, NULL, false);
							append_aliased(sql, quote_ident(c->name), item->alias);
							scope_add(scope, item);
							return;
						}
				CacheRelation *rel = lookup_relation(ps, rv);
				RangeItem  *item = make_range_item(rel->name, rel->ncolumns, rel->columns, rv->alias);

				item->is_table = true;
				item->catalog = rel->sql != NULL;
				item->npkey = rel->npkey;
				item->pkey = rel->pkey;
				item->relation = rel->sql ? rel->name : rel->table;
				/* a system relation is pg_catalog's unless named in information_schema */
				item->nsp = rel->temp ? InvalidOid
					: rel->sql ? (rv->schemaname && rv->schemaname[0] ? NamespaceOid(rv->schemaname) : PG_CATALOG_NAMESPACE)
					: cache_name_namespace(rel->table) ? (Oid) cache_name_namespace(rel->table) : PG_PUBLIC_NAMESPACE;
				item->aliased = rv->alias != NULL;
				if (!rel->temp && rel->sql == NULL)
					item->main_table = rel->table;
				check_refname(ps, scope, item, rv->location);
				note_relation(ps, item, rel->name, rel, false);
				require_relation(ps, rel, "r", rv->location);
				append_aliased(sql, relation_sql(rel), item->sql_alias ? item->sql_alias : item->alias);
				scope_add(scope, item);
				return;
			}
		case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
			{
				PgQuery__RangeSubselect *rs = node->range_subselect;
				Query		q;

				if (rs->lateral)
					not_supported(ps, "LATERAL", -1);
				if (rs->alias == NULL)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("subquery in FROM must have an alias"));
				analyze_subquery(ps, rs->subquery->select_stmt, &q);
				RangeItem  *item = make_range_item(rs->alias->aliasname, q.ncolumns, q.columns, rs->alias);

				/* the query's SQL names its columns _rl_cN: give them the names outer references use */
				rlbuf_append_str(sql, "(SELECT ");
				for (int i = 0; i < item->ncolumns; i++)
					rlbuf_printf(sql, "%s\"_rl_c%d\" AS %s", i ? ", " : "", i + 1,
								 quote_ident(item->columns[i].name));
				if (item->ncolumns == 0)
					rlbuf_append_str(sql, "NULL");
				rlbuf_printf(sql, " FROM (%s)) AS %s", q.sql, quote_ident(item->alias));
				scope_add(scope, item);
				return;
			}
		case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
			transform_range_function(ps, node->range_function, scope, sql);
			return;
		case PG_QUERY__NODE__NODE_JOIN_EXPR:
			{
				PgQuery__JoinExpr *j = node->join_expr;
				static const char *const joins[] = {"", " JOIN ", " LEFT JOIN ", " FULL JOIN ", " RIGHT JOIN "};
				int			first = scope->nitems;

				if (j->is_natural || j->alias ||
					j->jointype < PG_QUERY__JOIN_TYPE__JOIN_INNER || j->jointype > PG_QUERY__JOIN_TYPE__JOIN_RIGHT)
					not_supported(ps, "NATURAL and aliased joins", -1);
				rlbuf_append_str(sql, "(");
				transform_from_item(ps, j->larg, scope, sql);
				int			middle = scope->nitems;

				rlbuf_append_str(sql, joins[j->jointype]);
				transform_from_item(ps, j->rarg, scope, sql);

				Scope	   *saved = ps->scope;
				Expr	   *on = NULL;

				ps->scope = scope;
				if (j->n_using_clause)
					on = join_using(ps, j, scope, first, middle);
				else if (j->quals)
					on = transform_clause(ps, j->quals, BOOLOID, "JOIN/ON", "JOIN conditions");
				ps->scope = saved;
				if (on)
					rlbuf_printf(sql, " ON %s", deparse_to_string(ps, on));
				rlbuf_append_str(sql, ")");
				return;
			}
		default:
			not_supported(ps, node_name(node), -1);
	}
}

/* transform_from -- the FROM list into scope (a new level) and its SQL */
Scope *
transform_from(ParseState *ps, Node **items, size_t n, RlBuf *sql)
{
	Scope	   *scope = palloc0(sizeof(Scope));

	scope->items = palloc(sizeof(RangeItem *));
	scope->parent = ps->scope;
	scope->level = ps->scope ? ps->scope->level + 1 : 1;
	for (size_t i = 0; i < n; i++)
	{
		if (i > 0)
			rlbuf_append_str(sql, ", ");
		transform_from_item(ps, items[i], scope, sql);
	}
	return scope;
}

/*
 * cte_item -- a WITH query's name and result columns as FROM sees them: the
 * columns the query gave, renamed by the WITH query's column list
 */
static CteItem *
cte_item(ParseState *ps, PgQuery__CommonTableExpr *cte, const Query *q)
{
	CteItem    *c = palloc0(sizeof(CteItem));

	if ((int) cte->n_aliascolnames > q->ncolumns)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
				errmsg("WITH query \"%s\" has %d columns available but %d columns specified",
					   cte->ctename, q->ncolumns, (int) cte->n_aliascolnames),
				errposition(char_position(ps, cte->location)));

	c->name = cte->ctename;
	c->ncolumns = q->ncolumns;
	c->columns = palloc(sizeof(ResultColumn) * (q->ncolumns ? q->ncolumns : 1));
	memcpy(c->columns, q->columns, sizeof(ResultColumn) * q->ncolumns);
	for (size_t k = 0; k < cte->n_aliascolnames && (int) k < q->ncolumns; k++)
		c->columns[k].name = string_value(cte->aliascolnames[k]);
	return c;
}

/*
 * recursive_term_types -- in WITH RECURSIVE, a query `A UNION [ALL] B` may read
 * itself in B: as PostgreSQL does, its columns are typed by A alone, which is
 * analysed first and named, and B must give those types (42804 otherwise).
 * SQLite runs such a query itself (its WITH RECURSIVE), with the same
 * semantics: A's rows, then B over the rows the last step added, until none.
 * Returns the name under which B may read the query, or NULL when the query is
 * not of that shape (then it is an ordinary WITH query).
 */
static CteItem *
recursive_term_types(ParseState *ps, PgQuery__CommonTableExpr *cte)
{
	PgQuery__SelectStmt *sel = cte->ctequery->select_stmt;
	Query		nonrecursive;

	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_UNION || sel->larg == NULL)
		return NULL;
	analyze_query(ps, sel->larg, NULL, &nonrecursive);
	return cte_item(ps, cte, &nonrecursive);
}

/* nonrecursive_location -- where the non-recursive term of a recursive query gives column k */
static int
nonrecursive_location(PgQuery__CommonTableExpr *cte, int k)
{
	PgQuery__SelectStmt *larg = cte->ctequery->select_stmt->larg;

	if ((size_t) k < larg->n_target_list && larg->target_list[k]->node_case == PG_QUERY__NODE__NODE_RES_TARGET)
		return larg->target_list[k]->res_target->location;
	return cte->location;
}

/* transform_with -- WITH queries: their SQL prefix, and names for FROM */
void
transform_with(ParseState *ps, PgQuery__WithClause *with, RlBuf *sql)
{
	if (with == NULL)
		return;
	rlbuf_append_str(sql, with->recursive ? "WITH RECURSIVE " : "WITH ");
	for (size_t i = 0; i < with->n_ctes; i++)
	{
		PgQuery__CommonTableExpr *cte = with->ctes[i]->common_table_expr;
		CteItem    *self = NULL;
		Query		q;

		if (cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
			not_supported(ps, "data-modifying statements in WITH", cte->location);
		if (with->recursive && (self = recursive_term_types(ps, cte)) != NULL)
		{
			/* its arms are analysed two calls down: the query, then each arm */
			self->self_depth = ps->query_depth + 2;
			self->next = ps->ctes;
			ps->ctes = self;
		}
		int			saved_level = ps->min_ref_level;
		int			outer_level = ps->scope ? ps->scope->level : 0;
		size_t		hoisted_at = ps->hoisted.context ? ps->hoisted.len : 0;

		ps->recursive_query = self != NULL;
		ps->min_ref_level = INT_MAX;
		analyze_query(ps, cte->ctequery->select_stmt, NULL, &q);

		bool		correlated = ps->min_ref_level <= outer_level;

		if (saved_level < ps->min_ref_level)
			ps->min_ref_level = saved_level;
		for (int k = 0; self != NULL && k < q.ncolumns && k < self->ncolumns; k++)
			if (q.columns[k].type != self->columns[k].type)
				ereport(ERROR,
						errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
							   cte->ctename, k + 1, typio_format_type(self->columns[k].type),
							   typio_format_type(q.columns[k].type)),
						errhint("Cast the output of the non-recursive term to the correct type."),
						errposition(char_position(ps, nonrecursive_location(cte, k))));
		if (self != NULL)
			ps->ctes = self->next;

		CteItem    *c = cte_item(ps, cte, &q);
		size_t		at = sql->len + (i ? 2 : 0);

		c->next = ps->ctes;
		ps->ctes = c;
		append_ident(sql, i ? ", " : NULL, c->name);
		rlbuf_append_str(sql, "(");
		for (int k = 0; k < c->ncolumns; k++)
			append_ident(sql, k ? ", " : NULL, c->columns[k].name);
		rlbuf_printf(sql, ") AS (%s)", q.sql);
		c->sql = pstrdup(rlbuf_cstr(sql) + at);
		if (ps->hoisted.context && ps->hoisted.len > hoisted_at)
			c->hoisted = pstrdup(rlbuf_cstr(&ps->hoisted) + hoisted_at + (hoisted_at ? 2 : 0));
		c->nbinds = ps->nbinds;
		c->recursive = self != NULL;
		c->correlated = correlated;
	}
	rlbuf_append_str(sql, " ");
}
