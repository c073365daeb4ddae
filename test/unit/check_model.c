/*
 * check_model.c: a seeded, reproducible randomised model test of the LSM.
 *
 * Random group commits, reads, scans, flushes, compactions, GC runs, reopens and
 * writer takeovers run against an in-memory model, on a store that fails a share of
 * requests at random. A commit that ends in an unknown outcome is settled after the
 * reopen: its WAL object holds the whole group, so the group must be visible whole
 * or not at all. A follower on a clean handle must always equal the model.
 * Reproduce a failure with ROCKLAKE_MODEL_SEED=<seed> (and ROCKLAKE_MODEL_OPS).
 */
#include <inttypes.h>

#include "common/ulid.h"
#include "storage/lsm.h"
#include "test_util.h"

#define NKEYS 40
#define MAX_OPS_PER_GROUP 12

typedef struct Op
{
	int			key;
	int			value;			/* -1: delete */
} Op;

typedef struct Run
{
	unsigned	seed;
	unsigned	rnd;
	char	   *dir;
	LsmOptions	opts;
	ObjectStore *wstore;
	Lsm		   *writer;
	ObjectStore *fstore;
	Lsm		   *follower;
	int			model[NKEYS];
	int			next_value;
	int			ops_done;
} Run;

static int
rnd(Run *r, int n)
{
	return (int) ((unsigned) rand_r(&r->rnd) % (unsigned) n);
}

static void
key_name(int k, char *out)
{
	snprintf(out, 16, "k/%02d", k);
}

static ObjectStore *
faulty_store(Run *r)
{
	FaultPlan	plan = {.random_seed = r->seed * 7919 + (unsigned) r->ops_done + 1, .random_fail_per_mille = 15};

	return objstore_fault_wrap(objstore_local_open(r->dir), &plan);
}

/* Open (or reopen) the writer; random faults may make a try fail. */
static void
open_writer(Run *r)
{
	lsm_close(r->writer);
	obj_close(r->wstore);
	r->writer = NULL;
	for (int attempt = 0; attempt < 100; attempt++)
	{
		r->wstore = faulty_store(r);
		RlStatus	rc = lsm_open_writer(r->wstore, &r->opts, &r->writer);

		if (rc == RL_OK)
			return;
		ck_assert_msg(rc == RL_UNAVAILABLE || rc == RL_CONTENDED,
					  "seed %u op %d: open: %s %s", r->seed, r->ops_done, rl_status_name(rc), rl_last_error());
		obj_close(r->wstore);
		r->wstore = NULL;
		r->ops_done++;			/* a new fault sequence for the next try */
	}
	ck_abort_msg("seed %u: could not open the writer in 100 tries", r->seed);
}

static int
read_key(Run *r, Lsm *lsm, int k)
{
	char		key[16];
	RlBuf		v;
	RlStatus	rc;

	key_name(k, key);
	rlbuf_init(&v);
	for (int attempt = 0; attempt < 100; attempt++)
	{
		rc = lsm_get(lsm, key, strlen(key), &v);
		if (rc != RL_UNAVAILABLE)
			break;
	}
	ck_assert_msg(rc == RL_OK || rc == RL_NOT_FOUND, "seed %u op %d: get %s: %s",
				  r->seed, r->ops_done, key, rl_last_error());
	int			value = rc == RL_OK ? atoi(rlbuf_cstr(&v)) : -1;

	rlbuf_free(&v);
	return value;
}

typedef struct ScanCheck
{
	Run		   *run;
	int			seen[NKEYS];
	bool		bad;
} ScanCheck;

static bool
scan_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	ScanCheck  *sc = arg;
	char		k[16] = {0},
				v[16] = {0};

	memcpy(k, key, klen < 15 ? klen : 15);
	memcpy(v, val, vlen < 15 ? vlen : 15);
	int			idx = atoi(k + 2);

	if (idx < 0 || idx >= NKEYS || sc->seen[idx] != -1)
		sc->bad = true;
	else
		sc->seen[idx] = atoi(v);
	return true;
}

