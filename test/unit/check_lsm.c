/*
 * check_lsm.c: the LSM end to end on the local object store: commit and read back,
 * group commit, reopen with WAL replay, flush / compaction / GC (old fences too),
 * the maintenance tasks on request, fencing between
 * two writers, a follower reading while the writer commits, compacts and collects,
 * corrupt objects detected and a bad read read again rather than believed, only a
 * proven newer epoch fencing, and refusal of a store without conditional writes.
 *
 * With ROCKLAKE_TEST_LSM_S3_BUCKET set (and AWS_ENDPOINT_URL), every test runs on
 * the S3 backend instead, each under a fresh prefix of that bucket
 * (test/scripts/s3_backend.sh runs them all on versitygw); the "races" case needs
 * a server whose conditional writes are atomic under concurrency.
 */
#include <inttypes.h>
#include <pthread.h>

#include "common/ulid.h"
#include "storage/lsm.h"
#include "storage/manifest.h"
#include "test_util.h"

static char *dir;
static char store_url[256];
static ObjectStore *os;
static LsmOptions opts;

/* Another handle on the test's store, as a second process would have. */
static ObjectStore *
store_open(void)
{
	ObjectStore *s = objstore_open_url(store_url);

	ck_assert_msg(s != NULL, "open %s: %s", store_url, rl_last_error());
	return s;
}

static void
setup(void)
{
	const char *bucket = getenv("ROCKLAKE_TEST_LSM_S3_BUCKET");

	dir = test_mkdtemp();
	if (bucket)
	{
		char		tag[17];

		rl_random_hex(tag, 8);
		snprintf(store_url, sizeof(store_url), "s3://%s/lsm-%s", bucket, tag);
	}
	else
		snprintf(store_url, sizeof(store_url), "%s", dir);
	os = store_open();
	lsm_options_default(&opts);
	opts.auto_maintenance = false;
}

static void
teardown(void)
{
	obj_close(os);
	test_rmdir(dir);
}

static void
key_of(int i, char *key)
{
	snprintf(key, 32, "key/%08d", i);
}

static uint64_t
commit_one(Lsm *lsm, const char *key, const char *value)
{
	LsmBatch   *b = lsm_batch_new();
	uint64_t	seq = 0;

	if (value)
		lsm_batch_put(b, key, strlen(key), value, strlen(value));
	else
		lsm_batch_delete(b, key, strlen(key));
	ck_assert_msg(lsm_commit(lsm, &b, 1, &seq) == RL_OK, "commit: %s", rl_last_error());
	lsm_batch_free(b);
	return seq;
}

static void
assert_value(Lsm *lsm, const char *key, const char *expect)
{
	RlBuf		v;

	rlbuf_init(&v);
	RlStatus	rc = lsm_get(lsm, key, strlen(key), &v);

	if (expect == NULL)
		ck_assert_msg(rc == RL_NOT_FOUND, "%s: expected absent, got %s", key, rl_status_name(rc));
	else
	{
		ck_assert_msg(rc == RL_OK, "%s: %s %s", key, rl_status_name(rc), rl_last_error());
		ck_assert_str_eq(rlbuf_cstr(&v), expect);
	}
	rlbuf_free(&v);
}

static bool
count_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	(*(int *) arg)++;
	return true;
}

static int
count_prefix(Lsm *lsm, const char *prefix)
{
	int			n = 0;

	ck_assert_int_eq(lsm_scan_prefix(lsm, prefix, strlen(prefix), count_cb, &n), RL_OK);
	return n;
}

