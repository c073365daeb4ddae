/*
 * parse_select.c: SELECT: the select list, WHERE, GROUP BY and HAVING, window
 * functions, set operations and WITH; its ORDER BY, DISTINCT ON and LIMIT are
 * parse_clause.c's (analyze_internal.h).
 */

#include "parser/analyze_internal.h"

/* ---------- window functions ---------- */

/* deparse_frame_bound -- one end of a frame; start: the first one's bits (else the end's, one bit up) */
static void
deparse_frame_bound(ParseState *ps, RlBuf *out, int options, bool start, Expr *offset)
{
	int			shift = start ? 0 : 1;

	if (options & (FRAMEOPTION_START_UNBOUNDED_PRECEDING << shift))
		rlbuf_append_str(out, "UNBOUNDED PRECEDING");
	else if (options & (FRAMEOPTION_START_UNBOUNDED_FOLLOWING << shift))
		rlbuf_append_str(out, "UNBOUNDED FOLLOWING");
	else if (options & (FRAMEOPTION_START_CURRENT_ROW << shift))
		rlbuf_append_str(out, "CURRENT ROW");
	else
	{
		deparse(ps, out, offset);
		rlbuf_append_str(out, options & (FRAMEOPTION_START_OFFSET_PRECEDING << shift) ? " PRECEDING" : " FOLLOWING");
	}
}

/*
 * deparse_window -- OVER (PARTITION BY ... ORDER BY ... frame) for SQLite, whose
 * default frame is PostgreSQL's (RANGE UNBOUNDED PRECEDING to the current row's last
 * peer); the sort keys spell PostgreSQL's NULLs order, which SQLite's default is not
 */
void
deparse_window(ParseState *ps, RlBuf *out, const WindowSpec *w)
{
	int			o = w->frame_options;

	rlbuf_append_str(out, " OVER (");
	for (int i = 0; i < w->npartition; i++)
	{
		rlbuf_append_str(out, i ? ", " : "PARTITION BY ");
		deparse_collated(ps, out, w->partition[i]);
	}
	for (int i = 0; i < w->norder; i++)
	{
		rlbuf_append_str(out, i ? ", " : w->npartition ? " ORDER BY " : "ORDER BY ");
		deparse_collated(ps, out, w->order[i]);
		rlbuf_printf(out, " %s NULLS %s", w->order_flags[i] & AGG_ORDER_DESC ? "DESC" : "ASC",
					 w->order_flags[i] & AGG_ORDER_NULLS_FIRST ? "FIRST" : "LAST");
	}
	if (o & FRAMEOPTION_NONDEFAULT)
	{
		rlbuf_append_str(out, o & FRAMEOPTION_ROWS ? " ROWS " : o & FRAMEOPTION_GROUPS ? " GROUPS " : " RANGE ");
		if (o & FRAMEOPTION_BETWEEN)
			rlbuf_append_str(out, "BETWEEN ");
		deparse_frame_bound(ps, out, o, true, w->start_offset);
		if (o & FRAMEOPTION_BETWEEN)
		{
			rlbuf_append_str(out, " AND ");
			deparse_frame_bound(ps, out, o, false, w->end_offset);
		}
		if (o & FRAMEOPTION_EXCLUDE_CURRENT_ROW)
			rlbuf_append_str(out, " EXCLUDE CURRENT ROW");
		else if (o & FRAMEOPTION_EXCLUDE_GROUP)
			rlbuf_append_str(out, " EXCLUDE GROUP");
		else if (o & FRAMEOPTION_EXCLUDE_TIES)
			rlbuf_append_str(out, " EXCLUDE TIES");
	}
	rlbuf_append_str(out, ")");
}

/* window_def -- the window an OVER names or writes, one named in WINDOW completed by what OVER adds */
static PgQuery__WindowDef
window_def(ParseState *ps, PgQuery__WindowDef *over)
{
	const char *ref = is_set(over->refname) ? over->refname : is_set(over->name) ? over->name : NULL;
	PgQuery__WindowDef def = *over;

	if (ref == NULL)
		return def;
	for (size_t i = 0; ps->select && i < ps->select->n_window_clause; i++)
	{
		PgQuery__WindowDef *named = ps->select->window_clause[i]->window_def;

		if (strcmp(named->name, ref) != 0)
			continue;
		def = *named;
		if (over->n_order_clause)
		{
			def.n_order_clause = over->n_order_clause;
			def.order_clause = over->order_clause;
		}
		if (over->frame_options & FRAMEOPTION_NONDEFAULT)
		{
			def.frame_options = over->frame_options;
			def.start_offset = over->start_offset;
			def.end_offset = over->end_offset;
		}
		return def;
	}
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_OBJECT),
			errmsg("window \"%s\" does not exist", ref),
			errposition(char_position(ps, over->location)));
	return def;
}

/* window_expr -- an expression of OVER's clauses, whose aggregates are its query's */
static Expr *
window_expr(ParseState *ps, Node *node)
{
	Expr	   *e = transform_expr(ps, node);

	ps->folded_aggregate |= contains_aggregate(e);
	return e;
}

/*
 * transform_window -- f(...) OVER (...): the aggregates and PostgreSQL's window
 * functions SQLite 3.40 has, with PostgreSQL's result types
 */
Expr *
transform_window(ParseState *ps, PgQuery__FuncCall *fc, const char *name)
{
	static const struct
	{
		const char *name;
		int			min_args,
					max_args;
		Oid			type;		/* InvalidOid: the first argument's */
	}			functions[] = {
		{"row_number", 0, 0, INT8OID}, {"rank", 0, 0, INT8OID}, {"dense_rank", 0, 0, INT8OID},
		{"percent_rank", 0, 0, FLOAT8OID}, {"cume_dist", 0, 0, FLOAT8OID}, {"ntile", 1, 1, INT4OID},
		{"lag", 1, 3, InvalidOid}, {"lead", 1, 3, InvalidOid}, {"first_value", 1, 1, InvalidOid},
		{"last_value", 1, 1, InvalidOid}, {"nth_value", 2, 2, InvalidOid},
	};
	PgQuery__FuncCall plain = *fc;
	Expr	   *e = NULL;

	if (ps->agg_refused)
		ereport(ERROR,
				errcode(ERRCODE_WINDOWING_ERROR),
				errmsg("window functions are not allowed in %s", ps->agg_refused),
				errposition(char_position(ps, fc->location)));
	if (ps->in_aggregate)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate function calls cannot contain window function calls"),
				errposition(char_position(ps, fc->location)));
	if (fc->agg_distinct)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("DISTINCT is not implemented for window functions"),
				errposition(char_position(ps, fc->location)));
	if (fc->n_agg_order)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("aggregate ORDER BY is not implemented for window functions"),
				errposition(char_position(ps, fc->location)));
	plain.over = NULL;
	e = transform_aggregate(ps, &plain, name);
	/* the cache's own aggregates have window forms (executor/sqlite_exec.c) */
	if (e != NULL && strncmp(e->sql, "rl_", 3) == 0)
		e->sql = psprintf("%s_window", e->sql);
	if (e == NULL)
	{
		size_t		f = 0;

		while (f < sizeof(functions) / sizeof(functions[0]) && strcmp(functions[f].name, name) != 0)
			f++;
		if (f == sizeof(functions) / sizeof(functions[0]) || fc->agg_star ||
			(int) fc->n_args < functions[f].min_args || (int) fc->n_args > functions[f].max_args ||
			(fc->n_funcname > 1 && strcmp(string_value(fc->funcname[0]), "pg_catalog") != 0))
			not_supported(ps, psprintf("%s as a window function", name), fc->location);
		e = make_expr(EXPR_AGG, functions[f].type, fc->location);
		e->sql = functions[f].name;
		e->nargs = (int) fc->n_args;
		e->args = transform_list(ps, fc->args, fc->n_args);
		if (fc->agg_filter)
			e->defresult = transform_clause(ps, fc->agg_filter, BOOLOID, "FILTER", "FILTER");
		if (e->nargs && e->args[0]->type == UNKNOWNOID)
			e->args[0] = coerce_expr(ps, e->args[0], TEXTOID, -1, COERCE_IMPLICIT);
		if (functions[f].type == InvalidOid)
			e->type = e->args[0]->type;
		for (int i = 1; i < e->nargs; i++)
			e->args[i] = i == 2 ? coerce_or_fail(ps, e->args[i], e->type, name)	/* lag/lead's default */
				: coerce_or_fail(ps, e->args[i], INT4OID, name);
		if (functions[f].type == INT4OID)
			e->args[0] = coerce_or_fail(ps, e->args[0], INT4OID, name);
	}

	PgQuery__WindowDef def = window_def(ps, fc->over);
	WindowSpec *w = palloc0(sizeof(WindowSpec));

	w->npartition = (int) def.n_partition_clause;
	w->partition = palloc(sizeof(Expr *) * (def.n_partition_clause + 1));
	for (size_t i = 0; i < def.n_partition_clause; i++)
		w->partition[i] = window_expr(ps, def.partition_clause[i]);
	w->norder = (int) def.n_order_clause;
	w->order = palloc(sizeof(Expr *) * (def.n_order_clause + 1));
	w->order_flags = palloc(sizeof(int) * (def.n_order_clause + 1));
	for (size_t i = 0; i < def.n_order_clause; i++)
	{
		PgQuery__SortBy *sb = def.order_clause[i]->sort_by;
		bool		desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT ? desc
			: sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;

		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING", sb->location);
		w->order[i] = window_expr(ps, sb->node);
		w->order_flags[i] = (desc ? AGG_ORDER_DESC : 0) | (nulls_first ? AGG_ORDER_NULLS_FIRST : 0);
	}
	w->frame_options = def.frame_options;
	if (def.start_offset)
		w->start_offset = window_expr(ps, def.start_offset);
	if (def.end_offset)
		w->end_offset = window_expr(ps, def.end_offset);
	e->window = w;
	return e;
}

