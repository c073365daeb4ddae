/*
 * rocklake_admin.c: rocklake-admin, the operator's tool for a RockLake store.
 *
 *   rocklake-admin init    STORE          create the store (or just check it opens)
 *   rocklake-admin sample  STORE          write DuckLake's initial catalog rows (a demo)
 *   rocklake-admin inspect STORE [...]    manifests, epochs, WAL, SSTs, decoded rows
 *   rocklake-admin verify  STORE          read every object and check every checksum
 *   rocklake-admin compact STORE          flush the memtable, compact every SST into one run
 *   rocklake-admin gc      STORE          collect unreferenced objects
 *   rocklake-admin dump    STORE [--database NAME] [-f FILE] [--as-of COMMIT|TIME]
 *                                         a logical dump of one database, one commit
 *   rocklake-admin restore FILE STORE [--database NAME]
 *                                         write a dump into an empty database
 *   rocklake-admin versions|expire|withdraw|dataset-check ...
 *                                         published versions (admin/fdl_admin.h)
 *   rocklake-admin publish --server CONNINFO --repo REPO [...]
 *                                         publish a running server's lake as a
 *                                         frozen version (admin/fdl_publish.h)
 *
 * STORE is a directory (the embedded default) or s3://bucket/prefix with the
 * endpoint and credentials in the AWS_* environment variables. inspect, verify and
 * dump open the store as a follower and never write to it, so they work on a live
 * store. init, sample, compact, gc and restore open it as the writer, which would fence a
 * running server's writer and so stop that server: they first take the store's
 * writer lease (storage/lease.h) and refuse, naming the server, while a server
 * holds it. A live store is maintained through its server instead: CHECKPOINT,
 * SELECT rocklake_compact(), SELECT rocklake_gc(). There is no --force: a command
 * cannot be made safe against a server that is writing.
 *
 * STORE is the store a data directory's "store" setting names: the postgres
 * database is at its root and every other database in "db/<datid>" below it, the
 * registry of names (rl_database) being rows of the postgres database's catalog.
 * dump and restore therefore take that root and a database name (default
 * postgres) and find the database's store through the registry. dump reads as a
 * follower, so it works on a live store and sees one commit (admin/dumpfile.h has
 * its format), or a follower frozen at an earlier commit (--as-of) while GC keeps
 * what that needs; restore checks the whole file, then writes as the writer, into a
 * database whose store holds no key, in one commit. restore does not write the
 * registry: a database other than postgres must be created through a server first.
 *
 * Only init and restore create a store: the other commands on a directory that
 * does not exist are an error. Long work shows its progress on stderr when that is a
 * terminal, and every command ends with a summary.
 */
#define _GNU_SOURCE				/* strptime, timegm */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "admin/dumpfile.h"
#include "admin/fdl_admin.h"
#include "admin/fdl_publish.h"
#include "catalog/catalog_cache.h"
#include "catalog/kvcodec.h"
#include "common/ulid.h"
#include "storage/lease.h"
#include "storage/lsm.h"
#include "storage/manifest.h"
#include "storage/sst.h"

typedef struct InspectOptions
{
	const char *table;			/* only rows of this DuckLake table */
	RlBuf		prefix;			/* only keys with this prefix */
	long		limit;			/* at most this many rows (-1: all) */
	bool		objects_only;	/* no rows */
} InspectOptions;

static void
usage(FILE *out)
{
	fprintf(out,
			"Usage: rocklake-admin COMMAND STORE [OPTIONS]\n"
			"       rocklake-admin dump STORE [--database NAME] [-f FILE] [--as-of COMMIT|TIME]\n"
			"       rocklake-admin restore FILE STORE [--database NAME]\n"
			"       rocklake-admin versions REPO | expire REPO VERSION_ID | withdraw REPO VERSION_ID\n"
			"       rocklake-admin dataset-check DIR --catalog FILE   (published versions)\n"
			"       rocklake-admin publish --server CONNINFO --repo REPO [OPTIONS]\n"
			"\n"
			"Commands:\n"
			"  init      create the store, or check that an existing one opens\n"
			"  sample    write DuckLake's initial catalog rows into the store\n"
			"  inspect   show manifests, writer epochs, WAL and SST objects, and rows\n"
			"  verify    read every object and check every checksum\n"
			"  compact   flush the memtable and compact all SSTs into one sorted run\n"
			"  gc        delete objects no manifest needs, after the grace periods\n"
			"  dump      write one database's catalog as of one commit to a dump file\n"
			"  restore   write a dump file into a new or empty database\n"
			"  publish   publish a running server's lake as a frozen version (publish --help)\n"
			"\n"
			"STORE is a directory or s3://bucket/prefix (AWS_ENDPOINT_URL, AWS_REGION,\n"
			"AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY configure S3).\n"
			"inspect, verify and dump work on a store a running server uses; the other commands\n"
			"refuse to run while a server uses the store: ask that server instead\n"
			"(CHECKPOINT, SELECT rocklake_compact(), SELECT rocklake_gc()).\n"
			"\n"
			"Options:\n"
			"  -V, --version   output version information, then exit\n"
			"  -h, --help      show this help, then exit\n"
			"\n"
			"inspect options:\n"
			"  --table NAME    only rows of this DuckLake table (e.g. ducklake_schema)\n"
			"  --prefix HEX    only keys starting with these bytes\n"
			"  --limit N       show at most N rows (default 100, -1 for all)\n"
			"  --objects-only  show no rows\n"
			"\n"
			"dump and restore options (STORE is the root a data directory's \"store\" names):\n"
			"  --database NAME the database (default: postgres for dump, the dump's for restore)\n"
			"  -f, --file FILE write the dump to FILE, not to standard output\n"
			"  --as-of COMMIT|TIME\n"
			"                  dump the database as of an earlier commit, or the newest commit at\n"
			"                  or before a UTC time (YYYY-MM-DD HH:MM:SS), within what GC kept\n");
}

