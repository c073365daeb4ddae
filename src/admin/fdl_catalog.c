/*
 * fdl_catalog.c: the frozen catalog, written by DuckDB (admin/fdl_catalog.h).
 *
 * Everything here is SQL run by the DuckDB release the caller names: the live lake
 * is attached through RockLake as a PostgreSQL database (READ_ONLY), the catalog
 * file as a plain DuckDB database while its rows are replaced, and as a DuckLake only
 * to have DuckLake make its tables and flush its inlined rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "admin/fdl_catalog.h"
#include "admin/fdl_duckdb.h"
#include "common/rl_buffer.h"

typedef struct Freeze
{
	const FdlFreeze *f;
	FdlDuckDB  *db;
	char	  **errmsg;
} Freeze;

static void
append_literal(RlBuf *buf, const char *s)
{
	fdl_sql_literal(buf, "", s);
}

static char *
errorf(const char *fmt, const char *arg)
{
	size_t		n = strlen(fmt) + strlen(arg) + 1;
	char	   *out = malloc(n);

	if (out)
		snprintf(out, n, fmt, arg);
	return out;
}

/* run the buffer's SQL and reset it */
static bool
exec_buf(Freeze *z, RlBuf *sql)
{
	return fdl_duckdb_exec_buf(z->db, sql, z->errmsg);
}

static json_t *
query_buf(Freeze *z, RlBuf *sql)
{
	return fdl_duckdb_query_buf(z->db, sql, z->errmsg);
}

/* the row r's column c as a string ("" for NULL) */
static const char *
cell(const json_t *rows, size_t r, size_t c)
{
	return fdl_duckdb_cell(rows, r, c);
}

static bool
is_null(const json_t *rows, size_t r, size_t c)
{
	return json_is_null(json_array_get(json_array_get(rows, r), c));
}

/* ATTACH the catalog file as rl_cat (plain DuckDB), or as the DuckLake rl_fz */
static bool
attach_catalog(Freeze *z, bool as_lake)
{
	RlBuf		sql;
	bool		ok;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "ATTACH ");
	if (as_lake)
	{
		fdl_sql_literal(&sql, "ducklake:", z->f->catalog_path);
		rlbuf_append_str(&sql, " AS rl_fz");
	}
	else
	{
		append_literal(&sql, z->f->catalog_path);
		rlbuf_append_str(&sql, " AS rl_cat");
	}
	ok = exec_buf(z, &sql);
	rlbuf_free(&sql);
	return ok;
}

/*
 * The columns of the DuckLake tables of database db (schema NULL: any), as rows
 * [table, column] in table then column order.
 */
static json_t *
table_columns(Freeze *z, const char *db, const char *schema)
{
	return fdl_duckdb_lake_columns(z->db, db, schema, z->errmsg);
}

/* whether rows (from table_columns) give table t the column c */
static bool
has_column(const json_t *rows, const char *t, const char *c)
{
	for (size_t i = 0; i < json_array_size(rows); i++)
		if (strcmp(cell(rows, i, 0), t) == 0 && strcmp(cell(rows, i, 1), c) == 0)
			return true;
	return false;
}

static bool
has_table(const json_t *rows, const char *t)
{
	for (size_t i = 0; i < json_array_size(rows); i++)
		if (strcmp(cell(rows, i, 0), t) == 0)
			return true;
	return false;
}

/* whether t is one of DuckLake's tables of inlined rows or inlined deletions */
static bool
is_inlined_table(const char *t)
{
	return (strncmp(t, "ducklake_inlined_data_", 22) == 0 && strcmp(t, "ducklake_inlined_data_tables") != 0) ||
		strncmp(t, "ducklake_inlined_delete_", 24) == 0;
}

/*
 * Step 2: each live DuckLake table into the catalog, cut at S. A table DuckLake made
 * in the empty lake gets the live rows by name; one it did not make (inlined rows)
 * is made from them.
 */
