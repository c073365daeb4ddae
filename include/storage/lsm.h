/*
 * lsm.h: the LSM key-value store on an object store (formats in doc/storage.md).
 *
 * One writer per store: opening as writer bumps the writer epoch in a new manifest
 * and writes an empty "fence" WAL object, after which any older writer's next WAL or
 * manifest write fails its create-if-absent and that writer is fenced for good. A
 * commit is one WAL object holding one or more batches (group commit); it returns
 * only when that object is durable, and only then do the batches become readable.
 * The memtable is flushed to L0 SSTs, L0s and sorted runs are merged by size-tiered
 * compaction, and garbage collection removes what no manifest needs any more after
 * grace periods. A follower never writes: it reads manifests and applies new WAL
 * objects as they appear.
 */
#ifndef RL_LSM_H
#define RL_LSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"
#include "storage/objstore.h"

typedef struct LsmOptions
{
	size_t		l0_flush_bytes;	/* flush the memtable when it holds this much (4 MiB) */
	size_t		sst_target_bytes;	/* compaction splits its output into SSTs of this size (8 MiB) */
	size_t		sst_cache_bytes;	/* SSTs kept in memory beyond those in use (64 MiB) */
	int			l0_flush_wal_count; /* ... or after this many WAL objects (256) */
	int			compaction_min_sources; /* compact when this many L0 SSTs exist (4) */
	double		compaction_size_ratio;	/* a run joins a compaction if <= ratio x the rest (4.0) */
	int			max_fence_attempts; /* open gives up with RL_CONTENDED after this many (8) */
	int64_t		manifest_grace_ms;	/* keep superseded manifests this long (1 h) */
	int64_t		sst_min_age_ms; /* never collect an SST younger than this (1 h) */
	int64_t		wal_retention_ms;	/* keep covered WAL objects this long (1 h) */
	int64_t		manifest_probe_ms;	/* follower: look for a new manifest this often (30 s) */
	bool		auto_maintenance;	/* writer: flush and compact after commits when due */
	/* NULL, or told during compaction and GC how far they are (rocklake-admin's progress) */
	void		(*progress) (void *arg, const char *what, uint64_t done);
	void	   *progress_arg;
	/*
	 * Follower: NULL, or told the key of every write a WAL object it applies holds
	 * (a standby refreshes what they touched). Writes that reach it through a newer
	 * manifest's SSTs instead (a reload) are not told: lsm_stats' manifest_id moves.
	 */
	void		(*applied_key) (void *arg, const uint8_t *key, size_t key_len);
	void	   *applied_key_arg;
} LsmOptions;

void		lsm_options_default(LsmOptions *opts);

/* --- write batches --- */
typedef struct LsmBatch LsmBatch;

LsmBatch   *lsm_batch_new(void);
void		lsm_batch_put(LsmBatch *b, const void *key, size_t key_len, const void *value, size_t value_len);
void		lsm_batch_delete(LsmBatch *b, const void *key, size_t key_len);
/* Append every operation of src to dst. */
void		lsm_batch_append(LsmBatch *dst, const LsmBatch *src);
size_t		lsm_batch_count(const LsmBatch *b);
void		lsm_batch_free(LsmBatch *b);

typedef struct Lsm Lsm;

RlStatus	lsm_open_writer(ObjectStore *os, const LsmOptions *opts, Lsm **out);
RlStatus	lsm_open_follower(ObjectStore *os, const LsmOptions *opts, Lsm **out);
/*
 * A follower frozen at commit as_of (rocklake-admin dump --as-of): the newest
 * manifest whose SSTs hold nothing newer, and the WAL after it up to that commit;
 * it never moves on (no refresh, no reload when an SST is gone). RL_NOT_FOUND, with
 * the reason in rl_last_error, when GC has removed the manifests or WAL objects it
 * needs, or when the commit does not exist yet.
 */
RlStatus	lsm_open_follower_as_of(ObjectStore *os, const LsmOptions *opts, uint64_t as_of,
									Lsm **out);
/*
 * The newest commit made at or before ms (wall clock, ms since 1970) as far as the
 * store still shows it: the newest commit of the newest WAL object written by then,
 * or of the newest manifest's SSTs, by the objects' modification times. RL_NOT_FOUND
 * if the store keeps nothing that old.
 */
RlStatus	lsm_commit_at_time(ObjectStore *os, int64_t ms, uint64_t *seq);
/* Closes the handle (not the object store). Nothing durable depends on it. */
void		lsm_close(Lsm *lsm);

