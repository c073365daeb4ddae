/*
 * check_sst.c: unit tests for the SST codec and its bloom filter (the format is in
 * doc/storage.md, "SST"): round trips of WAL and DATA SSTs (restarts, many
 * blocks, values larger than a block, empty values, empty SSTs), seek and
 * point-lookup semantics with seq visibility and tombstones, the bloom filter's
 * false-positive rate, and corruption: every single-byte flip and every truncation
 * of a small multi-block SST must be RL_CORRUPT, never data and never a crash (CI
 * runs this under ASan, so every damaged copy lives in an exactly-sized buffer).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc32c.h"
#include "storage/bloom.h"
#include "storage/sst.h"

#define MAX_TEST_VALUE 4096
/* bloom_hash of two fixed inputs: the hash is part of the stored format */
#define BLOOM_HASH_EMPTY_SEED0 0x9ca066f1a4ab2eeaULL
#define BLOOM_HASH_KEY_SEED99 0xc7dc7d2eaeef636aULL

typedef struct TestRow
{
	char		key[32];
	uint64_t	seq;
	SstKind		kind;
	size_t		value_len;
} TestRow;

/* Values are a function of the row, so a reader's bytes can be checked exactly. */
static void
make_value(const TestRow *row, uint8_t *out)
{
	for (size_t i = 0; i < row->value_len; i++)
		out[i] = (uint8_t) (row->seq * 31 + i * 7 + (uint8_t) row->key[0]);
}

static size_t
test_value_len(size_t i)
{
	if (i % 50 == 0)
		return 0;
	if (i % 97 == 0)
		return 3000;			/* larger than the 256-byte test blocks */
	return i % 40 + 1;
}

/* WAL rows: keys in no particular order, seqs ascending, some tombstones. */
static TestRow *
make_wal_rows(size_t n)
{
	TestRow    *rows = calloc(n, sizeof(TestRow));

	for (size_t i = 0; i < n; i++)
	{
		snprintf(rows[i].key, sizeof(rows[i].key), "wal-%08x", (unsigned) ((i * 2654435761U) % 100000));
		rows[i].seq = 100 + i;
		rows[i].kind = i % 7 == 3 ? SST_KIND_DEL : SST_KIND_PUT;
		rows[i].value_len = rows[i].kind == SST_KIND_DEL ? 0 : test_value_len(i);
	}
	return rows;
}

/* DATA rows: n_keys keys ascending, 1-3 versions each with seq descending. */
static TestRow *
make_data_rows(size_t n_keys, size_t *n_rows)
{
	TestRow    *rows = calloc(n_keys * 3, sizeof(TestRow));
	size_t		n = 0;

	for (size_t k = 0; k < n_keys; k++)
	{
		size_t		versions = 1 + k % 3;

		for (size_t v = 0; v < versions; v++, n++)
		{
			snprintf(rows[n].key, sizeof(rows[n].key), "key-%06zu", k);
			rows[n].seq = 10 * k + versions - v;
			rows[n].kind = n % 11 == 5 ? SST_KIND_DEL : SST_KIND_PUT;
			rows[n].value_len = rows[n].kind == SST_KIND_DEL ? 0 : test_value_len(n);
		}
	}
	*n_rows = n;
	return rows;
}

static void
build_sst(SstType type, size_t block_size, const TestRow *rows, size_t n, RlBuf *out, SstProps *props)
{
	SstWriter  *w = sst_writer_new(type, block_size);
	uint8_t		value[MAX_TEST_VALUE];

	for (size_t i = 0; i < n; i++)
	{
		make_value(&rows[i], value);
		sst_writer_add(w, rows[i].key, strlen(rows[i].key), rows[i].seq, rows[i].kind,
					   value, rows[i].value_len);
		ck_assert_uint_eq(sst_writer_count(w), i + 1);
	}
	sst_writer_finish(w, out, props);
	sst_writer_free(w);
}

