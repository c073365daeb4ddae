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
 * Everything runs on the caller's thread: the writer process is single-threaded, so
 * the memtable is frozen between WAL writes by construction (the SlateDB #1857 bug
 * cannot happen), and there is never more than one WAL write in flight.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "storage/lsm.h"
#include "storage/manifest.h"
#include "storage/memtable.h"
#include "storage/sst.h"
#include "common/ulid.h"

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

void
lsm_options_default(LsmOptions *opts)
{
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

typedef RlStatus (*ReadCheck) (const RlBuf *bytes, void *arg);

static RlStatus
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

static RlStatus
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

static RlStatus
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

static bool
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
static RlStatus
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

static void
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
static RlStatus
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

		if (e->seq > lsm->manifest.last_l0_seq)
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

RlStatus
lsm_open_follower(ObjectStore *os, const LsmOptions *opts, Lsm **out)
{
	Lsm		   *lsm = lsm_new(os, opts, false);
	char		db_uuid[40];
	uint64_t	max_seq = 0;
	RlStatus	rc;

	*out = NULL;
	rc = read_or_create_format(lsm, false, db_uuid);
	if (rc == RL_OK)
		rc = load_latest_manifest(lsm, 0, &lsm->manifest);
	if (rc == RL_OK)
		rc = replay_wal(lsm, lsm->manifest.replay_after_wal_id + 1, UINT64_MAX, true, &max_seq);
	if (rc != RL_OK)
	{
		lsm_close(lsm);
		return rc;
	}
	lsm->next_seq = (max_seq > lsm->manifest.last_l0_seq ? max_seq : lsm->manifest.last_l0_seq) + 1;
	lsm->last_manifest_probe_ms = rl_now_ms();
	*out = lsm;
	return RL_OK;
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

static RlStatus
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
static RlStatus
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

static RlStatus maybe_maintain(Lsm *lsm);

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
	rc = obj_put(lsm->os, key, wal.data, wal.len, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
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

/* ---------------------------------------------------------------- merging reads */

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

static void
input_close_sst(Merge *m, MergeInput *in)
{
	if (in->it)
	{
		sst_iter_free(in->it);
		in->it = NULL;
		sst_unpin(m->lsm, in->open);
		in->open = NULL;
	}
}

static bool
sst_overlaps(const SstMeta *s, const void *start, size_t start_len, const void *end, size_t end_len)
{
	if (end && user_key_compare(s->first_key.data, s->first_key.len, end, end_len) >= 0)
		return false;
	return user_key_compare(s->last_key.data, s->last_key.len, start, start_len) >= 0;
}

/* Position an SST input on its first row >= start, opening SSTs in turn as needed. */
static RlStatus
input_open_next(Merge *m, MergeInput *in, const void *start, size_t start_len)
{
	in->valid = false;
	while (in->next_sst < in->n_ssts)
	{
		const SstMeta *meta = &in->ssts[in->next_sst++];

		if (!sst_overlaps(meta, start, start_len, m->end, m->end_len))
			continue;
		RlStatus	rc = sst_pin(m->lsm, meta, &in->open);

		if (rc != RL_OK)
			return rc;
		in->it = sst_iter_new(in->open->reader);
		sst_iter_seek(in->it, start, start_len);
		rc = sst_iter_status(in->it);
		in->valid = rc == RL_OK && sst_iter_valid(in->it);
		if (in->valid)
		{
			in->cur = *sst_iter_entry(in->it);
			return RL_OK;
		}
		input_close_sst(m, in);
		if (rc != RL_OK)
			return rc;
	}
	return RL_OK;
}

static RlStatus
input_advance(Merge *m, MergeInput *in)
{
	if (in->it == NULL)
	{
		in->node = memtable_next(in->node);
		in->valid = in->node != NULL;
		if (in->valid)
			memtable_node_entry(in->node, &in->cur);
		return RL_OK;
	}
	sst_iter_next(in->it);
	RlStatus	rc = sst_iter_status(in->it);

	if (rc != RL_OK)
		return rc;
	if (sst_iter_valid(in->it))
	{
		in->cur = *sst_iter_entry(in->it);
		return RL_OK;
	}
	input_close_sst(m, in);
	return input_open_next(m, in, "", 0);
}

static void
merge_free(Merge *m)
{
	for (int i = 0; i < m->n; i++)
		input_close_sst(m, &m->in[i]);
	free(m->in);
	rlbuf_free(&m->key);
}

/* Inputs for [start, end): memtable (if asked), then L0 SSTs, then runs. */
static RlStatus
merge_open(Lsm *lsm, Merge *m, bool with_memtable, int n_l0, int n_runs,
		   const void *start, size_t start_len, const void *end, size_t end_len)
{
	memset(m, 0, sizeof(*m));
	m->lsm = lsm;
	m->end = end;
	m->end_len = end_len;
	m->in = calloc((size_t) (1 + n_l0 + n_runs), sizeof(MergeInput));
	rlbuf_init(&m->key);
	if (with_memtable)
	{
		MergeInput *in = &m->in[m->n++];

		in->node = memtable_seek(lsm->mem, start, start_len);
		in->valid = in->node != NULL;
		if (in->valid)
			memtable_node_entry(in->node, &in->cur);
	}
	RlStatus	rc = RL_OK;

	for (int i = 0; i < n_l0 + n_runs && rc == RL_OK; i++)
	{
		MergeInput *in = &m->in[m->n++];

		if (i < n_l0)
		{
			in->ssts = &lsm->manifest.l0[i];
			in->n_ssts = 1;
		}
		else
		{
			in->ssts = lsm->manifest.runs[i - n_l0].ssts;
			in->n_ssts = lsm->manifest.runs[i - n_l0].n_ssts;
		}
		rc = input_open_next(m, in, start, start_len);
	}
	return rc;
}

/*
 * The newest version of the next user key, or NULL at the end (check m->status).
 * Older versions of the same key in every input are skipped.
 */
static const SstEntry *
merge_next(Merge *m, SstEntry *out)
{
	int			best = -1;

	for (int i = 0; i < m->n; i++)
		if (m->in[i].valid &&
			(best < 0 || internal_key_compare(m->in[i].cur.key, m->in[i].cur.key_len, m->in[i].cur.seq,
											  m->in[best].cur.key, m->in[best].cur.key_len,
											  m->in[best].cur.seq) < 0))
			best = i;
	if (best < 0)
		return NULL;
	*out = m->in[best].cur;
	rlbuf_reset(&m->key);
	rlbuf_append(&m->key, out->key, out->key_len);
	/* the value must survive the advance below: keep it after the key */
	size_t		vpos = m->key.len;

	rlbuf_append(&m->key, out->value, out->value_len);
	out->key = m->key.data;
	out->value = m->key.data + vpos;
	for (int i = 0; i < m->n; i++)
		while (m->in[i].valid &&
			   user_key_compare(m->in[i].cur.key, m->in[i].cur.key_len, out->key, out->key_len) == 0)
		{
			RlStatus	rc = input_advance(m, &m->in[i]);

			if (rc != RL_OK)
			{
				m->status = rc;
				return NULL;
			}
		}
	return out;
}

static RlStatus
scan_once(Lsm *lsm, const void *start, size_t start_len, const void *end, size_t end_len,
		  LsmScanFn fn, void *arg)
{
	Merge		m;
	RlStatus	rc = merge_open(lsm, &m, true, lsm->manifest.n_l0, lsm->manifest.n_runs,
								start, start_len, end, end_len);
	SstEntry	e;

	while (rc == RL_OK && merge_next(&m, &e))
	{
		if (end && user_key_compare(e.key, e.key_len, end, end_len) >= 0)
			break;
		if (e.kind == SST_KIND_PUT && !fn(e.key, e.key_len, e.value, e.value_len, arg))
			break;
	}
	if (rc == RL_OK)
		rc = m.status;
	merge_free(&m);
	return rc;
}

static RlStatus follower_reload_manifest(Lsm *lsm);

RlStatus
lsm_scan(Lsm *lsm, const void *start, size_t start_len, const void *end, size_t end_len,
		 LsmScanFn fn, void *arg)
{
	lsm->sst_missing = false;
	RlStatus	rc = scan_once(lsm, start, start_len, end, end_len, fn, arg);

	/* a follower may be reading a manifest whose SSTs GC collected: move on and retry */
	if (rc != RL_OK && lsm->sst_missing && !lsm->writer && follower_reload_manifest(lsm) == RL_OK)
		rc = scan_once(lsm, start, start_len, end, end_len, fn, arg);
	return rc;
}

RlStatus
lsm_scan_prefix(Lsm *lsm, const void *prefix, size_t prefix_len, LsmScanFn fn, void *arg)
{
	uint8_t		end[KEY_MAX];
	size_t		end_len = prefix_len;

	if (prefix_len > KEY_MAX)
		return rl_error(RL_INVALID, "prefix longer than %d bytes", KEY_MAX);
	memcpy(end, prefix, prefix_len);
	/* the smallest key greater than every key with this prefix */
	while (end_len > 0 && end[end_len - 1] == 0xff)
		end_len--;
	if (end_len == 0)
		return lsm_scan(lsm, prefix, prefix_len, NULL, 0, fn, arg);
	end[end_len - 1]++;
	return lsm_scan(lsm, prefix, prefix_len, end, end_len, fn, arg);
}

/* Look key up in one SST; on a hit copy the value out (a DEL sets *deleted). */
static RlStatus
get_in_sst(Lsm *lsm, const SstMeta *meta, const void *key, size_t key_len,
		   RlBuf *value, bool *found, bool *deleted)
{
	CachedSst  *c;
	SstEntry	e;

	if (user_key_compare(key, key_len, meta->first_key.data, meta->first_key.len) < 0 ||
		user_key_compare(key, key_len, meta->last_key.data, meta->last_key.len) > 0)
		return RL_OK;
	RlStatus	rc = sst_pin(lsm, meta, &c);

	if (rc != RL_OK)
		return rc;
	if (sst_reader_may_contain(c->reader, key, key_len))
	{
		rc = sst_get(c->reader, key, key_len, UINT64_MAX, &e);
		if (rc == RL_OK)
		{
			*found = true;
			*deleted = e.kind == SST_KIND_DEL;
			rlbuf_reset(value);
			rlbuf_append(value, e.value, e.value_len);
		}
		else if (rc == RL_NOT_FOUND)
			rc = RL_OK;
	}
	sst_unpin(lsm, c);
	return rc;
}

static RlStatus
get_once(Lsm *lsm, const void *key, size_t key_len, RlBuf *value)
{
	SstEntry	e;
	bool		found = memtable_get(lsm->mem, key, key_len, UINT64_MAX, &e);
	bool		deleted = found && e.kind == SST_KIND_DEL;
	RlStatus	rc = RL_OK;
	const Manifest *m = &lsm->manifest;

	if (found)
	{
		rlbuf_reset(value);
		rlbuf_append(value, e.value, e.value_len);
	}
	for (int i = 0; !found && rc == RL_OK && i < m->n_l0; i++)
		rc = get_in_sst(lsm, &m->l0[i], key, key_len, value, &found, &deleted);
	for (int r = 0; !found && rc == RL_OK && r < m->n_runs; r++)
		for (int i = 0; !found && rc == RL_OK && i < m->runs[r].n_ssts; i++)
			rc = get_in_sst(lsm, &m->runs[r].ssts[i], key, key_len, value, &found, &deleted);
	if (rc != RL_OK)
		return rc;
	if (!found || deleted)
	{
		rlbuf_reset(value);
		return RL_NOT_FOUND;
	}
	return RL_OK;
}

RlStatus
lsm_get(Lsm *lsm, const void *key, size_t key_len, RlBuf *value)
{
	lsm->sst_missing = false;
	RlStatus	rc = get_once(lsm, key, key_len, value);

	if (rc != RL_OK && rc != RL_NOT_FOUND && lsm->sst_missing && !lsm->writer &&
		follower_reload_manifest(lsm) == RL_OK)
		rc = get_once(lsm, key, key_len, value);
	return rc;
}

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
	}
	return rc;
}

static uint64_t
run_bytes(const SortedRun *run)
{
	uint64_t	total = 0;

	for (int i = 0; i < run->n_ssts; i++)
		total += run->ssts[i].size;
	return total;
}

/*
 * Size-tiered: merge every L0 SST with the newest runs while each next run is no
 * more than compaction_size_ratio times what is already being merged. When the
 * merge reaches the oldest run, tombstones have nothing left to mask and are dropped.
 */
RlStatus
lsm_compact(Lsm *lsm)
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
		   (double) run_bytes(&cur->runs[n_runs]) <= lsm->opts.compaction_size_ratio * (double) merged)
		merged += run_bytes(&cur->runs[n_runs++]);
	if (cur->n_l0 + n_runs < 2)
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
		lsm->counters.compactions++;
	return rc;
}

static RlStatus
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
				lsm->counters.gc_deleted += rc == RL_OK;
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
			lsm->counters.gc_deleted += rc == RL_OK;
		}
	}
	/* 4. WAL objects every retained manifest covers, older than wal_retention; never fences */
	if (rc == RL_OK)
		rc = obj_list(lsm->os, "wal/", NULL, collect_cb, &wals);
	for (int i = 0; rc == RL_OK && i < wals.n; i++)
	{
		uint64_t	id = object_key_id(wals.keys[i], "wal/", ".sst");

		if (id == 0 || id > min_replay)
			break;
		if (wals.items[i].size > 0 && wals.items[i].mtime_ms < now_ms - lsm->opts.wal_retention_ms)
		{
			rc = obj_delete(lsm->os, wals.keys[i]);
			lsm->counters.gc_deleted += rc == RL_OK;
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

/* ---------------------------------------------------------------- follower */

/* Move to the newest manifest; memtable rows now in SSTs are dropped. */
static RlStatus
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
