/*
 * lsm_maintain.c: the LSM store's maintenance (lsm.h): the memtable flushed to L0,
 * size-tiered compaction into sorted runs, and garbage collection of the objects no
 * manifest within the grace period names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ulid.h"
#include "storage/lsm_internal.h"

/* ---------------------------------------------------------------- flush and compaction */

static void
fill_meta(SstMeta *meta, const char *id, size_t size, const SstProps *props)
{
	memset(meta, 0, sizeof(*meta));
	snprintf(meta->id, sizeof(meta->id), "%s", id);
	meta->size = size;
	meta->entries = props->n_entries;
	meta->min_seq = props->min_seq;
	meta->max_seq = props->max_seq;
	rlbuf_init(&meta->first_key);
	rlbuf_init(&meta->last_key);
	rlbuf_append(&meta->first_key, props->first_key.data, props->first_key.len);
	rlbuf_append(&meta->last_key, props->last_key.data, props->last_key.len);
}

/* Write a finished SST as compacted/<ULID>.sst and cache it; meta describes it. */
static RlStatus
write_sst(Lsm *lsm, SstWriter *w, SstMeta *meta)
{
	RlBuf		bytes;
	SstProps	props;
	char		id[ULID_LEN + 1],
				key[KEY_MAX];
	CachedSst  *c;

	rlbuf_init(&bytes);
	sst_writer_finish(w, &bytes, &props);
	ulid_generate(id, rl_now_ms());
	sst_object_key(id, key, sizeof(key));
	RlStatus	rc = obj_put(lsm->os, key, bytes.data, bytes.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);

	if (rc == RL_OK)
	{
		fill_meta(meta, id, bytes.len, &props);
		rc = cache_insert(lsm, id, &bytes, &c);
		if (rc == RL_OK)
			sst_unpin(lsm, c);
	}
	sst_props_free(&props);
	rlbuf_free(&bytes);
	return rc;
}

RlStatus
lsm_flush(Lsm *lsm)
{
	RlStatus	rc = writable(lsm);

	if (rc != RL_OK || memtable_count(lsm->mem) == 0)
		return rc;
	SstWriter  *w = sst_writer_new(SST_TYPE_DATA, SST_DEFAULT_BLOCK_SIZE);

	for (const MemtableNode *n = memtable_first(lsm->mem); n; n = memtable_next(n))
	{
		SstEntry	e;

		memtable_node_entry(n, &e);
		sst_writer_add(w, e.key, e.key_len, e.seq, e.kind, e.value, e.value_len);
	}
	SstMeta		meta;

	rc = write_sst(lsm, w, &meta);
	sst_writer_free(w);
	if (rc != RL_OK)
		return rc;
	Manifest	next;

	manifest_copy(&next, &lsm->manifest);
	next.l0 = realloc(next.l0, sizeof(SstMeta) * (size_t) (next.n_l0 + 1));
	memmove(&next.l0[1], &next.l0[0], sizeof(SstMeta) * (size_t) next.n_l0);
	next.l0[0] = meta;
	next.n_l0++;
	next.replay_after_wal_id = lsm->next_wal - 1;
	if (memtable_max_seq(lsm->mem) > next.last_l0_seq)
		next.last_l0_seq = memtable_max_seq(lsm->mem);
	rc = commit_manifest(lsm, &next);
	if (rc == RL_OK)
	{
		memtable_free(lsm->mem);
		lsm->mem = memtable_new();
		lsm->wal_since_flush = 0;
		lsm->counters.flushes++;
		STORAGE_COUNT(flushes, 1);
	}
	return rc;
}

uint64_t
run_bytes(const SortedRun *run)
{
	uint64_t	total = 0;

	for (int i = 0; i < run->n_ssts; i++)
		total += run->ssts[i].size;
	return total;
}

/*
 * Size-tiered: merge every L0 SST with the newest runs while each next run is no
 * more than compaction_size_ratio times what is already being merged (all: every
 * run, into one). When the merge reaches the oldest run, tombstones have nothing
 * left to mask and are dropped.
 */