static void
assert_entry_is(const SstEntry *e, const TestRow *row)
{
	uint8_t		value[MAX_TEST_VALUE];

	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->key_len, strlen(row->key));
	ck_assert_mem_eq(e->key, row->key, e->key_len);
	ck_assert_uint_eq(e->seq, row->seq);
	ck_assert_int_eq(e->kind, row->kind);
	ck_assert_uint_eq(e->value_len, row->value_len);
	make_value(row, value);
	if (row->value_len)
		ck_assert_mem_eq(e->value, value, row->value_len);
}

static void
assert_key_is(const RlBuf *key, const char *expected)
{
	ck_assert_uint_eq(key->len, strlen(expected));
	if (key->len)
		ck_assert_mem_eq(key->data, expected, key->len);
}

/* Write rows, read them back in full, check props and (DATA) point lookups. */
static void
check_roundtrip(SstType type, size_t block_size, const TestRow *rows, size_t n)
{
	RlBuf		buf;
	SstProps	written;
	SstReader  *r;
	SstIter    *it;
	size_t		i = 0;
	uint64_t	min_seq = n ? UINT64_MAX : 0;
	uint64_t	max_seq = 0;

	for (i = 0; i < n; i++)
	{
		min_seq = rows[i].seq < min_seq ? rows[i].seq : min_seq;
		max_seq = rows[i].seq > max_seq ? rows[i].seq : max_seq;
	}
	rlbuf_init(&buf);
	rlbuf_append_str(&buf, "stale contents finish must replace");
	build_sst(type, block_size, rows, n, &buf, &written);
	ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);

	const SstProps *props = sst_reader_props(r);

	ck_assert_int_eq(props->type, type);
	ck_assert_uint_eq(props->n_entries, n);
	ck_assert_uint_eq(written.n_entries, n);
	ck_assert_uint_eq(props->min_seq, min_seq);
	ck_assert_uint_eq(props->max_seq, max_seq);
	ck_assert_uint_eq(written.min_seq, min_seq);
	ck_assert_uint_eq(written.max_seq, max_seq);
	assert_key_is(&props->first_key, n ? rows[0].key : "");
	assert_key_is(&props->last_key, n ? rows[n - 1].key : "");
	assert_key_is(&written.first_key, n ? rows[0].key : "");

	it = sst_iter_new(r);
	i = 0;
	for (sst_iter_seek_first(it); sst_iter_valid(it); sst_iter_next(it), i++)
	{
		ck_assert_uint_lt(i, n);
		assert_entry_is(sst_iter_entry(it), &rows[i]);
	}
	ck_assert_int_eq(sst_iter_status(it), RL_OK);
	ck_assert_uint_eq(i, n);
	ck_assert_ptr_null(sst_iter_entry(it));
	sst_iter_free(it);

	for (i = 0; type == SST_TYPE_DATA && i < n; i++)
	{
		SstEntry	e;

		ck_assert_int_eq(sst_get(r, rows[i].key, strlen(rows[i].key), rows[i].seq, &e), RL_OK);
		assert_entry_is(&e, &rows[i]);
	}
	sst_reader_free(r);
	sst_props_free(&written);
	rlbuf_free(&buf);
}

START_TEST(test_wal_roundtrip)
{
	TestRow    *rows = make_wal_rows(1000);

	check_roundtrip(SST_TYPE_WAL, 256, rows, 1000);
	check_roundtrip(SST_TYPE_WAL, SST_DEFAULT_BLOCK_SIZE, rows, 1000);
	check_roundtrip(SST_TYPE_WAL, 0, rows, 17);
	check_roundtrip(SST_TYPE_WAL, 256, rows, 1);
	free(rows);
}
END_TEST

START_TEST(test_data_roundtrip)
{
	size_t		n;
	TestRow    *rows = make_data_rows(700, &n);

	check_roundtrip(SST_TYPE_DATA, 256, rows, n);
	check_roundtrip(SST_TYPE_DATA, SST_DEFAULT_BLOCK_SIZE, rows, n);
	check_roundtrip(SST_TYPE_DATA, 64, rows, 40);	/* a block per row or two */
	check_roundtrip(SST_TYPE_DATA, 256, rows, 16);	/* exactly one restart interval */
	free(rows);
}
END_TEST

