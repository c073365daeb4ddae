/*
 * manifest.c: encoding and decoding of LSM manifests (JSON with a CRC32C trailer,
 * see manifest.h) and the names of the store's objects. Decoding is strict about
 * what it needs and ignores fields it does not know, so a later format can add
 * fields without breaking older readers; a different "format" number is refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/crc32c.h"
#include "storage/manifest.h"

void
manifest_init(Manifest *m)
{
	memset(m, 0, sizeof(*m));
}

void
sst_meta_free(SstMeta *meta)
{
	rlbuf_free(&meta->first_key);
	rlbuf_free(&meta->last_key);
}

void
sst_meta_copy(SstMeta *dst, const SstMeta *src)
{
	*dst = *src;
	rlbuf_init(&dst->first_key);
	rlbuf_init(&dst->last_key);
	rlbuf_append(&dst->first_key, src->first_key.data, src->first_key.len);
	rlbuf_append(&dst->last_key, src->last_key.data, src->last_key.len);
}

void
manifest_free(Manifest *m)
{
	for (int i = 0; i < m->n_l0; i++)
		sst_meta_free(&m->l0[i]);
	free(m->l0);
	for (int r = 0; r < m->n_runs; r++)
	{
		for (int i = 0; i < m->runs[r].n_ssts; i++)
			sst_meta_free(&m->runs[r].ssts[i]);
		free(m->runs[r].ssts);
	}
	free(m->runs);
	manifest_init(m);
}

void
manifest_copy(Manifest *dst, const Manifest *src)
{
	*dst = *src;
	dst->l0 = calloc((size_t) src->n_l0 + 1, sizeof(SstMeta));
	for (int i = 0; i < src->n_l0; i++)
		sst_meta_copy(&dst->l0[i], &src->l0[i]);
	dst->runs = calloc((size_t) src->n_runs + 1, sizeof(SortedRun));
	for (int r = 0; r < src->n_runs; r++)
	{
		dst->runs[r] = src->runs[r];
		dst->runs[r].ssts = calloc((size_t) src->runs[r].n_ssts + 1, sizeof(SstMeta));
		for (int i = 0; i < src->runs[r].n_ssts; i++)
			sst_meta_copy(&dst->runs[r].ssts[i], &src->runs[r].ssts[i]);
	}
}

/* --- JSON helpers: u64 values are JSON integers (jansson's json_int_t is 64-bit) --- */

static json_t *
hex_string(const RlBuf *b)
{
	RlBuf		hex;

	rlbuf_init(&hex);
	rlbuf_append_hex(&hex, b->data, b->len);
	json_t	   *j = json_string(rlbuf_cstr(&hex));

	rlbuf_free(&hex);
	return j;
}

static json_t *
sst_meta_json(const SstMeta *s)
{
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:o, s:o}",
					 "id", s->id, "size", (json_int_t) s->size, "entries", (json_int_t) s->entries,
					 "min_seq", (json_int_t) s->min_seq, "max_seq", (json_int_t) s->max_seq,
					 "first_key", hex_string(&s->first_key), "last_key", hex_string(&s->last_key));
}

static bool
sst_meta_parse(json_t *j, SstMeta *s)
{
	const char *id,
			   *first,
			   *last;
	json_int_t	size,
				entries,
				min_seq,
				max_seq;

	memset(s, 0, sizeof(*s));
	if (json_unpack(j, "{s:s, s:I, s:I, s:I, s:I, s:s, s:s}",
					"id", &id, "size", &size, "entries", &entries, "min_seq", &min_seq,
					"max_seq", &max_seq, "first_key", &first, "last_key", &last) != 0)
		return false;
	if (strlen(id) >= SST_ID_MAX || strchr(id, '/') || id[0] == '\0')
		return false;
	strcpy(s->id, id);
	s->size = (uint64_t) size;
	s->entries = (uint64_t) entries;
	s->min_seq = (uint64_t) min_seq;
	s->max_seq = (uint64_t) max_seq;
	return rlbuf_append_unhex(&s->first_key, first) && rlbuf_append_unhex(&s->last_key, last);
}

void
manifest_encode(const Manifest *m, RlBuf *out)
{
	json_t	   *l0 = json_array();
	json_t	   *runs = json_array();

	for (int i = 0; i < m->n_l0; i++)
		json_array_append_new(l0, sst_meta_json(&m->l0[i]));
	for (int r = 0; r < m->n_runs; r++)
	{
		json_t	   *ssts = json_array();

		for (int i = 0; i < m->runs[r].n_ssts; i++)
			json_array_append_new(ssts, sst_meta_json(&m->runs[r].ssts[i]));
		json_array_append_new(runs, json_pack("{s:I, s:o}", "run_id",
											  (json_int_t) m->runs[r].run_id, "ssts", ssts));
	}
	json_t	   *root = json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}",
								 "format", MANIFEST_FORMAT,
								 "db_uuid", m->db_uuid,
								 "manifest_id", (json_int_t) m->manifest_id,
								 "created_ms", (json_int_t) m->created_ms,
								 "writer_epoch", (json_int_t) m->writer_epoch,
								 "compactor_epoch", (json_int_t) m->compactor_epoch,
								 "replay_after_wal_id", (json_int_t) m->replay_after_wal_id,
								 "last_l0_seq", (json_int_t) m->last_l0_seq,
								 "next_seq_hint", (json_int_t) m->next_seq_hint,
								 "next_run_id", (json_int_t) m->next_run_id,
								 "l0", l0, "runs", runs);
	char	   *text = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);

	rlbuf_reset(out);
	rlbuf_append_str(out, text);
	uint32_t	crc = crc32c(text, strlen(text));

	rlbuf_printf(out, "\ncrc32c=%08x\n", crc);
	free(text);
	json_decref(root);
}

