/*
 * explain.c: EXPLAIN (PostgreSQL's commands/explain.c, here beside the executor it
 * runs and the cache it asks: commands/ is a layer below both): the plan of a
 * statement as rows of one text column, "QUERY PLAN", in PostgreSQL's text layout.
 *
 * RockLake does not plan: a statement over the catalog cache is SQLite SQL, which
 * SQLite plans when it compiles it. EXPLAIN asks SQLite for that plan (EXPLAIN QUERY
 * PLAN of the statement's SQL, with its values bound) and writes SQLite's tree as
 * PostgreSQL would name the same work: a loop over a table is a Seq Scan, a search
 * of an index an Index Scan (an Index Only Scan when the index covers the query),
 * a search by row id a Tid Scan, tables looped in one another a Nested Loop, a
 * temporary b-tree for ORDER BY a Sort above the rest, a subquery of an expression
 * a SubPlan or InitPlan, a compound SELECT an Append. Relations are shown by the
 * names the client used (the analyser notes, per relation, the alias it gave it in
 * the SQL: AnalyzedStmt.relations), never by the cache's names, and SQLite's
 * indexes of keys by PostgreSQL's (t_pkey, t_a_key). SQLite's conditions have no
 * values (`?`), and SQLite has no costs: COSTS is accepted and no cost is shown,
 * rather than invented. A statement the executor computes without the cache
 * (SELECT 1, VALUES) is a Result or a Values Scan.
 *
 * ANALYZE runs the statement, as PostgreSQL does (an INSERT inserts, in the
 * statement's transaction), and shows the rows the top node returned and its times
 * (SQLite's per-loop counters, sqlite3_stmt_scanstatus, are not in Debian's build);
 * SUMMARY shows the analysis as the planning time. BUFFERS, WAL and SETTINGS are
 * accepted and show nothing; FORMAT is TEXT only (parse_utility.c reads the options).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "executor/explain.h"
#include "executor/sqlite_exec.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

typedef enum PlanChildKind
{
	CHILD_INIT,					/* InitPlan, before the node's inputs */
	CHILD_INPUT,				/* "->" */
	CHILD_SUB					/* SubPlan, after them */
} PlanChildKind;

typedef struct PlanNode PlanNode;

typedef struct PlanChild
{
	PlanChildKind kind;
	const char *label;			/* "SubPlan 1" (CHILD_INIT, CHILD_SUB) */
	PlanNode   *node;
} PlanChild;

struct PlanNode
{
	const char *name;			/* "Seq Scan on t" */
	int			nprops;
	const char **props;			/* "Index Cond: (a = ?)" */
	int			nchildren;
	PlanChild  *children;
};

/* one row of SQLite's EXPLAIN QUERY PLAN: a node, its parent's id (0: the top) and its text */
typedef struct QueryPlanRow
{
	int64_t		id;
	int64_t		parent;
	const char *detail;
} QueryPlanRow;

/* a CO-ROUTINE or MATERIALIZE of SQLite's: a subquery its scans read */
typedef struct PlanSubquery
{
	const char *name;
	PlanNode   *plan;
	bool		materialized;
} PlanSubquery;

typedef struct ExplainState
{
	const AnalyzedStmt *query;
	bool		verbose;
	QueryPlanRow *rows;
	int64_t		nrows;
	PlanSubquery *subqueries;
	int			nsubqueries;
	const char *worktable;		/* the WITH query being planned (its name in the SQL) */
	char	  **lines;			/* the output */
	int			nlines;
	int			indent;
} ExplainState;

/* how a scan joins the scans before it */
typedef struct ScanJoin
{
	bool		left;			/* LEFT-JOIN */
	const char *hash_cond;		/* through an automatic index: a hash join on this */
} ScanJoin;

static PlanNode *plan_level(ExplainState *es, int64_t parent);

/* ---------- plan nodes ---------- */

static PlanNode *
make_node(const char *name)
{
	PlanNode   *node = palloc0(sizeof(PlanNode));

	node->name = name;
	return node;
}

