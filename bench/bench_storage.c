/*
 * bench_storage.c: the storage-engine benchmark (issue 2). It measures what a
 * catalog commit and a catalog read cost in the LSM store and prints each figure
 * next to the floor the same hardware allows, so that the result reads as a ratio
 * rather than as absolute times that only mean something on one machine:
 *   - local commits against a bare durable create on the same disk (temp file,
 *     fsync, link, directory fsync: what the local store's create-if-absent has to
 *     do whatever the LSM does above it) and against append+fsync of one open file
 *     (the floor of a classic single-file WAL); also group commit throughput;
 *   - point gets (present and absent keys) and prefix scans of ~10 and ~1000 keys
 *     after loading 1e4, 1e5 and 1e6 catalog-like keys;
 *   - commits on S3 against a bare PUT and a bare conditional PUT of the same size
 *     to the same server.
 * bench/run-storage-bench.sh runs it (with a local moto server for the S3 part)
 * and doc/performance.md records the figures; no test asserts them, since they
 * depend on the machine.
 */
#define _GNU_SOURCE				/* mkdtemp, nftw */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "common/rl_buffer.h"
#include "common/ulid.h"
#include "storage/lsm.h"
#include "storage/objstore.h"

#define KEY_LEN 17				/* tag byte + big-endian parent id + child id */
#define PREFIX_LEN 9			/* tag byte + parent id: one parent's children */
#define VALUE_LEN 100
#define COMMIT_KEYS 5			/* keys in one catalog commit */
#define GROUP_BATCHES 16		/* batches per lsm_commit for group commit */
#define LOAD_BATCH_KEYS 1000	/* keys per batch while loading the read sets */
#define ROUNDS 10				/* compared series run interleaved in this many rounds */
#define TAG_SMALL 0x10			/* read set: parents with SMALL_GROUP children */
#define TAG_LARGE 0x20			/* ... and parents with LARGE_GROUP children */
#define SMALL_GROUP 10
#define LARGE_GROUP 1000

typedef struct Options
{
	const char *dir;			/* parent of the benchmark's scratch directory */
	const char *s3_url;			/* NULL: no S3 section */
	const char *json_path;		/* NULL: no JSON dump */
	int			commits;		/* local commits per series */
	int			s3_commits;		/* S3 commits per series */
	long		max_keys;		/* largest read set (0: no read section) */
	int			reads;			/* gets per series (scans: a tenth) */
	bool		local;			/* run the local commit section */
} Options;

/* Latencies of one timed series, in microseconds. */
typedef struct Samples
{
	double	   *us;
	int			n;
	double		total_us;
} Samples;

static json_t *results;			/* section -> figure name -> figures */
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
			"usage: bench_storage [--help] [--dir DIR] [--commits N] [--max-keys N] [--reads N]\n"
			"                     [--no-local] [--s3 s3://BUCKET/PREFIX] [--s3-commits N]\n"
			"                     [--json FILE]\n"
			"  --dir DIR       scratch directory parent, on the disk to measure (/var/tmp)\n"
			"  --commits N     commits per local series (1000)\n"
			"  --max-keys N    read sets of 1e4, 1e5, 1e6 keys up to N; 0 skips (1000000)\n"
			"  --reads N       gets per read series, scans a tenth of that (20000)\n"
			"  --no-local      skip the local commit section\n"
			"  --s3 URL        also benchmark commits on S3 (endpoint from AWS_ENDPOINT_URL)\n"
			"  --s3-commits N  commits per S3 series (300)\n"
			"  --json FILE     also write every figure to FILE\n");
	exit(status);
}

