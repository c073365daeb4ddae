/*
 * sst.c: the SST codec (writer, reader, iterator, point lookup) for both WAL and
 * DATA SSTs; the layout is described in sst.h and doc/storage.md ("SST").
 *
 * Objects come from object storage and may be truncated or damaged, so the reader
 * trusts nothing: every region is bounds-checked before use and covered by a CRC
 * checked before its bytes are interpreted (trailer, props, index and filter at
 * open, each data block when an iterator loads it), and the regions must tile the
 * object exactly, so no byte escapes a CRC. Damage is RL_CORRUPT, never a crash.
 *
 * Choices the header leaves open (all integers little-endian):
 *   index block: varint n_blocks, then per block varint first_key_len | first_key |
 *                varint first_seq (WAL only) | u64 offset | u32 length (without CRC)
 *   props block: u8 type | varint n_entries | varint min_seq | varint max_seq |
 *                varint len | first_key | varint len | last_key | u8 codec (0 = none) |
 *                u64 index_off | u32 index_len | u64 filter_off | u32 filter_len
 *                (filter_len 0: no filter); each region is followed by its CRC
 *   filter:      see bloom.c; keyed by distinct user keys, seed SST_BLOOM_SEED.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc32c.h"
#include "storage/bloom.h"
#include "storage/sst.h"

#define SST_RESTART_INTERVAL 16
#define SST_BLOOM_BITS_PER_KEY 10
#define SST_BLOOM_SEED 0x656b614c6b636f52ULL	/* "RockLake" */
#define SST_CODEC_NONE 0
#define SST_CRC_LEN 4
#define SST_MIN_INDEX_ENTRY 13	/* varint key length, u64 offset, u32 length */

struct SstWriter
{
	SstType		type;
	size_t		block_size;
	SstProps	props;			/* running summary; last_key is the previous row's */
	uint64_t	last_seq;
	RlBuf		out;			/* finished blocks, each followed by its CRC */
	RlBuf		block;			/* rows of the block being built */
	RlBuf		restarts;		/* its restart offsets, u32 each */
	uint64_t	block_rows;
	RlBuf		index;			/* index entries (the open block's lacks its length) */
	uint64_t	n_blocks;
	BloomBuilder *bloom;		/* DATA only */
};

/* A data block's place in the object, from the index. */
typedef struct SstBlockHandle
{
	const uint8_t *first_key;
	size_t		first_key_len;
	uint64_t	first_seq;		/* WAL only */
	size_t		off;
	size_t		len;			/* without the CRC */
} SstBlockHandle;

struct SstReader
{
	const uint8_t *data;
	SstProps	props;
	const uint8_t *filter;		/* NULL when the SST has none */
	size_t		filter_len;
	SstBlockHandle *blocks;
	size_t		n_blocks;
	SstIter    *get_iter;		/* owns the memory sst_get returns */
};

struct SstIter
{
	SstReader  *reader;
	size_t		block_idx;
	const uint8_t *rows;		/* loaded block: rows, then the restart array */
	size_t		rows_len;
	const uint8_t *restarts;
	uint32_t	n_restarts;
	size_t		pos;			/* offset of the next row in rows */
	RlBuf		key;			/* current key, rebuilt from the prefix-compressed rows */
	SstEntry	entry;
	bool		valid;
	RlStatus	status;
};

/* One row as stored; suffix and value point into the block. */
typedef struct SstRow
{
	uint64_t	shared;
	const uint8_t *suffix;
	size_t		suffix_len;
	const uint8_t *value;
	size_t		value_len;
	uint64_t	seq;
	SstKind		kind;
} SstRow;

static int
compare_keys(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	size_t		n = a_len < b_len ? a_len : b_len;
	int			c = n ? memcmp(a, b, n) : 0;

	return c ? c : (a_len > b_len) - (a_len < b_len);
}

static void
append_crc(RlBuf *buf, size_t start)
{
	rlbuf_put_u32le(buf, crc32c(buf->data + start, buf->len - start));
}

void
sst_props_free(SstProps *props)
{
	rlbuf_free(&props->first_key);
	rlbuf_free(&props->last_key);
}

/* ---------------------------------------------------------------- writer */

