/*
 * fdl_downgrade.c: a DuckLake 0.3 catalog from a frozen 1.0 one (admin/fdl_downgrade.h).
 *
 * All of it is SQL run by DuckDB 1.4.4 (but the copy of the 1.0 catalog into a file
 * 1.4.4 opens, by 1.5.5): the 1.0 catalog is attached as a plain DuckDB file (rl_cat,
 * READ_ONLY), the new file first as a DuckLake, so that 1.4.4 makes its 0.3 tables
 * and their first rows, then as a plain file (rl_d03) whose tables are emptied and
 * filled from rl_cat's. What 0.3 cannot hold is looked for first, from
 * the two files' own columns (duckdb_columns), so that a column or table a later
 * release adds is refused unless it is empty, never dropped silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admin/fdl_catalog.h"
#include "admin/fdl_downgrade.h"
#include "admin/fdl_duckdb.h"
#include "common/rl_buffer.h"

typedef struct Down
{
	const FdlDowngrade *d;
	FdlDuckDB  *db;
	char	  **why_not;
	char	  **errmsg;
	json_t	   *from;			/* rl_cat's [table, column] */
	json_t	   *to;				/* rl_d03's */
	json_t	   *new_files;		/* [{path, bytes}] */
	RlBuf		delete_insert;	/* INSERT of rl_cat's delete files into rl_d03, to be ended by WHERE */
	long long	next_file_id;
} Down;

/* a 1.0 column 0.3 lacks whose values are mapped, not refused */
static const char *const mapped_columns[][2] = {
	{"ducklake_data_file", "partial_max"},	/* partial_file_info */
	{"ducklake_delete_file", "partial_max"},	/* split files */
	{"ducklake_schema_versions", "table_id"},	/* global rows */
	{"ducklake_column", "default_value_type"},	/* checked: 'literal' */
	{"ducklake_column", "default_value_dialect"},	/* a literal's, 'duckdb': none in 0.3 */
};

/* checks of values 0.3 cannot hold: each a query of one row with the reason, or none */
static const char *const value_checks[] = {
	"SELECT 'a column default that is not a literal (default_value_type ' || min(default_value_type) || ')' "
	"FROM rl_cat.ducklake_column WHERE default_value_type <> 'literal' HAVING count(*) > 0",
	"SELECT 'a column of type ' || min(column_type) || ', which DuckLake 0.3 does not have' "
	"FROM rl_cat.ducklake_column WHERE lower(column_type) IN ('variant', 'time_ns', 'unknown') HAVING count(*) > 0",
	"SELECT 'the option ' || min(key) || ', which DuckLake 0.3 does not have' FROM rl_cat.ducklake_metadata "
	"WHERE key IN ('auto_compact', 'sort_on_insert', 'write_deletion_vectors') HAVING count(*) > 0",
	"SELECT 'a data file in ' || min(file_format) || ', not Parquet' FROM rl_cat.ducklake_data_file "
	"WHERE lower(file_format) <> 'parquet' HAVING count(*) > 0",
	"SELECT 'a delete file in ' || min(format) || ', not Parquet' FROM rl_cat.ducklake_delete_file "
	"WHERE lower(format) <> 'parquet' HAVING count(*) > 0",
	"SELECT 'an encrypted delete file' FROM rl_cat.ducklake_delete_file WHERE encryption_key IS NOT NULL "
	"HAVING count(*) > 0",
};

/* whether rows of [table, column] have table t (and column c unless NULL) */
static bool
listed(const json_t *rows, const char *t, const char *c)
{
	for (size_t i = 0; i < json_array_size(rows); i++)
		if (strcmp(fdl_duckdb_cell(rows, i, 0), t) == 0 && (c == NULL || strcmp(fdl_duckdb_cell(rows, i, 1), c) == 0))
			return true;
	return false;
}

/* run a check query; false with *why_not if it gave a reason, or on error */
static bool
passes(Down *g, RlBuf *sql)
{
	json_t	   *rows = fdl_duckdb_query_buf(g->db, sql, g->errmsg);
	bool		ok = rows != NULL && json_array_size(rows) == 0;

	if (rows && !ok)
		*g->why_not = strdup(fdl_duckdb_cell(rows, 0, 0));
	json_decref(rows);
	return ok;
}

static bool
is_mapped(const char *t, const char *c)
{
	for (size_t i = 0; i < sizeof(mapped_columns) / sizeof(mapped_columns[0]); i++)
		if (strcmp(mapped_columns[i][0], t) == 0 && strcmp(mapped_columns[i][1], c) == 0)
			return true;
	return false;
}

