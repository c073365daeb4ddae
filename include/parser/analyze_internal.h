/*
 * analyze_internal.h: what the parser's files share (PostgreSQL's parse_*.h): the
 * ParseState of a statement being analysed and the functions one file calls in
 * another. analyze.c dispatches a statement; parse_expr.c, parse_relation.c,
 * parse_select.c, parse_setop.c, parse_subplan.c, parse_clause.c, parse_modify.c and parse_utility.c
 * analyse its parts; deparse.c writes the SQLite SQL; parser.c is libpg_query's entry.
 */
#ifndef RL_ANALYZE_INTERNAL_H
#define RL_ANALYZE_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include "catalog/cache.h"
#include "catalog/cache_sqlite.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "catalog/syscat.h"
#include "common/rl_buffer.h"
#include "executor/executor.h"
#include "nodes/exprflatten.h"
#include "nodes/primnodes.h"
#include "parser/analyze.h"
#include "parser/literals.h"
#include "parser/parser.h"
#include "utils/adt/numeric.h"
#include "utils/elog.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

typedef PgQuery__Node Node;

/*
 * PostgreSQL's limits on a table's columns and a query's result columns
 * (MaxHeapAttributeNumber, MaxTupleAttributeNumber), checked here with its errors:
 * SQLite's own limit is higher (2000) and would fail the statement later with its text,
 * or not at all.
 */
#define MAX_TABLE_COLUMNS	1600
#define MAX_TARGET_ENTRIES	1664
/* PostgreSQL's limits of type modifiers: numeric's precision, varchar's and char's length */
#define NUMERIC_MAX_PRECISION 1000
#define MAX_CHAR_LENGTH		10485760

typedef struct ParseState
{
	const char *query;
	Oid		   *paramtypes;		/* grows as $n are seen; UNKNOWNOID until resolved */
	int			nparams;
	Expr	  **params_seen;	/* first use of each parameter, to retype it */
	Expr	   *srf;			/* the set-returning function seen, if any */
	bool		srf_lockstep;	/* transforming a select list over the cache, where ... */
	int			nmore_srfs;		/* ... more of them run in lockstep with it: these */
	Expr	  **more_srfs;
	bool		params_allowed; /* false for a simple Query */
	struct Scope *scope;		/* the relations column references see (innermost) */
	struct CteItem *ctes;		/* WITH queries in scope */
	int			nbinds;			/* the SqlStatement being generated: ?1..?nbinds */
	Expr	  **binds;
	bool		setop_leaf;		/* the next query is a branch of a set operation */
	bool		recursive_query;	/* the next query is a WITH RECURSIVE query reading itself */
	int			query_depth;	/* analyze_query calls under way */
	const char *agg_refused;	/* the clause being transformed, if it may hold no aggregate */
	bool		in_aggregate;	/* transforming an aggregate's arguments */
	/* subqueries hoisted into a WITH of the next SqlStatement (analyze_subquery) */
	int			min_ref_level;	/* the outermost scope level a column reference used */
	bool		cte_ref;		/* a WITH query was referenced */
	int			sub_nest;		/* subqueries nested in the SQL made so far, at most */
	int			nhoisted;		/* named so far: _rl_h1.._rl_hN */
	RlBuf		hoisted;		/* "_rl_hN" AS (...), ... for the next add_sql */
	int			sublink_depth;	/* subqueries around this point in the SQL being written */
	struct SubPlanFrame *subplan;	/* the SubPlan whose SQL is being written (parse_subplan.c) */
	bool		folded_aggregate;	/* this query level computes an aggregate that a
									 * constant (pg_typeof) or a window's clause left
									 * out of its select list's aggregates */
	PgQuery__SelectStmt *select;	/* the query being transformed (its WINDOW clause) */
	struct GroupingSets *gsets; /* its grouping sets, if it groups by sets (parse_grouping.c) */
	bool		eval_unflattened;	/* a tree of rl_eval had too many leaves: rl_eval
									 * one operator a call from now on (deparse_eval) */
	Expr	  **eval_cuts;		/* subtrees of rl_eval trees that are calls of their own */
	int			neval_cuts;
	int			nrelations;		/* the relations named in the SQL so far (note_relation) */
	PlannedRelation *relations;
	int			nprivileges;	/* what the statement needs to run (parse_acl.c) */
	RequiredPrivilege *privileges;
} ParseState;

