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

void		fdl_duckdb_close(FdlDuckDB *db);

#endif
