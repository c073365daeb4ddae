/*
 * deparse.c: the SQLite SQL the analyser writes over the catalog cache:
 * identifiers quoted, binds added, and analysed expressions written as SQLite
 * computes them (or as rl_eval calls where SQLite cannot) (analyze_internal.h).
 */

#include "parser/analyze_internal.h"

/* ---------- relations: SQL for the catalog cache ---------- */

/*
 * A statement that reads or writes relations is generated as SQLite SQL while
 * it is analysed: expressions are typed as above, then written out by
 * deparse(), constants and parameters as bound values (?n) and whatever SQLite
 * cannot compute as PostgreSQL does through rl_eval(?n, args...) (executor/sqlite_exec.c).
 */

/*
 * put_quoted -- name in the cache's form (catalog_cache.h, "Names"), in double quotes
 * (each one inside doubled), at out; returns the end
 */
static char *
put_quoted(char *out, const char *name)
{
	*out++ = '"';
	for (const char *p = name; *p; p++)
	{
		if (*p == '"')
			*out++ = '"';
		else if (cache_name_escaped(*p))
			*out++ = '^';
		*out++ = *p;
	}
	*out++ = '"';
	return out;
}

/* quoted_len -- the length of what put_quoted writes */
static size_t
quoted_len(const char *name)
{
	size_t		len = 2;

	for (const char *p = name; *p; p++)
		len += *p == '"' || cache_name_escaped(*p) ? 2 : 1;
	return len;
}

/*
 * quote_qualified -- a SQLite identifier in double quotes, after the qualifier (if
 * not NULL) quoted and a dot. Written out by hand: the analyser quotes every column
 * it names, and sqlite3_mprintf's "%w" was a tenth of the analysis of a DuckLake
 * commit.
 */
char *
quote_qualified(const char *qualifier, const char *name)
{
	char	   *q = palloc((qualifier ? quoted_len(qualifier) + 1 : 0) + quoted_len(name) + 1),
			   *end = q;

	if (qualifier)
	{
		end = put_quoted(end, qualifier);
		*end++ = '.';
	}
	*put_quoted(end, name) = '\0';
	return q;
}

char *
quote_ident(const char *name)
{
	return quote_qualified(NULL, name);
}

/* append_ident -- quote_ident's text, after sep (if not NULL), appended to sql */
void
append_ident(RlBuf *sql, const char *sep, const char *name)
{
	if (sep)
		rlbuf_append_str(sql, sep);
	rlbuf_reserve(sql, quoted_len(name));
	sql->len = (size_t) (put_quoted((char *) sql->data + sql->len, name) - (char *) sql->data);
}

/* append_aliased -- "source AS alias" appended to sql */
void
append_aliased(RlBuf *sql, const char *source, const char *alias)
{
	rlbuf_append_str(sql, source);
	append_ident(sql, " AS ", alias);
}

int
add_bind(ParseState *ps, Expr *e)
{
	ps->binds = repalloc(ps->binds, sizeof(Expr *) * (size_t) (ps->nbinds + 1));
	ps->binds[ps->nbinds++] = e;
	return ps->nbinds;
}

/*
 * native_compare -- whether SQLite compares the canonical forms of type as PostgreSQL
 * does (numeric's texts under the rl_numeric collation: deparse_collated)
 */
static bool
native_compare(Oid type)
{
	return type != INTERVALOID && type != JSONOID && type != JSONBOID &&
		type != BPCHAROID;
}

/* same_canonical_form -- a cast SQLite need not do (varchar to text, int4 to int8, ...) */
bool
same_canonical_form(Oid from, Oid to, int32_t typmod)
{
	if (typmod >= 0)
		return false;
	/* character(n) to text drops its trailing spaces */
	if (is_string(from) && is_string(to))
		return from != BPCHAROID && (to == TEXTOID || to == VARCHAROID);
	if (typio_is_oid(from) && typio_is_oid(to))
		return true;
	return (from == INT2OID || from == INT4OID) && (to == INT4OID || to == INT8OID) &&
		numeric_rank(from) <= numeric_rank(to);
}

/*
 * deparse_collated -- e, and for a numeric its collation: SQLite compares, sorts,
 * groups and takes min() and max() of the canonical texts by value only under it,
 * which a column declares but an expression has to say
 */
void
deparse_collated(ParseState *ps, RlBuf *out, Expr *e)
{
	deparse(ps, out, e);
	if (e->type == NUMERICOID)
		rlbuf_append_str(out, " COLLATE " NUMERIC_COLLATION);
}

