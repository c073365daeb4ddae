/*
 * sqlite_exec.c: the SQLite side of execution (sqlite_exec.h): the analyser's
 * SqlStatements run on the catalog cache's connection, their rows read back as
 * Values, and the SQLite functions the executor registers on that connection.
 *
 * Whatever SQLite cannot compute with PostgreSQL's semantics (arithmetic, casts,
 * functions) it calls back into the executor through rl_eval(). The others:
 * rl_scalar for a scalar subquery's value, rl_subplan for one run as a statement of
 * its own (subplan.c), rl_float_sum and rl_float_avg for sum()
 * and avg() of floats, rl_numeric_sum and rl_numeric_avg for those of numerics,
 * rl_array_agg for ARRAY(subquery) and array_agg(), rl_string_agg for
 * string_agg(... ORDER BY ...), rl_json_agg and rl_json_object_agg for the json aggregates, rl_bytea_agg for string_agg(bytea, bytea), rl_array_json for json_each() to iterate a
 * set-returning function's result, and rl_row_after for the row id an UPDATE moves
 * a row to.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog/cache.h"
#include "catalog/cache_sqlite.h"
#include "executor/executor.h"
#include "executor/sqlite_exec.h"
#include "executor/subplan.h"
#include "nodes/exprflatten.h"
#include "utils/adt/numeric.h"
#include "utils/elog.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* ---------- rl_eval: PostgreSQL's semantics inside SQLite ---------- */



/* rl_pack(leaves...): its arguments, copied, for rl_eval (exprflatten.h) */
typedef struct EvalPack
{
	int			n;
	sqlite3_value *values[];
} EvalPack;

static void
free_pack(void *p)
{
	EvalPack   *pack = p;

	for (int i = 0; i < pack->n; i++)
		sqlite3_value_free(pack->values[i]);
	sqlite3_free(pack);
}

static void
rl_pack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	EvalPack   *pack = sqlite3_malloc64(sizeof(EvalPack) + sizeof(sqlite3_value *) * (size_t) argc);

	if (pack == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	for (pack->n = 0; pack->n < argc; pack->n++)
		if ((pack->values[pack->n] = sqlite3_value_dup(argv[pack->n])) == NULL)
		{
			free_pack(pack);
			sqlite3_result_error_nomem(ctx);
			return;
		}
	sqlite3_result_pointer(ctx, pack, "rl_pack", free_pack);
}

/*
 * rl_eval's arguments after its tree, leaves or packs of per leaves each, each leaf
 * converted when the tree first reads it
 */
typedef struct EvalLeaves
{
	int			argc;
	sqlite3_value **argv;
	int			per;
	int			nslots;
	Value	   *values;
	bool	   *converted;
} EvalLeaves;

/* eval_slot -- slot's argument, NULL if there is none */
static sqlite3_value *
eval_slot(const EvalLeaves *leaves, int slot)
{
	int			argc = leaves->argc;
	sqlite3_value **argv = leaves->argv;

	for (int per = leaves->per; per > 1; per /= FLATTEN_ARGS_MAX)
	{
		EvalPack   *pack = slot / per < argc ? sqlite3_value_pointer(argv[slot / per], "rl_pack") : NULL;

		if (pack == NULL)
			return NULL;
		argc = pack->n;
		argv = pack->values;
		slot %= per;
	}
	return slot < argc ? argv[slot] : NULL;
}

static Value
eval_leaf(void *arg, int slot, Oid type, int32_t typmod)
{
	EvalLeaves *leaves = arg;
	sqlite3_value *v = slot >= 0 && slot < leaves->nslots ? eval_slot(leaves, slot) : NULL;

	if (v == NULL)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
						errmsg("rl_eval: no argument for slot %d", slot)));
	if (!leaves->converted[slot])
	{
		leaves->values[slot] = from_sqlite(v, type, typmod, false);
		leaves->converted[slot] = true;
	}
	return leaves->values[slot];
}

/* eval_leaves -- rl_eval's arguments after its tree: how many leaves each holds, and all */
static void
eval_leaves(EvalLeaves *leaves)
{
	EvalPack   *pack;

	leaves->per = 1;
	for (sqlite3_value *v = leaves->argc ? leaves->argv[0] : NULL;
		 v && (pack = sqlite3_value_pointer(v, "rl_pack")) != NULL && pack->n > 0; v = pack->values[0])
		leaves->per *= FLATTEN_ARGS_MAX;

	/* all arguments but the last are full */
	int			n = leaves->argc;
	sqlite3_value **argv = leaves->argv;

	leaves->nslots = 0;
	for (int per = leaves->per; n > 0; per /= FLATTEN_ARGS_MAX)
	{
		leaves->nslots += (n - 1) * per;
		if (per == 1)
		{
			leaves->nslots++;
			break;
		}
		if ((pack = sqlite3_value_pointer(argv[n - 1], "rl_pack")) == NULL)
			break;				/* eval_slot finds no leaf there */
		argv = pack->values;
		n = pack->n;
	}
	leaves->values = palloc(sizeof(Value) * (size_t) (leaves->nslots + 1));
	leaves->converted = palloc0((size_t) leaves->nslots + 1);
}

/*
 * rl_eval(tree, leaves...) evaluates an analysed expression tree whose leaves SQLite
 * computed (exprflatten.h): each becomes a constant of its slot's type, the executor
 * does the rest. An ERROR inside (already reported) is caught here, since longjmp
 * must not cross SQLite, and its recovery resumed once sqlite3_step returns.
 */
