/*
 * fdl_publish.c: rocklake-admin publish (admin/fdl_publish.h, doc/publishing.md).
 *
 *   rocklake-admin publish --server CONNINFO --repo REPO [--snapshot N]
 *       [--author NAME] [--message TEXT] [--dataset DIR] [--data-dir data]
 *       [--inputs FILE.json] [--annotations FILE.json] [--metadata-schema public]
 *       [--duckdb-dir DIR]
 *
 * In order:
 *   1. ask the server (libpq) for the lake's DuckLake format, the snapshot S (the
 *      newest unless --snapshot), and where its data files are (data_path);
 *   2. find the parent: the version of the repository with the largest seq (then the
 *      newest created_at, then the largest id), among folders that have version.json;
 *   3. pin S for the new version's id on the server (rocklake_publish_pin);
 *   4. freeze the catalog (admin/fdl_catalog.h) with the DuckDB release of the lake's
 *      format, in a child process (one process loads one DuckDB): DuckLake 0.3 with
 *      1.4.4, 1.0 with 1.5.5; a 0.3 catalog is also migrated by 1.5.5 to a 1.0 one,
 *      and a 1.0 one written as 0.3 by 1.4.4 where 0.3 can hold it (admin/fdl_downgrade.h);
 *   5. copy each data file the catalog refers to into the repository's data folder
 *      unless it is there already (same size), from the flush's stage (the inlined
 *      rows) or from the live data path, and check every size against the catalog;
 *   6. write ducklake.duckdb, catalogs/<format>.duckdb, dataset.json and files.json
 *      into versions/<id>/, then version.json, create-if-absent, last.
 * A failure after step 3 takes the pin back (rocklake_publish_unpin); a publisher
 * killed leaves the pin, which rocklake-admin withdraw REPO ID --server removes with
 * what the publication left in versions/<id>/, and its work directory,
 * $TMPDIR/rocklake-publish-<id>.XXXXXX.
 */
#define _GNU_SOURCE				/* mkdtemp, nftw */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <libpq-fe.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "admin/fdl_catalog.h"
#include "admin/fdl_dataset.h"
#include "admin/fdl_downgrade.h"
#include "admin/fdl_duckdb.h"
#include "admin/fdl_publish.h"
#include "common/rl_buffer.h"
#include "common/ulid.h"
#include "storage/objstore.h"

#define FDL_SPEC_VERSION "0.1"
#define UUID_TEXT_LEN 36

typedef struct PublishOptions
{
	const char *server;
	const char *repo;
	int64_t		snapshot;		/* -1: the newest */
	const char *author;
	const char *message;
	const char *dataset;
	const char *data_dir;
	const char *inputs;
	const char *annotations;
	const char *metadata_schema;
	const char *duckdb_root;
} PublishOptions;

typedef struct Publish
{
	PublishOptions o;
	PGconn	   *conn;
	char	   *schema;			/* the metadata schema, quoted */
	char	   *database;		/* the lake's database name */
	char		format[16];		/* DuckLake's format of the live lake */
	int64_t		snapshot;
	char	   *live_data_path;
	ObjectStore *repo;
	char	   *data_url;		/* the published data folder, ending in '/' */
	json_t	   *parent;			/* the parent's version.json, or NULL */
	char		id[UUID_TEXT_LEN + 1];
	bool		pinned;
	char		tmp[4096];		/* the work directory */
} Publish;

static void
usage(FILE *out)
{
	fprintf(out,
			"Usage: rocklake-admin publish --server CONNINFO --repo REPO [OPTIONS]\n"
			"\n"
			"Publishes the lake of one database of a running RockLake server, at one snapshot,\n"
			"as a frozen version (FDL 0.1) in REPO, a directory or s3://bucket/prefix.\n"
			"\n"
			"Options:\n"
			"  --server CONNINFO    the database, as libpq takes it (\"host=... port=... dbname=... user=...\")\n"
			"  --repo REPO          the repository (AWS_* variables configure S3)\n"
			"  --snapshot N         publish snapshot N (default: the newest)\n"
			"  --author NAME        version.json's author (default: the operating-system user)\n"
			"  --message TEXT       version.json's message\n"
			"  --dataset DIR        dataset.yml and *.table.yml describing the data\n"
			"  --data-dir NAME      the repository's data folder (default: data)\n"
			"  --inputs FILE        a JSON array of the input files, copied into version.json\n"
			"  --annotations FILE   a JSON object, version.json's annotations\n"
			"  --metadata-schema S  the lake's DuckLake metadata schema (default: public)\n"
			"  --duckdb-dir DIR     where the DuckDB releases are (default: $ROCKLAKE_DUCKDB_DIR,\n"
			"                       else the one contrib/install-deps.sh installs into)\n");
}

static void
report(const char *fmt,...) __attribute__((format(printf, 1, 2)));