static void
add_prop(PlanNode *node, const char *prop)
{
	node->props = node->props ? repalloc(node->props, sizeof(char *) * (size_t) (node->nprops + 1))
		: palloc(sizeof(char *));
	node->props[node->nprops++] = prop;
}

static void
add_child(PlanNode *node, PlanChildKind kind, const char *label, PlanNode *child)
{
	node->children = node->children ? repalloc(node->children, sizeof(PlanChild) * (size_t) (node->nchildren + 1))
		: palloc(sizeof(PlanChild));
	node->children[node->nchildren++] = (PlanChild) {kind, label, child};
}

/* wrap -- a node named name above node */
static PlanNode *
wrap(const char *name, PlanNode *node)
{
	PlanNode   *top = make_node(name);

	add_child(top, CHILD_INPUT, NULL, node);
	return top;
}

/* after -- s past prefix, or NULL if s does not start with it */
static const char *
after(const char *s, const char *prefix)
{
	size_t		len = strlen(prefix);

	return strncmp(s, prefix, len) == 0 ? s + len : NULL;
}

/* ---------- names ---------- */

static char *
pg_name(const char *cache_name)
{
	return cache_pg_name(palloc(strlen(cache_name) + 1), cache_name);
}

/* find_relation -- the relation the SQL names sql_name, or NULL */
static const PlannedRelation *
find_relation(const ExplainState *es, const char *sql_name)
{
	for (int i = 0; i < es->query->nrelations; i++)
		if (strcmp(es->query->relations[i].sql_name, sql_name) == 0)
			return &es->query->relations[i];
	return NULL;
}

/* is_cte -- whether the SQL's name sql_name is a WITH query's */
static bool
is_cte(const ExplainState *es, const char *sql_name)
{
	const char *name = pg_name(sql_name);

	for (int i = 0; i < es->query->nrelations; i++)
		if (es->query->relations[i].cte && strcmp(es->query->relations[i].relname, name) == 0)
			return true;
	return false;
}

/*
 * relation_label -- a relation SQLite's plan names by its name in the SQL, as
 * PostgreSQL writes it after "on": "t", "t x" (aliased), "public.t x" (VERBOSE)
 */
static const char *
relation_label(const ExplainState *es, const char *sql_name)
{
	const PlannedRelation *r = find_relation(es, sql_name);

	if (r)
	{
		const char *schema = !es->verbose || r->cte ? NULL : r->nsp == InvalidOid ? "pg_temp" : NamespaceName(r->nsp);
		const char *name = schema ? psprintf("%s.%s", schema, r->relname) : r->relname;

		return strcmp(r->alias, r->relname) != 0 ? psprintf("%s %s", name, r->alias) : name;
	}
	/* a WITH query's or a subquery's name, or a table the SQL names by itself */
	const char *table = after(sql_name, "main.");

	return pg_name(table ? table : after(sql_name, "temp.") ? sql_name + 5 : sql_name);
}

/*
 * index_label -- an index as PostgreSQL names it: SQLite's index of a key
 * (sqlite_autoindex_<table>_<n>) by the key's name, as pg_indexes lists it
 */
static const char *
index_label(const char *index)
{
	const char *table = after(index, "sqlite_autoindex_");
	const char *last = table ? strrchr(table, '_') : NULL;

	if (last == NULL)
		return pg_name(index);

	Value		v = typio_string(TEXTOID, index, strlen(index));
	char	   *suffix = CacheLookupText("SELECT CASE WHEN coalesce((SELECT x.\"desc\" FROM pragma_index_xinfo(?1) AS x"
										 " WHERE x.seqno = 0), 0) THEN '_pkey' ELSE (SELECT group_concat('_' || c.name, '')"
										 " FROM pragma_index_info(?1) AS c) || '_key' END", &v);

	return pg_name(psprintf("%.*s%s", (int) (last - table), table, suffix ? suffix : "_key"));
}

