/*
 * parse_clause.c: the clauses around a query's rows, after PostgreSQL's file of that
 * name: ORDER BY, GROUP BY and DISTINCT ON items (an output position, an output name
 * or an expression), SELECT DISTINCT ON, which SQLite lacks, and LIMIT/OFFSET
 * (analyze_internal.h).
 */

#include "parser/analyze_internal.h"

/*
 * sort_expr -- an ORDER BY, GROUP BY or DISTINCT ON item (clause): an output
 * position, an output name, or an expression
 */
Expr *
sort_expr(ParseState *ps, Node *node, TargetList *tl, bool by_name, const char *clause)
{
	if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
		node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
	{
		int			pos = node->a_const->ival->ival;

		if (pos < 1 || pos > tl->n)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					errmsg("%s position %d is not in select list", clause, pos),
					errposition(char_position(ps, node->a_const->location)));
		return tl->exprs[pos - 1];
	}
	if (by_name && node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && node->column_ref->n_fields == 1)
	{
		const char *name = string_value(node->column_ref->fields[0]);

		for (int i = 0; i < tl->n; i++)
			if (strcmp(tl->columns[i].name, name) == 0)
				return tl->exprs[i];
	}
	return transform_expr(ps, node);
}

/*
 * group_by_expr -- a GROUP BY item: a bare name is an input column's, else a result
 * column's (PostgreSQL's rule); a position names a result column, which may not be
 * an aggregate
 */
Expr *
group_by_expr(ParseState *ps, Node *node, TargetList *tl)
{
	bool		output = node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
		node->column_ref->n_fields == 1 &&
		node->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
		!input_column(ps, string_value(node->column_ref->fields[0]));
	Expr	   *g = sort_expr(ps, node, tl, output, "GROUP BY");

	if (contains_aggregate(g))
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate functions are not allowed in GROUP BY"),
				errposition(char_position(ps, g->location)));
	return g;
}

/* distinct_on_location -- where DISTINCT ON names e: a name or position is its own place */
static int
distinct_on_location(Node *node, const Expr *e)
{
	if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
		return node->column_ref->location;
	if (node->node_case == PG_QUERY__NODE__NODE_A_CONST)
		return node->a_const->location;
	return e->location;
}

/*
 * distinct_on_partition -- DISTINCT ON's expressions as a window's PARTITION BY,
 * after PostgreSQL's rule that ORDER BY, if given, starts with all of them
 * (in any order) before anything else; those ORDER BY did not name are sorted
 * by after it (sql), as PostgreSQL sorts to find the groups
 */
char *
distinct_on_partition(ParseState *ps, PgQuery__SelectStmt *sel, TargetList *tl, Expr **sorts, RlBuf *sql)
{
	RlBuf		partition;
	Expr	  **on = palloc(sizeof(Expr *) * sel->n_distinct_clause);
	bool	   *found = palloc0(sizeof(bool) * sel->n_distinct_clause);
	size_t		matched = 0;

	rlbuf_init_in(&partition, CurrentMemoryContext);
	for (size_t i = 0; i < sel->n_distinct_clause; i++)
	{
		on[i] = grouping_substitute(ps, sort_expr(ps, sel->distinct_clause[i], tl, true, "DISTINCT ON"));
		rlbuf_append_str(&partition, i ? ", " : " PARTITION BY ");
		deparse_collated(ps, &partition, on[i]);
	}
	for (size_t k = 0; k < sel->n_sort_clause && matched < sel->n_distinct_clause; k++)
	{
		size_t		i = 0;

		while (i < sel->n_distinct_clause && on[i] != sorts[k] && !expr_equal(on[i], sorts[k]))
			i++;
		if (i == sel->n_distinct_clause)
		{
			/* PostgreSQL points at the first expression ORDER BY had not reached */
			i = 0;
			while (found[i])
				i++;
			ereport(ERROR,
					errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					errmsg("SELECT DISTINCT ON expressions must match initial ORDER BY expressions"),
					errposition(char_position(ps, distinct_on_location(sel->distinct_clause[i], on[i]))));
		}
		matched += !found[i];
		found[i] = true;
	}
	for (size_t i = 0; i < sel->n_distinct_clause; i++)
		if (!found[i])
		{
			rlbuf_append_str(sql, sel->n_sort_clause || i ? ", " : " ORDER BY ");
			deparse_collated(ps, sql, on[i]);
			rlbuf_append_str(sql, " ASC NULLS LAST");
		}
	return pstrdup(rlbuf_cstr(&partition));
}

