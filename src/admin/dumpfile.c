/*
 * dumpfile.c: writing and reading rocklake-admin's dump files (the layout is in
 * admin/dumpfile.h).
 *
 * The writer streams: it keeps a buffer of at most about DUMP_FLUSH_BYTES and the
 * running CRC-32C of what it has written out, so a dump's size is not bounded by
 * memory. The reader takes the whole file in memory, which restore needs anyway:
 * it must have checked every byte before it writes the first key. It checks the
 * checksum before it parses anything, then parses twice, so that a callback never
 * sees a record of a file that fails a later check.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "admin/dumpfile.h"
#include "common/crc32c.h"

#define DUMP_FLUSH_BYTES	(1024 * 1024)

static void
put_str(RlBuf *buf, const char *s)
{
	size_t		len = strlen(s);

	rlbuf_put_u32be(buf, (uint32_t) len);
	rlbuf_append(buf, s, len);
}

/* write out what is buffered, keeping the trailer's bytes (keep) in the buffer */
static void
flush(DumpWriter *w, size_t keep)
{
	size_t		n = w->buf.len - keep;

	if (w->out == NULL || n == 0)
		return;
	w->crc = crc32c_extend(w->crc, w->buf.data, n);
	if (fwrite(w->buf.data, 1, n, w->out) != n)
		w->failed = true;
	memmove(w->buf.data, w->buf.data + n, keep);
	w->buf.len = keep;
}

void
dump_writer_begin(DumpWriter *w, FILE *out, const DumpHeader *h)
{
	memset(w, 0, sizeof(*w));
	rlbuf_init(&w->buf);
	w->out = out;
	rlbuf_append(&w->buf, DUMP_MAGIC, DUMP_MAGIC_LEN);
	rlbuf_put_u32be(&w->buf, DUMP_FORMAT_VERSION);
	put_str(&w->buf, h->rocklake_version);
	put_str(&w->buf, h->database);
	rlbuf_put_u32be(&w->buf, h->datid);
	put_str(&w->buf, h->store_uuid);
	rlbuf_put_u64be(&w->buf, h->commit_seq);
	rlbuf_put_u64be(&w->buf, h->manifest_id);
	rlbuf_put_u64be(&w->buf, (uint64_t) h->dumped_ms);
	w->bytes = w->buf.len;
}

void
dump_writer_record(DumpWriter *w, const uint8_t *key, size_t key_len,
				   const uint8_t *value, size_t value_len)
{
	size_t		before = w->buf.len;

	rlbuf_put_u8(&w->buf, 'K');
	rlbuf_put_u32be(&w->buf, (uint32_t) key_len);
	rlbuf_append(&w->buf, key, key_len);
	rlbuf_put_u32be(&w->buf, (uint32_t) value_len);
	rlbuf_append(&w->buf, value, value_len);
	w->bytes += w->buf.len - before;
	w->count++;
	if (w->buf.len >= DUMP_FLUSH_BYTES)
		flush(w, 0);
}

RlStatus
dump_writer_finish(DumpWriter *w)
{
	rlbuf_put_u8(&w->buf, 'E');
	rlbuf_put_u64be(&w->buf, w->count);
	flush(w, 0);
	/* the checksum of everything before it: buffered (no out) or written */
	rlbuf_put_u32be(&w->buf, w->out ? w->crc : crc32c(w->buf.data, w->buf.len));
	w->bytes += DUMP_TRAILER_LEN;
	flush(w, 0);
	if (w->out && fflush(w->out) != 0)
		w->failed = true;
	return w->failed ? rl_error(RL_IO_ERROR, "could not write the dump: %s", strerror(errno)) : RL_OK;
}

void
dump_writer_free(DumpWriter *w)
{
	rlbuf_free(&w->buf);
}

/* a bounded reader over the file, failing with the offset of what it missed */
typedef struct DumpCursor
{
	const uint8_t *data;
	size_t		pos;
	size_t		end;
	bool		bad;
} DumpCursor;

static const uint8_t *
take(DumpCursor *c, size_t n)
{
	if (c->bad || c->end - c->pos < n)
	{
		c->bad = true;
		return NULL;
	}
	c->pos += n;
	return c->data + c->pos - n;
}