/*
 * condition -- SQLite's "(a=? AND b>?)" as PostgreSQL writes an index condition:
 * "(a = ?)", "((a = ?) AND (b > ?))"; rowid is ctid
 */
static const char *
condition(const char *sqlite_cond)
{
	char	   *text = pstrdup(sqlite_cond + 1);
	char	   *end = strrchr(text, ')');
	RlBuf		out;
	int			nterms = 0;

	if (end)
		*end = '\0';
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (char *term = text; term != NULL; nterms++)
	{
		char	   *next = strstr(term, " AND ");

		if (next)
		{
			*next = '\0';
			next += 5;
		}

		size_t		col_len = strcspn(term, "=<>!");
		char	   *op = term + col_len;
		size_t		op_len = strspn(op, "=<>!");
		char	   *col = pnstrdup(term, col_len);

		if (op_len == 0)		/* not a comparison: SQLite's words */
			rlbuf_printf(&out, "%s(%s)", nterms ? " AND " : "", term);
		else
			rlbuf_printf(&out, "%s(%s %.*s %s)", nterms ? " AND " : "",
						 strcmp(col, "rowid") == 0 ? "ctid" : pg_name(col), (int) op_len, op, op + op_len);
		term = next;
	}
	return nterms > 1 ? psprintf("(%s)", (char *) out.data) : pstrdup((char *) out.data);
}

/* ---------- SQLite's plan as PostgreSQL's ---------- */

/*
 * subquery_scan -- a scan of a subquery SQLite computed first: a system catalog
 * is one relation, as in PostgreSQL (the cache's tables it is computed from are
 * not the client's); a subquery of the SQL's own, which SQLite names
 * "(subquery-N)", is its plan
 */
static PlanNode *
subquery_scan(const ExplainState *es, const PlanSubquery *sub)
{
	PlanNode   *plan = sub->materialized ? wrap("Materialize", sub->plan) : sub->plan;

	const PlannedRelation *r = find_relation(es, sub->name);

	if (r && r->catalog)
		return make_node(psprintf("Seq Scan on %s", relation_label(es, sub->name)));
	if (sub->name[0] == '(')
		return plan;

	PlanNode   *node = make_node(psprintf("Subquery Scan on %s", pg_name(sub->name)));

	add_child(node, CHILD_INPUT, NULL, plan);
	return node;
}

/* scan_plan -- a SCAN or SEARCH of SQLite's (its text after the verb) */
static PlanNode *
scan_plan(ExplainState *es, const char *detail, ScanJoin *join)
{
	char	   *d = pstrdup(detail);
	size_t		len = strlen(d);
	const char *using = "";
	const char *rest;

	*join = (ScanJoin) {0};
	if (len > 10 && strcmp(d + len - 10, " LEFT-JOIN") == 0)
	{
		join->left = true;
		d[len -= 10] = '\0';
	}
	if (strcmp(d, "CONSTANT ROW") == 0)
		return make_node("Result");
	if (len > 14 && strcmp(d + len - 14, " CONSTANT ROWS") == 0)
		return make_node("Values Scan on \"*VALUES*\"");

	char	   *space = strchr(d, ' ');

	if (space)
	{
		*space = '\0';
		using = space + 1;
	}
	for (int i = 0; i < es->nsubqueries; i++)
		if (strcmp(es->subqueries[i].name, d) == 0)
			return subquery_scan(es, &es->subqueries[i]);

	const PlannedRelation *with = find_relation(es, d);

	if (with && with->cte)		/* its plan is its CTE's, an InitPlan */
		return make_node(psprintf("%s on %s", es->worktable && strcmp(es->worktable, d) == 0
								  ? "WorkTable Scan" : "CTE Scan", relation_label(es, d)));

	const char *rel = relation_label(es, d);
	const char *cond = strchr(using, '(');
	PlanNode   *node;

	if (after(using, "USING INTEGER PRIMARY KEY"))
	{
		bool		range = cond && strpbrk(cond, "<>") != NULL;

		node = make_node(psprintf("%s on %s", range ? "Tid Range Scan" : "Tid Scan", rel));
		if (cond)
			add_prop(node, psprintf("TID Cond: %s", condition(cond)));
		return node;
	}
	if (after(using, "USING AUTOMATIC "))
	{
		join->hash_cond = cond ? condition(cond) : NULL;
		return make_node(psprintf("Seq Scan on %s", rel));
	}
	if ((rest = after(using, "USING COVERING INDEX ")) != NULL || (rest = after(using, "USING INDEX ")) != NULL)
	{
		node = make_node(psprintf("%s using %s on %s", after(using, "USING COVERING") ? "Index Only Scan" : "Index Scan",
								  index_label(pnstrdup(rest, strcspn(rest, " "))), rel));
		if (cond)
			add_prop(node, psprintf("Index Cond: %s", condition(cond)));
		return node;
	}
	if (after(using, "VIRTUAL TABLE"))
		return make_node(psprintf("Function Scan on %s", pg_name(d)));
	return make_node(psprintf("Seq Scan on %s", rel));
}

