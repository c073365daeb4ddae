/*
 * fdl_downgrade.h: the DuckLake 0.3 catalog of a version of a DuckLake 1.0 lake
 * (doc/publishing.md, "A 0.3 catalog of a 1.0 lake").
 *
 * FDL lets a writer add a catalog of an older format where that format can hold the
 * version, so that readers of the older DuckDB (1.4.x, DuckLake 0.3) open it too.
 * fdl_downgrade_catalog has DuckDB 1.4.4 make an empty 0.3 lake in a new file, then
 * copies the rows of the frozen 1.0 catalog (admin/fdl_catalog.h) into it, column by
 * column, reversing what DuckLake's own migration from 0.3 to 1.0 does:
 *   - ducklake_data_file.partial_max N is 0.3's partial_file_info 'partial_max:N';
 *   - ducklake_schema_versions' rows per table are 0.3's global rows: for each
 *     schema version, the first snapshot that has it (what DuckDB 1.4.4 writes, one
 *     row per schema change, views and schemas included);
 *   - a delete file of 1.0 that holds the deletions of several snapshots, each row
 *     with its snapshot (DuckDB 1.5.5 writes them whatever partial_max says: every
 *     delete file is looked into), becomes one 0.3 delete file per snapshot, each
 *     holding the deletions up to it and ended by the next: 0.3 reads every row of a
 *     delete file as deleted. The new files are written by DuckDB into stage_dir
 *     under their paths relative to data_path; the last one is the 1.0 file itself;
 *   - ducklake_metadata's version is 0.3; default_value_type 'literal' is 0.3's only
 *     kind of default, and a literal has no dialect in 0.3 (DuckDB 1.5.5 writes
 *     'duckdb' for every column); no default, which 1.0 writes as the text 'NULL', is
 *     NULL in 0.3;
 *   - a view's SQL names its own lake {DUCKLAKE_CATALOG} in 1.0, which 1.5.5 replaces
 *     with the name the reader attached it as; 0.3 keeps the writer's name, so that a
 *     1.4.4 reader must attach the lake under it. The placeholder is left out instead
 *     ("{DUCKLAKE_CATALOG}.t" is "t"), which 1.4.4 looks up in the view's own lake,
 *     whatever the reader named it.
 * A catalog that uses anything else 0.3 cannot hold gets no 0.3 file: rows in a table
 * 0.3 lacks (macros, sort orders, variant statistics), a value in a column 0.3 lacks
 * (a default that is not a literal), a column type 0.3 lacks (variant, time_ns),
 * a 1.0-only option (auto_compact, sort_on_insert, write_deletion_vectors), a data or
 * delete file not in Parquet, or a delete file encrypted or in no search folder.
 */
#ifndef RL_FDL_DOWNGRADE_H
#define RL_FDL_DOWNGRADE_H

#include <stdbool.h>

#include <jansson.h>

typedef struct FdlDowngrade
{
	const char *duckdb_dir;		/* DuckDB 1.4.4 (FDL_DUCKDB_DUCKLAKE_0_3) */
	const char *from_path;		/* the frozen 1.0 catalog, only read */
	const char *to_path;		/* the 0.3 catalog to write (must not exist) */
	const char *stage_dir;		/* where new delete files are written */
	const char *const *search_dirs; /* local folders holding the data files by their
									 * relative paths; NULL-terminated */
} FdlDowngrade;

/*
 * Copy the tables of the DuckDB file from_path into the new file to_path, of storage
 * version FDL_STORAGE_VERSION, with the DuckDB in duckdb_dir (1.5.5): DuckLake 1.0
 * keeps its catalog file in DuckDB's latest storage, which 1.4.4 cannot open, so the
 * frozen 1.0 catalog is read by 1.4.4 through this copy. false with *errmsg.
 */
bool		fdl_downgrade_storage(const char *duckdb_dir, const char *from_path, const char *to_path,
								  char **errmsg);

/*
 * Write to_path from from_path, fdl_downgrade_storage's copy of the 1.0 catalog; the
 * new files it refers to, [{"path", "bytes"}] (new ref), paths relative to data_path.
 * NULL with *why_not (malloc'd: what 0.3 cannot hold; nothing written but maybe a
 * partial to_path, which the caller removes), or with *errmsg.
 */
json_t	   *fdl_downgrade_catalog(const FdlDowngrade *d, char **why_not, char **errmsg);

#endif
