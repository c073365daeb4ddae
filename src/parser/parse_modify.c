/*
 * parse_modify.c: INSERT, UPDATE and DELETE over the catalog cache
 * (analyze_internal.h).
 */

#include "executor/publish.h"
#include "parser/analyze_internal.h"

/* ---------- INSERT, UPDATE, DELETE ---------- */

/* target_relation -- the relation a DML statement writes, as the one item of a new scope */
static CacheRelation *
target_relation(ParseState *ps, PgQuery__RangeVar *rv, AnalyzedStmt *stmt, RlBuf *sql)
{
	CacheRelation *rel = lookup_relation(ps, rv);
	RangeItem  *item = make_range_item(rel->name, rel->ncolumns, rel->columns, rv->alias);
	Scope	   *scope = palloc0(sizeof(Scope));

	check_writable(ps, rel, rv->location);
	item->is_table = true;
	item->relation = rel->table;
	item->aliased = rv->alias != NULL;
	scope->items = palloc(sizeof(RangeItem *));
	scope->parent = ps->scope;
	scope->level = ps->scope ? ps->scope->level + 1 : 1;
	scope_add(scope, item);
	ps->scope = scope;
	stmt->target = rel->temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
	stmt->changed_table = rel->temp ? NULL : rel->table;
	note_relation(ps, item, rel->name, rel, true);
	append_aliased(sql, relation_sql(rel), item->alias);
	return rel;
}

const ResultColumn *
relation_column(ParseState *ps, const CacheRelation *rel, const char *name, int location)
{
	for (int i = 0; i < rel->ncolumns; i++)
		if (strcmp(rel->columns[i].name, name) == 0)
			return &rel->columns[i];
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_COLUMN),
			errmsg("column \"%s\" of relation \"%s\" does not exist", name, rel->name),
			errposition(char_position(ps, location)));
	return NULL;
}

/* reads_only -- whether e reads no column but those of item's */
static bool
reads_only(const Expr *e, const RangeItem *item)
{
	if (e == NULL)
		return true;
	if (e->kind == EXPR_VAR && e->range != NULL && e->range != item)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_only(e->args[i], item))
			return false;
	return reads_only(e->defresult, item);
}

/*
 * finish_dml -- RETURNING, and the statement's shape. ps->scope holds the target and,
 * after UPDATE's FROM or DELETE's USING, those relations, whose columns SQLite's
 * RETURNING cannot read (0A000 rather than another answer than PostgreSQL's)
 */
static void
finish_dml(ParseState *ps, AnalyzedStmt *stmt, const RangeItem *stmt_target_item, Node **returning,
		   size_t n, RlBuf *sql, const char *tag)
{
	stmt->command_tag = tag;
	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	if (n > 0 && ps->scope->nitems > 1)
	{
		TargetList	joined = {0};

		transform_targets(ps, returning, n, &joined);
		for (int i = 0; i < joined.n; i++)
			if (!reads_only(joined.exprs[i], stmt_target_item))
				not_supported(ps, "RETURNING of the FROM or USING relations' columns", joined.exprs[i]->location);
	}
	if (n > 0)
	{
		TargetList	tl = {0};
		Scope		target = {.nitems = 1, .items = palloc(sizeof(RangeItem *))};

		target.items[0] = palloc(sizeof(RangeItem));
		*target.items[0] = *stmt_target_item;
		target.items[0]->bare = true;
		ps->scope = &target;
		transform_targets(ps, returning, n, &tl);
		rlbuf_append_str(sql, " RETURNING ");
		for (int i = 0; i < tl.n; i++)
		{
			tl.exprs[i] = finish_target(ps, tl.exprs[i], NULL);
			tl.columns[i].type = tl.exprs[i]->type;
			if (i)
				rlbuf_append_str(sql, ", ");
			deparse(ps, sql, tl.exprs[i]);
		}
		stmt->kind = STMT_ROWS;
		stmt->ncolumns = tl.n;
		stmt->columns = tl.columns;
		if (strcmp(tag, "INSERT") == 0)
			stmt->command_tag = "INSERT 0";
	}
	add_sql(ps, stmt, rlbuf_cstr(sql));
	rlbuf_free(sql);
}

