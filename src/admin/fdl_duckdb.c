/*
 * fdl_duckdb.c: DuckDB's C API, dlopen()ed (admin/fdl_duckdb.h).
 *
 * The declarations below are the C API's own (duckdb.h of 1.4 and 1.5); only what
 * the publisher calls is declared, and the opaque handles are pointers. The result
 * is read through the materialised-result calls (duckdb_value_varchar), which every
 * release since 0.x keeps.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/fdl_duckdb.h"

#ifndef FDL_DUCKDB_ROOT
#define FDL_DUCKDB_ROOT "/usr/local/lib/rocklake/duckdb"
#endif

typedef uint64_t idx_t;
typedef int duckdb_state;		/* DuckDBSuccess = 0, DuckDBError = 1 */
typedef void *duckdb_database;
typedef void *duckdb_connection;
typedef void *duckdb_config;

/* duckdb_result's layout: its fields are read only through the API */
typedef struct duckdb_result
{
	idx_t		deprecated_column_count;
	idx_t		deprecated_row_count;
	idx_t		deprecated_rows_changed;
	void	   *deprecated_columns;
	char	   *deprecated_error_message;
	void	   *internal_data;
} duckdb_result;

typedef struct DuckApi
{
	duckdb_state (*create_config) (duckdb_config *config);
	duckdb_state (*set_config) (duckdb_config config, const char *name, const char *option);
	void		(*destroy_config) (duckdb_config *config);
	duckdb_state (*open_ext) (const char *path, duckdb_database *db, duckdb_config config, char **error);
	duckdb_state (*connect) (duckdb_database db, duckdb_connection *conn);
	void		(*disconnect) (duckdb_connection *conn);
	void		(*close) (duckdb_database *db);
	duckdb_state (*query) (duckdb_connection conn, const char *sql, duckdb_result *result);
	void		(*destroy_result) (duckdb_result *result);
	const char *(*result_error) (duckdb_result *result);
	idx_t		(*row_count) (duckdb_result *result);
	idx_t		(*column_count) (duckdb_result *result);
	char	   *(*value_varchar) (duckdb_result *result, idx_t col, idx_t row);
	bool		(*value_is_null) (duckdb_result *result, idx_t col, idx_t row);
	void		(*free) (void *ptr);
} DuckApi;

struct FdlDuckDB
{
	void	   *handle;
	DuckApi		api;
	duckdb_database db;
	duckdb_connection conn;
};

static char *
message(const char *fmt, const char *a, const char *b)
{
	size_t		n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
	char	   *out = malloc(n);

	if (out)
		snprintf(out, n, fmt, a, b ? b : "");
	return out;
}

void
fdl_duckdb_release_dir(char *out, size_t size, const char *root, const char *release)
{
	if (root == NULL)
		root = getenv("ROCKLAKE_DUCKDB_DIR");
	if (root == NULL || *root == '\0')
		root = FDL_DUCKDB_ROOT;
	snprintf(out, size, "%s/%s", root, release);
}