START_TEST(test_empty_sst)
{
	for (SstType type = SST_TYPE_WAL; type <= SST_TYPE_DATA; type++)
	{
		RlBuf		buf;
		SstReader  *r;
		SstIter    *it;
		SstEntry	e;

		rlbuf_init(&buf);
		check_roundtrip(type, 256, NULL, 0);
		build_sst(type, 256, NULL, 0, &buf, NULL);
		ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);
		ck_assert(sst_reader_may_contain(r, "x", 1));
		it = sst_iter_new(r);
		sst_iter_seek_first(it);
		ck_assert(!sst_iter_valid(it));
		ck_assert_int_eq(sst_iter_status(it), RL_OK);
		if (type == SST_TYPE_DATA)
		{
			sst_iter_seek(it, "x", 1);
			ck_assert(!sst_iter_valid(it));
			ck_assert_int_eq(sst_iter_status(it), RL_OK);
			ck_assert_int_eq(sst_get(r, "x", 1, UINT64_MAX, &e), RL_NOT_FOUND);
		}
		sst_iter_free(it);
		sst_reader_free(r);
		rlbuf_free(&buf);
	}
}
END_TEST

START_TEST(test_writer_size_grows)
{
	SstWriter  *w = sst_writer_new(SST_TYPE_DATA, 256);
	size_t		last = sst_writer_size(w);
	RlBuf		buf;
	char		key[16];

	rlbuf_init(&buf);
	for (int i = 0; i < 100; i++)
	{
		snprintf(key, sizeof(key), "k%04d", i);
		sst_writer_add(w, key, strlen(key), 1, SST_KIND_PUT, "value", 5);
		ck_assert_uint_gt(sst_writer_size(w), last);
		last = sst_writer_size(w);
	}
	sst_writer_finish(w, &buf, NULL);
	ck_assert_uint_ge(buf.len, last / 2);
	ck_assert_uint_le(buf.len, last * 2);
	sst_writer_free(w);
	rlbuf_free(&buf);
}
END_TEST

START_TEST(test_seek)
{
	SstWriter  *w = sst_writer_new(SST_TYPE_DATA, 256);
	RlBuf		buf;
	SstReader  *r;
	SstIter    *it;
	char		key[16];

	rlbuf_init(&buf);
	/* even keys k00000..k01998, two versions each */
	for (int i = 0; i < 2000; i += 2)
	{
		snprintf(key, sizeof(key), "k%05d", i);
		sst_writer_add(w, key, 6, (uint64_t) i + 2, SST_KIND_PUT, key, 6);
		sst_writer_add(w, key, 6, (uint64_t) i + 1, SST_KIND_DEL, NULL, 0);
	}
	sst_writer_finish(w, &buf, NULL);
	sst_writer_free(w);
	ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);
	it = sst_iter_new(r);

	for (int j = 0; j < 1999; j++)
	{
		int			expect = j + (j & 1);
		char		want[16];
		size_t		rest = 0;

		snprintf(key, sizeof(key), "k%05d", j);
		snprintf(want, sizeof(want), "k%05d", expect);
		sst_iter_seek(it, key, 6);
		ck_assert(sst_iter_valid(it));
		ck_assert_mem_eq(sst_iter_entry(it)->key, want, 6);
		ck_assert_uint_eq(sst_iter_entry(it)->seq, (uint64_t) expect + 2);	/* newest first */
		if (j % 97 != 0)
			continue;
		for (; sst_iter_valid(it); sst_iter_next(it))
			rest++;
		ck_assert_uint_eq(rest, (size_t) (2000 - expect));
	}
	sst_iter_seek(it, "", 0);
	ck_assert_mem_eq(sst_iter_entry(it)->key, "k00000", 6);
	sst_iter_seek(it, "k", 1);
	ck_assert_mem_eq(sst_iter_entry(it)->key, "k00000", 6);
	sst_iter_seek(it, "k019985", 7);
	ck_assert(!sst_iter_valid(it));
	sst_iter_seek(it, "z", 1);
	ck_assert(!sst_iter_valid(it));
	ck_assert_int_eq(sst_iter_status(it), RL_OK);
	sst_iter_free(it);
	sst_reader_free(r);
	rlbuf_free(&buf);
}
END_TEST

