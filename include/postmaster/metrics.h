/*
 * metrics.h: the server's Prometheus endpoint and the counters it shows.
 *
 * With metrics_listen_address set ('host:port'), the postmaster binds that
 * address at start (a bad one stops the start with FATAL) and forks a process of
 * its own, "rocklake: metrics", that answers GET /metrics in Prometheus' text
 * format 0.0.4, one connection at a time. It is a separate process so that a slow
 * or stuck scraper can stall nothing but itself: neither the postmaster's accept
 * loop nor the writer ever waits for it. The postmaster starts it again a second
 * after it dies, and stops it last at shutdown.
 *
 * What it shows is counted where it happens, in a shared segment the postmaster
 * maps before it forks anything (as utils/backend_status.c does): the writer adds
 * its commit counters and points the storage layer's counters
 * (storage/storage_stats.h) into it; connections by state are read from the
 * backend status array at each scrape. Every count is an atomic add; counts start
 * at zero when the postmaster starts and go on across crash restarts.
 */
#ifndef RL_METRICS_H
#define RL_METRICS_H

#include <stdint.h>

#include "storage/storage_stats.h"

/* the SQLSTATEs of refused commits, each counted in a slot claimed for good */
#define METRICS_CONFLICT_SLOTS 32

typedef struct ConflictCount
{
	uint64_t	code;			/* the five characters, packed; 0: a free slot */
	uint64_t	count;
} ConflictCount;

typedef struct SharedMetrics
{
	uint64_t	commits;		/* transactions the writer committed */
	StatsHistogram group_size;	/* transactions per WAL object */
	StatsHistogram commit_us;	/* a group's commit: cache apply, store write, cache commit */
	StatsHistogram store_write_us;	/* lsm_commit of a group */
	StatsHistogram cache_lag_us;	/* a group durable in the store until visible in the cache */
	ConflictCount conflicts[METRICS_CONFLICT_SLOTS];
	/* gauges the writer sets after each round: over every open store */
	uint64_t	store_ssts;		/* SSTs the manifests reference */
	uint64_t	store_sst_bytes;
	uint64_t	store_wal_objects;	/* WAL objects (commits, fences) newer than the last flush */
	StorageStats storage;
} SharedMetrics;

/* the segment (NULL before MetricsShmemInit) */
extern SharedMetrics *Metrics;

/* group-size bounds: 1, 2, 4 ... 256 transactions, then +Inf */
#define GROUP_SIZE_BOUNDS 9
extern const uint64_t group_size_bounds[GROUP_SIZE_BOUNDS];

/* The postmaster, before it forks anything: map the segment. */
void		MetricsShmemInit(void);
/* The writer: a commit was refused with sqlstate. */
void		metrics_count_conflict(const char *sqlstate);

/*
 * The postmaster: bind metrics_listen_address; -1 if it is empty. FATAL if it
 * cannot be parsed or bound.
 */
int			MetricsListen(void);
/* The metrics process: serve the listening socket sock until killed. */
void		MetricsMain(int sock) __attribute__((noreturn));

#endif