/* compound_plan -- a COMPOUND QUERY: its arms appended, UNION's duplicates removed */
static PlanNode *
compound_plan(ExplainState *es, int64_t id)
{
	PlanNode   *append = make_node("Append");
	const char *setop = NULL;

	for (int64_t i = 0; i < es->nrows; i++)
	{
		const QueryPlanRow *r = &es->rows[i];

		/* an arm: LEFT-MOST SUBQUERY, UNION [ALL], EXCEPT, INTERSECT (not a scan SQLite put here) */
		if (r->parent != id || after(r->detail, "SCAN ") || after(r->detail, "SEARCH "))
			continue;
		add_child(append, CHILD_INPUT, NULL, plan_level(es, r->id));
		if (after(r->detail, "EXCEPT"))
			setop = "HashSetOp Except";
		else if (after(r->detail, "INTERSECT"))
			setop = "HashSetOp Intersect";
		else if (after(r->detail, "UNION") && !after(r->detail, "UNION ALL") && setop == NULL)
			setop = "HashAggregate";
	}
	if (append->nchildren == 1 && setop == NULL)
		return append->children[0].node;	/* the arms SQLite placed under the one it names */
	/* a UNION's arms went to SQLite last first (parser/parse_setop.c) */
	for (int i = 0; setop && strcmp(setop, "HashAggregate") == 0 && i < append->nchildren / 2; i++)
	{
		PlanChild	swap = append->children[i];

		append->children[i] = append->children[append->nchildren - 1 - i];
		append->children[append->nchildren - 1 - i] = swap;
	}
	return setop ? wrap(setop, append) : append;
}

/* subquery_child -- "[CORRELATED ](SCALAR|LIST) SUBQUERY n" as an InitPlan or SubPlan; false if not one */
static bool
subquery_child(ExplainState *es, const QueryPlanRow *r, PlanChild *child)
{
	const char *d = r->detail;
	const char *rest = after(d, "CORRELATED ");
	bool		correlated = rest != NULL;
	const char *n;

	if (!correlated)
		rest = d;
	if ((n = after(rest, "SCALAR SUBQUERY ")) == NULL && (n = after(rest, "LIST SUBQUERY ")) == NULL)
		return false;
	/* PostgreSQL runs an uncorrelated scalar subquery once, as an InitPlan */
	bool		init = !correlated && after(rest, "SCALAR");

	*child = (PlanChild) {init ? CHILD_INIT : CHILD_SUB, psprintf("%s %s", init ? "InitPlan" : "SubPlan", n),
	plan_level(es, r->id)};
	return true;
}

/*
 * plan_level -- the nodes under parent: its scans joined as SQLite loops them, the
 * sorts and groupings above them, its subqueries as InitPlans and SubPlans
 */