/*
 * aggregate_order -- an aggregate's ORDER BY as arguments of the cache's sorting
 * aggregates: each key, then its flags (descending, NULLs first: PostgreSQL's default
 * puts NULLs last ascending, first descending)
 */
static void
aggregate_order(ParseState *ps, PgQuery__FuncCall *fc, Expr *e)
{
	size_t		nkeys = fc->n_agg_order ? fc->n_agg_order : e->agg_distinct;

	e->args = repalloc(e->args, sizeof(Expr *) * (size_t) (e->nargs + 2 * (int) nkeys + 1));
	for (size_t i = 0; i < nkeys; i++)
	{
		PgQuery__SortBy *sb = fc->n_agg_order ? fc->agg_order[i]->sort_by : NULL;
		bool		desc = sb && sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb == NULL || sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
			? desc : sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
		Expr	   *key = e->args[0];

		if (sb)
		{
			ps->in_aggregate = true;
			key = transform_expr(ps, sb->node);
			ps->in_aggregate = false;
		}
		/* DISTINCT sorts by the value and keeps one of equal ones: it must lead the order */
		if (e->agg_distinct && !expr_equal(key, e->args[0]))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					errmsg("in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"),
					errposition(char_position(ps, key->location)));
		e->args[e->nargs++] = key;
		e->args[e->nargs++] = make_const(typio_int(INT4OID, (desc ? AGG_ORDER_DESC : 0) |
												   (nulls_first ? AGG_ORDER_NULLS_FIRST : 0)), fc->location);
	}
	/* the cache's sorting aggregates keep one row of equal values themselves */
	if (e->agg_distinct)
		e->sql = psprintf("%s_distinct", e->sql);
	e->agg_distinct = false;
}