START_TEST(test_wal_rejects_data_operations)
{
	TestRow    *rows = make_wal_rows(50);
	RlBuf		buf;
	SstReader  *r;
	SstIter    *it;
	SstEntry	e;

	rlbuf_init(&buf);
	build_sst(SST_TYPE_WAL, 256, rows, 50, &buf, NULL);
	ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);
	ck_assert(sst_reader_may_contain(r, "absent", 6));	/* WAL SSTs carry no filter */
	ck_assert_int_eq(sst_get(r, rows[0].key, strlen(rows[0].key), UINT64_MAX, &e), RL_INVALID);
	it = sst_iter_new(r);
	sst_iter_seek(it, "a", 1);
	ck_assert(!sst_iter_valid(it));
	ck_assert_int_eq(sst_iter_status(it), RL_INVALID);
	sst_iter_free(it);
	sst_reader_free(r);
	rlbuf_free(&buf);
	free(rows);
}
END_TEST

/*
 * One hot key with 200 versions spanning many blocks (seq 1000 down to 5, every
 * fourth a tombstone) between two runs of cold keys: every max_seq must see exactly
 * the newest version at or below it.
 */
START_TEST(test_get_visibility)
{
	SstWriter  *w = sst_writer_new(SST_TYPE_DATA, 256);
	RlBuf		buf;
	SstReader  *r;
	SstEntry	e;
	char		key[16];

	rlbuf_init(&buf);
	for (int i = 0; i < 100; i++)
	{
		snprintf(key, sizeof(key), "a%03d", i);
		sst_writer_add(w, key, 4, 7, SST_KIND_PUT, key, 4);
	}
	for (uint64_t seq = 1000; seq >= 5; seq -= 5)
	{
		snprintf(key, sizeof(key), "v%04u", (unsigned) seq);
		sst_writer_add(w, "hot", 3, seq, seq % 20 == 0 ? SST_KIND_DEL : SST_KIND_PUT,
					   key, seq % 20 == 0 ? 0 : 5);
	}
	for (int i = 0; i < 100; i++)
	{
		snprintf(key, sizeof(key), "z%03d", i);
		sst_writer_add(w, key, 4, 9, SST_KIND_PUT, key, 4);
	}
	sst_writer_finish(w, &buf, NULL);
	sst_writer_free(w);
	ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);

	for (uint64_t max_seq = 0; max_seq <= 1010; max_seq++)
	{
		uint64_t	visible = max_seq > 1000 ? 1000 : max_seq / 5 * 5;
		RlStatus	st = sst_get(r, "hot", 3, max_seq, &e);

		if (visible == 0)
		{
			ck_assert_int_eq(st, RL_NOT_FOUND);
			continue;
		}
		ck_assert_int_eq(st, RL_OK);
		ck_assert_uint_eq(e.seq, visible);
		ck_assert_uint_eq(e.key_len, 3);
		ck_assert_mem_eq(e.key, "hot", 3);
		ck_assert_int_eq(e.kind, visible % 20 == 0 ? SST_KIND_DEL : SST_KIND_PUT);
		snprintf(key, sizeof(key), "v%04u", (unsigned) visible);
		ck_assert_uint_eq(e.value_len, visible % 20 == 0 ? 0 : 5);
		if (e.value_len)
			ck_assert_mem_eq(e.value, key, 5);
	}
	ck_assert_int_eq(sst_get(r, "a050", 4, UINT64_MAX, &e), RL_OK);
	ck_assert_mem_eq(e.value, "a050", 4);
	ck_assert_int_eq(sst_get(r, "a050", 4, 6, &e), RL_NOT_FOUND);
	ck_assert_int_eq(sst_get(r, "z099", 4, 9, &e), RL_OK);
	ck_assert_int_eq(sst_get(r, "ho", 2, UINT64_MAX, &e), RL_NOT_FOUND);
	ck_assert_int_eq(sst_get(r, "hot0", 4, UINT64_MAX, &e), RL_NOT_FOUND);
	ck_assert_int_eq(sst_get(r, "", 0, UINT64_MAX, &e), RL_NOT_FOUND);
	ck_assert_int_eq(sst_get(r, "zz", 2, UINT64_MAX, &e), RL_NOT_FOUND);
	sst_reader_free(r);
	rlbuf_free(&buf);
}
END_TEST