void
analyze_insert(ParseState *ps, PgQuery__InsertStmt *ins, AnalyzedStmt *stmt)
{
	RlBuf		sql;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (ins->on_conflict_clause)
		not_supported(ps, "ON CONFLICT", -1);
	transform_with(ps, ins->with_clause, &sql);
	rlbuf_append_str(&sql, "INSERT INTO ");
	CacheRelation *rel = target_relation(ps, ins->relation, stmt, &sql);

	require_relation(ps, rel, ins->n_returning_list ? "ar" : "a", ins->relation->location);
	PgQuery__SelectStmt *sel = ins->select_stmt ? ins->select_stmt->select_stmt : NULL;
	int			given = sel == NULL ? 0 : sel->n_values_lists ? (int) sel->values_lists[0]->list->n_items
		: sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
		!node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_A_STAR, NULL) ? (int) sel->n_target_list : -1;

	if (sel == NULL)
	{
		/* DEFAULT VALUES (the grammar allows no column list with it) */
		rlbuf_append_str(&sql, " DEFAULT VALUES");
		finish_dml(ps, stmt, ps->scope->items[0], ins->returning_list, ins->n_returning_list, &sql, "INSERT");
		return;
	}

	/* without a column list, the values fill the first columns */
	int			ncols = ins->n_cols ? (int) ins->n_cols
		: given >= 0 && given < rel->ncolumns ? given : rel->ncolumns;
	ResultColumn *targets = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));

	rlbuf_append_str(&sql, " (");
	for (int i = 0; i < ncols; i++)
	{
		if (ins->n_cols)
		{
			PgQuery__ResTarget *rt = ins->cols[i]->res_target;

			if (rt->n_indirection)
				not_supported(ps, "INSERT into subfields", rt->location);
			targets[i] = *relation_column(ps, rel, rt->name, rt->location);
		}
		else
			targets[i] = rel->columns[i];
		append_ident(&sql, i ? ", " : NULL, targets[i].name);
	}
	rlbuf_append_str(&sql, ") ");
	Scope	   *target_scope = ps->scope;
	Query		q;

	if (values_have_default(sel))
		not_supported(ps, "DEFAULT in VALUES", -1);
	if (given > ncols)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("INSERT has more expressions than target columns"));
	ps->scope = target_scope->parent;	/* the source does not see the target */
	analyze_query(ps, sel, targets, &q);
	ps->scope = target_scope;
	if (q.ncolumns < ncols)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("INSERT has more target columns than expressions"));
	rlbuf_append_str(&sql, q.sql);
	finish_dml(ps, stmt, target_scope->items[0], ins->returning_list, ins->n_returning_list, &sql, "INSERT");
}

/*
 * join_target -- UPDATE's FROM and DELETE's USING: the scope of those relations and
 * the target's item, whose SQL (for a FROM clause) goes to from
 */
static void
join_target(ParseState *ps, Node **from_clause, size_t n, RangeItem *item, RlBuf *from)
{
	Scope	   *scope = transform_from(ps, from_clause, n, from);

	/* the target's name is taken as a FROM item's would be (an unaliased one of another schema's table is not) */
	for (int i = 0; i < scope->nitems; i++)
		if (strcmp(scope->items[i]->alias, item->alias) == 0 &&
			(item->aliased || scope->items[i]->aliased || scope->items[i]->relation == NULL ||
			 strcmp(scope->items[i]->relation, item->relation) == 0))
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_ALIAS),
					errmsg("table name \"%s\" specified more than once", item->alias));
	scope_add(scope, item);
	ps->scope = scope;
}