static bool
copy_live(Freeze *z)
{
	json_t	   *live = table_columns(z, "rl_live", z->f->metadata_schema);
	json_t	   *cat = live ? table_columns(z, "rl_cat", NULL) : NULL;
	RlBuf		sql;
	bool		ok = cat != NULL;
	int64_t		s = z->f->snapshot;

	rlbuf_init(&sql);
	for (size_t i = 0; ok && i < json_array_size(live); i++)
	{
		const char *t = cell(live, i, 0);

		if (i > 0 && strcmp(cell(live, i - 1, 0), t) == 0)
			continue;
		bool		made = has_table(cat, t);

		if (made)
		{
			rlbuf_append_str(&sql, "DELETE FROM rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, "; INSERT INTO rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, " BY NAME ");
		}
		else
		{
			rlbuf_append_str(&sql, "CREATE TABLE rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, " AS ");
		}
		if (has_column(live, t, "end_snapshot"))
			rlbuf_printf(&sql, "SELECT * REPLACE (CASE WHEN end_snapshot > %lld THEN NULL ELSE end_snapshot END "
						 "AS end_snapshot)", (long long) s);
		else
			rlbuf_append_str(&sql, "SELECT *");
		rlbuf_append_str(&sql, " FROM rl_live.");
		fdl_sql_ident(&sql, z->f->metadata_schema);
		rlbuf_append_str(&sql, ".");
		fdl_sql_ident(&sql, t);
		if (has_column(live, t, "begin_snapshot"))
			rlbuf_printf(&sql, " WHERE begin_snapshot <= %lld", (long long) s);
		else if (has_column(live, t, "snapshot_id"))
			rlbuf_printf(&sql, " WHERE snapshot_id <= %lld", (long long) s);
		ok = exec_buf(z, &sql);
	}
	/* nothing the published lake would delete; no stats of a file it does not have */
	if (ok)
	{
		rlbuf_append_str(&sql, "DELETE FROM rl_cat.ducklake_files_scheduled_for_deletion;");
		static const char *const per_file[] = {
			"ducklake_file_column_stats", "ducklake_file_partition_value", "ducklake_file_variant_stats"
		};

		for (size_t i = 0; i < sizeof(per_file) / sizeof(per_file[0]); i++)
			if (has_table(cat, per_file[i]))
				rlbuf_printf(&sql, "DELETE FROM rl_cat.%s WHERE data_file_id NOT IN "
							 "(SELECT data_file_id FROM rl_cat.ducklake_data_file);", per_file[i]);
		ok = exec_buf(z, &sql);
	}
	rlbuf_free(&sql);
	json_decref(live);
	json_decref(cat);
	return ok;
}

static bool
set_data_path(Freeze *z, const char *url)
{
	RlBuf		sql;
	bool		ok;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "UPDATE rl_cat.ducklake_metadata SET value = ");
	append_literal(&sql, url);
	rlbuf_append_str(&sql, " WHERE key = 'data_path' AND scope IS NULL");
	ok = exec_buf(z, &sql);
	rlbuf_free(&sql);
	return ok;
}

/*
 * Step 3's fold: the snapshot(s) the flush added go, S takes their next ids, a file
 * the flush dated after S is dated S, and the inlined tables, which the flush left
 * without a live row, are dropped.
 */