static void
report(const char *fmt,...)
{
	va_list		ap;

	fputs("rocklake-admin publish: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* report and free a malloc'd message; false */
static bool
report_free(char *msg)
{
	report("%s", msg ? msg : "out of memory");
	free(msg);
	return false;
}

/* ---------------------------------------------------------------- the server */

/* run sql with text parameters; NULL after reporting the server's error */
static PGresult *
server_query(Publish *p, const char *sql, int nparams, const char *const *params)
{
	PGresult   *res = PQexecParams(p->conn, sql, nparams, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		report("%s", PQresultErrorMessage(res));
		PQclear(res);
		return NULL;
	}
	return res;
}

/* the one value of sql on the metadata schema (%s: the schema); NULL if none or on error */
static char *
server_value(Publish *p, const char *fmt, const char *param)
{
	char	   *sql;
	PGresult   *res;
	char	   *out = NULL;

	if (asprintf(&sql, fmt, p->schema) < 0)
		return NULL;
	res = server_query(p, sql, param ? 1 : 0, &param);
	free(sql);
	if (res && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		out = strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return out;
}

/* step 1: format, S, data path */
static bool
read_lake(Publish *p)
{
	char	   *v;
	char		snap[32];

	p->conn = PQconnectdb(p->o.server);
	if (PQstatus(p->conn) != CONNECTION_OK)
	{
		report("could not connect to the server: %s", PQerrorMessage(p->conn));
		return false;
	}
	p->database = strdup(PQdb(p->conn));
	p->schema = PQescapeIdentifier(p->conn, p->o.metadata_schema, strlen(p->o.metadata_schema));
	v = server_value(p, "SELECT to_regclass('%s.ducklake_metadata')", NULL);
	free(v);
	if (v != NULL)
		v = server_value(p, "SELECT value FROM %s.ducklake_metadata WHERE key = 'version' AND scope IS NULL", NULL);
	if (v == NULL)
	{
		report("database \"%s\" holds no DuckLake catalog in schema \"%s\"", p->database, p->o.metadata_schema);
		return false;
	}
	snprintf(p->format, sizeof(p->format), "%s", v);
	free(v);
	if (strcmp(p->format, "0.3") != 0 && strcmp(p->format, "1.0") != 0)
	{
		report("the lake is of DuckLake format %s; publishing knows 0.3 and 1.0", p->format);
		return false;
	}
	if (p->o.snapshot >= 0)
	{
		snprintf(snap, sizeof(snap), "%" PRId64, p->o.snapshot);
		v = server_value(p, "SELECT snapshot_id FROM %s.ducklake_snapshot WHERE snapshot_id = $1::bigint", snap);
		if (v == NULL)
		{
			report("the lake has no snapshot %" PRId64, p->o.snapshot);
			return false;
		}
	}
	else if ((v = server_value(p, "SELECT max(snapshot_id) FROM %s.ducklake_snapshot", NULL)) == NULL)
		return false;
	p->snapshot = strtoll(v, NULL, 10);
	free(v);
	p->live_data_path = server_value(p, "SELECT value FROM %s.ducklake_metadata WHERE key = 'data_path' "
									 "AND scope IS NULL", NULL);
	if (p->live_data_path == NULL)
	{
		report("the lake has no data_path");
		return false;
	}
	return true;
}

/* rocklake_publish_pin / rocklake_publish_unpin */
static bool
set_pin(Publish *p, bool pin)
{
	char		snap[32];
	const char *params[2] = {snap, p->id};
	PGresult   *res;

	snprintf(snap, sizeof(snap), "%" PRId64, p->snapshot);
	res = pin ? server_query(p, "SELECT rocklake_publish_pin($1::bigint, $2::text)", 2, params)
		: server_query(p, "SELECT rocklake_publish_unpin($1::text)", 1, params + 1);
	PQclear(res);
	if (res && pin)
		p->pinned = true;
	return res != NULL;
}

/* ---------------------------------------------------------------- the repository */

typedef struct VersionList
{
	Publish    *p;
	json_t	   *keys;
} VersionList;

static bool
collect_version(const ObjInfo *info, void *arg)
{
	VersionList *l = arg;
	const char *slash = strchr(info->key + strlen("versions/"), '/');

	if (slash && strcmp(slash, "/version.json") == 0)
		json_array_append_new(l->keys, json_string(info->key));
	return true;
}

/* whether a is a later version than b: by seq, then created_at, then id */
static bool
later_version(const json_t *a, const json_t *b)
{
	json_int_t	sa = json_integer_value(json_object_get(a, "seq")),
				sb = json_integer_value(json_object_get(b, "seq"));
	const char *ca = json_string_value(json_object_get(a, "created_at")),
			   *cb = json_string_value(json_object_get(b, "created_at"));
	int			c;

	if (sa != sb)
		return sa > sb;
	c = strcmp(ca ? ca : "", cb ? cb : "");
	if (c != 0)
		return c > 0;
	return strcmp(json_string_value(json_object_get(a, "id")), json_string_value(json_object_get(b, "id"))) > 0;
}

/* whether key, versions/<folder>/version.json, is that of the version id */
static bool
id_is_folder(const char *key, const char *id)
{
	const char *folder = key + strlen("versions/");
	size_t		n = strlen(id);

	return strncmp(folder, id, n) == 0 && strcmp(folder + n, "/version.json") == 0;
}

/* step 2: the newest version of the repository, if any */
static bool
find_parent(Publish *p)
{
	VersionList l = {.p = p, .keys = json_array()};
	RlStatus	rc = obj_list(p->repo, "versions/", NULL, collect_version, &l);
	bool		ok = rc == RL_OK;

	if (!ok)
		report("could not list the versions of %s: %s", p->o.repo, rl_last_error());
	for (size_t i = 0; ok && i < json_array_size(l.keys); i++)
	{
		const char *key = json_string_value(json_array_get(l.keys, i));
		RlBuf		text;
		json_t	   *v;
		json_error_t jerr;

		rlbuf_init(&text);
		if (obj_get(p->repo, key, &text) != RL_OK)
		{
			report("could not read %s: %s", key, rl_last_error());
			ok = false;
		}
		else if ((v = json_loadb((const char *) text.data, text.len, 0, &jerr)) == NULL ||
				 !json_is_integer(json_object_get(v, "seq")) || !json_is_string(json_object_get(v, "id")))
		{
			report("%s is not a version.json: %s", key, v ? "no seq or id" : jerr.text);
			json_decref(v);
			ok = false;
		}
		else if (!id_is_folder(key, json_string_value(json_object_get(v, "id"))))
		{
			/* a reader does not read a version whose id is not its folder's name */
			report("%s has another id, %s: not a version", key, json_string_value(json_object_get(v, "id")));
			json_decref(v);
		}
		else if (p->parent == NULL || later_version(v, p->parent))
		{
			json_decref(p->parent);
			p->parent = v;
		}
		else
			json_decref(v);
		rlbuf_free(&text);
	}
	json_decref(l.keys);
	return ok;
}

/* a lowercase UUIDv7: 48 bits of Unix milliseconds, then random bits */
static void
uuid_v7(char out[UUID_TEXT_LEN + 1])
{
	uint8_t		b[16];
	uint64_t	ms = (uint64_t) rl_now_ms();

	RAND_bytes(b, sizeof(b));
	for (int i = 0; i < 6; i++)
		b[i] = (uint8_t) (ms >> (8 * (5 - i)));
	b[6] = (uint8_t) (0x70 | (b[6] & 0x0f));
	b[8] = (uint8_t) (0x80 | (b[8] & 0x3f));
	snprintf(out, UUID_TEXT_LEN + 1,
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static bool
read_local(const char *path, RlBuf *out)
{
	FILE	   *f = fopen(path, "rb");
	char		chunk[65536];
	size_t		n;

	if (f == NULL)
		return false;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rlbuf_append(out, chunk, n);
	bool		ok = !ferror(f);

	fclose(f);
	return ok;
}

/* {path, bytes, sha256} of data */
static json_t *
describe_file(const char *path, const RlBuf *data)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	RlBuf		hex;
	json_t	   *out;

	EVP_Digest(data->data, data->len, md, &mdlen, EVP_sha256(), NULL);
	rlbuf_init(&hex);
	rlbuf_append_hex(&hex, md, mdlen);
	out = json_pack("{s:s, s:I, s:s}", "path", path, "bytes", (json_int_t) data->len, "sha256", rlbuf_cstr(&hex));
	rlbuf_free(&hex);
	return out;
}

/* put data at versions/<id>/name; false after reporting */
static bool
put_version_file(Publish *p, const char *name, const RlBuf *data, ObjPutMode mode)
{
	char		key[4200];

	snprintf(key, sizeof(key), "versions/%s/%s", p->id, name);
	if (obj_put(p->repo, key, data->data, data->len, mode, NULL, NULL) != RL_OK)
	{
		report("could not write %s to %s: %s", key, p->o.repo, rl_last_error());
		return false;
	}
	return true;
}

/* put the local file at path as versions/<id>/name; its description, or NULL */
static json_t *
put_local_file(Publish *p, const char *path, const char *name)
{
	RlBuf		data;
	json_t	   *out = NULL;

	rlbuf_init(&data);
	if (!read_local(path, &data))
		report("could not read \"%s\": %s", path, strerror(errno));
	else if (put_version_file(p, name, &data, OBJ_PUT_OVERWRITE))
		out = describe_file(name, &data);
	rlbuf_free(&data);
	return out;
}

/* put a JSON document as versions/<id>/name; its description, or NULL */
static json_t *
put_json(Publish *p, const json_t *doc, const char *name, ObjPutMode mode)
{
	char	   *text = json_dumps(doc, JSON_INDENT(2));
	RlBuf		data;
	json_t	   *out = NULL;

	rlbuf_init(&data);
	rlbuf_append_str(&data, text);
	rlbuf_append_str(&data, "\n");
	free(text);
	if (put_version_file(p, name, &data, mode))
		out = describe_file(name, &data);
	rlbuf_free(&data);
	return out;
}

/* ---------------------------------------------------------------- the catalog */

/*
 * Run fn(p, arg) in a child process, for a DuckDB release of its own; true if it
 * exited 0 (it reports its own errors).
 */
static bool
in_child(Publish *p, bool (*fn) (Publish *p, const void *arg), const void *arg)
{
	pid_t		pid;
	int			status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
	{
		report("could not fork: %s", strerror(errno));
		return false;
	}
	if (pid == 0)
	{
		/* DuckDB's process does not outlive a publisher killed meanwhile */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		bool		ok = fn(p, arg);

		fflush(NULL);
		_exit(ok ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	if (WIFSIGNALED(status))
		report("DuckDB's process died of signal %d", WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void
tmp_path(const Publish *p, char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", p->tmp, name);
}

/* write doc (a reference taken) into the file at path, for the parent; false after reporting */
static bool
dump_json(json_t *doc, const char *path)
{
	bool		ok = json_dump_file(doc, path, 0) == 0;

	if (!ok)
		report("could not write \"%s\"", path);
	json_decref(doc);
	return ok;
}

/* the child of step 4: the catalog and its manifest */
static bool
freeze(Publish *p, const void *arg)
{
	char		dir[4096],
				catalog[4200],
				stage[4200],
				manifest_path[4200];
	char	   *err = NULL;
	FdlFreeze	f;
	json_t	   *manifest;

	(void) arg;
	fdl_duckdb_release_dir(dir, sizeof(dir), p->o.duckdb_root,
						   strcmp(p->format, "0.3") == 0 ? FDL_DUCKDB_DUCKLAKE_0_3 : FDL_DUCKDB_CURRENT);
	tmp_path(p, catalog, sizeof(catalog), "ducklake.duckdb");
	tmp_path(p, stage, sizeof(stage), "stage");
	tmp_path(p, manifest_path, sizeof(manifest_path), "manifest.json");
	f = (FdlFreeze)
	{
		.duckdb_dir = dir, .conninfo = p->o.server, .metadata_schema = p->o.metadata_schema,
			.snapshot = p->snapshot, .catalog_path = catalog, .stage_dir = stage, .data_url = p->data_url,
	};
	manifest = fdl_freeze_catalog(&f, &err);
	if (manifest == NULL)
		return report_free(err);
	return dump_json(manifest, manifest_path);
}

/* the child that migrates the 0.3 catalog's copy at arg to 1.0 */
static bool
migrate(Publish *p, const void *arg)
{
	char		dir[4096];
	char	   *err = NULL;

	fdl_duckdb_release_dir(dir, sizeof(dir), p->o.duckdb_root, FDL_DUCKDB_CURRENT);
	return fdl_migrate_catalog(dir, arg, &err) || report_free(err);
}

/* the child that copies the 1.0 catalog into from10.duckdb, which DuckDB 1.4.4 opens */
static bool
downgrade_storage(Publish *p, const void *arg)
{
	char		dir[4096],
				from[4200],
				to[4200];
	char	   *err = NULL;

	(void) arg;
	fdl_duckdb_release_dir(dir, sizeof(dir), p->o.duckdb_root, FDL_DUCKDB_CURRENT);
	tmp_path(p, from, sizeof(from), "ducklake.duckdb");
	tmp_path(p, to, sizeof(to), "from10.duckdb");
	return fdl_downgrade_storage(dir, from, to, &err) || report_free(err);
}

/*
 * The child that writes the 0.3 catalog of the 1.0 one (read from from10.duckdb),
 * 0.3.duckdb, and down.json, the files it adds, where 0.3 can hold it; neither where
 * it cannot (it says why).
 */
static bool
downgrade(Publish *p, const void *arg)
{
	char		dir[4096],
				from[4200],
				to[4200],
				stage[4200],
				list[4200];
	const char *search[3] = {stage, NULL, NULL};
	char	   *why_not = NULL,
			   *err = NULL;
	json_t	   *files;
	FdlDowngrade d = {.duckdb_dir = dir, .from_path = from, .to_path = to, .stage_dir = stage, .search_dirs = search};

	(void) arg;
	fdl_duckdb_release_dir(dir, sizeof(dir), p->o.duckdb_root, FDL_DUCKDB_DUCKLAKE_0_3);
	tmp_path(p, from, sizeof(from), "from10.duckdb");
	tmp_path(p, to, sizeof(to), "0.3.duckdb");
	tmp_path(p, stage, sizeof(stage), "stage");
	tmp_path(p, list, sizeof(list), "down.json");
	/* a delete file to split is the flush's, or the live lake's where that is a local folder */
	if (strstr(p->live_data_path, "://") == NULL)
		search[1] = p->live_data_path;
	files = fdl_downgrade_catalog(&d, &why_not, &err);
	if (files == NULL)
	{
		unlink(to);
		if (why_not == NULL)
			return report_free(err);
		report("no DuckLake 0.3 catalog: the catalog has %s", why_not);
		free(why_not);
		return true;
	}
	return dump_json(files, list);
}

static bool
copy_local(const char *from, const char *to)
{
	RlBuf		data;
	FILE	   *f;
	bool		ok;

	rlbuf_init(&data);
	ok = read_local(from, &data) && (f = fopen(to, "wb")) != NULL;
	if (ok)
	{
		ok = fwrite(data.data, 1, data.len, f) == data.len;
		ok = fclose(f) == 0 && ok;
	}
	if (!ok)
		report("could not copy \"%s\" to \"%s\": %s", from, to, strerror(errno));
	rlbuf_free(&data);
	return ok;
}

/* step 5: every data file into the data folder; counts what was copied */
static bool
copy_data_files(Publish *p, const json_t *files, int *copied)
{
	ObjectStore *live = NULL;
	bool		ok = true;

	*copied = 0;
	for (size_t i = 0; ok && i < json_array_size(files); i++)
	{
		const json_t *file = json_array_get(files, i);
		const char *path = json_string_value(json_object_get(file, "path"));
		uint64_t	bytes = (uint64_t) json_integer_value(json_object_get(file, "bytes"));
		char		key[4200],
					staged[8400];
		ObjInfo		info;
		RlBuf		data;
		RlStatus	rc;

		snprintf(key, sizeof(key), "%s/%s", p->o.data_dir, path);
		rc = obj_head(p->repo, key, &info);
		if (rc == RL_OK && info.size == bytes)
			continue;
		if (rc == RL_OK)
		{
			report("%s is in %s with %" PRIu64 " bytes where the catalog says %" PRIu64,
				   key, p->o.repo, info.size, bytes);
			return false;
		}
		if (rc != RL_NOT_FOUND)
		{
			report("could not look for %s in %s: %s", key, p->o.repo, rl_last_error());
			return false;
		}
		rlbuf_init(&data);
		snprintf(staged, sizeof(staged), "%s/stage/%s", p->tmp, path);
		if (access(staged, F_OK) == 0)
			ok = read_local(staged, &data) || (report("could not read \"%s\"", staged), false);
		else
		{
			if (live == NULL && (live = objstore_open_url(p->live_data_path)) == NULL)
			{
				report("could not open the lake's data path %s: %s", p->live_data_path, rl_last_error());
				ok = false;
			}
			else if (obj_get(live, path, &data) != RL_OK)
			{
				report("could not read %s%s: %s", p->live_data_path, path, rl_last_error());
				ok = false;
			}
		}
		if (ok && data.len != bytes)
		{
			report("%s%s has %zu bytes where the catalog says %" PRIu64, p->live_data_path, path, data.len, bytes);
			ok = false;
		}
		/* data files are never rewritten: one that appeared meanwhile was put by another publisher */
		if (ok && (rc = obj_put(p->repo, key, data.data, data.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL)) != RL_OK &&
			rc != RL_PRECONDITION)
		{
			report("could not write %s to %s: %s", key, p->o.repo, rl_last_error());
			ok = false;
		}
		if (ok && (obj_head(p->repo, key, &info) != RL_OK || info.size != bytes))
		{
			report("%s in %s does not have the catalog's %" PRIu64 " bytes", key, p->o.repo, bytes);
			ok = false;
		}
		*copied += ok;
		rlbuf_free(&data);
	}
	if (live)
		obj_close(live);
	return ok;
}

/* ---------------------------------------------------------------- changes */

/* the tables and their columns at snapshot s: [table, table_id, column_id, name, type] */
static PGresult *
columns_at(Publish *p, int64_t s)
{
	char		snap[32];
	const char *param = snap;
	char	   *sql;
	PGresult   *res;

	snprintf(snap, sizeof(snap), "%" PRId64, s);
	if (asprintf(&sql,
				 "SELECT sc.schema_name || '.' || t.table_name, t.table_id, c.column_id, c.column_name, c.column_type "
				 "FROM %1$s.ducklake_table t JOIN %1$s.ducklake_schema sc ON sc.schema_id = t.schema_id "
				 " AND sc.begin_snapshot <= $1::bigint AND (sc.end_snapshot IS NULL OR sc.end_snapshot > $1::bigint) "
				 "LEFT JOIN %1$s.ducklake_column c ON c.table_id = t.table_id AND c.parent_column IS NULL "
				 " AND c.begin_snapshot <= $1::bigint AND (c.end_snapshot IS NULL OR c.end_snapshot > $1::bigint) "
				 "WHERE t.begin_snapshot <= $1::bigint AND (t.end_snapshot IS NULL OR t.end_snapshot > $1::bigint) "
				 "ORDER BY 2, c.column_order", p->schema) < 0)
		return NULL;
	res = server_query(p, sql, 1, &param);
	free(sql);
	return res;
}

/* the row of res with table id tid (and column id cid unless NULL), or -1 */
static int
find_row(PGresult *res, const char *tid, const char *cid)
{
	for (int r = 0; r < PQntuples(res); r++)
		if (strcmp(PQgetvalue(res, r, 1), tid) == 0 &&
			(cid == NULL || (!PQgetisnull(res, r, 2) && strcmp(PQgetvalue(res, r, 2), cid) == 0)))
			return r;
	return -1;
}

/* the row of res of table name, or -1 */
static int
find_table(PGresult *res, const char *name)
{
	for (int r = 0; r < PQntuples(res); r++)
		if (strcmp(PQgetvalue(res, r, 0), name) == 0)
			return r;
	return -1;
}

static void
add_change(json_t *changes, const char *table, const char *kind, const char *column, const char *from, bool breaking)
{
	json_t	   *c = json_pack("{s:s, s:s}", "table", table, "kind", kind);

	if (column)
		json_object_set_new(c, "column", json_string(column));
	if (from)
		json_object_set_new(c, "from", json_string(from));
	json_object_set_new(c, "breaking", json_boolean(breaking));
	json_array_append_new(changes, c);
}

/* the columns of table tid (whose first row in now is r) compared with before's */
static void
column_changes(json_t *changes, PGresult *before, PGresult *now, int r)
{
	const char *table = PQgetvalue(now, r, 0);
	const char *tid = PQgetvalue(now, r, 1);

	for (int i = r; i < PQntuples(now) && strcmp(PQgetvalue(now, i, 1), tid) == 0; i++)
	{
		if (PQgetisnull(now, i, 2))
			continue;
		int			b = find_row(before, tid, PQgetvalue(now, i, 2));

		if (b < 0)
			add_change(changes, table, "add_column", PQgetvalue(now, i, 3), NULL, false);
		else if (strcmp(PQgetvalue(before, b, 3), PQgetvalue(now, i, 3)) != 0)
			add_change(changes, table, "rename_column", PQgetvalue(now, i, 3), PQgetvalue(before, b, 3), true);
		else if (strcmp(PQgetvalue(before, b, 4), PQgetvalue(now, i, 4)) != 0)
			add_change(changes, table, "change_type", PQgetvalue(now, i, 3), NULL, true);
	}
	for (int b = find_row(before, tid, NULL); b >= 0 && b < PQntuples(before) &&
		 strcmp(PQgetvalue(before, b, 1), tid) == 0; b++)
		if (!PQgetisnull(before, b, 2) && find_row(now, tid, PQgetvalue(before, b, 2)) < 0)
			add_change(changes, table, "drop_column", PQgetvalue(before, b, 3), NULL, true);
}

/*
 * The changes since the parent's snapshot, from the live lake's history (the
 * parent's snapshot is pinned, so its rows are there): tables by id, columns by id.
 * NULL (no changes field) when the parent's snapshot is not in the lake.
 */
static json_t *
changes_since(Publish *p, int64_t parent_snapshot)
{
	char		snap[32];
	char	   *there;
	PGresult   *before,
			   *now;
	json_t	   *changes;

	snprintf(snap, sizeof(snap), "%" PRId64, parent_snapshot);
	there = server_value(p, "SELECT snapshot_id FROM %s.ducklake_snapshot WHERE snapshot_id = $1::bigint", snap);
	if (there == NULL)
		return NULL;
	free(there);
	before = columns_at(p, parent_snapshot);
	now = before ? columns_at(p, p->snapshot) : NULL;
	if (now == NULL)
	{
		PQclear(before);
		return NULL;
	}
	changes = json_array();
	for (int r = 0; r < PQntuples(now); r++)
	{
		const char *table = PQgetvalue(now, r, 0);
		const char *tid = PQgetvalue(now, r, 1);
		int			b = find_row(before, tid, NULL);
		int			same_name = find_table(before, table);

		if (r > 0 && strcmp(PQgetvalue(now, r - 1, 1), tid) == 0)
			continue;
		if (b < 0 && same_name >= 0)
			add_change(changes, table, "recreate", NULL, NULL, true);
		else if (b < 0)
			add_change(changes, table, "add_table", NULL, NULL, false);
		else
		{
			if (strcmp(PQgetvalue(before, b, 0), table) != 0)
				add_change(changes, table, "rename_table", NULL, PQgetvalue(before, b, 0), true);
			column_changes(changes, before, now, r);
		}
	}
	for (int b = 0; b < PQntuples(before); b++)
	{
		const char *tid = PQgetvalue(before, b, 1);

		if ((b == 0 || strcmp(PQgetvalue(before, b - 1, 1), tid) != 0) && find_row(now, tid, NULL) < 0 &&
			find_table(now, PQgetvalue(before, b, 0)) < 0)
			add_change(changes, PQgetvalue(before, b, 0), "drop_table", NULL, NULL, true);
	}
	PQclear(before);
	PQclear(now);
	return changes;
}

/* ---------------------------------------------------------------- version.json */

static json_t *
load_json_option(const char *path, const char *what, bool array)
{
	json_error_t jerr;
	json_t	   *v = json_load_file(path, 0, &jerr);

	if (v == NULL)
		report("%s: %s (line %d)", path, jerr.text, jerr.line);
	else if (array ? !json_is_array(v) : !json_is_object(v))
	{
		report("%s: %s must be a JSON %s", path, what, array ? "array" : "object");
		json_decref(v);
		v = NULL;
	}
	return v;
}

/* the snapshots added since the parent's: [first, S] */
static json_t *
snapshot_range(Publish *p, int64_t parent_snapshot)
{
	char		snap[32];
	char	   *first;
	json_t	   *out;

	snprintf(snap, sizeof(snap), "%" PRId64, parent_snapshot);
	first = server_value(p, "SELECT min(snapshot_id) FROM %s.ducklake_snapshot WHERE snapshot_id > $1::bigint", snap);
	out = json_pack("[I, I]", (json_int_t) (first ? strtoll(first, NULL, 10) : p->snapshot),
					(json_int_t) p->snapshot);
	if (first && strtoll(first, NULL, 10) > p->snapshot)
		json_array_set_new(out, 0, json_integer(p->snapshot));
	free(first);
	return out;
}

static json_t *
version_json(Publish *p, json_t *catalog, json_t *dataset, json_t *files)
{
	char		created[32];
	time_t		now = time(NULL);
	struct tm	tm;
	int64_t		parent_snapshot = -1;
	json_t	   *v,
			   *changes = NULL;
	const char *author = p->o.author;
	char		message[256];

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (author == NULL)
	{
		struct passwd *pw = getpwuid(getuid());

		author = getenv("USER") ? getenv("USER") : pw ? pw->pw_name : "unknown";
	}
	snprintf(message, sizeof(message), "Snapshot %" PRId64 " of %s", p->snapshot, p->database);
	if (p->parent)
	{
		parent_snapshot = json_integer_value(json_object_get(json_object_get(p->parent, "ducklake"), "snapshot_id"));
		changes = changes_since(p, parent_snapshot);
	}
	v = json_pack("{s:s, s:s, s:I, s:[], s:s, s:{s:s}, s:s, s:o, s:o, s:{s:s, s:I, s:o}, s:o}",
				  "fdl", FDL_SPEC_VERSION, "id", p->id,
				  "seq", (json_int_t) (p->parent ? json_integer_value(json_object_get(p->parent, "seq")) + 1 : 1),
				  "parents", "created_at", created, "author", "name", author,
				  "message", p->o.message ? p->o.message : message,
				  "catalog", catalog, "dataset", dataset,
				  "ducklake", "format", p->format, "snapshot_id", (json_int_t) p->snapshot,
				  "snapshots", snapshot_range(p, parent_snapshot), "files", files);
	if (p->parent)
		json_array_append(json_object_get(v, "parents"), json_object_get(p->parent, "id"));
	if (changes)
		json_object_set_new(v, "changes", changes);
	return v;
}

/* ---------------------------------------------------------------- the command */

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void) st;
	(void) flag;
	(void) ftw;
	return remove(path);
}

/* steps 4 to 6, with the pin taken */
static bool
publish_version(Publish *p)
{
	char		path[4200],
				copy[4200],
				down[4200];
	json_t	   *manifest = NULL,
			   *added = NULL,
			   *catalog = NULL,
			   *dataset_doc = NULL,
			   *dataset = NULL,
			   *files = NULL,
			   *v = NULL,
			   *inputs = NULL,
			   *annotations = NULL,
			   *done;
	json_error_t jerr;
	char	   *err = NULL;
	int			copied = 0;
	bool		ok = false;
	bool		is_03 = strcmp(p->format, "0.3") == 0;

	if ((p->o.inputs && (inputs = load_json_option(p->o.inputs, "--inputs", true)) == NULL) ||
		(p->o.annotations && (annotations = load_json_option(p->o.annotations, "--annotations", false)) == NULL))
		goto out;
	if (!in_child(p, freeze, NULL))
		goto out;
	tmp_path(p, path, sizeof(path), "manifest.json");
	if ((manifest = json_load_file(path, 0, &jerr)) == NULL)
	{
		report("could not read \"%s\": %s", path, jerr.text);
		goto out;
	}
	/* a 0.3 lake: ducklake.duckdb is 0.3 (1.4.4's), catalogs/1.0.duckdb its migration by 1.5.5 */
	tmp_path(p, path, sizeof(path), "ducklake.duckdb");
	tmp_path(p, copy, sizeof(copy), "migrated.duckdb");
	if (is_03 && (!copy_local(path, copy) || !in_child(p, migrate, copy)))
		goto out;
	/* a 1.0 lake: catalogs/0.3.duckdb too, where 0.3 can hold it, with the delete files it adds */
	tmp_path(p, down, sizeof(down), "down.json");
	if (!is_03 && (!in_child(p, downgrade_storage, NULL) || !in_child(p, downgrade, NULL)))
		goto out;
	/*
	 * DuckLake 1.0 attaches its catalog file at DuckDB's newest storage version, which
	 * DuckDB 1.4 cannot read: the copy of the pinned version (FDL_STORAGE_VERSION, what
	 * catalog.storage says) is the one published
	 */
	if (!is_03)
	{
		char		from10[4200];

		tmp_path(p, from10, sizeof(from10), "from10.duckdb");
		if (rename(from10, path) != 0)
		{
			report("could not rename \"%s\": %s", from10, strerror(errno));
			goto out;
		}
	}
	if (!is_03 && access(down, F_OK) == 0 && (added = json_load_file(down, 0, &jerr)) == NULL)
	{
		report("could not read \"%s\": %s", down, jerr.text);
		goto out;
	}
	if (added)
		json_array_extend(json_object_get(manifest, "files"), added);
	json_object_set_new(json_object_get(manifest, "catalog"), "database", json_string(p->database));
	dataset_doc = fdl_dataset_build(p->o.dataset, json_object_get(manifest, "catalog"), &err);
	if (dataset_doc == NULL)
	{
		report_free(err);
		goto out;
	}
	if (!copy_data_files(p, json_object_get(manifest, "files"), &copied))
		goto out;
	if ((catalog = put_local_file(p, path, "ducklake.duckdb")) == NULL ||
		(done = put_local_file(p, path, is_03 ? "catalogs/0.3.duckdb" : "catalogs/1.0.duckdb")) == NULL)
		goto out;
	json_decref(done);
	if (is_03 && (done = put_local_file(p, copy, "catalogs/1.0.duckdb")) == NULL)
		goto out;
	if (is_03)
		json_decref(done);
	tmp_path(p, copy, sizeof(copy), "0.3.duckdb");
	if (added && (done = put_local_file(p, copy, "catalogs/0.3.duckdb")) == NULL)
		goto out;
	if (added)
		json_decref(done);
	json_object_set_new(catalog, "storage", json_string("duckdb-" FDL_STORAGE_VERSION));
	if ((dataset = put_json(p, dataset_doc, "dataset.json", OBJ_PUT_OVERWRITE)) == NULL ||
		(files = put_json(p, json_object_get(manifest, "files_json"), "files.json", OBJ_PUT_OVERWRITE)) == NULL)
		goto out;
	v = version_json(p, catalog, dataset, files);
	catalog = dataset = files = NULL;
	if (inputs)
		json_object_set(v, "inputs", inputs);
	if (annotations)
		json_object_set(v, "annotations", annotations);
	if ((done = put_json(p, v, "version.json", OBJ_PUT_IF_NONE_MATCH)) == NULL)
		goto out;
	json_decref(done);
	printf("published version %s: seq %" JSON_INTEGER_FORMAT ", snapshot %" PRId64 " of %s, %zu data files "
		   "(%d copied), in %s/versions/%s/\n", p->id, json_integer_value(json_object_get(v, "seq")),
		   p->snapshot, p->database, json_array_size(json_object_get(manifest, "files")), copied, p->o.repo, p->id);
	ok = true;

out:
	json_decref(manifest);
	json_decref(added);
	json_decref(catalog);
	json_decref(dataset_doc);
	json_decref(dataset);
	json_decref(files);
	json_decref(v);
	json_decref(inputs);
	json_decref(annotations);
	return ok;
}

/* the repository, and the URL of its data folder */
static bool
open_repo(Publish *p)
{
	const char *repo = p->o.repo;
	char		root[4096];
	size_t		n = strlen(repo);

	if (strncmp(repo, "s3://", 5) == 0)
		snprintf(root, sizeof(root), "%.*s", (int) (n - (n > 5 && repo[n - 1] == '/')), repo);
	else
	{
		if (mkdir(repo, 0755) != 0 && errno != EEXIST)
		{
			report("could not create the repository \"%s\": %s", repo, strerror(errno));
			return false;
		}
		if (realpath(repo, root) == NULL)
		{
			report("could not find \"%s\": %s", repo, strerror(errno));
			return false;
		}
	}
	if (asprintf(&p->data_url, "%s/%s/", root, p->o.data_dir) < 0)
		return false;
	p->repo = objstore_open_url(repo);
	if (p->repo == NULL)
	{
		report("could not open the repository %s: %s", repo, rl_last_error());
		return false;
	}
	return true;
}

static bool
parse_options(int argc, char **argv, PublishOptions *o)
{
	static const struct option long_options[] = {
		{"server", required_argument, NULL, 's'},
		{"repo", required_argument, NULL, 'r'},
		{"snapshot", required_argument, NULL, 'n'},
		{"author", required_argument, NULL, 'a'},
		{"message", required_argument, NULL, 'm'},
		{"dataset", required_argument, NULL, 'd'},
		{"data-dir", required_argument, NULL, 'D'},
		{"inputs", required_argument, NULL, 'i'},
		{"annotations", required_argument, NULL, 'A'},
		{"metadata-schema", required_argument, NULL, 'S'},
		{"duckdb-dir", required_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	int			c;
	char	   *end;

	*o = (PublishOptions)
	{
		.snapshot = -1, .data_dir = "data", .metadata_schema = "public"
	};
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 's': o->server = optarg; break;
			case 'r': o->repo = optarg; break;
			case 'n':
				errno = 0;
				o->snapshot = strtoll(optarg, &end, 10);
				if (errno || *end || o->snapshot < 0)
				{
					report("--snapshot takes a snapshot id, not \"%s\"", optarg);
					return false;
				}
				break;
			case 'a': o->author = optarg; break;
			case 'm': o->message = optarg; break;
			case 'd': o->dataset = optarg; break;
			case 'D': o->data_dir = optarg; break;
			case 'i': o->inputs = optarg; break;
			case 'A': o->annotations = optarg; break;
			case 'S': o->metadata_schema = optarg; break;
			case 'k': o->duckdb_root = optarg; break;
			case 'h':
				usage(stdout);
				exit(0);
			default:
				usage(stderr);
				return false;
		}
	}
	if (o->server == NULL || o->repo == NULL || optind != argc)
	{
		usage(stderr);
		return false;
	}
	if (o->data_dir[0] == '\0' || strchr(o->data_dir, '/') || strcmp(o->data_dir, "versions") == 0 ||
		o->data_dir[0] == '.')
	{
		report("--data-dir names one folder of the repository other than versions, not \"%s\"", o->data_dir);
		return false;
	}
	return true;
}

int
fdl_publish_main(int argc, char **argv)
{
	Publish		p = {0};
	const char *tmpdir = getenv("TMPDIR");
	bool		ok;

	if (!parse_options(argc, argv, &p.o))
		return 2;
	/* named by the version, so that what a killed publisher left is found by its id */
	uuid_v7(p.id);
	snprintf(p.tmp, sizeof(p.tmp), "%s/rocklake-publish-%s.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", p.id);
	if (mkdtemp(p.tmp) == NULL)
	{
		report("could not make a work directory: %s", strerror(errno));
		return 1;
	}
	ok = read_lake(&p) && open_repo(&p) && find_parent(&p) && set_pin(&p, true) && publish_version(&p);
	if (!ok && p.pinned)
		set_pin(&p, false);
	nftw(p.tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (p.repo)
		obj_close(p.repo);
	json_decref(p.parent);
	PQfreemem(p.schema);
	PQfinish(p.conn);
	free(p.database);
	free(p.live_data_path);
	free(p.data_url);
	return ok ? 0 : 1;
}