/* resolve each function of the API; false naming the first one missing */
static bool
resolve(FdlDuckDB *d, char **errmsg)
{
	static const struct
	{
		const char *name;
		size_t		offset;
	}			fns[] = {
#define FN(field) {"duckdb_" #field, offsetof(DuckApi, field)}
		FN(create_config), FN(set_config), FN(destroy_config), FN(open_ext), FN(connect),
		FN(disconnect), FN(close), FN(query), FN(destroy_result), FN(result_error),
		FN(row_count), FN(column_count), FN(value_varchar), FN(value_is_null), FN(free),
#undef FN
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
	{
		void	   *fn = dlsym(d->handle, fns[i].name);

		if (fn == NULL)
		{
			*errmsg = message("libduckdb has no function %s%s", fns[i].name, NULL);
			return false;
		}
		memcpy((char *) &d->api + fns[i].offset, &fn, sizeof(fn));
	}
	return true;
}

FdlDuckDB *
fdl_duckdb_open(const char *dir, char **errmsg)
{
	static const char *const settings[][2] = {
		{"autoinstall_known_extensions", "false"},
		{"autoload_known_extensions", "false"},
		{"allow_community_extensions", "false"},
	};
	char		path[4096];
	FdlDuckDB  *d = calloc(1, sizeof(FdlDuckDB));
	duckdb_config config = NULL;
	char	   *open_error = NULL;

	*errmsg = NULL;
	if (d == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/libduckdb.so", dir);
	d->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (d->handle == NULL)
	{
		*errmsg = message("could not load DuckDB from \"%s\": %s (contrib/install-deps.sh installs it; "
						  "--duckdb-dir or ROCKLAKE_DUCKDB_DIR name another directory)", path, dlerror());
		free(d);
		return NULL;
	}
	if (!resolve(d, errmsg) || d->api.create_config(&config) != 0)
		goto fail;
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++)
		d->api.set_config(config, settings[i][0], settings[i][1]);
	if (d->api.open_ext(":memory:", &d->db, config, &open_error) != 0)
	{
		*errmsg = message("could not start DuckDB: %s%s", open_error ? open_error : "unknown error", NULL);
		if (open_error)
			d->api.free(open_error);
		goto fail;
	}
	d->api.destroy_config(&config);
	config = NULL;
	if (d->api.connect(d->db, &d->conn) != 0)
	{
		*errmsg = message("could not connect to DuckDB%s%s", "", NULL);
		goto fail;
	}
	for (int i = 0; i < 2; i++)
	{
		static const char *const extensions[] = {"ducklake", "postgres_scanner"};
		char		sql[4200];

		snprintf(sql, sizeof(sql), "LOAD '%s/%s.duckdb_extension'", dir, extensions[i]);
		if (strchr(dir, '\'') != NULL)
		{
			*errmsg = message("the DuckDB directory \"%s\" has a quote in its name%s", dir, NULL);
			goto fail;
		}
		if (!fdl_duckdb_exec(d, sql, errmsg))
			goto fail;
	}
	return d;

fail:
	if (config)
		d->api.destroy_config(&config);
	fdl_duckdb_close(d);
	return NULL;
}

/* run sql into result; false with *errmsg (the result destroyed) */
static bool
run(FdlDuckDB *d, const char *sql, duckdb_result *result, char **errmsg)
{
	memset(result, 0, sizeof(*result));
	if (d->api.query(d->conn, sql, result) == 0)
		return true;
	const char *e = d->api.result_error(result);

	*errmsg = message("DuckDB: %s%s", e ? e : "unknown error", NULL);
	d->api.destroy_result(result);
	return false;
}

bool
fdl_duckdb_exec(FdlDuckDB *d, const char *sql, char **errmsg)
{
	duckdb_result result;

	if (!run(d, sql, &result, errmsg))
		return false;
	d->api.destroy_result(&result);
	return true;
}

json_t *
fdl_duckdb_query(FdlDuckDB *d, const char *sql, char **errmsg)
{
	duckdb_result result;
	json_t	   *rows;

	if (!run(d, sql, &result, errmsg))
		return NULL;
	rows = json_array();
	idx_t		nrows = d->api.row_count(&result);
	idx_t		ncols = d->api.column_count(&result);

	for (idx_t r = 0; r < nrows; r++)
	{
		json_t	   *row = json_array();

		for (idx_t c = 0; c < ncols; c++)
		{
			if (d->api.value_is_null(&result, c, r))
				json_array_append_new(row, json_null());
			else
			{
				char	   *v = d->api.value_varchar(&result, c, r);

				json_array_append_new(row, json_string(v ? v : ""));
				if (v)
					d->api.free(v);
			}
		}
		json_array_append_new(rows, row);
	}
	d->api.destroy_result(&result);
	return rows;
}

bool
fdl_duckdb_exec_buf(FdlDuckDB *d, RlBuf *sql, char **errmsg)
{
	bool		ok = fdl_duckdb_exec(d, rlbuf_cstr(sql), errmsg);

	rlbuf_reset(sql);
	return ok;
}

json_t *
fdl_duckdb_query_buf(FdlDuckDB *d, RlBuf *sql, char **errmsg)
{
	json_t	   *rows = fdl_duckdb_query(d, rlbuf_cstr(sql), errmsg);

	rlbuf_reset(sql);
	return rows;
}

const char *
fdl_duckdb_cell(const json_t *rows, size_t r, size_t c)
{
	const char *s = json_string_value(json_array_get(json_array_get(rows, r), c));

	return s ? s : "";
}

void
fdl_sql_literal(RlBuf *buf, const char *prefix, const char *s)
{
	rlbuf_append_str(buf, "'");
	rlbuf_append_str(buf, prefix);
	for (; *s; s++)
		rlbuf_append(buf, s, 1 + (*s == '\''));
	rlbuf_append_str(buf, "'");
}

void
fdl_sql_ident(RlBuf *buf, const char *s)
{
	rlbuf_append_str(buf, "\"");
	for (; *s; s++)
	{
		if (*s == '"')
			rlbuf_append_str(buf, "\"");
		rlbuf_append(buf, s, 1);
	}
	rlbuf_append_str(buf, "\"");
}

json_t *
fdl_duckdb_lake_columns(FdlDuckDB *d, const char *db, const char *schema, char **errmsg)
{
	RlBuf		sql;
	json_t	   *rows;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = ");
	fdl_sql_literal(&sql, "", db);
	if (schema)
	{
		rlbuf_append_str(&sql, " AND schema_name = ");
		fdl_sql_literal(&sql, "", schema);
	}
	rlbuf_append_str(&sql, " AND starts_with(table_name, 'ducklake_') ORDER BY table_name, column_index");
	rows = fdl_duckdb_query_buf(d, &sql, errmsg);
	rlbuf_free(&sql);
	return rows;
}

bool
fdl_duckdb_run(const char *dir, const char *sql, char **errmsg)
{
	FdlDuckDB  *d = fdl_duckdb_open(dir, errmsg);
	bool		ok = d != NULL && fdl_duckdb_exec(d, sql, errmsg);

	fdl_duckdb_close(d);
	return ok;
}

void
fdl_duckdb_close(FdlDuckDB *d)
{
	if (d == NULL)
		return;
	if (d->conn)
		d->api.disconnect(&d->conn);
	if (d->db)
		d->api.close(&d->db);
	/* the library stays loaded: DuckDB's threads and atexit handlers may still refer to it */
	free(d);
}
