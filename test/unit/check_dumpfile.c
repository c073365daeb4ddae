/*
 * check_dumpfile.c: rocklake-admin's dump format (admin/dumpfile.h): a round trip
 * keeps the header and every record bit for bit; every flipped byte, every
 * truncation and an extra byte are refused before any record is handed over; keys
 * out of order, a wrong count under a valid checksum, an unknown magic or version
 * are refused; a streamed file equals the one built in memory.
 */
#include "admin/dumpfile.h"
#include "common/crc32c.h"
#include "test_util.h"

typedef struct Collected
{
	int			n;
	RlBuf		all;			/* key, value, ... each with its length */
} Collected;

static bool
collect(const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen, void *arg)
{
	Collected  *c = arg;

	rlbuf_put_u32be(&c->all, (uint32_t) klen);
	rlbuf_append(&c->all, key, klen);
	rlbuf_put_u32be(&c->all, (uint32_t) vlen);
	rlbuf_append(&c->all, value, vlen);
	c->n++;
	return true;
}

static void
sample_header(DumpHeader *h)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->rocklake_version, sizeof(h->rocklake_version), "9.8.7");
	snprintf(h->database, sizeof(h->database), "lake");
	snprintf(h->store_uuid, sizeof(h->store_uuid), "0123456789abcdef0123456789abcdef");
	h->datid = 3;
	h->commit_seq = 88411;
	h->manifest_id = 42;
	h->dumped_ms = 1760000000123;
}

/* a dump of three records, one with an empty value and NUL bytes, in w->buf */
static void
sample_dump(DumpWriter *w)
{
	DumpHeader	h;

	sample_header(&h);
	dump_writer_begin(w, NULL, &h);
	dump_writer_record(w, (const uint8_t *) "\x01\x00k", 3, (const uint8_t *) "v\0w", 3);
	dump_writer_record(w, (const uint8_t *) "\x01\x00k\x00", 4, (const uint8_t *) "", 0);
	dump_writer_record(w, (const uint8_t *) "\xff", 1, (const uint8_t *) "last", 4);
	ck_assert_int_eq(dump_writer_finish(w), RL_OK);
}

START_TEST(test_roundtrip)
{
	DumpWriter	w;
	DumpHeader	h;
	uint64_t	count = 0;
	Collected	c = {0};

	sample_dump(&w);
	ck_assert_uint_eq(w.bytes, w.buf.len);
	rlbuf_init(&c.all);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_OK);
	ck_assert_uint_eq(count, 3);
	ck_assert_int_eq(c.n, 3);
	ck_assert_uint_eq(h.format_version, DUMP_FORMAT_VERSION);
	ck_assert_str_eq(h.rocklake_version, "9.8.7");
	ck_assert_str_eq(h.database, "lake");
	ck_assert_str_eq(h.store_uuid, "0123456789abcdef0123456789abcdef");
	ck_assert_uint_eq(h.datid, 3);
	ck_assert_uint_eq(h.commit_seq, 88411);
	ck_assert_uint_eq(h.manifest_id, 42);
	ck_assert_int_eq(h.dumped_ms, 1760000000123);
	ck_assert_uint_eq(c.all.len, 4 + 3 + 4 + 3 + 4 + 4 + 4 + 0 + 4 + 1 + 4 + 4);
	ck_assert_mem_eq(c.all.data, "\0\0\0\3\x01\x00k\0\0\0\3v\0w", 14);
	rlbuf_free(&c.all);
	dump_writer_free(&w);
}
END_TEST

START_TEST(test_damage_refused)
{
	DumpWriter	w;
	DumpHeader	h;
	uint64_t	count;
	Collected	c = {0};

	sample_dump(&w);
	rlbuf_init(&c.all);
	for (size_t i = 0; i < w.buf.len; i++)
	{
		w.buf.data[i] ^= 0x10;
		ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
		w.buf.data[i] ^= 0x10;
	}
	for (size_t len = 0; len < w.buf.len; len++)
		ck_assert_int_eq(dump_read(w.buf.data, len, &h, &count, collect, &c), RL_CORRUPT);
	rlbuf_put_u8(&w.buf, 0);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
	ck_assert_int_eq(c.n, 0);
	rlbuf_free(&c.all);
	dump_writer_free(&w);
}
END_TEST

