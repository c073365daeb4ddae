/*
 * sqlite_exec.h: the SQLite side of execution (sqlite_exec.c): the analyser's
 * SqlStatements run on the catalog cache's connection, and the SQLite functions
 * the executor registers on it.
 */
#ifndef RL_SQLITE_EXEC_H
#define RL_SQLITE_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "nodes/primnodes.h"


/*
 * Run one statement; rows (ncolumns typed as columns) are collected in the
 * current memory context. Returns the number of rows it changed.
 */
int64_t		CacheExecute(const SqlStatement *stmt, const Value *params, int ncolumns,
						 const ResultColumn *columns, Value **rows, int64_t *nrows);

/*
 * A read run row by row instead, so that a large result (DuckDB's scan of a
 * table's data files) never sits in the backend's memory whole: Open returns NULL
 * when it cannot (inside a capture of the message's writes, whose end would cut
 * it short: collect with CacheExecute then); Next fills row in the current memory
 * context and returns false at the end, when the cursor is gone. Its strings
 * point into the cursor's row, so a row is good until the next call. A cursor must
 * be read to its end within the statement; an ERROR in between closes it.
 */
typedef struct CacheCursor CacheCursor;
CacheCursor *CacheCursorOpen(const SqlStatement *stmt, const Value *params);
bool		CacheCursorNext(CacheCursor *cursor, int ncolumns, const ResultColumn *columns, Value *row);

/* The executor's SQLite functions (rl_eval, the aggregates), on each connection the cache opens (cache_hooks.opened). */
void		ExecRegisterSqliteFunctions(sqlite3 *db);
/* Those of ACLs (sqlite_acl.c): rl_acl_update, rl_acl_text, rl_database_owner. */
void		ExecRegisterAclFunctions(sqlite3 *db);

#endif