/* transform_aggregate -- count, sum, avg, min, max, bool_and/or, string_agg; NULL if name is none */
Expr *
transform_aggregate(ParseState *ps, PgQuery__FuncCall *fc, const char *name)
{
	if (!is_aggregate(fc) || fc->over)
		return NULL;
	if (ps->in_aggregate)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate function calls cannot be nested"),
				errposition(char_position(ps, fc->location)));
	if (ps->agg_refused)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate functions are not allowed in %s", ps->agg_refused),
				errposition(char_position(ps, fc->location)));
	bool		array_agg = strcmp(name, "array_agg") == 0;
	bool		json_agg = strncmp(name, "json", 4) == 0;

	for (size_t i = 0; i < fc->n_agg_order; i++)
		if (fc->agg_order[i]->sort_by->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING in aggregates", fc->location);

	Expr	   *e = make_expr(EXPR_AGG, INT8OID, fc->location);

	e->agg_star = fc->agg_star;
	e->agg_distinct = fc->agg_distinct;
	e->nargs = (int) fc->n_args;
	ps->in_aggregate = true;
	e->args = transform_list(ps, fc->args, fc->n_args);
	ps->in_aggregate = false;
	if (ps->subplan)
		subplan_check_aggregate(ps, e->args, e->nargs, fc->location);
	if (fc->agg_filter)
		e->defresult = transform_clause(ps, fc->agg_filter, BOOLOID, "FILTER", "FILTER");
	/* the order of the rows changes nothing but array_agg's, string_agg's and the json ones' results */
	if (!array_agg && !json_agg && strcmp(name, "string_agg") != 0)
		for (size_t i = 0; i < fc->n_agg_order; i++)
		{
			ps->in_aggregate = true;
			(void) transform_expr(ps, fc->agg_order[i]->sort_by->node);
			ps->in_aggregate = false;
		}
	e->sql = name;
	int			want = strcmp(name, "string_agg") == 0 || strcmp(name, "json_object_agg") == 0 ? 2
		: strcmp(name, "count") == 0 && fc->agg_star ? 0 : 1;

	if (e->nargs != want)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("function %s with %d arguments does not exist", name, e->nargs),
				errposition(char_position(ps, fc->location)));
	Oid			given[2] = {InvalidOid, InvalidOid};	/* for the error of no such aggregate */

	for (int i = 0; i < e->nargs && i < 2; i++)
		given[i] = e->args[i]->type;
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i]->type == UNKNOWNOID)
			e->args[i] = coerce_expr(ps, e->args[i], i == 1 && e->args[0]->type == BYTEAOID ? BYTEAOID : TEXTOID,
									 -1, COERCE_IMPLICIT);
	Oid			t = e->nargs ? e->args[0]->type : InvalidOid;

	if (strcmp(name, "count") == 0)
		return e;
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
	{
		/* the types PostgreSQL has no order for */
		if (t == BOOLOID || t == BYTEAOID || t == UUIDOID || t == JSONOID || t == JSONBOID)
			undefined_function(ps, name, given, e->nargs, fc->location);
		e->type = t;
	}
	else if ((strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0) && t == INTERVALOID)
	{
		/* the intervals' fields added, avg that divided by the count (executor/sqlite_exec.c) */
		e->type = INTERVALOID;
		e->sql = name[0] == 'a' ? "rl_interval_avg" : "rl_interval_sum";
	}
	else if (strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0)
	{
		if (!is_numeric(t))
			undefined_function(ps, name, given, e->nargs, fc->location);
		e->type = t == FLOAT4OID || t == FLOAT8OID ? (name[0] == 's' ? t : FLOAT8OID)
			: name[0] == 's' && (t == INT2OID || t == INT4OID) ? INT8OID : NUMERICOID;
		/* PostgreSQL's float arithmetic: NaN, Infinity - Infinity, overflow (executor/sqlite_exec.c) */
		if (t == FLOAT4OID || t == FLOAT8OID)
			e->sql = name[0] == 'a' ? "rl_float_avg" : t == FLOAT4OID ? "rl_float4_sum" : "rl_float_sum";
		/* numeric results, exact, with PostgreSQL's scales (executor/sqlite_exec.c) */
		else if (e->type == NUMERICOID)
			e->sql = name[0] == 'a' ? "rl_numeric_avg" : "rl_numeric_sum";
	}
	else if (json_agg)
	{
		/*
		 * rl_json_agg(element, delimiter [, sort key, flags]...) of to_json(x) or
		 * to_jsonb(x), rl_json_object_agg of json_build_object(k, v): the elements,
		 * null for a NULL, in [] or { } (executor/sqlite_exec.c)
		 */
		bool		object = name[5] == 'o';

		if (e->agg_distinct)
			not_supported(ps, psprintf("%s(DISTINCT ...)", name), fc->location);
		Expr	   *element = make_func_call(ps, object ? "json_build_object" : name[4] == 'b' ? "to_jsonb" : "to_json",
											 e->args, e->nargs, fc->location);

		e->type = element->type;
		e->nargs = 2;
		e->args = palloc(sizeof(Expr *) * 2);
		e->args[0] = element;
		e->args[1] = make_const(typio_string(TEXTOID, ", ", 2), fc->location);
		e->sql = object ? "rl_json_object_agg" : "rl_json_agg";
		aggregate_order(ps, fc, e);
	}
	else if (array_agg)
	{
		/* rl_array_agg(x, array type [, sort key, flags]...) (executor/sqlite_exec.c) */
		e->type = typio_array_type(t);
		if (e->type == InvalidOid)
			multidimensional(ps, fc->location);
		e->args = repalloc(e->args, sizeof(Expr *) * 2);
		e->args[e->nargs++] = make_const(typio_int(INT4OID, e->type), fc->location);
		e->sql = "rl_array_agg";
		aggregate_order(ps, fc, e);
	}
	else if (strcmp(name, "string_agg") == 0 && t == BYTEAOID)
	{
		/* rl_bytea_agg(x, delimiter): the bytes as they are (executor/sqlite_exec.c) */
		if (e->args[1]->type != BYTEAOID)
			undefined_function(ps, name, given, e->nargs, fc->location);
		if (fc->n_agg_order || e->agg_distinct)
			not_supported(ps, "string_agg(bytea) with ORDER BY or DISTINCT", fc->location);
		e->sql = "rl_bytea_agg";
		e->type = BYTEAOID;
	}
	else if (strcmp(name, "string_agg") == 0)
	{
		/* group_concat, or rl_string_agg(x, delimiter, sort key, flags...) sorting (executor/sqlite_exec.c) */
		e->args[0] = coerce_expr(ps, e->args[0], TEXTOID, -1, COERCE_IMPLICIT);
		e->args[1] = coerce_expr(ps, e->args[1], TEXTOID, -1, COERCE_IMPLICIT);
		if (e->args[0] == NULL || e->args[1] == NULL)
			undefined_function(ps, name, given, e->nargs, fc->location);
		e->sql = fc->n_agg_order || e->agg_distinct ? "rl_string_agg" : "group_concat";
		if (fc->n_agg_order || e->agg_distinct)
			aggregate_order(ps, fc, e);
		e->type = TEXTOID;
	}
	else
	{
		if ((e->args[0] = coerce_expr(ps, e->args[0], BOOLOID, -1, COERCE_IMPLICIT)) == NULL)
			undefined_function(ps, name, given, e->nargs, fc->location);
		e->sql = strcmp(name, "bool_or") == 0 ? "max" : "min";
		e->type = BOOLOID;
	}
	return e;
}

/* hoistable -- whether the query analysed since min_ref_level and cte_ref were reset
 * refers to nothing outside itself (its scopes being deeper than outer_level) */
static bool
hoistable(ParseState *ps, int outer_level)
{
	return !ps->cte_ref && ps->min_ref_level > outer_level;
}

/* hoist -- sql as a WITH query of the statement; the query that reads it */
static char *
hoist(ParseState *ps, const char *sql)
{
	if (ps->hoisted.context == NULL)
		rlbuf_init_in(&ps->hoisted, CurrentMemoryContext);
	ps->nhoisted++;
	rlbuf_printf(&ps->hoisted, "%s\"_rl_h%d\" AS (%s)", ps->hoisted.len ? ", " : "", ps->nhoisted, sql);
	return psprintf("SELECT * FROM \"_rl_h%d\"", ps->nhoisted);
}

void
analyze_subquery(ParseState *ps, PgQuery__SelectStmt *sel, Query *q)
{
	int			saved_level = ps->min_ref_level;
	bool		saved_cte_ref = ps->cte_ref;
	int			saved_nest = ps->sub_nest;
	int			outer_level = ps->scope ? ps->scope->level : 0;

	ps->min_ref_level = INT_MAX;
	ps->cte_ref = false;
	ps->sub_nest = 0;
	ps->sublink_depth++;
	analyze_query(ps, sel, NULL, q);
	ps->sublink_depth--;
	int			nest = ps->sub_nest + 1;

	if (nest > HOIST_NESTING && hoistable(ps, outer_level))
	{
		q->sql = hoist(ps, q->sql);
		nest = 1;
	}
	if (saved_level < ps->min_ref_level)
		ps->min_ref_level = saved_level;
	ps->cte_ref |= saved_cte_ref;
	ps->sub_nest = saved_nest > nest ? saved_nest : nest;
}

/* array_sublink -- e as ARRAY(q's subquery) */
static void
array_sublink(ParseState *ps, Expr *e, const Query *q, int location)
{
	Expr	   *column = make_expr(EXPR_VAR, q->columns[0].type, location);

	e->type = typio_array_type(column->type);
	if (e->type == InvalidOid)
		not_supported(ps, psprintf("arrays of type %s", typio_format_type(column->type)), location);
	/* the elements go to rl_array_agg() in their text form */
	column->sql = "\"_rl_c1\"";
	e->sublink = SUBLINK_ARRAY;
	e->nargs = 1;
	e->args = palloc(sizeof(Expr *));
	e->args[0] = coerce_expr(ps, column, TEXTOID, -1, COERCE_EXPLICIT);
}