static RlStatus
compact(Lsm *lsm, bool all)
{
	RlStatus	rc = writable(lsm);
	const Manifest *cur = &lsm->manifest;

	if (rc != RL_OK)
		return rc;
	uint64_t	merged = 0;
	int			n_runs = 0;

	for (int i = 0; i < cur->n_l0; i++)
		merged += cur->l0[i].size;
	while (n_runs < cur->n_runs &&
		   (all || (double) run_bytes(&cur->runs[n_runs]) <= lsm->opts.compaction_size_ratio * (double) merged))
		merged += run_bytes(&cur->runs[n_runs++]);
	if (all ? cur->n_l0 == 0 && n_runs <= 1 : cur->n_l0 + n_runs < 2)
		return RL_OK;			/* nothing to merge */
	bool		drop_tombstones = n_runs == cur->n_runs;
	Merge		m;
	SstWriter  *w = sst_writer_new(SST_TYPE_DATA, SST_DEFAULT_BLOCK_SIZE);
	SstEntry	e;
	SstMeta    *outputs = NULL;
	int			n_outputs = 0;

	/* each key appears once in the merged stream, so any row boundary may split SSTs */
	rc = merge_open(lsm, &m, false, cur->n_l0, n_runs, "", 0, NULL, 0);
	for (bool more = rc == RL_OK; more;)
	{
		more = merge_next(&m, &e) != NULL;
		if (more && !(drop_tombstones && e.kind == SST_KIND_DEL))
			sst_writer_add(w, e.key, e.key_len, e.seq, e.kind, e.value, e.value_len);
		if (sst_writer_count(w) > 0 && (!more || sst_writer_size(w) >= lsm->opts.sst_target_bytes) &&
			m.status == RL_OK)
		{
			outputs = realloc(outputs, sizeof(SstMeta) * (size_t) (n_outputs + 1));
			rc = write_sst(lsm, w, &outputs[n_outputs]);
			sst_writer_free(w);
			w = sst_writer_new(SST_TYPE_DATA, SST_DEFAULT_BLOCK_SIZE);
			if (rc != RL_OK)
				break;
			n_outputs++;
			if (lsm->opts.progress)
				lsm->opts.progress(lsm->opts.progress_arg, "SSTs written by the merge", (uint64_t) n_outputs);
		}
	}
	if (rc == RL_OK)
		rc = m.status;
	merge_free(&m);
	sst_writer_free(w);
	if (rc != RL_OK)
	{
		/* outputs already written are orphans: GC collects them */
		for (int i = 0; i < n_outputs; i++)
			sst_meta_free(&outputs[i]);
		free(outputs);
		return rc;
	}

	Manifest	next;

	manifest_copy(&next, cur);
	for (int i = 0; i < next.n_l0; i++)
		sst_meta_free(&next.l0[i]);
	next.n_l0 = 0;
	for (int r = 0; r < n_runs; r++)
	{
		for (int i = 0; i < next.runs[r].n_ssts; i++)
			sst_meta_free(&next.runs[r].ssts[i]);
		free(next.runs[r].ssts);
	}
	int			kept = next.n_runs - n_runs;
	int			first = n_outputs > 0 ? 1 : 0;

	memmove(&next.runs[first], &next.runs[n_runs], sizeof(SortedRun) * (size_t) kept);
	next.n_runs = kept + first;
	if (n_outputs > 0)
	{
		next.runs[0].run_id = next.next_run_id++;
		next.runs[0].n_ssts = n_outputs;
		next.runs[0].ssts = outputs;
	}
	else
		free(outputs);
	rc = commit_manifest(lsm, &next);
	if (rc == RL_OK)
	{
		lsm->counters.compactions++;
		STORAGE_COUNT(compactions, 1);
	}
	return rc;
}

RlStatus
lsm_compact(Lsm *lsm)
{
	return compact(lsm, false);
}

RlStatus
maybe_maintain(Lsm *lsm)
{
	RlStatus	rc = RL_OK;

	if (memtable_bytes(lsm->mem) >= lsm->opts.l0_flush_bytes ||
		lsm->wal_since_flush >= lsm->opts.l0_flush_wal_count)
		rc = lsm_flush(lsm);
	if (rc == RL_OK && lsm->manifest.n_l0 >= lsm->opts.compaction_min_sources)
		rc = lsm_compact(lsm);
	return rc;
}