START_TEST(test_commit_get_reopen)
{
	Lsm		   *w;

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	uint64_t	s1 = commit_one(w, "a", "1");
	uint64_t	s2 = commit_one(w, "b", "2");

	ck_assert_uint_eq(s2, s1 + 1);
	commit_one(w, "a", "3");
	commit_one(w, "b", NULL);
	assert_value(w, "a", "3");
	assert_value(w, "b", NULL);
	assert_value(w, "c", NULL);
	lsm_close(w);
	/* reopen: the WAL is replayed, sequence numbers continue */
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	assert_value(w, "a", "3");
	assert_value(w, "b", NULL);
	uint64_t	s5 = commit_one(w, "c", "5");

	ck_assert_uint_gt(s5, s2 + 1);
	LsmStats	st;

	lsm_stats(w, &st);
	ck_assert_uint_eq(st.writer_epoch, 2);
	lsm_close(w);
}
END_TEST

START_TEST(test_group_commit_one_wal_object)
{
	Lsm		   *w;
	LsmBatch   *b[3];
	uint64_t	first;
	LsmStats	st;

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	for (int i = 0; i < 3; i++)
	{
		char		key[32];

		key_of(i, key);
		b[i] = lsm_batch_new();
		lsm_batch_put(b[i], key, strlen(key), "v", 1);
		lsm_batch_put(b[i], "shared", 6, key, strlen(key));	/* later batch wins */
	}
	ck_assert_int_eq(lsm_commit(w, b, 3, &first), RL_OK);
	lsm_stats(w, &st);
	ck_assert_uint_eq(st.wal_puts, 1);
	ck_assert_uint_eq(st.commits, 3);
	ck_assert_uint_eq(st.last_seq, first + 2);
	assert_value(w, "shared", "key/00000002");
	ck_assert_int_eq(count_prefix(w, "key/"), 3);
	for (int i = 0; i < 3; i++)
		lsm_batch_free(b[i]);
	lsm_close(w);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	assert_value(w, "shared", "key/00000002");
	lsm_close(w);
}
END_TEST

START_TEST(test_flush_compact_gc_scan)
{
	Lsm		   *w;
	char		key[32],
				val[32];

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	for (int round = 0; round < 6; round++)
	{
		for (int i = round; i < 400; i += 3)
		{
			key_of(i, key);
			snprintf(val, sizeof(val), "r%d-%d", round, i);
			commit_one(w, key, (i % 7 == 0 && round == 5) ? NULL : val);
		}
		ck_assert_int_eq(lsm_flush(w), RL_OK);
	}
	LsmStats	st;

	lsm_stats(w, &st);
	ck_assert_int_eq(st.l0_ssts, 6);
	ck_assert_int_eq(lsm_compact(w), RL_OK);
	lsm_stats(w, &st);
	ck_assert_int_eq(st.l0_ssts, 0);
	ck_assert_int_eq(st.sorted_runs, 1);
	/* the newest write of each key wins across memtable, L0 and runs */
	commit_one(w, "key/00000001", "fresh");
	int			expected = 0;

	for (int i = 0; i < 400; i++)
	{
		int			last_round = 0;

		for (int r = 0; r < 6; r++)
			if (i >= r && (i - r) % 3 == 0)
				last_round = r;

		key_of(i, key);
		if (i == 1)
			assert_value(w, key, "fresh");
		else if (i % 7 == 0 && last_round == 5)
			assert_value(w, key, NULL);
		else
		{
			snprintf(val, sizeof(val), "r%d-%d", last_round, i);
			assert_value(w, key, val);
		}
		expected += !(i % 7 == 0 && last_round == 5) || i == 1;
	}
	ck_assert_int_eq(count_prefix(w, "key/"), expected);
	/* bounded scan */
	int			n = 0;

	ck_assert_int_eq(lsm_scan(w, "key/00000010", 12, "key/00000020", 12, count_cb, &n), RL_OK);
	ck_assert_int_eq(n, 10 - 1);	/* 14 is deleted */

	/* GC with every grace period over: old manifests, SSTs and WAL objects go */
	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;
	lsm_close(w);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	ck_assert_int_eq(lsm_flush(w), RL_OK);
	ck_assert_int_eq(lsm_gc(w, rl_now_ms() + 1000), RL_OK);
	lsm_stats(w, &st);
	ck_assert_uint_gt(st.gc_deleted, 10);
	lsm_close(w);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	ck_assert_int_eq(count_prefix(w, "key/"), expected);
	assert_value(w, "key/00000001", "fresh");
	lsm_close(w);
}
END_TEST