/* sublink_expr -- sl as an expression; its subquery analysed as plan's statement if plan is set */
static Expr *
sublink_expr(ParseState *ps, PgQuery__SubLink *sl, struct SubPlanFrame *plan)
{
	Query		q;
	Expr	   *e = make_expr(EXPR_SUBLINK, BOOLOID, sl->location);

	if (sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		not_supported(ps, "this subquery", sl->location);
	analyze_subquery(ps, sl->subselect->select_stmt, &q);
	if (plan)
		subplan_suspend(ps, plan);
	e->sql = q.sql;
	switch (sl->sub_link_type)
	{
		case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
			e->sublink = SUBLINK_EXISTS;
			return e;
		case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
			if (q.ncolumns != 1)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("subquery must return only one column"),
						errposition(char_position(ps, sl->location)));
			e->sublink = q.one_row ? SUBLINK_EXPR_ONE_ROW : SUBLINK_EXPR;
			e->type = q.columns[0].type;
			return e;
		case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK:
			if (q.ncolumns != 1)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("subquery must return only one column"),
						errposition(char_position(ps, sl->location)));
			array_sublink(ps, e, &q, sl->location);
			return e;
		case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
		case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK:
			{
				Expr	   *test = transform_expr(ps, sl->testexpr);

				if (q.ncolumns != 1)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("subquery has too many columns"),
							errposition(char_position(ps, sl->location)));
				if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK ||
					(sl->n_oper_name && strcmp(string_value(sl->oper_name[0]), "=") != 0))
				{
					/*
					 * x op ANY / ALL (subquery) is x op ANY / ALL (ARRAY(subquery)): the
					 * same three-valued answer (ANY over no rows false, ALL true, a NULL
					 * comparison making the answer NULL unless another decides it)
					 */
					array_sublink(ps, e, &q, sl->location);
					return make_scalar_array(ps, string_value(sl->oper_name[sl->n_oper_name - 1]), test, e,
											 sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK,
											 sl->location);
				}

				/*
				 * an integer compares with an integer of another width as it is; else
				 * the side that casts implicitly to the other's type is cast (numeric
				 * IN (SELECT int) compares numerics), the subquery's column by a
				 * SELECT around it
				 */
				Expr	   *column = make_expr(EXPR_VAR, q.columns[0].type, sl->location);

				column->sql = "\"_rl_c1\"";
				e->sublink = SUBLINK_IN;
				e->nargs = 1;
				e->args = palloc(sizeof(Expr *) * 2);
				if (!same_canonical_form(q.columns[0].type, test->type, -1))
				{
					Expr	   *cast = coerce_expr(ps, test, q.columns[0].type, -1, COERCE_IMPLICIT);

					if (cast == NULL && (column = coerce_expr(ps, column, test->type, -1, COERCE_IMPLICIT)) != NULL)
						e->args[e->nargs++] = column;
					else if (cast == NULL)
						no_operator(ps, "=", test, make_expr(EXPR_CONST, q.columns[0].type, -1), sl->location);
					else
						test = cast;
				}
				e->args[0] = test;
				return e;
			}
		default:
			not_supported(ps, "this kind of subquery", sl->location);
			return NULL;
	}
}

Expr *
transform_sublink(ParseState *ps, PgQuery__SubLink *sl)
{
	struct SubPlanFrame *plan = subplan_wanted(ps, sl) ? subplan_begin(ps) : NULL;
	Expr	   *e = sublink_expr(ps, sl, plan);

	return plan ? subplan_finish(ps, plan, e) : e;
}

/* ---------- SELECT ---------- */

/* target_expr -- a result column, coerced to the target's type when there is one */
Expr *
finish_target(ParseState *ps, Expr *e, const ResultColumn *target)
{
	if (target != NULL)
	{
		Expr	   *c = coerce_expr(ps, e, target->type, target->typmod, COERCE_ASSIGNMENT);

		if (c == NULL)
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("column \"%s\" is of type %s but expression is of type %s", target->name,
						   typio_format_type(target->type), typio_format_type(e->type)),
					errhint("You will need to rewrite or cast the expression."),
					errposition(char_position(ps, e->location)));
		return c;
	}
	return e->type == UNKNOWNOID ? coerce_expr(ps, e, TEXTOID, -1, COERCE_IMPLICIT) : e;
}

static void
add_target(TargetList *tl, Expr *e, const char *name)
{
	tl->exprs = repalloc(tl->exprs, sizeof(Expr *) * (size_t) (tl->n + 1));
	tl->columns = repalloc(tl->columns, sizeof(ResultColumn) * (size_t) (tl->n + 1));
	tl->exprs[tl->n] = e;
	tl->columns[tl->n] = (ResultColumn) {name, e->type, e->typmod};
	tl->n++;
}

/*
 * check_column_limit -- 54011 past one of PostgreSQL's limits: "what can have at most
 * limit items" (its target lists' entries, its tables' columns)
 */
void
check_column_limit(size_t n, int limit, const char *what, const char *items)
{
	if (n > (size_t) limit)
		ereport(ERROR,
				errcode(ERRCODE_TOO_MANY_COLUMNS),
				errmsg("%s can have at most %d %s", what, limit, items));
}

void
transform_targets(ParseState *ps, Node **nodes, size_t n, TargetList *tl)
{
	tl->exprs = palloc(sizeof(Expr *));
	tl->columns = palloc(sizeof(ResultColumn));
	for (size_t i = 0; i < n; i++)
	{
		PgQuery__ResTarget *rt = nodes[i]->res_target;
		Node	   *val = rt->val;

		if (val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
			val->column_ref->fields[val->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
		{
			PgQuery__ColumnRef *cr = val->column_ref;
			const char *alias = cr->n_fields >= 2 ? string_value(cr->fields[cr->n_fields - 2]) : NULL;

			if (ps->scope == NULL)
				transform_column_ref(ps, cr);
			for (int k = 0; k < ps->scope->nitems; k++)
			{
				RangeItem  *item = ps->scope->items[k];

				if (alias && strcmp(alias, item->alias) != 0)
					continue;
				for (int c = 0; c < item->ncolumns; c++)
					if (alias || visible_column(item, c))
						add_target(tl, column_expr(item, c, cr->location), item->columns[c].name);
			}
			if (alias)
				find_item(ps, NULL, alias, cr->location);
			continue;
		}
		add_target(tl, transform_expr(ps, val), is_set(rt->name) ? rt->name : figure_colname(val));
	}
	check_column_limit((size_t) tl->n, MAX_TARGET_ENTRIES, "target lists", "entries");
}

bool
contains_aggregate(const Expr *e)
{
	if (e == NULL)
		return false;
	if (e->kind == EXPR_AGG && e->window == NULL)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (contains_aggregate(e->args[i]))
			return true;
	return contains_aggregate(e->defresult);
}

/*
 * analyze_values_query -- VALUES (...), (...) as SQLite VALUES, columns typed in common;
 * a VALUES read as a query (not INSERT's) names its columns _rl_cN as every query's SQL
 * does, where SQLite's are column1, column2 ...: a reference to "_rl_c1" that names no
 * column would be read by SQLite as the string '_rl_c1'
 */
static void
analyze_values_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets, Query *q,
					 RlBuf *sql)
{
	AnalyzedStmt tmp = {0};
	Plan		plan = {0};

	if (targets)
	{
		/* INSERT: each value goes straight to its column's type */
		int			ncols = (int) sel->values_lists[0]->list->n_items;

		plan.nvalues_rows = (int) sel->n_values_lists;
		plan.values_rows = palloc(sizeof(Expr **) * sel->n_values_lists);
		for (size_t r = 0; r < sel->n_values_lists; r++)
		{
			PgQuery__List *row = sel->values_lists[r]->list;

			if ((int) row->n_items != ncols)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("VALUES lists must all be the same length"));
			plan.values_rows[r] = transform_values_row(ps, row);
		}
		tmp.ncolumns = ncols;
		tmp.columns = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));
	}
	else
		analyze_values(ps, sel, &tmp, &plan);
	q->ncolumns = tmp.ncolumns;
	q->columns = tmp.columns;
	if (targets == NULL)
	{
		rlbuf_append_str(sql, "SELECT ");
		for (int c = 0; c < q->ncolumns; c++)
			rlbuf_printf(sql, "%scolumn%d AS \"_rl_c%d\"", c ? ", " : "", c + 1, c + 1);
		rlbuf_append_str(sql, " FROM (");
	}
	rlbuf_append_str(sql, "VALUES ");
	for (int r = 0; r < plan.nvalues_rows; r++)
	{
		rlbuf_append_str(sql, r ? ", (" : "(");
		for (int c = 0; c < q->ncolumns; c++)
		{
			Expr	   *e = finish_target(ps, plan.values_rows[r][c], targets ? &targets[c] : NULL);

			if (c)
				rlbuf_append_str(sql, ", ");
			deparse(ps, sql, e);
			if (targets)
				q->columns[c] = targets[c];
		}
		rlbuf_append_str(sql, ")");
	}
	if (targets == NULL)
		rlbuf_append_str(sql, ")");
}