/* whether 0.3 can hold every row of rl_cat: false with *why_not, or *errmsg */
static bool
representable(Down *g)
{
	RlBuf		sql;
	bool		ok = true;

	rlbuf_init(&sql);
	for (size_t i = 0; ok && i < json_array_size(g->from); i++)
	{
		const char *t = fdl_duckdb_cell(g->from, i, 0);
		const char *c = fdl_duckdb_cell(g->from, i, 1);
		bool		first = i == 0 || strcmp(fdl_duckdb_cell(g->from, i - 1, 0), t) != 0;

		if (!listed(g->to, t, NULL))
		{
			if (!first)
				continue;
			rlbuf_printf(&sql, "SELECT 'rows in %s, a table DuckLake 0.3 does not have' FROM rl_cat.", t);
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, " HAVING count(*) > 0");
		}
		else if (listed(g->to, t, c) || is_mapped(t, c))
			continue;
		else
		{
			rlbuf_printf(&sql, "SELECT 'values in %s.%s, a column DuckLake 0.3 does not have' FROM rl_cat.", t, c);
			fdl_sql_ident(&sql, t);
			rlbuf_append_str(&sql, " WHERE ");
			fdl_sql_ident(&sql, c);
			rlbuf_append_str(&sql, " IS NOT NULL HAVING count(*) > 0");
		}
		ok = passes(g, &sql);
	}
	for (size_t i = 0; ok && i < sizeof(value_checks) / sizeof(value_checks[0]); i++)
	{
		rlbuf_append_str(&sql, value_checks[i]);
		ok = passes(g, &sql);
	}
	rlbuf_free(&sql);
	return ok;
}

/* rl_d03's column c of table t, from rl_cat's */
static void
append_source(RlBuf *sql, const Down *g, const char *t, const char *c)
{
	if (strcmp(t, "ducklake_metadata") == 0 && strcmp(c, "value") == 0)
		rlbuf_append_str(sql, "CASE WHEN key = 'version' AND scope IS NULL THEN '0.3' ELSE value END");
	else if (strcmp(t, "ducklake_column") == 0 && strcmp(c, "default_value") == 0)
		rlbuf_append_str(sql, "nullif(default_value, 'NULL')");	/* 1.0's text of no default */
	else if (strcmp(t, "ducklake_view") == 0 && strcmp(c, "sql") == 0)
		rlbuf_append_str(sql, "replace(sql, '{DUCKLAKE_CATALOG}.', '')");
	else if (strcmp(t, "ducklake_data_file") == 0 && strcmp(c, "partial_file_info") == 0)
		rlbuf_append_str(sql, "CASE WHEN partial_max IS NOT NULL THEN 'partial_max:' || partial_max END");
	else if (listed(g->from, t, c))
		fdl_sql_ident(sql, c);
	else
		rlbuf_append_str(sql, "NULL");
}

/* every table of rl_d03 emptied and filled from rl_cat's, the split delete files left out */
static bool
copy_rows(Down *g)
{
	RlBuf		sql;
	bool		ok = true;

	rlbuf_init(&sql);
	for (size_t i = 0; ok && i < json_array_size(g->to);)
	{
		const char *t = fdl_duckdb_cell(g->to, i, 0);
		size_t		end = i;

		while (end < json_array_size(g->to) && strcmp(fdl_duckdb_cell(g->to, end, 0), t) == 0)
			end++;
		bool		deletes = strcmp(t, "ducklake_delete_file") == 0;
		/* delete files are inserted one by one, as split_delete_files finds them */
		RlBuf	   *insert = deletes ? &g->delete_insert : &sql;

		rlbuf_append_str(&sql, "DELETE FROM rl_d03.");
		fdl_sql_ident(&sql, t);
		rlbuf_append_str(&sql, ";");
		rlbuf_append_str(insert, "INSERT INTO rl_d03.");
		fdl_sql_ident(insert, t);
		if (strcmp(t, "ducklake_schema_versions") == 0)
			rlbuf_append_str(insert, " (begin_snapshot, schema_version) SELECT min(b), v FROM "
							 "(SELECT begin_snapshot, schema_version FROM rl_cat.ducklake_schema_versions UNION ALL "
							 "SELECT snapshot_id, schema_version FROM rl_cat.ducklake_snapshot) s(b, v) "
							 "GROUP BY v ORDER BY 1");
		else
		{
			rlbuf_append_str(insert, " (");
			for (size_t c = i; c < end; c++)
			{
				if (c > i)
					rlbuf_append_str(insert, ", ");
				fdl_sql_ident(insert, fdl_duckdb_cell(g->to, c, 1));
			}
			rlbuf_append_str(insert, ") SELECT ");
			for (size_t c = i; c < end; c++)
			{
				if (c > i)
					rlbuf_append_str(insert, ", ");
				append_source(insert, g, t, fdl_duckdb_cell(g->to, c, 1));
			}
			rlbuf_append_str(insert, " FROM rl_cat.");
			fdl_sql_ident(insert, t);
		}
		ok = fdl_duckdb_exec_buf(g->db, &sql, g->errmsg);
		i = end;
	}
	rlbuf_free(&sql);
	return ok;
}