SstWriter *
sst_writer_new(SstType type, size_t block_size)
{
	SstWriter  *w = calloc(1, sizeof(*w));	/* zeroed RlBufs are empty ones */

	if (w == NULL)
		abort();
	w->type = type;
	w->props.type = type;
	w->block_size = block_size ? block_size : SST_DEFAULT_BLOCK_SIZE;
	if (type == SST_TYPE_DATA)
		w->bloom = bloom_builder_new(SST_BLOOM_SEED);
	return w;
}

/* Close the open block: restart array, its length into the index entry, CRC. */
static void
writer_flush_block(SstWriter *w)
{
	size_t		start = w->out.len;

	rlbuf_append(&w->out, w->block.data, w->block.len);
	rlbuf_append(&w->out, w->restarts.data, w->restarts.len);
	rlbuf_put_u32le(&w->out, (uint32_t) (w->restarts.len / 4));
	assert(w->out.len - start <= UINT32_MAX);
	rlbuf_put_u32le(&w->index, (uint32_t) (w->out.len - start));
	append_crc(&w->out, start);
	rlbuf_reset(&w->block);
	rlbuf_reset(&w->restarts);
	w->block_rows = 0;
}

void
sst_writer_add(SstWriter *w, const void *key, size_t key_len, uint64_t seq,
			   SstKind kind, const void *value, size_t value_len)
{
	SstProps   *props = &w->props;
	const uint8_t *k = key;
	int			cmp = props->n_entries ?
		compare_keys(k, key_len, props->last_key.data, props->last_key.len) : 1;
	size_t		shared = 0;

	assert(w->type == SST_TYPE_WAL ? props->n_entries == 0 || seq >= w->last_seq :
		   cmp > 0 || (cmp == 0 && seq < w->last_seq));
	if (w->block_rows == 0)
	{
		rlbuf_put_varint(&w->index, key_len);
		rlbuf_append(&w->index, key, key_len);
		if (w->type == SST_TYPE_WAL)
			rlbuf_put_varint(&w->index, seq);
		rlbuf_put_u64le(&w->index, w->out.len);
		w->n_blocks++;
	}
	if (w->block_rows % SST_RESTART_INTERVAL == 0)
		rlbuf_put_u32le(&w->restarts, (uint32_t) w->block.len);
	else
		while (shared < key_len && shared < props->last_key.len &&
			   k[shared] == props->last_key.data[shared])
			shared++;
	rlbuf_put_varint(&w->block, shared);
	rlbuf_put_varint(&w->block, key_len - shared);
	rlbuf_put_varint(&w->block, value_len);
	rlbuf_put_u8(&w->block, (uint8_t) kind);
	rlbuf_put_varint(&w->block, seq);
	rlbuf_append(&w->block, k + shared, key_len - shared);
	rlbuf_append(&w->block, value, value_len);
	w->block_rows++;

	if (w->bloom && cmp != 0)
		bloom_builder_add(w->bloom, key, key_len);
	if (props->n_entries == 0)
		rlbuf_append(&props->first_key, key, key_len);
	props->min_seq = props->n_entries == 0 || seq < props->min_seq ? seq : props->min_seq;
	props->max_seq = seq > props->max_seq ? seq : props->max_seq;
	props->n_entries++;
	rlbuf_reset(&props->last_key);
	rlbuf_append(&props->last_key, key, key_len);
	w->last_seq = seq;

	if (w->block.len + w->restarts.len + 4 >= w->block_size)
		writer_flush_block(w);
}

uint64_t
sst_writer_count(const SstWriter *w)
{
	return w->props.n_entries;
}

size_t
sst_writer_size(const SstWriter *w)
{
	return w->out.len + w->block.len + w->restarts.len + w->index.len + SST_TRAILER_LEN;
}