/* row_operand -- a column or a constant */
static bool
row_operand(const Expr *e)
{
	return e->kind == EXPR_VAR || e->kind == EXPR_CONST;
}

/*
 * row_predicate -- whether e is a condition on the row's columns and constants alone
 * that no setting of the session changes: comparisons of a column or constant with a
 * column or constant, IS [NOT] NULL of one, AND, OR and NOT of such (a cast, an
 * operator on timestamps or a function could depend on TimeZone or DateStyle)
 */
static bool
row_predicate(const Expr *e)
{
	switch (e->kind)
	{
		case EXPR_AND:
		case EXPR_OR:
		case EXPR_NOT:
			for (int i = 0; i < e->nargs; i++)
				if (!row_predicate(e->args[i]))
					return false;
			return true;
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
			return e->nargs == 1 && row_operand(e->args[0]);
		case EXPR_OP:
			switch (e->op)
			{
				case OP_EQ:
				case OP_NE:
				case OP_LT:
				case OP_LE:
				case OP_GT:
				case OP_GE:
				case OP_DISTINCT:
				case OP_NOT_DISTINCT:
					return e->nargs == 2 && row_operand(e->args[0]) && row_operand(e->args[1]);
				default:
					return false;
			}
		default:
			return false;
	}
}

/*
 * plain_scan -- the one FROM item of sel when sel reads a DuckLake table of the
 * catalog row by row: no WITH, DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT or OFFSET,
 * only the table's columns in the select list, and a WHERE (where, if any) of its
 * columns and constants alone (row_predicate). Every row of such a query is a function
 * of one row of the table and the constants, so a copy of its result can be brought up
 * to date by reading the rows added since (keptscan.h).
 */
static const RangeItem *
plain_scan(ParseState *ps, PgQuery__SelectStmt *sel, const TargetList *tl, const Expr *where)
{
	const RangeItem *item = ps->scope && ps->scope->nitems == 1 ? ps->scope->items[0] : NULL;

	if (item == NULL || item->main_table == NULL || item->bare ||
		strncmp(cache_unqualified_name(item->main_table), "ducklake_", 9) != 0 ||
		sel->with_clause || sel->n_distinct_clause || sel->n_group_clause ||
		sel->having_clause || sel->n_sort_clause || sel->limit_count || sel->limit_offset ||
		sel->n_from_clause != 1 || sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR ||
		(where && !row_predicate(where)))
		return NULL;
	for (int i = 0; i < tl->n; i++)
		if (tl->exprs[i]->kind != EXPR_VAR)
			return NULL;
	return item;
}

/*
 * heap_order_of -- what makes a statement's query over one table return its rows in
 * the order PostgreSQL's sequential scan of a fresh table would: the row id order,
 * in which a table's rows lie in SQLite (an insert takes the next row id, an update
 * the next after all: rl_row_after), as PostgreSQL's lie in their heap. SQLite reads
 * a query without WHERE from the table unless an index holds every column it needs,
 * which it would read instead, in the index's order: NOT INDEXED forbids that. With a
 * WHERE, SQLite may serve the filter from an index, in its order: the rows are sorted
 * by row id, except for DuckLake's tables, whose filtered scans (keptscan.h) are the
 * catalog's hot path and must not sort (doc/design.md, "Row order"). Not for queries
 * whose order PostgreSQL does not take from the heap alone (grouped, DISTINCT, ORDER
 * BY, a set-returning function in the select list: passed as grouped) nor for joins.
 */
static void
heap_order_of(ParseState *ps, PgQuery__SelectStmt *sel, bool grouped, bool filtered, Query *q)
{
	const RangeItem *item = ps->scope && ps->scope->nitems == 1 ? ps->scope->items[0] : NULL;

	if (item == NULL || !item->is_table || item->catalog || grouped || sel->n_distinct_clause ||
		sel->n_sort_clause || sel->n_from_clause != 1 ||
		sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
		return;
	if (!filtered)
		q->heap_order = " NOT INDEXED";
	else if (item->main_table == NULL || strncmp(cache_unqualified_name(item->main_table), "ducklake_", 9) != 0)
		q->heap_order = " ORDER BY " CACHE_ROWID_COLUMN;
}

/* expr_equal -- whether a and b are the same expression (GROUP BY's matching) */
bool
expr_equal(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->kind != b->kind || a->type != b->type || a->nargs != b->nargs ||
		a->op != b->op || a->func != b->func || a->booltest != b->booltest || a->sublink != b->sublink ||
		a->agg_star != b->agg_star || a->agg_distinct != b->agg_distinct || a->range != b->range ||
		a->array_all != b->array_all || a->element_type != b->element_type ||
		a->column != b->column || (a->sql == NULL) != (b->sql == NULL) || (a->sql && strcmp(a->sql, b->sql) != 0) ||
		a->window != b->window)
		return false;
	if (a->kind == EXPR_PARAM && a->paramno != b->paramno)
		return false;
	if (a->kind == EXPR_CONST &&
		(a->constval.isnull != b->constval.isnull ||
		 (!a->constval.isnull && strcmp(typio_output(&a->constval, NULL), typio_output(&b->constval, NULL)) != 0)))
		return false;
	for (int i = 0; i < a->nargs; i++)
		if (!expr_equal(a->args[i], b->args[i]))
			return false;
	return expr_equal(a->defresult, b->defresult);
}

/* grouped_by -- whether GROUP BY holds e itself */
static bool
grouped_by(const Grouping *g, const Expr *e)
{
	for (int i = 0; i < g->ngroups; i++)
		if (expr_equal(g->groups[i], e))
			return true;
	return false;
}

/*
 * depends_on_key -- whether GROUP BY holds every column of the primary key of the
 * table var reads, so that var's value is one per group (PostgreSQL's functional
 * dependency)
 */
static bool
depends_on_key(const Grouping *g, const Expr *var)
{
	const RangeItem *item = var->range;

	for (int k = 0; k < item->npkey; k++)
	{
		bool		found = false;

		for (int i = 0; i < g->ngroups && !found; i++)
			found = g->groups[i]->kind == EXPR_VAR && g->groups[i]->range == item &&
				g->groups[i]->column == item->pkey[k];
		if (!found)
			return false;
	}
	return item->npkey > 0;
}

/*
 * ungrouped_column -- a column of the query's own FROM that e uses outside an
 * aggregate and outside the GROUP BY expressions, or NULL. A subquery's uses are
 * not looked into (its text is made already).
 */
static const Expr *
ungrouped_column(const Grouping *g, const Expr *e)
{
	if (e == NULL || e->kind == EXPR_AGG || e->kind == EXPR_SUBLINK || grouped_by(g, e))
		return NULL;
	if (e->kind == EXPR_VAR)
	{
		for (int i = 0; e->range && g->scope && i < g->scope->nitems; i++)
			if (g->scope->items[i] == e->range)
				return depends_on_key(g, e) ? NULL : e;
		return NULL;
	}
	for (int i = 0; i < e->nargs; i++)
	{
		const Expr *found = ungrouped_column(g, e->args[i]);

		if (found)
			return found;
	}
	return ungrouped_column(g, e->defresult);
}

/*
 * check_grouped -- PostgreSQL's rule for the select list, HAVING and ORDER BY of a
 * grouped query: 42803 for a column of its FROM used outside an aggregate that GROUP
 * BY neither holds nor determines (by its table's primary key)
 */
