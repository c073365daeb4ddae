/*
 * check_common.c: unit tests for the shared building blocks: RlBuf/RlReader
 * encodings, CRC-32C against its published check values (hardware and table paths
 * agree), and ULIDs.
 */
#include "common/crc32c.h"
#include "common/rl_buffer.h"
#include "common/rl_status.h"
#include "common/ulid.h"
#include "test_util.h"

START_TEST(test_crc32c_vectors)
{
	/* RFC 3720 B.4 and the standard check value */
	ck_assert_uint_eq(crc32c("123456789", 9), 0xE3069283U);
	uint8_t		zeros[32] = {0},
				ones[32];

	memset(ones, 0xff, sizeof(ones));
	ck_assert_uint_eq(crc32c(zeros, 32), 0x8A9136AAU);
	ck_assert_uint_eq(crc32c(ones, 32), 0x62A8AB43U);
	uint8_t		inc[32];

	for (int i = 0; i < 32; i++)
		inc[i] = (uint8_t) i;
	ck_assert_uint_eq(crc32c(inc, 32), 0x46DD794EU);
	/* extending in pieces equals one pass, at every split point */
	const char *text = "The quick brown fox jumps over the lazy dog, repeatedly.";
	size_t		n = strlen(text);

	for (size_t split = 0; split <= n; split++)
		ck_assert_uint_eq(crc32c_extend(crc32c(text, split), text + split, n - split), crc32c(text, n));
}
END_TEST

START_TEST(test_buffer_roundtrip)
{
	RlBuf		b;
	RlReader	r;
	uint64_t	values[] = {0, 1, 127, 128, 300, 16383, 16384, UINT32_MAX, UINT64_MAX};

	rlbuf_init(&b);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		rlbuf_put_varint(&b, values[i]);
	rlbuf_put_u32le(&b, 0xdeadbeef);
	rlbuf_put_u64le(&b, 0x0102030405060708ULL);
	rlbuf_put_u64be(&b, 0x0102030405060708ULL);
	rlreader_init(&r, b.data, b.len);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		ck_assert_uint_eq(rlreader_varint(&r), values[i]);
	ck_assert_uint_eq(rlreader_u32le(&r), 0xdeadbeef);
	ck_assert_uint_eq(rlreader_u64le(&r), 0x0102030405060708ULL);
	const uint8_t *be = rlreader_bytes(&r, 8);

	ck_assert_ptr_nonnull(be);
	ck_assert_uint_eq(be[0], 1);
	ck_assert_uint_eq(rl_load_u64be(be), 0x0102030405060708ULL);
	ck_assert(!r.failed);
	ck_assert_uint_eq(rlreader_remaining(&r), 0);
	/* reading past the end fails and stays failed */
	ck_assert_uint_eq(rlreader_u32le(&r), 0);
	ck_assert(r.failed);
	ck_assert_ptr_null(rlreader_bytes(&r, 0));
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_varint_truncated)
{
	uint8_t		bad[] = {0x80, 0x80};
	uint8_t		endless[11];
	RlReader	r;

	rlreader_init(&r, bad, sizeof(bad));
	rlreader_varint(&r);
	ck_assert(r.failed);
	memset(endless, 0xff, sizeof(endless));
	rlreader_init(&r, endless, sizeof(endless));
	rlreader_varint(&r);
	ck_assert(r.failed);
}
END_TEST

START_TEST(test_printf_and_cstr)
{
	RlBuf		b;

	rlbuf_init(&b);
	rlbuf_printf(&b, "%s-%d", "abc", 42);
	rlbuf_append_str(&b, "!");
	ck_assert_str_eq(rlbuf_cstr(&b), "abc-42!");
	ck_assert_uint_eq(b.len, 7);
	rlbuf_reset(&b);
	rlbuf_append_int(&b, 0);
	rlbuf_append_str(&b, " ");
	rlbuf_append_int(&b, 1234567);
	rlbuf_append_str(&b, " ");
	rlbuf_append_int(&b, INT64_MIN);
	rlbuf_append_str(&b, " ");
	rlbuf_append_int(&b, INT64_MAX);
	ck_assert_str_eq(rlbuf_cstr(&b), "0 1234567 -9223372036854775808 9223372036854775807");
	rlbuf_free(&b);
}
END_TEST