void
sst_writer_finish(SstWriter *w, RlBuf *out, SstProps *props)
{
	RlBuf	   *buf = &w->out;
	const SstProps *summary = &w->props;
	size_t		filter_off = 0;
	size_t		filter_len = 0;

	if (w->block_rows > 0)
		writer_flush_block(w);
	if (w->bloom && bloom_builder_count(w->bloom) >= SST_BLOOM_MIN_KEYS)
	{
		filter_off = buf->len;
		bloom_builder_finish(w->bloom, SST_BLOOM_BITS_PER_KEY, buf);
		filter_len = buf->len - filter_off;
		append_crc(buf, filter_off);
	}

	size_t		index_off = buf->len;

	rlbuf_put_varint(buf, w->n_blocks);
	rlbuf_append(buf, w->index.data, w->index.len);

	size_t		index_len = buf->len - index_off;

	append_crc(buf, index_off);

	size_t		props_off = buf->len;

	rlbuf_put_u8(buf, (uint8_t) summary->type);
	rlbuf_put_varint(buf, summary->n_entries);
	rlbuf_put_varint(buf, summary->min_seq);
	rlbuf_put_varint(buf, summary->max_seq);
	rlbuf_put_varint(buf, summary->first_key.len);
	rlbuf_append(buf, summary->first_key.data, summary->first_key.len);
	rlbuf_put_varint(buf, summary->last_key.len);
	rlbuf_append(buf, summary->last_key.data, summary->last_key.len);
	rlbuf_put_u8(buf, SST_CODEC_NONE);
	rlbuf_put_u64le(buf, index_off);
	rlbuf_put_u32le(buf, (uint32_t) index_len);
	rlbuf_put_u64le(buf, filter_off);
	rlbuf_put_u32le(buf, (uint32_t) filter_len);

	size_t		props_len = buf->len - props_off;

	append_crc(buf, props_off);

	size_t		trailer_off = buf->len;

	rlbuf_put_u64le(buf, props_off);
	rlbuf_put_u32le(buf, (uint32_t) props_len);
	rlbuf_put_u16le(buf, SST_FORMAT);
	rlbuf_put_u16le(buf, 0);	/* flags */
	rlbuf_put_u32le(buf, SST_MAGIC);
	append_crc(buf, trailer_off);

	if (props)
	{
		*props = *summary;
		rlbuf_init(&props->first_key);
		rlbuf_init(&props->last_key);
		rlbuf_append(&props->first_key, summary->first_key.data, summary->first_key.len);
		rlbuf_append(&props->last_key, summary->last_key.data, summary->last_key.len);
	}
	rlbuf_free(out);
	*out = *buf;
	rlbuf_init(buf);
}

void
sst_writer_free(SstWriter *w)
{
	if (w == NULL)
		return;
	sst_props_free(&w->props);
	rlbuf_free(&w->out);
	rlbuf_free(&w->block);
	rlbuf_free(&w->restarts);
	rlbuf_free(&w->index);
	bloom_builder_free(w->bloom);
	free(w);
}

/* ---------------------------------------------------------------- reader */

/* Does the region [off, off + len) plus its CRC fit below end, and match the CRC? */
static bool
region_ok(const uint8_t *data, uint64_t end, uint64_t off, uint64_t len)
{
	return off <= end && len + SST_CRC_LEN <= end - off &&
		crc32c(data + off, len) == rl_load_u32le(data + off + len);
}

static void
read_key(RlReader *rd, RlBuf *key)
{
	uint64_t	len = rlreader_varint(rd);
	const uint8_t *bytes = rlreader_bytes(rd, len);

	if (bytes)
		rlbuf_append(key, bytes, len);
}

/* Parse the index (CRC already checked); blocks must tile [0, blocks_end). */
static RlStatus
reader_parse_index(SstReader *r, uint64_t index_off, uint64_t index_len, uint64_t blocks_end)
{
	RlReader	rd;
	uint64_t	next_off = 0;

	rlreader_init(&rd, r->data + index_off, index_len);
	r->n_blocks = rlreader_varint(&rd);
	if (rd.failed || r->n_blocks > index_len / SST_MIN_INDEX_ENTRY)
		return rl_error(RL_CORRUPT, "sst: index block count is malformed");
	r->blocks = calloc(r->n_blocks ? r->n_blocks : 1, sizeof(SstBlockHandle));
	if (r->blocks == NULL)
		abort();
	for (size_t i = 0; i < r->n_blocks; i++)
	{
		SstBlockHandle *h = &r->blocks[i];

		h->first_key_len = rlreader_varint(&rd);
		h->first_key = rlreader_bytes(&rd, h->first_key_len);
		if (r->props.type == SST_TYPE_WAL)
			h->first_seq = rlreader_varint(&rd);
		h->off = rlreader_u64le(&rd);
		h->len = rlreader_u32le(&rd);
		if (rd.failed || h->off != next_off || h->len < 2 * sizeof(uint32_t) ||
			h->len + SST_CRC_LEN > blocks_end - next_off)
			return rl_error(RL_CORRUPT, "sst: index entry %zu is malformed or out of bounds", i);
		next_off = h->off + h->len + SST_CRC_LEN;
	}
	if (rlreader_remaining(&rd) != 0 || next_off != blocks_end)
		return rl_error(RL_CORRUPT, "sst: index does not cover the data blocks exactly");
	return RL_OK;
}