static bool
fence_cb(const ObjInfo *info, void *arg)
{
	*(int *) arg += info->size == 0;
	return true;
}

static int
count_fences(void)
{
	int			n = 0;

	ck_assert_int_eq(obj_list(os, "wal/", NULL, fence_cb, &n), RL_OK);
	return n;
}

/*
 * Every open as writer leaves a fence (each rocklake-admin run that writes, each
 * server start): GC collects the covered ones but the newest, which still stops
 * the writer the current one took over from.
 */
START_TEST(test_gc_collects_old_fences)
{
	Lsm		   *w,
			   *prev = NULL;
	char		key[32];

	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;
	for (int i = 0; i < 4; i++)
	{
		ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
		key_of(i, key);
		commit_one(w, key, "v");
		if (prev)
			lsm_close(prev);
		prev = w;
	}
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	ck_assert_int_eq(count_fences(), 5);
	ck_assert_int_eq(lsm_flush(w), RL_OK);	/* the WAL is covered */
	ck_assert_int_eq(lsm_gc(w, rl_now_ms() + 1000), RL_OK);
	ck_assert_int_eq(count_fences(), 1);
	/* the writer before stays fenced */
	LsmBatch   *b = lsm_batch_new();

	lsm_batch_put(b, "late", 4, "x", 1);
	ck_assert_int_eq(lsm_commit(prev, &b, 1, NULL), RL_FENCED);
	lsm_batch_free(b);
	lsm_close(prev);
	lsm_close(w);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	ck_assert_int_eq(count_prefix(w, "key/"), 4);
	assert_value(w, "late", NULL);
	lsm_close(w);
}
END_TEST

/* The tasks CHECKPOINT, rocklake_compact() and rocklake_gc() run. */
START_TEST(test_run_tasks)
{
	Lsm		   *w;
	LsmStats	st;
	LsmTaskResult r;
	char		key[32];

	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	for (int i = 0; i < 6; i++)
	{
		key_of(i, key);
		commit_one(w, key, i == 5 ? NULL : "v");
		if (i % 2)
			ck_assert_int_eq(lsm_flush(w), RL_OK);
	}
	ck_assert_int_eq(lsm_compact(w), RL_OK);
	key_of(0, key);
	commit_one(w, key, "again");
	ck_assert_int_eq(lsm_run_task(w, LSM_TASK_CHECKPOINT, &r), RL_OK);
	lsm_stats(w, &st);
	ck_assert_uint_eq(st.memtable_entries, 0);
	ck_assert_uint_gt(r.objects_after, r.objects_before);	/* an SST and a manifest more */
	ck_assert_int_eq(lsm_run_task(w, LSM_TASK_COMPACT, &r), RL_OK);
	lsm_stats(w, &st);
	ck_assert_int_eq(st.l0_ssts, 0);
	ck_assert_int_eq(st.sorted_runs, 1);
	ck_assert_int_eq(lsm_run_task(w, LSM_TASK_GC, &r), RL_OK);
	ck_assert_uint_gt(r.deleted, 0);
	ck_assert_uint_eq(r.objects_after, r.objects_before - r.deleted);
	ck_assert_uint_lt(r.bytes_after, r.bytes_before);
	assert_value(w, "key/00000000", "again");
	assert_value(w, "key/00000005", NULL);
	ck_assert_int_eq(count_prefix(w, "key/"), 5);
	lsm_close(w);
}
END_TEST