/* rlbuf_put_utf8: one to four bytes, at each length's edges */
START_TEST(test_put_utf8)
{
	RlBuf		b;
	const uint32_t cps[] = {0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF};
	const char *expect = "A\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf";

	rlbuf_init(&b);
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++)
		rlbuf_put_utf8(&b, cps[i]);
	ck_assert_uint_eq(b.len, strlen(expect));
	ck_assert(memcmp(b.data, expect, b.len) == 0);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_hex)
{
	RlBuf		b;
	const uint8_t bytes[] = {0x00, 0x7f, 0x80, 0xff, 0x1a};

	rlbuf_init(&b);
	rlbuf_append_hex(&b, bytes, sizeof(bytes));
	ck_assert_str_eq(rlbuf_cstr(&b), "007f80ff1a");
	rlbuf_reset(&b);
	ck_assert(rlbuf_append_unhex(&b, "007F80ff1a"));
	ck_assert_uint_eq(b.len, 5);
	ck_assert_int_eq(memcmp(b.data, bytes, 5), 0);
	ck_assert(!rlbuf_append_unhex(&b, "abc"));
	ck_assert(!rlbuf_append_unhex(&b, "zz"));
	ck_assert(!rlbuf_append_unhex(&b, " 1"));
	ck_assert_uint_eq(b.len, 5);
	rlbuf_free(&b);
}
END_TEST

/* An error wrapped in the text of the one it came from, as every layer does. */
START_TEST(test_error_wraps_last_error)
{
	rl_error(RL_UNAVAILABLE, "gave up after %d attempts", 6);
	ck_assert_int_eq(rl_error(RL_UNKNOWN_OUTCOME, "WAL write %s failed: %s", "wal/1", rl_last_error()),
					 RL_UNKNOWN_OUTCOME);
	ck_assert_str_eq(rl_last_error(), "WAL write wal/1 failed: gave up after 6 attempts");
	rl_error(RL_IO_ERROR, "%s: %s", "store", rl_last_error());
	ck_assert_str_eq(rl_last_error(), "store: WAL write wal/1 failed: gave up after 6 attempts");
}
END_TEST

START_TEST(test_ulid)
{
	char		a[ULID_LEN + 1],
				b[ULID_LEN + 1];
	int64_t		t = 1760000000123;

	ulid_generate(a, t);
	ulid_generate(b, t + 1);
	ck_assert_uint_eq(strlen(a), ULID_LEN);
	ck_assert_int_eq(ulid_time_ms(a), t);
	ck_assert_int_eq(ulid_time_ms(b), t + 1);
	ck_assert_int_lt(strcmp(a, b), 0);
	ck_assert_int_eq(ulid_time_ms("not-a-ulid"), -1);
	ck_assert_int_eq(ulid_time_ms("ILOU0000000000000000000000"), -1);

	char		h1[33],
				h2[33];

	rl_random_hex(h1, 16);
	rl_random_hex(h2, 16);
	ck_assert_uint_eq(strlen(h1), 32);
	ck_assert_str_ne(h1, h2);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("common");
	TCase	   *tc = tcase_create("core");

	tcase_add_test(tc, test_crc32c_vectors);
	tcase_add_test(tc, test_buffer_roundtrip);
	tcase_add_test(tc, test_varint_truncated);
	tcase_add_test(tc, test_printf_and_cstr);
	tcase_add_test(tc, test_put_utf8);
	tcase_add_test(tc, test_error_wraps_last_error);
	tcase_add_test(tc, test_hex);
	tcase_add_test(tc, test_ulid);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