static void
check_grouped(ParseState *ps, const Grouping *g, Expr *const *exprs, int n)
{
	for (int i = 0; i < n; i++)
	{
		const Expr *var = ungrouped_column(g, exprs[i]);

		if (var)
		{
			const RangeItem *item = var->range;

			ereport(ERROR,
					errcode(ERRCODE_GROUPING_ERROR),
					errmsg("column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function",
						   item->alias, var->column >= 0 ? item->columns[var->column].name : "ctid"),
					errposition(char_position(ps, var->location)));
		}
	}
}

/*
 * analyze_query -- a SELECT (or VALUES, or a set operation) as SQLite SQL
 *
 * targets, if given, are the columns the result must have (INSERT's), one per
 * output column.
 */
/*
 * select_list_srfs -- f(...) in the select list of a query over the cache: a FROM item
 * joined to the rest, its value the column. Several run in lockstep, as PostgreSQL runs
 * them: as many rows as the longest set has elements (json_each of an array of that
 * many zeros numbers them), each set joined by its position, NULL past its end.
 */
static void
select_list_srfs(ParseState *ps, TargetList *tl, RlBuf *from)
{
	int			n = 1 + ps->nmore_srfs;
	Expr	  **srfs = palloc(sizeof(Expr *) * (size_t) n);

	srfs[0] = ps->srf;
	for (int k = 1; k < n; k++)
		srfs[k] = ps->more_srfs[k - 1];
	if (n > 1)
	{
		/* CROSS JOIN: SQLite keeps it after the items its arguments read */
		rlbuf_printf(from, "%sjson_each('[' || rtrim(replace(hex(zeroblob(max(", from->len ? " CROSS JOIN " : "");
		for (int k = 0; k < n; k++)
			rlbuf_printf(from, "%sjson_array_length(rl_array_json(%s, %u))", k ? ", " : "",
						 deparse_to_string(ps, srfs[k]), srfs[k]->type);
		rlbuf_append_str(from, "))), '00', '0,'), ',') || ']') AS \"_rl_srf\"");
	}
	for (int k = 0; k < n; k++)
	{
		int			i = 0;
		char	   *alias = n > 1 ? psprintf("_rl_srf%d", k) : "_rl_srf";

		while (i < tl->n && tl->exprs[i] != srfs[k])
			i++;
		if (i == tl->n)
			not_supported(ps, "a set-returning function inside an expression", srfs[k]->location);
		if (n == 1)
			rlbuf_printf(from, "%s%s", from->len ? ", " : "", set_source(ps, srfs[k], alias));
		else
			rlbuf_printf(from, " LEFT JOIN %s ON %s.key = \"_rl_srf\".key", set_source(ps, srfs[k], alias),
						 quote_ident(alias));
		tl->exprs[i] = make_expr(EXPR_VAR, srfs[k]->type, srfs[k]->location);
		tl->exprs[i]->sql = psprintf("%s.value", quote_ident(alias));
	}
	ps->srf = NULL;
	ps->nmore_srfs = 0;
}