/* ---------------------------------------------------------------- garbage collection */

typedef struct ObjList
{
	ObjInfo    *items;
	char	  **keys;
	int			n;
} ObjList;

static bool
collect_cb(const ObjInfo *info, void *arg)
{
	ObjList    *l = arg;

	l->items = realloc(l->items, sizeof(ObjInfo) * (size_t) (l->n + 1));
	l->keys = realloc(l->keys, sizeof(char *) * (size_t) (l->n + 1));
	l->items[l->n] = *info;
	l->keys[l->n] = strdup(info->key);
	l->items[l->n].key = l->keys[l->n];
	l->n++;
	return true;
}

static void
objlist_free(ObjList *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->keys[i]);
	free(l->keys);
	free(l->items);
}

/* count an object GC deleted (rc RL_OK), and say so to a progress hook */
static void
gc_deleted_one(Lsm *lsm, RlStatus rc)
{
	if (rc != RL_OK)
		return;
	lsm->counters.gc_deleted++;
	STORAGE_COUNT(gc_deleted, 1);
	if (lsm->opts.progress)
		lsm->opts.progress(lsm->opts.progress_arg, "objects deleted", lsm->counters.gc_deleted);
}

/* Move gc/manifest.boundary up to at least value (never down). */
static RlStatus
advance_boundary(ObjectStore *os, uint64_t value)
{
	uint64_t	cur;
	char		etag[OBJ_ETAG_MAX];
	RlStatus	rc = read_boundary(os, &cur, etag);

	if (rc != RL_OK || cur >= value)
		return rc;
	char		text[32];
	int			len = snprintf(text, sizeof(text), "%" PRIu64, value);

	return obj_put(os, BOUNDARY_KEY, text, (size_t) len,
				   etag[0] ? OBJ_PUT_IF_MATCH : OBJ_PUT_IF_NONE_MATCH, etag[0] ? etag : NULL, NULL);
}

