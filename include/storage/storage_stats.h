/*
 * storage_stats.h: counters the storage layer keeps of its own work, for the
 * server's metrics endpoint (postmaster/metrics.h).
 *
 * The storage layer never reports anything itself: it adds to a plain struct
 * that its caller points it at. storage_stats is NULL unless a process asks for
 * counting (the writer points it into shared memory, where the metrics process
 * reads it), so rocklake-admin and the tests count nothing. Every count is an
 * atomic add, because the struct is read by another process while it moves; a
 * reader may see one count a moment before another, never a torn value.
 */
#ifndef RL_STORAGE_STATS_H
#define RL_STORAGE_STATS_H

#include <stdint.h>

#include "common/rl_status.h"

/*
 * A histogram as Prometheus wants one: counts per bucket (not cumulative; the
 * reader sums them), the sum of the values observed and how many there were.
 * The bucket bounds belong to whoever observes; the last bucket is +Inf.
 */
#define STATS_MAX_BUCKETS 16
typedef struct StatsHistogram
{
	uint64_t	bucket[STATS_MAX_BUCKETS];
	uint64_t	sum;
	uint64_t	count;
} StatsHistogram;

/* durations, in microseconds: 250 us to 10 s, then +Inf */
#define LATENCY_BOUNDS 15
extern const uint64_t latency_bounds_us[LATENCY_BOUNDS];

/* Add value to h, whose upper bounds are bounds[0 .. nbounds-1] (ascending). */
void		stats_observe(StatsHistogram *h, const uint64_t *bounds, int nbounds, uint64_t value);
/* a monotonic clock in microseconds, for durations */
uint64_t	stats_now_us(void);

/* the object-store requests, by what they ask */
typedef enum ObjOp
{
	OBJ_OP_GET,
	OBJ_OP_HEAD,
	OBJ_OP_PUT,
	OBJ_OP_DELETE,
	OBJ_OP_LIST,
	OBJ_OP_COUNT
} ObjOp;

#define RL_STATUS_COUNT (RL_INTERRUPTED + 1)

typedef struct StorageStats
{
	uint64_t	requests[OBJ_OP_COUNT];
	uint64_t	errors[OBJ_OP_COUNT][RL_STATUS_COUNT];	/* by the status other than RL_OK */
	uint64_t	s3_retries;		/* S3 attempts made again after a transient failure */
	StatsHistogram wal_put_us;	/* the WAL object's PUT of a commit (with its fsync, locally) */
	uint64_t	flushes;		/* memtables written out as SSTs */
	uint64_t	compactions;
	uint64_t	gc_runs;
	uint64_t	gc_deleted;		/* objects GC deleted */
} StorageStats;

/* where this process counts; NULL: nowhere */
extern StorageStats *storage_stats;

/* one object-store request of kind op answered st; returns st */
RlStatus	storage_count_request(ObjOp op, RlStatus st);

#define STORAGE_COUNT(field, n) \
	do { \
		if (storage_stats) \
			__atomic_add_fetch(&storage_stats->field, (n), __ATOMIC_RELAXED); \
	} while (0)

/* the names the metrics use: "get" ... for ops, "not_found" ... for statuses */
const char *obj_op_name(ObjOp op);
const char *rl_status_label(RlStatus st);

#endif