static int
fail(const char *what, RlStatus rc)
{
	fprintf(stderr, "rocklake-admin: %s: %s: %s\n", what, rl_status_name(rc), rl_last_error());
	return 1;
}

static void
print_key_text(const RlBuf *key)
{
	RlBuf		text;

	rlbuf_init(&text);
	kv_describe_key(key->data, key->len, &text);
	fputs(rlbuf_cstr(&text), stdout);
	rlbuf_free(&text);
}

static void
print_sst_meta(const char *indent, const SstMeta *s)
{
	printf("%s%s  %" PRIu64 " bytes  %" PRIu64 " entries  seq %" PRIu64 "..%" PRIu64 "\n",
		   indent, s->id, s->size, s->entries, s->min_seq, s->max_seq);
	printf("%s  first ", indent);
	print_key_text(&s->first_key);
	printf("\n%s  last  ", indent);
	print_key_text(&s->last_key);
	printf("\n");
}

typedef struct WalSummary
{
	int			objects;
	int			fences;
	uint64_t	bytes;
	uint64_t	first_id;
	uint64_t	last_id;
	char		fence_ids[256];
} WalSummary;

static bool
wal_summary_cb(const ObjInfo *info, void *arg)
{
	WalSummary *w = arg;
	uint64_t	id = object_key_id(info->key, "wal/", ".sst");

	if (id == 0)
		return true;
	if (w->objects++ == 0)
		w->first_id = id;
	w->last_id = id;
	w->bytes += info->size;
	if (info->size == 0)
	{
		size_t		used = strlen(w->fence_ids);

		if (used + 24 < sizeof(w->fence_ids))
			snprintf(w->fence_ids + used, sizeof(w->fence_ids) - used, "%s%" PRIu64, used ? ", " : "", id);
		w->fences++;
	}
	return true;
}

static bool
manifest_list_cb(const ObjInfo *info, void *arg)
{
	uint64_t	id = object_key_id(info->key, "manifest/", ".manifest");

	if (id)
		printf("  %-40s %6" PRIu64 " bytes\n", info->key, info->size);
	(*(int *) arg)++;
	return true;
}

typedef struct RowPrinter
{
	long		shown;
	long		limit;
	long		total;
} RowPrinter;

static bool
row_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	RowPrinter *p = arg;
	RlBuf		text;

	p->total++;
	if (p->limit >= 0 && p->shown >= p->limit)
		return true;
	rlbuf_init(&text);
	kv_describe_key(key, klen, &text);
	rlbuf_append_str(&text, " = ");
	kv_describe_value(key, klen, val, vlen, &text);
	printf("  %s\n", rlbuf_cstr(&text));
	rlbuf_free(&text);
	p->shown++;
	return true;
}

/* who writes the store now, if anyone (storage/lease.h) */
static void
print_lease(ObjectStore *os)
{
	LeaseHolder h;
	RlBuf		text;
	RlStatus	rc = lease_holder(os, &h);

	rlbuf_init(&text);
	if (rc == RL_OK)
		lease_describe(&h, &text);
	else if (rc == RL_NOT_FOUND)
		rlbuf_append_str(&text, "none (no server is writing the store)");
	else
		rlbuf_printf(&text, "unknown: %s: %s", rl_status_name(rc), rl_last_error());
	printf("writer lease:   %s\n", rlbuf_cstr(&text));
	rlbuf_free(&text);
}

