/*
 * parse_grouping.c: GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING(), which
 * SQLite lacks, after PostgreSQL's parse_agg.c (analyze_internal.h).
 *
 * The GROUP BY clause is expanded into its list of grouping sets as PostgreSQL
 * expands it (each item's sets, the items' sets combined as a cross product,
 * duplicates kept: GROUPING SETS (a, a) gives each group twice), over the distinct
 * grouping expressions e1..en. The query then reads its rows once for each set: its
 * FROM gets one more relation, `(SELECT value AS "_rl_set" FROM json_each('[0,1,..]'))
 * AS "_rl_gs"`, the set's number, and its GROUP BY is `"_rl_gs"."_rl_set"` and, for
 * each ei, `CASE WHEN "_rl_gs"."_rl_set" IN (the sets holding ei) THEN ei END` (ei
 * itself when every set holds it). Outside aggregates, the select list, HAVING, ORDER
 * BY, DISTINCT ON and windows' PARTITION BY and ORDER BY read that same CASE wherever
 * they read ei (grouping_substitute), so a column a set does not group by is NULL in
 * its rows, as in PostgreSQL; GROUPING(e...) is a CASE over the set's number of the
 * bits PostgreSQL gives (1 for each argument the set leaves out, the first argument
 * the highest bit). One SELECT, read once by SQLite's planner per set; the rows come
 * in no particular order, as PostgreSQL's do without ORDER BY.
 *
 * Over no rows at all SQLite groups nothing, where PostgreSQL still gives the row of
 * an empty set () (count(*) 0): grouping_sets_empty_input adds it, unless ORDER BY
 * sorts by something that is not a result column (or DISTINCT ON is there), where no
 * such row comes. A subquery that reads a column some set leaves out (its SQL is
 * written before the sets are known) is refused (0A000).
 */

#include "parser/analyze_internal.h"

#define MAX_GROUPING_SETS 4096	/* PostgreSQL's limit */
#define MAX_CUBE 12				/* PostgreSQL's limit of a CUBE's elements */
#define MAX_GROUPING_EXPRS 64	/* a set is a bit mask of them */

typedef uint64_t SetMask;

typedef struct SetList
{
	SetMask    *sets;
	int			n;
} SetList;

struct GroupingSets
{
	Expr	  **exprs;			/* the distinct grouping expressions */
	char	  **sql;			/* each one's CASE (NULL when every set holds it) */
	Expr	  **read;			/* ... as an expression: what the select list reads */
	int			nexprs;
	SetMask    *sets;
	int			nsets;
	char	   *from_sql;		/* the relation of the sets' numbers, last in FROM */
};

#define SET_COLUMN "\"_rl_gs\".\"_rl_set\""

/* a GROUPING() that grouping_substitute did not reach: refused rather than run */
static Value
grouping_outside_select_list(struct ExecState *es, const Value *args, int nargs)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("GROUPING here is not supported"));
	return args[0];
}

static const FuncDesc grouping_func = {"grouping", FUNC_VARIADIC_ANY, {0}, INT4OID, false, false,
grouping_outside_select_list, NULL, NULL, {NULL, NULL}};

static SetList
set_list(int n)
{
	return (SetList) {palloc0(sizeof(SetMask) * (size_t) (n ? n : 1)), n};
}

/* cross -- every set of a with every set of b (in that order), PostgreSQL's limit checked */
static SetList
cross(ParseState *ps, SetList a, SetList b, int location)
{
	if ((int64_t) a.n * b.n > MAX_GROUPING_SETS)
		ereport(ERROR,
				errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				errmsg("too many grouping sets present (maximum %d)", MAX_GROUPING_SETS),
				errposition(char_position(ps, location)));

	SetList		r = set_list(a.n * b.n);

	for (int i = 0; i < a.n; i++)
		for (int k = 0; k < b.n; k++)
			r.sets[i * b.n + k] = a.sets[i] | b.sets[k];
	return r;
}

/* expr_bit -- the bit of a grouping expression, added to the list if new */
static SetMask
expr_bit(ParseState *ps, GroupingSets *gs, Node *node, TargetList *tl)
{
	Expr	   *e = group_by_expr(ps, node, tl);
	int			i = 0;

	while (i < gs->nexprs && !expr_equal(gs->exprs[i], e))
		i++;
	if (i == gs->nexprs)
	{
		if (i == MAX_GROUPING_EXPRS)
			not_supported(ps, "more than 64 distinct expressions in grouping sets", e->location);
		gs->exprs[gs->nexprs++] = e;
	}
	return (SetMask) 1 << i;
}