/*
 * Commit n batches as one WAL object (group commit). Batch i gets seq first_seq+i.
 * Returns when durable. RL_FENCED: a newer writer owns the store (terminal).
 * RL_UNKNOWN_OUTCOME: the WAL write may or may not have landed (handle poisoned;
 * reopen, which replays it if it did).
 */
RlStatus	lsm_commit(Lsm *lsm, LsmBatch *const *batches, int n, uint64_t *first_seq);
/* Writer, when idle: let the object store get ready for the next commit's WAL object (its key). */
void		lsm_prepare_commit(Lsm *lsm);

/* Reads see every acknowledged commit (writer) or every applied one (follower). */
RlStatus	lsm_get(Lsm *lsm, const void *key, size_t key_len, RlBuf *value);

/* Return false to stop the scan. */
typedef bool (*LsmScanFn) (const uint8_t *key, size_t key_len,
						   const uint8_t *value, size_t value_len, void *arg);

/* Keys in [start, end) in order; end NULL: to the end. */
RlStatus	lsm_scan(Lsm *lsm, const void *start, size_t start_len, const void *end, size_t end_len,
					 LsmScanFn fn, void *arg);
RlStatus	lsm_scan_prefix(Lsm *lsm, const void *prefix, size_t prefix_len, LsmScanFn fn, void *arg);

/* Writer maintenance; each commits through a new manifest. */
RlStatus	lsm_flush(Lsm *lsm);
RlStatus	lsm_compact(Lsm *lsm);
RlStatus	lsm_gc(Lsm *lsm, int64_t now_ms);
/*
 * Maintenance on request (rocklake-admin; CHECKPOINT, rocklake_compact() and
 * rocklake_gc() through the server's writer). CHECKPOINT: flush the memtable, so
 * that every commit is in SSTs and a restart replays no WAL; COMPACT: that, then
 * merge every SST into one sorted run; GC: lsm_gc now. *result says what it did
 * (lsm_stats says what the store looks like now).
 */
typedef enum LsmTask
{
	LSM_TASK_CHECKPOINT,
	LSM_TASK_COMPACT,
	LSM_TASK_GC
} LsmTask;

typedef struct LsmTaskResult
{
	uint64_t	objects_before; /* this store's manifests, WAL objects and SSTs */
	uint64_t	objects_after;
	uint64_t	bytes_before;
	uint64_t	bytes_after;
	uint64_t	deleted;		/* objects GC deleted */
} LsmTaskResult;

RlStatus	lsm_run_task(Lsm *lsm, LsmTask task, LsmTaskResult *result);
/*
 * Writer: RL_OK while the handle can write; RL_FENCED, or RL_UNKNOWN_OUTCOME (reopen
 * it) once a commit or the maintenance after one found it done, rl_last_error why.
 */
RlStatus	lsm_health(Lsm *lsm);
/* Writer: check the latest manifest for a newer epoch (RL_FENCED if so). */
RlStatus	lsm_check_fence(Lsm *lsm);

/* Follower: apply WAL objects that appeared; *applied counts them. */
RlStatus	lsm_follower_refresh(Lsm *lsm, int *applied);

typedef struct LsmStats
{
	bool		writer;
	uint64_t	writer_epoch;
	uint64_t	manifest_id;
	uint64_t	replay_after_wal_id;
	uint64_t	next_wal_id;
	uint64_t	last_seq;		/* newest readable commit */
	size_t		memtable_entries;
	size_t		memtable_bytes;
	int			l0_ssts;
	int			sorted_runs;
	uint64_t	sst_bytes;
	size_t		sst_cache_bytes;	/* SST bytes held in memory now */
	uint64_t	commits;		/* batches committed by this handle */
	uint64_t	wal_puts;		/* WAL objects written by this handle */
	uint64_t	flushes;
	uint64_t	compactions;
	uint64_t	gc_deleted;
	uint64_t	rereads;		/* reads that failed their checks and were read again */
	int64_t		last_commit_ms; /* follower: when the newest WAL object it applied since it
								 * opened was written (the store's LastModified, ms since
								 * 1970); 0 before the first */
	char		db_uuid[40];
} LsmStats;

void		lsm_stats(Lsm *lsm, LsmStats *stats);

/* The manifest the handle works from (for rocklake-admin). */
struct Manifest;
const struct Manifest *lsm_manifest(Lsm *lsm);

#endif