static bool
parse_ssts(json_t *arr, SstMeta **out, int *n)
{
	if (!json_is_array(arr))
		return false;
	*n = (int) json_array_size(arr);
	*out = calloc((size_t) *n + 1, sizeof(SstMeta));
	for (int i = 0; i < *n; i++)
		if (!sst_meta_parse(json_array_get(arr, (size_t) i), &(*out)[i]))
			return false;
	return true;
}

RlStatus
manifest_decode(const uint8_t *data, size_t len, Manifest *m)
{
	const char	trailer_tag[] = "\ncrc32c=";
	const size_t trailer_len = sizeof(trailer_tag) - 1 + 8 + 1;

	manifest_init(m);
	if (len < trailer_len + 2 || memcmp(data + len - trailer_len, trailer_tag, sizeof(trailer_tag) - 1) != 0
		|| data[len - 1] != '\n')
		return rl_error(RL_CORRUPT, "manifest has no crc32c trailer (truncated or not a manifest)");
	size_t		json_len = len - trailer_len;
	char		expect[9];

	snprintf(expect, sizeof(expect), "%08x", crc32c(data, json_len));
	if (memcmp(expect, data + json_len + sizeof(trailer_tag) - 1, 8) != 0)
		return rl_error(RL_CORRUPT, "manifest checksum mismatch");

	json_error_t jerr;
	json_t	   *root = json_loadb((const char *) data, json_len, 0, &jerr);

	if (root == NULL)
		return rl_error(RL_CORRUPT, "manifest is not valid JSON: %s", jerr.text);
	json_int_t	format = 0,
				id,
				created,
				wepoch,
				cepoch,
				replay,
				l0seq,
				hint,
				next_run = 0;
	const char *uuid;
	json_t	   *l0,
			   *runs;
	RlStatus	rc = RL_OK;

	if (json_unpack(root, "{s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s?I, s:o, s:o}",
					"format", &format, "db_uuid", &uuid, "manifest_id", &id, "created_ms", &created,
					"writer_epoch", &wepoch, "compactor_epoch", &cepoch,
					"replay_after_wal_id", &replay, "last_l0_seq", &l0seq, "next_seq_hint", &hint,
					"next_run_id", &next_run, "l0", &l0, "runs", &runs) != 0)
		rc = rl_error(RL_CORRUPT, "manifest lacks a required field");
	else if (format != MANIFEST_FORMAT)
		rc = rl_error(RL_CORRUPT, "manifest format %lld is not supported (this build reads %d)",
					  (long long) format, MANIFEST_FORMAT);
	else
	{
		snprintf(m->db_uuid, sizeof(m->db_uuid), "%s", uuid);
		m->manifest_id = (uint64_t) id;
		m->created_ms = created;
		m->writer_epoch = (uint64_t) wepoch;
		m->compactor_epoch = (uint64_t) cepoch;
		m->replay_after_wal_id = (uint64_t) replay;
		m->last_l0_seq = (uint64_t) l0seq;
		m->next_seq_hint = (uint64_t) hint;
		m->next_run_id = (uint64_t) next_run;
		if (!parse_ssts(l0, &m->l0, &m->n_l0) || !json_is_array(runs))
			rc = rl_error(RL_CORRUPT, "manifest has a malformed SST list");
		else
		{
			m->n_runs = (int) json_array_size(runs);
			m->runs = calloc((size_t) m->n_runs + 1, sizeof(SortedRun));
			for (int r = 0; r < m->n_runs && rc == RL_OK; r++)
			{
				json_t	   *run = json_array_get(runs, (size_t) r);
				json_int_t	run_id;
				json_t	   *ssts;

				if (json_unpack(run, "{s:I, s:o}", "run_id", &run_id, "ssts", &ssts) != 0 ||
					!parse_ssts(ssts, &m->runs[r].ssts, &m->runs[r].n_ssts))
					rc = rl_error(RL_CORRUPT, "manifest has a malformed sorted run");
				m->runs[r].run_id = (uint64_t) run_id;
			}
		}
	}
	json_decref(root);
	if (rc != RL_OK)
		manifest_free(m);
	return rc;
}

void
manifest_object_key(uint64_t id, char *out, size_t outlen)
{
	snprintf(out, outlen, "manifest/%020" PRIu64 ".manifest", id);
}

void
wal_object_key(uint64_t id, char *out, size_t outlen)
{
	snprintf(out, outlen, "wal/%020" PRIu64 ".sst", id);
}

void
sst_object_key(const char *sst_id, char *out, size_t outlen)
{
	snprintf(out, outlen, "compacted/%s.sst", sst_id);
}

uint64_t
object_key_id(const char *key, const char *prefix, const char *suffix)
{
	size_t		plen = strlen(prefix),
				slen = strlen(suffix),
				klen = strlen(key);

	if (klen != plen + 20 + slen || strncmp(key, prefix, plen) != 0 || strcmp(key + plen + 20, suffix) != 0)
		return 0;
	uint64_t	id = 0;

	for (size_t i = plen; i < plen + 20; i++)
	{
		if (key[i] < '0' || key[i] > '9')
			return 0;
		id = id * 10 + (uint64_t) (key[i] - '0');
	}
	return id;
}