static void
check_all(Run *r, Lsm *lsm, const char *who)
{
	ScanCheck	sc = {.run = r};
	RlStatus	rc;

	for (int attempt = 0; attempt < 100; attempt++)
	{
		for (int k = 0; k < NKEYS; k++)
			sc.seen[k] = -1;
		sc.bad = false;
		rc = lsm_scan_prefix(lsm, "k/", 2, scan_cb, &sc);
		if (rc != RL_UNAVAILABLE)
			break;
	}
	ck_assert_msg(rc == RL_OK, "seed %u op %d: %s scan: %s", r->seed, r->ops_done, who, rl_last_error());
	ck_assert_msg(!sc.bad, "seed %u op %d: %s scan returned a key twice or out of range", r->seed, r->ops_done, who);
	for (int k = 0; k < NKEYS; k++)
		ck_assert_msg(sc.seen[k] == r->model[k], "seed %u op %d: %s key %d is %d, model %d",
					  r->seed, r->ops_done, who, k, sc.seen[k], r->model[k]);
}

static void
apply_ops(int *model, const Op *ops, int n)
{
	for (int i = 0; i < n; i++)
		model[ops[i].key] = ops[i].value;
}

static void
op_commit(Run *r)
{
	int			nbatches = 1 + rnd(r, 3);
	LsmBatch   *batches[3];
	Op			ops[3 * 4];
	int			nops = 0;

	for (int b = 0; b < nbatches; b++)
	{
		batches[b] = lsm_batch_new();
		for (int i = 1 + rnd(r, 4); i > 0; i--)
		{
			Op			op = {rnd(r, NKEYS), rnd(r, 5) == 0 ? -1 : r->next_value++};
			char		key[16],
						val[16];

			key_name(op.key, key);
			if (op.value < 0)
				lsm_batch_delete(batches[b], key, strlen(key));
			else
			{
				snprintf(val, sizeof(val), "%d", op.value);
				lsm_batch_put(batches[b], key, strlen(key), val, strlen(val));
			}
			ops[nops++] = op;
		}
	}
	RlStatus	rc = lsm_commit(r->writer, batches, nbatches, NULL);

	for (int b = 0; b < nbatches; b++)
		lsm_batch_free(batches[b]);
	if (rc == RL_OK)
	{
		apply_ops(r->model, ops, nops);
		return;
	}
	ck_assert_msg(rc == RL_UNKNOWN_OUTCOME, "seed %u op %d: commit: %s %s",
				  r->seed, r->ops_done, rl_status_name(rc), rl_last_error());
	/* settle the unknown outcome: the whole group landed or none of it */
	int			after[NKEYS];

	memcpy(after, r->model, sizeof(after));
	apply_ops(after, ops, nops);
	open_writer(r);
	int			landed = -1;

	for (int k = 0; k < NKEYS; k++)
	{
		if (after[k] == r->model[k])
			continue;
		int			v = read_key(r, r->writer, k);
		int			this = v == after[k] ? 1 : v == r->model[k] ? 0 : -2;

		ck_assert_msg(this >= 0, "seed %u op %d: key %d is %d: neither before (%d) nor after (%d)",
					  r->seed, r->ops_done, k, v, r->model[k], after[k]);
		ck_assert_msg(landed < 0 || landed == this, "seed %u op %d: group commit partly visible",
					  r->seed, r->ops_done);
		landed = this;
	}
	if (landed == 1)
		memcpy(r->model, after, sizeof(after));
}

/* Run a maintenance step; an unknown outcome poisons the handle, so reopen. */
static void
maintenance(Run *r, RlStatus rc, const char *what)
{
	if (rc == RL_OK || rc == RL_UNAVAILABLE)
		return;
	ck_assert_msg(rc == RL_UNKNOWN_OUTCOME, "seed %u op %d: %s: %s %s",
				  r->seed, r->ops_done, what, rl_status_name(rc), rl_last_error());
	open_writer(r);
}