static void
rl_eval(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const Expr *tree = sqlite3_value_pointer(argv[0], "rl_expr");
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (tree == NULL)
	{
		sqlite3_result_error(ctx, "rl_eval: bad arguments", -1);
		return;
	}
	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		return;
	}
	PG_exception_stack = &local;

	EvalLeaves	leaves = {.argc = argc - 1, .argv = argv + 1};

	eval_leaves(&leaves);
	Value		v = ExecEvalExpr(NULL, ExprFillSlots(tree, eval_leaf, &leaves));
	SqliteSink	sink = {.ctx = ctx};

	to_sqlite(&sink, &v);
	PG_exception_stack = save;
}

/* rl_scalar(x): a scalar subquery's value; PostgreSQL's 21000 for a second row */
typedef struct ScalarState
{
	int64_t		rows;
	sqlite3_value *value;
} ScalarState;

static void
rl_scalar_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	ScalarState *st = sqlite3_aggregate_context(ctx, sizeof(ScalarState));

	if (st != NULL && st->rows++ == 0)
		st->value = sqlite3_value_dup(argv[0]);
}

/*
 * final_error -- an aggregate's final call fails with ERROR (sqlstate, message), caught
 * as rl_eval catches one; when an earlier call of the statement failed, that error
 * stands (SQLite calls every aggregate's final before it looks)
 */
static void
final_error(sqlite3_context *ctx, const char *sqlstate, const char *message)
{
	sigjmp_buf *save = PG_exception_stack;
	sigjmp_buf	local;

	if (callback_failed)
		sqlite3_result_error(ctx, "an earlier error", -1);
	else if (sigsetjmp(local, 0) != 0)
		callback_caught(ctx, save, CurrentMemoryContext);
	else
	{
		PG_exception_stack = &local;
		ereport(ERROR, errcode(sqlstate), errmsg("%s", message));
	}
}

static void
rl_scalar_final(sqlite3_context *ctx)
{
	ScalarState *st = sqlite3_aggregate_context(ctx, 0);

	if (callback_failed || (st != NULL && st->rows > 1))
		final_error(ctx, ERRCODE_CARDINALITY_VIOLATION,
					"more than one row returned by a subquery used as an expression");
	else if (st == NULL || st->rows == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_value(ctx, st->value);
	if (st != NULL)
		sqlite3_value_free(st->value);
}

/*
 * rl_float_sum(x), rl_float4_sum(x), rl_float_avg(x): sum() and avg() of floats with
 * PostgreSQL's arithmetic. SQLite's would read a NaN (the text NaN) as 0 and make
 * Infinity - Infinity NULL. A float4 sum adds in float4, as PostgreSQL's float4pl
 * does; a sum that overflows where no input was infinite is 22003.
 */
typedef struct FloatAggState
{
	double		sum;
	int64_t		n;
	bool		overflow;
} FloatAggState;

/* float_add -- a value into a float sum; float4: float4 arithmetic */
static void
float_add(FloatAggState *st, sqlite3_value *value, bool float4)
{
	int			type = sqlite3_value_type(value);

	if (type == SQLITE_NULL)
		return;

	double		x = type == SQLITE_TEXT ? NAN : sqlite3_value_double(value);
	double		sum = float4 ? (double) ((float) st->sum + (float) x) : st->sum + x;

	st->overflow |= isinf(sum) && !isinf(st->sum) && !isinf(x);
	st->sum = sum;
	st->n++;
}

static void
rl_float_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	FloatAggState *st = sqlite3_aggregate_context(ctx, sizeof(FloatAggState));

	if (st != NULL)
		float_add(st, argv[0], sqlite3_user_data(ctx) != NULL);
}

/* float_result -- the sum or average of st as ctx's result */
static void
float_result(sqlite3_context *ctx, const FloatAggState *st, bool avg)
{
	if (callback_failed || (st != NULL && st->overflow))
		final_error(ctx, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
	else if (st == NULL || st->n == 0)
		sqlite3_result_null(ctx);
	else
	{
		Value		v = typio_float(FLOAT8OID, avg ? st->sum / (double) st->n : st->sum);

		to_sqlite(&(SqliteSink) {.ctx = ctx}, &v);
	}
}

static void
float_final(sqlite3_context *ctx, bool avg)
{
	float_result(ctx, sqlite3_aggregate_context(ctx, 0), avg);
}

static void
rl_float_sum_final(sqlite3_context *ctx)
{
	float_final(ctx, false);
}

static void
rl_float_avg_final(sqlite3_context *ctx)
{
	float_final(ctx, true);
}

/*
 * rl_numeric_sum(x), rl_numeric_avg(x): sum() and avg() of numerics, exact (numeric.c),
 * as PostgreSQL's: the sum has the largest scale of the values, NaN and the
 * infinities as its addition has them, and avg() is that sum divided by the count
 * with numeric division's scale. SQLite's would add doubles. The running sum is
 * kept as malloc'd text between calls, each step computing in a context of its own
 * that it resets, so a long column costs the sum's size only.
 * rl_interval_sum(x), rl_interval_avg(x) are the same for intervals (user data
 * INTERVALOID): PostgreSQL's interval_pl adds each field, "interval out of range" on
 * overflow, and avg() is interval_div of the sum by the count.
 */
typedef struct NumericAggState
{
	char	   *sum;			/* malloc'd canonical text; NULL before the first value */
	int64_t		n;
	Oid			type;			/* NUMERICOID or INTERVALOID */
} NumericAggState;

/* interval_add -- PostgreSQL's interval_pl */
static Value
interval_add(const Value *a, const Value *b)
{
	Value		v = {.type = INTERVALOID};

	if (__builtin_add_overflow(a->u.iv.month, b->u.iv.month, &v.u.iv.month) ||
		__builtin_add_overflow(a->u.iv.day, b->u.iv.day, &v.u.iv.day) ||
		__builtin_add_overflow(a->u.iv.time, b->u.iv.time, &v.u.iv.time))
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("interval out of range"));
	return v;
}

