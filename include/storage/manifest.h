/*
 * manifest.h: the LSM manifest, the commit point of the store's shape.
 *
 * manifest/%020llu.manifest objects have consecutive ids and are created with
 * create-if-absent, so exactly one writer can produce each id. A manifest names the
 * writer epoch (fencing), how far the WAL is covered by SSTs (replay_after_wal_id),
 * the L0 SSTs (newest first) and the sorted runs (newest first). Encoding: a JSON
 * object, "\n", then "crc32c=<8 hex>\n" over the JSON bytes (doc/storage.md,
 * "Manifest"): readable with any S3 tool, and a torn or flipped object is detected.
 * Binary keys are stored as hex.
 */
#ifndef RL_MANIFEST_H
#define RL_MANIFEST_H

#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"

#define MANIFEST_FORMAT 1
#define SST_ID_MAX 32

typedef struct SstMeta
{
	char		id[SST_ID_MAX];	/* ULID: object compacted/<id>.sst */
	uint64_t	size;
	uint64_t	entries;
	uint64_t	min_seq;
	uint64_t	max_seq;
	RlBuf		first_key;
	RlBuf		last_key;
} SstMeta;

typedef struct SortedRun
{
	uint64_t	run_id;
	int			n_ssts;
	SstMeta    *ssts;			/* key-ordered, non-overlapping */
} SortedRun;

typedef struct Manifest
{
	char		db_uuid[40];
	uint64_t	manifest_id;
	int64_t		created_ms;
	uint64_t	writer_epoch;
	uint64_t	compactor_epoch;
	uint64_t	replay_after_wal_id;	/* WAL ids <= this are covered by SSTs */
	uint64_t	last_l0_seq;	/* highest seq in any SST */
	uint64_t	next_seq_hint;
	uint64_t	next_run_id;
	int			n_l0;
	SstMeta    *l0;				/* newest first */
	int			n_runs;
	SortedRun  *runs;			/* newest first */
} Manifest;

void		manifest_init(Manifest *m);
void		manifest_free(Manifest *m);
void		manifest_copy(Manifest *dst, const Manifest *src);
void		sst_meta_copy(SstMeta *dst, const SstMeta *src);
void		sst_meta_free(SstMeta *meta);

void		manifest_encode(const Manifest *m, RlBuf *out);
/* RL_CORRUPT on a CRC mismatch, malformed JSON or an unknown format. */
RlStatus	manifest_decode(const uint8_t *data, size_t len, Manifest *m);

/* Object names. */
void		manifest_object_key(uint64_t id, char *out, size_t outlen);
void		wal_object_key(uint64_t id, char *out, size_t outlen);
void		sst_object_key(const char *sst_id, char *out, size_t outlen);
/* Parse the id out of a manifest/ or wal/ key; 0 if it is not one. */
uint64_t	object_key_id(const char *key, const char *prefix, const char *suffix);

#endif