static int
cmd_inspect(ObjectStore *os, const InspectOptions *io)
{
	Lsm		   *lsm;
	LsmStats	st;
	RlStatus	rc = lsm_open_follower(os, NULL, &lsm);

	if (rc != RL_OK)
		return fail("open", rc);
	lsm_stats(lsm, &st);
	const Manifest *m = lsm_manifest(lsm);

	printf("store:          %s\n", os->description);
	printf("database:       %s\n", st.db_uuid);
	printf("manifest:       %" PRIu64 " (created_ms %" PRId64 ")\n", m->manifest_id, m->created_ms);
	printf("writer epoch:   %" PRIu64 "\n", m->writer_epoch);
	printf("replay after:   WAL %" PRIu64 " (last seq in SSTs %" PRIu64 ")\n",
		   m->replay_after_wal_id, m->last_l0_seq);
	printf("last seq:       %" PRIu64 "\n", st.last_seq);
	printf("memtable:       %zu entries replayed from the WAL\n", st.memtable_entries);
	print_lease(os);

	int			n_manifests = 0;

	printf("\nmanifest objects:\n");
	rc = obj_list(os, "manifest/", NULL, manifest_list_cb, &n_manifests);
	if (rc != RL_OK)
		return fail("list manifests", rc);

	WalSummary	wal = {0};

	rc = obj_list(os, "wal/", NULL, wal_summary_cb, &wal);
	if (rc != RL_OK)
		return fail("list WAL", rc);
	printf("\nWAL objects:    %d (ids %" PRIu64 "..%" PRIu64 ", %" PRIu64 " bytes), %d fences%s%s%s\n",
		   wal.objects, wal.first_id, wal.last_id, wal.bytes, wal.fences,
		   wal.fences ? " (at " : "", wal.fence_ids, wal.fences ? ")" : "");

	printf("\nL0 SSTs (newest first): %d\n", m->n_l0);
	for (int i = 0; i < m->n_l0; i++)
		print_sst_meta("  ", &m->l0[i]);
	printf("\nsorted runs (newest first): %d\n", m->n_runs);
	for (int r = 0; r < m->n_runs; r++)
	{
		printf("  run %" PRIu64 ": %d SSTs\n", m->runs[r].run_id, m->runs[r].n_ssts);
		for (int i = 0; i < m->runs[r].n_ssts; i++)
			print_sst_meta("    ", &m->runs[r].ssts[i]);
	}
	if (!io->objects_only)
	{
		RowPrinter	p = {.limit = io->limit};
		RlBuf		prefix;

		rlbuf_init(&prefix);
		rlbuf_append(&prefix, io->prefix.data, io->prefix.len);
		if (io->table)
		{
			const KvTable *t = kv_table_by_name(io->table);

			if (t == NULL)
			{
				fprintf(stderr, "rocklake-admin: unknown DuckLake table \"%s\"\n", io->table);
				lsm_close(lsm);
				rlbuf_free(&prefix);
				return 1;
			}
			rlbuf_reset(&prefix);
			kv_encode_key_prefix(t, NULL, 0, &prefix);
		}
		printf("\nrows:\n");
		rc = lsm_scan_prefix(lsm, prefix.data, prefix.len, row_cb, &p);
		rlbuf_free(&prefix);
		if (rc != RL_OK)
		{
			lsm_close(lsm);
			return fail("scan", rc);
		}
		printf("  (%ld rows%s)\n", p.total, p.shown < p.total ? ", more not shown: use --limit" : "");
	}
	lsm_close(lsm);
	return 0;
}

typedef struct VerifyState
{
	ObjectStore *os;
	int			checked;
	int			bad;
	uint64_t	bytes;
	bool		progress;		/* stderr is a terminal */
	int64_t		shown_ms;		/* when progress was last shown */
} VerifyState;

static bool
verify_cb(const ObjInfo *info, void *arg)
{
	VerifyState *v = arg;
	RlBuf		bytes;
	RlStatus	rc;
	bool		is_sst = strncmp(info->key, "wal/", 4) == 0 || strncmp(info->key, "compacted/", 10) == 0;
	bool		is_manifest = strncmp(info->key, "manifest/", 9) == 0;

	if (!is_sst && !is_manifest)
		return true;
	rlbuf_init(&bytes);
	rc = obj_get(v->os, info->key, &bytes);
	if (rc == RL_OK && is_manifest)
	{
		Manifest	m;

		rc = manifest_decode(bytes.data, bytes.len, &m);
		if (rc == RL_OK)
			manifest_free(&m);
	}
	else if (rc == RL_OK && bytes.len > 0)
	{
		SstReader  *r;

		rc = sst_reader_open(bytes.data, bytes.len, &r);
		if (rc == RL_OK)
		{
			SstIter    *it = sst_iter_new(r);

			for (sst_iter_seek_first(it); sst_iter_valid(it); sst_iter_next(it))
				;
			rc = sst_iter_status(it);
			sst_iter_free(it);
			sst_reader_free(r);
		}
	}
	v->checked++;
	v->bytes += info->size;
	if (v->progress && rl_monotonic_ms() - v->shown_ms >= 200)
	{
		fprintf(stderr, "\rverifying: %d objects, %" PRIu64 " bytes read ", v->checked, v->bytes);
		v->shown_ms = rl_monotonic_ms();
	}
	if (rc != RL_OK && rc != RL_NOT_FOUND)	/* a concurrent GC may remove objects */
	{
		printf("  BAD %s: %s: %s\n", info->key, rl_status_name(rc), rl_last_error());
		v->bad++;
	}
	rlbuf_free(&bytes);
	return true;
}

static int
cmd_verify(ObjectStore *os)
{
	VerifyState v = {.os = os, .progress = isatty(STDERR_FILENO)};
	Lsm		   *lsm;
	RlStatus	rc = obj_list(os, "", NULL, verify_cb, &v);

	if (v.progress)
		fprintf(stderr, "\r\033[K");

	if (rc != RL_OK)
		return fail("list", rc);
	/* and the store opens and reads through: every referenced SST is present */
	rc = lsm_open_follower(os, NULL, &lsm);
	if (rc == RL_OK)
	{
		RowPrinter	p = {.limit = 0};

		rc = lsm_scan(lsm, "", 0, NULL, 0, row_cb, &p);
		lsm_close(lsm);
	}
	if (rc != RL_OK)
	{
		printf("  BAD store: %s: %s\n", rl_status_name(rc), rl_last_error());
		v.bad++;
	}
	printf("verified %d objects (%" PRIu64 " bytes): %s\n", v.checked, v.bytes,
		   v.bad ? "CORRUPTION FOUND" : "all checksums match");
	return v.bad ? 1 : 0;
}

static KvDatum
datum_int(int64_t v)
{
	return (KvDatum) {.type = KV_INT64, .i = v};
}