static MemoryContext numeric_agg_context;

/* numeric_agg_run -- a step adding x, or (x NULL) the final call, its ERROR caught */
static void
numeric_agg_run(sqlite3_context *ctx, NumericAggState *st, sqlite3_value *x, bool avg)
{
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (numeric_agg_context == NULL)
		numeric_agg_context = AllocSetContextCreate(TopMemoryContext, "numeric aggregates");
	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		MemoryContextReset(numeric_agg_context);
		return;
	}
	PG_exception_stack = &local;
	MemoryContextSwitchTo(numeric_agg_context);

	bool		interval = st->type == INTERVALOID;
	Value		sum = {.type = NUMERICOID};

	sum.u.s.data = st->sum;
	sum.u.s.len = st->sum ? strlen(st->sum) : 0;
	if (interval && st->sum)
		sum = typio_input(INTERVALOID, st->sum, -1);
	if (x != NULL)
	{
		Value		v = from_sqlite(x, interval ? INTERVALOID : NUMERICOID, -1, false);
		Value		r = !st->sum ? v : interval ? interval_add(&sum, &v) : numeric_add(&sum, &v);
		char	   *copy = strdup(interval ? typio_output(&r, NULL) : r.u.s.data);

		if (copy == NULL)
			ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		free(st->sum);
		st->sum = copy;
		st->n++;
	}
	else
	{
		char	   *n = psprintf("%lld", (long long) st->n);
		Value		count = typio_string(NUMERICOID, n, strlen(n));
		Value		r = avg && !interval ? numeric_div(&sum, &count) : sum;

		if (avg && interval && !interval_scale(&sum.u.iv, (double) st->n, true, &r.u.iv))
			ereport(ERROR,
					errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					errmsg("interval out of range"));

		to_sqlite(&(SqliteSink) {.ctx = ctx}, &r);
	}
	MemoryContextSwitchTo(context);
	MemoryContextReset(numeric_agg_context);
	PG_exception_stack = save;
}

static void
rl_numeric_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	NumericAggState *st = sqlite3_aggregate_context(ctx, sizeof(NumericAggState));

	if (st != NULL)
		st->type = sqlite3_user_data(ctx) != NULL ? INTERVALOID : NUMERICOID;
	if (st != NULL && sqlite3_value_type(argv[0]) != SQLITE_NULL && !callback_failed)
		numeric_agg_run(ctx, st, argv[0], false);
}

static void
numeric_final(sqlite3_context *ctx, bool avg)
{
	NumericAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (callback_failed)
		final_error(ctx, ERRCODE_INTERNAL_ERROR, "an earlier error");
	else if (st == NULL || st->n == 0)
		sqlite3_result_null(ctx);
	else
		numeric_agg_run(ctx, st, NULL, avg);
	if (st != NULL)
		free(st->sum);
}

static void
rl_numeric_sum_final(sqlite3_context *ctx)
{
	numeric_final(ctx, false);
}

static void
rl_numeric_avg_final(sqlite3_context *ctx)
{
	numeric_final(ctx, true);
}

/*
 * rl_window_agg: the window form of the cache's own sum() and avg() (floats, numerics, intervals),
 * which SQLite can use over a window only with a step that takes a row out (xInverse)
 * and one that gives the value so far (xValue). It keeps the values of the frame, in
 * order, and computes each row's result from them as the plain aggregate would (as
 * PostgreSQL's float aggregates do, which have no inverse: a frame's rows are added in
 * order), so a frame of n rows costs n additions per row.
 */
typedef enum WindowAggKind
{
	WINDOW_FLOAT_SUM,
	WINDOW_FLOAT4_SUM,
	WINDOW_FLOAT_AVG,
	WINDOW_NUMERIC_SUM,
	WINDOW_NUMERIC_AVG,
	WINDOW_INTERVAL_SUM,
	WINDOW_INTERVAL_AVG
} WindowAggKind;

typedef struct WindowAggState
{
	sqlite3_value **values;		/* malloc'd; [head, n) are the frame's */
	int			head;
	int			n;
	int			cap;
} WindowAggState;

static void
rl_window_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));

	if (st == NULL)
		return;
	if (st->n == st->cap)
	{
		int			cap = st->cap ? st->cap * 2 : 16;
		sqlite3_value **values = realloc(st->values, sizeof(sqlite3_value *) * (size_t) cap);

		if (values == NULL)
		{
			sqlite3_result_error_nomem(ctx);
			return;
		}
		st->values = values;
		st->cap = cap;
	}
	st->values[st->n++] = sqlite3_value_dup(argv[0]);
}

static void
rl_window_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));

	if (st != NULL && st->head < st->n)
	{
		sqlite3_value_free(st->values[st->head]);
		st->values[st->head++] = NULL;
	}
}