/* make the folders of path (a file's) */
static bool
make_dirs(const char *path)
{
	char	   *dir = strdup(path);
	bool		ok = dir != NULL;

	for (char *s = dir ? strchr(dir + 1, '/') : NULL; ok && s; s = strchr(s + 1, '/'))
	{
		*s = '\0';
		ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
		*s = '/';
	}
	free(dir);
	return ok;
}

/* the local copy of the data file rel, in out; false if no search folder has it */
static bool
find_local(const Down *g, const char *rel, char *out, size_t size)
{
	for (const char *const *dir = g->d->search_dirs; *dir; dir++)
	{
		int			n = snprintf(out, size, "%s%s%s", *dir,
								 (*dir)[0] && (*dir)[strlen(*dir) - 1] == '/' ? "" : "/", rel);

		if (n > 0 && (size_t) n < size && access(out, R_OK) == 0)
			return true;
	}
	return false;
}

/* insert rl_cat's delete file id into rl_d03, its deletions from snapshot since on */
static bool
insert_delete_file(Down *g, const char *id, const char *since)
{
	RlBuf		sql;
	bool		ok;

	rlbuf_init(&sql);
	rlbuf_printf(&sql, "%s WHERE delete_file_id = %s; UPDATE rl_d03.ducklake_delete_file SET begin_snapshot = %s "
				 "WHERE delete_file_id = %s", rlbuf_cstr(&g->delete_insert), id, since, id);
	ok = fdl_duckdb_exec_buf(g->db, &sql, g->errmsg);
	rlbuf_free(&sql);
	return ok;
}

/*
 * The snapshots of the deletions in the delete file at local, none before begin, in
 * order: [] for a file without its rows' snapshots. NULL on error.
 */
static json_t *
snapshots_of(Down *g, const char *local, const char *begin)
{
	RlBuf		sql;
	json_t	   *has,
			   *snaps = NULL;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "SELECT count(*) FROM parquet_schema(");
	fdl_sql_literal(&sql, "", local);
	rlbuf_append_str(&sql, ") WHERE name = '_ducklake_internal_snapshot_id'");
	has = fdl_duckdb_query_buf(g->db, &sql, g->errmsg);
	if (has && strcmp(fdl_duckdb_cell(has, 0, 0), "0") == 0)
		snaps = json_array();
	else if (has)
	{
		rlbuf_printf(&sql, "SELECT DISTINCT greatest(_ducklake_internal_snapshot_id, %s) AS s FROM read_parquet(",
					 begin);
		fdl_sql_literal(&sql, "", local);
		rlbuf_append_str(&sql, ") ORDER BY s");
		snaps = fdl_duckdb_query_buf(g->db, &sql, g->errmsg);
	}
	json_decref(has);
	rlbuf_free(&sql);
	return snaps;
}

/*
 * One delete file (row r of rows: delete_file_id, table_id, data_file_id,
 * begin_snapshot, dir, path) into rl_d03: as it is unless it holds the deletions of
 * several snapshots, each row with its own (DuckDB 1.5.5 writes them when it flushes
 * inlined deletions or adds deletions to a file's), then as one 0.3 delete file per
 * snapshot, each with the deletions up to it and ended by the next, the last being
 * the file itself from its newest snapshot on.
 */