static uint32_t
take_u32(DumpCursor *c)
{
	const uint8_t *p = take(c, 4);

	return p ? rl_load_u32be(p) : 0;
}

static uint64_t
take_u64(DumpCursor *c)
{
	const uint8_t *p = take(c, 8);

	return p ? rl_load_u64be(p) : 0;
}

/* a length-prefixed string into dst (size n), refusing one that does not fit */
static void
take_str(DumpCursor *c, char *dst, size_t n)
{
	uint32_t	len = take_u32(c);
	const uint8_t *p;

	if (len >= n)
		c->bad = true;
	p = take(c, len);
	if (p == NULL)
		return;
	memcpy(dst, p, len);
	dst[len] = '\0';
}

static RlStatus
parse(const uint8_t *data, size_t len, DumpHeader *h, uint64_t *count,
	  DumpRecordFn fn, void *arg)
{
	DumpCursor	c = {.data = data, .end = len - DUMP_TRAILER_LEN};
	const uint8_t *prev = NULL;
	size_t		prev_len = 0;
	uint64_t	n = 0;

	memset(h, 0, sizeof(*h));
	take(&c, DUMP_MAGIC_LEN);
	h->format_version = take_u32(&c);
	take_str(&c, h->rocklake_version, sizeof(h->rocklake_version));
	take_str(&c, h->database, sizeof(h->database));
	h->datid = take_u32(&c);
	take_str(&c, h->store_uuid, sizeof(h->store_uuid));
	h->commit_seq = take_u64(&c);
	h->manifest_id = take_u64(&c);
	h->dumped_ms = (int64_t) take_u64(&c);
	if (c.bad)
		return rl_error(RL_CORRUPT, "the dump's header is damaged");
	while (c.pos < c.end)
	{
		size_t		at = c.pos;
		const uint8_t *tag = take(&c, 1);
		uint32_t	klen = take_u32(&c);
		const uint8_t *key = take(&c, klen);
		uint32_t	vlen = take_u32(&c);
		const uint8_t *value = take(&c, vlen);
		int			cmp;

		if (c.bad || *tag != 'K')
			return rl_error(RL_CORRUPT, "the dump's record at byte %zu is damaged", at);
		cmp = prev ? memcmp(prev, key, prev_len < klen ? prev_len : klen) : -1;
		if (cmp > 0 || (cmp == 0 && prev_len >= klen))
			return rl_error(RL_CORRUPT, "the dump's key at byte %zu is out of order", at);
		prev = key;
		prev_len = klen;
		n++;
		if (fn && !fn(key, klen, value, vlen, arg))
			return rl_error(RL_INTERRUPTED, "stopped at the record at byte %zu", at);
	}
	*count = rl_load_u64be(data + len - DUMP_TRAILER_LEN + 1);
	if (data[len - DUMP_TRAILER_LEN] != 'E' || *count != n)
		return rl_error(RL_CORRUPT, "the dump's trailer counts %" PRIu64 " records, the file holds %" PRIu64,
						*count, n);
	return RL_OK;
}

RlStatus
dump_read(const uint8_t *data, size_t len, DumpHeader *h, uint64_t *count,
		  DumpRecordFn fn, void *arg)
{
	RlStatus	rc;

	if (len < DUMP_MAGIC_LEN + 4 || memcmp(data, DUMP_MAGIC, DUMP_MAGIC_LEN) != 0)
		return rl_error(RL_CORRUPT, "not a RockLake dump (no \"RLDUMP\" magic)");
	if (rl_load_u32be(data + DUMP_MAGIC_LEN) != DUMP_FORMAT_VERSION)
		return rl_error(RL_CORRUPT, "dump format version %u is not supported (this is version %d)",
						rl_load_u32be(data + DUMP_MAGIC_LEN), DUMP_FORMAT_VERSION);
	if (len < DUMP_MAGIC_LEN + 4 + DUMP_TRAILER_LEN ||
		crc32c(data, len - 4) != rl_load_u32be(data + len - 4))
		return rl_error(RL_CORRUPT, "the dump's checksum does not match: the file is truncated or damaged");
	rc = parse(data, len, h, count, NULL, NULL);
	if (rc == RL_OK && fn)
		rc = parse(data, len, h, count, fn, arg);
	return rc;
}