static void
rl_window_agg_value(sqlite3_context *ctx)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));
	WindowAggKind kind = (WindowAggKind) (intptr_t) sqlite3_user_data(ctx);

	if (st == NULL)
		return;
	if (kind >= WINDOW_NUMERIC_SUM)
	{
		NumericAggState sum = {.type = kind >= WINDOW_INTERVAL_SUM ? INTERVALOID : NUMERICOID};

		for (int i = st->head; i < st->n && !callback_failed; i++)
			if (st->values[i] && sqlite3_value_type(st->values[i]) != SQLITE_NULL)
				numeric_agg_run(ctx, &sum, st->values[i], false);
		if (callback_failed)
			final_error(ctx, ERRCODE_INTERNAL_ERROR, "an earlier error");
		else if (sum.n == 0)
			sqlite3_result_null(ctx);
		else
			numeric_agg_run(ctx, &sum, NULL, kind == WINDOW_NUMERIC_AVG || kind == WINDOW_INTERVAL_AVG);
		free(sum.sum);
		return;
	}

	FloatAggState sum = {0};

	for (int i = st->head; i < st->n; i++)
		if (st->values[i])
			float_add(&sum, st->values[i], kind == WINDOW_FLOAT4_SUM);
	float_result(ctx, &sum, kind == WINDOW_FLOAT_AVG);
}

static void
rl_window_agg_final(sqlite3_context *ctx)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	rl_window_agg_value(ctx);
	for (int i = st->head; i < st->n; i++)
		sqlite3_value_free(st->values[i]);
	free(st->values);
}

/* ---------- arrays inside SQLite ---------- */

/*
 * Aggregates that keep their rows and sort them: SQLite 3.40 has no ORDER BY inside
 * aggregates, so each row brings its sort keys, each followed by its flags
 * (AGG_ORDER_DESC, AGG_ORDER_NULLS_FIRST: the analyser spells PostgreSQL's defaults,
 * NULLs last ascending and first descending), and the final function sorts, equal keys
 * keeping the rows' arrival order.
 *
 * rl_array_agg(element, array_type [, key, flags]...): array_agg(x [ORDER BY ...]), the
 * array of the rows' elements (each read as the element type from its canonical SQLite
 * form and kept in its text form); NULL when there are none. rl_array_sublink is
 * ARRAY(subquery), the same but the empty array when there are none.
 * rl_string_agg(value, delimiter [, key, flags]...): string_agg(x, d ORDER BY ...), the
 * non-NULL values, each after the delimiter its row brought but the first; NULL if none.
 * Their _distinct variants are DISTINCT's: the value is the first key, and one of the
 * rows of equal values (by their text) stays.
 */
typedef struct OrderedAggItem
{
	char	   *text;			/* malloc'd; NULL for a NULL element */
	char	   *delimiter;		/* string_agg's, malloc'd, or NULL */
	sqlite3_value **keys;		/* sqlite3_value_dup'd, nkeys of them */
	int			seq;			/* arrival: equal keys keep it */
} OrderedAggItem;

typedef struct OrderedAggState
{
	Oid			type;			/* array_agg's array type */
	int			head;			/* over a window: the items before it left the frame */
	int			n;
	int			nkeys;
	int		   *flags;			/* malloc'd, one per key */
	OrderedAggItem *items;		/* malloc'd: lives across SQLite calls */
} OrderedAggState;

/* ordered_agg_add -- a row's item (text malloc'd by the caller) with its keys, from argv[2] on */
static bool
ordered_agg_add(OrderedAggState *st, char *text, char *delimiter, int argc, sqlite3_value **argv)
{
	OrderedAggItem *items = realloc(st->items, sizeof(OrderedAggItem) * (size_t) (st->n + 1));
	int			nkeys = (argc - 2) / 2;

	if (items == NULL)
		return false;
	st->items = items;
	if (st->flags == NULL && nkeys > 0)
	{
		if ((st->flags = malloc(sizeof(int) * (size_t) nkeys)) == NULL)
			return false;
		st->nkeys = nkeys;
		for (int k = 0; k < nkeys; k++)
			st->flags[k] = sqlite3_value_int(argv[3 + 2 * k]);
	}
	items[st->n] = (OrderedAggItem) {text, delimiter, NULL, st->n};
	if (nkeys > 0 && (items[st->n].keys = calloc((size_t) nkeys, sizeof(sqlite3_value *))) == NULL)
		return false;
	for (int k = 0; k < nkeys; k++)
		items[st->n].keys[k] = sqlite3_value_dup(argv[2 + 2 * k]);
	st->n++;
	return true;
}

/* compare_key_values -- SQLite's order of two non-NULL sort keys */
static int
compare_key_values(sqlite3_value *x, sqlite3_value *y)
{
	int			tx = sqlite3_value_type(x),
				ty = sqlite3_value_type(y);

	if ((tx == SQLITE_INTEGER || tx == SQLITE_FLOAT) && (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT))
	{
		if (tx == SQLITE_INTEGER && ty == SQLITE_INTEGER)
			return (sqlite3_value_int64(x) > sqlite3_value_int64(y)) - (sqlite3_value_int64(x) < sqlite3_value_int64(y));
		return (sqlite3_value_double(x) > sqlite3_value_double(y)) - (sqlite3_value_double(x) < sqlite3_value_double(y));
	}
	if (tx != ty)
		return tx - ty;
	return strcmp((const char *) sqlite3_value_text(x), (const char *) sqlite3_value_text(y));
}

/* the state whose items qsort is sorting (a backend sorts one at a time) */
static const OrderedAggState *sorting;

static int
compare_items(const void *a, const void *b)
{
	const OrderedAggState *st = sorting;
	const OrderedAggItem *x = a,
			   *y = b;

	for (int k = 0; k < st->nkeys; k++)
	{
		bool		xnull = x->keys[k] == NULL || sqlite3_value_type(x->keys[k]) == SQLITE_NULL,
					ynull = y->keys[k] == NULL || sqlite3_value_type(y->keys[k]) == SQLITE_NULL;
		int			c;

		if (xnull || ynull)
			c = (xnull - ynull) * (st->flags[k] & AGG_ORDER_NULLS_FIRST ? -1 : 1);
		else
			c = compare_key_values(x->keys[k], y->keys[k]) * (st->flags[k] & AGG_ORDER_DESC ? -1 : 1);
		if (c != 0)
			return c;
	}
	return x->seq - y->seq;
}

