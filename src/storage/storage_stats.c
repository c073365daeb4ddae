/*
 * storage_stats.c: the storage layer's counters (storage/storage_stats.h).
 */
#include <time.h>

#include "storage/storage_stats.h"

StorageStats *storage_stats;

const uint64_t latency_bounds_us[LATENCY_BOUNDS] = {
	250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000
};

void
stats_observe(StatsHistogram *h, const uint64_t *bounds, int nbounds, uint64_t value)
{
	int			i = 0;

	while (i < nbounds && value > bounds[i])
		i++;
	__atomic_add_fetch(&h->bucket[i], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&h->sum, value, __ATOMIC_RELAXED);
	__atomic_add_fetch(&h->count, 1, __ATOMIC_RELAXED);
}

uint64_t
stats_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

RlStatus
storage_count_request(ObjOp op, RlStatus st)
{
	if (storage_stats == NULL)
		return st;
	__atomic_add_fetch(&storage_stats->requests[op], 1, __ATOMIC_RELAXED);
	if (st != RL_OK && (int) st < RL_STATUS_COUNT)
		__atomic_add_fetch(&storage_stats->errors[op][st], 1, __ATOMIC_RELAXED);
	return st;
}

const char *
obj_op_name(ObjOp op)
{
	static const char *const names[OBJ_OP_COUNT] = {"get", "head", "put", "delete", "list"};

	return names[op];
}

const char *
rl_status_label(RlStatus st)
{
	static const char *const labels[RL_STATUS_COUNT] = {
		"ok", "not_found", "precondition", "fenced", "unknown_outcome", "contended",
		"unsupported_backend", "corrupt", "unavailable", "io_error", "no_space", "invalid",
		"crashed", "interrupted"
	};

	return (int) st < RL_STATUS_COUNT ? labels[st] : "unknown";
}