START_TEST(test_fencing_two_writers)
{
	Lsm		   *w1,
			   *w2;
	ObjectStore *os2 = store_open();

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w1), RL_OK);
	commit_one(w1, "from-w1", "acked");
	ck_assert_int_eq(lsm_open_writer(os2, &opts, &w2), RL_OK);
	/* the old writer can no longer commit, flush or pass the fence check */
	LsmBatch   *b = lsm_batch_new();

	lsm_batch_put(b, "zombie", 6, "x", 1);
	ck_assert_int_eq(lsm_commit(w1, &b, 1, NULL), RL_FENCED);
	ck_assert_int_eq(lsm_commit(w1, &b, 1, NULL), RL_FENCED);
	ck_assert_int_eq(lsm_flush(w1), RL_FENCED);
	lsm_batch_free(b);
	assert_value(w2, "from-w1", "acked");
	assert_value(w2, "zombie", NULL);
	commit_one(w2, "from-w2", "ok");
	lsm_close(w1);
	lsm_close(w2);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w1), RL_OK);
	assert_value(w1, "zombie", NULL);
	assert_value(w1, "from-w1", "acked");
	assert_value(w1, "from-w2", "ok");
	lsm_close(w1);
	obj_close(os2);
}
END_TEST

START_TEST(test_fenced_writer_cannot_publish_manifest)
{
	Lsm		   *w1,
			   *w2;
	ObjectStore *os2 = store_open();

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w1), RL_OK);
	commit_one(w1, "k", "v1");
	ck_assert_int_eq(lsm_open_writer(os2, &opts, &w2), RL_OK);
	/* w1 still has an unflushed memtable; its flush must not become visible */
	ck_assert_int_eq(lsm_flush(w1), RL_FENCED);
	ck_assert_int_eq(lsm_check_fence(w1), RL_FENCED);
	commit_one(w2, "k", "v2");
	ck_assert_int_eq(lsm_flush(w2), RL_OK);
	lsm_close(w1);
	lsm_close(w2);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w1), RL_OK);
	assert_value(w1, "k", "v2");
	lsm_close(w1);
	obj_close(os2);
}
END_TEST

typedef struct RaceWriter
{
	ObjectStore *os;
	Lsm		   *lsm;
	RlStatus	open_rc;
	pthread_barrier_t *barrier;
} RaceWriter;

static void *
race_open(void *arg)
{
	RaceWriter *r = arg;

	pthread_barrier_wait(r->barrier);
	r->open_rc = lsm_open_writer(r->os, &opts, &r->lsm);
	return NULL;
}

START_TEST(test_racing_writers_one_survives)
{
	for (int round = 0; round < 5; round++)
	{
		pthread_barrier_t barrier;
		RaceWriter	r[2];
		pthread_t	t[2];

		pthread_barrier_init(&barrier, NULL, 2);
		for (int i = 0; i < 2; i++)
		{
			r[i] = (RaceWriter) {.os = store_open(), .barrier = &barrier};
			pthread_create(&t[i], NULL, race_open, &r[i]);
		}
		int			survivors = 0;

		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		for (int i = 0; i < 2; i++)
		{
			if (r[i].open_rc != RL_OK)
			{
				ck_assert_int_eq(r[i].open_rc, RL_FENCED);
				continue;
			}
			char		key[64];

			snprintf(key, sizeof(key), "round-%d-writer-%d", round, i);
			LsmBatch   *b = lsm_batch_new();

			lsm_batch_put(b, key, strlen(key), "x", 1);
			RlStatus	rc = lsm_commit(r[i].lsm, &b, 1, NULL);

			lsm_batch_free(b);
			ck_assert(rc == RL_OK || rc == RL_FENCED);
			survivors += rc == RL_OK;
		}
		ck_assert_int_eq(survivors, 1);
		for (int i = 0; i < 2; i++)
		{
			lsm_close(r[i].lsm);
			obj_close(r[i].os);
		}
		pthread_barrier_destroy(&barrier);
	}
}
END_TEST