/*
 * unit_mask -- an element of ROLLUP or CUBE, or of a parenthesised list: an
 * expression, or a parenthesised list of them (a row, to the grammar) taken together
 */
static SetMask
unit_mask(ParseState *ps, GroupingSets *gs, Node *node, TargetList *tl)
{
	SetMask		m = 0;

	if (node->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
		node->row_expr->row_format == PG_QUERY__COERCION_FORM__COERCE_IMPLICIT_CAST)
	{
		for (size_t i = 0; i < node->row_expr->n_args; i++)
			m |= expr_bit(ps, gs, node->row_expr->args[i], tl);
		return m;
	}
	if (node->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
	{
		for (size_t i = 0; i < node->grouping_set->n_content; i++)
			m |= unit_mask(ps, gs, node->grouping_set->content[i], tl);
		return m;
	}
	return expr_bit(ps, gs, node, tl);
}

/* item_sets -- the grouping sets one item of GROUP BY (or of GROUPING SETS) stands for */
static SetList
item_sets(ParseState *ps, GroupingSets *gs, Node *node, TargetList *tl)
{
	if (node->node_case != PG_QUERY__NODE__NODE_GROUPING_SET)
	{
		SetList		r = set_list(1);

		r.sets[0] = unit_mask(ps, gs, node, tl);
		return r;
	}

	PgQuery__GroupingSet *g = node->grouping_set;
	int			n = (int) g->n_content;
	SetList		r;

	switch (g->kind)
	{
		case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY:
			return set_list(1);
		case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP:
			/* (e1..en), (e1..en-1), ..., () */
			r = set_list(n + 1);
			for (int i = 0; i < n; i++)
			{
				SetMask		m = unit_mask(ps, gs, g->content[i], tl);

				for (int k = 0; k < n - i; k++)
					r.sets[k] |= m;
			}
			return r;
		case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE:
			{
				if (n > MAX_CUBE)
					ereport(ERROR,
							errcode(ERRCODE_TOO_MANY_COLUMNS),
							errmsg("CUBE is limited to %d elements", MAX_CUBE),
							errposition(char_position(ps, g->location)));
				SetMask    *units = palloc(sizeof(SetMask) * (size_t) (n ? n : 1));

				for (int i = 0; i < n; i++)
					units[i] = unit_mask(ps, gs, g->content[i], tl);
				/* every subset, the whole first, as PostgreSQL lists them */
				r = set_list(1 << n);
				for (int s = 0; s < r.n; s++)
					for (int i = 0; i < n; i++)
						if (!(s & (1 << (n - 1 - i))))
							r.sets[s] |= units[i];
				return r;
			}
		case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS:
			r = set_list(0);
			for (int i = 0; i < n; i++)
			{
				SetList		more = item_sets(ps, gs, g->content[i], tl);

				if (r.n + more.n > MAX_GROUPING_SETS)
					ereport(ERROR,
							errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
							errmsg("too many grouping sets present (maximum %d)", MAX_GROUPING_SETS),
							errposition(char_position(ps, g->location)));
				r.sets = repalloc(r.sets, sizeof(SetMask) * (size_t) (r.n + more.n + 1));
				memcpy(r.sets + r.n, more.sets, sizeof(SetMask) * (size_t) more.n);
				r.n += more.n;
			}
			return r;
		default:
			/* a parenthesised list inside GROUPING SETS: one set */
			r = set_list(1);
			r.sets[0] = unit_mask(ps, gs, node, tl);
			return r;
	}
}

/*
 * wants_grouping_sets -- whether sel groups by sets (ROLLUP, CUBE, GROUPING SETS, ())
 * or calls GROUPING(): then transform_grouping_sets does its GROUP BY
 */
bool
wants_grouping_sets(PgQuery__SelectStmt *sel)
{
	for (size_t i = 0; i < sel->n_group_clause; i++)
		if (sel->group_clause[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
			return true;
	if (sel->n_group_clause == 0)
		return false;
	for (size_t i = 0; i < sel->n_target_list; i++)
		if (node_contains(&sel->target_list[i]->base, PG_QUERY__NODE__NODE_GROUPING_FUNC, NULL))
			return true;
	for (size_t i = 0; i < sel->n_sort_clause; i++)
		if (node_contains(&sel->sort_clause[i]->base, PG_QUERY__NODE__NODE_GROUPING_FUNC, NULL))
			return true;
	for (size_t i = 0; i < sel->n_window_clause; i++)
		if (node_contains(&sel->window_clause[i]->base, PG_QUERY__NODE__NODE_GROUPING_FUNC, NULL))
			return true;
	return sel->having_clause &&
		node_contains(&sel->having_clause->base, PG_QUERY__NODE__NODE_GROUPING_FUNC, NULL);
}

/*
 * transform_grouping_sets -- sel's GROUP BY as grouping sets (tl: the select list,
 * which positions and output names refer to); ps->gsets then substitutes
 */
GroupingSets *
transform_grouping_sets(ParseState *ps, PgQuery__SelectStmt *sel, TargetList *tl)
{
	GroupingSets *gs = palloc0(sizeof(GroupingSets));
	SetList		all = set_list(1);
	const char *saved = ps->agg_refused;

	gs->exprs = palloc(sizeof(Expr *) * MAX_GROUPING_EXPRS);
	ps->agg_refused = "GROUP BY";
	for (size_t i = 0; i < sel->n_group_clause; i++)
		all = cross(ps, all, item_sets(ps, gs, sel->group_clause[i], tl), -1);
	ps->agg_refused = saved;
	gs->sets = all.sets;
	gs->nsets = all.n;
	gs->sql = palloc0(sizeof(char *) * (size_t) (gs->nexprs ? gs->nexprs : 1));
	gs->read = palloc(sizeof(Expr *) * (size_t) (gs->nexprs ? gs->nexprs : 1));
	for (int i = 0; i < gs->nexprs; i++)
	{
		RlBuf		sql;
		bool		everywhere = true;

		rlbuf_init_in(&sql, CurrentMemoryContext);
		rlbuf_append_str(&sql, "CASE WHEN " SET_COLUMN " IN (");
		for (int s = 0, listed = 0; s < gs->nsets; s++)
		{
			if (!(gs->sets[s] & ((SetMask) 1 << i)))
			{
				everywhere = false;
				continue;
			}
			rlbuf_printf(&sql, "%s%d", listed++ ? ", " : "", s);
		}
		rlbuf_append_str(&sql, ") THEN ");
		deparse(ps, &sql, gs->exprs[i]);
		rlbuf_append_str(&sql, " END");
		gs->read[i] = gs->exprs[i];
		if (!everywhere)
		{
			gs->sql[i] = pstrdup(rlbuf_cstr(&sql));
			gs->read[i] = make_expr(EXPR_VAR, gs->exprs[i]->type, gs->exprs[i]->location);
			gs->read[i]->typmod = gs->exprs[i]->typmod;
			gs->read[i]->sql = gs->sql[i];
		}
		rlbuf_free(&sql);
	}
	return gs;
}

/* grouping_sets_from -- the relation of the sets' numbers, joined to the FROM clause in from */
void
grouping_sets_from(GroupingSets *gs, RlBuf *from)
{
	RlBuf		rel;

	rlbuf_init_in(&rel, CurrentMemoryContext);
	rlbuf_append_str(&rel, "(SELECT value AS \"_rl_set\" FROM json_each('[");
	for (int s = 0; s < gs->nsets; s++)
		rlbuf_printf(&rel, "%s%d", s ? "," : "", s);
	rlbuf_append_str(&rel, "]')) AS \"_rl_gs\"");
	gs->from_sql = pstrdup(rlbuf_cstr(&rel));
	rlbuf_printf(from, "%s%s", from->len ? ", " : "", gs->from_sql);
	rlbuf_free(&rel);
}

/*
 * grouping_sets_empty_input -- the row of each empty set () when the query reads no
 * rows at all, which SQLite's GROUP BY does not make: the query (sql; its select list
 * ending at ends[0], FROM at ends[1], WHERE at ends[2], ORDER BY starting at ends[3])
 * becomes a UNION ALL of itself and, per empty set, the same select list over the same
 * rows without GROUP BY (one row, of aggregates over nothing), with a count(*) that
 * keeps that row only when it counted no rows; ORDER BY then sorts by the result's
 * columns. Left as it is when ORDER BY sorts by anything else.
 */
void
grouping_sets_empty_input(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel, TargetList *tl, Expr **sorts,
						  const size_t ends[4], Expr *having)
{
	const GroupingSets *gs = ps->gsets;
	bool		empty = false;

	for (int s = 0; s < gs->nsets; s++)
		empty |= gs->sets[s] == 0;
	for (size_t k = 0; empty && k < sel->n_sort_clause; k++)
	{
		int			c = 0;

		while (c < tl->n && tl->exprs[c] != sorts[k])
			c++;
		empty = c < tl->n;
	}
	if (!empty)
		return;

	const char *text = rlbuf_cstr(sql);
	size_t		targets_end = ends[0],
				from_end = ends[1],
				where_end = ends[2],
				rel_at = from_end - strlen(gs->from_sql);
	RlBuf		out,
				columns;

	rlbuf_init_in(&out, CurrentMemoryContext);
	rlbuf_init_in(&columns, CurrentMemoryContext);
	for (int c = 0; c < tl->n; c++)
		rlbuf_printf(&columns, "%s\"_rl_c%d\"", c ? ", " : "", c + 1);
	rlbuf_printf(&out, "SELECT * FROM (%.*s", (int) ends[3], text);
	for (int s = 0; s < gs->nsets; s++)
		if (gs->sets[s] == 0)
			rlbuf_printf(&out, " UNION ALL SELECT %s FROM (%.*s, count(*) AS \"_rl_n\"%.*s(SELECT %d AS \"_rl_set\")"
						 " AS \"_rl_gs\"%.*s%s%s) WHERE \"_rl_n\" = 0",
						 tl->n ? rlbuf_cstr(&columns) : "NULL", (int) targets_end, text,
						 (int) (rel_at - targets_end), text + targets_end, s,
						 (int) (where_end - from_end), text + from_end,
						 having ? " HAVING " : "", having ? deparse_to_string(ps, having) : "");
	rlbuf_append_str(&out, ")");
	append_order_by(ps, &out, sel, tl, true, NULL);
	rlbuf_reset(sql);
	rlbuf_append(sql, out.data, out.len);
	rlbuf_free(&out);
	rlbuf_free(&columns);
}

/* grouping_sets_group_by -- the GROUP BY clause; grouping (for check_grouped) gets the expressions */
void
grouping_sets_group_by(ParseState *ps, const GroupingSets *gs, RlBuf *sql, Grouping *grouping)
{
	rlbuf_append_str(sql, " GROUP BY " SET_COLUMN);
	for (int i = 0; i < gs->nexprs; i++)
	{
		rlbuf_append_str(sql, ", ");
		deparse_collated(ps, sql, gs->read[i]);
		grouping->groups = repalloc(grouping->groups, sizeof(Expr *) * (size_t) (grouping->ngroups + 1));
		grouping->groups[grouping->ngroups++] = gs->exprs[i];
	}
}

/*
 * transform_grouping_func -- GROUPING(e, ...): its arguments, checked and numbered
 * once the sets are known (grouping_substitute)
 */
Expr *
transform_grouping_func(ParseState *ps, PgQuery__GroupingFunc *gf)
{
	if (ps->agg_refused)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("grouping operations are not allowed in %s", ps->agg_refused),
				errposition(char_position(ps, gf->location)));

	Expr	   *e = make_expr(EXPR_FUNC, INT4OID, gf->location);

	e->func = &grouping_func;
	e->nargs = (int) gf->n_args;
	e->args = transform_list(ps, gf->args, gf->n_args);
	if (ps->select == NULL || ps->select->n_group_clause == 0)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("arguments to GROUPING must be grouping expressions of the associated query level"),
				errposition(char_position(ps, e->nargs ? e->args[0]->location : gf->location)));
	if (e->nargs > 31)
		ereport(ERROR,
				errcode(ERRCODE_TOO_MANY_ARGUMENTS),
				errmsg("GROUPING must have fewer than 32 arguments"),
				errposition(char_position(ps, gf->location)));
	return e;
}

/* grouping_value -- GROUPING(args) over the sets: a CASE of the set's number */
static Expr *
grouping_value(ParseState *ps, const GroupingSets *gs, const Expr *call)
{
	int		   *bits = palloc(sizeof(int) * (size_t) (call->nargs ? call->nargs : 1));
	RlBuf		sql;

	for (int a = 0; a < call->nargs; a++)
	{
		bits[a] = 0;
		while (bits[a] < gs->nexprs && !expr_equal(gs->exprs[bits[a]], call->args[a]))
			bits[a]++;
		if (bits[a] == gs->nexprs)
			ereport(ERROR,
					errcode(ERRCODE_GROUPING_ERROR),
					errmsg("arguments to GROUPING must be grouping expressions of the associated query level"),
					errposition(char_position(ps, call->args[a]->location)));
	}
	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_append_str(&sql, "CASE " SET_COLUMN);
	for (int s = 0; s < gs->nsets; s++)
	{
		int			v = 0;

		for (int a = 0; a < call->nargs; a++)
			v = v << 1 | !(gs->sets[s] & ((SetMask) 1 << bits[a]));
		rlbuf_printf(&sql, " WHEN %d THEN %d", s, v);
	}
	/* the row of an empty set over no rows has no set number (grouping_sets_empty_input) */
	rlbuf_printf(&sql, " ELSE %d END", (1 << call->nargs) - 1);

	Expr	   *e = make_expr(EXPR_VAR, INT4OID, call->location);

	e->sql = pstrdup(rlbuf_cstr(&sql));
	rlbuf_free(&sql);
	return e;
}

/* window_substitute -- a window's PARTITION BY and ORDER BY as grouping_substitute reads them */
static const WindowSpec *
window_substitute(ParseState *ps, const WindowSpec *w)
{
	WindowSpec *copy = palloc(sizeof(WindowSpec));
	bool		changed = false;

	*copy = *w;
	copy->partition = palloc(sizeof(Expr *) * (size_t) (w->npartition ? w->npartition : 1));
	copy->order = palloc(sizeof(Expr *) * (size_t) (w->norder ? w->norder : 1));
	for (int i = 0; i < w->npartition; i++)
		changed |= (copy->partition[i] = grouping_substitute(ps, w->partition[i])) != w->partition[i];
	for (int i = 0; i < w->norder; i++)
		changed |= (copy->order[i] = grouping_substitute(ps, w->order[i])) != w->order[i];
	return changed ? copy : w;
}

/*
 * grouping_substitute -- e as the rows of a query grouped by sets read it: each
 * grouping expression outside aggregates and subqueries is its CASE (the header), and
 * GROUPING() its value; e itself if nothing changes
 */
Expr *
grouping_substitute(ParseState *ps, Expr *e)
{
	const GroupingSets *gs = ps->gsets;

	if (e == NULL || gs == NULL || (e->kind == EXPR_AGG && e->window == NULL))
		return e;
	if (e->kind == EXPR_SUBLINK)
	{
		/* its SQL is written: one that reads a column some set leaves out would read it whole */
		for (int i = 0; i < gs->nexprs; i++)
			if (gs->sql[i] && gs->exprs[i]->kind == EXPR_VAR &&
				(strstr(e->sql, gs->exprs[i]->sql) || subplan_reads(e, gs->exprs[i]->sql)))
				not_supported(ps, "a subquery reading a column that a grouping set leaves out", e->location);
		return e;
	}
	if (e->kind == EXPR_FUNC && e->func == &grouping_func)
		return grouping_value(ps, gs, e);
	for (int i = 0; i < gs->nexprs; i++)
		if (expr_equal(gs->exprs[i], e))
			return gs->read[i];

	Expr	   *copy = NULL;

	for (int i = 0; i < e->nargs; i++)
	{
		Expr	   *arg = grouping_substitute(ps, e->args[i]);

		if (arg != e->args[i] && copy == NULL)
		{
			copy = palloc(sizeof(Expr));
			*copy = *e;
			copy->args = palloc(sizeof(Expr *) * (size_t) e->nargs);
			memcpy(copy->args, e->args, sizeof(Expr *) * (size_t) e->nargs);
		}
		if (copy)
			copy->args[i] = arg;
	}

	Expr	   *defresult = grouping_substitute(ps, e->defresult);
	const WindowSpec *window = e->window ? window_substitute(ps, e->window) : NULL;

	if (defresult != e->defresult || window != e->window)
	{
		if (copy == NULL)
		{
			copy = palloc(sizeof(Expr));
			*copy = *e;
		}
		copy->defresult = defresult;
		copy->window = window;
	}
	return copy ? copy : e;
}