void
analyze_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets, Query *q)
{
	RlBuf		sql;
	CteItem    *saved_ctes = ps->ctes;
	Scope	   *saved_scope = ps->scope;
	Expr	   *saved_srf = ps->srf;
	bool		saved_lockstep = ps->srf_lockstep;
	bool		leaf = ps->setop_leaf;
	bool		recursive = ps->recursive_query;
	const char *saved_agg_refused = ps->agg_refused;
	bool		saved_in_aggregate = ps->in_aggregate;
	bool		saved_folded_aggregate = ps->folded_aggregate;
	PgQuery__SelectStmt *saved_select = ps->select;
	GroupingSets *saved_gsets = ps->gsets;

	/* a subquery's aggregates are its own (those of outer columns are not told apart) */
	ps->agg_refused = NULL;
	ps->in_aggregate = false;
	ps->folded_aggregate = false;
	ps->select = sel;
	ps->gsets = NULL;
	ps->srf = NULL;
	ps->srf_lockstep = false;
	q->scan = NULL;
	q->scan_where = NULL;
	q->heap_order = NULL;
	q->one_row = false;

	ps->setop_leaf = false;
	ps->recursive_query = false;
	ps->query_depth++;
	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (sel->into_clause)
		not_supported(ps, "SELECT INTO", -1);
	if (sel->n_locking_clause)
		not_supported(ps, "FOR UPDATE/SHARE", -1);
	transform_with(ps, sel->with_clause, &sql);
	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
	{
		static const char *const opnames[] = {"", "", "UNION", "INTERSECT", "EXCEPT"};
		Query		l;
		TargetList	tl = {0};

		if (sel->op > PG_QUERY__SET_OPERATION__SETOP_EXCEPT)
			not_supported(ps, "this set operation", -1);
		if (recursive && sel->n_sort_clause)
			not_supported(ps, "ORDER BY in a recursive query", -1);
		if (recursive && (sel->limit_count || sel->limit_offset))
			not_supported(ps, "OFFSET/LIMIT in a recursive query", -1);

		/*
		 * a chain of one operation (a UNION ALL b UNION ALL c ..., a left-deep tree)
		 * is one compound (append_compound), as SQLite reads it left to right:
		 * nested, each link would take a level of SQLite's parser stack
		 */
		int			narms = 0,
					cap = 8;
		PgQuery__SelectStmt **arms = palloc(sizeof(PgQuery__SelectStmt *) * (size_t) cap);
		PgQuery__SelectStmt *link = sel;

		for (;;)
		{
			if (narms == cap)
				arms = repalloc(arms, sizeof(PgQuery__SelectStmt *) * (size_t) (cap *= 2));
			arms[narms++] = link->rarg;
			link = link->larg;
			if (link->op != sel->op || link->all != sel->all || link->n_sort_clause || link->limit_count ||
				link->limit_offset || link->with_clause)
				break;
		}
		if (narms == cap)
			arms = repalloc(arms, sizeof(PgQuery__SelectStmt *) * (size_t) (cap + 1));
		arms[narms++] = link;
		for (int i = 0; i < narms / 2; i++)
		{
			PgQuery__SelectStmt *swap = arms[i];

			arms[i] = arms[narms - 1 - i];
			arms[narms - 1 - i] = swap;
		}
		Query	   *arm = palloc(sizeof(Query) * (size_t) narms);
		Oid		   *first_types = NULL; /* the first arm's own, before its columns become the result's */

		for (int a = 0; a < narms; a++)
		{
			ps->setop_leaf = true;
			analyze_query(ps, arms[a], targets, &arm[a]);
			if (a == 0)
			{
				first_types = palloc(sizeof(Oid) * (size_t) (arm[0].ncolumns + 1));
				for (int c = 0; c < arm[0].ncolumns; c++)
					first_types[c] = arm[0].columns[c].type;
			}
			if (arm[a].ncolumns != arm[0].ncolumns)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("each %s query must have the same number of columns", opnames[sel->op]));
			for (int c = 0; a > 0 && c < arm[0].ncolumns; c++)
			{
				Expr	   *pair[2] = {make_expr(EXPR_CONST, arm[0].columns[c].type, -1),
				make_expr(EXPR_CONST, arm[a].columns[c].type, -1)};
				Oid			type = select_common_type(ps, pair, 2, opnames[sel->op]);

				if (type != arm[a].columns[c].type)
					arm[0].columns[c].typmod = -1;
				arm[0].columns[c].type = type;
			}
		}
		l = arm[0];
		q->ncolumns = l.ncolumns;
		q->columns = l.columns;

		/* each arm's columns in the result's types */
		char	  **terms = palloc(sizeof(char *) * (size_t) narms);

		for (int a = 0; a < narms; a++)
		{
			RlBuf		term;

			/*
			 * SQLite reads a recursive WITH query only as a compound of SELECTs
			 * that name it in their own FROM: its arms are written as they are
			 * (transform_with has checked that they give the result's types)
			 */
			if (recursive)
			{
				terms[a] = arm[a].sql;
				continue;
			}
			rlbuf_init_in(&term, CurrentMemoryContext);
			rlbuf_append_str(&term, "SELECT ");
			for (int c = 0; c < l.ncolumns; c++)
			{
				Oid			type = a == 0 ? first_types[c] : arm[a].columns[c].type;
				Expr	   *column = make_expr(EXPR_VAR, type, -1);
				char	   *name = psprintf("\"_rl_c%d\"", c + 1);

				column->sql = name;
				if (!same_canonical_form(type, l.columns[c].type, -1))
					column = coerce_expr(ps, column, l.columns[c].type, -1, COERCE_IMPLICIT);
				if (c)
					rlbuf_append_str(&term, ", ");
				deparse_collated(ps, &term, column);
				rlbuf_printf(&term, " AS %s", name);
			}
			rlbuf_printf(&term, "%s FROM (%s)", l.ncolumns ? "" : "NULL", arm[a].sql);
			terms[a] = (char *) rlbuf_cstr(&term);
		}
		append_set_operation(&sql, terms, narms, l.ncolumns, sel->op, sel->all, recursive);
		tl.exprs = palloc(sizeof(Expr *) * (size_t) (l.ncolumns ? l.ncolumns : 1));
		tl.columns = q->columns;
		tl.n = l.ncolumns;
		for (int c = 0; c < l.ncolumns; c++)
		{
			tl.exprs[c] = make_var(&(RangeItem) {.alias = "_rl_set"}, q->columns[c].name,
								   q->columns[c].type, q->columns[c].typmod, -1);
			tl.exprs[c]->range = NULL;	/* no FROM item of this query's */
		}
		append_order_by(ps, &sql, sel, &tl, true, NULL);
		append_limit(ps, &sql, sel);
	}
	else if (sel->n_values_lists > 0)
	{
		if (sel->n_sort_clause || sel->limit_count || sel->limit_offset)
			not_supported(ps, "ORDER BY or LIMIT on VALUES", -1);
		analyze_values_query(ps, sel, targets, q, &sql);
	}
	else
	{
		RlBuf		from;
		TargetList	tl = {0};

		rlbuf_init_in(&from, CurrentMemoryContext);
		bool		distinct_on = sel->n_distinct_clause && sel->distinct_clause[0] != NULL &&
			sel->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET;

		if (sel->n_from_clause)
			ps->scope = transform_from(ps, sel->from_clause, sel->n_from_clause, &from);
		ps->srf_lockstep = true;
		ps->nmore_srfs = 0;
		transform_targets(ps, sel->target_list, sel->n_target_list, &tl);
		ps->srf_lockstep = false;
		bool		targets_srf = ps->srf != NULL;

		if (targets_srf)
			select_list_srfs(ps, &tl, &from);
		if (wants_grouping_sets(sel))
		{
			ps->gsets = transform_grouping_sets(ps, sel, &tl);
			grouping_sets_from(ps->gsets, &from);
		}
		rlbuf_append_str(&sql, sel->n_distinct_clause && !distinct_on ? "SELECT DISTINCT " : "SELECT ");
		size_t		first_at = sql.len,
					first_end = sql.len + strlen("NULL");

		for (int i = 0; i < tl.n; i++)
		{
			/* a set operation resolves its branches' unknown columns together */
			if (!leaf || targets || tl.exprs[i]->type != UNKNOWNOID)
				tl.exprs[i] = finish_target(ps, tl.exprs[i], targets ? &targets[i] : NULL);
			tl.exprs[i] = grouping_substitute(ps, tl.exprs[i]);
			tl.columns[i].type = tl.exprs[i]->type;
			tl.columns[i].typmod = tl.exprs[i]->typmod;
			if (targets)
				tl.columns[i].name = targets[i].name;
			if (i)
				rlbuf_append_str(&sql, ", ");
			deparse_collated(ps, &sql, tl.exprs[i]);	/* DISTINCT, set operations, outer queries */
			if (i == 0)
				first_end = sql.len;
			/* for rl_scalar(): AS "_rl_c<n>" */
			rlbuf_append_str(&sql, " AS \"_rl_c");
			rlbuf_append_int(&sql, i + 1);
			rlbuf_append_str(&sql, "\"");
		}
		if (tl.n == 0)
			rlbuf_append_str(&sql, "NULL");
		size_t		targets_end = sql.len;

		if (from.len)
		{
			rlbuf_append_str(&sql, " FROM ");
			rlbuf_append(&sql, from.data, from.len);
		}
		rlbuf_free(&from);
		size_t		from_end = sql.len;
		Expr	   *where = sel->where_clause
			? transform_clause(ps, sel->where_clause, BOOLOID, "WHERE", "WHERE") : NULL;

		/* in parentheses: a kept scan adds its own condition after it (keptscan.c) */
		size_t		where_at = sql.len + strlen(" WHERE ");

		if (where)
		{
			rlbuf_append_str(&sql, " WHERE (");
			deparse(ps, &sql, where);
			rlbuf_append_str(&sql, ")");
		}
		size_t		where_end = sql.len;
		Grouping	grouping = {.groups = palloc(sizeof(Expr *) * (sel->n_group_clause ? sel->n_group_clause : 1)),
		.scope = ps->scope};

		ps->agg_refused = "GROUP BY";
		if (ps->gsets)
			grouping_sets_group_by(ps, ps->gsets, &sql, &grouping);
		for (size_t i = 0; i < sel->n_group_clause && !ps->gsets; i++)
		{
			Expr	   *g = group_by_expr(ps, sel->group_clause[i], &tl);

			rlbuf_append_str(&sql, i ? ", " : " GROUP BY ");
			deparse_collated(ps, &sql, g);
			grouping.groups[grouping.ngroups++] = g;
		}
		ps->agg_refused = NULL;
		Expr	   *having = sel->having_clause
			? grouping_substitute(ps, coerce_or_fail(ps, transform_expr(ps, sel->having_clause), BOOLOID, "HAVING"))
			: NULL;
		Expr	  **sorts;

		if (having)
			rlbuf_printf(&sql, " HAVING %s", deparse_to_string(ps, having));
		size_t		order_at = sql.len;

		append_order_by(ps, &sql, sel, &tl, sel->n_distinct_clause > 0 && !distinct_on, &sorts);
		char	   *partition = distinct_on ? distinct_on_partition(ps, sel, &tl, sorts, &sql) : NULL;
		char	   *order_by = pstrdup(rlbuf_cstr(&sql) + order_at);

		/* a grouped query: GROUP BY, HAVING or an aggregate anywhere */
		bool		aggregated_targets = false;
		bool		grouped = sel->n_group_clause || having || ps->folded_aggregate;

		for (int i = 0; i < tl.n; i++)
			aggregated_targets |= contains_aggregate(tl.exprs[i]);
		for (size_t i = 0; i < sel->n_sort_clause; i++)
			grouped |= contains_aggregate(sorts[i]);
		if (grouped || aggregated_targets)
		{
			check_grouped(ps, &grouping, tl.exprs, tl.n);
			check_grouped(ps, &grouping, &having, 1);
			check_grouped(ps, &grouping, sorts, (int) sel->n_sort_clause);
		}
		if (grouped && !sel->n_group_clause && !aggregated_targets)
		{
			/*
			 * SQLite groups a query without GROUP BY only for an aggregate in its
			 * select list: the first result gets one that changes nothing
			 */
			char	   *text = psprintf("%.*scoalesce(%.*s, max(NULL))%s", (int) first_at, rlbuf_cstr(&sql),
										(int) (first_end - first_at), rlbuf_cstr(&sql) + first_at,
										rlbuf_cstr(&sql) + first_end);

			rlbuf_reset(&sql);
			rlbuf_append_str(&sql, text);
			where_at += strlen("coalesce(, max(NULL))");
			targets_end += strlen("coalesce(, max(NULL))");
		}
		if (ps->gsets && !distinct_on)
			grouping_sets_empty_input(ps, &sql, sel, &tl, sorts, (size_t[4]) {targets_end, from_end, where_end, order_at},
									  having);
		if (distinct_on)
			select_distinct_on(&sql, targets_end, partition, order_by, tl.n);
		append_limit(ps, &sql, sel);
		if (ps->srf != NULL)
			not_supported(ps, "set-returning functions outside the select list and FROM", ps->srf->location);
		q->one_row = !targets_srf && (!sel->n_from_clause || ((grouped || aggregated_targets) && !sel->n_group_clause));
		q->ncolumns = tl.n;
		q->columns = tl.columns;
		q->scan = plain_scan(ps, sel, &tl, where);
		q->scan_filtered = where != NULL;
		heap_order_of(ps, sel, grouped || aggregated_targets || targets_srf, where != NULL, q);
		q->heap_order_at = where ? where_end : from_end;
		/* a plain scan has nothing after its WHERE */
		q->scan_where = where && q->scan ? pstrdup(rlbuf_cstr(&sql) + where_at) : NULL;
	}
	q->sql = pstrdup(rlbuf_cstr(&sql));
	rlbuf_free(&sql);
	ps->ctes = saved_ctes;
	ps->query_depth--;
	ps->scope = saved_scope;
	ps->srf = saved_srf;
	ps->srf_lockstep = saved_lockstep;
	ps->agg_refused = saved_agg_refused;
	ps->in_aggregate = saved_in_aggregate;
	ps->folded_aggregate = saved_folded_aggregate;
	ps->select = saved_select;
	ps->gsets = saved_gsets;
}

