/*
 * fdl_duckdb.h: DuckDB, loaded at run time, for the publisher (doc/publishing.md).
 *
 * A published catalog is a DuckDB database file that DuckDB itself must write, so
 * that any DuckDB able to open it finds what it wrote. RockLake does not link
 * DuckDB: rocklake-admin publish dlopen()s libduckdb.so from a release directory
 * (contrib/install-deps.sh puts one per pinned DuckDB release under
 * $(libdir)/rocklake/duckdb/vX.Y.Z, with the ducklake and postgres_scanner
 * extensions of that release beside it) and declares the few functions of DuckDB's
 * C API it calls itself; that API is stable across releases. One process loads one
 * release: a second release is used from a child process (admin/fdl_catalog.h).
 * Extensions are loaded by path from the release directory, with autoloading and
 * autoinstalling off, so DuckDB never goes to the network.
 */
#ifndef RL_FDL_DUCKDB_H
#define RL_FDL_DUCKDB_H

#include <stdbool.h>

#include <jansson.h>

#include "common/rl_buffer.h"

/* the releases the publisher uses: 1.5.5 writes DuckLake 1.0, 1.4.4 DuckLake 0.3 */
#define FDL_DUCKDB_CURRENT "v1.5.5"
#define FDL_DUCKDB_DUCKLAKE_0_3 "v1.4.4"

typedef struct FdlDuckDB FdlDuckDB;

/*
 * The directory of release (e.g. "v1.5.5") under root (NULL: the ROCKLAKE_DUCKDB_DIR
 * environment variable, else the compiled-in default), in out.
 */
void		fdl_duckdb_release_dir(char *out, size_t size, const char *root, const char *release);

/*
 * An in-memory DuckDB of the release in dir, with its ducklake and postgres
 * extensions loaded. NULL with *errmsg (malloc'd) if the library or an extension is
 * missing or does not load.
 */
FdlDuckDB  *fdl_duckdb_open(const char *dir, char **errmsg);

/* Run sql (one or more statements); false with *errmsg (malloc'd, DuckDB's words). */
bool		fdl_duckdb_exec(FdlDuckDB *db, const char *sql, char **errmsg);

/*
 * Run a query: its rows as a JSON array of arrays, each value its text (DuckDB's
 * cast to VARCHAR) or null. NULL with *errmsg on error.
 */
json_t	   *fdl_duckdb_query(FdlDuckDB *db, const char *sql, char **errmsg);

/* Run sql in a DuckDB of its own of the release in dir, then close it; false with *errmsg. */
bool		fdl_duckdb_run(const char *dir, const char *sql, char **errmsg);

/* fdl_duckdb_exec and fdl_duckdb_query of a buffer's SQL, which they reset */
bool		fdl_duckdb_exec_buf(FdlDuckDB *db, RlBuf *sql, char **errmsg);
json_t	   *fdl_duckdb_query_buf(FdlDuckDB *db, RlBuf *sql, char **errmsg);

/* a query's row r's column c as a string ("" for NULL or a row it does not have) */
const char *fdl_duckdb_cell(const json_t *rows, size_t r, size_t c);

/*
 * The columns of the DuckLake tables of the attached database db (schema NULL: any),
 * as rows [table, column] in table then column order.
 */
json_t	   *fdl_duckdb_lake_columns(FdlDuckDB *db, const char *db_name, const char *schema, char **errmsg);

/* SQL text: a string literal of prefix (no quote in it) and s; an identifier of s */
void		fdl_sql_literal(RlBuf *buf, const char *prefix, const char *s);
void		fdl_sql_ident(RlBuf *buf, const char *s);

void		fdl_duckdb_close(FdlDuckDB *db);

#endif