START_TEST(test_bloom_false_positive_rate)
{
	BloomBuilder *b = bloom_builder_new(42);
	RlBuf		filter;
	char		key[32];
	int			false_positives = 0;

	rlbuf_init(&filter);
	for (int i = 0; i < 10000; i++)
	{
		snprintf(key, sizeof(key), "present-%d", i);
		bloom_builder_add(b, key, strlen(key));
	}
	ck_assert_uint_eq(bloom_builder_count(b), 10000);
	bloom_builder_finish(b, 10, &filter);
	bloom_builder_free(b);
	ck_assert(bloom_valid(filter.data, filter.len));
	for (int i = 0; i < 10000; i++)
	{
		snprintf(key, sizeof(key), "present-%d", i);
		ck_assert(bloom_may_contain(filter.data, filter.len, key, strlen(key)));
	}
	for (int i = 0; i < 100000; i++)
	{
		snprintf(key, sizeof(key), "absent-%d", i);
		false_positives += bloom_may_contain(filter.data, filter.len, key, strlen(key));
	}
	ck_assert_int_le(false_positives, 2000);	/* 2% of 100000 */
	rlbuf_free(&filter);
}
END_TEST

START_TEST(test_bloom_format)
{
	BloomBuilder *b = bloom_builder_new(7);
	RlBuf		filter;

	ck_assert_uint_eq(bloom_hash("", 0, 0), BLOOM_HASH_EMPTY_SEED0);
	ck_assert_uint_eq(bloom_hash("rocklake-key", 12, 99), BLOOM_HASH_KEY_SEED99);
	ck_assert_uint_ne(bloom_hash("abc", 3, 1), bloom_hash("abc", 3, 2));

	rlbuf_init(&filter);
	bloom_builder_add(b, "a", 1);
	bloom_builder_add(b, "a", 1);	/* duplicates are harmless */
	bloom_builder_finish(b, 10, &filter);
	bloom_builder_free(b);
	ck_assert(bloom_valid(filter.data, filter.len));
	ck_assert_uint_eq(rl_load_u64le(filter.data), 7);	/* seed in the header */
	ck_assert(bloom_may_contain(filter.data, filter.len, "a", 1));

	/* malformed filters answer "maybe" */
	ck_assert(!bloom_valid(NULL, 0));
	ck_assert(bloom_may_contain(NULL, 0, "b", 1));
	ck_assert(!bloom_valid(filter.data, filter.len - 1));
	ck_assert(bloom_may_contain(filter.data, filter.len - 1, "b", 1));
	ck_assert(!bloom_valid(filter.data, 5));
	filter.data[12] = 0;		/* zero probes */
	ck_assert(!bloom_valid(filter.data, filter.len));
	ck_assert(bloom_may_contain(filter.data, filter.len, "b", 1));
	rlbuf_free(&filter);
}
END_TEST

/* How many of n absent keys the SST's filter rules out. */
static int
count_pruned(const uint8_t *data, size_t len, int n)
{
	SstReader  *r;
	char		key[32];
	int			pruned = 0;

	ck_assert_int_eq(sst_reader_open(data, len, &r), RL_OK);
	for (int i = 0; i < n; i++)
	{
		snprintf(key, sizeof(key), "absent-%d", i);
		pruned += !sst_reader_may_contain(r, key, strlen(key));
	}
	sst_reader_free(r);
	return pruned;
}