/*
 * Parse trees deeper than parse_tree_depth_limit() message levels are refused before
 * they are unpacked: protobuf-c's unpacking, like the analyser and the executor,
 * recurses once per nested message, and a statement such as SELECT 1+1+...+1 with
 * tens of thousands of terms would overflow the stack. Two message levels make one
 * level of expression nesting. PostgreSQL (max_stack_depth 2MB) takes about 4 090
 * terms of 1+1+... and 7 270 UNION arms; 8 000 levels overflowed a backend's 8 MB
 * stack here. So the backend raises its stack's soft limit to STACK_WANTED (the kernel
 * keeps at least 128 MB free below a process's stack, and pages are only used when
 * touched), and allows as many levels as STACK_PER_LEVEL each fit in what it has,
 * at most MAX_PARSE_TREE_DEPTH: 8 192 levels of nesting with the 64 MB.
 */
#define MAX_PARSE_TREE_DEPTH 16384

#define STACK_WANTED		((rlim_t) 64 * 1024 * 1024)

#define STACK_RESERVED		((rlim_t) 2 * 1024 * 1024)

#define STACK_PER_LEVEL		2048

/*
 * The parse trees of the last few statements, by shape (literals.h): clients send the
 * same statements again and again, most with new values (DuckLake's commit batch, its
 * snapshot query), and libpg_query's parse and protobuf packing is a sixth of what a
 * DuckLake statement costs. A text whose literals the scan cannot vouch for is kept by
 * its text. Only trees that parsed and passed the depth check are kept, each in a
 * memory context of its own, and handed out as copies (copy_message): unpacking one
 * from its bytes every time was a fifth of a backend's time in DuckLake's 40-row
 * INSERTs.
 */
#define PARSE_CACHE_SIZE 32

#define PARSE_CACHE_MAX_TEXT 16384

typedef struct ParseCacheEntry
{
	char	   *key;			/* the shape, or the text if not shared by shape */
	char	   *text;			/* the text parsed */
	MemoryContext context;		/* holds tree */
	PgQuery__ParseResult *tree;
	bool		by_shape;
	LiteralScan scan;			/* of text (malloc'd literals) */
	int		   *locations;		/* of each literal's constant in tree */
	bool	   *negated;
} ParseCacheEntry;

/* given each message of a copy once its children are copied, if set */
typedef struct CopyVisit
{
	void		(*fn) (ProtobufCMessage *copy, void *arg);
	void	   *arg;
} CopyVisit;

/* LiteralAt -- where a literal is, its character position counted only for an error */
typedef struct LiteralAt
{
	ParseState *ps;
	int			location;
} LiteralAt;

typedef enum CoercionMode
{
	COERCE_IMPLICIT,
	COERCE_ASSIGNMENT,
	COERCE_EXPLICIT
} CoercionMode;

typedef struct RangeItem
{
	const char *alias;			/* what column references qualify with */
	const char *sql_alias;		/* what the SQL qualifies with, if not alias (two tables
								 * of one name in two schemas) */
	const char *relation;		/* a table: its cache name, or a system catalog's name */
	Oid			nsp;			/* ... and its schema */
	bool		aliased;		/* named by an alias of its own */
	int			ncolumns;
	ResultColumn *columns;
	bool		is_table;		/* has ctid (its _rl_rowid) */
	bool		catalog;		/* a system catalog: a query, whose rows have no ctid */
	bool		bare;			/* columns unqualified (SQLite's RETURNING) */
	bool	   *merged_away;	/* per column: a USING join's merged column stands for it
								 * in unqualified references and * (NULL: none) */
	Expr	  **computed;		/* per column: its expression (a USING join's merged
								 * columns), or NULL */
	const char **column_sql;	/* each column's SQLite expression; NULL: "alias"."column" */
	const char *main_table;		/* a table of the catalog (not temporary, not a system
								 * catalog): its name */
	int			npkey;			/* a table: its primary key's columns */
	const int  *pkey;
} RangeItem;