static bool
split_delete_file(Down *g, const json_t *rows, size_t r)
{
	const char *id = fdl_duckdb_cell(rows, r, 0),
			   *begin = fdl_duckdb_cell(rows, r, 3),
			   *dir = fdl_duckdb_cell(rows, r, 4),
			   *path = fdl_duckdb_cell(rows, r, 5);
	char		local[8400],
				rel[8400],
				out[12800];
	RlBuf		sql;
	json_t	   *snaps;
	bool		ok;
	size_t		stem = strlen(path),
				n;

	snprintf(rel, sizeof(rel), "%s%s", dir, path);
	if (!find_local(g, rel, local, sizeof(local)))
	{
		*g->why_not = strdup("a delete file not in a local folder, whose deletions' snapshots cannot be read");
		return false;
	}
	if (stem > 8 && strcmp(path + stem - 8, ".parquet") == 0)
		stem -= 8;
	rlbuf_init(&sql);
	snaps = snapshots_of(g, local, begin);
	ok = snaps != NULL;
	n = json_array_size(snaps);
	for (size_t i = 0; ok && i + 1 < n; i++)
	{
		const char *s = fdl_duckdb_cell(snaps, i, 0);
		char		name[8400];
		struct stat st;

		snprintf(name, sizeof(name), "%.*s-upto-%s.parquet", (int) stem, path, s);
		snprintf(out, sizeof(out), "%s/%s%s", g->d->stage_dir, dir, name);
		if (!make_dirs(out))
		{
			*g->errmsg = strdup("could not make the folder of a delete file");
			ok = false;
			break;
		}
		rlbuf_append_str(&sql, "COPY (SELECT file_path, pos FROM read_parquet(");
		fdl_sql_literal(&sql, "", local);
		rlbuf_printf(&sql, ") WHERE _ducklake_internal_snapshot_id <= %s ORDER BY pos) TO ", s);
		fdl_sql_literal(&sql, "", out);
		rlbuf_append_str(&sql, " (FORMAT parquet)");
		if (!(ok = fdl_duckdb_exec_buf(g->db, &sql, g->errmsg)) || stat(out, &st) != 0)
		{
			if (ok)
				*g->errmsg = strdup("the delete file DuckDB wrote is missing");
			ok = false;
			break;
		}
		rlbuf_printf(&sql, "INSERT INTO rl_d03.ducklake_delete_file (delete_file_id, table_id, begin_snapshot, "
					 "end_snapshot, data_file_id, path, path_is_relative, format, delete_count, file_size_bytes) "
					 "SELECT %lld, %s, %s, %s, %s, ", g->next_file_id++, fdl_duckdb_cell(rows, r, 1), s,
					 fdl_duckdb_cell(snaps, i + 1, 0), fdl_duckdb_cell(rows, r, 2));
		fdl_sql_literal(&sql, "", name);
		rlbuf_printf(&sql, ", true, 'parquet', count(*), %lld FROM read_parquet(", (long long) st.st_size);
		fdl_sql_literal(&sql, "", out);
		rlbuf_append_str(&sql, ")");
		ok = fdl_duckdb_exec_buf(g->db, &sql, g->errmsg);
		snprintf(rel, sizeof(rel), "%s%s", dir, name);
		json_array_append_new(g->new_files, json_pack("{s:s, s:I}", "path", rel, "bytes", (json_int_t) st.st_size));
	}
	ok = ok && insert_delete_file(g, id, n > 0 ? fdl_duckdb_cell(snaps, n - 1, 0) : begin);
	json_decref(snaps);
	rlbuf_free(&sql);
	return ok;
}

/* every delete file into rl_d03, split where 0.3 needs it; S's next file id after the new ones */
static bool
split_delete_files(Down *g)
{
	RlBuf		sql;
	json_t	   *rows,
			   *next;
	bool		ok;
	size_t		before;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "SELECT max(next_file_id) FROM rl_cat.ducklake_snapshot");
	next = fdl_duckdb_query_buf(g->db, &sql, g->errmsg);
	rlbuf_append_str(&sql, "SELECT d.delete_file_id, d.table_id, d.data_file_id, d.begin_snapshot, p.dir, d.path "
					 "FROM rl_cat.ducklake_delete_file d JOIN " FDL_TABLE_PATHS " p USING (table_id) "
					 "ORDER BY d.delete_file_id");
	rows = next ? fdl_duckdb_query_buf(g->db, &sql, g->errmsg) : NULL;
	ok = rows != NULL;
	g->next_file_id = ok ? strtoll(fdl_duckdb_cell(next, 0, 0), NULL, 10) : 0;
	before = (size_t) g->next_file_id;
	for (size_t r = 0; ok && r < json_array_size(rows); r++)
		ok = split_delete_file(g, rows, r);
	if (ok && (size_t) g->next_file_id != before)
	{
		rlbuf_printf(&sql, "UPDATE rl_d03.ducklake_snapshot SET next_file_id = %lld "
					 "WHERE snapshot_id = (SELECT max(snapshot_id) FROM rl_d03.ducklake_snapshot)", g->next_file_id);
		ok = fdl_duckdb_exec_buf(g->db, &sql, g->errmsg);
	}
	json_decref(rows);
	json_decref(next);
	rlbuf_free(&sql);
	return ok;
}