static void
op_takeover(Run *r)
{
	ObjectStore *old_store = r->wstore;
	Lsm		   *old = r->writer;

	r->writer = NULL;
	r->wstore = NULL;
	open_writer(r);
	LsmBatch   *b = lsm_batch_new();

	lsm_batch_put(b, "zombie", 6, "1", 1);
	RlStatus	rc = lsm_commit(old, &b, 1, NULL);

	lsm_batch_free(b);
	/* the old writer is fenced (or its store failed the write before it could tell) */
	ck_assert_msg(rc == RL_FENCED || rc == RL_UNKNOWN_OUTCOME, "seed %u op %d: zombie commit: %s",
				  r->seed, r->ops_done, rl_status_name(rc));
	lsm_close(old);
	obj_close(old_store);
	char		key[] = "zombie";
	RlBuf		v;

	rlbuf_init(&v);
	for (int attempt = 0; attempt < 100 && (rc = lsm_get(r->writer, key, 6, &v)) == RL_UNAVAILABLE; attempt++)
		;
	ck_assert_msg(rc == RL_NOT_FOUND, "seed %u op %d: a fenced writer's commit became visible", r->seed, r->ops_done);
	rlbuf_free(&v);
}

static void
op_follower(Run *r)
{
	int			applied;

	if (r->follower == NULL)
		ck_assert_int_eq(lsm_open_follower(r->fstore, &r->opts, &r->follower), RL_OK);
	RlStatus	rc = lsm_follower_refresh(r->follower, &applied);

	ck_assert_msg(rc == RL_OK, "seed %u op %d: follower refresh: %s", r->seed, r->ops_done, rl_last_error());
	check_all(r, r->follower, "follower");
}

static void
run_seed(unsigned seed, int nops)
{
	Run			r = {.seed = seed, .rnd = seed};

	r.dir = test_mkdtemp();
	lsm_options_default(&r.opts);
	r.opts.auto_maintenance = false;
	r.opts.manifest_grace_ms = r.opts.sst_min_age_ms = r.opts.wal_retention_ms = 0;
	r.opts.manifest_probe_ms = 0;
	/* tiny SSTs and cache: compaction splits runs, reads pin and evict all the time */
	r.opts.sst_target_bytes = 512;
	r.opts.sst_cache_bytes = 1024;
	for (int k = 0; k < NKEYS; k++)
		r.model[k] = -1;
	r.fstore = objstore_local_open(r.dir);
	open_writer(&r);
	for (r.ops_done = 0; r.ops_done < nops; r.ops_done++)
	{
		int			dice = rnd(&r, 100);

		if (dice < 45)
			op_commit(&r);
		else if (dice < 58)
		{
			int			k = rnd(&r, NKEYS);

			ck_assert_msg(read_key(&r, r.writer, k) == r.model[k], "seed %u op %d: key %d differs from the model",
						  seed, r.ops_done, k);
		}
		else if (dice < 63)
			check_all(&r, r.writer, "writer");
		else if (dice < 71)
			maintenance(&r, lsm_flush(r.writer), "flush");
		else if (dice < 76)
			maintenance(&r, lsm_compact(r.writer), "compact");
		else if (dice < 79)
			maintenance(&r, lsm_gc(r.writer, rl_now_ms() + 1000), "gc");
		else if (dice < 83)
			open_writer(&r);
		else if (dice < 86)
			op_takeover(&r);
		else
			op_follower(&r);
	}
	/* the end state survives a clean reopen, and a fresh follower agrees */
	lsm_close(r.writer);
	obj_close(r.wstore);
	r.wstore = objstore_local_open(r.dir);
	ck_assert_int_eq(lsm_open_writer(r.wstore, &r.opts, &r.writer), RL_OK);
	check_all(&r, r.writer, "final writer");
	lsm_close(r.follower);
	r.follower = NULL;
	op_follower(&r);
	lsm_close(r.follower);
	lsm_close(r.writer);
	obj_close(r.wstore);
	obj_close(r.fstore);
	test_rmdir(r.dir);
}

START_TEST(test_random_model)
{
	const char *seed_env = getenv("ROCKLAKE_MODEL_SEED");
	const char *ops_env = getenv("ROCKLAKE_MODEL_OPS");
	int			nops = ops_env ? atoi(ops_env) : 300;

	if (seed_env)
		run_seed((unsigned) strtoul(seed_env, NULL, 10), nops);
	else
		for (unsigned seed = 1; seed <= 12; seed++)
			run_seed(seed, nops);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("model");
	TCase	   *tc = tcase_create("random");

	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, test_random_model);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
