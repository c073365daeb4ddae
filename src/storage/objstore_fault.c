/*
 * objstore_fault.c: a wrapper that injects faults into any object store, for the
 * crash and model tests. It counts mutations (puts and deletes, optionally only
 * under one prefix) and at the chosen one fails it, "crashes" before or after doing
 * it (every later call then returns RL_CRASHED, as if the process had died), or
 * does it and loses the response. It can flip a bit of one read's bytes, as a bad
 * network path would, to prove that a read is checked and read again before it is
 * believed. It can also drop the conditions of conditional writes, to prove that
 * the writer refuses such a store, and fail random calls from a seed, reproducibly.
 */
#include <stdlib.h>
#include <string.h>

#include "storage/objstore.h"

typedef struct FaultStore
{
	ObjectStore base;
	ObjectStore *inner;
	FaultPlan	plan;
	char	   *only_prefix;
	int			mutations;
	int			reads;
	bool		crashed;
	unsigned	rand_state;
} FaultStore;

static bool
random_failure(FaultStore *fs)
{
	if (fs->plan.random_seed == 0 || fs->plan.random_fail_per_mille <= 0)
		return false;
	return (unsigned) rand_r(&fs->rand_state) % 1000 < (unsigned) fs->plan.random_fail_per_mille;
}

static bool
under_prefix(FaultStore *fs, const char *key)
{
	return fs->only_prefix == NULL || strncmp(key, fs->only_prefix, strlen(fs->only_prefix)) == 0;
}

/* Decide what happens to the next mutation of key. */
static FaultAction
next_mutation(FaultStore *fs, const char *key)
{
	if (!under_prefix(fs, key))
		return random_failure(fs) ? FAULT_FAIL_BEFORE : FAULT_NONE;
	fs->mutations++;
	if (fs->plan.at_mutation > 0 && fs->mutations == fs->plan.at_mutation)
		return fs->plan.action;
	return random_failure(fs) ? FAULT_FAIL_BEFORE : FAULT_NONE;
}

static RlStatus
crashed_status(void)
{
	return rl_error(RL_CRASHED, "simulated crash: the store is gone for this process");
}

/* Apply action around a mutation whose real effect is done by calling do_it. */
static RlStatus
inject(FaultStore *fs, FaultAction action, RlStatus (*do_it) (void *), void *ctx)
{
	RlStatus	rc;

	switch (action)
	{
		case FAULT_FAIL_BEFORE:
			return rl_error(RL_UNAVAILABLE, "injected failure before the request");
		case FAULT_CRASH_BEFORE:
			fs->crashed = true;
			return crashed_status();
		case FAULT_CRASH_AFTER:
			do_it(ctx);
			fs->crashed = true;
			return crashed_status();
		case FAULT_LOSE_RESPONSE:
			do_it(ctx);
			return rl_error(RL_UNAVAILABLE, "injected lost response after the request was done");
		case FAULT_NONE:
			break;
	}
	rc = do_it(ctx);
	return rc;
}

typedef struct PutCall
{
	FaultStore *fs;
	const char *key;
	const void *data;
	size_t		len;
	ObjPutMode	mode;
	const char *etag;
	char	   *etag_out;
} PutCall;

static RlStatus
do_put(void *ctx)
{
	PutCall    *c = ctx;

	return c->fs->inner->ops->put(c->fs->inner, c->key, c->data, c->len, c->mode, c->etag, c->etag_out);
}

typedef struct DeleteCall
{
	FaultStore *fs;
	const char *key;
} DeleteCall;

static RlStatus
do_delete(void *ctx)
{
	DeleteCall *c = ctx;

	return c->fs->inner->ops->del(c->fs->inner, c->key);
}

static RlStatus
fault_get(ObjectStore *os, const char *key, uint64_t offset, uint64_t len, RlBuf *out)
{
	FaultStore *fs = (FaultStore *) os;

	if (fs->crashed)
		return crashed_status();
	if (random_failure(fs))
		return rl_error(RL_UNAVAILABLE, "injected read failure");

	size_t		start = out->len;
	RlStatus	rc = fs->inner->ops->get(fs->inner, key, offset, len, out);

	if (rc == RL_OK && under_prefix(fs, key) && ++fs->reads == fs->plan.corrupt_read_at && out->len > start)
		out->data[start + (out->len - start) / 2] ^= 0x10;
	return rc;
}

static RlStatus
fault_head(ObjectStore *os, const char *key, ObjInfo *info)
{
	FaultStore *fs = (FaultStore *) os;

	if (fs->crashed)
		return crashed_status();
	return fs->inner->ops->head(fs->inner, key, info);
}

static RlStatus
fault_put(ObjectStore *os, const char *key, const void *data, size_t len,
		  ObjPutMode mode, const char *if_match_etag, char *etag_out)
{
	FaultStore *fs = (FaultStore *) os;

	if (fs->crashed)
		return crashed_status();
	PutCall		call = {fs, key, data, len, fs->plan.ignore_conditions ? OBJ_PUT_OVERWRITE : mode,
	if_match_etag, etag_out};

	return inject(fs, next_mutation(fs, key), do_put, &call);
}

static RlStatus
fault_delete(ObjectStore *os, const char *key)
{
	FaultStore *fs = (FaultStore *) os;

	if (fs->crashed)
		return crashed_status();
	DeleteCall	call = {fs, key};

	return inject(fs, next_mutation(fs, key), do_delete, &call);
}

static RlStatus
fault_list(ObjectStore *os, const char *prefix, const char *start_after, ObjListFn fn, void *arg)
{
	FaultStore *fs = (FaultStore *) os;

	if (fs->crashed)
		return crashed_status();
	return fs->inner->ops->list(fs->inner, prefix, start_after, fn, arg);
}

static void
fault_prepare(ObjectStore *os, const char *next_key)
{
	FaultStore *fs = (FaultStore *) os;

	if (!fs->crashed)
		obj_prepare(fs->inner, next_key);
}

static void
fault_close(ObjectStore *os)
{
	FaultStore *fs = (FaultStore *) os;

	obj_close(fs->inner);
	free(fs->only_prefix);
	free(fs->base.description);
	free(fs);
}

static const ObjectStoreOps fault_ops = {
	.get = fault_get,
	.head = fault_head,
	.put = fault_put,
	.del = fault_delete,
	.list = fault_list,
	.prepare = fault_prepare,
	.close = fault_close,
};

ObjectStore *
objstore_fault_wrap(ObjectStore *inner, const FaultPlan *plan)
{
	FaultStore *fs = calloc(1, sizeof(FaultStore));
	RlBuf		desc;

	fs->base.ops = &fault_ops;
	fs->base.kind = "fault";
	fs->inner = inner;
	fs->plan = *plan;
	fs->only_prefix = plan->only_prefix ? strdup(plan->only_prefix) : NULL;
	fs->plan.only_prefix = NULL;
	fs->rand_state = plan->random_seed;
	rlbuf_init(&desc);
	rlbuf_printf(&desc, "fault injection over %s", inner->description);
	fs->base.description = (char *) rlbuf_steal(&desc, NULL);
	return &fs->base;
}

int
objstore_fault_mutations(ObjectStore *os)
{
	return ((FaultStore *) os)->mutations;
}

bool
objstore_fault_crashed(ObjectStore *os)
{
	return ((FaultStore *) os)->crashed;
}
