/*
 * parse_subplan.c: subqueries nested deep in a statement written as statements of
 * their own, PostgreSQL's SubPlans with parameters (primnodes.h, SubPlan).
 *
 * SQLite's parser stack (100 entries) takes about seven scalar, EXISTS or IN
 * subqueries nested in one text, and its expression depth (1000) adds up the heights
 * of the expressions it resolves inside one another, through WITH queries too;
 * PostgreSQL takes a thousand and more. So a scalar, EXISTS or IN subquery that
 * would be the SUBPLAN_NESTING-th nested in its statement's SQL (sublink_depth counts
 * the subqueries around the point being analysed, analyze_subquery) is written
 * instead as rl_subplan(?k, args...): ?k is bound to its EXPR_SUBLINK, whose SubPlan
 * holds a statement "SELECT <the subquery as the expression it was>" of its own, and
 * executor/subplan.c runs that statement per call on the same connection. Each text
 * then nests fewer than SUBPLAN_NESTING subqueries whatever the statement's nesting;
 * statements that nest fewer are written as before, so their plans do not change.
 *
 * While a subplan's subquery is analysed its statement is being written: the
 * ParseState's binds, hoisted WITH queries and sublink_depth are its own
 * (swap_state), and every value it reads from outside is one of its binds, an
 * EXPR_PARAM numbered SUBPLAN_ARG(i), passed as the call's argument i:
 *  - a column of an outer query (a scope level at or above the subplan's boundary,
 *    found as column references are resolved: subplan_outer_ref);
 *  - a parameter $n (when it is written: subplan_param), as the statement's
 *    parameters are bound only to the statement the client sent;
 *  - the left operand of IN, which the subplan compares as SQLite did before:
 *    "SELECT (?j IN (SELECT ...))", so NULLs give IN's three values as before.
 * A value from outside an enclosing subplan too is an argument of each one on the
 * way (capture), so the arguments of a call are always the calling statement's own.
 * With WITH queries in scope, a subplan's statement repeats their definitions (and the
 * subqueries hoisted out of them) in a WITH of its own, so it reads them as its caller
 * does; their texts number their binds as the statement around the subplan does, so
 * the subplan's statement starts with the binds of that statement they may read, each
 * parameter or value from outside among them an argument of the call (portable_ctes). SQLite computes
 * such a WITH query again in each call, where PostgreSQL computes it once. A WITH
 * query that reads columns of a query around its WITH, or a recursive one being
 * defined, keeps its statement's subqueries in its text, with the depths of before
 * (SQLite's parser stack). An aggregate of outer values only (PostgreSQL's aggregate of the
 * outer query, which SQLite computes alike in place) is refused: the SubPlan would
 * compute it over its own rows (subplan_check_aggregate).
 */
#include "parser/analyze_internal.h"

/* SQLite passes a function at most 127 arguments: ?k and these */
#define SUBPLAN_ARGS_MAX 126

typedef struct SubPlanFrame
{
	struct SubPlanFrame *parent;
	int			boundary;		/* scope level of the query around the subquery */
	SubPlan    *plan;			/* its statement, and args so far */
	Expr	  **outer;			/* per argument: the expression it stands for */
	Expr	  **slots;			/* per argument: the bind that reads it */
	/* the other statement's state while one is written (swap_state) */
	int			nbinds;
	Expr	  **binds;
	RlBuf		hoisted;
	int			sublink_depth;
	struct SubPlanFrame *subplan;
} SubPlanFrame;

/*
 * portable_ctes -- whether a subplan's statement can repeat the WITH queries in scope:
 * each one analysed, reading nothing of the queries around it, and no name twice
 */
static bool
portable_ctes(const ParseState *ps)
{
	for (const CteItem *c = ps->ctes; c != NULL; c = c->next)
	{
		if (c->sql == NULL || c->correlated)
			return false;
		for (const CteItem *d = c->next; d != NULL; d = d->next)
			if (strcmp(c->name, d->name) == 0)
				return false;
	}
	return true;
}