START_TEST(test_follower_follows)
{
	Lsm		   *w,
			   *f;
	int			applied;
	char		key[32];

	opts.manifest_probe_ms = 0;
	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	commit_one(w, "before", "1");
	ck_assert_int_eq(lsm_open_follower(os, &opts, &f), RL_OK);
	assert_value(f, "before", "1");
	/* a batch of 50 keys appears whole or not at all */
	LsmBatch   *b = lsm_batch_new();

	for (int i = 0; i < 50; i++)
	{
		key_of(i, key);
		lsm_batch_put(b, key, strlen(key), "v", 1);
	}
	ck_assert_int_eq(lsm_commit(w, &b, 1, NULL), RL_OK);
	lsm_batch_free(b);
	ck_assert_int_eq(count_prefix(f, "key/"), 0);
	ck_assert_int_eq(lsm_follower_refresh(f, &applied), RL_OK);
	ck_assert_int_eq(applied, 1);
	ck_assert_int_eq(count_prefix(f, "key/"), 50);
	/* across flush, compaction and an aggressive GC */
	for (int round = 0; round < 5; round++)
	{
		snprintf(key, sizeof(key), "round-%d", round);
		commit_one(w, key, "x");
		ck_assert_int_eq(lsm_flush(w), RL_OK);
	}
	ck_assert_int_eq(lsm_compact(w), RL_OK);
	ck_assert_int_eq(lsm_gc(w, rl_now_ms() + 1000), RL_OK);
	commit_one(w, "after-gc", "y");
	ck_assert_int_eq(lsm_follower_refresh(f, &applied), RL_OK);
	assert_value(f, "after-gc", "y");
	assert_value(f, "round-3", "x");
	ck_assert_int_eq(count_prefix(f, "key/"), 50);
	/* a follower never writes: its store handle sees no mutation */
	FaultPlan	plan = {0};
	ObjectStore *counting = objstore_fault_wrap(store_open(), &plan);
	Lsm		   *f2;

	ck_assert_int_eq(lsm_open_follower(counting, &opts, &f2), RL_OK);
	ck_assert_int_eq(lsm_follower_refresh(f2, &applied), RL_OK);
	assert_value(f2, "after-gc", "y");
	ck_assert_int_eq(objstore_fault_mutations(counting), 0);
	lsm_close(f2);
	obj_close(counting);
	/* the follower cannot write */
	b = lsm_batch_new();
	lsm_batch_put(b, "x", 1, "y", 1);
	ck_assert_int_eq(lsm_commit(f, &b, 1, NULL), RL_INVALID);
	lsm_batch_free(b);
	lsm_close(f);
	lsm_close(w);
}
END_TEST

START_TEST(test_follower_survives_collected_ssts)
{
	Lsm		   *w,
			   *f;
	int			applied;

	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;
	opts.manifest_probe_ms = 3600 * 1000;	/* the follower does not look on its own */
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	commit_one(w, "k1", "v1");
	ck_assert_int_eq(lsm_flush(w), RL_OK);
	commit_one(w, "k2", "v2");
	ck_assert_int_eq(lsm_flush(w), RL_OK);
	ck_assert_int_eq(lsm_open_follower(os, &opts, &f), RL_OK);
	assert_value(f, "k1", "v1");	/* nothing cached for k2's SST yet */
	ck_assert_int_eq(lsm_compact(w), RL_OK);
	ck_assert_int_eq(lsm_gc(w, rl_now_ms() + 1000), RL_OK);
	/* the follower's manifest names collected SSTs: reads reload and still answer */
	assert_value(f, "k2", "v2");
	ck_assert_int_eq(lsm_follower_refresh(f, &applied), RL_OK);
	assert_value(f, "k1", "v1");
	lsm_close(f);
	lsm_close(w);
}
END_TEST

static bool
flip_cb(const ObjInfo *info, void *arg)
{
	if (info->size > 0)
		snprintf(arg, 128, "%s", info->key);
	return true;
}