/* re-seal bytes with a valid checksum, as a damaged writer would */
static void
reseal(RlBuf *b)
{
	uint32_t	crc = crc32c(b->data, b->len - 4);

	b->data[b->len - 4] = (uint8_t) (crc >> 24);
	b->data[b->len - 3] = (uint8_t) (crc >> 16);
	b->data[b->len - 2] = (uint8_t) (crc >> 8);
	b->data[b->len - 1] = (uint8_t) crc;
}

START_TEST(test_layout_checks)
{
	DumpWriter	w;
	DumpHeader	h;
	uint64_t	count;
	Collected	c = {0};

	rlbuf_init(&c.all);
	/* keys out of order, under a valid checksum */
	sample_header(&h);
	dump_writer_begin(&w, NULL, &h);
	dump_writer_record(&w, (const uint8_t *) "b", 1, (const uint8_t *) "1", 1);
	dump_writer_record(&w, (const uint8_t *) "a", 1, (const uint8_t *) "2", 1);
	ck_assert_int_eq(dump_writer_finish(&w), RL_OK);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
	dump_writer_free(&w);
	/* a count that does not match */
	sample_dump(&w);
	w.buf.data[w.buf.len - 5] = 4;
	reseal(&w.buf);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
	/* another version, another magic */
	w.buf.data[w.buf.len - 5] = 3;
	w.buf.data[DUMP_MAGIC_LEN + 3] = 2;
	reseal(&w.buf);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "version 2 is not supported"));
	w.buf.data[DUMP_MAGIC_LEN + 3] = DUMP_FORMAT_VERSION;
	w.buf.data[0] = 'X';
	reseal(&w.buf);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, collect, &c), RL_CORRUPT);
	w.buf.data[0] = 'R';
	reseal(&w.buf);
	ck_assert_int_eq(dump_read(w.buf.data, w.buf.len, &h, &count, NULL, NULL), RL_OK);
	ck_assert_int_eq(c.n, 0);
	rlbuf_free(&c.all);
	dump_writer_free(&w);
}
END_TEST

/* a file written in pieces (records past the flush size) equals the one in memory */
START_TEST(test_streamed)
{
	DumpWriter	mem,
				file;
	DumpHeader	h;
	char	   *dir = test_mkdtemp();
	char		path[512];
	static uint8_t value[300 * 1024];
	FILE	   *f;
	RlBuf		back;
	uint64_t	count;

	snprintf(path, sizeof(path), "%s/d.dump", dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	sample_header(&h);
	memset(value, 0xab, sizeof(value));
	dump_writer_begin(&mem, NULL, &h);
	dump_writer_begin(&file, f, &h);
	for (uint32_t i = 0; i < 10; i++)
	{
		uint8_t		key[4] = {0, 0, 0, (uint8_t) i};

		dump_writer_record(&mem, key, 4, value, sizeof(value) - i);
		dump_writer_record(&file, key, 4, value, sizeof(value) - i);
	}
	ck_assert_int_eq(dump_writer_finish(&mem), RL_OK);
	ck_assert_int_eq(dump_writer_finish(&file), RL_OK);
	fclose(f);
	ck_assert_uint_eq(file.bytes, mem.buf.len);
	rlbuf_init(&back);
	f = fopen(path, "rb");
	rlbuf_reserve(&back, mem.buf.len + 1);
	back.len = fread(back.data, 1, mem.buf.len + 1, f);
	fclose(f);
	ck_assert_uint_eq(back.len, mem.buf.len);
	ck_assert_mem_eq(back.data, mem.buf.data, back.len);
	ck_assert_int_eq(dump_read(back.data, back.len, &h, &count, NULL, NULL), RL_OK);
	ck_assert_uint_eq(count, 10);
	rlbuf_free(&back);
	dump_writer_free(&mem);
	dump_writer_free(&file);
	test_rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("dumpfile");
	TCase	   *tc = tcase_create("format");

	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_damage_refused);
	tcase_add_test(tc, test_layout_checks);
	tcase_add_test(tc, test_streamed);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
