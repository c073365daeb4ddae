/*
 * executor.h: running an analysed statement (parser/analyze.h): rows of Values,
 * then a command tag; the builtin functions and expression evaluation.
 *
 *   ExecutorStart/Next/CommandTag   run it: rows of Values, then a command tag
 *
 * Utility statements other than those over the cache are not the executor's: the
 * session runs them (tcop/utility.h).
 */
#ifndef RL_EXECUTOR_H
#define RL_EXECUTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "nodes/parsenodes.h"

typedef struct ExecState ExecState;

/*
 * Start running stmt with params (one Value per parameter, already typed);
 * to_completion: the caller reads every row before anything else runs (a read
 * over the cache then streams instead of collecting its rows first).
 */
ExecState  *ExecutorStart(AnalyzedStmt *stmt, const Value *params, bool to_completion);
/* An ExecState handing out rows made beforehand (nrows of stmt->ncolumns Values): EXPLAIN's. */
ExecState  *ExecutorStartRows(AnalyzedStmt *stmt, Value *rows, int64_t nrows);
/*
 * COPY FROM: insert the rows (stmt->ncolumns Values each); returns how many. *at is
 * the row being inserted meanwhile (for an error's context), -1 once done.
 */
int64_t		ExecutorInsertRows(AnalyzedStmt *stmt, const Value *rows, int64_t nrows, int64_t *at);
/* The next row (ncolumns Values valid until the next call), or false at the end. */
bool		ExecutorNext(ExecState *es, Value **row);
/* The CommandComplete tag once done; nrows is what this run returned. */
char	   *ExecutorCommandTag(ExecState *es, uint64_t nrows);

/* The builtin functions (name lookup ignores a pg_catalog qualification). */
const FuncDesc *LookupBuiltinFunction(const char *name, int nargs, const Oid *argtypes);
/* Whether a function of that name runs only in a query over the cache (reads the catalog or returns a set SQLite iterates). */
bool		FunctionNeedsCache(const char *name);
/* Evaluate an analysed expression (used by the executor and by functions). */
Value		ExecEvalExpr(ExecState *es, const Expr *expr);
/* Cast a value to another type as CAST(... AS type) does. */
/* explicit: a cast the query wrote, which cuts a too long varchar(n) rather than fail */
Value		ExecCastValue(const Value *v, Oid target, int32_t typmod, bool explicit);
/* iv * factor, or iv / factor (divide), as PostgreSQL's interval_mul and interval_div; false if out of range */
bool		interval_scale(const Interval *iv, double factor, bool divide, Interval *result);

#endif