/*
 * ordered_agg_sort -- the items in the keys' order; for the _distinct variants (DISTINCT:
 * the value is the first key) one item of equal values, the others freed
 */
static void
ordered_agg_sort(sqlite3_context *ctx, OrderedAggState *st)
{
	int			kept = 0;

	if (st->nkeys > 0)
	{
		sorting = st;
		qsort(st->items, (size_t) st->n, sizeof(OrderedAggItem), compare_items);
	}
	if (sqlite3_user_data(ctx) == NULL)
		return;
	for (int i = 0; i < st->n; i++)
	{
		OrderedAggItem *prev = kept ? &st->items[kept - 1] : NULL;

		if (prev && (prev->text == NULL ? st->items[i].text == NULL
					 : st->items[i].text && strcmp(prev->text, st->items[i].text) == 0))
		{
			free(st->items[i].text);
			free(st->items[i].delimiter);
			for (int k = 0; k < st->nkeys; k++)
				sqlite3_value_free(st->items[i].keys[k]);
			free(st->items[i].keys);
		}
		else
			st->items[kept++] = st->items[i];
	}
	st->n = kept;
}

static void
ordered_agg_free(OrderedAggState *st)
{
	for (int i = 0; i < st->n; i++)
	{
		free(st->items[i].text);
		free(st->items[i].delimiter);
		for (int k = 0; k < st->nkeys && st->items[i].keys; k++)
			sqlite3_value_free(st->items[i].keys[k]);
		free(st->items[i].keys);
	}
	free(st->items);
	free(st->flags);
}

static void
rl_array_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;
	char	   *text = NULL;

	if (st == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->type = (Oid) sqlite3_value_int64(argv[1]);
	if (sqlite3_value_type(argv[0]) != SQLITE_NULL && typio_lookup(st->type) != NULL)
	{
		if (sigsetjmp(local, 0) != 0)
		{
			callback_caught(ctx, save, context);
			return;
		}
		PG_exception_stack = &local;

		Value		v = from_sqlite(argv[0], typio_lookup(st->type)->elem, -1, true);

		text = strdup(typio_output(&v, NULL));
		PG_exception_stack = save;
	}
	if (!ordered_agg_add(st, text, NULL, argc, argv))
		sqlite3_result_error_nomem(ctx);
}

/* array_agg_result -- the array of the items in the frame */
static void
array_agg_result(sqlite3_context *ctx, OrderedAggState *st)
{
	ArrayElements elems = {st->n - st->head, palloc(sizeof(char *) * (size_t) (st->n - st->head + 1))};

	for (int i = st->head; i < st->n; i++)
		elems.items[i - st->head] = st->items[i].text;

	Value		v = typio_array_build(st->type, &elems);

	sqlite3_result_text64(ctx, v.u.s.data, v.u.s.len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void
rl_array_agg_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	ordered_agg_sort(ctx, st);
	array_agg_result(ctx, st);
	ordered_agg_free(st);
}

static void
rl_array_sublink_final(sqlite3_context *ctx)
{
	if (sqlite3_aggregate_context(ctx, 0) == NULL)
		sqlite3_result_text(ctx, "{}", 2, SQLITE_STATIC);
	else
		rl_array_agg_final(ctx);
}

static void
rl_string_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));
	const char *value = (const char *) sqlite3_value_text(argv[0]);
	const char *delimiter = (const char *) sqlite3_value_text(argv[1]);
	char	   *text = NULL,
			   *delim = NULL;

	if (st == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	/* a NULL is kept as an item (a window takes rows out one by one), and skipped */
	if ((value && (text = strdup(value)) == NULL) || (delimiter && (delim = strdup(delimiter)) == NULL) ||
		!ordered_agg_add(st, text, delim, argc, argv))
		sqlite3_result_error_nomem(ctx);
}

/* string_agg_result -- the values of the items in the frame, NULLs skipped */
static void
string_agg_result(sqlite3_context *ctx, OrderedAggState *st)
{
	RlBuf		out;
	bool		any = false;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int i = st->head; i < st->n; i++)
	{
		if (st->items[i].text == NULL)
			continue;
		if (any && st->items[i].delimiter)
			rlbuf_append_str(&out, st->items[i].delimiter);
		rlbuf_append_str(&out, st->items[i].text);
		any = true;
	}
	if (any)
		sqlite3_result_text64(ctx, (const char *) out.data, out.len, SQLITE_TRANSIENT, SQLITE_UTF8);
	else
		sqlite3_result_null(ctx);
	rlbuf_free(&out);
}

static void
rl_string_agg_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	ordered_agg_sort(ctx, st);
	string_agg_result(ctx, st);
	ordered_agg_free(st);
}

/*
 * rl_json_agg(element, delimiter [, key, flags]...): json_agg and jsonb_agg, the
 * elements (to_json's or to_jsonb's text, null for a NULL) in [], each after the
 * delimiter; rl_json_object_agg the members of json_build_object's one-member objects
 * in { }, as PostgreSQL's json_object_agg writes them. NULL over no rows.
 */