static void
deparse_list(ParseState *ps, RlBuf *out, Expr **args, int n, const char *sep)
{
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
			rlbuf_append_str(out, sep);
		deparse(ps, out, args[i]);
	}
}

/*
 * deparse_in_list -- x = a OR x = b ... as "x IN (a, b ...)", and x <> a AND x <> b ...
 * as "x NOT IN (...)", when every term compares the same x natively: SQLite parses an OR
 * of n terms into a tree n deep and refuses one deeper than 1000, and IN lists and OR
 * chains of thousands of items are what DuckLake and ORMs send. Both forms have SQL's
 * three-valued logic, so the result is the same, NULLs included.
 */
/* same_column -- whether a and b are one column, or one cast of one column */
static bool
same_column(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (a->kind != b->kind || a->type != b->type || a->typmod != b->typmod)
		return false;
	if (a->kind == EXPR_VAR)
		return strcmp(a->sql, b->sql) == 0;
	return a->kind == EXPR_CAST && same_column(a->args[0], b->args[0]);
}

static bool
deparse_in_list(ParseState *ps, RlBuf *out, Expr *e)
{
	ExprOp		op = e->kind == EXPR_OR ? OP_EQ : OP_NE;
	Expr	   *x = e->args[0]->kind == EXPR_OP ? e->args[0]->args[0] : NULL;

	if (e->nargs < 3 || x == NULL || !native_compare(x->type))
		return false;
	for (int i = 0; i < e->nargs; i++)
	{
		Expr	   *t = e->args[i];

		if (t->kind != EXPR_OP || t->op != op || !same_column(t->args[0], x))
			return false;
	}
	rlbuf_append_str(out, "(");
	deparse_collated(ps, out, x);
	rlbuf_append_str(out, op == OP_EQ ? " IN (" : " NOT IN (");
	for (int i = 0; i < e->nargs; i++)
	{
		if (i > 0)
			rlbuf_append_str(out, ", ");
		deparse(ps, out, e->args[i]->args[1]);
	}
	rlbuf_append_str(out, "))");
	return true;
}

/*
 * deparse_bool_chain -- args joined by sep (" AND " or " OR ") in parentheses: up to
 * BOOL_CHAIN_FLAT of them as they are, more as two halves, each such a chain. SQLite
 * parses a AND b AND c ... into a tree as deep as the list is long and refuses one
 * deeper than 1000 (generated conditions and ORMs' filters are that long); halves keep
 * it as deep as the list's logarithm. AND and OR are associative in SQL's three-valued
 * logic, and the terms keep their order, so the value is the same.
 */
static void
deparse_bool_chain(ParseState *ps, RlBuf *out, Expr **args, int n, const char *sep)
{
	rlbuf_append_str(out, "(");
	if (n <= BOOL_CHAIN_FLAT)
		deparse_list(ps, out, args, n, sep);
	else
	{
		deparse_bool_chain(ps, out, args, n / 2, sep);
		rlbuf_append_str(out, sep);
		deparse_bool_chain(ps, out, args + n / 2, n - n / 2, sep);
	}
	rlbuf_append_str(out, ")");
}

/* deparse_catalog_lookup -- a function that reads the catalog, as a scalar subquery (FuncDesc) */
static void
deparse_catalog_lookup(ParseState *ps, RlBuf *out, Expr *e)
{
	const FuncDesc *f = e->func;

	rlbuf_printf(out, "(SELECT %s FROM (%s) WHERE ", quote_ident(f->catalog_column),
				 CatalogFunctionRelation(f->catalog)->sql);
	for (int i = 0; i < 2 && f->catalog_keys[i] != NULL; i++)
	{
		rlbuf_printf(out, "%s%s = ", i ? " AND " : "", quote_ident(f->catalog_keys[i]));
		deparse(ps, out, e->args[i]);
	}
	rlbuf_append_str(out, ")");
}

/* executor_evaluates -- whether e is computed by rl_eval, not written as SQLite's */
static bool
executor_evaluates(const Expr *e)
{
	switch (e->kind)
	{
		case EXPR_CONST:
		case EXPR_PARAM:
		case EXPR_VAR:
		case EXPR_AND:
		case EXPR_OR:
		case EXPR_NOT:
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
		case EXPR_BOOLTEST:
		case EXPR_CASE:
		case EXPR_COALESCE:
		case EXPR_AGG:
		case EXPR_SUBLINK:
		case EXPR_SRF_VALUE:
			return false;
		case EXPR_OP:
			return !(e->op >= OP_EQ && e->op <= OP_NOT_DISTINCT && native_compare(e->args[0]->type));
		case EXPR_CAST:
			return !same_canonical_form(e->args[0]->type, e->type, e->typmod);
		case EXPR_FUNC:
			return e->func->catalog == NULL;
		default:
			return true;
	}
}