START_TEST(test_corrupt_objects_detected)
{
	Lsm		   *w;
	char		victim[128] = "";
	RlBuf		b;

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	commit_one(w, "k", "value");
	lsm_close(w);
	ck_assert_int_eq(obj_list(os, "wal/", NULL, flip_cb, victim), RL_OK);
	ck_assert_str_ne(victim, "");
	rlbuf_init(&b);
	ck_assert_int_eq(obj_get(os, victim, &b), RL_OK);
	b.data[b.len / 2] ^= 0x01;
	ck_assert_int_eq(obj_put(os, victim, b.data, b.len, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "WAL object"));
	/* a bad manifest is just as loud */
	rlbuf_free(&b);
	rlbuf_init(&b);
	rlbuf_append_str(&b, "{\"format\":1}\ncrc32c=00000000\n");
	char		mkey[64];

	manifest_object_key(1, mkey, sizeof(mkey));
	ck_assert_int_eq(obj_put(os, mkey, b.data, b.len, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	Lsm		   *f;

	ck_assert_int_ne(lsm_open_follower(os, &opts, &f), RL_OK);
	rlbuf_free(&b);
}
END_TEST

/* A read that fails its checks once is read again, not believed: every kind of object. */
START_TEST(test_bad_reads_are_read_again)
{
	static const char *const prefixes[] = {"meta/FORMAT", "manifest/", "wal/", "compacted/"};
	Lsm		   *w;

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	commit_one(w, "in-sst", "flushed");
	ck_assert_int_eq(lsm_flush(w), RL_OK);
	commit_one(w, "in-wal", "replayed");
	lsm_close(w);
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
	{
		FaultPlan	plan = {.only_prefix = prefixes[i], .corrupt_read_at = 1};
		ObjectStore *faulty = objstore_fault_wrap(store_open(), &plan);
		LsmStats	stats;

		ck_assert_msg(lsm_open_writer(faulty, &opts, &w) == RL_OK, "%s: %s", prefixes[i], rl_last_error());
		assert_value(w, "in-sst", "flushed");
		assert_value(w, "in-wal", "replayed");
		lsm_stats(w, &stats);
		ck_assert_msg(stats.rereads == 1, "%s: %" PRIu64 " rereads", prefixes[i], stats.rereads);
		lsm_close(w);
		obj_close(faulty);
	}
}
END_TEST

/*
 * Our WAL object's id taken, by nobody newer than us (no manifest with a newer
 * epoch): that proves no fence, so the outcome is unknown and reopening settles it.
 */
START_TEST(test_taken_id_without_newer_epoch_is_not_a_fence)
{
	Lsm		   *w;
	LsmStats	stats;
	char		key[64];
	LsmBatch   *b = lsm_batch_new();

	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	commit_one(w, "a", "1");
	lsm_stats(w, &stats);
	wal_object_key(stats.next_wal_id, key, sizeof(key));
	ck_assert_int_eq(obj_put(os, key, "", 0, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_OK);
	lsm_batch_put(b, "b", 1, "2", 1);
	ck_assert_int_eq(lsm_commit(w, &b, 1, NULL), RL_UNKNOWN_OUTCOME);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "no writer newer"));
	lsm_batch_free(b);
	lsm_close(w);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	assert_value(w, "a", "1");
	assert_value(w, "b", NULL);
	commit_one(w, "c", "3");
	lsm_close(w);
}
END_TEST

START_TEST(test_refuses_store_without_conditional_writes)
{
	FaultPlan	plan = {.ignore_conditions = true};
	ObjectStore *fake = objstore_fault_wrap(store_open(), &plan);
	Lsm		   *w;

	ck_assert_int_eq(lsm_open_writer(fake, &opts, &w), RL_UNSUPPORTED_BACKEND);
	obj_close(fake);
}
END_TEST

START_TEST(test_split_runs_and_bounded_cache)
{
	Lsm		   *w,
			   *f;
	LsmStats	st;
	char		key[32],
				val[128];
	LsmBatch   *b = lsm_batch_new();

	opts.sst_target_bytes = 4096;
	opts.sst_cache_bytes = 16384;
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	for (int i = 0; i < 3000; i++)
	{
		key_of(i, key);
		snprintf(val, sizeof(val), "value-%d-padding-padding-padding-padding-padding-padding", i);
		lsm_batch_put(b, key, strlen(key), val, strlen(val));
		if (i % 500 == 499)
		{
			ck_assert_int_eq(lsm_commit(w, &b, 1, NULL), RL_OK);
			lsm_batch_free(b);
			b = lsm_batch_new();
			ck_assert_int_eq(lsm_flush(w), RL_OK);
		}
	}
	lsm_batch_free(b);
	ck_assert_int_eq(lsm_compact(w), RL_OK);
	ck_assert_ptr_nonnull(lsm_manifest(w));
	ck_assert_int_eq(lsm_manifest(w)->n_runs, 1);
	ck_assert_int_gt(lsm_manifest(w)->runs[0].n_ssts, 20);
	/* the run's SSTs are key-ordered and disjoint */
	const SortedRun *run = &lsm_manifest(w)->runs[0];

	for (int i = 1; i < run->n_ssts; i++)
		ck_assert_int_gt(memcmp(run->ssts[i].first_key.data, run->ssts[i - 1].last_key.data, 12), 0);
	lsm_close(w);

	/* a fresh reader scans everything and looks up every key within its budget */
	ck_assert_int_eq(lsm_open_follower(os, &opts, &f), RL_OK);
	ck_assert_int_eq(count_prefix(f, "key/"), 3000);
	lsm_stats(f, &st);
	ck_assert_uint_le(st.sst_cache_bytes, opts.sst_cache_bytes);
	for (int i = 0; i < 3000; i += 7)
	{
		key_of(i, key);
		snprintf(val, sizeof(val), "value-%d-padding-padding-padding-padding-padding-padding", i);
		assert_value(f, key, val);
	}
	int			n = 0;

	ck_assert_int_eq(lsm_scan(f, "key/00001000", 12, "key/00002000", 12, count_cb, &n), RL_OK);
	ck_assert_int_eq(n, 1000);
	lsm_stats(f, &st);
	ck_assert_uint_le(st.sst_cache_bytes, opts.sst_cache_bytes);
	lsm_close(f);
}
END_TEST

START_TEST(test_auto_maintenance)
{
	Lsm		   *w;
	LsmStats	st;
	char		key[32];

	opts.auto_maintenance = true;
	opts.l0_flush_wal_count = 5;
	opts.compaction_min_sources = 3;
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	for (int i = 0; i < 100; i++)
	{
		key_of(i, key);
		commit_one(w, key, "v");
	}
	lsm_stats(w, &st);
	ck_assert_uint_ge(st.flushes, 19);
	ck_assert_uint_ge(st.compactions, 5);
	ck_assert_int_lt(st.l0_ssts, 3);
	ck_assert_int_eq(count_prefix(w, "key/"), 100);
	lsm_close(w);
}
END_TEST

/*
 * A follower in another thread polls while the writer commits batches of 20 keys,
 * flushes, compacts and collects with the default grace periods: every state the
 * follower shows holds whole batches only (every key of a batch carries the same
 * value), and no read ever fails because an object it needs was collected.
 */
typedef struct ConcurrentFollower
{
	volatile bool done;
	int			polls;
	int			torn;
	int			failures;
	char		error[256];
} ConcurrentFollower;

static bool
batch_value_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	int		   *values = arg;

	values[values[0] + 1] = (int) strtol((const char *) val, NULL, 10);
	values[0]++;
	return values[0] < 64;
}