static void
rl_json_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));
	const char *value = (const char *) sqlite3_value_text(argv[0]);
	char	   *text = strdup(value ? value : "null"),
			   *delim = strdup((const char *) sqlite3_value_text(argv[1]));

	if (st == NULL || text == NULL || delim == NULL || !ordered_agg_add(st, text, delim, argc, argv))
		sqlite3_result_error_nomem(ctx);
}

static void
json_agg_final(sqlite3_context *ctx, const char *open, const char *close, int strip)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);
	RlBuf		out;

	if (st == NULL || st->n == 0)
	{
		sqlite3_result_null(ctx);
		return;
	}
	ordered_agg_sort(ctx, st);
	rlbuf_init_in(&out, CurrentMemoryContext);
	rlbuf_append_str(&out, open);
	for (int i = 0; i < st->n; i++)
	{
		if (i > 0)
			rlbuf_append_str(&out, st->items[i].delimiter);
		rlbuf_append(&out, st->items[i].text + strip, strlen(st->items[i].text) - 2 * (size_t) strip);
	}
	rlbuf_append_str(&out, close);
	sqlite3_result_text64(ctx, (const char *) out.data, out.len, SQLITE_TRANSIENT, SQLITE_UTF8);
	rlbuf_free(&out);
	ordered_agg_free(st);
}

static void
rl_json_agg_final(sqlite3_context *ctx)
{
	json_agg_final(ctx, "[", "]", 0);
}

static void
rl_json_object_agg_final(sqlite3_context *ctx)
{
	json_agg_final(ctx, "{ ", " }", 1);
}

/*
 * Over a window (no ORDER BY nor DISTINCT inside: PostgreSQL has none there), SQLite
 * takes the oldest row out (xInverse) and asks for the frame's value (xValue).
 */
static void
rl_ordered_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st == NULL || st->head >= st->n)
		return;
	free(st->items[st->head].text);
	free(st->items[st->head].delimiter);
	st->items[st->head].text = st->items[st->head].delimiter = NULL;
	st->head++;
}

/* over a window an empty frame's array_agg is NULL (ARRAY(subquery)'s '{}' is the plain form's) */
static void
rl_array_agg_value(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st == NULL || st->head >= st->n)
		sqlite3_result_null(ctx);
	else
		array_agg_result(ctx, st);
}

static void
rl_array_agg_window_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	rl_array_agg_value(ctx);
	if (st != NULL)
		ordered_agg_free(st);
}

static void
rl_string_agg_value(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st != NULL)
		string_agg_result(ctx, st);
}

/*
 * rl_bytea_agg(value, delimiter): string_agg(bytea, bytea), bytes kept as they are
 * (group_concat and rl_string_agg give text). The rows' delimiters and values are
 * one buffer, each row's share of it noted, so that over a window the oldest row
 * leaves from the front (xInverse) and the frame's value is the buffer from its first
 * value on: its own delimiter is not written.
 */
typedef struct ByteaAggRow
{
	size_t		delimiter_len,
				value_len;
	bool		isnull;
} ByteaAggRow;

typedef struct ByteaAggState
{
	char	   *data;
	size_t		len,
				cap,
				start;			/* where the rows still in the frame begin */
	ByteaAggRow *rows;
	int			n,
				head,
				rows_cap;
} ByteaAggState;

static bool
bytea_agg_append(ByteaAggState *st, const void *bytes, size_t len)
{
	if (st->len + len > st->cap)
	{
		size_t		cap = st->cap ? st->cap : 64;
		char	   *data;

		while (cap < st->len + len)
			cap *= 2;
		if ((data = realloc(st->data, cap)) == NULL)
			return false;
		st->data = data;
		st->cap = cap;
	}
	if (len)
		memcpy(st->data + st->len, bytes, len);
	st->len += len;
	return true;
}

static void
rl_bytea_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	ByteaAggState *st = sqlite3_aggregate_context(ctx, sizeof(ByteaAggState));
	bool		isnull = sqlite3_value_type(argv[0]) == SQLITE_NULL;
	size_t		dlen = isnull || sqlite3_value_type(argv[1]) == SQLITE_NULL ? 0 : (size_t) sqlite3_value_bytes(argv[1]),
				vlen = isnull ? 0 : (size_t) sqlite3_value_bytes(argv[0]);

	if (st == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (st->n == st->rows_cap)
	{
		int			cap = st->rows_cap ? st->rows_cap * 2 : 16;
		ByteaAggRow *rows = realloc(st->rows, sizeof(ByteaAggRow) * (size_t) cap);

		if (rows == NULL)
		{
			sqlite3_result_error_nomem(ctx);
			return;
		}
		st->rows = rows;
		st->rows_cap = cap;
	}
	if (!bytea_agg_append(st, dlen ? sqlite3_value_blob(argv[1]) : NULL, dlen) ||
		!bytea_agg_append(st, vlen ? sqlite3_value_blob(argv[0]) : NULL, vlen))
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->rows[st->n++] = (ByteaAggRow) {dlen, vlen, isnull};
}

static void
rl_bytea_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	ByteaAggState *st = sqlite3_aggregate_context(ctx, sizeof(ByteaAggState));

	if (st == NULL || st->head >= st->n)
		return;
	st->start += st->rows[st->head].delimiter_len + st->rows[st->head].value_len;
	st->head++;
}

static void
rl_bytea_agg_value(sqlite3_context *ctx)
{
	ByteaAggState *st = sqlite3_aggregate_context(ctx, 0);
	size_t		at;
	int			i;

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	for (i = st->head, at = st->start; i < st->n && st->rows[i].isnull; i++)
		at += st->rows[i].delimiter_len + st->rows[i].value_len;
	if (i == st->n)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_blob64(ctx, st->data + at + st->rows[i].delimiter_len,
							  st->len - at - st->rows[i].delimiter_len, SQLITE_TRANSIENT);
}