typedef struct Scope
{
	int			nitems;
	RangeItem **items;
	struct Scope *parent;
	int			level;			/* parent's + 1: tells a subquery's outer references */
} Scope;

typedef struct CteItem
{
	const char *name;
	int			ncolumns;
	ResultColumn *columns;
	int			self_depth;		/* a recursive query read by its own arms: their depth */
	/*
	 * once analysed: its definition, `name(columns) AS (sql)`, and the subqueries
	 * hoisted out of it (NULL if none), which a SubPlan's statement repeats to read it
	 * (parse_subplan.c), the binds of its statement they may read (the first nbinds);
	 * whether it is recursive, and whether it reads columns of queries around its WITH
	 * (a SubPlan's statement could not)
	 */
	const char *sql;
	const char *hoisted;
	int			nbinds;
	bool		recursive;
	bool		correlated;
	struct CteItem *next;
} CteItem;

/* The analysed query: its SQLite text and its result columns. */
typedef struct Query
{
	char	   *sql;
	int			ncolumns;
	ResultColumn *columns;
	const RangeItem *scan;		/* a plain scan of this item (AnalyzedStmt's scan_table) ... */
	bool		scan_filtered;	/* ... with a WHERE ... */
	bool		one_row;		/* gives at most one row (no FROM, or aggregates no GROUP BY) */
	const char *scan_where;		/* ... this one, in parentheses */
	const char *heap_order;		/* to insert at heap_order_at in a statement's own query */
	size_t		heap_order_at;	/* (heap_order_of) */
} Query;

/* the most terms SQLite takes in one compound SELECT (its SQLITE_MAX_COMPOUND_SELECT, 500) */
#define SQLITE_COMPOUND_TERMS 500

#define BOOL_CHAIN_FLAT 64

/* the variables (?N) after which a statement's constants are written into its SQL (deparse) */
#define BINDS_MAX 1000

/* PostgreSQL's frameOptions bits (nodes/parsenodes.h) */
#define FRAMEOPTION_NONDEFAULT 0x00001

#define FRAMEOPTION_RANGE 0x00002

#define FRAMEOPTION_ROWS 0x00004

#define FRAMEOPTION_GROUPS 0x00008

#define FRAMEOPTION_BETWEEN 0x00010

#define FRAMEOPTION_START_UNBOUNDED_PRECEDING 0x00020

#define FRAMEOPTION_START_UNBOUNDED_FOLLOWING 0x00080

#define FRAMEOPTION_END_UNBOUNDED_FOLLOWING 0x00100

#define FRAMEOPTION_START_CURRENT_ROW 0x00200

#define FRAMEOPTION_END_CURRENT_ROW 0x00400

#define FRAMEOPTION_START_OFFSET_PRECEDING 0x00800

#define FRAMEOPTION_END_OFFSET_PRECEDING 0x01000

#define FRAMEOPTION_START_OFFSET_FOLLOWING 0x02000

#define FRAMEOPTION_END_OFFSET_FOLLOWING 0x04000

#define FRAMEOPTION_EXCLUDE_CURRENT_ROW 0x08000

#define FRAMEOPTION_EXCLUDE_GROUP 0x10000

#define FRAMEOPTION_EXCLUDE_TIES 0x20000

/*
 * Subqueries nested in SQLite's text take SQLite's parser stack, which is fixed at 100
 * entries (YYSTACKDEPTH): a scalar subquery in a scalar subquery takes about ten, so
 * the SQL of a statement nesting them nine deep failed to compile. A subquery that
 * refers to nothing outside itself (no column of an outer query, no WITH query) is
 * therefore, once HOIST_NESTING subqueries are nested in its SQL, moved into a WITH
 * query of the statement, "_rl_hN", and read from there: WITH's list is flat, so the
 * text nests at most HOIST_NESTING deep whatever the statement's nesting. SQLite
 * inlines such a WITH query where it is read, so the plan is the one it made before.
 * What still limits the nesting is SQLite's expression depth (1000), which counts
 * through a scalar, EXISTS or IN subquery's WITH query too (about two per level), and
 * correlated subqueries, which stay in place. Statements nesting fewer subqueries
 * are made as before.
 */