static void *
follower_thread(void *arg)
{
	ConcurrentFollower *cf = arg;
	ObjectStore *fos = store_open();
	Lsm		   *f = NULL;

	while (!cf->done || cf->polls == 0)
	{
		int			applied;
		int			values[65] = {0};
		RlStatus	rc = f ? lsm_follower_refresh(f, &applied) : lsm_open_follower(fos, &opts, &f);

		if (rc == RL_OK)
			rc = lsm_scan_prefix(f, "batch/", 6, batch_value_cb, values);
		if (rc != RL_OK)
		{
			cf->failures++;
			snprintf(cf->error, sizeof(cf->error), "%s: %s", rl_status_name(rc), rl_last_error());
			continue;
		}
		for (int i = 2; i <= values[0]; i++)
			cf->torn += values[i] != values[1];
		if (values[0] != 0 && values[0] != 20)
			cf->torn++;
		cf->polls++;
	}
	lsm_close(f);
	obj_close(fos);
	return NULL;
}

START_TEST(test_concurrent_follower_sees_whole_batches)
{
	ConcurrentFollower cf = {0};
	pthread_t	t;
	Lsm		   *w;
	char		key[32],
				val[32];

	opts.manifest_probe_ms = 0;
	ck_assert_int_eq(lsm_open_writer(os, &opts, &w), RL_OK);
	pthread_create(&t, NULL, follower_thread, &cf);
	for (int round = 0; round < 60; round++)
	{
		LsmBatch   *b = lsm_batch_new();

		snprintf(val, sizeof(val), "%d", round);
		for (int i = 0; i < 20; i++)
		{
			snprintf(key, sizeof(key), "batch/%02d", i);
			lsm_batch_put(b, key, strlen(key), val, strlen(val));
		}
		ck_assert_int_eq(lsm_commit(w, &b, 1, NULL), RL_OK);
		lsm_batch_free(b);
		if (round % 5 == 4)
			ck_assert_int_eq(lsm_flush(w), RL_OK);
		if (round % 15 == 14)
		{
			ck_assert_int_eq(lsm_compact(w), RL_OK);
			ck_assert_int_eq(lsm_gc(w, rl_now_ms()), RL_OK);
		}
	}
	cf.done = true;
	pthread_join(t, NULL);
	lsm_close(w);
	ck_assert_int_gt(cf.polls, 0);
	ck_assert_msg(cf.torn == 0, "the follower saw %d torn batches", cf.torn);
	ck_assert_msg(cf.failures == 0, "the follower failed %d times: %s", cf.failures, cf.error);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("lsm");
	TCase	   *tc = tcase_create("sequential");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_commit_get_reopen);
	tcase_add_test(tc, test_group_commit_one_wal_object);
	tcase_add_test(tc, test_flush_compact_gc_scan);
	tcase_add_test(tc, test_fencing_two_writers);
	tcase_add_test(tc, test_fenced_writer_cannot_publish_manifest);
	tcase_add_test(tc, test_follower_follows);
	tcase_add_test(tc, test_follower_survives_collected_ssts);
	tcase_add_test(tc, test_gc_collects_old_fences);
	tcase_add_test(tc, test_run_tasks);
	tcase_add_test(tc, test_corrupt_objects_detected);
	tcase_add_test(tc, test_bad_reads_are_read_again);
	tcase_add_test(tc, test_taken_id_without_newer_epoch_is_not_a_fence);
	tcase_add_test(tc, test_refuses_store_without_conditional_writes);
	tcase_add_test(tc, test_auto_maintenance);
	tcase_add_test(tc, test_split_runs_and_bounded_cache);
	suite_add_tcase(s, tc);
	TCase	   *races = tcase_create("races");

	tcase_add_checked_fixture(races, setup, teardown);
	tcase_set_timeout(races, 120);
	tcase_add_test(races, test_racing_writers_one_survives);
	tcase_add_test(races, test_concurrent_follower_sees_whole_batches);
	suite_add_tcase(s, races);
	return test_run_suite(s);
}