static void
rl_bytea_agg_final(sqlite3_context *ctx)
{
	ByteaAggState *st = sqlite3_aggregate_context(ctx, 0);

	rl_bytea_agg_value(ctx);
	if (st != NULL)
	{
		free(st->data);
		free(st->rows);
	}
}

/*
 * rl_array_json(array_text, element_type): the elements as a JSON array of their
 * canonical SQLite forms (numbers for the integer-held types and booleans, text
 * otherwise), for json_each() to iterate a set-returning function's result
 */
static char *
array_json(sqlite3_value **argv)
{
	const char *text = (const char *) sqlite3_value_text(argv[0]);
	Oid			elem = (Oid) sqlite3_value_int64(argv[1]);
	ArrayElements elems = typio_array_parse(text ? text : "{}");
	json_t	   *json = json_array();

	for (int i = 0; i < elems.n; i++)
	{
		Value		v = elems.items[i] ? typio_input(elem, elems.items[i], -1) : typio_null(elem);

		json_array_append_new(json, v.isnull ? json_null()
							  : integer_form(elem) ? json_integer(v.u.i)
							  : elem == BOOLOID ? json_integer(v.u.b)
							  : elem == FLOAT4OID || elem == FLOAT8OID ? json_real(v.u.f)
							  : json_string(elems.items[i]));
	}
	char	   *dump = json_dumps(json, JSON_COMPACT);
	char	   *result = pstrdup(dump);

	free(dump);
	json_decref(json);
	return result;
}

static void
rl_array_json(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	call_catching_errors(ctx, array_json, argv);
}


/*
 * rl_row_after(largest) -- the row id an updated row moves to: PostgreSQL writes an
 * updated row as a new version after the others, so a later scan meets it last, and
 * its ctid changes. An UPDATE sets each row's row id to this, with largest the
 * table's largest row id when the statement began (a subquery SQLite evaluates once):
 * the first row of the statement gets largest + 1, the next largest + 2, and so on.
 * Ids are never given twice in a statement, and only above the table's rows; a gap
 * (the same largest again after rows were deleted) changes no order.
 */
static void
rl_row_after(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static int64_t largest = INT64_MIN;
	static int64_t last;
	int64_t		now = sqlite3_value_type(argv[0]) == SQLITE_NULL ? 0 : sqlite3_value_int64(argv[0]);

	if (now != largest)
		largest = last = now;
	if (last == INT64_MAX)
	{
		sqlite3_result_error(ctx, "row ids exhausted", -1);
		return;
	}
	sqlite3_result_int64(ctx, ++last);
}

void
ExecRegisterSqliteFunctions(sqlite3 *db)
{
	ExecRegisterAclFunctions(db);
	sqlite3_create_function(db, "rl_eval", -1, SQLITE_UTF8, NULL, rl_eval, NULL, NULL);
	sqlite3_create_function(db, "rl_pack", -1, SQLITE_UTF8, NULL, rl_pack, NULL, NULL);
	sqlite3_create_function(db, "rl_subplan", -1, SQLITE_UTF8, NULL, ExecSubPlan, NULL, NULL);
	sqlite3_create_function(db, "rl_scalar", 1, SQLITE_UTF8, NULL, NULL, rl_scalar_step, rl_scalar_final);
	sqlite3_create_function(db, "rl_float_sum", 1, SQLITE_UTF8, NULL, NULL, rl_float_step,
							rl_float_sum_final);
	sqlite3_create_function(db, "rl_float4_sum", 1, SQLITE_UTF8, (void *) 1, NULL, rl_float_step,
							rl_float_sum_final);
	sqlite3_create_function(db, "rl_float_avg", 1, SQLITE_UTF8, NULL, NULL, rl_float_step,
							rl_float_avg_final);
	{
		static const char *const names[] = {"rl_float_sum_window", "rl_float4_sum_window", "rl_float_avg_window",
		"rl_numeric_sum_window", "rl_numeric_avg_window", "rl_interval_sum_window", "rl_interval_avg_window"};

		for (int i = 0; i < (int) (sizeof(names) / sizeof(names[0])); i++)
			sqlite3_create_window_function(db, names[i], 1, SQLITE_UTF8, (void *) (intptr_t) i,
										   rl_window_agg_step, rl_window_agg_final, rl_window_agg_value,
										   rl_window_agg_inverse, NULL);
	}
	sqlite3_create_function(db, "rl_interval_sum", 1, SQLITE_UTF8, (void *) (intptr_t) INTERVALOID, NULL,
							rl_numeric_step, rl_numeric_sum_final);
	sqlite3_create_function(db, "rl_interval_avg", 1, SQLITE_UTF8, (void *) (intptr_t) INTERVALOID, NULL,
							rl_numeric_step, rl_numeric_avg_final);
	sqlite3_create_function(db, "rl_numeric_sum", 1, SQLITE_UTF8, NULL, NULL, rl_numeric_step,
							rl_numeric_sum_final);
	sqlite3_create_function(db, "rl_numeric_avg", 1, SQLITE_UTF8, NULL, NULL, rl_numeric_step,
							rl_numeric_avg_final);
	sqlite3_create_function(db, "rl_array_agg", -1, SQLITE_UTF8, NULL, NULL, rl_array_agg_step,
							rl_array_agg_final);
	sqlite3_create_function(db, "rl_array_sublink", -1, SQLITE_UTF8, NULL, NULL, rl_array_agg_step,
							rl_array_sublink_final);
	sqlite3_create_function(db, "rl_string_agg", -1, SQLITE_UTF8, NULL, NULL, rl_string_agg_step,
							rl_string_agg_final);
	sqlite3_create_function(db, "rl_json_agg", -1, SQLITE_UTF8, NULL, NULL, rl_json_agg_step, rl_json_agg_final);
	sqlite3_create_function(db, "rl_json_object_agg", -1, SQLITE_UTF8, NULL, NULL, rl_json_agg_step,
							rl_json_object_agg_final);
	sqlite3_create_window_function(db, "rl_array_agg_window", -1, SQLITE_UTF8, NULL, rl_array_agg_step,
								   rl_array_agg_window_final, rl_array_agg_value, rl_ordered_agg_inverse, NULL);
	sqlite3_create_window_function(db, "rl_string_agg_window", -1, SQLITE_UTF8, NULL, rl_string_agg_step,
								   rl_string_agg_final, rl_string_agg_value, rl_ordered_agg_inverse, NULL);
	sqlite3_create_window_function(db, "rl_bytea_agg", 2, SQLITE_UTF8, NULL, rl_bytea_agg_step,
								   rl_bytea_agg_final, rl_bytea_agg_value, rl_bytea_agg_inverse, NULL);
	sqlite3_create_window_function(db, "rl_bytea_agg_window", 2, SQLITE_UTF8, NULL, rl_bytea_agg_step,
								   rl_bytea_agg_final, rl_bytea_agg_value, rl_bytea_agg_inverse, NULL);
	sqlite3_create_function(db, "rl_array_agg_distinct", -1, SQLITE_UTF8, (void *) 1, NULL,
							rl_array_agg_step, rl_array_agg_final);
	sqlite3_create_function(db, "rl_string_agg_distinct", -1, SQLITE_UTF8, (void *) 1, NULL,
							rl_string_agg_step, rl_string_agg_final);
	sqlite3_create_function(db, "rl_row_after", 1, SQLITE_UTF8, NULL, rl_row_after, NULL, NULL);
	sqlite3_create_function(db, "rl_array_json", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_array_json,
							NULL, NULL);
}