/* The leaves of a tree for rl_eval (deparse_eval): their SQLite text, ", "-separated. */
typedef struct EvalLeaves
{
	ParseState *ps;
	bool		one_level;		/* every argument a leaf */
	int			nleaves;
	int			cap;
	const char **vars;			/* each leaf's column reference (to read it once) or NULL */
	size_t	   *at;				/* where each leaf's ", " starts in sql */
	RlBuf		sql;
} EvalLeaves;

/* eval_cut -- whether e is a subtree cut out of its rl_eval tree (eval_slots) */
static bool
eval_cut(ParseState *ps, const Expr *e)
{
	for (int i = 0; i < ps->neval_cuts; i++)
		if (ps->eval_cuts[i] == e)
			return true;
	return false;
}

/*
 * eval_slots -- the arguments rl_eval would take for e's tree (each leaf counted,
 * equal ones too: at least as many as it needs), after cutting out subtrees as
 * calls of their own, one argument each, the costliest first, wherever a tree would
 * need more than SQLite passes: each call then has few enough, and a chain of n
 * terms nests n / FLATTEN_SLOTS_MAX calls deep, not n
 */
static int
eval_slots(ParseState *ps, Expr *e)
{
	int		   *cost;
	int			total = 0;

	if (e->kind == EXPR_CONST)
		return 0;
	if (!executor_evaluates(e))
		return 1;
	CHECK_FOR_INTERRUPTS();
	cost = palloc(sizeof(int) * (size_t) (e->nargs ? e->nargs : 1));
	for (int i = 0; i < e->nargs; i++)
		total += cost[i] = eval_cut(ps, e->args[i]) ? 1 : eval_slots(ps, e->args[i]);
	while (total > FLATTEN_SLOTS_MAX)
	{
		int			most = 0;

		for (int i = 1; i < e->nargs; i++)
			if (cost[i] > cost[most])
				most = i;
		if (cost[most] <= 1)
			break;				/* an operator of that many arguments: no cut helps */
		ps->eval_cuts = ps->neval_cuts ? repalloc(ps->eval_cuts, sizeof(Expr *) * (size_t) (ps->neval_cuts + 1))
			: palloc(sizeof(Expr *));
		ps->eval_cuts[ps->neval_cuts++] = e->args[most];
		total -= cost[most] - 1;
		cost[most] = 1;
	}
	pfree(cost);
	return total;
}

/* eval_leaf -- a FlattenLeafFn: the slot of a, written as SQLite's, or FLATTEN_IN_TREE */
static int
eval_leaf(void *arg, Expr *a)
{
	EvalLeaves *leaves = arg;

	if (!leaves->one_level && (a->kind == EXPR_CONST || (executor_evaluates(a) && !eval_cut(leaves->ps, a))))
		return FLATTEN_IN_TREE;
	for (int i = 0; a->kind == EXPR_VAR && i < leaves->nleaves; i++)
		if (leaves->vars[i] && strcmp(leaves->vars[i], a->sql) == 0)
			return i;
	if (leaves->nleaves == FLATTEN_SLOTS_MAX && !leaves->one_level)
		return FLATTEN_FULL;
	if (leaves->nleaves == leaves->cap)
	{
		leaves->cap = leaves->cap ? leaves->cap * 2 : 16;
		leaves->vars = leaves->vars ? repalloc(leaves->vars, sizeof(char *) * (size_t) leaves->cap)
			: palloc(sizeof(char *) * (size_t) leaves->cap);
		leaves->at = leaves->at ? repalloc(leaves->at, sizeof(size_t) * (size_t) leaves->cap)
			: palloc(sizeof(size_t) * (size_t) leaves->cap);
	}
	leaves->vars[leaves->nleaves] = a->kind == EXPR_VAR ? a->sql : NULL;
	leaves->at[leaves->nleaves] = leaves->sql.len;
	rlbuf_append_str(&leaves->sql, ", ");
	deparse(leaves->ps, &leaves->sql, a);
	return leaves->nleaves++;
}

/*
 * append_packs -- leaves [from, to) as rl_eval's arguments, ", "-separated, each a
 * pack of per of them (exprflatten.h) or, per 1, the leaf itself
 */