static bool
fold_flush(Freeze *z)
{
	json_t	   *cat = table_columns(z, "rl_cat", NULL);
	RlBuf		sql;
	bool		ok = cat != NULL;
	long long	s = (long long) z->f->snapshot;

	rlbuf_init(&sql);
	rlbuf_printf(&sql, "UPDATE rl_cat.ducklake_snapshot SET "
				 "next_catalog_id = (SELECT max(next_catalog_id) FROM rl_cat.ducklake_snapshot), "
				 "next_file_id = (SELECT max(next_file_id) FROM rl_cat.ducklake_snapshot) WHERE snapshot_id = %lld;"
				 "UPDATE rl_cat.ducklake_data_file SET begin_snapshot = %lld WHERE begin_snapshot > %lld;"
				 "UPDATE rl_cat.ducklake_delete_file SET begin_snapshot = %lld WHERE begin_snapshot > %lld;",
				 s, s, s, s, s);
	for (size_t i = 0; ok && i < json_array_size(cat); i++)
	{
		const char *t = cell(cat, i, 0);

		if (i > 0 && strcmp(cell(cat, i - 1, 0), t) == 0)
			continue;
		if (is_inlined_table(t))
		{
			json_t	   *left;

			if (has_column(cat, t, "end_snapshot"))
			{
				rlbuf_append_str(&sql, "SELECT count(*) FROM rl_cat.");
				fdl_sql_ident(&sql, t);
				rlbuf_append_str(&sql, " WHERE end_snapshot IS NULL");
				left = query_buf(z, &sql);
				if (left == NULL)
					ok = false;
				else if (strcmp(cell(left, 0, 0), "0") != 0)
				{
					*z->errmsg = errorf("inlined rows of %s were left after DuckLake's flush", t);
					ok = false;
				}
				json_decref(left);
			}
			rlbuf_append_str(&sql, "DROP TABLE rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, ";");
			continue;
		}
		if (has_column(cat, t, "snapshot_id"))
		{
			rlbuf_append_str(&sql, "DELETE FROM rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_printf(&sql, " WHERE snapshot_id > %lld;", s);
		}
		if (has_column(cat, t, "begin_snapshot"))
		{
			rlbuf_append_str(&sql, "DELETE FROM rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_printf(&sql, " WHERE begin_snapshot > %lld;", s);
		}
		if (has_column(cat, t, "end_snapshot"))
		{
			rlbuf_append_str(&sql, "UPDATE rl_cat.");
			fdl_sql_ident(&sql, t);
			rlbuf_printf(&sql, " SET end_snapshot = NULL WHERE end_snapshot > %lld;", s);
		}
	}
	if (ok)
	{
		rlbuf_append_str(&sql, "DELETE FROM rl_cat.ducklake_inlined_data_tables;");
		ok = exec_buf(z, &sql);
	}
	rlbuf_free(&sql);
	json_decref(cat);
	return ok;
}

/* the visible rows of a table with begin_snapshot/end_snapshot (after the cut: no end) */
#define VISIBLE(alias) alias ".end_snapshot IS NULL"

/* every file the catalog refers to: [path, bytes, relative] */
static json_t *
referenced_files(Freeze *z)
{
	RlBuf		sql;
	json_t	   *rows;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql,
					 "SELECT p.dir || f.path, f.file_size_bytes, f.path_is_relative AND p.relative FROM "
					 "(SELECT table_id, path, path_is_relative, file_size_bytes FROM rl_cat.ducklake_data_file "
					 " UNION ALL SELECT table_id, path, path_is_relative, file_size_bytes FROM rl_cat.ducklake_delete_file) f "
					 "JOIN " FDL_TABLE_PATHS " p USING (table_id) ORDER BY 1");
	rows = query_buf(z, &sql);
	rlbuf_free(&sql);
	return rows;
}

/* files.json's object: per table at S, its files in catalog order */
static json_t *
files_json(Freeze *z)
{
	RlBuf		sql;
	json_t	   *rows;
	json_t	   *tables = json_object();

	rlbuf_init(&sql);
	rlbuf_append_str(&sql,
					 "SELECT s.schema_name || '.' || t.table_name, p.dir || f.path, f.record_count, f.file_size_bytes, "
					 " f.footer_size, p.dir || d.path, d.delete_count, d.file_size_bytes, "
					 " (SELECT count(*) > 0 FROM (SELECT c.column_id FROM rl_cat.ducklake_column c "
					 "  WHERE c.table_id = t.table_id GROUP BY c.column_id HAVING count(DISTINCT c.column_name) > 1)) "
					 "FROM rl_cat.ducklake_table t JOIN rl_cat.ducklake_schema s ON s.schema_id = t.schema_id AND "
					 VISIBLE("s") " JOIN " FDL_TABLE_PATHS " p ON p.table_id = t.table_id "
					 "LEFT JOIN rl_cat.ducklake_data_file f ON f.table_id = t.table_id AND " VISIBLE("f")
					 " LEFT JOIN rl_cat.ducklake_delete_file d ON d.data_file_id = f.data_file_id AND " VISIBLE("d")
					 " WHERE " VISIBLE("t") " ORDER BY s.schema_id, t.table_id, f.file_order, f.data_file_id");
	rows = query_buf(z, &sql);
	rlbuf_free(&sql);
	if (rows == NULL)
	{
		json_decref(tables);
		return NULL;
	}
	for (size_t r = 0; r < json_array_size(rows); r++)
	{
		const char *key = cell(rows, r, 0);
		json_t	   *table = json_object_get(tables, key);

		if (table == NULL)
		{
			table = json_object();
			json_object_set_new(table, "files", json_array());
			if (strcmp(cell(rows, r, 8), "true") == 0)
				json_object_set_new(table, "renamed_columns", json_true());
			json_object_set_new(tables, key, table);
		}
		if (is_null(rows, r, 1))
			continue;			/* a table with no file */
		json_t	   *file = json_pack("{s:s, s:I, s:I}", "path", cell(rows, r, 1),
									 "rows", (json_int_t) strtoll(cell(rows, r, 2), NULL, 10),
									 "bytes", (json_int_t) strtoll(cell(rows, r, 3), NULL, 10));

		if (!is_null(rows, r, 4))
			json_object_set_new(file, "footer_bytes", json_integer(strtoll(cell(rows, r, 4), NULL, 10)));
		if (!is_null(rows, r, 5))
			json_object_set_new(file, "deletes",
								json_pack("{s:s, s:I, s:I}", "path", cell(rows, r, 5),
										  "rows", (json_int_t) strtoll(cell(rows, r, 6), NULL, 10),
										  "bytes", (json_int_t) strtoll(cell(rows, r, 7), NULL, 10)));
		json_array_append_new(json_object_get(table, "files"), file);
	}
	json_decref(rows);
	return json_pack("{s:o}", "tables", tables);
}

static json_t *
text_or_null(const json_t *rows, size_t r, size_t c)
{
	return is_null(rows, r, c) ? json_null() : json_string(cell(rows, r, c));
}

/* the catalog object of admin/fdl_dataset.h: tables with rows and columns, views */
static json_t *
dataset_catalog(Freeze *z)
{
	RlBuf		sql;
	json_t	   *tables = json_array();
	json_t	   *views = json_array();
	json_t	   *rows;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql,
					 "SELECT s.schema_name, t.table_name, "
					 " (SELECT coalesce(sum(f.record_count), 0) - coalesce(sum(d.delete_count), 0) "
					 "  FROM rl_cat.ducklake_data_file f LEFT JOIN rl_cat.ducklake_delete_file d "
					 "  ON d.data_file_id = f.data_file_id AND " VISIBLE("d") " WHERE f.table_id = t.table_id AND "
					 VISIBLE("f") "), "
					 " (SELECT value FROM rl_cat.ducklake_tag g WHERE g.object_id = t.table_id AND g.key = 'comment' AND "
					 VISIBLE("g") "), c.column_name, c.column_type, c.nulls_allowed, "
					 " (SELECT value FROM rl_cat.ducklake_column_tag g WHERE g.table_id = t.table_id AND "
					 "  g.column_id = c.column_id AND g.key = 'comment' AND " VISIBLE("g") ") "
					 "FROM rl_cat.ducklake_table t JOIN rl_cat.ducklake_schema s ON s.schema_id = t.schema_id AND "
					 VISIBLE("s") " LEFT JOIN rl_cat.ducklake_column c ON c.table_id = t.table_id AND c.parent_column IS NULL "
					 " AND " VISIBLE("c") " WHERE " VISIBLE("t")
					 " ORDER BY s.schema_id, t.table_id, c.column_order");
	rows = query_buf(z, &sql);
	for (size_t r = 0; rows && r < json_array_size(rows); r++)
	{
		json_t	   *table = json_array_get(tables, json_array_size(tables) - 1);

		if (r == 0 || strcmp(cell(rows, r, 0), cell(rows, r - 1, 0)) != 0 ||
			strcmp(cell(rows, r, 1), cell(rows, r - 1, 1)) != 0)
		{
			table = json_pack("{s:s, s:s, s:I, s:o, s:[]}", "schema", cell(rows, r, 0), "name", cell(rows, r, 1),
							  "rows", (json_int_t) strtoll(cell(rows, r, 2), NULL, 10),
							  "comment", text_or_null(rows, r, 3), "columns");
			json_array_append_new(tables, table);
		}
		if (!is_null(rows, r, 4))
			json_array_append_new(json_object_get(table, "columns"),
								  json_pack("{s:s, s:s, s:b, s:o}", "name", cell(rows, r, 4),
											"type", cell(rows, r, 5),
											"nullable", strcmp(cell(rows, r, 6), "true") == 0,
											"comment", text_or_null(rows, r, 7)));
	}
	json_decref(rows);
	if (rows)
	{
		rlbuf_append_str(&sql,
						 "SELECT s.schema_name, v.view_name, v.sql, (SELECT value FROM rl_cat.ducklake_tag g "
						 " WHERE g.object_id = v.view_id AND g.key = 'comment' AND " VISIBLE("g") ") "
						 "FROM rl_cat.ducklake_view v JOIN rl_cat.ducklake_schema s ON s.schema_id = v.schema_id AND "
						 VISIBLE("s") " WHERE " VISIBLE("v") " ORDER BY s.schema_id, v.view_id");
		rows = query_buf(z, &sql);
		for (size_t r = 0; rows && r < json_array_size(rows); r++)
			json_array_append_new(views, json_pack("{s:s, s:s, s:s, s:o}", "schema", cell(rows, r, 0),
												   "name", cell(rows, r, 1), "sql", cell(rows, r, 2),
												   "comment", text_or_null(rows, r, 3)));
		json_decref(rows);
	}
	rlbuf_free(&sql);
	if (rows == NULL)
	{
		json_decref(tables);
		json_decref(views);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "tables", tables, "views", views);
}

/* Step 4 and the manifest: data_path, the files, each one's path relative to it */
static json_t *
finish(Freeze *z)
{
	json_t	   *files = NULL,
			   *list = json_array(),
			   *fj = NULL,
			   *catalog = NULL;

	if (!set_data_path(z, z->f->data_url) || (files = referenced_files(z)) == NULL)
		goto fail;
	for (size_t r = 0; r < json_array_size(files); r++)
	{
		if (strcmp(cell(files, r, 2), "true") != 0)
		{
			*z->errmsg = errorf("the lake refers to the file \"%s\" by an absolute path: a published version "
								"has every file under its data folder", cell(files, r, 0));
			goto fail;
		}
		json_array_append_new(list, json_pack("{s:s, s:I}", "path", cell(files, r, 0),
											  "bytes", (json_int_t) strtoll(cell(files, r, 1), NULL, 10)));
	}
	if ((fj = files_json(z)) == NULL || (catalog = dataset_catalog(z)) == NULL)
		goto fail;
	json_decref(files);
	return json_pack("{s:o, s:o, s:o}", "files", list, "files_json", fj, "catalog", catalog);

fail:
	json_decref(files);
	json_decref(list);
	json_decref(fj);
	json_decref(catalog);
	return NULL;
}

json_t *
fdl_freeze_catalog(const FdlFreeze *f, char **errmsg)
{
	Freeze		z = {.f = f, .errmsg = errmsg};
	RlBuf		sql;
	json_t	   *manifest = NULL;
	char		stage[4200];
	bool		ok;

	*errmsg = NULL;
	z.db = fdl_duckdb_open(f->duckdb_dir, errmsg);
	if (z.db == NULL)
		return NULL;
	snprintf(stage, sizeof(stage), "%s/", f->stage_dir);
	rlbuf_init(&sql);
	/* 1: the file, of the pinned storage version, and an empty lake in it */
	rlbuf_append_str(&sql, "ATTACH ");
	append_literal(&sql, f->catalog_path);
	rlbuf_append_str(&sql, " AS rl_cat (STORAGE_VERSION '" FDL_STORAGE_VERSION "'); DETACH rl_cat; ATTACH ");
	fdl_sql_literal(&sql, "ducklake:", f->catalog_path);
	rlbuf_append_str(&sql, " AS rl_fz (DATA_PATH ");
	append_literal(&sql, stage);
	rlbuf_append_str(&sql, "); DETACH rl_fz; ATTACH ");
	append_literal(&sql, f->conninfo);
	rlbuf_append_str(&sql, " AS rl_live (TYPE postgres, READ_ONLY)");
	ok = exec_buf(&z, &sql) && attach_catalog(&z, false);
	/* 2: the live rows, cut at S; 3: the flush, in the copy, then its snapshot folded */
	ok = ok && copy_live(&z) && set_data_path(&z, stage) &&
		fdl_duckdb_exec(z.db, "DETACH rl_cat; DETACH rl_live", errmsg) && attach_catalog(&z, true) &&
		fdl_duckdb_exec(z.db, "CALL ducklake_flush_inlined_data('rl_fz'); DETACH rl_fz", errmsg) &&
		attach_catalog(&z, false) && fold_flush(&z);
	/* 4 */
	if (ok)
		manifest = finish(&z);
	if (manifest && !fdl_duckdb_exec(z.db, "CHECKPOINT rl_cat; DETACH rl_cat", errmsg))
	{
		json_decref(manifest);
		manifest = NULL;
	}
	rlbuf_free(&sql);
	fdl_duckdb_close(z.db);
	return manifest;
}

bool
fdl_migrate_catalog(const char *duckdb_dir, const char *path, char **errmsg)
{
	const char *slash = strrchr(path, '/');
	char	   *folder;
	RlBuf		sql;
	bool		ok;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "ATTACH ");
	fdl_sql_literal(&sql, "ducklake:", path);

	/*
	 * the data path overridden by the catalog's own folder, for this attachment only:
	 * DuckDB refuses to attach a catalog whose data path is on S3 without its httpfs
	 * extension, which the migration, reading no data file, does not need
	 */
	rlbuf_append_str(&sql, " AS rl_fz (AUTOMATIC_MIGRATION true, OVERRIDE_DATA_PATH true, DATA_PATH ");
	folder = slash ? strndup(path, slash - path + 1) : strdup("./");
	append_literal(&sql, folder);
	free(folder);
	rlbuf_append_str(&sql, "); DETACH rl_fz");
	ok = fdl_duckdb_run(duckdb_dir, rlbuf_cstr(&sql), errmsg);
	rlbuf_free(&sql);
	return ok;
}
