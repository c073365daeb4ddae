/*
 * lsm_read.c: reads of the LSM store (lsm.h): a merge of the memtable, the L0 SSTs
 * and the sorted runs, newest first, for lsm_get, lsm_scan and lsm_scan_prefix.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/lsm_internal.h"

/* ---------------------------------------------------------------- merging reads */

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

void
merge_free(Merge *m)
{
	for (int i = 0; i < m->n; i++)
		input_close_sst(m, &m->in[i]);
	free(m->in);
	rlbuf_free(&m->key);
}

/* Inputs for [start, end): memtable (if asked), then L0 SSTs, then runs. */
RlStatus
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
const SstEntry *
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

RlStatus
lsm_scan(Lsm *lsm, const void *start, size_t start_len, const void *end, size_t end_len,
		 LsmScanFn fn, void *arg)
{
	lsm->sst_missing = false;
	RlStatus	rc = scan_once(lsm, start, start_len, end, end_len, fn, arg);

	/* a follower may be reading a manifest whose SSTs GC collected: move on and retry */
	if (rc != RL_OK && lsm->sst_missing && !lsm->writer && lsm->as_of == UINT64_MAX &&
		follower_reload_manifest(lsm) == RL_OK)
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
		lsm->as_of == UINT64_MAX && follower_reload_manifest(lsm) == RL_OK)
		rc = get_once(lsm, key, key_len, value);
	return rc;
}
