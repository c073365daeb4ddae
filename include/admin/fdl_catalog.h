/*
 * fdl_catalog.h: the frozen catalog of a published version (doc/publishing.md),
 * written by DuckDB (admin/fdl_duckdb.h) from a live lake read through RockLake as
 * a PostgreSQL client.
 *
 * fdl_freeze_catalog makes, in one DuckDB of the release that writes the live
 * lake's DuckLake format, the file catalog_path:
 *   1. an empty DuckDB file of storage version FDL_STORAGE_VERSION, then an empty
 *      lake in it (ATTACH 'ducklake:...'), so the metadata tables are exactly those
 *      of the release's format;
 *   2. every DuckLake table of the live lake (its metadata schema, attached TYPE
 *      postgres, READ_ONLY) copied in, cut at the snapshot S: rows that began after S
 *      left out, rows that ended after S with no end, snapshot-keyed rows after S
 *      left out, nothing scheduled for deletion, no stats of a file left out;
 *   3. the inlined rows written out as Parquet files into stage_dir by DuckLake's own
 *      ducklake_flush_inlined_data on the copy, which keeps each row's snapshots in
 *      its file (DuckLake 0.3 and 1.0 alike); the one snapshot the flush adds is then
 *      folded away (its ids carried to S, its rows removed), and the emptied inlined
 *      tables dropped: the frozen catalog holds no inlined row;
 *   4. data_path set to the published data folder's URL; every file path must be
 *      relative to it (an absolute one is refused).
 * The live lake is never written: the flush happens in the copy only, so publishing
 * adds no snapshot to the live lake. The lake must not be expired at S meanwhile,
 * which the server's publishing pin guarantees (doc/publishing.md).
 *
 * Its manifest (a JSON object) tells the publisher the rest:
 *   "files":    [{"path", "bytes"}]  every data and delete file the catalog refers
 *               to, path relative to data_path
 *   "files_json": files.json's object
 *   "catalog":  the catalog object fdl_dataset_build takes (admin/fdl_dataset.h)
 */
#ifndef RL_FDL_CATALOG_H
#define RL_FDL_CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

/* the DuckDB storage format of every catalog written: both pinned releases open it */
#define FDL_STORAGE_VERSION "v1.4.0"

typedef struct FdlFreeze
{
	const char *duckdb_dir;		/* the DuckDB release to write with */
	const char *conninfo;		/* the live lake's database on the RockLake server */
	const char *metadata_schema;	/* its DuckLake metadata schema (public) */
	int64_t		snapshot;		/* S */
	const char *catalog_path;	/* the file to write (must not exist) */
	const char *stage_dir;		/* where the flush writes the inlined rows' files */
	const char *data_url;		/* the published data folder, ending in '/' */
} FdlFreeze;

/* the manifest (new ref), or NULL with *errmsg (malloc'd) */
json_t	   *fdl_freeze_catalog(const FdlFreeze *f, char **errmsg);

/*
 * Have the DuckDB in duckdb_dir migrate the catalog file at path (a copy of a
 * DuckLake 0.3 one) to its own format (AUTOMATIC_MIGRATION). false with *errmsg.
 */
bool		fdl_migrate_catalog(const char *duckdb_dir, const char *path, char **errmsg);

/*
 * A subquery of each table's files' folder relative to data_path, in the catalog
 * attached as rl_cat: [table_id, dir (its schema's path + its own), relative]
 */
#define FDL_TABLE_PATHS \
	"(SELECT t.table_id, coalesce(s.path, '') || coalesce(t.path, '') AS dir, " \
	" coalesce(s.path_is_relative, true) AND coalesce(t.path_is_relative, true) AS relative " \
	" FROM (SELECT table_id, arg_max(schema_id, begin_snapshot) AS schema_id, arg_max(path, begin_snapshot) AS path, " \
	"  arg_max(path_is_relative, begin_snapshot) AS path_is_relative FROM rl_cat.ducklake_table GROUP BY table_id) t " \
	" JOIN (SELECT schema_id, arg_max(path, begin_snapshot) AS path, arg_max(path_is_relative, begin_snapshot) " \
	"  AS path_is_relative FROM rl_cat.ducklake_schema GROUP BY schema_id) s USING (schema_id))"

#endif
