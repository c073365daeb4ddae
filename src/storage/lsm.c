/*
 * lsm.c: the LSM store on an object store: writer open with epoch fencing, WAL
 * replay, group commit, reads through memtable + L0 + sorted runs, L0 flush,
 * size-tiered compaction, garbage collection, and the read-only follower.
 *
 * Object layout (doc/storage.md, "Objects"):
 *   meta/FORMAT                       {"format":1,"db_uuid":...}, created once
 *   manifest/%020llu.manifest         consecutive ids, create-if-absent: the commit point
 *   wal/%020llu.sst                   one per group commit; 0 bytes = a writer's fence
 *   compacted/<ULID>.sst              L0 flushes and compaction outputs
 *   gc/manifest.boundary              highest manifest id GC may have deleted
 *
 * Reads (lsm_read.c) and flush, compaction and garbage collection (lsm_maintain.c)
 * are files of their own; lsm_internal.h is what the three share.
 *
 * Everything runs on the caller's thread: the writer process is single-threaded, so
 * the memtable is frozen between WAL writes by construction (the SlateDB #1857 bug
 * cannot happen), and there is never more than one WAL write in flight.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/ulid.h"
#include "storage/lsm_internal.h"

void
lsm_options_default(LsmOptions *opts)
{
	memset(opts, 0, sizeof(*opts));	/* hooks and what is added later: none */
	opts->l0_flush_bytes = 4 * 1024 * 1024;
	opts->sst_target_bytes = 8 * 1024 * 1024;
	opts->sst_cache_bytes = 64 * 1024 * 1024;
	opts->l0_flush_wal_count = 256;
	opts->compaction_min_sources = 4;
	opts->compaction_size_ratio = 4.0;
	opts->max_fence_attempts = 8;
	opts->manifest_grace_ms = 3600 * 1000;
	opts->sst_min_age_ms = 3600 * 1000;
	opts->wal_retention_ms = 3600 * 1000;
	opts->manifest_probe_ms = 30 * 1000;
	opts->auto_maintenance = true;
}

/* ---------------------------------------------------------------- batches */

LsmBatch *
lsm_batch_new(void)
{
	LsmBatch   *b = calloc(1, sizeof(LsmBatch));

	rlbuf_init(&b->ops);
	return b;
}

static void
batch_add(LsmBatch *b, SstKind kind, const void *key, size_t key_len, const void *value, size_t value_len)
{
	rlbuf_put_u8(&b->ops, (uint8_t) kind);
	rlbuf_put_varint(&b->ops, key_len);
	rlbuf_append(&b->ops, key, key_len);
	rlbuf_put_varint(&b->ops, value_len);
	rlbuf_append(&b->ops, value, value_len);
	b->count++;
}

void
lsm_batch_put(LsmBatch *b, const void *key, size_t key_len, const void *value, size_t value_len)
{
	batch_add(b, SST_KIND_PUT, key, key_len, value, value_len);
}

void
lsm_batch_delete(LsmBatch *b, const void *key, size_t key_len)
{
	batch_add(b, SST_KIND_DEL, key, key_len, NULL, 0);
}

void
lsm_batch_append(LsmBatch *dst, const LsmBatch *src)
{
	rlbuf_append(&dst->ops, src->ops.data, src->ops.len);
	dst->count += src->count;
}

size_t
lsm_batch_count(const LsmBatch *b)
{
	return b->count;
}

void
lsm_batch_free(LsmBatch *b)
{
	if (b)
	{
		rlbuf_free(&b->ops);
		free(b);
	}
}

/* Call fn for each operation of a batch (the encoding is ours, so it is well formed). */
static void
batch_foreach(const LsmBatch *b, uint64_t seq,
			  void (*fn) (void *arg, const SstEntry *e), void *arg)
{
	RlReader	r;

	rlreader_init(&r, b->ops.data, b->ops.len);
	while (rlreader_remaining(&r) > 0)
	{
		SstEntry	e;

		e.seq = seq;
		e.kind = (SstKind) rlreader_u8(&r);
		e.key_len = rlreader_varint(&r);
		e.key = rlreader_bytes(&r, e.key_len);
		e.value_len = rlreader_varint(&r);
		e.value = rlreader_bytes(&r, e.value_len);
		fn(arg, &e);
	}
}

static void
add_to_wal(void *arg, const SstEntry *e)
{
	sst_writer_add(arg, e->key, e->key_len, e->seq, e->kind, e->value, e->value_len);
}

static void
add_to_memtable(void *arg, const SstEntry *e)
{
	memtable_insert(arg, e->key, e->key_len, e->seq, e->kind, e->value, e->value_len);
}

/* ---------------------------------------------------------------- store objects */

/*
 * A read is believed only after its checks: an object whose bytes fail them (a CRC,
 * a length, its format) is read again, READ_ATTEMPTS times in all, and only damage
 * every read agrees on is RL_CORRUPT. A bit flipped on the wire or a response cut
 * short by a proxy must not turn a healthy store into a "corrupt" one that refuses
 * to open. check() sees the whole object; it may act on it (apply a WAL object) only
 * when it returns RL_OK, so a check that fails part-way has changed nothing.
 */
#define READ_ATTEMPTS 3

RlStatus
get_checked(Lsm *lsm, const char *key, RlBuf *buf, ReadCheck check, void *arg)
{
	RlStatus	rc = RL_OK;

	for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++)
	{
		if (attempt > 0)
			lsm->counters.rereads++;
		rlbuf_reset(buf);
		rc = obj_get(lsm->os, key, buf);
		if (rc == RL_OK)
			rc = check(buf, arg);
		if (rc != RL_CORRUPT)
			return rc;
	}
	return rc;
}

