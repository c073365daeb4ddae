/*
 * stmt_cache.h: a connection's prepared SQLite statements kept by SQL text.
 *
 * Compiling SQL is most of what a small statement costs SQLite, and RockLake runs
 * the same texts again and again (a COPY's insert per row, DuckLake's scans, the
 * lookups behind every analysis, the writer's per-row reads and key checks, the
 * statements that apply a changeset). SQLite prepares a kept statement anew by
 * itself when the schema has changed, so keeping them is always safe.
 */
#ifndef RL_STMT_CACHE_H
#define RL_STMT_CACHE_H

#include <stdbool.h>
#include <sqlite3.h>

typedef struct StmtCache StmtCache;

StmtCache  *stmt_cache_create(sqlite3 *db, int size);
/* Finalizes every kept statement: before the connection closes. */
void		stmt_cache_destroy(StmtCache *cache);

/*
 * A statement for sql, reset and without bindings, pinned until released; NULL if
 * it does not compile (sqlite3_errmsg says why). A kept statement still in use (not
 * released) is not handed out twice: a second one is prepared.
 */
sqlite3_stmt *stmt_cache_get(StmtCache *cache, const char *sql);

/* Done with a statement: reset and kept, or finalized if it failed or is not kept. */
void		stmt_cache_release(StmtCache *cache, sqlite3_stmt *stmt, bool failed);

/*
 * Run sql, one statement that returns no rows (BEGIN, COMMIT, SAVEPOINT ...), through
 * the kept statements: SQLITE_OK, or the error's extended code.
 */
int			stmt_cache_run(StmtCache *cache, const char *sql);

/* The first column of sql's first row as an integer, or if_none (no row, or it failed). */
int64_t		stmt_cache_int64(StmtCache *cache, const char *sql, int64_t if_none);

/* How many statements the cache has compiled since it was made. */
unsigned long stmt_cache_compiled(const StmtCache *cache);

/* Call fn with the text of every kept statement, least recently kept first. */
void		stmt_cache_foreach_text(const StmtCache *cache, void (*fn) (const char *sql, void *arg),
									void *arg);

#endif