RlStatus
lsm_gc(Lsm *lsm, int64_t now_ms)
{
	RlStatus	rc = writable(lsm);
	ObjList		manifests = {0},
				ssts = {0},
				wals = {0};
	uint64_t	latest = lsm->manifest.manifest_id,
				delete_upto = 0;

	if (rc != RL_OK)
		return rc;
	STORAGE_COUNT(gc_runs, 1);
	/* 1. manifests whose successor is older than the grace period */
	rc = obj_list(lsm->os, "manifest/", NULL, collect_cb, &manifests);
	for (int i = 0; rc == RL_OK && i + 1 < manifests.n; i++)
	{
		uint64_t	id = object_key_id(manifests.keys[i], "manifest/", ".manifest");
		uint64_t	succ = object_key_id(manifests.keys[i + 1], "manifest/", ".manifest");

		if (id == 0 || id >= latest || succ != id + 1)
			break;
		if (manifests.items[i + 1].mtime_ms > now_ms - lsm->opts.manifest_grace_ms)
			break;
		delete_upto = id;
	}
	if (rc == RL_OK && delete_upto > 0)
	{
		rc = advance_boundary(lsm->os, delete_upto);
		for (int i = 0; rc == RL_OK && i < manifests.n; i++)
			if (object_key_id(manifests.keys[i], "manifest/", ".manifest") <= delete_upto)
			{
				rc = obj_delete(lsm->os, manifests.keys[i]);
				gc_deleted_one(lsm, rc);
			}
	}
	/* 2. what the retained manifests still need */
	Manifest   *retained = NULL;
	int			n_retained = 0;
	uint64_t	min_replay = lsm->manifest.replay_after_wal_id;

	for (uint64_t id = delete_upto + 1; rc == RL_OK && id <= latest; id++)
	{
		Manifest	m;
		RlStatus	frc = fetch_manifest(lsm, id, &m);

		if (frc == RL_NOT_FOUND)
			continue;
		if (frc != RL_OK)
		{
			rc = frc;
			break;
		}
		retained = realloc(retained, sizeof(Manifest) * (size_t) (n_retained + 1));
		retained[n_retained++] = m;
		if (m.replay_after_wal_id < min_replay)
			min_replay = m.replay_after_wal_id;
	}
	/* 3. SSTs no retained manifest names, older than sst_min_age */
	if (rc == RL_OK)
		rc = obj_list(lsm->os, "compacted/", NULL, collect_cb, &ssts);
	for (int i = 0; rc == RL_OK && i < ssts.n; i++)
	{
		char		id[SST_ID_MAX];
		const char *name = ssts.keys[i] + strlen("compacted/");
		size_t		len = strlen(name);

		if (len < 5 || len - 4 >= sizeof(id) || strcmp(name + len - 4, ".sst") != 0)
			continue;
		snprintf(id, sizeof(id), "%.*s", (int) (len - 4), name);
		int64_t		born = ulid_time_ms(id);
		bool		needed = manifest_references(&lsm->manifest, id);

		for (int m = 0; !needed && m < n_retained; m++)
			needed = manifest_references(&retained[m], id);
		if (!needed && born >= 0 && born < now_ms - lsm->opts.sst_min_age_ms)
		{
			rc = obj_delete(lsm->os, ssts.keys[i]);
			gc_deleted_one(lsm, rc);
		}
	}
	/*
	 * 4. WAL objects every retained manifest covers, older than wal_retention. Of
	 * the fences (empty objects), the newest is always kept: it stops the writer
	 * the current one took over from, which may still be running. An older fence
	 * stopped a writer that an hour and at least one more takeover ago was told by
	 * every manifest and fence check that it is done; each open of the store
	 * (every server start, every rocklake-admin run that writes) leaves one.
	 */
	if (rc == RL_OK)
		rc = obj_list(lsm->os, "wal/", NULL, collect_cb, &wals);
	int			newest_fence = -1;

	for (int i = 0; rc == RL_OK && i < wals.n; i++)
		if (wals.items[i].size == 0)
			newest_fence = i;
	for (int i = 0; rc == RL_OK && i < wals.n; i++)
	{
		uint64_t	id = object_key_id(wals.keys[i], "wal/", ".sst");

		if (id == 0 || id > min_replay)
			break;
		if ((wals.items[i].size > 0 || i < newest_fence) &&
			wals.items[i].mtime_ms < now_ms - lsm->opts.wal_retention_ms)
		{
			rc = obj_delete(lsm->os, wals.keys[i]);
			gc_deleted_one(lsm, rc);
		}
	}
	for (int m = 0; m < n_retained; m++)
		manifest_free(&retained[m]);
	free(retained);
	objlist_free(&manifests);
	objlist_free(&ssts);
	objlist_free(&wals);
	return rc;
}

/* ---------------------------------------------------------------- tasks on request */

static bool
usage_cb(const ObjInfo *info, void *arg)
{
	uint64_t   *u = arg;

	u[0]++;
	u[1] += info->size;
	return true;
}

/* the objects of this LSM (not of stores nested under its root) and their bytes */
static RlStatus
lsm_usage(ObjectStore *os, uint64_t *objects, uint64_t *bytes)
{
	static const char *const prefixes[] = {"manifest/", "wal/", "compacted/"};
	uint64_t	u[2] = {0, 0};
	RlStatus	rc = RL_OK;

	for (size_t i = 0; rc == RL_OK && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		rc = obj_list(os, prefixes[i], NULL, usage_cb, u);
	*objects = u[0];
	*bytes = u[1];
	return rc;
}

RlStatus
lsm_run_task(Lsm *lsm, LsmTask task, LsmTaskResult *result)
{
	uint64_t	deleted = lsm->counters.gc_deleted;
	RlStatus	rc;

	memset(result, 0, sizeof(*result));
	rc = lsm_usage(lsm->os, &result->objects_before, &result->bytes_before);
	if (rc == RL_OK && task != LSM_TASK_GC)
		rc = lsm_flush(lsm);
	if (rc == RL_OK && task == LSM_TASK_COMPACT)
		rc = compact(lsm, true);
	if (rc == RL_OK && task == LSM_TASK_GC)
		rc = lsm_gc(lsm, rl_now_ms());
	if (rc == RL_OK)
		rc = lsm_usage(lsm->os, &result->objects_after, &result->bytes_after);
	result->deleted = lsm->counters.gc_deleted - deleted;
	return rc;
}
