/*
 * check_crash.c: crash at every step of open, commit, flush, compaction and GC.
 *
 * A fixed workload (open, commits, flush, more commits, compaction, GC, more
 * commits) runs against a fault-injecting store that hits mutation number k with
 * each fault action: fail the request, crash before it, crash after it, or do it
 * and lose the response. For every k until the workload runs clean, the store is
 * reopened by a fresh writer and checked against a model: every acknowledged
 * commit is there, the one in flight is there whole or not at all (a batch writes
 * two keys that must agree), and the recovered writer and a follower keep working.
 */
#include <inttypes.h>

#include "common/ulid.h"
#include "storage/lsm.h"
#include "test_util.h"

#define NKEYS 7
#define NCOMMITS 12

typedef struct Model
{
	int			acked[NKEYS];	/* commit number of the acked value, -1 absent */
	int			pending[NKEYS]; /* value of the commit in flight (-2: untouched) */
	bool		has_pending;
} Model;

static char *dir;
static LsmOptions opts;

static void
batch_for_commit(int i, LsmBatch *b, int *effect)
{
	char		key[16],
				val[16];

	for (int k = 0; k < NKEYS; k++)
		effect[k] = -2;
	snprintf(val, sizeof(val), "v%d", i);
	for (int side = 0; side < 2; side++)
	{
		snprintf(key, sizeof(key), "%c/%d", side ? 'b' : 'a', i % NKEYS);
		lsm_batch_put(b, key, strlen(key), val, strlen(val));
		if (i % 4 == 3)
		{
			snprintf(key, sizeof(key), "%c/%d", side ? 'b' : 'a', (i + 3) % NKEYS);
			lsm_batch_delete(b, key, strlen(key));
		}
	}
	effect[i % NKEYS] = i;
	if (i % 4 == 3)
		effect[(i + 3) % NKEYS] = -1;
}

/* Run commits [from, to); stop at the first failure. */
static bool
run_commits(Lsm *w, Model *m, int from, int to)
{
	for (int i = from; i < to; i++)
	{
		LsmBatch   *b = lsm_batch_new();
		int			effect[NKEYS];

		batch_for_commit(i, b, effect);
		memcpy(m->pending, effect, sizeof(effect));
		m->has_pending = true;
		RlStatus	rc = lsm_commit(w, &b, 1, NULL);

		lsm_batch_free(b);
		if (rc != RL_OK)
			return false;
		for (int k = 0; k < NKEYS; k++)
			if (effect[k] != -2)
				m->acked[k] = effect[k];
		m->has_pending = false;
	}
	return true;
}

/* The workload; returns true if it ran to the end without a fault. */
static bool
workload(ObjectStore *os, Model *m)
{
	Lsm		   *w;
	bool		ok;

	if (lsm_open_writer(os, &opts, &w) != RL_OK)
		return false;
	ok = run_commits(w, m, 0, 4) && lsm_flush(w) == RL_OK &&
		run_commits(w, m, 4, 8) && lsm_flush(w) == RL_OK && lsm_compact(w) == RL_OK &&
		lsm_gc(w, rl_now_ms() + 1000) == RL_OK && run_commits(w, m, 8, NCOMMITS);
	lsm_close(w);
	return ok;
}

static int
read_value(Lsm *lsm, char side, int k)
{
	char		key[16];
	RlBuf		v;

	snprintf(key, sizeof(key), "%c/%d", side, k);
	rlbuf_init(&v);
	RlStatus	rc = lsm_get(lsm, key, strlen(key), &v);
	int			result = -1;

	ck_assert_msg(rc == RL_OK || rc == RL_NOT_FOUND, "get %s: %s", key, rl_last_error());
	if (rc == RL_OK)
		result = atoi(rlbuf_cstr(&v) + 1);
	rlbuf_free(&v);
	return result;
}

/*
 * Check lsm against the model; the in-flight commit is all there or all absent.
 * Once seen, its outcome is settled in the model.
 */