static KvDatum
datum_text(const char *s)
{
	return (KvDatum) {.type = KV_TEXT, .s = s, .len = strlen(s)};
}

static KvDatum
datum_null(void)
{
	return (KvDatum) {.type = KV_NULL};
}

/* add_row -- a row of a DuckLake table, the row_id-th of it (its _rl_rowid in a cache) */
static RlStatus
add_row(LsmBatch *b, const char *table, int64_t row_id, const KvDatum *row, int n)
{
	RlBuf		key,
				value;
	const KvTable *t = kv_table_by_name(table);
	RlStatus	rc;

	rlbuf_init(&key);
	rlbuf_init(&value);
	rc = kv_encode_row(t, row, n, &key, &value);
	kv_append_row_id(&key, row_id);
	if (rc == RL_OK)
		lsm_batch_put(b, key.data, key.len, value.data, value.len);
	rlbuf_free(&key);
	rlbuf_free(&value);
	return rc;
}

/*
 * open_as_writer -- take the writer lease, refusing if a server holds it, then open
 * the store as its writer; 0, or the exit status of a refusal or a failure
 */
static int
open_as_writer(ObjectStore *os, const char *location, const LsmOptions *opts, LeaseHolder *self,
			   Lsm **lsm)
{
	LeaseHolder other;
	RlStatus	rc;

	lease_holder_self(self, "rocklake-admin");
	rc = lease_take(os, self, false, &other);
	if (rc == RL_CONTENDED)
	{
		RlBuf		who;

		rlbuf_init(&who);
		lease_describe(&other, &who);
		/* a lease object outlives a holder that died, for a while */
		if (os->ops->lock_take == NULL && other.renewed_ms > 0)
			rlbuf_printf(&who, "; its lease was renewed %lld s ago and lapses %d s after that",
						 (long long) ((rl_now_ms() - other.renewed_ms) / 1000), LEASE_TTL_MS / 1000);
		fprintf(stderr, "rocklake-admin: store \"%s\" is in use: refusing to take it over\n"
				"DETAIL:  It is written by %s.\n"
				"HINT:  Stop that server first, or maintain the store through it: "
				"CHECKPOINT, SELECT rocklake_compact(), SELECT rocklake_gc().\n",
				location, rlbuf_cstr(&who));
		rlbuf_free(&who);
		return 1;
	}
	if (rc != RL_OK)
		return fail("take the writer lease", rc);
	rc = lsm_open_writer(os, opts, lsm);
	if (rc != RL_OK)
	{
		lease_drop(os, self);
		return fail("open", rc);
	}
	return 0;
}

/* The rows DuckLake 0.3 writes when it initialises a catalog (doc/ducklake-wire.md). */
static int
cmd_sample(ObjectStore *os, const char *location)
{
	Lsm		   *lsm;
	LeaseHolder self;
	RlStatus	rc = RL_OK;

	if (open_as_writer(os, location, NULL, &self, &lsm) != 0)
		return 1;
	LsmBatch   *b = lsm_batch_new();
	/* microseconds since 2000-01-01, PostgreSQL's timestamptz epoch */
	int64_t		now_us = (rl_now_ms() - 946684800000LL) * 1000;
	uint8_t		uuid[16];
	char		hex[33];

	rl_random_hex(hex, 16);
	for (int i = 0; i < 16; i++)
		sscanf(hex + 2 * i, "%2hhx", &uuid[i]);
	KvDatum		metadata[][4] = {
		{datum_text("version"), datum_text("0.3"), datum_null(), datum_null()},
		{datum_text("created_by"), datum_text("rocklake-admin sample"), datum_null(), datum_null()},
		{datum_text("data_path"), datum_text("data/"), datum_null(), datum_null()},
		{datum_text("encrypted"), datum_text("false"), datum_null(), datum_null()},
	};
	KvDatum		schema_versions[] = {datum_int(0), datum_int(0)};
	KvDatum		snapshot[] = {datum_int(0), {.type = KV_INT64, .i = now_us}, datum_int(0), datum_int(1), datum_int(0)};
	KvDatum		changes[] = {datum_int(0), datum_text("created_schema:\"main\""), datum_null(), datum_null(), datum_null()};
	KvDatum		schema[] = {datum_int(0), {.type = KV_BYTES, .s = (const char *) uuid, .len = 16},
	datum_int(0), datum_null(), datum_text("main"), datum_text("main/"), {.type = KV_BOOL, .b = true}};

	for (size_t i = 0; rc == RL_OK && i < sizeof(metadata) / sizeof(metadata[0]); i++)
		rc = add_row(b, "ducklake_metadata", (int64_t) i + 1, metadata[i], 4);
	if (rc == RL_OK)
		rc = add_row(b, "ducklake_schema_versions", 1, schema_versions, 2);
	if (rc == RL_OK)
		rc = add_row(b, "ducklake_snapshot", 1, snapshot, 5);
	if (rc == RL_OK)
		rc = add_row(b, "ducklake_snapshot_changes", 1, changes, 5);
	if (rc == RL_OK)
		rc = add_row(b, "ducklake_schema", 1, schema, 7);
	uint64_t	seq = 0;

	if (rc == RL_OK)
		rc = lsm_commit(lsm, &b, 1, &seq);
	lsm_batch_free(b);
	lsm_close(lsm);
	lease_drop(os, &self);
	if (rc != RL_OK)
		return fail("sample", rc);
	printf("wrote DuckLake's initial catalog rows as commit %" PRIu64 "\n", seq);
	return 0;
}

