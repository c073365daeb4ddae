/*
 * cache_sqlite.h: the catalog cache's SQLite connection as the code that runs
 * statements on it sees it (cache.c, cache_sqlite.c, and the executor's SQLite
 * side, executor/sqlite_exec.c): the connection, its kept statements, SQLite's
 * errors raised as PostgreSQL's, values in their canonical SQLite forms
 * (catalog_cache.h), and ERRORs inside SQLite callbacks.
 */
#ifndef RL_CACHE_SQLITE_H
#define RL_CACHE_SQLITE_H

#include <setjmp.h>
#include <stdbool.h>

#include <sqlite3.h>

#include "common/rl_buffer.h"
#include "utils/adt/typio.h"
#include "utils/mcxt.h"

/* the backend's connection to its cache, NULL if there is none (cache.c) */
extern sqlite3 *cache_db;
/* the statement CacheExecute or a cursor runs, released by CacheAbortStatement if an ERROR cuts it short */
extern sqlite3_stmt *active_stmt;
/* an ERROR (already reported) inside a SQLite callback, raised once SQLite returns (sqlite_error) */
extern bool callback_failed;

/* a prepared statement for sql from the connection's kept ones, reset; done with it */
sqlite3_stmt *cached_statement(const char *sql);
void		release_statement(sqlite3_stmt *stmt, bool failed);
/* for clean-up paths that must not fail */
void		exec_quietly(const char *sql);
/* Whether a read may run as a cursor (CacheCursorOpen): no capture or statement on temporary tables is open, and no other statement runs. */
bool		CacheCursorAllowed(void);

/* an ERROR for a failed SQLite call, with PostgreSQL's SQLSTATE where one fits */
void		sqlite_error(int rc, const char *what);
/* the row stmt was writing when SQLite refused it (its message in msg), for sqlite_error's DETAIL */
void		probe_failing_row(sqlite3_stmt *stmt, const char *msg);

/* a name of the cache read back as PostgreSQL's, palloc'd */
char	   *pg_name(const char *name);
/* the type a column's declared type names ("varchar(10)", "numeric_text(12,2)", "jsonb_text", "float8_blob") */
Oid			decl_type(const char *decl, int32_t *typmod);

/* the types held as Value.u.i, and as INTEGER in SQLite */
bool		integer_form(Oid type);
/*
 * to_sqlite -- a Value in its canonical SQLite form, through one of the two
 * setters (bind or result) the caller passes
 */
typedef struct SqliteSink
{
	sqlite3_stmt *stmt;
	int			index;
	sqlite3_context *ctx;
} SqliteSink;
void		to_sqlite(const SqliteSink *sink, const Value *v);
/*
 * a SQLite value as a Value of type; with borrow, a string points into sv itself
 * instead of a copy: valid until the statement steps again
 */
Value		from_sqlite(sqlite3_value *sv, Oid type, int32_t typmod, bool borrow);
/* a constant written into the SQL as SQLite reads it back; false where it cannot be */
bool		CacheSqlLiteral(RlBuf *out, const Value *v);

/*
 * An ERROR inside a SQLite callback: callback_caught makes it SQLite's error now and
 * ours after it; call_catching_errors runs a SQLite function's body that may raise one
 * and returns its result as text, NULL for NULL.
 */
void		callback_caught(sqlite3_context *ctx, sigjmp_buf *save, MemoryContext context);
void		call_catching_errors(sqlite3_context *ctx, char *(*body) (sqlite3_value **argv), sqlite3_value **argv);

/* the cache's own SQLite functions (for pg_catalog), on each connection CacheOpen makes */
void		cache_register_functions(sqlite3 *db);

#endif