static RlStatus
check_format(const RlBuf *buf, void *arg)
{
	char	   *db_uuid = arg;
	json_t	   *root = json_loadb((const char *) buf->data, buf->len, 0, NULL);
	json_int_t	format = 0;
	const char *uuid = NULL;
	RlStatus	rc = RL_OK;

	/* meta/FORMAT has no checksum: what it holds must at least look right */
	if (root == NULL || json_unpack(root, "{s:I, s:s}", "format", &format, "db_uuid", &uuid) != 0 ||
		strlen(uuid) != 32 || strspn(uuid, "0123456789abcdef") != 32)
		rc = rl_error(RL_CORRUPT, "meta/FORMAT is malformed");
	else if (format != 1)
		rc = rl_error(RL_CORRUPT, "store format %lld is not supported by this build",
					  (long long) format);
	else
		snprintf(db_uuid, 40, "%s", uuid);
	json_decref(root);
	return rc;
}

static RlStatus
read_or_create_format(Lsm *lsm, bool create, char *db_uuid)
{
	RlBuf		buf;
	RlStatus	rc;

	rlbuf_init(&buf);
	rc = get_checked(lsm, FORMAT_KEY, &buf, check_format, db_uuid);
	if (rc == RL_NOT_FOUND && create)
	{
		char		uuid[33];
		RlBuf		text;

		rl_random_hex(uuid, 16);
		rlbuf_init(&text);
		rlbuf_printf(&text, "{\"format\":1,\"db_uuid\":\"%s\",\"created_ms\":%" PRId64 "}\n", uuid, rl_now_ms());
		rc = obj_put(lsm->os, FORMAT_KEY, text.data, text.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
		rlbuf_free(&text);
		if (rc == RL_OK || rc == RL_PRECONDITION)
			rc = get_checked(lsm, FORMAT_KEY, &buf, check_format, db_uuid);
	}
	if (rc == RL_NOT_FOUND)
		rc = rl_error(RL_NOT_FOUND, "no RockLake store at %s (meta/FORMAT is missing)", lsm->os->description);
	else if (rc != RL_OK)
		rc = rl_error(rc, "%s: %s", lsm->os->description, rl_last_error());
	rlbuf_free(&buf);
	return rc;
}

typedef struct ManifestRead
{
	uint64_t	id;
	Manifest   *m;
} ManifestRead;

static RlStatus
check_manifest(const RlBuf *buf, void *arg)
{
	ManifestRead *mr = arg;
	RlStatus	rc = manifest_decode(buf->data, buf->len, mr->m);

	if (rc == RL_OK && mr->m->manifest_id != mr->id)
	{
		manifest_free(mr->m);
		return rl_error(RL_CORRUPT, "it holds manifest id %" PRIu64, mr->m->manifest_id);
	}
	return rc;
}

RlStatus
fetch_manifest(Lsm *lsm, uint64_t id, Manifest *m)
{
	char		key[KEY_MAX];
	RlBuf		buf;
	ManifestRead mr = {id, m};

	manifest_object_key(id, key, sizeof(key));
	rlbuf_init(&buf);
	RlStatus	rc = get_checked(lsm, key, &buf, check_manifest, &mr);

	if (rc != RL_OK && rc != RL_NOT_FOUND)
		rc = rl_error(rc, "%s: %s", key, rl_last_error());
	rlbuf_free(&buf);
	return rc;
}

static bool
max_id_cb(const ObjInfo *info, void *arg)
{
	uint64_t	id = object_key_id(info->key, "manifest/", ".manifest");

	if (id > *(uint64_t *) arg)
		*(uint64_t *) arg = id;
	return true;
}

/* The newest manifest: LIST for the highest id, then probe forward past a stale list. */
static RlStatus
load_latest_manifest(Lsm *lsm, uint64_t at_least, Manifest *out)
{
	uint64_t	id = 0;
	RlStatus	rc;

	if (at_least == 0)
	{
		rc = obj_list(lsm->os, "manifest/", NULL, max_id_cb, &id);
		if (rc != RL_OK)
			return rc;
		if (id == 0)
			return rl_error(RL_NOT_FOUND, "the store has no manifest yet");
	}
	else
		id = at_least;
	rc = fetch_manifest(lsm, id, out);
	if (rc != RL_OK)
		return rc;
	for (;;)
	{
		Manifest	next;

		rc = fetch_manifest(lsm, out->manifest_id + 1, &next);
		if (rc == RL_NOT_FOUND)
			return RL_OK;
		if (rc != RL_OK)
		{
			manifest_free(out);
			return rc;
		}
		manifest_free(out);
		*out = next;
	}
}

RlStatus
read_boundary(ObjectStore *os, uint64_t *boundary, char *etag)
{
	RlBuf		buf;
	ObjInfo		info;
	RlStatus	rc;

	*boundary = 0;
	etag[0] = '\0';
	rlbuf_init(&buf);
	rc = obj_head(os, BOUNDARY_KEY, &info);
	if (rc == RL_OK)
	{
		snprintf(etag, OBJ_ETAG_MAX, "%s", info.etag);
		rc = obj_get(os, BOUNDARY_KEY, &buf);
		if (rc == RL_OK)
			*boundary = strtoull(rlbuf_cstr(&buf), NULL, 10);
	}
	rlbuf_free(&buf);
	return rc == RL_NOT_FOUND ? RL_OK : rc;
}

/*
 * Create manifest m->manifest_id. RL_PRECONDITION if the id is taken, or if GC has
 * already moved its boundary past it (our create landed in a hole GC made: the
 * RFC-0026 case, which must count as a lost race too).
 */
static RlStatus
put_manifest(ObjectStore *os, const Manifest *m)
{
	char		key[KEY_MAX];
	RlBuf		buf;

	manifest_object_key(m->manifest_id, key, sizeof(key));
	rlbuf_init(&buf);
	manifest_encode(m, &buf);
	RlStatus	rc = obj_put(os, key, buf.data, buf.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);

	rlbuf_free(&buf);
	if (rc == RL_OK)
	{
		uint64_t	boundary;
		char		etag[OBJ_ETAG_MAX];

		rc = read_boundary(os, &boundary, etag);
		if (rc == RL_OK && m->manifest_id <= boundary)
			rc = rl_error(RL_PRECONDITION, "manifest %" PRIu64 " is at or below the GC boundary %" PRIu64,
						  m->manifest_id, boundary);
	}
	return rc;
}

/* ---------------------------------------------------------------- SST cache */

static void
cache_remove_at(Lsm *lsm, int i)
{
	CachedSst  *c = lsm->cache[i];

	lsm->cache_bytes -= c->bytes.len;
	sst_reader_free(c->reader);
	rlbuf_free(&c->bytes);
	free(c);
	lsm->cache[i] = lsm->cache[--lsm->n_cache];
}

static void
cache_drop_all(Lsm *lsm)
{
	while (lsm->n_cache > 0)
		cache_remove_at(lsm, lsm->n_cache - 1);
	free(lsm->cache);
	lsm->cache = NULL;
}

/* Evict unpinned SSTs, least recently used first, until the cache fits its budget. */
static void
cache_evict(Lsm *lsm)
{
	while (lsm->cache_bytes > lsm->opts.sst_cache_bytes)
	{
		int			victim = -1;

		for (int i = 0; i < lsm->n_cache; i++)
			if (lsm->cache[i]->pins == 0 &&
				(victim < 0 || lsm->cache[i]->last_use < lsm->cache[victim]->last_use))
				victim = i;
		if (victim < 0)
			return;				/* everything is in use: over budget until unpinned */
		cache_remove_at(lsm, victim);
	}
}

bool
manifest_references(const Manifest *m, const char *id)
{
	for (int i = 0; i < m->n_l0; i++)
		if (strcmp(m->l0[i].id, id) == 0)
			return true;
	for (int r = 0; r < m->n_runs; r++)
		for (int i = 0; i < m->runs[r].n_ssts; i++)
			if (strcmp(m->runs[r].ssts[i].id, id) == 0)
				return true;
	return false;
}

/* Forget cached SSTs the current manifest no longer names. */
static void
cache_prune(Lsm *lsm)
{
	for (int i = lsm->n_cache - 1; i >= 0; i--)
	{
		CachedSst  *c = lsm->cache[i];

		if (manifest_references(&lsm->manifest, c->id))
			continue;
		if (c->pins == 0)
			cache_remove_at(lsm, i);
		else
			c->retired = true;
	}
}

/* Adopt bytes (taken from *bytes) as the cached copy of SST id, pinned once. */
RlStatus
cache_insert(Lsm *lsm, const char *id, RlBuf *bytes, CachedSst **out)
{
	SstReader  *r;
	RlStatus	rc = sst_reader_open(bytes->data, bytes->len, &r);

	if (rc != RL_OK)
	{
		rlbuf_free(bytes);
		return rl_error(rc, "SST %s: %s", id, rl_last_error());
	}
	CachedSst  *c = calloc(1, sizeof(CachedSst));

	snprintf(c->id, sizeof(c->id), "%s", id);
	c->bytes = *bytes;
	rlbuf_init(bytes);
	c->reader = r;
	c->pins = 1;
	c->last_use = ++lsm->use_clock;
	lsm->cache = realloc(lsm->cache, sizeof(CachedSst *) * (size_t) (lsm->n_cache + 1));
	lsm->cache[lsm->n_cache++] = c;
	lsm->cache_bytes += c->bytes.len;
	cache_evict(lsm);
	*out = c;
	return RL_OK;
}

void
sst_unpin(Lsm *lsm, CachedSst *c)
{
	if (--c->pins > 0)
		return;
	if (c->retired)
	{
		for (int i = 0; i < lsm->n_cache; i++)
			if (lsm->cache[i] == c)
			{
				cache_remove_at(lsm, i);
				return;
			}
	}
	cache_evict(lsm);
}

/* An SST read from the store is kept only whole: its size and every block checked. */
static RlStatus
check_sst(const RlBuf *buf, void *arg)
{
	const SstMeta *meta = arg;
	SstReader  *r;
	RlStatus	rc;

	if (buf->len != meta->size)
		return rl_error(RL_CORRUPT, "%zu bytes, the manifest says %" PRIu64, buf->len, meta->size);
	rc = sst_reader_open(buf->data, buf->len, &r);
	if (rc == RL_OK)
	{
		rc = sst_reader_verify(r);
		sst_reader_free(r);
	}
	return rc;
}

/* The SST meta names, in memory and pinned (release with sst_unpin). */
RlStatus
sst_pin(Lsm *lsm, const SstMeta *meta, CachedSst **out)
{
	for (int i = 0; i < lsm->n_cache; i++)
	{
		CachedSst  *c = lsm->cache[i];

		if (!c->retired && strcmp(c->id, meta->id) == 0)
		{
			c->pins++;
			c->last_use = ++lsm->use_clock;
			*out = c;
			return RL_OK;
		}
	}
	char		key[KEY_MAX];
	RlBuf		buf;

	sst_object_key(meta->id, key, sizeof(key));
	rlbuf_init(&buf);
	RlStatus	rc = get_checked(lsm, key, &buf, check_sst, (void *) meta);

	if (rc == RL_NOT_FOUND)
	{
		lsm->sst_missing = true;
		rlbuf_free(&buf);
		return rl_error(RL_UNAVAILABLE, "SST %s named by manifest %" PRIu64 " is gone",
						key, lsm->manifest.manifest_id);
	}
	if (rc != RL_OK)
	{
		rlbuf_free(&buf);
		return rl_error(rc, "%s: %s", key, rl_last_error());
	}
	return cache_insert(lsm, meta->id, &buf, out);
}

/* ---------------------------------------------------------------- WAL */

typedef struct WalRead
{
	Lsm		   *lsm;
	uint64_t   *max_seq;
} WalRead;

/* The check of a WAL object read is its application: whole, or not at all. */
static RlStatus
apply_wal_object(const RlBuf *bytes, void *arg)
{
	WalRead    *wr = arg;
	Lsm		   *lsm = wr->lsm;

	if (bytes->len == 0)
		return RL_OK;			/* a fence */
	SstReader  *r;
	RlStatus	rc = sst_reader_open(bytes->data, bytes->len, &r);

	if (rc == RL_OK && sst_reader_props(r)->type != SST_TYPE_WAL)
	{
		sst_reader_free(r);
		rc = rl_error(RL_CORRUPT, "object is not a WAL SST");
	}
	if (rc != RL_OK)
		return rc;
	/* decode fully first: a batch is applied whole or not at all */
	Memtable   *staged = memtable_new();
	SstIter    *it = sst_iter_new(r);
	uint64_t	max_seq = *wr->max_seq;

	for (sst_iter_seek_first(it); sst_iter_valid(it); sst_iter_next(it))
	{
		const SstEntry *e = sst_iter_entry(it);

		if (e->seq > lsm->manifest.last_l0_seq && e->seq <= lsm->as_of)
			memtable_insert(staged, e->key, e->key_len, e->seq, e->kind, e->value, e->value_len);
		if (e->seq > max_seq)
			max_seq = e->seq;
	}
	rc = sst_iter_status(it);
	if (rc == RL_OK)
	{
		for (const MemtableNode *n = memtable_first(staged); n; n = memtable_next(n))
		{
			SstEntry	e;

			memtable_node_entry(n, &e);
			memtable_insert(lsm->mem, e.key, e.key_len, e.seq, e.kind, e.value, e.value_len);
			if (lsm->opts.applied_key)
				lsm->opts.applied_key(lsm->opts.applied_key_arg, e.key, e.key_len);
		}
		*wr->max_seq = max_seq;
	}
	sst_iter_free(it);
	sst_reader_free(r);
	memtable_free(staged);
	return rc;
}

/* Read WAL object wal_id and apply it to the memtable. */
static RlStatus
read_wal_object(Lsm *lsm, uint64_t wal_id, RlBuf *buf, uint64_t *max_seq)
{
	char		key[KEY_MAX];
	WalRead		wr = {lsm, max_seq};
	RlStatus	rc;

	wal_object_key(wal_id, key, sizeof(key));
	rc = get_checked(lsm, key, buf, apply_wal_object, &wr);
	if (rc != RL_OK && rc != RL_NOT_FOUND)
		rc = rl_error(rc, "WAL object %s: %s", key, rl_last_error());
	return rc;
}

typedef struct WalScan
{
	uint64_t	expect;
} WalScan;

static bool
wal_gap_cb(const ObjInfo *info, void *arg)
{
	WalScan    *ws = arg;
	uint64_t	id = object_key_id(info->key, "wal/", ".sst");

	if (id != ws->expect)
		return false;
	ws->expect++;
	return true;
}

/* The first WAL id >= from that does not exist. */
static RlStatus
first_missing_wal(ObjectStore *os, uint64_t from, uint64_t *missing)
{
	char		after[KEY_MAX];
	WalScan		ws = {from};

	wal_object_key(from - 1, after, sizeof(after));
	RlStatus	rc = obj_list(os, "wal/", after, wal_gap_cb, &ws);

	*missing = ws.expect;
	return rc;
}

/* ---------------------------------------------------------------- open */

static Lsm *
lsm_new(ObjectStore *os, const LsmOptions *opts, bool writer)
{
	Lsm		   *lsm = calloc(1, sizeof(Lsm));

	lsm->os = os;
	if (opts)
		lsm->opts = *opts;
	else
		lsm_options_default(&lsm->opts);
	lsm->writer = writer;
	lsm->as_of = UINT64_MAX;
	lsm->mem = memtable_new();
	manifest_init(&lsm->manifest);
	return lsm;
}

/* Bump the writer epoch: create manifest latest+1 carrying epoch+1. */
static RlStatus
bump_epoch(Lsm *lsm, const char *db_uuid)
{
	for (int attempt = 0; attempt < lsm->opts.max_fence_attempts; attempt++)
	{
		Manifest	latest,
					next;
		RlStatus	rc = load_latest_manifest(lsm, 0, &latest);

		if (rc == RL_NOT_FOUND)
		{
			/* a new store: manifest 1 with epoch 0 */
			manifest_init(&latest);
			snprintf(latest.db_uuid, sizeof(latest.db_uuid), "%s", db_uuid);
			latest.manifest_id = 1;
			latest.created_ms = rl_now_ms();
			latest.next_run_id = 1;
			rc = put_manifest(lsm->os, &latest);
			manifest_free(&latest);
			if (rc == RL_OK || rc == RL_PRECONDITION)
			{
				attempt--;		/* creating the store is not a lost fencing race */
				continue;
			}
			return rc;
		}
		if (rc != RL_OK)
			return rc;
		if (strcmp(latest.db_uuid, db_uuid) != 0)
		{
			manifest_free(&latest);
			return rl_error(RL_CORRUPT, "manifest belongs to database %s, meta/FORMAT to %s",
							latest.db_uuid, db_uuid);
		}
		manifest_copy(&next, &latest);
		manifest_free(&latest);
		next.manifest_id++;
		next.writer_epoch++;
		next.created_ms = rl_now_ms();
		rc = put_manifest(lsm->os, &next);
		if (rc == RL_OK)
		{
			lsm->manifest = next;
			return RL_OK;
		}
		manifest_free(&next);
		if (rc != RL_PRECONDITION)
			return rc;
	}
	return rl_error(RL_CONTENDED, "could not take over the store: lost the fencing race %d times",
					lsm->opts.max_fence_attempts);
}

/* Write an empty WAL object at the first free id: no older writer can commit past it. */
static RlStatus
write_fence(Lsm *lsm, uint64_t *fence_id)
{
	uint64_t	f;
	RlStatus	rc = first_missing_wal(lsm->os, lsm->manifest.replay_after_wal_id + 1, &f);

	while (rc == RL_OK)
	{
		char		key[KEY_MAX];

		wal_object_key(f, key, sizeof(key));
		rc = obj_put(lsm->os, key, "", 0, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
		if (rc == RL_OK)
		{
			*fence_id = f;
			return RL_OK;
		}
		if (rc != RL_PRECONDITION)
			break;
		/* the old writer got there first, or a newer one took over */
		Manifest	latest;

		rc = load_latest_manifest(lsm, lsm->manifest.manifest_id, &latest);
		if (rc != RL_OK)
			break;
		uint64_t	epoch = latest.writer_epoch;

		manifest_free(&latest);
		if (epoch > lsm->manifest.writer_epoch)
			return rl_error(RL_FENCED, "a newer writer (epoch %" PRIu64 ") took over while this one opened", epoch);
		if (epoch < lsm->manifest.writer_epoch)
			return rl_error(RL_CORRUPT, "the latest manifest has an older epoch than ours");
		f++;
	}
	return rc;
}

static RlStatus
replay_wal(Lsm *lsm, uint64_t from, uint64_t until, bool stop_at_missing, uint64_t *max_seq)
{
	for (uint64_t k = from; k < until; k++)
	{
		RlBuf		buf;

		rlbuf_init(&buf);
		RlStatus	rc = read_wal_object(lsm, k, &buf, max_seq);

		if (rc == RL_NOT_FOUND && stop_at_missing)
		{
			lsm->next_wal = k;
			rlbuf_free(&buf);
			return RL_OK;
		}
		if (rc == RL_NOT_FOUND)
			rc = rl_error(RL_CORRUPT, "WAL object %" PRIu64 " is missing below the fence", k);
		rlbuf_free(&buf);
		if (rc != RL_OK)
			return rc;
	}
	lsm->next_wal = until;
	return RL_OK;
}

RlStatus
lsm_open_writer(ObjectStore *os, const LsmOptions *opts, Lsm **out)
{
	Lsm		   *lsm = lsm_new(os, opts, true);
	char		db_uuid[40];
	uint64_t	fence = 0,
				max_seq = 0;
	RlStatus	rc;

	*out = NULL;
	rc = read_or_create_format(lsm, true, db_uuid);
	if (rc == RL_OK)
		rc = objstore_self_test(os);
	if (rc == RL_OK)
		rc = bump_epoch(lsm, db_uuid);
	if (rc == RL_OK)
		rc = write_fence(lsm, &fence);
	if (rc == RL_OK)
		rc = replay_wal(lsm, lsm->manifest.replay_after_wal_id + 1, fence, false, &max_seq);
	if (rc != RL_OK)
	{
		lsm_close(lsm);
		return rc;
	}
	lsm->next_wal = fence + 1;
	if (lsm->manifest.last_l0_seq > max_seq)
		max_seq = lsm->manifest.last_l0_seq;
	if (lsm->manifest.next_seq_hint > max_seq + 1)
		max_seq = lsm->manifest.next_seq_hint - 1;
	lsm->next_seq = max_seq + 1;
	*out = lsm;
	return RL_OK;
}

typedef struct ManifestIds
{
	uint64_t   *ids;
	size_t		n;
} ManifestIds;

static bool
collect_manifest_cb(const ObjInfo *info, void *arg)
{
	ManifestIds *l = arg;
	uint64_t	id = object_key_id(info->key, "manifest/", ".manifest");

	if (id == 0)
		return true;
	uint64_t   *grown = realloc(l->ids, sizeof(uint64_t) * (l->n + 1));

	if (grown == NULL)
		return false;
	l->ids = grown;
	l->ids[l->n++] = id;
	return true;
}

/*
 * manifest_as_of -- the newest manifest whose SSTs hold no commit after as_of (its
 * WAL replayed up to as_of then gives the state as of that commit); *newest_sst_seq
 * is the newest commit any manifest read holds in SSTs
 */
static RlStatus
manifest_as_of(Lsm *lsm, uint64_t as_of, Manifest *out, uint64_t *newest_sst_seq)
{
	ManifestIds l = {0};
	RlStatus	rc = obj_list(lsm->os, "manifest/", NULL, collect_manifest_cb, &l);
	uint64_t	oldest = 0;

	*newest_sst_seq = 0;
	/* listed in key order, which is id order: the newest last */
	for (size_t i = l.n; rc == RL_OK && i-- > 0;)
	{
		rc = fetch_manifest(lsm, l.ids[i], out);
		if (rc == RL_NOT_FOUND) /* collected since the listing */
		{
			rc = RL_OK;
			continue;
		}
		if (rc != RL_OK)
			break;
		if (out->last_l0_seq > *newest_sst_seq)
			*newest_sst_seq = out->last_l0_seq;
		if (out->last_l0_seq <= as_of)
		{
			free(l.ids);
			return RL_OK;
		}
		oldest = out->last_l0_seq;
		manifest_free(out);
	}
	free(l.ids);
	if (rc != RL_OK)
		return rc;
	if (l.n == 0)
		return rl_error(RL_NOT_FOUND, "the store has no manifest yet");
	return rl_error(RL_NOT_FOUND, "commit %" PRIu64 " is older than the store keeps: its oldest "
					"manifest holds commits up to %" PRIu64 " (garbage collection removed the older ones)",
					as_of, oldest);
}

/* a follower at the newest state (as_of UINT64_MAX) or frozen at commit as_of */
static RlStatus
open_follower(ObjectStore *os, const LsmOptions *opts, uint64_t as_of, Lsm **out)
{
	Lsm		   *lsm = lsm_new(os, opts, false);
	char		db_uuid[40];
	uint64_t	max_seq = 0,
				newest_sst_seq = 0;
	RlStatus	rc;

	*out = NULL;
	lsm->as_of = as_of;
	rc = read_or_create_format(lsm, false, db_uuid);
	if (rc == RL_OK && as_of == UINT64_MAX)
		rc = load_latest_manifest(lsm, 0, &lsm->manifest);
	else if (rc == RL_OK)
		rc = manifest_as_of(lsm, as_of, &lsm->manifest, &newest_sst_seq);
	if (rc == RL_OK)
		rc = replay_wal(lsm, lsm->manifest.replay_after_wal_id + 1, UINT64_MAX, true, &max_seq);
	if (max_seq < lsm->manifest.last_l0_seq)
		max_seq = lsm->manifest.last_l0_seq;
	/* the WAL from the manifest on must reach the commit asked for */
	if (rc == RL_OK && as_of != UINT64_MAX && max_seq < as_of)
		rc = newest_sst_seq >= as_of ?
			rl_error(RL_NOT_FOUND, "commit %" PRIu64 " is older than the store keeps: the WAL objects "
					 "after manifest %" PRIu64 " were removed", as_of, lsm->manifest.manifest_id) :
			rl_error(RL_NOT_FOUND, "commit %" PRIu64 " does not exist: the newest commit is %" PRIu64,
					 as_of, max_seq);
	if (rc != RL_OK)
	{
		lsm_close(lsm);
		return rc;
	}
	lsm->next_seq = (max_seq < as_of ? max_seq : as_of) + 1;
	lsm->last_manifest_probe_ms = rl_now_ms();
	*out = lsm;
	return RL_OK;
}

/* the newest object under a prefix written at or before a time (not an empty fence) */
typedef struct NewestBefore
{
	const char *prefix;
	const char *suffix;
	int64_t		ms;
	uint64_t	id;
} NewestBefore;

static bool
newest_before_cb(const ObjInfo *info, void *arg)
{
	NewestBefore *nb = arg;
	uint64_t	id = object_key_id(info->key, nb->prefix, nb->suffix);

	if (id > nb->id && info->size > 0 && info->mtime_ms <= nb->ms)
		nb->id = id;
	return true;
}

RlStatus
lsm_commit_at_time(ObjectStore *os, int64_t ms, uint64_t *seq)
{
	Lsm		   *lsm = lsm_new(os, NULL, false);
	NewestBefore wal = {"wal/", ".sst", ms, 0};
	NewestBefore man = {"manifest/", ".manifest", ms, 0};
	bool		found = false;
	RlStatus	rc = obj_list(os, "wal/", NULL, newest_before_cb, &wal);

	*seq = 0;
	if (rc == RL_OK)
		rc = obj_list(os, "manifest/", NULL, newest_before_cb, &man);
	if (rc == RL_OK && wal.id > 0)
	{
		char		key[KEY_MAX];
		RlBuf		bytes;
		SstReader  *r;

		wal_object_key(wal.id, key, sizeof(key));
		rlbuf_init(&bytes);
		rc = obj_get(os, key, &bytes);
		if (rc == RL_OK && (rc = sst_reader_open(bytes.data, bytes.len, &r)) == RL_OK)
		{
			*seq = sst_reader_props(r)->max_seq;
			found = true;
			sst_reader_free(r);
		}
		rlbuf_free(&bytes);
		if (rc == RL_NOT_FOUND) /* collected since the listing */
			rc = RL_OK;
	}
	if (rc == RL_OK && man.id > 0)
	{
		Manifest	m;

		rc = fetch_manifest(lsm, man.id, &m);
		if (rc == RL_OK)
		{
			if (!found || m.last_l0_seq > *seq)
				*seq = m.last_l0_seq;
			found = true;
			manifest_free(&m);
		}
		if (rc == RL_NOT_FOUND)
			rc = RL_OK;
	}
	lsm_close(lsm);
	if (rc == RL_OK && !found)
		rc = rl_error(RL_NOT_FOUND, "the store keeps nothing written at or before that time "
					  "(garbage collection removes what is older than its grace periods)");
	return rc;
}

RlStatus
lsm_open_follower(ObjectStore *os, const LsmOptions *opts, Lsm **out)
{
	return open_follower(os, opts, UINT64_MAX, out);
}

RlStatus
lsm_open_follower_as_of(ObjectStore *os, const LsmOptions *opts, uint64_t as_of, Lsm **out)
{
	return open_follower(os, opts, as_of, out);
}
void
lsm_close(Lsm *lsm)
{
	if (lsm == NULL)
		return;
	memtable_free(lsm->mem);
	manifest_free(&lsm->manifest);
	cache_drop_all(lsm);
	free(lsm);
}

/* ---------------------------------------------------------------- commit */

/* The handle is done (st, with rl_last_error saying why): every later write says so. */
static RlStatus
done_with(Lsm *lsm, RlStatus st)
{
	lsm->broken = st;
	snprintf(lsm->broken_why, sizeof(lsm->broken_why), "%s", rl_last_error());
	return st;
}

RlStatus
writable(Lsm *lsm)
{
	if (!lsm->writer)
		return rl_error(RL_INVALID, "a follower cannot write");
	if (lsm->broken == RL_FENCED)
		return rl_error(RL_FENCED, "this writer was fenced: %s", lsm->broken_why);
	if (lsm->broken != RL_OK)
		return rl_error(lsm->broken, "this writer handle must be reopened: %s", lsm->broken_why);
	return RL_OK;
}

RlStatus
lsm_health(Lsm *lsm)
{
	return writable(lsm);
}

/*
 * A create of ours met an object already there (RL_PRECONDITION). The object stores
 * answer that only once they know the object is not ours (S3 checks the put id, even
 * after a lost response), so somebody else wrote it; but this writer gives the store
 * up for good only when a newer writer is proven, by a manifest carrying a newer
 * epoch. Anything less (the manifest unreadable, our epoch still the newest) is an
 * unknown outcome: the writer reopens, and reopening settles it either way.
 */
static RlStatus
lost_create(Lsm *lsm, const char *key)
{
	Manifest	latest;
	uint64_t	ours = lsm->manifest.writer_epoch;
	RlStatus	rc = load_latest_manifest(lsm, lsm->manifest.manifest_id, &latest);

	if (rc == RL_NOT_FOUND)		/* ours was collected by a newer writer's GC */
		rc = load_latest_manifest(lsm, 0, &latest);
	if (rc != RL_OK)
		return done_with(lsm, rl_error(RL_UNKNOWN_OUTCOME,
									   "%s was written by another writer, which could not be told: %s",
									   key, rl_last_error()));
	uint64_t	epoch = latest.writer_epoch;

	manifest_free(&latest);
	if (epoch > ours)
		return done_with(lsm, rl_error(RL_FENCED, "%s exists: writer epoch %" PRIu64 " took over from %" PRIu64,
									   key, epoch, ours));
	return done_with(lsm, rl_error(RL_UNKNOWN_OUTCOME,
								   "%s exists, but no writer newer than epoch %" PRIu64 " is known",
								   key, ours));
}

/* Commit a new manifest built from the current one; fenced if a newer writer wrote one. */
RlStatus
commit_manifest(Lsm *lsm, Manifest *next)
{
	next->manifest_id = lsm->manifest.manifest_id + 1;
	next->writer_epoch = lsm->manifest.writer_epoch;
	next->created_ms = rl_now_ms();
	next->next_seq_hint = lsm->next_seq;
	RlStatus	rc = put_manifest(lsm->os, next);

	if (rc == RL_OK)
	{
		manifest_free(&lsm->manifest);
		lsm->manifest = *next;
		cache_prune(lsm);
		return RL_OK;
	}
	manifest_free(next);
	if (rc == RL_PRECONDITION)
	{
		char		key[KEY_MAX];

		manifest_object_key(lsm->manifest.manifest_id + 1, key, sizeof(key));
		return lost_create(lsm, key);
	}
	return done_with(lsm, rl_error(RL_UNKNOWN_OUTCOME, "manifest write failed: %s", rl_last_error()));
}

RlStatus
lsm_commit(Lsm *lsm, LsmBatch *const *batches, int n, uint64_t *first_seq)
{
	RlStatus	rc = writable(lsm);

	if (rc != RL_OK)
		return rc;
	if (n <= 0)
		return rl_error(RL_INVALID, "nothing to commit");
	SstWriter  *w = sst_writer_new(SST_TYPE_WAL, SST_DEFAULT_BLOCK_SIZE);
	RlBuf		wal;
	char		key[KEY_MAX];

	for (int i = 0; i < n; i++)
		batch_foreach(batches[i], lsm->next_seq + (uint64_t) i, add_to_wal, w);
	rlbuf_init(&wal);
	sst_writer_finish(w, &wal, NULL);
	sst_writer_free(w);
	wal_object_key(lsm->next_wal, key, sizeof(key));
	uint64_t	put_start = stats_now_us();

	rc = obj_put(lsm->os, key, wal.data, wal.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
	if (storage_stats)
		stats_observe(&storage_stats->wal_put_us, latency_bounds_us, LATENCY_BOUNDS,
					  stats_now_us() - put_start);
	rlbuf_free(&wal);
	if (rc == RL_PRECONDITION)
		return lost_create(lsm, key);
	if (rc != RL_OK)
		return done_with(lsm, rl_error(RL_UNKNOWN_OUTCOME,
									   "WAL write %s failed, the commit may or may not be durable: %s",
									   key, rl_last_error()));
	/* durable: now visible */
	for (int i = 0; i < n; i++)
		batch_foreach(batches[i], lsm->next_seq + (uint64_t) i, add_to_memtable, lsm->mem);
	if (first_seq)
		*first_seq = lsm->next_seq;
	lsm->next_seq += (uint64_t) n;
	lsm->next_wal++;
	lsm->wal_since_flush++;
	lsm->counters.commits += (uint64_t) n;
	lsm->counters.wal_puts++;
	if (lsm->opts.auto_maintenance)
		maybe_maintain(lsm);	/* failures here fence or poison the handle; the commit stands */
	return RL_OK;
}

void
lsm_prepare_commit(Lsm *lsm)
{
	char		key[64];

	if (writable(lsm) != RL_OK)
		return;
	wal_object_key(lsm->next_wal, key, sizeof(key));
	obj_prepare(lsm->os, key);
}

RlStatus
lsm_check_fence(Lsm *lsm)
{
	Manifest	latest;
	RlStatus	rc = writable(lsm);

	if (rc != RL_OK)
		return rc;
	rc = load_latest_manifest(lsm, lsm->manifest.manifest_id, &latest);
	if (rc != RL_OK)
		return rc;
	if (latest.writer_epoch != lsm->manifest.writer_epoch)
		rc = done_with(lsm, rl_error(RL_FENCED, "writer epoch %" PRIu64 " took over from %" PRIu64,
									 latest.writer_epoch, lsm->manifest.writer_epoch));
	manifest_free(&latest);
	return rc;
}

/* ---------------------------------------------------------------- follower */

/* Move to the newest manifest; memtable rows now in SSTs are dropped. */
RlStatus
follower_reload_manifest(Lsm *lsm)
{
	Manifest	latest;
	RlStatus	rc = load_latest_manifest(lsm, lsm->manifest.manifest_id, &latest);

	if (rc == RL_NOT_FOUND)		/* ours was collected: list again */
		rc = load_latest_manifest(lsm, 0, &latest);
	if (rc != RL_OK)
		return rc;
	lsm->last_manifest_probe_ms = rl_now_ms();
	if (latest.manifest_id == lsm->manifest.manifest_id)
	{
		manifest_free(&latest);
		return RL_OK;
	}
	manifest_free(&lsm->manifest);
	lsm->manifest = latest;
	cache_prune(lsm);
	Memtable   *kept = memtable_new();

	for (const MemtableNode *n = memtable_first(lsm->mem); n; n = memtable_next(n))
	{
		SstEntry	e;

		memtable_node_entry(n, &e);
		if (e.seq > lsm->manifest.last_l0_seq)
			memtable_insert(kept, e.key, e.key_len, e.seq, e.kind, e.value, e.value_len);
	}
	memtable_free(lsm->mem);
	lsm->mem = kept;
	if (lsm->next_wal <= lsm->manifest.replay_after_wal_id)
		lsm->next_wal = lsm->manifest.replay_after_wal_id + 1;
	return RL_OK;
}

RlStatus
lsm_follower_refresh(Lsm *lsm, int *applied)
{
	uint64_t	max_seq = 0;
	RlStatus	rc = RL_OK;

	*applied = 0;
	if (lsm->writer)
		return rl_error(RL_INVALID, "lsm_follower_refresh is for followers");
	if (lsm->as_of != UINT64_MAX)
		return rl_error(RL_INVALID, "a follower frozen at commit %" PRIu64 " does not move on", lsm->as_of);
	if (rl_now_ms() - lsm->last_manifest_probe_ms >= lsm->opts.manifest_probe_ms)
		rc = follower_reload_manifest(lsm);
	for (bool reloaded = false; rc == RL_OK;)
	{
		RlBuf		buf;

		rlbuf_init(&buf);
		rc = read_wal_object(lsm, lsm->next_wal, &buf, &max_seq);
		if (rc == RL_OK)
		{
			lsm->next_wal++;
			(*applied) += buf.len > 0;
		}
		rlbuf_free(&buf);
		if (rc == RL_NOT_FOUND)
		{
			/* nothing new, unless GC took the WAL object because an L0 covers it */
			rc = RL_OK;
			if (reloaded)
				break;
			uint64_t	before = lsm->next_wal;

			reloaded = true;
			if (lsm->next_wal <= lsm->manifest.replay_after_wal_id ||
				rl_now_ms() - lsm->last_manifest_probe_ms >= lsm->opts.manifest_probe_ms)
				rc = follower_reload_manifest(lsm);
			if (rc == RL_OK && lsm->next_wal == before)
				break;
		}
	}
	if (max_seq >= lsm->next_seq)
		lsm->next_seq = max_seq + 1;
	if (rc == RL_OK && *applied > 0)
	{
		/* when the newest one was written: the commit time a standby reports */
		char		key[KEY_MAX];
		ObjInfo		info;

		wal_object_key(lsm->next_wal - 1, key, sizeof(key));
		if (obj_head(lsm->os, key, &info) == RL_OK)
			lsm->counters.last_commit_ms = info.mtime_ms;
	}
	return rc;
}

/* ---------------------------------------------------------------- stats */

void
lsm_stats(Lsm *lsm, LsmStats *stats)
{
	*stats = lsm->counters;
	stats->writer = lsm->writer;
	stats->writer_epoch = lsm->manifest.writer_epoch;
	stats->manifest_id = lsm->manifest.manifest_id;
	stats->replay_after_wal_id = lsm->manifest.replay_after_wal_id;
	stats->next_wal_id = lsm->next_wal;
	stats->last_seq = lsm->next_seq - 1;
	stats->memtable_entries = memtable_count(lsm->mem);
	stats->memtable_bytes = memtable_bytes(lsm->mem);
	stats->l0_ssts = lsm->manifest.n_l0;
	stats->sorted_runs = lsm->manifest.n_runs;
	stats->sst_bytes = 0;
	for (int i = 0; i < lsm->manifest.n_l0; i++)
		stats->sst_bytes += lsm->manifest.l0[i].size;
	for (int r = 0; r < lsm->manifest.n_runs; r++)
		stats->sst_bytes += run_bytes(&lsm->manifest.runs[r]);
	stats->sst_cache_bytes = lsm->cache_bytes;
	snprintf(stats->db_uuid, sizeof(stats->db_uuid), "%s", lsm->manifest.db_uuid);
}

const Manifest *
lsm_manifest(Lsm *lsm)
{
	return &lsm->manifest;
}