/* the progress of compaction or GC on a terminal, at most five times a second */
static void
show_progress(void *arg, const char *what, uint64_t done)
{
	int64_t    *shown_ms = arg;

	if (rl_monotonic_ms() - *shown_ms < 200)
		return;
	*shown_ms = rl_monotonic_ms();
	fprintf(stderr, "\r\033[K%" PRIu64 " %s", done, what);
}

/* init (open and close), compact or gc as the store's writer */
static int
cmd_writer_task(ObjectStore *os, const char *location, const char *command)
{
	Lsm		   *lsm;
	LsmStats	st;
	LsmOptions	opts;
	LeaseHolder self;
	LsmTaskResult r = {0};
	RlStatus	rc = RL_OK;
	bool		init = strcmp(command, "init") == 0;
	bool		tty = !init && isatty(STDERR_FILENO);
	int64_t		shown_ms = 0;

	lsm_options_default(&opts);
	if (tty)
	{
		opts.progress = show_progress;
		opts.progress_arg = &shown_ms;
	}
	if (open_as_writer(os, location, &opts, &self, &lsm) != 0)
		return 1;
	if (tty)
		fprintf(stderr, "%s ...", strcmp(command, "gc") == 0 ? "collecting unreferenced objects" :
				"flushing the memtable and merging every SST");
	if (!init)
		rc = lsm_run_task(lsm, strcmp(command, "gc") == 0 ? LSM_TASK_GC : LSM_TASK_COMPACT, &r);
	if (tty)
		fprintf(stderr, "\r\033[K");
	lsm_stats(lsm, &st);
	lsm_close(lsm);
	lease_drop(os, &self);
	if (rc != RL_OK)
		return fail(command, rc);
	printf("%s: manifest %" PRIu64 ", writer epoch %" PRIu64 ", %d L0 SSTs, %d sorted runs",
		   command, st.manifest_id, st.writer_epoch, st.l0_ssts, st.sorted_runs);
	if (!init)
		printf("; objects %" PRIu64 " -> %" PRIu64 ", bytes %" PRIu64 " -> %" PRIu64
			   ", %" PRIu64 " objects deleted", r.objects_before, r.objects_after,
			   r.bytes_before, r.bytes_after, r.deleted);
	printf("\n");
	return 0;
}

/* what database_store looks for in the registry, and what it finds */
typedef struct RegistryLookup
{
	const char *name;
	bool		found;
	uint32_t	datid;
} RegistryLookup;

/* a registry row (rl_database: datid, datname): is it the database looked for? */
static bool
registry_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	RegistryLookup *look = arg;
	uint32_t	relid;
	uint64_t	datid;
	KvRow		row;

	if (kv_decode_generic_key(key, klen, &relid, &datid) != RL_OK ||
		kv_decode_generic_value(val, vlen, &row) != RL_OK)
		return true;
	for (int i = 0; i < row.ncolumns && !look->found; i++)
		look->found = row.columns[i].type == KV_TEXT && row.columns[i].len == strlen(look->name) &&
			memcmp(row.columns[i].s, look->name, row.columns[i].len) == 0;
	kv_row_free(&row);
	look->datid = (uint32_t) datid;
	return !look->found;
}

/*
 * database_store -- the store of database name in the store root: the root for
 * postgres, else "db/<datid>" below it as the registry names it; 0, or 1 after
 * saying why not (for_restore: and how to make one to restore into)
 */
static int
database_store(const char *root, const char *name, bool for_restore, RlBuf *location,
			   uint32_t *datid)
{
	ObjectStore *os = NULL;
	Lsm		   *lsm;
	RlBuf		prefix;
	RegistryLookup look = {.name = name};
	RlStatus	rc = RL_NOT_FOUND;
	struct stat st;

	rlbuf_reset(location);
	rlbuf_append_str(location, root);
	*datid = CACHE_POSTGRES_DATID;
	if (strcmp(name, "postgres") == 0)
		return 0;
	/* a local root that does not exist names no database (and is not made) */
	if (strncmp(root, "s3://", 5) == 0 || stat(root, &st) == 0)
	{
		os = objstore_open_url(root);
		rc = os ? lsm_open_follower(os, NULL, &lsm) :
			rl_error(RL_IO_ERROR, "cannot open store %s: %s", root, rl_last_error());
	}
	if (rc == RL_OK)
	{
		rlbuf_init(&prefix);
		kv_generic_prefix(CACHE_DATABASE_RELID, &prefix);
		rc = lsm_scan_prefix(lsm, prefix.data, prefix.len, registry_cb, &look);
		rlbuf_free(&prefix);
		lsm_close(lsm);
	}
	if (os)
		obj_close(os);
	if (rc != RL_OK && rc != RL_NOT_FOUND)
		return fail("read the database registry", rc);
	if (!look.found)
	{
		fprintf(stderr, "rocklake-admin: database \"%s\" does not exist in store \"%s\"\n", name, root);
		if (for_restore)
			fprintf(stderr, "HINT:  A database other than postgres is restored into one the registry "
					"names: CREATE DATABASE through a server on the store, stop it, then restore; "
					"or restore into a new store as its postgres database (--database postgres).\n");
		return 1;
	}
	*datid = look.datid;
	rlbuf_printf(location, "/db/%u", *datid);
	return 0;
}