/* Parse props (CRC already checked), then check and parse the filter and index. */
static RlStatus
reader_parse(SstReader *r, uint64_t props_off, uint64_t props_len)
{
	SstProps   *props = &r->props;
	RlReader	rd;

	rlreader_init(&rd, r->data + props_off, props_len);
	props->type = rlreader_u8(&rd);
	props->n_entries = rlreader_varint(&rd);
	props->min_seq = rlreader_varint(&rd);
	props->max_seq = rlreader_varint(&rd);
	read_key(&rd, &props->first_key);
	read_key(&rd, &props->last_key);

	uint8_t		codec = rlreader_u8(&rd);
	uint64_t	index_off = rlreader_u64le(&rd);
	uint64_t	index_len = rlreader_u32le(&rd);
	uint64_t	filter_off = rlreader_u64le(&rd);
	uint64_t	filter_len = rlreader_u32le(&rd);

	if (rd.failed || rlreader_remaining(&rd) != 0)
		return rl_error(RL_CORRUPT, "sst: props block is malformed");
	if (props->type != SST_TYPE_WAL && props->type != SST_TYPE_DATA)
		return rl_error(RL_CORRUPT, "sst: unknown SST type %d", (int) props->type);
	if (codec != SST_CODEC_NONE)
		return rl_error(RL_CORRUPT, "sst: unsupported block codec %u", codec);
	if (!region_ok(r->data, props_off, index_off, index_len) ||
		index_off + index_len + SST_CRC_LEN != props_off)
		return rl_error(RL_CORRUPT, "sst: index block out of bounds or CRC mismatch");
	if (filter_len > 0)
	{
		if (props->type != SST_TYPE_DATA || !region_ok(r->data, index_off, filter_off, filter_len) ||
			filter_off + filter_len + SST_CRC_LEN != index_off)
			return rl_error(RL_CORRUPT, "sst: filter block out of bounds or CRC mismatch");
		r->filter = r->data + filter_off;
		r->filter_len = filter_len;
		if (!bloom_valid(r->filter, r->filter_len))
			return rl_error(RL_CORRUPT, "sst: filter block is malformed");
	}
	return reader_parse_index(r, index_off, index_len, filter_len > 0 ? filter_off : index_off);
}

RlStatus
sst_reader_open(const uint8_t *data, size_t len, SstReader **out)
{
	*out = NULL;
	if (len < SST_TRAILER_LEN)
		return rl_error(RL_CORRUPT, "sst: %zu bytes is too short for an SST", len);

	uint64_t	body_len = len - SST_TRAILER_LEN;
	const uint8_t *trailer = data + body_len;
	uint64_t	props_off = rl_load_u64le(trailer);
	uint64_t	props_len = rl_load_u32le(trailer + 8);

	if (crc32c(trailer, SST_TRAILER_LEN - SST_CRC_LEN) != rl_load_u32le(trailer + 20))
		return rl_error(RL_CORRUPT, "sst: trailer CRC mismatch");
	if (rl_load_u32le(trailer + 16) != SST_MAGIC)
		return rl_error(RL_CORRUPT, "sst: bad magic 0x%08x", rl_load_u32le(trailer + 16));
	if (rl_load_u16le(trailer + 12) != SST_FORMAT)
		return rl_error(RL_CORRUPT, "sst: unsupported format %u", rl_load_u16le(trailer + 12));
	if (!region_ok(data, body_len, props_off, props_len) ||
		props_off + props_len + SST_CRC_LEN != body_len)
		return rl_error(RL_CORRUPT, "sst: props block out of bounds or CRC mismatch");

	SstReader  *r = calloc(1, sizeof(*r));
	RlStatus	status;

	if (r == NULL)
		abort();
	r->data = data;
	status = reader_parse(r, props_off, props_len);
	if (status != RL_OK)
	{
		sst_reader_free(r);
		return status;
	}
	*out = r;
	return RL_OK;
}

