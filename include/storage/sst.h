/*
 * sst.h: the sorted-string table, the one immutable file format of the LSM.
 *
 * Two kinds share the codec: WAL SSTs (one per group commit, rows in commit order)
 * and DATA SSTs (L0 flushes and compaction outputs, internal-key order: user key
 * ascending, seq descending). Layout (also in doc/storage.md, "SST"):
 *
 *   [block][u32 crc32c] ... [filter][u32 crc] [index][u32 crc] [props][u32 crc]
 *   trailer (24 B): u64 props_off | u32 props_len | u16 format=1 | u16 flags |
 *                   u32 magic "LSMS" | u32 crc32c(trailer[0..20])
 *
 * Rows inside a block: varint shared | varint unshared | varint vlen | u8 kind |
 * varint seq | key suffix | value; a restart point every 16 rows, then
 * u32 restart_offsets[] and u32 n_restarts. An empty object (0 bytes) is not an
 * SST: it is a WAL fence and is handled by the LSM before the codec sees it.
 *
 * Every byte a reader returns is covered by a CRC it has checked: a flipped bit or a
 * truncated object is RL_CORRUPT, never data.
 */
#ifndef RL_SST_H
#define RL_SST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"

#define SST_MAGIC 0x534d534cU	/* "LSMS" read as little-endian u32 */
#define SST_FORMAT 1
#define SST_TRAILER_LEN 24
#define SST_DEFAULT_BLOCK_SIZE (16 * 1024)
#define SST_BLOOM_MIN_KEYS 64

typedef enum SstType
{
	SST_TYPE_WAL = 1,
	SST_TYPE_DATA = 2
} SstType;

typedef enum SstKind
{
	SST_KIND_PUT = 0,
	SST_KIND_DEL = 1
} SstKind;

/* One row as a reader returns it; key and value point into reader-owned memory
 * valid until the iterator moves or the reader is freed. */
typedef struct SstEntry
{
	const uint8_t *key;
	size_t		key_len;
	const uint8_t *value;
	size_t		value_len;
	uint64_t	seq;
	SstKind		kind;
} SstEntry;

typedef struct SstProps
{
	SstType		type;
	uint64_t	n_entries;
	uint64_t	min_seq;
	uint64_t	max_seq;
	RlBuf		first_key;
	RlBuf		last_key;
} SstProps;

void		sst_props_free(SstProps *props);

/* --- writer: rows must be added in the order of the SST type --- */
typedef struct SstWriter SstWriter;

SstWriter  *sst_writer_new(SstType type, size_t block_size);
void		sst_writer_add(SstWriter *w, const void *key, size_t key_len, uint64_t seq,
						   SstKind kind, const void *value, size_t value_len);
uint64_t	sst_writer_count(const SstWriter *w);
/* Approximate encoded size so far. */
size_t		sst_writer_size(const SstWriter *w);
/* Encode into out (replacing its contents); props (may be NULL) receives the summary. */
void		sst_writer_finish(SstWriter *w, RlBuf *out, SstProps *props);
void		sst_writer_free(SstWriter *w);

/* --- reader over a whole object held in memory (the reader copies nothing;
 *     data must outlive it) --- */
typedef struct SstReader SstReader;

/* Verifies trailer, props, index and filter CRCs; blocks are verified when read. */
RlStatus	sst_reader_open(const uint8_t *data, size_t len, SstReader **out);
void		sst_reader_free(SstReader *r);
/* Verifies every data block's CRC too: for bytes about to be kept in a cache. */
RlStatus	sst_reader_verify(const SstReader *r);
const SstProps *sst_reader_props(const SstReader *r);
/* Bloom check (true when the SST has no filter). */
bool		sst_reader_may_contain(const SstReader *r, const void *key, size_t key_len);

/*
 * Iterator over all rows in stored order. For DATA SSTs, seek positions at the first
 * row whose key is >= the target. Errors (a block failing its CRC) are sticky and
 * reported by sst_iter_status(); the iterator is then invalid.
 */
typedef struct SstIter SstIter;

SstIter    *sst_iter_new(SstReader *r);
void		sst_iter_seek_first(SstIter *it);
void		sst_iter_seek(SstIter *it, const void *key, size_t key_len);	/* DATA only */
bool		sst_iter_valid(const SstIter *it);
void		sst_iter_next(SstIter *it);
const SstEntry *sst_iter_entry(const SstIter *it);
RlStatus	sst_iter_status(const SstIter *it);
void		sst_iter_free(SstIter *it);

/*
 * Point lookup in a DATA SST: the newest row for key with seq <= max_seq.
 * RL_OK (entry filled, may be a DEL), RL_NOT_FOUND, or RL_CORRUPT.
 * entry memory is valid until the next call on the reader.
 */
RlStatus	sst_get(SstReader *r, const void *key, size_t key_len, uint64_t max_seq, SstEntry *entry);

#endif