/*
 * select_distinct_on -- SELECT DISTINCT ON (e ...) ... ORDER BY o as SQLite has no such
 * thing: the query numbers its rows within each group of e in the order o gives and
 * keeps the first of each (the rows of a subquery with ORDER BY that SQLite only
 * filters come out in its order); LIMIT follows, outside
 */
void
select_distinct_on(RlBuf *sql, size_t targets_end, const char *partition, const char *order_by, int ncolumns)
{
	RlBuf		outer;

	rlbuf_init_in(&outer, CurrentMemoryContext);
	rlbuf_append_str(&outer, "SELECT ");
	for (int i = 0; i < ncolumns; i++)
		rlbuf_printf(&outer, "%s\"_rl_c%d\"", i ? ", " : "", i + 1);
	rlbuf_printf(&outer, " FROM (%.*s, row_number() OVER (%s%s) AS \"_rl_don\"%s) WHERE \"_rl_don\" = 1",
				 (int) targets_end, rlbuf_cstr(sql), partition, order_by, rlbuf_cstr(sql) + targets_end);
	rlbuf_reset(sql);
	rlbuf_append_str(sql, rlbuf_cstr(&outer));
	rlbuf_free(&outer);
}

/* append_order_by -- ORDER BY's SQLite text; its expressions (palloc'd) in sorts, if not NULL */
void
append_order_by(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel, TargetList *tl, bool positions,
				Expr ***sorts)
{
	if (sorts)
		*sorts = palloc(sizeof(Expr *) * (sel->n_sort_clause ? sel->n_sort_clause : 1));
	for (size_t i = 0; i < sel->n_sort_clause; i++)
	{
		PgQuery__SortBy *sb = sel->sort_clause[i]->sort_by;
		bool		desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT ? desc
			: sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;

		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING", sb->location);
		rlbuf_append_str(sql, i ? ", " : " ORDER BY ");
		Expr	   *e = grouping_substitute(ps, sort_expr(ps, sb->node, tl, true, "ORDER BY"));

		if (sorts)
			(*sorts)[i] = e;

		if (positions)
		{
			int			pos = 0;

			for (int k = 0; k < tl->n && pos == 0; k++)
				if (tl->exprs[k] == e)
					pos = k + 1;
			if (pos == 0)
				not_supported(ps, "ORDER BY on expressions of a UNION", sb->location);
			rlbuf_printf(sql, "%d", pos);
		}
		else
			deparse_collated(ps, sql, e);
		rlbuf_printf(sql, " %s NULLS %s", desc ? "DESC" : "ASC", nulls_first ? "FIRST" : "LAST");
	}
}

void
append_limit(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel)
{
	Scope	   *saved = ps->scope;

	ps->scope = NULL;
	if (sel->limit_count || sel->limit_offset)
	{
		rlbuf_append_str(sql, " LIMIT ");
		if (sel->limit_count)
			rlbuf_printf(sql, "coalesce(%s, -1)",
						 deparse_to_string(ps, transform_limit(ps, sel->limit_count, "LIMIT")));
		else
			rlbuf_append_str(sql, "-1");
		if (sel->limit_offset)
			rlbuf_printf(sql, " OFFSET %s", deparse_to_string(ps, transform_limit(ps, sel->limit_offset, "OFFSET")));
	}
	ps->scope = saved;
}