static PlanNode *
plan_level(ExplainState *es, int64_t parent)
{
	PlanNode   *tree = NULL;
	const char *wraps[8];
	int			nwraps = 0;
	PlanNode   *holder = make_node(NULL);	/* the subplans, until the top is known */
	int			nsubqueries = es->nsubqueries;
	PlanNode   *recursive = NULL;

	for (int64_t i = 0; i < es->nrows; i++)
	{
		const QueryPlanRow *r = &es->rows[i];
		const char *d = r->detail,
				   *rest;
		PlanNode   *scan = NULL;
		ScanJoin	join = {0};
		PlanChild	sub;

		if (r->parent != parent)
			continue;
		if ((rest = after(d, "SCAN ")) != NULL || (rest = after(d, "SEARCH ")) != NULL)
			scan = scan_plan(es, rest, &join);
		else if (((rest = after(d, "MATERIALIZE ")) != NULL || (rest = after(d, "CO-ROUTINE ")) != NULL) &&
				 is_cte(es, rest))
		{
			const char *outer = es->worktable;

			es->worktable = rest;	/* a recursive query reads itself there */
			add_child(holder, CHILD_INIT, psprintf("CTE %s", pg_name(rest)), plan_level(es, r->id));
			es->worktable = outer;
		}
		else if (strcmp(d, "SETUP") == 0 || strcmp(d, "RECURSIVE STEP") == 0)
		{
			/* WITH RECURSIVE's two arms, which SQLite lists one after the other */
			if (recursive == NULL)
				scan = recursive = make_node("Recursive Union");
			add_child(recursive, CHILD_INPUT, NULL, plan_level(es, r->id));
		}
		else if ((rest = after(d, "CO-ROUTINE ")) != NULL || (rest = after(d, "MATERIALIZE ")) != NULL)
		{
			PlanNode   *plan = plan_level(es, r->id);	/* which may add subqueries of its own */

			es->subqueries = es->subqueries ? repalloc(es->subqueries, sizeof(PlanSubquery) * (size_t) (es->nsubqueries + 1))
				: palloc(sizeof(PlanSubquery));
			es->subqueries[es->nsubqueries++] = (PlanSubquery) {rest, plan, d[0] == 'M'};
		}
		else if (strcmp(d, "COMPOUND QUERY") == 0)
			scan = compound_plan(es, r->id);
		else if (strcmp(d, "MULTI-INDEX OR") == 0)
		{
			scan = make_node("BitmapOr");
			for (int64_t j = 0; j < es->nrows; j++)
				if (es->rows[j].parent == r->id)
					add_child(scan, CHILD_INPUT, NULL, plan_level(es, es->rows[j].id));
		}
		else if ((rest = after(d, "USE TEMP B-TREE FOR ")) != NULL && nwraps < 7)
		{
			if (after(rest, "GROUP BY"))
			{
				wraps[nwraps++] = "Sort";
				wraps[nwraps++] = "GroupAggregate";
			}
			else
				wraps[nwraps++] = after(rest, "DISTINCT") ? "HashAggregate"
					: after(rest, "ORDER BY") ? "Sort" : "Incremental Sort";
		}
		else if (subquery_child(es, r, &sub))
			add_child(holder, sub.kind, sub.label, sub.node);
		else if (!after(d, "BLOOM FILTER ON ") && !after(d, "RIGHT-JOIN "))
			scan = make_node(d);	/* SQLite's own words for what has no other name */
		if (scan == NULL)
			continue;
		if (tree == NULL)
			tree = scan;
		else if (join.hash_cond)
		{
			PlanNode   *hash = make_node(join.left ? "Hash Left Join" : "Hash Join");

			add_prop(hash, psprintf("Hash Cond: %s", join.hash_cond));
			add_child(hash, CHILD_INPUT, NULL, tree);
			add_child(hash, CHILD_INPUT, NULL, wrap("Hash", scan));
			tree = hash;
		}
		else
		{
			PlanNode   *loop = make_node(join.left ? "Nested Loop Left Join" : "Nested Loop");

			add_child(loop, CHILD_INPUT, NULL, tree);
			add_child(loop, CHILD_INPUT, NULL, scan);
			tree = loop;
		}
	}
	/* a subquery whose scan SQLite placed elsewhere (under a compound query inside it) */
	if (tree == NULL && es->nsubqueries > nsubqueries)
		tree = subquery_scan(es, &es->subqueries[es->nsubqueries - 1]);
	if (tree == NULL)
		tree = make_node("Result");
	for (int i = 0; i < nwraps; i++)
		tree = wrap(wraps[i], tree);
	for (int i = 0; i < holder->nchildren; i++)
		add_child(tree, holder->children[i].kind, holder->children[i].label, holder->children[i].node);
	return tree;
}