static void
append_packs(RlBuf *out, EvalLeaves *leaves, int from, int to, int per)
{
	const char *sql = rlbuf_cstr(&leaves->sql);

	for (int i = from; i < to; i += per)
	{
		RlBuf		pack;

		if (per == 1)
		{
			rlbuf_append(out, sql + leaves->at[i],
						 (i + 1 < leaves->nleaves ? leaves->at[i + 1] : leaves->sql.len) - leaves->at[i]);
			continue;
		}
		rlbuf_init_in(&pack, CurrentMemoryContext);
		append_packs(&pack, leaves, i, to - i < per ? to : i + per, per / FLATTEN_ARGS_MAX);
		rlbuf_printf(out, ", rl_pack(%s)", rlbuf_cstr(&pack) + 2);
		rlbuf_free(&pack);
	}
}

/*
 * deparse_eval -- e, which the executor evaluates, as rl_eval(?k, leaves...) of the
 * largest tree around it (exprflatten.h); once a tree of the statement has more
 * distinct leaves than SQLite passes a function, each of its operators is a call of
 * its own as before, its arguments computed by SQLite
 */
static void
deparse_eval(ParseState *ps, RlBuf *out, Expr *e)
{
	EvalLeaves	leaves = {.ps = ps, .one_level = ps->eval_unflattened};
	int			nbinds = ps->nbinds;
	Expr	   *tree;

	rlbuf_init_in(&leaves.sql, CurrentMemoryContext);
	tree = ExprFlatten(e, eval_leaf, &leaves);
	if (tree == NULL)
	{
		/* the leaves' constants written so far are bound no more */
		ps->nbinds = nbinds;

		/* cut it into calls of few enough leaves; if none is new, that cannot help */
		int			cuts = ps->neval_cuts;

		if (eval_slots(ps, e) > FLATTEN_SLOTS_MAX || ps->neval_cuts == cuts)
			ps->eval_unflattened = true;
		deparse_eval(ps, out, e);
		return;
	}
	int			per = 1;

	while ((leaves.nleaves + per - 1) / per > FLATTEN_ARGS_MAX)
		per *= FLATTEN_ARGS_MAX;
	rlbuf_printf(out, "rl_eval(?%d", add_bind(ps, tree));
	append_packs(out, &leaves, 0, leaves.nleaves, per);
	rlbuf_append_str(out, ")");
	rlbuf_free(&leaves.sql);
}