bool
fdl_downgrade_storage(const char *duckdb_dir, const char *from_path, const char *to_path, char **errmsg)
{
	RlBuf		sql;
	bool		ok;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "ATTACH ");
	fdl_sql_literal(&sql, "", from_path);
	rlbuf_append_str(&sql, " AS rl_cat (READ_ONLY); ATTACH ");
	fdl_sql_literal(&sql, "", to_path);
	rlbuf_append_str(&sql, " AS rl_old (STORAGE_VERSION '" FDL_STORAGE_VERSION "'); "
					 "COPY FROM DATABASE rl_cat TO rl_old; CHECKPOINT rl_old; DETACH rl_old; DETACH rl_cat");
	ok = fdl_duckdb_run(duckdb_dir, rlbuf_cstr(&sql), errmsg);
	rlbuf_free(&sql);
	return ok;
}

json_t *
fdl_downgrade_catalog(const FdlDowngrade *d, char **why_not, char **errmsg)
{
	Down		g = {.d = d, .why_not = why_not, .errmsg = errmsg, .new_files = json_array()};
	RlBuf		sql;
	bool		ok;
	char		stage[4200];

	*why_not = *errmsg = NULL;
	g.db = fdl_duckdb_open(d->duckdb_dir, errmsg);
	if (g.db == NULL)
	{
		json_decref(g.new_files);
		return NULL;
	}
	snprintf(stage, sizeof(stage), "%s/", d->stage_dir);
	rlbuf_init(&sql);
	rlbuf_init(&g.delete_insert);
	/* an empty 0.3 lake of DuckDB 1.4.4, of the pinned storage version, beside the 1.0 catalog */
	rlbuf_append_str(&sql, "ATTACH ");
	fdl_sql_literal(&sql, "", d->to_path);
	rlbuf_append_str(&sql, " AS rl_d03 (STORAGE_VERSION '" FDL_STORAGE_VERSION "'); DETACH rl_d03; ATTACH ");
	fdl_sql_literal(&sql, "ducklake:", d->to_path);
	rlbuf_append_str(&sql, " AS rl_fz (DATA_PATH ");
	fdl_sql_literal(&sql, "", stage);
	rlbuf_append_str(&sql, "); DETACH rl_fz; ATTACH ");
	fdl_sql_literal(&sql, "", d->to_path);
	rlbuf_append_str(&sql, " AS rl_d03; ATTACH ");
	fdl_sql_literal(&sql, "", d->from_path);
	rlbuf_append_str(&sql, " AS rl_cat (READ_ONLY)");
	ok = fdl_duckdb_exec_buf(g.db, &sql, errmsg) &&
		(g.from = fdl_duckdb_lake_columns(g.db, "rl_cat", NULL, errmsg)) != NULL &&
		(g.to = fdl_duckdb_lake_columns(g.db, "rl_d03", NULL, errmsg)) != NULL;
	ok = ok && representable(&g) && copy_rows(&g) && split_delete_files(&g) &&
		fdl_duckdb_exec(g.db, "CHECKPOINT rl_d03; DETACH rl_d03; DETACH rl_cat", errmsg);
	/* DuckDB 1.4.4 opens what it is given and reads its tables (its data path may be S3's) */
	if (ok)
	{
		rlbuf_append_str(&sql, "ATTACH ");
		fdl_sql_literal(&sql, "ducklake:", d->to_path);
		rlbuf_append_str(&sql, " AS rl_v03 (READ_ONLY, DATA_PATH ");
		fdl_sql_literal(&sql, "", stage);
		rlbuf_append_str(&sql, ", OVERRIDE_DATA_PATH true); SELECT count(*) FROM duckdb_columns() "
						 "WHERE database_name = 'rl_v03'; DETACH rl_v03");
		ok = fdl_duckdb_exec_buf(g.db, &sql, errmsg);
	}
	rlbuf_free(&sql);
	rlbuf_free(&g.delete_insert);
	json_decref(g.from);
	json_decref(g.to);
	fdl_duckdb_close(g.db);
	if (!ok)
	{
		json_decref(g.new_files);
		return NULL;
	}
	return g.new_files;
}
