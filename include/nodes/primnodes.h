/*
 * primnodes.h: the analyser's typed expressions (Expr) and the builtin functions
 * they call, and the SQLite statements it writes (SqlStatement): what the parser
 * produces and the executor and the catalog cache's SQLite functions evaluate.
 */
#ifndef RL_PRIMNODES_H
#define RL_PRIMNODES_H

#include <stdbool.h>
#include <stdint.h>

#include "utils/adt/typio.h"

typedef struct ResultColumn
{
	const char *name;
	Oid			type;
	int32_t		typmod;
} ResultColumn;

/* A typed expression tree, the analyser's output. */
typedef enum ExprKind
{
	EXPR_CONST,
	EXPR_PARAM,
	EXPR_OP,
	EXPR_FUNC,
	EXPR_CAST,
	EXPR_AND,
	EXPR_OR,
	EXPR_NOT,
	EXPR_CASE,
	EXPR_COALESCE,
	EXPR_NULLIF,
	EXPR_GREATEST,
	EXPR_LEAST,
	EXPR_IS_NULL,
	EXPR_IS_NOT_NULL,
	EXPR_BOOLTEST,
	EXPR_SRF_VALUE,				/* the current value of the statement's set-returning function */
	EXPR_VAR,					/* a column of a relation: sql is its SQLite reference */
	EXPR_AGG,					/* an aggregate: sql is SQLite's function name */
	EXPR_SUBLINK,				/* a subquery: sql is its SQLite text */
	EXPR_SUBSCRIPT,				/* args[0][args[1]]: an array's element (from 1) */
	EXPR_ARRAY,					/* ARRAY[args...] of type */
	EXPR_SCALAR_ARRAY			/* args[0] op ANY / ALL (args[1], an array) */
} ExprKind;

typedef enum SubLinkKind
{
	SUBLINK_EXISTS,
	SUBLINK_IN,					/* args[0] IN (subquery) */
	SUBLINK_EXPR,				/* (subquery) as a value */
	SUBLINK_EXPR_ONE_ROW,		/* ... of a subquery that gives at most one row */
	SUBLINK_ARRAY				/* ARRAY(subquery) */
} SubLinkKind;

typedef enum ExprOp
{
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_DISTINCT, OP_NOT_DISTINCT,
	OP_CONCAT, OP_LIKE, OP_NOT_LIKE, OP_ILIKE, OP_NOT_ILIKE,
	OP_REGEX, OP_NOT_REGEX, OP_REGEX_CI, OP_NOT_REGEX_CI	/* ~ !~ ~* !~* (POSIX ERE) */
} ExprOp;

struct ExecState;
typedef Value (*BuiltinFn) (struct ExecState *es, const Value *args, int nargs);

/*
 * A builtin function. argtypes may be ANYARRAYOID (any array) or ANYELEMENTOID
 * (a value of any type but unknown, passed as it is); rettype
 * ANYELEMENTOID is then that array's element type. A function that reads the
 * catalog has no fn: it is a lookup, in the system relation catalog, of the
 * column catalog_column of the row whose catalog_keys columns equal its first
 * arguments (the others, such as pg_get_constraintdef's "pretty", change
 * nothing), so it runs only in a query over the cache.
 */
#define FUNC_VARIADIC_ANY (-1)	/* FuncDesc.nargs: VARIADIC "any" after argtypes[0] if set */

typedef struct FuncDesc
{
	const char *name;
	int			nargs;
	Oid			argtypes[6];
	Oid			rettype;
	bool		strict;			/* NULL in any argument gives NULL */
	bool		returns_set;	/* fn returns the whole set as an array of rettype */
	BuiltinFn	fn;
	const char *catalog;
	const char *catalog_column;
	const char *catalog_keys[2];
} FuncDesc;

typedef struct Expr
{
	ExprKind	kind;
	Oid			type;
	int32_t		typmod;
	int			location;		/* byte offset in the query, -1 if none */
	Value		constval;		/* EXPR_CONST */
	int			paramno;		/* EXPR_PARAM: 0-based */
	ExprOp		op;				/* EXPR_OP (operand type: args[0]->type), EXPR_SCALAR_ARRAY */
	bool		array_all;		/* EXPR_SCALAR_ARRAY: ALL (else ANY) ... */
	Oid			element_type;	/* ... with each element read as this type */
	int			booltest;		/* EXPR_BOOLTEST: libpg_query's BoolTestType */
	const FuncDesc *func;		/* EXPR_FUNC */
	int			nargs;
	struct Expr **args;			/* CASE: WHEN/THEN pairs; COALESCE etc.: the list */
	struct Expr *defresult;		/* CASE: ELSE (NULL const if absent); EXPR_AGG: FILTER */
	const char *sql;			/* EXPR_VAR, EXPR_AGG, EXPR_SUBLINK */
	const void *range;			/* EXPR_VAR: the analyser's FROM item it reads (NULL: none) */
	int			column;			/* EXPR_VAR of a range: the column's index (-1: ctid) */
	SubLinkKind sublink;		/* EXPR_SUBLINK */
	struct SubPlan *subplan;	/* EXPR_SUBLINK run as a statement of its own, or NULL */
	bool		agg_star;		/* EXPR_AGG: count(*) */
	bool		agg_distinct;	/* EXPR_AGG: f(DISTINCT x) */
	bool		cast_explicit;	/* EXPR_CAST: written (CAST, ::), not an assignment's */
	const struct WindowSpec *window;	/* EXPR_AGG: its OVER (...), NULL for an aggregate */
} Expr;

/* A window function's OVER (...), deparsed as SQLite's (parse_select.c, transform_window). */
typedef struct WindowSpec
{
	int			npartition;
	struct Expr **partition;
	int			norder;
	struct Expr **order;
	int		   *order_flags;	/* AGG_ORDER_DESC | AGG_ORDER_NULLS_FIRST each */
	int			frame_options;	/* PostgreSQL's FRAMEOPTION_ bits; 0: the default frame */
	struct Expr *start_offset;	/* n PRECEDING / FOLLOWING, or NULL */
	struct Expr *end_offset;
} WindowSpec;

#define AGG_ORDER_DESC 1
#define AGG_ORDER_NULLS_FIRST 2

/*
 * A statement for SQLite. Its ?1..?n are binds[0..n-1]: an EXPR_CONST or
 * EXPR_PARAM is bound by value (in the canonical SQLite form of its type), any
 * other expression by pointer, for rl_eval(?k, args...) to evaluate it with
 * PostgreSQL's semantics (executor/sqlite_exec.c).
 */
typedef struct SqlStatement
{
	const char *sql;
	int			nbinds;
	struct Expr **binds;
} SqlStatement;

/*
 * A subquery nested deep in a statement, run as a statement of its own by
 * rl_subplan(?k, args...) (executor/subplan.c), with ?k bound to its EXPR_SUBLINK:
 * stmt gives one row of one column, the subquery's value (EXISTS and IN included).
 * An outer value it reads (an outer query's column, a parameter, IN's left operand)
 * is a bind of stmt, an EXPR_PARAM whose paramno is SUBPLAN_ARG(i): the call's
 * argument i, args[i] written in the calling statement's SQL.
 */
typedef struct SubPlan
{
	SqlStatement stmt;
	int			nargs;
	struct Expr **args;
} SubPlan;

#define SUBPLAN_ARG(i) (-1 - (i))

#endif