START_TEST(test_sst_filter_threshold)
{
	size_t		n;
	TestRow    *rows = make_data_rows(SST_BLOOM_MIN_KEYS * 10, &n);
	size_t		rows_with_min_keys = 0;
	RlBuf		buf;
	SstReader  *r;

	rlbuf_init(&buf);
	while (strcmp(rows[rows_with_min_keys].key, "key-000064") != 0)
		rows_with_min_keys++;

	/* many versions of fewer than SST_BLOOM_MIN_KEYS keys: no filter */
	build_sst(SST_TYPE_DATA, 256, rows, rows_with_min_keys - 1, &buf, NULL);
	ck_assert_int_eq(count_pruned(buf.data, buf.len, 1000), 0);
	build_sst(SST_TYPE_DATA, 256, rows, rows_with_min_keys, &buf, NULL);
	ck_assert_int_gt(count_pruned(buf.data, buf.len, 1000), 900);
	build_sst(SST_TYPE_DATA, 256, rows, n, &buf, NULL);
	ck_assert_int_gt(count_pruned(buf.data, buf.len, 1000), 950);

	ck_assert_int_eq(sst_reader_open(buf.data, buf.len, &r), RL_OK);
	for (size_t i = 0; i < n; i++)
		ck_assert(sst_reader_may_contain(r, rows[i].key, strlen(rows[i].key)));
	sst_reader_free(r);
	rlbuf_free(&buf);
	free(rows);
}
END_TEST

/*
 * A damaged SST must fail: at open or, at the latest, during a full iteration.
 * Lookups on it run too (their result is not asserted: they may not touch the
 * damage) so ASan sees every read path over the bad bytes.
 */
static void
assert_corrupt(const uint8_t *bytes, size_t len, size_t flipped_at)
{
	uint8_t    *copy = malloc(len ? len : 1);
	SstReader  *r;
	SstEntry	e;
	RlStatus	st;

	memcpy(copy, bytes, len);
	st = sst_reader_open(copy, len, &r);
	if (st == RL_OK)
	{
		SstIter    *it = sst_iter_new(r);

		for (sst_iter_seek_first(it); sst_iter_valid(it); sst_iter_next(it))
			;
		st = sst_iter_status(it);
		for (int k = 0; k < 80 && sst_reader_props(r)->type == SST_TYPE_DATA; k += 7)
		{
			char		key[16];

			snprintf(key, sizeof(key), "key-%06d", k);
			sst_iter_seek(it, key, strlen(key));
			RlStatus	get = sst_get(r, key, strlen(key), UINT64_MAX, &e);

			ck_assert(get == RL_OK || get == RL_NOT_FOUND || get == RL_CORRUPT);
		}
		sst_iter_free(it);
		sst_reader_free(r);
	}
	else
		ck_assert_ptr_null(r);
	ck_assert_msg(st == RL_CORRUPT, "damage at %zu of %zu bytes not detected (status %s)",
				  flipped_at, len, rl_status_name(st));
	ck_assert_str_ne(rl_last_error(), "");
	free(copy);
}

/* A ~3 KiB multi-block SST of the given type, with a filter when DATA. */
static void
build_small_sst(SstType type, RlBuf *buf)
{
	size_t		n = 150;
	TestRow    *rows = type == SST_TYPE_WAL ? make_wal_rows(n) : make_data_rows(80, &n);

	for (size_t i = 0; i < n; i++)
		rows[i].value_len = rows[i].value_len % 16;
	build_sst(type, 256, rows, n, buf, NULL);
	ck_assert_uint_gt(buf->len, 2048);
	ck_assert_uint_lt(buf->len, 4096);
	free(rows);
}

START_TEST(test_corrupt_every_byte)
{
	static const uint8_t masks[] = {0x01, 0x80, 0xff};
	SstType		type = _i ? SST_TYPE_DATA : SST_TYPE_WAL;
	RlBuf		buf;

	rlbuf_init(&buf);
	build_small_sst(type, &buf);
	for (size_t pos = 0; pos < buf.len; pos++)
		for (size_t m = 0; m < sizeof(masks); m++)
		{
			buf.data[pos] ^= masks[m];
			assert_corrupt(buf.data, buf.len, pos);
			buf.data[pos] ^= masks[m];
		}
	rlbuf_free(&buf);
}
END_TEST