/* deparse -- e as a SQLite expression */
void
deparse(ParseState *ps, RlBuf *out, Expr *e)
{
	static const char *const cmp[] = {"=", "<>", "<", "<=", ">", ">=", "IS NOT", "IS"};

	if (executor_evaluates(e))
	{
		deparse_eval(ps, out, e);
		return;
	}
	switch (e->kind)
	{
		case EXPR_CONST:
			/*
			 * past BINDS_MAX variables a constant is written into the SQL: SQLite's
			 * builds allow from 32 766 to 250 000 a statement, PostgreSQL has no
			 * limit (a DuckLake commit inlining thousands of rows of a wide table
			 * sends more); and SQLite compiles each constant operand once for the
			 * statement, looking for an equal one among those it has by a walk of
			 * the list, which finds an equal literal at once but never a variable
			 * (each is another), and walks the statement's variable names for each
			 * variable: thousands of them took seconds
			 */
			if (ps->nbinds >= BINDS_MAX && CacheSqlLiteral(out, &e->constval))
				return;
			/* FALLTHROUGH */
		case EXPR_PARAM:
			/* a parameter in a subplan's statement is an argument of its call */
			if (ps->subplan && e->kind == EXPR_PARAM && e->paramno >= 0)
				e = subplan_param(ps, e);
			rlbuf_append_str(out, "?");
			rlbuf_append_int(out, add_bind(ps, e));
			return;
		case EXPR_VAR:
			rlbuf_append_str(out, e->sql);
			return;
		case EXPR_AND:
		case EXPR_OR:
			if (!deparse_in_list(ps, out, e))
				deparse_bool_chain(ps, out, e->args, e->nargs, e->kind == EXPR_AND ? " AND " : " OR ");
			return;
		case EXPR_NOT:
			rlbuf_append_str(out, "(NOT ");
			deparse(ps, out, e->args[0]);
			rlbuf_append_str(out, ")");
			return;
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
			rlbuf_append_str(out, "(");
			deparse(ps, out, e->args[0]);
			rlbuf_append_str(out, e->kind == EXPR_IS_NULL ? " IS NULL)" : " IS NOT NULL)");
			return;
		case EXPR_BOOLTEST:
			{
				static const char *const tests[] = {"", " IS 1", " IS NOT 1", " IS 0", " IS NOT 0",
				" IS NULL", " IS NOT NULL"};

				rlbuf_append_str(out, "(");
				deparse(ps, out, e->args[0]);
				rlbuf_printf(out, "%s)", tests[e->booltest >= 1 && e->booltest <= 6 ? e->booltest : 0]);
				return;
			}
		case EXPR_CASE:
			{
				/*
				 * a CASE in ELSE goes on with this one's WHENs, the same test in the same
				 * order: an IF ... ELSIF chain then nests no deeper in SQLite's parser,
				 * whose stack a few hundred nested CASEs overflow
				 */
				Expr	   *c = e;

				rlbuf_append_str(out, "CASE");
				for (; c->kind == EXPR_CASE; c = c->defresult)
					for (int i = 0; i < c->nargs; i += 2)
					{
						rlbuf_append_str(out, " WHEN ");
						deparse(ps, out, c->args[i]);
						rlbuf_append_str(out, " THEN ");
						deparse(ps, out, c->args[i + 1]);
					}
				rlbuf_append_str(out, " ELSE ");
				deparse(ps, out, c);
				rlbuf_append_str(out, " END");
				return;
			}
		case EXPR_COALESCE:
			rlbuf_append_str(out, e->nargs > 1 ? "coalesce(" : "(");
			deparse_list(ps, out, e->args, e->nargs, ", ");
			rlbuf_append_str(out, ")");
			return;
		case EXPR_AGG:
			rlbuf_printf(out, "%s(%s", e->sql, e->agg_distinct ? "DISTINCT " : "");
			if (e->agg_star)
				rlbuf_append_str(out, "*");
			else if (e->nargs == 1)
				deparse_collated(ps, out, e->args[0]);	/* min, max, DISTINCT */
			else
				deparse_list(ps, out, e->args, e->nargs, ", ");
			rlbuf_append_str(out, ")");
			if (e->defresult)
			{
				rlbuf_append_str(out, " FILTER (WHERE ");
				deparse(ps, out, e->defresult);
				rlbuf_append_str(out, ")");
			}
			if (e->window)
				deparse_window(ps, out, e->window);
			return;
		case EXPR_SUBLINK:
			if (e->subplan)
				deparse_subplan(ps, out, e);
			else if (e->sublink == SUBLINK_IN)
			{
				/* numerics compare by value under the left side's collation */
				rlbuf_append_str(out, "(");
				deparse_collated(ps, out, e->args[0]);
				rlbuf_append_str(out, " IN (");
				if (e->nargs == 2)
				{
					rlbuf_append_str(out, "SELECT ");
					deparse(ps, out, e->args[1]);
					rlbuf_printf(out, " FROM (%s)))", e->sql);
				}
				else
					rlbuf_printf(out, "%s))", e->sql);
			}
			else if (e->sublink == SUBLINK_EXISTS)
				rlbuf_printf(out, "EXISTS (%s)", e->sql);
			else if (e->sublink == SUBLINK_ARRAY)
			{
				rlbuf_append_str(out, "(SELECT rl_array_sublink(");
				deparse(ps, out, e->args[0]);
				rlbuf_printf(out, ", %u) FROM (%s))", e->type, e->sql);
			}
			else if (e->sublink == SUBLINK_EXPR_ONE_ROW)
				rlbuf_printf(out, "(%s)", e->sql);	/* half as deep in SQLite's parser stack */
			else
				rlbuf_printf(out, "(SELECT rl_scalar(\"_rl_c1\") FROM (%s))", e->sql);
			return;
		case EXPR_OP:			/* a native comparison (executor_evaluates) */
			rlbuf_append_str(out, "(");
			deparse(ps, out, e->args[0]);
			rlbuf_printf(out, " %s ", cmp[e->op - OP_EQ]);
			deparse_collated(ps, out, e->args[1]);
			rlbuf_append_str(out, ")");
			return;
		case EXPR_CAST:			/* to the same canonical form */
			deparse(ps, out, e->args[0]);
			return;
		case EXPR_FUNC:			/* one that reads the catalog */
			deparse_catalog_lookup(ps, out, e);
			return;
		case EXPR_SRF_VALUE:
			not_supported(ps, "set-returning functions in queries over tables", e->location);
			return;
		default:				/* the executor's (executor_evaluates) */
			return;
	}
}

char *
deparse_to_string(ParseState *ps, Expr *e)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	deparse(ps, &b, e);
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}
