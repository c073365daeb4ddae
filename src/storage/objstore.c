/*
 * objstore.c: what every object-store backend shares: closing, and the self-test the
 * writer runs at open to refuse a store that ignores conditional writes (fencing
 * depends on them; a store that silently overwrites would let two writers both
 * believe they own the database).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/ulid.h"
#include "storage/objstore.h"

void
obj_close(ObjectStore *os)
{
	if (os)
		os->ops->close(os);
}

RlStatus
objstore_self_test(ObjectStore *os)
{
	char		ulid[ULID_LEN + 1];
	char		key[64];
	char		etag[OBJ_ETAG_MAX];
	RlStatus	st;
	const char *failed = NULL;

	ulid_generate(ulid, rl_now_ms());
	snprintf(key, sizeof(key), "meta/probe/%s", ulid);

	st = obj_put(os, key, "probe", 5, OBJ_PUT_IF_NONE_MATCH, NULL, etag);
	if (st != RL_OK)
		return rl_error(st == RL_PRECONDITION ? RL_UNSUPPORTED_BACKEND : st,
						"object store self-test: create-if-absent of %s failed: %s",
						key, rl_last_error());
	st = obj_put(os, key, "probe", 5, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
	if (st == RL_OK)
		failed = "a second create-if-absent of the same key succeeded (If-None-Match ignored)";
	else if (st == RL_PRECONDITION)
	{
		st = obj_put(os, key, "probe2", 6, OBJ_PUT_IF_MATCH, "\"bogus-etag\"", NULL);
		if (st == RL_OK)
			failed = "a write with a stale etag succeeded (If-Match ignored)";
		else if (st == RL_PRECONDITION)
			st = RL_OK;
	}
	/* any other answer is a failure of the store itself, reported as it is */
	if (failed)
	{
		obj_delete(os, key);
		return rl_error(RL_UNSUPPORTED_BACKEND,
						"object store %s does not honour conditional writes: %s",
						os->description, failed);
	}
	if (st != RL_OK)
		return rl_error(st, "object store self-test: %s", rl_last_error());
	return obj_delete(os, key);
}