START_TEST(test_corrupt_truncated_or_extended)
{
	SstType		type = _i ? SST_TYPE_DATA : SST_TYPE_WAL;
	RlBuf		buf;

	rlbuf_init(&buf);
	build_small_sst(type, &buf);
	for (size_t len = 0; len < buf.len; len++)
		assert_corrupt(buf.data, len, len);
	rlbuf_put_u8(&buf, 0);
	assert_corrupt(buf.data, buf.len, buf.len);
	rlbuf_free(&buf);
}
END_TEST

/* Rewrite a trailer field and re-seal the trailer CRC, so only the field is wrong. */
static void
assert_bad_trailer(const RlBuf *good, size_t field, const void *value, size_t value_len,
				   const char *error_part)
{
	uint8_t    *copy = malloc(good->len);
	uint8_t    *trailer = copy + good->len - SST_TRAILER_LEN;
	SstReader  *r;

	memcpy(copy, good->data, good->len);
	memcpy(trailer + field, value, value_len);
	rl_store_u32le(trailer + 20, crc32c(trailer, 20));
	ck_assert_int_eq(sst_reader_open(copy, good->len, &r), RL_CORRUPT);
	ck_assert_msg(strstr(rl_last_error(), error_part) != NULL, "error \"%s\" lacks \"%s\"",
				  rl_last_error(), error_part);
	free(copy);
}

START_TEST(test_corrupt_trailer_fields)
{
	static const uint8_t bad_magic[4] = {'X', 'S', 'M', 'L'};
	static const uint8_t format_2[2] = {2, 0};
	static const uint8_t huge_off[8] = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8_t huge_len[4] = {0xff, 0xff, 0xff, 0xff};
	static const uint8_t zero_off[8] = {0};
	RlBuf		buf;

	rlbuf_init(&buf);
	build_small_sst(SST_TYPE_DATA, &buf);
	assert_bad_trailer(&buf, 16, bad_magic, 4, "magic");
	assert_bad_trailer(&buf, 12, format_2, 2, "format");
	assert_bad_trailer(&buf, 0, huge_off, 8, "props");
	assert_bad_trailer(&buf, 8, huge_len, 4, "props");
	assert_bad_trailer(&buf, 0, zero_off, 8, "props");
	rlbuf_free(&buf);
}
END_TEST

static Suite *
sst_suite(void)
{
	Suite	   *s = suite_create("sst");
	TCase	   *codec = tcase_create("codec");
	TCase	   *bloom = tcase_create("bloom");
	TCase	   *corruption = tcase_create("corruption");

	tcase_add_test(codec, test_wal_roundtrip);
	tcase_add_test(codec, test_data_roundtrip);
	tcase_add_test(codec, test_empty_sst);
	tcase_add_test(codec, test_writer_size_grows);
	tcase_add_test(codec, test_seek);
	tcase_add_test(codec, test_wal_rejects_data_operations);
	tcase_add_test(codec, test_get_visibility);
	tcase_add_test(bloom, test_bloom_false_positive_rate);
	tcase_add_test(bloom, test_bloom_format);
	tcase_add_test(bloom, test_sst_filter_threshold);
	/* loop index 0: WAL SST, 1: DATA SST */
	tcase_add_loop_test(corruption, test_corrupt_every_byte, 0, 2);
	tcase_add_loop_test(corruption, test_corrupt_truncated_or_extended, 0, 2);
	tcase_add_test(corruption, test_corrupt_trailer_fields);
	tcase_set_timeout(corruption, 120);
	suite_add_tcase(s, codec);
	suite_add_tcase(s, bloom);
	suite_add_tcase(s, corruption);
	return s;
}

int
main(void)
{
	SRunner    *sr = srunner_create(sst_suite());
	int			failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