#define HOIST_NESTING 3

/*
 * The scalar, EXISTS or IN subquery that would be the SUBPLAN_NESTING-th nested in
 * the SQL being written is a statement of its own instead, a SubPlan
 * (parse_subplan.c): SQLite's parser stack takes about seven.
 */
#define SUBPLAN_NESTING 6

/* Result columns being built. */
typedef struct TargetList
{
	int			n;
	Expr	  **exprs;
	ResultColumn *columns;
} TargetList;

/* A grouped query's GROUP BY expressions, and the FROM items of its own level. */
typedef struct Grouping
{
	Expr	  **groups;
	int			ngroups;
	const Scope *scope;
} Grouping;

/* analyze.c */
int			char_position(ParseState *ps, int location);
void		not_supported(ParseState *ps, const char *what, int location);
const char *node_name(const Node *node);
bool		is_set(const char *s);
const char *string_value(const Node *node);
void		analyze_select(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt);

/* parse_expr.c */
bool		is_numeric(Oid type);
int			numeric_rank(Oid type);
bool		is_string(Oid type);
Expr       *make_expr(ExprKind kind, Oid type, int location);
Expr       *make_const(Value v, int location);
Expr       *coerce_expr(ParseState *ps, Expr *e, Oid target, int32_t typmod, CoercionMode mode);
Expr       *coerce_or_fail(ParseState *ps, Expr *e, Oid target, const char *context);
void		undefined_function(ParseState *ps, const char *name, const Oid *argtypes, int nargs, int location);
Oid			select_common_type(ParseState *ps, Expr **exprs, int n, const char *context);
void		coerce_all(ParseState *ps, Expr **exprs, int n, Oid type, const char *context);
bool		is_aggregate(const PgQuery__FuncCall *fc);
Expr	  **transform_list(ParseState *ps, Node **nodes, size_t n);
Expr       *transform_const(ParseState *ps, PgQuery__AConst *c);
Oid			type_from_typename(ParseState *ps, PgQuery__TypeName *tn, int32_t *typmod);
void		no_operator(ParseState *ps, const char *opname, Expr *l, Expr *r, int location);
Expr       *make_op(ParseState *ps, const char *opname, Expr *l, Expr *r, int location);
/* a builtin's call with args of the types it takes (one that exists: the analyser's own use) */
Expr       *make_func_call(ParseState *ps, const char *name, Expr **args, int nargs, int location);
Expr       *make_scalar_array(ParseState *ps, const char *opname, Expr *l, Expr *r, bool all, int location);
Expr       *make_bool_expr(ExprKind kind, Expr *a, Expr *b, int location);
void		multidimensional(ParseState *ps, int location);
Expr       *transform_expr(ParseState *ps, Node *node);
const char *figure_colname(Node *node);
void		finish_params(ParseState *ps, AnalyzedStmt *stmt);
Expr       *transform_no_aggregates(ParseState *ps, Node *node, const char *clause);
Expr       *transform_clause(ParseState *ps, Node *node, Oid type, const char *context, const char *clause);
Expr	  **transform_values_row(ParseState *ps, PgQuery__List *row);
Expr       *transform_limit(ParseState *ps, Node *node, const char *clause);
void		analyze_values(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt, Plan *plan);