/* sqlite_plan -- SQLite's plan of the SQL that yields the statement's rows */
static PlanNode *
sqlite_plan(ExplainState *es, const Value *params)
{
	static const ResultColumn columns[] = {
		{"id", INT8OID, -1}, {"parent", INT8OID, -1}, {"notused", INT8OID, -1}, {"detail", TEXTOID, -1}
	};
	const SqlStatement *last = &es->query->sql[es->query->nsql - 1];
	SqlStatement eqp = {psprintf("EXPLAIN QUERY PLAN %s", last->sql), last->nbinds, last->binds};
	Value	   *rows;

	CacheStatementBegin(CACHE_READ);
	CacheExecute(&eqp, params, 4, columns, &rows, &es->nrows);
	CacheStatementEnd();
	es->rows = palloc(sizeof(QueryPlanRow) * (size_t) (es->nrows ? es->nrows : 1));
	for (int64_t i = 0; i < es->nrows; i++)
		es->rows[i] = (QueryPlanRow) {rows[i * 4].u.i, rows[i * 4 + 1].u.i,
		pnstrdup(rows[i * 4 + 3].u.s.data, rows[i * 4 + 3].u.s.len)};
	return plan_level(es, 0);
}

/* plan_tree -- the statement's plan: SQLite's, the executor's, under the DML's own node */
static PlanNode *
plan_tree(ExplainState *es, const Value *params)
{
	const AnalyzedStmt *q = es->query;
	const Plan *plan = q->plan;
	PlanNode   *tree;

	if (q->nsql > 0)
		tree = sqlite_plan(es, params);
	else if (plan && plan->nvalues_rows > 1)
		tree = make_node("Values Scan on \"*VALUES*\"");
	else
		tree = plan && plan->srf ? wrap("ProjectSet", make_node("Result")) : make_node("Result");
	if (plan && (plan->limit || plan->offset))
		tree = wrap("Limit", tree);
	if (es->verbose && q->ncolumns > 0)
	{
		RlBuf		out;

		rlbuf_init_in(&out, CurrentMemoryContext);
		for (int i = 0; i < q->ncolumns; i++)
			rlbuf_printf(&out, "%s%s", i ? ", " : "", q->columns[i].name);
		add_prop(tree, psprintf("Output: %s", (char *) out.data));
	}

	const char *verb = strcmp(q->command_tag, "INSERT") == 0 ? "Insert"
		: strcmp(q->command_tag, "UPDATE") == 0 ? "Update"
		: strcmp(q->command_tag, "DELETE") == 0 ? "Delete" : NULL;

	if (verb)
		for (int i = 0; i < q->nrelations; i++)
			if (q->relations[i].target)
				return wrap(psprintf("%s on %s", verb, relation_label(es, q->relations[i].sql_name)), tree);
	return tree;
}

/* ---------- PostgreSQL's text layout ---------- */

static void
add_line(ExplainState *es, char *line)
{
	es->lines = es->lines ? repalloc(es->lines, sizeof(char *) * (size_t) (es->nlines + 1)) : palloc(sizeof(char *));
	es->lines[es->nlines++] = line;
}

/*
 * render -- node and what it has under it, as PostgreSQL's ExplainNode writes
 * text: a label (InitPlan 1) on a line of its own, "->  " before an input, the
 * node's properties indented below its name
 */