static void
die(const char *fmt,...)
__attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt,...)
{
	va_list		ap;

	fputs("bench_storage: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
die_status(RlStatus rc, const char *what)
{
	die("%s: %s: %s", what, rl_status_name(rc), rl_last_error());
}

static void
check(RlStatus rc, const char *what)
{
	if (rc != RL_OK)
		die_status(rc, what);
}

static void
check_sys(bool ok, const char *what, const char *path)
{
	if (!ok)
		die("%s \"%s\": %s", what, path, strerror(errno));
}

/* snprintf into a PATH_MAX buffer; a path that does not fit is fatal. */
static void
path_printf(char *out, const char *fmt,...)
__attribute__((format(printf, 2, 3)));

static void
path_printf(char *out, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	int			len = vsnprintf(out, PATH_MAX, fmt, ap);

	va_end(ap);
	if (len < 0 || len >= PATH_MAX)
		die("path too long: %s...", out);
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double
us_since(int64_t start_ns)
{
	return (double) (now_ns() - start_ns) / 1000.0;
}

static uint64_t
rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void
samples_add(Samples *s, double us)
{
	s->us = realloc(s->us, sizeof(double) * (size_t) (s->n + 1));
	s->us[s->n++] = us;
	s->total_us += us;
}

static void
samples_free(Samples *s)
{
	free(s->us);
	memset(s, 0, sizeof(*s));
}

static int
compare_doubles(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted samples. */
static double
percentile(const Samples *s, double p)
{
	int			rank = (int) ceil(p * s->n);

	return s->us[rank < 1 ? 0 : rank - 1];
}

static json_t *
section_json(const char *section)
{
	json_t	   *obj = json_object_get(results, section);

	if (obj == NULL)
	{
		obj = json_object();
		json_object_set_new(results, section, obj);
	}
	return obj;
}

static void
section_begin(const char *title)
{
	printf("\n== %s ==\n", title);
	printf("  %-46s %6s %9s %9s %9s %10s\n", "operation", "n", "p50 us", "p95 us", "p99 us", "per s");
}

/* Items per second over the time spent inside the timed calls. */
static double
per_second(const Samples *s, int items_per_op)
{
	return (double) s->n * items_per_op / (s->total_us / 1e6);
}

/*
 * Print and record a series: latency percentiles and items per second
 * (items_per_op: batches per group commit). Returns the median.
 */
static double
report_series(const char *section, const char *name, Samples *s, int items_per_op)
{
	qsort(s->us, (size_t) s->n, sizeof(double), compare_doubles);
	double		p50 = percentile(s, 0.50),
				p95 = percentile(s, 0.95),
				p99 = percentile(s, 0.99),
				rate = per_second(s, items_per_op);

	printf("  %-46s %6d %9.1f %9.1f %9.1f %10.0f\n", name, s->n, p50, p95, p99, rate);
	json_object_set_new(section_json(section), name,
						json_pack("{s:i, s:f, s:f, s:f, s:f}", "n", s->n, "p50_us", p50,
								  "p95_us", p95, "p99_us", p99, "per_s", rate));
	return p50;
}

/* Print and record a single figure (a ratio, a size, a one-off time). */
static void
report_figure(const char *section, const char *name, double value, const char *unit)
{
	printf("  %-46s %12.2f %s\n", name, value, unit);
	json_object_set_new(section_json(section), name, json_real(value));
}

/* ---------------------------------------------------------------- keys and batches */

static void
make_key(uint8_t *key, uint8_t tag, uint64_t parent, uint64_t child)
{
	key[0] = tag;
	rl_store_u64be(key + 1, parent);
	rl_store_u64be(key + 9, child);
}

static void
make_value(uint8_t *value, uint64_t id)
{
	for (int i = 0; i < VALUE_LEN; i++)
		value[i] = (uint8_t) rng_next();
	rl_store_u64be(value, id);
}

/*
 * Key number i of a read set of n keys: the first half are parents of SMALL_GROUP
 * children under TAG_SMALL, the second half parents of LARGE_GROUP children under
 * TAG_LARGE, so a prefix scan of tag + parent returns 10 or 1000 keys.
 */
static void
read_set_key(uint8_t *key, long n, long i)
{
	if (i < n / 2)
		make_key(key, TAG_SMALL, (uint64_t) (i / SMALL_GROUP), (uint64_t) (i % SMALL_GROUP));
	else
		make_key(key, TAG_LARGE, (uint64_t) ((i - n / 2) / LARGE_GROUP), (uint64_t) ((i - n / 2) % LARGE_GROUP));
}

/* A catalog-commit-sized batch: COMMIT_KEYS rows of different kinds for object id. */
static LsmBatch *
commit_batch(uint64_t id)
{
	LsmBatch   *b = lsm_batch_new();
	uint8_t		key[KEY_LEN],
				value[VALUE_LEN];

	for (int j = 0; j < COMMIT_KEYS; j++)
	{
		make_key(key, (uint8_t) (1 + j), id, (uint64_t) j);
		make_value(value, id);
		lsm_batch_put(b, key, KEY_LEN, value, VALUE_LEN);
	}
	return b;
}

/* n calls of lsm_commit with per_call catalog batches each; ids continue from *next_id. */
static void
time_commits(Lsm *lsm, int n, int per_call, uint64_t *next_id, Samples *s)
{
	LsmBatch   *batches[GROUP_BATCHES];

	for (int i = 0; i < n; i++)
	{
		for (int j = 0; j < per_call; j++)
			batches[j] = commit_batch((*next_id)++);
		int64_t		t0 = now_ns();

		check(lsm_commit(lsm, batches, per_call, NULL), "commit");
		samples_add(s, us_since(t0));
		for (int j = 0; j < per_call; j++)
			lsm_batch_free(batches[j]);
	}
}

/* ---------------------------------------------------------------- bare writes */

static bool
last_wal_cb(const ObjInfo *info, void *arg)
{
	if (info->size > 0)
		*(uint64_t *) arg = info->size;
	return true;
}

/* Size of the newest non-empty WAL object: the payload the baselines write. */
static size_t
last_wal_size(ObjectStore *os)
{
	uint64_t	size = 0;

	check(obj_list(os, "wal/", NULL, last_wal_cb, &size), "list WAL objects");
	if (size == 0)
		die_status(RL_NOT_FOUND, "no WAL object after the commits");
	return (size_t) size;
}

static uint8_t *
random_payload(size_t len)
{
	uint8_t    *p = malloc(len);

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t) rng_next();
	return p;
}

/*
 * n obj_put calls of len bytes through the store: OVERWRITE rewrites one key,
 * IF_NONE_MATCH creates a new key each time (under a random tag, so a rerun on the
 * same prefix does not collide).
 */
static void
time_puts(ObjectStore *os, ObjPutMode mode, size_t len, int n, Samples *s)
{
	uint8_t    *payload = random_payload(len);
	char		tag[17],
				key[96];

	rl_random_hex(tag, 8);
	for (int i = 0; i < n; i++)
	{
		if (mode == OBJ_PUT_OVERWRITE)
			snprintf(key, sizeof(key), "bench/%s/overwrite", tag);
		else
			snprintf(key, sizeof(key), "bench/%s/new-%08d", tag, i);
		int64_t		t0 = now_ns();

		check(obj_put(os, key, payload, len, mode, NULL, NULL), "bare put");
		samples_add(s, us_since(t0));
	}
	free(payload);
}

static void
write_all(int fd, const uint8_t *data, size_t len, const char *path)
{
	while (len > 0)
	{
		ssize_t		w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		check_sys(w > 0, "write", path);
		data += w;
		len -= (size_t) w;
	}
}

/*
 * The durable create-if-absent floor, in plain syscalls: write a temp file, fsync
 * it, link it to its final name (fails if that exists), unlink the temp name,
 * fsync the directory (held open across the loop).
 */
static void
time_durable_creates(const char *dir, size_t len, int n, Samples *s)
{
	uint8_t    *payload = random_payload(len);
	char		tmp[PATH_MAX],
				final[PATH_MAX];

	check_sys(mkdir(dir, 0700) == 0, "create directory", dir);
	int			dfd = open(dir, O_RDONLY | O_DIRECTORY);

	check_sys(dfd >= 0, "open directory", dir);
	for (int i = 0; i < n; i++)
	{
		path_printf(tmp, "%s/.tmp.%d", dir, i);
		path_printf(final, "%s/%020d.sst", dir, i);
		int64_t		t0 = now_ns();
		int			fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);

		check_sys(fd >= 0, "create", tmp);
		write_all(fd, payload, len, tmp);
		check_sys(fsync(fd) == 0, "fsync", tmp);
		close(fd);
		check_sys(link(tmp, final) == 0, "link", final);
		check_sys(unlink(tmp) == 0, "unlink", tmp);
		check_sys(fsync(dfd) == 0, "fsync directory", dir);
		samples_add(s, us_since(t0));
	}
	close(dfd);
	free(payload);
}

/* The single-file WAL floor: append len bytes to one open file and fsync, n times. */
static void
time_append_fsync(const char *path, size_t len, int n, Samples *s)
{
	uint8_t    *payload = random_payload(len);
	int			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0600);

	check_sys(fd >= 0, "create", path);
	for (int i = 0; i < n; i++)
	{
		int64_t		t0 = now_ns();

		write_all(fd, payload, len, path);
		check_sys(fsync(fd) == 0, "fsync", path);
		samples_add(s, us_since(t0));
	}
	close(fd);
	free(payload);
}

/* ---------------------------------------------------------------- scratch space */

static int
remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void
remove_tree(const char *path)
{
	check_sys(nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0, "remove", path);
}

static ObjectStore *
open_local(const char *root, const char *name, char *path)
{
	path_printf(path, "%s/%s", root, name);
	ObjectStore *os = objstore_local_open(path);

	if (os == NULL)
		die_status(RL_IO_ERROR, "open local store");
	return os;
}

/* ---------------------------------------------------------------- sections */

/*
 * The series compared in a ratio run in ROUNDS interleaved rounds, so that a slow
 * spell of a shared disk or server (writeback of someone's build) hits them all
 * alike; this is round r's share of total operations.
 */
static int
round_share(int total, int r)
{
	return total / ROUNDS + (r < total % ROUNDS);
}

/*
 * Single-batch commits and group commits, then a WAL-sized payload through the
 * object store alone and through bare syscalls on the same disk.
 */
static void
bench_local_commits(const Options *o, const char *root)
{
	const char *sec = "local_commit";
	char		path[PATH_MAX];
	ObjectStore *os = open_local(root, "commits", path);
	Lsm		   *lsm;
	Samples		single = {0},
				group = {0},
				put = {0},
				create = {0},
				append = {0};
	uint64_t	next_id = 1;

	size_t		wal_len = 0;

	check(lsm_open_writer(os, NULL, &lsm), "open writer");
	for (int r = 0; r < ROUNDS; r++)
	{
		int			n = round_share(o->commits, r);

		time_commits(lsm, n, 1, &next_id, &single);
		if (r == 0)
			wal_len = last_wal_size(os);
		time_commits(lsm, n, GROUP_BATCHES, &next_id, &group);
		time_puts(os, OBJ_PUT_IF_NONE_MATCH, wal_len, n, &put);
		path_printf(path, "%s/durable-create-%d", root, r);
		time_durable_creates(path, wal_len, n, &create);
		path_printf(path, "%s/append-%d.log", root, r);
		time_append_fsync(path, wal_len, n, &append);
	}
	lsm_close(lsm);
	obj_close(os);

	char		title[PATH_MAX + 64];

	snprintf(title, sizeof(title), "local commits (%s; WAL object of one commit: %zu bytes, %d keys)",
			 root, wal_len, COMMIT_KEYS);
	section_begin(title);
	double		commit_p50 = report_series(sec, "lsm_commit, 1 batch", &single, 1);

	report_series(sec, "lsm_commit, 16 batches (per s: batches)", &group, GROUP_BATCHES);
	double		put_p50 = report_series(sec, "local obj_put IF_NONE_MATCH", &put, 1);
	double		create_p50 = report_series(sec, "bare tmp+fsync+link+dir fsync", &create, 1);
	double		append_p50 = report_series(sec, "bare append+fsync, one file", &append, 1);

	printf("\n");
	report_figure(sec, "commit p50 / durable create p50", commit_p50 / create_p50, "x");
	report_figure(sec, "commit p50 / obj_put p50", commit_p50 / put_p50, "x");
	report_figure(sec, "commit p50 / append+fsync p50", commit_p50 / append_p50, "x");
	report_figure(sec, "commits/s / durable creates/s", per_second(&single, 1) / per_second(&create, 1), "x");
	report_figure(sec, "group commit batches/s / commits/s",
				  per_second(&group, GROUP_BATCHES) / per_second(&single, 1), "x");
	json_object_set_new(section_json(sec), "wal_object_bytes", json_integer((json_int_t) wal_len));
	samples_free(&single);
	samples_free(&group);
	samples_free(&put);
	samples_free(&create);
	samples_free(&append);
}

static bool
count_cb(const uint8_t *key, size_t key_len, const uint8_t *value, size_t value_len, void *arg)
{
	(*(long *) arg)++;
	return true;
}

/* n prefix scans of tag + one of parents parent ids; each must return expect keys. */
static void
time_scans(Lsm *lsm, uint8_t tag, uint64_t parents, long expect, int n, Samples *s)
{
	uint8_t		prefix[KEY_LEN];

	for (int i = 0; i < n; i++)
	{
		long		count = 0;

		make_key(prefix, tag, rng_next() % parents, 0);
		int64_t		t0 = now_ns();

		check(lsm_scan_prefix(lsm, prefix, PREFIX_LEN, count_cb, &count), "scan");
		samples_add(s, us_since(t0));
		if (count != expect)
			die("a prefix scan returned %ld keys, not %ld", count, expect);
	}
}

/* Load the store with n keys in group commits, then flush and compact. */
static void
load_read_set(Lsm *lsm, long n)
{
	LsmBatch   *batches[GROUP_BATCHES];
	uint8_t		key[KEY_LEN],
				value[VALUE_LEN];
	long		i = 0;

	while (i < n)
	{
		int			nb = 0;

		for (; nb < GROUP_BATCHES && i < n; nb++)
		{
			batches[nb] = lsm_batch_new();
			for (int k = 0; k < LOAD_BATCH_KEYS && i < n; k++, i++)
			{
				read_set_key(key, n, i);
				make_value(value, (uint64_t) i);
				lsm_batch_put(batches[nb], key, KEY_LEN, value, VALUE_LEN);
			}
		}
		check(lsm_commit(lsm, batches, nb, NULL), "load commit");
		for (int j = 0; j < nb; j++)
			lsm_batch_free(batches[j]);
	}
	check(lsm_flush(lsm), "flush");
	check(lsm_compact(lsm), "compact");
}

/* Load n keys into a fresh store, reopen it, and time gets and prefix scans. */
static void
bench_reads_at(const Options *o, const char *root, long n)
{
	char		sec[32],
				name[32],
				path[PATH_MAX];
	Lsm		   *lsm;
	LsmStats	st;
	RlBuf		value;
	uint8_t		key[KEY_LEN];
	Samples		present = {0},
				absent = {0},
				small = {0},
				large = {0};

	snprintf(sec, sizeof(sec), "reads_%ld", n);
	snprintf(name, sizeof(name), "reads-%ld", n);
	ObjectStore *os = open_local(root, name, path);
	int64_t		t0 = now_ns();

	check(lsm_open_writer(os, NULL, &lsm), "open writer");
	load_read_set(lsm, n);
	double		load_s = us_since(t0) / 1e6;

	lsm_stats(lsm, &st);
	lsm_close(lsm);

	/* a fresh handle, as after a restart: the first read loads SSTs */
	t0 = now_ns();
	check(lsm_open_writer(os, NULL, &lsm), "reopen writer");
	double		open_ms = us_since(t0) / 1000.0;

	rlbuf_init(&value);
	read_set_key(key, n, 0);
	t0 = now_ns();
	check(lsm_get(lsm, key, KEY_LEN, &value), "first get");
	double		first_get_ms = us_since(t0) / 1000.0;

	for (int i = 0; i < o->reads; i++)
	{
		read_set_key(key, n, (long) (rng_next() % (uint64_t) n));
		t0 = now_ns();
		RlStatus	rc = lsm_get(lsm, key, KEY_LEN, &value);

		samples_add(&present, us_since(t0));
		check(rc, "get");
		if (value.len != VALUE_LEN)
			die("get returned %zu bytes, not %d", value.len, VALUE_LEN);
	}
	for (int i = 0; i < o->reads; i++)
	{
		/* inside the key range, so only the bloom filter or a block search says no */
		make_key(key, TAG_SMALL, rng_next() % (uint64_t) (n / 2 / SMALL_GROUP),
				 SMALL_GROUP + rng_next() % SMALL_GROUP);
		t0 = now_ns();
		RlStatus	rc = lsm_get(lsm, key, KEY_LEN, &value);

		samples_add(&absent, us_since(t0));
		if (rc == RL_OK)
			die("get found a key that was never written");
		if (rc != RL_NOT_FOUND)
			die_status(rc, "get of an absent key");
	}
	time_scans(lsm, TAG_SMALL, (uint64_t) (n / 2 / SMALL_GROUP), SMALL_GROUP, o->reads / 10, &small);
	time_scans(lsm, TAG_LARGE, (uint64_t) (n / 2 / LARGE_GROUP), LARGE_GROUP, o->reads / 10, &large);
	lsm_close(lsm);
	obj_close(os);
	rlbuf_free(&value);
	remove_tree(path);

	char		title[160];

	snprintf(title, sizeof(title), "reads at %ld keys (after load: %d L0 SSTs, %d sorted runs, %.1f MB of SSTs)",
			 n, st.l0_ssts, st.sorted_runs, (double) st.sst_bytes / 1e6);
	section_begin(title);
	report_series(sec, "lsm_get, present key", &present, 1);
	report_series(sec, "lsm_get, absent key", &absent, 1);
	report_series(sec, "lsm_scan_prefix, 10 keys", &small, 1);
	report_series(sec, "lsm_scan_prefix, 1000 keys", &large, 1);
	printf("\n");
	report_figure(sec, "load (group commits, flush, compact)", load_s, "s");
	report_figure(sec, "load rate", (double) n / load_s, "keys/s");
	report_figure(sec, "reopen writer", open_ms, "ms");
	report_figure(sec, "first get after reopen (loads SSTs)", first_get_ms, "ms");
	samples_free(&present);
	samples_free(&absent);
	samples_free(&small);
	samples_free(&large);
}

/* Commits on S3 against a bare PUT and a bare conditional PUT of the same size. */
static void
bench_s3(const Options *o)
{
	const char *sec = "s3_commit";
	ObjectStore *os = objstore_open_url(o->s3_url);
	Lsm		   *lsm;
	Samples		commit = {0},
				put = {0},
				cput = {0};
	uint64_t	next_id = 1;

	size_t		wal_len = 0;

	if (os == NULL)
		die_status(RL_INVALID, "open S3 store");
	check(lsm_open_writer(os, NULL, &lsm), "open writer on S3");
	for (int r = 0; r < ROUNDS; r++)
	{
		int			n = round_share(o->s3_commits, r);

		time_commits(lsm, n, 1, &next_id, &commit);
		if (r == 0)
			wal_len = last_wal_size(os);
		time_puts(os, OBJ_PUT_OVERWRITE, wal_len, n, &put);
		time_puts(os, OBJ_PUT_IF_NONE_MATCH, wal_len, n, &cput);
	}
	lsm_close(lsm);

	char		title[256];

	snprintf(title, sizeof(title), "S3 commits (%s; WAL object %zu bytes)", os->description, wal_len);
	obj_close(os);
	section_begin(title);
	double		commit_p50 = report_series(sec, "lsm_commit, 1 batch", &commit, 1);
	double		put_p50 = report_series(sec, "bare PUT (overwrite one key)", &put, 1);
	double		cput_p50 = report_series(sec, "bare PUT If-None-Match (new keys)", &cput, 1);

	printf("\n");
	report_figure(sec, "commit p50 / PUT p50", commit_p50 / put_p50, "x");
	report_figure(sec, "commit p50 / conditional PUT p50", commit_p50 / cput_p50, "x");
	report_figure(sec, "commits/s / conditional PUTs/s", per_second(&commit, 1) / per_second(&cput, 1), "x");
	json_object_set_new(section_json(sec), "wal_object_bytes", json_integer((json_int_t) wal_len));
	samples_free(&commit);
	samples_free(&put);
	samples_free(&cput);
}

static long
parse_count(const char *arg, long min)
{
	char	   *end;
	long		v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || v < min)
		usage(2);
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{"dir", required_argument, NULL, 'd'},
		{"commits", required_argument, NULL, 'c'},
		{"max-keys", required_argument, NULL, 'k'},
		{"reads", required_argument, NULL, 'r'},
		{"no-local", no_argument, NULL, 'L'},
		{"s3", required_argument, NULL, 's'},
		{"s3-commits", required_argument, NULL, 'S'},
		{"json", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	Options		o = {.dir = "/var/tmp", .commits = 1000, .s3_commits = 300,
	.max_keys = 1000000, .reads = 20000, .local = true};
	int			c;

	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1)
	{
		switch (c)
		{
			case 'd':
				o.dir = optarg;
				break;
			case 'c':
				o.commits = (int) parse_count(optarg, 1);
				break;
			case 'k':
				o.max_keys = parse_count(optarg, 0);
				break;
			case 'r':
				o.reads = (int) parse_count(optarg, 10);
				break;
			case 'L':
				o.local = false;
				break;
			case 's':
				o.s3_url = optarg;
				break;
			case 'S':
				o.s3_commits = (int) parse_count(optarg, 1);
				break;
			case 'j':
				o.json_path = optarg;
				break;
			case 'h':
				usage(0);
				break;
			default:
				usage(2);
		}
	}
	if (optind != argc)
		usage(2);

	char		root[PATH_MAX];

	path_printf(root, "%s/rocklake-bench-XXXXXX", o.dir);
	check_sys(mkdtemp(root) != NULL, "create scratch directory under", o.dir);
	results = json_object();
	json_object_set_new(results, "params",
						json_pack("{s:s, s:i, s:i, s:I, s:i, s:i, s:i}", "dir", root,
								  "commits", o.commits, "s3_commits", o.s3_commits,
								  "max_keys", (json_int_t) o.max_keys, "reads", o.reads,
								  "commit_keys", COMMIT_KEYS, "value_bytes", VALUE_LEN));
	if (o.local)
		bench_local_commits(&o, root);
	for (long n = 10000; n <= o.max_keys && n <= 1000000; n *= 10)
		bench_reads_at(&o, root, n);
	if (o.s3_url)
		bench_s3(&o);
	remove_tree(root);
	if (o.json_path && json_dump_file(results, o.json_path, JSON_INDENT(2) | JSON_SORT_KEYS) != 0)
		die("could not write %s", o.json_path);
	json_decref(results);
	return 0;
}