void
sst_reader_free(SstReader *r)
{
	if (r == NULL)
		return;
	sst_iter_free(r->get_iter);
	sst_props_free(&r->props);
	free(r->blocks);
	free(r);
}

const SstProps *
sst_reader_props(const SstReader *r)
{
	return &r->props;
}

bool
sst_reader_may_contain(const SstReader *r, const void *key, size_t key_len)
{
	return r->filter == NULL || bloom_may_contain(r->filter, r->filter_len, key, key_len);
}

/* ---------------------------------------------------------------- iterator */

static bool
iter_fail(SstIter *it, RlStatus status)
{
	it->status = status;
	it->valid = false;
	return false;
}

static uint32_t
iter_restart(const SstIter *it, size_t i)
{
	return rl_load_u32le(it->restarts + 4 * i);
}

RlStatus
sst_reader_verify(const SstReader *r)
{
	for (size_t i = 0; i < r->n_blocks; i++)
	{
		const SstBlockHandle *h = &r->blocks[i];

		if (crc32c(r->data + h->off, h->len) != rl_load_u32le(r->data + h->off + h->len))
			return rl_error(RL_CORRUPT, "sst: block %zu CRC mismatch", i);
	}
	return RL_OK;
}

/* Verify block idx and make it current, positioned before its first row. */
static bool
iter_load_block(SstIter *it, size_t idx)
{
	const SstBlockHandle *h = &it->reader->blocks[idx];
	const uint8_t *block = it->reader->data + h->off;
	uint32_t	n_restarts = rl_load_u32le(block + h->len - 4);

	it->block_idx = idx;
	it->rows_len = it->pos = it->key.len = 0;
	if (crc32c(block, h->len) != rl_load_u32le(block + h->len))
		return iter_fail(it, rl_error(RL_CORRUPT, "sst: block %zu CRC mismatch", idx));
	if (n_restarts == 0 || n_restarts > (h->len - 4) / 4)
		return iter_fail(it, rl_error(RL_CORRUPT, "sst: block %zu restart count %u is out of bounds",
									  idx, n_restarts));
	it->rows = block;
	it->rows_len = h->len - 4 - 4 * (size_t) n_restarts;
	it->restarts = block + it->rows_len;
	it->n_restarts = n_restarts;
	for (size_t i = 0; i < n_restarts; i++)
		if (iter_restart(it, i) >= it->rows_len)
			return iter_fail(it, rl_error(RL_CORRUPT, "sst: block %zu restart %zu is out of bounds",
										  idx, i));
	return true;
}

/* Decode the row at *pos in rows[0, rows_len) and advance *pos past it. */
static bool
decode_row(const uint8_t *rows, size_t rows_len, size_t *pos, SstRow *row)
{
	RlReader	rd;

	rlreader_init(&rd, rows + *pos, rows_len - *pos);
	row->shared = rlreader_varint(&rd);
	row->suffix_len = rlreader_varint(&rd);
	row->value_len = rlreader_varint(&rd);

	uint8_t		kind = rlreader_u8(&rd);

	row->seq = rlreader_varint(&rd);
	row->suffix = rlreader_bytes(&rd, row->suffix_len);
	row->value = rlreader_bytes(&rd, row->value_len);
	if (rd.failed || kind > SST_KIND_DEL)
		return false;
	row->kind = kind;
	*pos = rows_len - rlreader_remaining(&rd);
	return true;
}