/* add_sql -- stmt runs sql with the binds collected so far */
void
add_sql(ParseState *ps, AnalyzedStmt *stmt, const char *sql)
{
	stmt->sql = stmt->sql ? repalloc(stmt->sql, sizeof(SqlStatement) * (size_t) (stmt->nsql + 1))
		: palloc(sizeof(SqlStatement));
	/* the subqueries hoisted out of sql (analyze_subquery) join its WITH, or make one */
	if (ps->hoisted.len > 0)
	{
		size_t		with = strncmp(sql, "WITH RECURSIVE ", 15) == 0 ? 15 : strncmp(sql, "WITH ", 5) == 0 ? 5 : 0;

		sql = psprintf("%s%s%s%s", with == 15 ? "WITH RECURSIVE " : "WITH ", rlbuf_cstr(&ps->hoisted),
					   with ? ", " : " ", sql + with);
		rlbuf_reset(&ps->hoisted);
	}
	stmt->sql[stmt->nsql++] = (SqlStatement) {pstrdup(sql), ps->nbinds, ps->binds};
	ps->nbinds = 0;
	ps->binds = palloc(sizeof(Expr *));
}

/* skip_notice -- the NOTICE of an object IF [NOT] EXISTS skipped, given when stmt runs */
void
skip_notice(AnalyzedStmt *stmt, const char *code, const char *message)
{
	stmt->notices = stmt->notices ? repalloc(stmt->notices, sizeof(char *) * (size_t) (stmt->nnotices + 1))
		: palloc(sizeof(char *));
	stmt->notice_codes = stmt->notice_codes
		? repalloc(stmt->notice_codes, sizeof(char *) * (size_t) (stmt->nnotices + 1)) : palloc(sizeof(char *));
	stmt->notices[stmt->nnotices] = message;
	stmt->notice_codes[stmt->nnotices++] = code;
}

/*
 * node_contains -- whether a parse tree has a node of kind anywhere (protobuf
 * reflection) for which match, if given, is true
 */
bool
node_contains(const ProtobufCMessage *msg, PgQuery__Node__NodeCase kind, bool (*match) (const Node *))
{
	if (msg == NULL)
		return false;
	if (msg->descriptor == &pg_query__node__descriptor)
	{
		const Node *node = (const Node *) msg;
		const ProtobufCFieldDescriptor *f = node_member_field(node);

		if (node->node_case == kind && (match == NULL || match(node)))
			return true;
		return f && node_contains(*(ProtobufCMessage * const *) ((const char *) msg + f->offset), kind, match);
	}
	for (unsigned i = 0; i < msg->descriptor->n_fields; i++)
	{
		const ProtobufCFieldDescriptor *f = &msg->descriptor->fields[i];
		const char *base = (const char *) msg + f->offset;

		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED)
		{
			size_t		n = *(const size_t *) ((const char *) msg + f->quantifier_offset);
			ProtobufCMessage *const *items = *(ProtobufCMessage * const **) base;

			for (size_t k = 0; k < n; k++)
				if (node_contains(items[k], kind, match))
					return true;
		}
		else if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		{
			if (*(const uint32_t *) ((const char *) msg + f->quantifier_offset) == f->id &&
				node_contains(*(ProtobufCMessage * const *) base, kind, match))
				return true;
		}
		else if (node_contains(*(ProtobufCMessage * const *) base, kind, match))
			return true;
	}
	return false;
}

/*
 * calls_cache_function -- a call of a function that runs only over the cache
 * (FunctionNeedsCache), or of an aggregate or window function (SQLite's, also
 * without FROM)
 */
static bool
calls_cache_function(const Node *node)
{
	const PgQuery__FuncCall *fc = node->func_call;

	return fc->over != NULL || is_aggregate(fc) ||
		FunctionNeedsCache(string_value(fc->funcname[fc->n_funcname - 1]));
}

/*
 * values_have_default -- a DEFAULT among the items of sel's VALUES lists, where it
 * means the column's default (one nested deeper is an expression transform_expr
 * refuses); not a walk of the whole tree: a DuckLake commit's 40-row VALUES is two
 * thousand nodes
 */
bool
values_have_default(const PgQuery__SelectStmt *sel)
{
	if (sel == NULL)
		return false;
	for (size_t i = 0; i < sel->n_values_lists; i++)
	{
		const PgQuery__List *row = sel->values_lists[i]->list;

		for (size_t k = 0; k < row->n_items; k++)
			if (row->items[k]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
				return true;
	}
	return values_have_default(sel->larg) || values_have_default(sel->rarg);
}

/* needs_cache -- a SELECT the expression evaluator cannot run alone */
bool
needs_cache(PgQuery__SelectStmt *sel)
{
	return sel->n_from_clause || sel->with_clause || sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE ||
		sel->n_sort_clause || sel->n_group_clause || sel->having_clause || sel->n_distinct_clause ||
		node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_SUB_LINK, NULL) ||
		node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_FUNC_CALL, calls_cache_function);
}

void
analyze_select_sql(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt)
{
	Query		q;

	analyze_query(ps, sel, NULL, &q);
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "SELECT";
	stmt->ncolumns = q.ncolumns;
	stmt->columns = q.columns;
	stmt->target = CACHE_READ;
	if (q.heap_order)
		q.sql = psprintf("%.*s%s%s", (int) q.heap_order_at, q.sql, q.heap_order, q.sql + q.heap_order_at);
	add_sql(ps, stmt, q.sql);
	if (q.scan)
	{
		stmt->scan_table = pstrdup(q.scan->main_table);	/* the relation may be forgotten first */
		stmt->scan_alias = quote_ident(q.scan->sql_alias ? q.scan->sql_alias : q.scan->alias);
		stmt->scan_from = psprintf("main.%s AS %s", quote_table(q.scan->main_table), stmt->scan_alias);
		stmt->scan_filtered = q.scan_filtered;
		stmt->scan_where = q.scan_where;
	}
}