void
analyze_update(ParseState *ps, PgQuery__UpdateStmt *upd, AnalyzedStmt *stmt)
{
	RlBuf		sql,
				from;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&from, CurrentMemoryContext);
	transform_with(ps, upd->with_clause, &sql);
	rlbuf_append_str(&sql, "UPDATE ");
	CacheRelation *rel = target_relation(ps, upd->relation, stmt, &sql);
	RangeItem  *item = ps->scope->items[0];

	/* SELECT too when it reads the table's columns, as PostgreSQL's column checks ask */
	require_relation(ps, rel, upd->where_clause || upd->n_returning_list ? "wr" : "w", upd->relation->location);

	if (upd->n_from_clause)
		join_target(ps, upd->from_clause, upd->n_from_clause, item, &from);
	for (size_t i = 0; i < upd->n_target_list; i++)
	{
		PgQuery__ResTarget *rt = upd->target_list[i]->res_target;

		if (rt->n_indirection || rt->val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
			not_supported(ps, "UPDATE of subfields or several columns at once", rt->location);
		const ResultColumn *col = relation_column(ps, rel, rt->name, rt->location);

		if (rt->val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			not_supported(ps, "SET column = DEFAULT", rt->location);
		Expr	   *e = finish_target(ps, transform_no_aggregates(ps, rt->val, "UPDATE"), col);
		const char *value = deparse_to_string(ps, e);

		append_ident(&sql, i ? ", " : " SET ", col->name);
		rlbuf_append_str(&sql, " = ");
		rlbuf_append_str(&sql, value);
	}
	/* an updated row goes after the others, as PostgreSQL's new row version does */
	rlbuf_printf(&sql, ", %s = rl_row_after((SELECT max(%s) FROM %s))", CACHE_ROWID_COLUMN,
				 CACHE_ROWID_COLUMN, relation_sql(rel));
	if (upd->n_from_clause)
		rlbuf_printf(&sql, " FROM %s", rlbuf_cstr(&from));
	rlbuf_free(&from);
	if (upd->where_clause)
		rlbuf_printf(&sql, " WHERE %s",
					 deparse_to_string(ps, transform_clause(ps, upd->where_clause, BOOLOID, "WHERE", "WHERE")));
	finish_dml(ps, stmt, item, upd->returning_list, upd->n_returning_list, &sql, "UPDATE");
}

/*
 * publish_guard -- rocklake_publish_guard(item.snapshot_id), the condition that
 * refuses to delete a published snapshot (executor/publish.h), as a WHERE
 */
static const char *
publish_guard(ParseState *ps, const RangeItem *item, int location)
{
	PgQuery__String names[3] = {PG_QUERY__STRING__INIT, PG_QUERY__STRING__INIT, PG_QUERY__STRING__INIT};
	PgQuery__Node nodes[3] = {PG_QUERY__NODE__INIT, PG_QUERY__NODE__INIT, PG_QUERY__NODE__INIT};
	PgQuery__Node *fields[3] = {&nodes[0], &nodes[1], &nodes[2]};
	PgQuery__ColumnRef column = PG_QUERY__COLUMN_REF__INIT;
	PgQuery__Node arg = PG_QUERY__NODE__INIT,
				call = PG_QUERY__NODE__INIT;
	PgQuery__Node *args[1] = {&arg};
	PgQuery__FuncCall fc = PG_QUERY__FUNC_CALL__INIT;

	names[0].sval = (char *) PUBLISH_GUARD_FUNCTION;
	names[1].sval = (char *) item->alias;
	names[2].sval = (char *) "snapshot_id";
	for (int i = 0; i < 3; i++)
	{
		nodes[i].node_case = PG_QUERY__NODE__NODE_STRING;
		nodes[i].string = &names[i];
	}
	column.n_fields = 2;
	column.fields = fields + 1;
	column.location = location;
	arg.node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
	arg.column_ref = &column;
	fc.n_funcname = 1;
	fc.funcname = fields;
	fc.n_args = 1;
	fc.args = args;
	fc.location = location;
	call.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
	call.func_call = &fc;
	return deparse_to_string(ps, transform_clause(ps, &call, BOOLOID, "WHERE", "WHERE"));
}

void
analyze_delete(ParseState *ps, PgQuery__DeleteStmt *del, AnalyzedStmt *stmt)
{
	RlBuf		sql,
				using;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&using, CurrentMemoryContext);
	transform_with(ps, del->with_clause, &sql);
	rlbuf_append_str(&sql, "DELETE FROM ");
	CacheRelation *rel = target_relation(ps, del->relation, stmt, &sql);

	require_relation(ps, rel, del->where_clause || del->n_returning_list ? "dr" : "d", del->relation->location);
	RangeItem  *item = ps->scope->items[0];

	/*
	 * USING (SQLite's DELETE has none): a target row goes when a row of the USING
	 * relations meets the condition with it, a correlated EXISTS
	 */
	if (del->n_using_clause)
		join_target(ps, del->using_clause, del->n_using_clause, item, &using);
	const char *where = del->where_clause
		? deparse_to_string(ps, transform_clause(ps, del->where_clause, BOOLOID, "WHERE", "WHERE")) : NULL;

	/* DuckLake's expiry deletes snapshots: not one that is published */
	if (rel->table != NULL && strcmp(rel->name, "ducklake_snapshot") == 0)
	{
		const char *guard = publish_guard(ps, item, del->relation->location);

		where = where ? psprintf("(%s) AND %s", where, guard) : guard;
	}

	if (del->n_using_clause)
		rlbuf_printf(&sql, " WHERE EXISTS (SELECT 1 FROM %s%s%s)", rlbuf_cstr(&using),
					 where ? " WHERE " : "", where ? where : "");
	else if (where)
		rlbuf_printf(&sql, " WHERE %s", where);
	rlbuf_free(&using);
	finish_dml(ps, stmt, item, del->returning_list, del->n_returning_list, &sql, "DELETE");
}
