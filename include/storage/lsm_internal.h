/*
 * lsm_internal.h: what the files of the LSM store share (lsm.c: open, WAL,
 * commit, the SST cache and the follower; lsm_read.c: merging reads;
 * lsm_maintain.c: flush, compaction and garbage collection): the handle and the
 * helpers each side calls.
 */
#ifndef RL_LSM_INTERNAL_H
#define RL_LSM_INTERNAL_H

#include "storage/lsm.h"
#include "storage/manifest.h"
#include "storage/memtable.h"
#include "storage/sst.h"

#define KEY_MAX 128
#define FORMAT_KEY "meta/FORMAT"
#define BOUNDARY_KEY "gc/manifest.boundary"

struct LsmBatch
{
	RlBuf		ops;			/* u8 kind | varint klen | key | varint vlen | value */
	size_t		count;
};

/*
 * An SST held in memory. Entries are pinned while a lookup or an iterator reads
 * them; unpinned ones are evicted least recently used first once the cache holds
 * more than sst_cache_bytes, and ones the manifest no longer names are freed as soon
 * as nothing pins them.
 */
typedef struct CachedSst
{
	char		id[SST_ID_MAX];
	RlBuf		bytes;
	SstReader  *reader;
	int			pins;
	uint64_t	last_use;
	bool		retired;
} CachedSst;

struct Lsm
{
	ObjectStore *os;
	LsmOptions	opts;
	bool		writer;
	uint64_t	as_of;			/* a follower frozen at this commit, else UINT64_MAX */
	RlStatus	broken;			/* RL_FENCED or RL_UNKNOWN_OUTCOME once the handle is done */
	char		broken_why[256];
	Manifest	manifest;
	Memtable   *mem;
	uint64_t	next_seq;
	uint64_t	next_wal;
	int			wal_since_flush;
	int64_t		last_manifest_probe_ms;
	CachedSst **cache;
	int			n_cache;
	size_t		cache_bytes;
	uint64_t	use_clock;
	bool		sst_missing;	/* a read found an SST object gone (follower: reload) */
	LsmStats	counters;
};

/*
 * One input of a merge: the memtable, one L0 SST, or a sorted run. A run's SSTs are
 * key-ordered and disjoint, so its input opens (and pins) one SST at a time and moves
 * to the next when it is exhausted: a full scan holds one SST per run in memory, not
 * the whole store.
 */
typedef struct MergeInput
{
	const MemtableNode *node;	/* the memtable input */
	const SstMeta *ssts;		/* an SST input: one L0 SST or a run's SSTs */
	int			n_ssts;
	int			next_sst;
	CachedSst  *open;
	SstIter    *it;
	SstEntry	cur;
	bool		valid;
} MergeInput;

typedef struct Merge
{
	Lsm		   *lsm;
	MergeInput *in;
	int			n;
	const void *end;			/* exclusive upper bound, or NULL */
	size_t		end_len;
	RlBuf		key;			/* the key and value last returned, owned */
	RlStatus	status;
} Merge;

typedef RlStatus (*ReadCheck) (const RlBuf *bytes, void *arg);

/* lsm.c */
RlStatus	cache_insert(Lsm *lsm, const char *id, RlBuf *bytes, CachedSst **out);
RlStatus	commit_manifest(Lsm *lsm, Manifest *next);
RlStatus	fetch_manifest(Lsm *lsm, uint64_t id, Manifest *m);
bool		manifest_references(const Manifest *m, const char *id);
RlStatus	read_boundary(ObjectStore *os, uint64_t *boundary, char *etag);
RlStatus	sst_pin(Lsm *lsm, const SstMeta *meta, CachedSst **out);
void		sst_unpin(Lsm *lsm, CachedSst *c);
RlStatus	writable(Lsm *lsm);
RlStatus	follower_reload_manifest(Lsm *lsm);
RlStatus	get_checked(Lsm *lsm, const char *key, RlBuf *buf, ReadCheck check, void *arg);

/* lsm_read.c */
void		merge_free(Merge *m);
const SstEntry *merge_next(Merge *m, SstEntry *out);
RlStatus	merge_open(Lsm *lsm, Merge *m, bool with_memtable, int n_l0, int n_runs, const void *start, size_t start_len, const void *end, size_t end_len);

/* lsm_maintain.c */
uint64_t	run_bytes(const SortedRun *run);
RlStatus	maybe_maintain(Lsm *lsm);

#endif