typedef struct DumpState
{
	DumpWriter	w;
	RlBuf		last_key;
	bool		restarted;		/* the scan began again (a follower's manifest reload) */
	bool		progress;
	int64_t		shown_ms;
} DumpState;

static bool
dump_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	DumpState  *d = arg;
	size_t		common = klen < d->last_key.len ? klen : d->last_key.len;
	int			cmp = d->w.count > 0 ? memcmp(key, d->last_key.data, common) : 1;

	if (cmp < 0 || (cmp == 0 && klen <= d->last_key.len))
	{
		d->restarted = true;
		return false;
	}
	rlbuf_reset(&d->last_key);
	rlbuf_append(&d->last_key, key, klen);
	dump_writer_record(&d->w, key, klen, val, vlen);
	if (d->progress && rl_monotonic_ms() - d->shown_ms >= 200)
	{
		fprintf(stderr, "\r\033[Kdumping: %" PRIu64 " records, %" PRIu64 " bytes", d->w.count, d->w.bytes);
		d->shown_ms = rl_monotonic_ms();
	}
	return !d->w.failed;
}

static void
format_utc(int64_t ms, char *out, size_t size)
{
	time_t		t = (time_t) (ms / 1000);
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/*
 * parse_utc -- a UTC time "YYYY-MM-DD[ HH:MM:SS[.fff]]" (or with a T, ending in Z,
 * " UTC", +00 or +00:00) as ms since 1970; false if it is not one
 */
static bool
parse_utc(const char *text, int64_t *ms)
{
	struct tm	tm = {0};
	const char *rest = strptime(text, "%Y-%m-%d", &tm);
	int64_t		frac = 0;

	if (rest && (*rest == ' ' || *rest == 'T'))
		rest = strptime(rest + 1, "%H:%M:%S", &tm);
	if (rest && *rest == '.')
	{
		int			digits = 0;

		for (rest++; isdigit((unsigned char) *rest); rest++)
			if (digits++ < 3)
				frac = frac * 10 + (*rest - '0');
		if (digits == 0)
			return false;
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (rest == NULL || !(*rest == '\0' || strcmp(rest, "Z") == 0 || strcmp(rest, " UTC") == 0 ||
						  strcmp(rest, "+00") == 0 || strcmp(rest, "+00:00") == 0))
		return false;
	*ms = (int64_t) timegm(&tm) * 1000 + frac;
	return true;
}

/*
 * as_of_commit -- the commit --as-of names: a commit number, or the newest commit
 * at or before a UTC time; 0, or 1 after saying why not
 */
static int
as_of_commit(ObjectStore *os, const char *text, uint64_t *as_of)
{
	int64_t		ms;
	char	   *end;
	RlStatus	rc;

	errno = 0;
	*as_of = strtoull(text, &end, 10);
	if (isdigit((unsigned char) text[0]) && *end == '\0' && errno == 0 && *as_of != UINT64_MAX)
		return 0;
	if (!parse_utc(text, &ms))
	{
		fprintf(stderr, "rocklake-admin: --as-of takes a commit number or a UTC time "
				"(YYYY-MM-DD HH:MM:SS), not \"%s\"\n", text);
		return 1;
	}
	rc = lsm_commit_at_time(os, ms, as_of);
	return rc == RL_OK ? 0 : fail("dump --as-of", rc);
}

/*
 * cmd_dump -- every key/value of one database as a follower sees it: one manifest
 * and the whole WAL objects after it, so one commit and never part of one; with
 * as_of_text, a follower frozen at the commit it names
 *
 * A follower whose manifest lost an SST to GC in the middle of the scan starts the
 * scan again from a newer manifest: the dump is then refused, not spliced.
 */
static int
cmd_dump(const char *root, const char *database, const char *file, const char *as_of_text)
{
	RlBuf		location;
	uint32_t	datid;
	Lsm		   *lsm;
	LsmStats	st;
	DumpState	d = {.progress = isatty(STDERR_FILENO)};
	DumpHeader	h = {0};
	FILE	   *out = stdout;
	uint64_t	as_of = UINT64_MAX;
	RlStatus	rc;
	char		when[64];

	if (file == NULL && isatty(STDOUT_FILENO))
	{
		fprintf(stderr, "rocklake-admin: refusing to write a dump to a terminal\n"
				"HINT:  Redirect the output to a file, or name one with -f FILE.\n");
		return 1;
	}
	rlbuf_init(&location);
	if (database_store(root, database, false, &location, &datid) != 0)
	{
		rlbuf_free(&location);
		return 1;
	}
	ObjectStore *os = objstore_open_url(rlbuf_cstr(&location));

	if (os && as_of_text && as_of_commit(os, as_of_text, &as_of) != 0)
	{
		obj_close(os);
		rlbuf_free(&location);
		return 1;
	}
	if (os == NULL)
		rc = rl_error(RL_IO_ERROR, "cannot open store %s: %s", rlbuf_cstr(&location), rl_last_error());
	else if (as_of == UINT64_MAX)
		rc = lsm_open_follower(os, NULL, &lsm);
	else
		rc = lsm_open_follower_as_of(os, NULL, as_of, &lsm);
	if (rc != RL_OK)
	{
		if (os)
			obj_close(os);
		rlbuf_free(&location);
		return fail(as_of == UINT64_MAX ? "open" : "dump --as-of", rc);
	}
	if (file && (out = fopen(file, "wb")) == NULL)
	{
		fprintf(stderr, "rocklake-admin: could not open \"%s\" for writing: %s\n", file, strerror(errno));
		lsm_close(lsm);
		obj_close(os);
		rlbuf_free(&location);
		return 1;
	}
	lsm_stats(lsm, &st);
	snprintf(h.rocklake_version, sizeof(h.rocklake_version), "%s", PACKAGE_VERSION);
	snprintf(h.database, sizeof(h.database), "%s", database);
	snprintf(h.store_uuid, sizeof(h.store_uuid), "%s", st.db_uuid);
	h.datid = datid;
	h.commit_seq = st.last_seq;
	h.manifest_id = st.manifest_id;
	h.dumped_ms = rl_now_ms();
	dump_writer_begin(&d.w, out, &h);
	rlbuf_init(&d.last_key);
	rc = lsm_scan(lsm, "", 0, NULL, 0, dump_cb, &d);
	if (d.restarted)
		rc = rl_error(RL_UNAVAILABLE, "garbage collection removed an SST the dump was reading: run it again");
	else if (rc == RL_OK || d.w.failed)
		rc = dump_writer_finish(&d.w);
	rlbuf_free(&d.last_key);
	if (d.progress)
		fprintf(stderr, "\r\033[K");
	if (file && fclose(out) != 0 && rc == RL_OK)
		rc = rl_error(RL_IO_ERROR, "could not write \"%s\": %s", file, strerror(errno));
	lsm_close(lsm);
	obj_close(os);
	if (rc != RL_OK)
	{
		if (file)
			unlink(file);		/* never leave a file that looks like a dump */
		dump_writer_free(&d.w);
		rlbuf_free(&location);
		return fail("dump", rc);
	}
	format_utc(h.dumped_ms, when, sizeof(when));
	fprintf(stderr, "dumped database \"%s\" (store \"%s\") as of commit %" PRIu64 ", manifest %" PRIu64
			": %" PRIu64 " records, %" PRIu64 " bytes, at %s\n", database, rlbuf_cstr(&location),
			h.commit_seq, h.manifest_id, d.w.count, d.w.bytes, when);
	dump_writer_free(&d.w);
	rlbuf_free(&location);
	return 0;
}

static bool
restore_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	lsm_batch_put(arg, key, klen, val, vlen);
	return true;
}

static bool
count_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	(void) key, (void) klen, (void) val, (void) vlen;
	(*(uint64_t *) arg)++;
	return true;
}