/* Make the row at it->pos current, moving on to later blocks when one is used up. */
static void
iter_read_row(SstIter *it)
{
	SstRow		row;

	while (it->pos >= it->rows_len)
	{
		if (it->block_idx + 1 >= it->reader->n_blocks)
		{
			it->valid = false;
			return;
		}
		if (!iter_load_block(it, it->block_idx + 1))
			return;
	}
	if (!decode_row(it->rows, it->rows_len, &it->pos, &row) || row.shared > it->key.len)
	{
		iter_fail(it, rl_error(RL_CORRUPT, "sst: malformed row in block %zu", it->block_idx));
		return;
	}
	it->key.len = row.shared;
	rlbuf_append(&it->key, row.suffix, row.suffix_len);
	it->entry = (SstEntry) {
		.key = it->key.data,
		.key_len = it->key.len,
		.value = row.value,
		.value_len = row.value_len,
		.seq = row.seq,
		.kind = row.kind,
	};
	it->valid = true;
}

static int
iter_compare_key(const SstIter *it, const void *key, size_t key_len)
{
	return compare_keys(it->key.data, it->key.len, key, key_len);
}

SstIter *
sst_iter_new(SstReader *r)
{
	SstIter    *it = calloc(1, sizeof(*it));

	if (it == NULL)
		abort();
	it->reader = r;
	it->status = RL_OK;
	return it;
}

void
sst_iter_seek_first(SstIter *it)
{
	if (it->status != RL_OK)
		return;
	it->valid = false;
	if (it->reader->n_blocks > 0 && iter_load_block(it, 0))
		iter_read_row(it);
}

void
sst_iter_seek(SstIter *it, const void *key, size_t key_len)
{
	const SstReader *r = it->reader;
	size_t		lo = 0;
	size_t		hi = r->n_blocks;

	if (it->status != RL_OK)
		return;
	it->valid = false;
	if (r->props.type != SST_TYPE_DATA)
	{
		iter_fail(it, rl_error(RL_INVALID, "sst: seek on a WAL SST"));
		return;
	}
	if (r->n_blocks == 0)
		return;

	/* The first row >= key is in the last block whose first key is < key, or later. */
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (compare_keys(r->blocks[mid].first_key, r->blocks[mid].first_key_len, key, key_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!iter_load_block(it, lo ? lo - 1 : 0))
		return;

	/* Likewise over the block's restart points, whose keys are stored whole. */
	lo = 0;
	hi = it->n_restarts;
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;
		size_t		pos = iter_restart(it, mid);
		SstRow		row;

		if (!decode_row(it->rows, it->rows_len, &pos, &row) || row.shared != 0)
		{
			iter_fail(it, rl_error(RL_CORRUPT, "sst: malformed restart row in block %zu",
								   it->block_idx));
			return;
		}
		if (compare_keys(row.suffix, row.suffix_len, key, key_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	it->pos = iter_restart(it, lo ? lo - 1 : 0);
	iter_read_row(it);
	while (it->valid && iter_compare_key(it, key, key_len) < 0)
		iter_read_row(it);
}

bool
sst_iter_valid(const SstIter *it)
{
	return it->valid;
}

void
sst_iter_next(SstIter *it)
{
	if (it->valid)
		iter_read_row(it);
}

const SstEntry *
sst_iter_entry(const SstIter *it)
{
	return it->valid ? &it->entry : NULL;
}

RlStatus
sst_iter_status(const SstIter *it)
{
	return it->status;
}

void
sst_iter_free(SstIter *it)
{
	if (it == NULL)
		return;
	rlbuf_free(&it->key);
	free(it);
}

RlStatus
sst_get(SstReader *r, const void *key, size_t key_len, uint64_t max_seq, SstEntry *entry)
{
	SstIter    *it;

	if (r->props.type != SST_TYPE_DATA)
		return rl_error(RL_INVALID, "sst: point lookup on a WAL SST");
	if (!sst_reader_may_contain(r, key, key_len))
		return RL_NOT_FOUND;
	if (r->get_iter == NULL)
		r->get_iter = sst_iter_new(r);
	it = r->get_iter;
	it->status = RL_OK;			/* each lookup starts afresh; a bad block fails it again */
	sst_iter_seek(it, key, key_len);
	/* versions of a key are newest first: skip those above max_seq */
	while (it->valid && it->entry.seq > max_seq && iter_compare_key(it, key, key_len) == 0)
		iter_read_row(it);
	if (it->status != RL_OK)
		return it->status;
	if (!it->valid || iter_compare_key(it, key, key_len) != 0)
		return RL_NOT_FOUND;
	*entry = it->entry;
	return RL_OK;
}