/* parse_relation.c */
RangeItem  *make_range_item(const char *alias, int ncolumns, ResultColumn *columns, PgQuery__Alias *a);
void		scope_add(Scope *scope, RangeItem *item);
Expr       *make_var(const RangeItem *item, const char *column, Oid type, int32_t typmod, int location);
bool		visible_column(const RangeItem *item, int i);
Expr       *column_expr(const RangeItem *item, int i, int location);
bool		input_column(ParseState *ps, const char *name);
const RangeItem *find_item(ParseState *ps, const char *schema, const char *alias, int location);
Expr       *transform_column_ref(ParseState *ps, PgQuery__ColumnRef *cr);
char       *quote_table(const char *table);
const char *relation_sql(const CacheRelation *rel);
void		check_writable(ParseState *ps, const CacheRelation *rel, int location);
CacheRelation *lookup_relation(ParseState *ps, PgQuery__RangeVar *rv);
char       *set_source(ParseState *ps, Expr *srf, const char *alias);
Scope      *transform_from(ParseState *ps, Node **items, size_t n, RlBuf *sql);
void		transform_with(ParseState *ps, PgQuery__WithClause *with, RlBuf *sql);
void		note_relation(ParseState *ps, const RangeItem *item, const char *relname, const CacheRelation *rel,
						  bool target);

/* parse_select.c */
void		deparse_window(ParseState *ps, RlBuf *out, const WindowSpec *w);
Expr       *transform_window(ParseState *ps, PgQuery__FuncCall *fc, const char *name);
Expr       *transform_aggregate(ParseState *ps, PgQuery__FuncCall *fc, const char *name);
void		analyze_subquery(ParseState *ps, PgQuery__SelectStmt *sel, Query *q);
Expr       *transform_sublink(ParseState *ps, PgQuery__SubLink *sl);
Expr       *finish_target(ParseState *ps, Expr *e, const ResultColumn *target);
void		check_column_limit(size_t n, int limit, const char *what, const char *items);
void		transform_targets(ParseState *ps, Node **nodes, size_t n, TargetList *tl);
bool		contains_aggregate(const Expr *e);
bool		expr_equal(const Expr *a, const Expr *b);
void		analyze_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets, Query *q);
void		add_sql(ParseState *ps, AnalyzedStmt *stmt, const char *sql);
void		skip_notice(AnalyzedStmt *stmt, const char *code, const char *message);
bool		node_contains(const ProtobufCMessage *msg, PgQuery__Node__NodeCase kind, bool (*match) (const Node *));
bool		values_have_default(const PgQuery__SelectStmt *sel);
bool		needs_cache(PgQuery__SelectStmt *sel);
void		analyze_select_sql(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt);

/* parse_subplan.c */
struct SubPlanFrame;
bool		subplan_wanted(ParseState *ps, const PgQuery__SubLink *sl);
struct SubPlanFrame *subplan_begin(ParseState *ps);
void		subplan_suspend(ParseState *ps, struct SubPlanFrame *f);
Expr	   *subplan_finish(ParseState *ps, struct SubPlanFrame *f, Expr *e);
Expr	   *subplan_outer_ref(ParseState *ps, Expr *e, int level);
Expr	   *subplan_param(ParseState *ps, Expr *param);
/* 0A000 for an aggregate in a SubPlan's statement whose args read only values from outside it */
void		subplan_check_aggregate(ParseState *ps, Expr **args, int nargs, int location);
/* whether e runs as a SubPlan passed the column written column_sql */
bool		subplan_reads(const Expr *e, const char *column_sql);
void		deparse_subplan(ParseState *ps, RlBuf *out, Expr *e);

/* parse_setop.c */
void		append_set_operation(RlBuf *out, char **terms, int n, int ncolumns, PgQuery__SetOperation op, bool all,
								 bool recursive);

/* parse_clause.c */
Expr	   *sort_expr(ParseState *ps, Node *node, TargetList *tl, bool by_name, const char *clause);
char	   *distinct_on_partition(ParseState *ps, PgQuery__SelectStmt *sel, TargetList *tl, Expr **sorts,
								  RlBuf *sql);
void		select_distinct_on(RlBuf *sql, size_t targets_end, const char *partition, const char *order_by,
							   int ncolumns);
void		append_order_by(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel, TargetList *tl,
							bool positions, Expr ***sorts);
void		append_limit(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel);

Expr	   *group_by_expr(ParseState *ps, Node *node, TargetList *tl);