/* 0 if the store at lsm holds no key, else 1 after saying so */
static int
refuse_unless_empty(Lsm *lsm, const char *location, const char *database)
{
	uint64_t	keys = 0;
	LsmStats	st;
	RlStatus	rc = lsm_scan(lsm, "", 0, NULL, 0, count_cb, &keys);

	if (rc != RL_OK)
		return fail("read the target store", rc);
	if (keys == 0)
		return 0;
	lsm_stats(lsm, &st);
	fprintf(stderr, "rocklake-admin: database \"%s\" (store \"%s\") is not empty: refusing to restore into it\n"
			"DETAIL:  It holds %" PRIu64 " keys as of commit %" PRIu64 ".\n"
			"HINT:  Restore into a new store, or into a database just created and never used.\n",
			database, location, keys, st.last_seq);
	return 1;
}

/*
 * cmd_restore -- check the whole dump, then write it into an empty database as one
 * commit (all of it or none), then checkpoint so a server's start replays no WAL
 */
static int
cmd_restore(const char *file, const char *root, const char *database)
{
	RlBuf		bytes,
				location;
	DumpHeader	h;
	uint64_t	count = 0;
	uint32_t	datid;
	LsmBatch   *b = lsm_batch_new();
	LeaseHolder self;
	ObjectStore *os;
	Lsm		   *lsm;
	FILE	   *in = fopen(file, "rb");
	RlStatus	rc = RL_OK;
	uint64_t	seq = 0;
	LsmTaskResult r;
	char		when[64];
	int			result = 1;

	rlbuf_init(&bytes);
	rlbuf_init(&location);
	if (in == NULL)
	{
		fprintf(stderr, "rocklake-admin: could not open \"%s\": %s\n", file, strerror(errno));
		goto out;
	}
	for (size_t n = 1; n > 0;)
	{
		rlbuf_reserve(&bytes, 1024 * 1024);
		n = fread(bytes.data + bytes.len, 1, 1024 * 1024, in);
		bytes.len += n;
	}
	if (ferror(in))
		rc = rl_error(RL_IO_ERROR, "could not read \"%s\": %s", file, strerror(errno));
	fclose(in);
	if (rc == RL_OK)
		rc = dump_read(bytes.data, bytes.len, &h, &count, restore_cb, b);
	if (rc != RL_OK)
	{
		fprintf(stderr, "rocklake-admin: \"%s\" cannot be restored: %s\n", file, rl_last_error());
		goto out;
	}
	if (database == NULL)
		database = h.database;
	if (database_store(root, database, true, &location, &datid) != 0)
		goto out;

	/* refuse a database in use without writing anything, then again under the lease */
	os = objstore_open_url(rlbuf_cstr(&location));
	if (os == NULL)
	{
		fail("open", RL_IO_ERROR);
		goto out;
	}
	rc = lsm_open_follower(os, NULL, &lsm);
	if (rc == RL_OK)
	{
		result = refuse_unless_empty(lsm, rlbuf_cstr(&location), database);
		lsm_close(lsm);
	}
	else if (rc != RL_NOT_FOUND)	/* a new store has no manifest yet */
		result = fail("open", rc);
	else
		result = 0;
	if (result == 0)
		result = open_as_writer(os, rlbuf_cstr(&location), NULL, &self, &lsm);
	if (result == 0)
	{
		result = refuse_unless_empty(lsm, rlbuf_cstr(&location), database);
		if (result == 0 && isatty(STDERR_FILENO))
			fprintf(stderr, "restoring %" PRIu64 " records ...", count);
		if (result == 0)
			rc = lsm_commit(lsm, &b, 1, &seq);
		if (result == 0 && rc == RL_OK)
			rc = lsm_run_task(lsm, LSM_TASK_CHECKPOINT, &r);
		if (result == 0 && isatty(STDERR_FILENO))
			fprintf(stderr, "\r\033[K");
		lsm_close(lsm);
		lease_drop(os, &self);
		if (result == 0 && rc != RL_OK)
			result = fail("restore", rc);
	}
	obj_close(os);
	if (result == 0)
	{
		format_utc(h.dumped_ms, when, sizeof(when));
		printf("restored %" PRIu64 " records into database \"%s\" (store \"%s\") as commit %" PRIu64
			   "; the dump was of database \"%s\" as of commit %" PRIu64 " at %s (RockLake %s)\n",
			   count, database, rlbuf_cstr(&location), seq, h.database, h.commit_seq, when,
			   h.rocklake_version);
	}
out:
	lsm_batch_free(b);
	rlbuf_free(&bytes);
	rlbuf_free(&location);
	return result;
}

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"table", required_argument, NULL, 't'},
		{"prefix", required_argument, NULL, 'p'},
		{"limit", required_argument, NULL, 'l'},
		{"objects-only", no_argument, NULL, 'o'},
		{"database", required_argument, NULL, 'd'},
		{"file", required_argument, NULL, 'f'},
		{"as-of", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0}
	};
	InspectOptions io = {.limit = 100};
	const char *database = NULL,
			   *file = NULL;
	const char *as_of = NULL;
	int			c;

	/* the commands on published versions parse their own arguments */
	if (argc > 1 && fdl_admin_is_command(argv[1]))
		return fdl_admin_main(argc - 1, argv + 1);
	/* publish talks to a server, not to a store: options of its own */
	if (argc >= 2 && strcmp(argv[1], "publish") == 0)
		return fdl_publish_main(argc - 1, argv + 1);
	rlbuf_init(&io.prefix);
	while ((c = getopt_long(argc, argv, "hVf:", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 't':
				io.table = optarg;
				break;
			case 'p':
				if (!rlbuf_append_unhex(&io.prefix, optarg))
				{
					fprintf(stderr, "rocklake-admin: --prefix takes hex digits, not \"%s\"\n", optarg);
					return 2;
				}
				break;
			case 'l':
				io.limit = strtol(optarg, NULL, 10);
				break;
			case 'o':
				io.objects_only = true;
				break;
			case 'd':
				database = optarg;
				break;
			case 'f':
				file = optarg;
				break;
			case 'a':
				as_of = optarg;
				break;
			case 'h':
				usage(stdout);
				return 0;
			case 'V':
				printf("rocklake-admin (RockLake) %s\n", PACKAGE_VERSION);
				return 0;
			default:
				usage(stderr);
				return 2;
		}
	}
	bool		restore = argc > optind && strcmp(argv[optind], "restore") == 0;

	if (argc - optind != (restore ? 3 : 2))
	{
		usage(stderr);
		return 2;
	}
	const char *command = argv[optind],
			   *location = argv[argc - 1];
	static const char *const commands[] = {"init", "sample", "inspect", "verify", "compact", "gc",
	"dump", "restore"};
	bool		known = false;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		known |= strcmp(command, commands[i]) == 0;
	if (!known)
	{
		fprintf(stderr, "rocklake-admin: unknown command \"%s\"\n", command);
		usage(stderr);
		return 2;
	}
	struct stat st;

	/* restore, like init, writes into a new store */
	if (restore)
		return cmd_restore(argv[optind + 1], location, database);
	/* only init makes a store: a mistyped directory is an error, not a new store */
	if (strcmp(command, "init") != 0 && strncmp(location, "s3://", 5) != 0 &&
		stat(location, &st) != 0)
	{
		fprintf(stderr, "rocklake-admin: store \"%s\" does not exist (only init creates a store)\n",
				location);
		return 1;
	}
	if (strcmp(command, "dump") == 0)
		return cmd_dump(location, database ? database : "postgres", file, as_of);
	ObjectStore *os = objstore_open_url(location);

	if (os == NULL)
	{
		fprintf(stderr, "rocklake-admin: cannot open store %s: %s\n", location, rl_last_error());
		return 1;
	}
	int			result;

	if (strcmp(command, "inspect") == 0)
		result = cmd_inspect(os, &io);
	else if (strcmp(command, "verify") == 0)
		result = cmd_verify(os);
	else if (strcmp(command, "sample") == 0)
		result = cmd_sample(os, location);
	else
		result = cmd_writer_task(os, location, command);	/* init, compact, gc */
	obj_close(os);
	rlbuf_free(&io.prefix);
	return result;
}