static void
verify(Lsm *lsm, Model *m, const char *context)
{
	int			pending_seen = -1;	/* -1 unknown, 0 absent, 1 present */

	for (int k = 0; k < NKEYS; k++)
	{
		int			a = read_value(lsm, 'a', k),
					b = read_value(lsm, 'b', k);

		ck_assert_msg(a == b, "%s: torn batch at key %d (a=%d b=%d)", context, k, a, b);
		if (m->has_pending && m->pending[k] != -2 && m->pending[k] != m->acked[k])
		{
			int			present = a == m->pending[k];

			ck_assert_msg(present || a == m->acked[k], "%s: key %d is %d, acked %d, in flight %d",
						  context, k, a, m->acked[k], m->pending[k]);
			ck_assert_msg(pending_seen < 0 || pending_seen == present,
						  "%s: the in-flight commit is partly visible", context);
			pending_seen = present;
		}
		else
			ck_assert_msg(a == m->acked[k], "%s: key %d is %d, acked %d", context, k, a, m->acked[k]);
	}
	if (m->has_pending && pending_seen == 1)
		for (int k = 0; k < NKEYS; k++)
			if (m->pending[k] != -2)
				m->acked[k] = m->pending[k];
	m->has_pending = false;
}

static void
model_init(Model *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < NKEYS; i++)
		m->acked[i] = -1;
}

static void
crash_at_every_step(FaultAction action, const char *name)
{
	Model		m;
	FaultPlan	counting = {0};
	int			total;

	lsm_options_default(&opts);
	opts.auto_maintenance = false;
	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = 0;

	/* count the mutations of a clean run */
	dir = test_mkdtemp();
	model_init(&m);
	ObjectStore *clean = objstore_fault_wrap(objstore_local_open(dir), &counting);

	ck_assert(workload(clean, &m));
	total = objstore_fault_mutations(clean);
	obj_close(clean);
	test_rmdir(dir);
	ck_assert_int_gt(total, 30);

	for (int k = 1; k <= total; k++)
	{
		FaultPlan	plan = {.at_mutation = k, .action = action};
		char		context[64];

		dir = test_mkdtemp();
		model_init(&m);
		ObjectStore *faulty = objstore_fault_wrap(objstore_local_open(dir), &plan);

		workload(faulty, &m);
		obj_close(faulty);
		snprintf(context, sizeof(context), "%s at mutation %d of %d", name, k, total);

		/* recovery: a fresh writer sees every acked commit and nothing torn */
		ObjectStore *os = objstore_local_open(dir);
		Lsm		   *w,
				   *f;

		ck_assert_msg(lsm_open_writer(os, &opts, &w) == RL_OK, "%s: reopen: %s", context, rl_last_error());
		verify(w, &m, context);
		/* it keeps working, and a follower agrees with it */
		ck_assert(run_commits(w, &m, NCOMMITS, NCOMMITS + 2));
		ck_assert_int_eq(lsm_flush(w), RL_OK);
		ck_assert_int_eq(lsm_gc(w, rl_now_ms() + 1000), RL_OK);
		ck_assert_msg(lsm_open_follower(os, &opts, &f) == RL_OK, "%s: follower: %s", context, rl_last_error());
		verify(f, &m, context);
		lsm_close(f);
		lsm_close(w);
		obj_close(os);
		test_rmdir(dir);
	}
}

START_TEST(test_crash_before_each_mutation)
{
	crash_at_every_step(FAULT_CRASH_BEFORE, "crash before");
}
END_TEST

START_TEST(test_crash_after_each_mutation)
{
	crash_at_every_step(FAULT_CRASH_AFTER, "crash after");
}
END_TEST

START_TEST(test_fail_each_mutation)
{
	crash_at_every_step(FAULT_FAIL_BEFORE, "failed request");
}
END_TEST

START_TEST(test_lose_each_response)
{
	crash_at_every_step(FAULT_LOSE_RESPONSE, "lost response");
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("crash");
	TCase	   *tc = tcase_create("every-step");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_crash_before_each_mutation);
	tcase_add_test(tc, test_crash_after_each_mutation);
	tcase_add_test(tc, test_fail_each_mutation);
	tcase_add_test(tc, test_lose_each_response);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