/* parse_grouping.c */
typedef struct GroupingSets GroupingSets;
bool		wants_grouping_sets(PgQuery__SelectStmt *sel);
GroupingSets *transform_grouping_sets(ParseState *ps, PgQuery__SelectStmt *sel, TargetList *tl);
void		grouping_sets_from(GroupingSets *gs, RlBuf *from);
void		grouping_sets_empty_input(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel, TargetList *tl,
									  Expr **sorts, const size_t ends[4], Expr *having);
void		grouping_sets_group_by(ParseState *ps, const GroupingSets *gs, RlBuf *sql, Grouping *grouping);
Expr	   *transform_grouping_func(ParseState *ps, PgQuery__GroupingFunc *gf);
Expr	   *grouping_substitute(ParseState *ps, Expr *e);

/* parse_modify.c */
const ResultColumn *relation_column(ParseState *ps, const CacheRelation *rel, const char *name, int location);
void		analyze_insert(ParseState *ps, PgQuery__InsertStmt *ins, AnalyzedStmt *stmt);
void		analyze_update(ParseState *ps, PgQuery__UpdateStmt *upd, AnalyzedStmt *stmt);
void		analyze_delete(ParseState *ps, PgQuery__DeleteStmt *del, AnalyzedStmt *stmt);

/* parse_acl.c */
/* what the statement needs of rel or of schema nsp (RequiredPrivilege), named at location (-1: nowhere) */
void		require_relation(ParseState *ps, const CacheRelation *rel, const char *privileges, int location);
void		require_schema(ParseState *ps, Oid nsp, const char *name, const char *privileges, int location);
void		analyze_grant(ParseState *ps, PgQuery__GrantStmt *g, AnalyzedStmt *stmt);
/* 42501 unless the current user may create in schema nsp, as PostgreSQL checks when it looks the name up */
void		check_schema_create(ParseState *ps, Oid nsp, int location);

/* parse_utility.c */
void		analyze_create_table(ParseState *ps, PgQuery__CreateStmt *cs, AnalyzedStmt *stmt);
void		analyze_alter_table(ParseState *ps, PgQuery__AlterTableStmt *as, AnalyzedStmt *stmt);
void		analyze_drop(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt);
void		analyze_truncate(ParseState *ps, PgQuery__TruncateStmt *ts, AnalyzedStmt *stmt);
void		analyze_lock(ParseState *ps, PgQuery__LockStmt *ls, AnalyzedStmt *stmt);
void		analyze_create_schema(ParseState *ps, PgQuery__CreateSchemaStmt *cs, AnalyzedStmt *stmt);
void		analyze_drop_schema(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt);
void		analyze_rename_schema(ParseState *ps, PgQuery__RenameStmt *rs, AnalyzedStmt *stmt);
void		analyze_schema_owner(ParseState *ps, PgQuery__AlterOwnerStmt *os, AnalyzedStmt *stmt);
void		analyze_set(ParseState *ps, PgQuery__VariableSetStmt *vs, AnalyzedStmt *stmt);
void		analyze_transaction(ParseState *ps, PgQuery__TransactionStmt *ts, AnalyzedStmt *stmt);
void		analyze_alter_system(ParseState *ps, PgQuery__AlterSystemStmt *as, AnalyzedStmt *stmt);
void		analyze_copy(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt);
void		analyze_explain(ParseState *ps, PgQuery__ExplainStmt *es, const RawStatement *raw,
							AnalyzedStmt *stmt);

/* deparse.c */
char       *quote_qualified(const char *qualifier, const char *name);
char       *quote_ident(const char *name);
void		append_ident(RlBuf *sql, const char *sep, const char *name);
void		append_aliased(RlBuf *sql, const char *source, const char *alias);
int			add_bind(ParseState *ps, Expr *e);
bool		same_canonical_form(Oid from, Oid to, int32_t typmod);
void		deparse_collated(ParseState *ps, RlBuf *out, Expr *e);
void		deparse(ParseState *ps, RlBuf *out, Expr *e);
char       *deparse_to_string(ParseState *ps, Expr *e);

#endif