static void
render(ExplainState *es, const PlanNode *node, const char *label, const char *actual)
{
	int			save = es->indent;

	if (label)
	{
		add_line(es, psprintf("%*s%s", es->indent * 2, "", label));
		es->indent++;
	}
	if (es->indent)
	{
		add_line(es, psprintf("%*s->  %s", es->indent * 2, "", node->name));
		es->indent += 2;
	}
	else
		add_line(es, psprintf("%s%s", node->name, actual ? actual : ""));
	es->indent++;
	for (int i = 0; i < node->nprops; i++)
		add_line(es, psprintf("%*s%s", es->indent * 2, "", node->props[i]));
	for (PlanChildKind kind = CHILD_INIT; kind <= CHILD_SUB; kind++)
		for (int i = 0; i < node->nchildren; i++)
			if (node->children[i].kind == kind)
				render(es, node->children[i].node, node->children[i].label, NULL);
	es->indent = save;
}

static double
elapsed_ms(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double) (now.tv_sec - since->tv_sec) * 1000.0 + (double) (now.tv_nsec - since->tv_nsec) / 1e6;
}

ExecState *
ExplainQuery(AnalyzedStmt *stmt, const Value *params)
{
	const ExplainOptions *opts = stmt->explain;
	ExplainState es = {.query = opts->query, .verbose = opts->verbose};
	const char *actual = NULL;
	double		total_ms = 0;

	if (opts->analyze)
	{
		struct timespec start;
		double		first_ms = -1;
		uint64_t	nrows = 0;
		Value	   *row;

		clock_gettime(CLOCK_MONOTONIC, &start);

		ExecState  *run = ExecutorStart(opts->query, params, true);

		while (ExecutorNext(run, &row))
		{
			if (nrows++ == 0)
				first_ms = elapsed_ms(&start);
		}
		total_ms = elapsed_ms(&start);
		actual = opts->timing
			? psprintf(" (actual time=%.3f..%.3f rows=%llu loops=1)", first_ms < 0 ? total_ms : first_ms, total_ms,
					   (unsigned long long) nrows)
			: psprintf(" (actual rows=%llu loops=1)", (unsigned long long) nrows);
	}
	render(&es, plan_tree(&es, params), NULL, actual);
	if (opts->summary)
		add_line(&es, psprintf("Planning Time: %.3f ms", opts->planning_ms));
	if (opts->summary && opts->analyze)
		add_line(&es, psprintf("Execution Time: %.3f ms", total_ms));

	Value	   *rows = palloc(sizeof(Value) * (size_t) es.nlines);

	for (int i = 0; i < es.nlines; i++)
		rows[i] = typio_string(TEXTOID, es.lines[i], strlen(es.lines[i]));
	return ExecutorStartRows(stmt, rows, es.nlines);
}

char *
ExplainPlanText(AnalyzedStmt *stmt, const Value *params)
{
	if (stmt->kind == STMT_COPY_OUT && stmt->copy_query)
		stmt = stmt->copy_query;
	/* what EXPLAIN takes: a query, or DML over the cache */
	bool		explainable = stmt->kind == STMT_ROWS ? (stmt->plan != NULL || stmt->nsql > 0) && !stmt->explain
		: stmt->kind == STMT_UTILITY && stmt->utility == UTIL_CACHE && stmt->nsql > 0 &&
		(strcmp(stmt->command_tag, "INSERT") == 0 || strcmp(stmt->command_tag, "UPDATE") == 0 ||
		 strcmp(stmt->command_tag, "DELETE") == 0);

	if (!explainable)
		return NULL;

	ExplainState es = {.query = stmt};
	RlBuf		out;

	render(&es, plan_tree(&es, params), NULL, NULL);
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int i = 0; i < es.nlines; i++)
		rlbuf_printf(&out, "%s%s", i ? "\n" : "", es.lines[i]);
	return (char *) out.data;
}