/* ---------- statements ---------- */

/* bound_statement -- s prepared with its values bound: CacheExecute's and a cursor's */
static sqlite3_stmt *
bound_statement(const SqlStatement *s, const Value *params)
{
	sqlite3_stmt *stmt = active_stmt = cached_statement(s->sql);	/* released if binding fails */

	for (int i = 0; i < s->nbinds; i++)
	{
		const Expr *e = s->binds[i];
		SqliteSink	sink = {.stmt = stmt, .index = i + 1};

		if (e->kind == EXPR_CONST)
			to_sqlite(&sink, &e->constval);
		else if (e->kind == EXPR_PARAM)
		{
			Value		v = ExecCastValue(&params[e->paramno], e->type, -1, true);

			to_sqlite(&sink, &v);
		}
		else
			sqlite3_bind_pointer(stmt, i + 1, (void *) e, "rl_expr", NULL);
	}
	callback_failed = false;
	return stmt;
}


/*
 * step_row -- the statement's next row into row (ncolumns values, in the current
 * memory context; with borrow, strings point into the statement's row, as
 * from_sqlite's); false at its end, when the statement is released. An ERROR
 * leaves it to CacheAbortStatement, as active_stmt.
 */
static bool
step_row(sqlite3_stmt *stmt, int ncolumns, const ResultColumn *columns, Value *row, bool borrow)
{
	int			rc = sqlite3_step(stmt);

	if (rc == SQLITE_ROW)
	{
		CHECK_FOR_INTERRUPTS();
		for (int c = 0; c < ncolumns; c++)
			row[c] = from_sqlite(sqlite3_column_value(stmt, c), columns[c].type, columns[c].typmod, borrow);
		return true;
	}
	active_stmt = NULL;
	if (rc != SQLITE_DONE)
	{
		rc = sqlite3_extended_errcode(cache_db);
		if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_NOTNULL)
			probe_failing_row(stmt, sqlite3_errmsg(cache_db));
		release_statement(stmt, true);
		sqlite_error(rc, "run a statement");
	}
	release_statement(stmt, false);
	return false;
}


int64_t
CacheExecute(const SqlStatement *s, const Value *params, int ncolumns,
			 const ResultColumn *columns, Value **rows, int64_t *nrows)
{
	sqlite3_stmt *stmt = bound_statement(s, params);
	int64_t		n = 0,
				cap = 16;
	Value	   *out = palloc(sizeof(Value) * (size_t) (cap * (ncolumns ? ncolumns : 1)));

	for (;;)
	{
		if (n == cap)
			out = repalloc(out, sizeof(Value) * (size_t) ((cap *= 2) * (ncolumns ? ncolumns : 1)));
		if (!step_row(stmt, ncolumns, columns, &out[n * ncolumns], false))
			break;
		n += ncolumns > 0;
	}

	int64_t		changes = sqlite3_changes64(cache_db);

	if (rows)
		*rows = out;
	if (nrows)
		*nrows = n;
	return changes;
}


CacheCursor *
CacheCursorOpen(const SqlStatement *s, const Value *params)
{
	if (!CacheCursorAllowed())
		return NULL;
	return (CacheCursor *) bound_statement(s, params);
}


bool
CacheCursorNext(CacheCursor *cursor, int ncolumns, const ResultColumn *columns, Value *row)
{
	return step_row((sqlite3_stmt *) cursor, ncolumns, columns, row, true);
}