bool
subplan_wanted(ParseState *ps, const PgQuery__SubLink *sl)
{
	if (ps->sublink_depth + 1 < SUBPLAN_NESTING || !portable_ctes(ps) ||
		sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return false;
	switch (sl->sub_link_type)
	{
		case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
		case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
			return true;
		case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
			return sl->n_oper_name == 0 || strcmp(string_value(sl->oper_name[0]), "=") == 0;
		default:
			return false;
	}
}

/* swap_state -- the statement being written becomes the other one of f */
static void
swap_state(ParseState *ps, SubPlanFrame *f)
{
	int			nbinds = ps->nbinds;
	Expr	  **binds = ps->binds;
	RlBuf		hoisted = ps->hoisted;
	int			depth = ps->sublink_depth;
	SubPlanFrame *subplan = ps->subplan;

	ps->nbinds = f->nbinds;
	ps->binds = f->binds;
	ps->hoisted = f->hoisted;
	ps->sublink_depth = f->sublink_depth;
	ps->subplan = f->subplan;
	f->nbinds = nbinds;
	f->binds = binds;
	f->hoisted = hoisted;
	f->sublink_depth = depth;
	f->subplan = subplan;
}

static Expr *add_arg(SubPlanFrame *f, Expr *e, Expr *arg);

SubPlanFrame *
subplan_begin(ParseState *ps)
{
	SubPlanFrame *f = palloc0(sizeof(SubPlanFrame));

	f->parent = ps->subplan;
	f->boundary = ps->scope ? ps->scope->level : 0;
	f->plan = palloc0(sizeof(SubPlan));
	int			nbinds = 0;

	for (const CteItem *c = ps->ctes; c != NULL; c = c->next)
		nbinds = c->nbinds > nbinds ? c->nbinds : nbinds;
	f->binds = palloc(sizeof(Expr *) * (size_t) (nbinds + 1));
	/* the WITH queries' texts read the caller's first binds: the same numbers here */
	for (int i = 0; i < nbinds; i++)
	{
		Expr	   *b = ps->binds[i];
		int			k = 0;

		while (b->kind == EXPR_PARAM && k < f->plan->nargs && f->outer[k] != b)
			k++;
		f->binds[f->nbinds++] = b->kind != EXPR_PARAM ? b : k < f->plan->nargs ? f->slots[k] : add_arg(f, b, b);
	}
	f->subplan = f;
	swap_state(ps, f);
	return f;
}

void
subplan_suspend(ParseState *ps, SubPlanFrame *f)
{
	swap_state(ps, f);
}

/* same_outer -- whether a and b read the same value (each use of $n is one node) */
static bool
same_outer(const Expr *a, const Expr *b)
{
	return a == b || (a->kind == EXPR_VAR && b->kind == EXPR_VAR && a->range == b->range &&
					  a->column == b->column && a->sql && b->sql && strcmp(a->sql, b->sql) == 0);
}

/* add_arg -- a new argument of f's call, arg written in the caller's SQL for e; its bind */
static Expr *
add_arg(SubPlanFrame *f, Expr *e, Expr *arg)
{
	SubPlan    *p = f->plan;
	Expr	   *slot = make_expr(EXPR_PARAM, e->type, e->location);

	slot->typmod = e->typmod;
	slot->paramno = SUBPLAN_ARG(p->nargs);
	p->args = p->nargs ? repalloc(p->args, sizeof(Expr *) * (size_t) (p->nargs + 1)) : palloc(sizeof(Expr *));
	f->outer = p->nargs ? repalloc(f->outer, sizeof(Expr *) * (size_t) (p->nargs + 1)) : palloc(sizeof(Expr *));
	f->slots = p->nargs ? repalloc(f->slots, sizeof(Expr *) * (size_t) (p->nargs + 1)) : palloc(sizeof(Expr *));
	p->args[p->nargs] = arg;
	f->outer[p->nargs] = e;
	f->slots[p->nargs++] = slot;
	return slot;
}

/*
 * capture -- e, at scope level level, as f's statement reads it: an argument of f's
 * call if outside f (a query's level is its FROM's, so a query with no FROM has the
 * level of the one around it: level is at or above f's boundary)
 */
static Expr *
capture(SubPlanFrame *f, Expr *e, int level)
{
	if (f == NULL || level > f->boundary)
		return e;
	for (int i = 0; i < f->plan->nargs; i++)
		if (same_outer(f->outer[i], e))
			return f->slots[i];
	return add_arg(f, e, capture(f->parent, e, level));
}

Expr *
subplan_outer_ref(ParseState *ps, Expr *e, int level)
{
	return capture(ps->subplan, e, level);
}

Expr *
subplan_param(ParseState *ps, Expr *param)
{
	return capture(ps->subplan, param, 0);
}

/* with_clause -- the subplan's hoisted subqueries, then the WITH queries in scope, oldest first */
static void
with_clause(ParseState *ps, RlBuf *sql)
{
	int			n = 0;
	bool		recursive = false,
				any = ps->hoisted.len > 0;

	for (const CteItem *c = ps->ctes; c != NULL; c = c->next)
	{
		recursive |= c->recursive;
		n++;
	}
	if (!any && n == 0)
		return;

	const CteItem **ctes = palloc(sizeof(CteItem *) * (size_t) (n + 1));
	int			k = n;

	for (const CteItem *c = ps->ctes; c != NULL; c = c->next)
		ctes[--k] = c;
	rlbuf_append_str(sql, recursive ? "WITH RECURSIVE " : "WITH ");
	if (any)
		rlbuf_append_str(sql, rlbuf_cstr(&ps->hoisted));
	for (int i = 0; i < n; i++)
	{
		if (ctes[i]->hoisted)
			rlbuf_printf(sql, "%s%s", any ? ", " : "", ctes[i]->hoisted);
		rlbuf_printf(sql, "%s%s", any || ctes[i]->hoisted ? ", " : "", ctes[i]->sql);
		any = true;
	}
	rlbuf_append_str(sql, " ");
}

Expr *
subplan_finish(ParseState *ps, SubPlanFrame *f, Expr *e)
{
	Expr	   *inner = palloc(sizeof(Expr));
	RlBuf		sql;

	*inner = *e;
	if (e->sublink == SUBLINK_IN)
	{
		/* the left operand is the caller's: an argument, read in the subplan's IN */
		inner->args = palloc(sizeof(Expr *) * (size_t) e->nargs);
		memcpy(inner->args, e->args, sizeof(Expr *) * (size_t) e->nargs);
		inner->args[0] = add_arg(f, e->args[0], e->args[0]);
	}
	swap_state(ps, f);
	rlbuf_init_in(&sql, CurrentMemoryContext);
	with_clause(ps, &sql);
	rlbuf_append_str(&sql, "SELECT ");
	deparse(ps, &sql, inner);
	f->plan->stmt = (SqlStatement) {pstrdup(rlbuf_cstr(&sql)), ps->nbinds, ps->binds};
	rlbuf_free(&sql);
	swap_state(ps, f);
	if (f->plan->nargs > SUBPLAN_ARGS_MAX)
		not_supported(ps, psprintf("a subquery nested %d deep that reads more than %d values of outer queries",
								   SUBPLAN_NESTING, SUBPLAN_ARGS_MAX), e->location);
	e->subplan = f->plan;
	return e;
}

/* reads_what -- whether e reads a column (*column) or a value from outside the SubPlan (*outer) */
static void
reads_what(const Expr *e, bool *column, bool *outer)
{
	if (e == NULL)
		return;
	*column |= e->kind == EXPR_VAR;
	*outer |= e->kind == EXPR_PARAM && e->paramno < 0;
	for (int i = 0; i < e->nargs; i++)
		reads_what(e->args[i], column, outer);
	reads_what(e->defresult, column, outer);
}

void
subplan_check_aggregate(ParseState *ps, Expr **args, int nargs, int location)
{
	bool		column = false,
				outer = false;

	for (int i = 0; i < nargs; i++)
		reads_what(args[i], &column, &outer);
	if (outer && !column)
		not_supported(ps, "an aggregate of an outer query's columns in a subquery nested this deep", location);
}

bool
subplan_reads(const Expr *e, const char *column_sql)
{
	for (int i = 0; e->subplan && i < e->subplan->nargs; i++)
		if (e->subplan->args[i]->kind == EXPR_VAR && strcmp(e->subplan->args[i]->sql, column_sql) == 0)
			return true;
	return false;
}

void
deparse_subplan(ParseState *ps, RlBuf *out, Expr *e)
{
	const SubPlan *p = e->subplan;

	/* one that reads nothing from outside runs once, as SQLite runs such a subquery */
	rlbuf_printf(out, "%srl_subplan(?%d", p->nargs ? "" : "(SELECT ", add_bind(ps, e));
	for (int i = 0; i < p->nargs; i++)
	{
		rlbuf_append_str(out, ", ");
		deparse(ps, out, p->args[i]);
	}
	rlbuf_append_str(out, p->nargs ? ")" : "))");
}
