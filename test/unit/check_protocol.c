/*
 * check_protocol.c: unit tests for the wire-protocol layer: SCRAM-SHA-256 against
 * RFC 7677's exchange and a verifier PostgreSQL made, md5 against a captured
 * exchange, hba rule matching, the message reader's bounds checks, type I/O
 * round trips (text and binary, with PostgreSQL's exact forms) and the COPY
 * formats, including input split at every byte.
 */
#include <openssl/evp.h>

#include "commands/copyfmt.h"
#include "libpq/auth.h"
#include "libpq/hba.h"
#include "libpq/pqformat.h"
#include "test_util.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"

/* expect_error -- run body; true if it raised ERROR (the report is dropped) */
#define EXPECT_ERROR(body) \
	do { \
		sigjmp_buf	jb; \
		volatile bool raised = false; \
		sigjmp_buf *volatile saved = PG_exception_stack; \
		if (sigsetjmp(jb, 1) == 0) \
		{ \
			PG_exception_stack = &jb; \
			body; \
		} \
		else \
		{ \
			raised = true; \
			FlushErrorState(); \
		} \
		PG_exception_stack = saved; \
		ck_assert_msg(raised, "expected an ERROR from: %s", #body); \
	} while (0)

START_TEST(test_scram_rfc7677)
{
	static const char salt_b64[] = "W22ZaJ0SNY7soEsUEjb6gQ==";
	uint8_t		salt[18];

	ck_assert_int_eq(EVP_DecodeBlock(salt, (const unsigned char *) salt_b64, 24), 18);
	char	   *verifier = scram_build_verifier("pencil", salt, 16, 4096);
	ScramState *st = scram_begin("user", verifier, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
	char	   *out;
	size_t		outlen;
	const char *first = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
	const char *final = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
		"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

	ck_assert_int_eq(scram_exchange(st, first, strlen(first), &out, &outlen), SCRAM_CONTINUE);
	ck_assert_str_eq(out, "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
					 "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
	ck_assert_int_eq(scram_exchange(st, final, strlen(final), &out, &outlen), SCRAM_SUCCESS);
	ck_assert_str_eq(out, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");

	/* the same exchange with a wrong proof fails; so does a mock exchange */
	const char *bad = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
		"p=AAAAZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

	st = scram_begin("user", verifier, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
	scram_exchange(st, first, strlen(first), &out, &outlen);
	ck_assert_int_eq(scram_exchange(st, bad, strlen(bad), &out, &outlen), SCRAM_FAILURE);
	st = scram_begin("user", NULL, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
	scram_exchange(st, first, strlen(first), &out, &outlen);
	ck_assert_int_eq(scram_exchange(st, final, strlen(final), &out, &outlen), SCRAM_FAILURE);
}
END_TEST

START_TEST(test_scram_postgres_verifier)
{
	/* made by PostgreSQL 15 for password "sc" (its pg_authid.rolpassword) */
	static const char pg[] = "SCRAM-SHA-256$4096:+OjQbVmZs8ORO+jXhNQgiw==$"
		"zknJJ6DGYCKr5SYKrESiI0utT70xyjPfNJkbty/TaxY=:uC++SgXqWkd++fsFFknLythuBUVmm9twjVKZKsUr9C0=";
	uint8_t		salt[18];

	ck_assert_int_eq(EVP_DecodeBlock(salt, (const unsigned char *) "+OjQbVmZs8ORO+jXhNQgiw==", 24), 18);
	ck_assert_str_eq(scram_build_verifier("sc", salt, 16, 4096), pg);
	ck_assert(verify_plain_password("scramu", pg, "sc"));
	ck_assert(!verify_plain_password("scramu", pg, "wrong"));
	ck_assert(!verify_plain_password("scramu", pg, ""));
	char	   *fresh = make_password_verifier("scram-sha-256", "u", "secret");

	ck_assert(strncmp(fresh, "SCRAM-SHA-256$4096:", 19) == 0);
	ck_assert(verify_plain_password("u", fresh, "secret"));
	ck_assert_ptr_null(make_password_verifier("crypt", "u", "secret"));

	/* malformed client messages are FATAL; here only the parse of a good one is checked */
	ScramState *st = scram_begin("u", fresh, NULL);
	char	   *out;
	size_t		outlen;

	ck_assert_int_eq(scram_exchange(st, "y,,n=*,r=abc", 12, &out, &outlen), SCRAM_CONTINUE);
	ck_assert(strncmp(out, "r=abc", 5) == 0);
}
END_TEST

START_TEST(test_md5)
{
	/* captured: user md5u, password m5, salt f3eb3813 */
	const uint8_t salt[4] = {0xf3, 0xeb, 0x38, 0x13};
	char	   *verifier = md5_build_verifier("md5u", "m5");

	ck_assert_int_eq(strlen(verifier), MD5_PASSWD_LEN);
	ck_assert(md5_check_response(verifier, salt, "md5c8245bb224905df65ee53dfa16a6461a"));
	ck_assert(!md5_check_response(verifier, salt, "md5c8245bb224905df65ee53dfa16a6461b"));
	ck_assert(!md5_check_response(NULL, salt, "md5c8245bb224905df65ee53dfa16a6461a"));
	ck_assert(verify_plain_password("md5u", verifier, "m5"));
	ck_assert(!verify_plain_password("other", verifier, "m5"));
	ck_assert_str_eq(make_password_verifier("md5", "md5u", "m5"), verifier);
}
END_TEST

static UserAuth
lookup(const HbaRules *rules, bool is_unix, bool ssl, const char *host, const char *user,
	   const char *db, bool *found)
{
	HbaConnInfo conn = {is_unix, ssl, host, user, db};
	UserAuth	method = uaReject;

	*found = hba_lookup(rules, &conn, &method);
	return method;
}

START_TEST(test_hba)
{
	char	   *err = NULL;
	HbaRules   *rules = hba_parse(
								  "# comment\n"
								  "local   all        all                     trust\n"
								  "host    lake,\"All\" alice  127.0.0.1/32     password  # trailing\n"
								  "hostssl all        bob    10.0.0.0 255.0.0.0 md5\n"
								  "hostnossl sameuser all   ::1/128          reject\n"
								  "host    all        all    0.0.0.0/0        scram-sha-256\n",
								  "test", &err);
	bool		found;

	ck_assert_ptr_nonnull(rules);
	ck_assert_int_eq(lookup(rules, true, false, "[local]", "x", "y", &found), uaTrust);
	ck_assert(found);
	ck_assert_int_eq(lookup(rules, false, false, "127.0.0.1", "alice", "lake", &found), uaPassword);
	ck_assert_int_eq(lookup(rules, false, false, "127.0.0.1", "alice", "All", &found), uaPassword);
	/* "all" quoted is a database named all; unquoted all would match anything */
	ck_assert_int_eq(lookup(rules, false, false, "127.0.0.1", "alice", "other", &found), uaSCRAM);
	ck_assert_int_eq(lookup(rules, false, true, "10.1.2.3", "bob", "d", &found), uaMD5);
	ck_assert_int_eq(lookup(rules, false, false, "10.1.2.3", "bob", "d", &found), uaSCRAM);
	ck_assert_int_eq(lookup(rules, false, false, "::1", "carol", "carol", &found), uaReject);
	ck_assert(found);
	/* IPv6 other than ::1 matches nothing: no line for it */
	lookup(rules, false, false, "::2", "carol", "carol", &found);
	ck_assert(!found);

	ck_assert_ptr_null(hba_parse("host all all 127.0.0.1/33 trust\n", "f", &err));
	ck_assert(strstr(err, "line 1") != NULL);
	ck_assert_ptr_null(hba_parse("local all all\n", "f", &err));
	ck_assert_ptr_null(hba_parse("local all all ident\n", "f", &err));
	ck_assert_ptr_null(hba_parse("remote all all trust\n", "f", &err));
	ck_assert_str_eq(hba_method_name(uaSCRAM), "scram-sha-256");

	/* no file: trust for local and loopback only */
	rules = hba_load("/nonexistent/rocklake_hba.conf");
	ck_assert_int_eq(lookup(rules, false, false, "127.0.0.1", "u", "d", &found), uaTrust);
	lookup(rules, false, false, "192.168.1.1", "u", "d", &found);
	ck_assert(!found);
}
END_TEST

/* utf8_encode -- a code point in UTF-8's plain form (surrogates too), its length */
static int
utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80)
		return out[0] = (char) cp, 1;
	if (cp < 0x800)
		return out[0] = (char) (0xc0 | cp >> 6), out[1] = (char) (0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000)
		return out[0] = (char) (0xe0 | cp >> 12), out[1] = (char) (0x80 | ((cp >> 6) & 0x3f)),
			out[2] = (char) (0x80 | (cp & 0x3f)), 3;
	out[0] = (char) (0xf0 | cp >> 18);
	out[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char) (0x80 | (cp & 0x3f));
	return 4;
}

/* utf8_error -- the message pg_verify_utf8 raises for s, NULL if none */
static char *
utf8_error(const char *s, size_t len)
{
	sigjmp_buf	jb;
	sigjmp_buf *volatile saved = PG_exception_stack;
	char	   *volatile message = NULL;

	if (sigsetjmp(jb, 1) == 0)
	{
		PG_exception_stack = &jb;
		pg_verify_utf8(s, len);
	}
	else
	{
		ErrorData  *e = CopyErrorData();

		ck_assert_str_eq(e->sqlstate, "22021");
		message = pstrdup(e->message);
		FlushErrorState();
	}
	PG_exception_stack = saved;
	return message;
}

START_TEST(test_utf8)
{
	char		buf[64];
	static const struct
	{
		const char *bytes;
		size_t		len;
		const char *shown;		/* what PostgreSQL 15 reports */
	}			bad[] = {
		{"\xff", 1, "0xff"},
		{"a\xc3\x28", 3, "0xc3 0x28"},
		{"\xe2\x82", 2, "0xe2 0x82"},
		{"\xe2\x82'", 3, "0xe2 0x82 0x27"},
		{"\xe2(ab", 4, "0xe2 0x28 0x61"},
		{"\xed\xa0\x80", 3, "0xed 0xa0 0x80"},	/* U+D800 */
		{"\xc0\xaf", 2, "0xc0 0xaf"},	/* overlong '/' */
		{"\xe0\x80\xaf", 3, "0xe0 0x80 0xaf"},
		{"\xf0\x80\x80\xaf", 4, "0xf0 0x80 0x80 0xaf"},
		{"\xf4\x90\x80\x80", 4, "0xf4 0x90 0x80 0x80"},	/* U+110000 */
		{"\xf8\x88\x80\x80\x80", 5, "0xf8"},
		{"0123456789ok\x80", 13, "0x80"},
		{"\xf0\x9f\x98\x80\xff", 5, "0xff"},
		{"abcdefgh\0ijk", 12, "0x00"},
	};

	/* code points of every length and plane: valid but for NUL and the surrogates */
	for (uint32_t cp = 0; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 61)
	{
		int			n = utf8_encode(cp, buf);
		bool		ok = cp != 0 && (cp < 0xd800 || cp > 0xdfff);

		if (pg_utf8_is_valid(buf, (size_t) n) != ok)
			ck_abort_msg("U+%04X", cp);
		if (ok && n > 1 && pg_utf8_valid_prefix(buf, (size_t) n - 1) != 0)	/* cut short */
			ck_abort_msg("U+%04X cut short", cp);
	}
	/* the ASCII fast path finds a NUL or a high byte at any place */
	for (size_t at = 0; at < 40; at++)
	{
		memset(buf, 'a', 40);
		buf[at] = '\0';
		ck_assert_uint_eq(pg_utf8_valid_prefix(buf, 40), at);
		buf[at] = (char) 0xc3;
		ck_assert_uint_eq(pg_utf8_valid_prefix(buf, 40), at);
		buf[at + 1 < 40 ? at + 1 : at] = (char) 0xa9;
		ck_assert_uint_eq(pg_utf8_valid_prefix(buf, 40), at + 1 < 40 ? 40 : at);
	}
	ck_assert(pg_utf8_is_valid("", 0));
	ck_assert(pg_utf8_is_valid("\xf4\x8f\xbf\xbf", 4));	/* U+10FFFF */
	ck_assert_ptr_null(utf8_error("plain ASCII, then \xc3\xa9 \xf0\x9f\x98\x80", 25));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		char	   *m = utf8_error(bad[i].bytes, bad[i].len);

		ck_assert_ptr_nonnull(m);
		ck_assert_str_eq(m, psprintf("invalid byte sequence for encoding \"UTF8\": %s", bad[i].shown));
	}
}
END_TEST

START_TEST(test_pqformat)
{
	RlBuf		buf;
	PqMsgBuilder msg;
	PqMsgReader r;

	rlbuf_init(&buf);
	pq_beginmessage(&msg, &buf, PqMsg_ParameterStatus);
	pq_sendstring(&msg, "a");
	pq_sendint16(&msg, 0x1234);
	pq_sendint32(&msg, 0xdeadbeef);
	pq_sendint64(&msg, UINT64_C(0x0102030405060708));
	pq_sendbyte(&msg, 7);
	pq_endmessage(&msg);
	ck_assert_int_eq(buf.len, 1 + 4 + 2 + 2 + 4 + 8 + 1);
	ck_assert_int_eq(buf.data[0], 'S');
	ck_assert_uint_eq(rl_load_u32be(buf.data + 1), buf.len - 1);

	pq_initreader(&r, 'S', buf.data + 5, buf.len - 5);
	ck_assert_str_eq(pq_getmsgstring(&r), "a");
	ck_assert_int_eq(pq_getmsgint16(&r), 0x1234);
	ck_assert_uint_eq((uint32_t) pq_getmsgint32(&r), 0xdeadbeef);
	ck_assert(pq_getmsgint64(&r) == INT64_C(0x0102030405060708));
	ck_assert_int_eq(pq_getmsgremaining(&r), 1);
	EXPECT_ERROR(pq_getmsgend(&r));
	ck_assert_int_eq(pq_getmsgbyte(&r), 7);
	pq_getmsgend(&r);
	EXPECT_ERROR(pq_getmsgbyte(&r));

	/* truncated integers, an unterminated string, an overlong byte run */
	static const uint8_t three[] = {1, 2, 3};

	pq_initreader(&r, 'X', three, 3);
	EXPECT_ERROR(pq_getmsgint32(&r));
	ck_assert_int_eq(pq_getmsgint16(&r), 0x0102);
	EXPECT_ERROR(pq_getmsgint16(&r));
	pq_initreader(&r, 'X', "abc", 3);
	EXPECT_ERROR(pq_getmsgstring(&r));
	EXPECT_ERROR(pq_getmsgbytes(&r, 4));
	ck_assert_int_eq(pq_getmsgbytes(&r, 3)[2], 'c');
	pq_initreader(&r, 'X', three, 3);
	EXPECT_ERROR(pq_getmsgint64(&r));
	rlbuf_free(&buf);
}
END_TEST

/* text_roundtrip -- input, output equals expected; binary send/receive preserves it */
static void
text_roundtrip(Oid type, const char *in, const char *expected)
{
	Value		v = typio_input(type, in, -1);
	char	   *out = typio_output(&v, NULL);

	ck_assert_msg(strcmp(out, expected) == 0, "type %u: \"%s\" -> \"%s\", expected \"%s\"",
				  type, in, out, expected);
	RlBuf		buf;
	PqMsgBuilder msg = {.buf = &buf};

	rlbuf_init(&buf);
	typio_send(&msg, &v);
	Value		back = typio_receive(type, buf.data, buf.len);

	ck_assert_str_eq(typio_output(&back, NULL), expected);
	rlbuf_free(&buf);
}

START_TEST(test_typio_roundtrip)
{
	text_roundtrip(BOOLOID, " TRUE ", "t");
	text_roundtrip(BOOLOID, "of", "f");
	text_roundtrip(BOOLOID, "0", "f");
	text_roundtrip(INT2OID, "-32768", "-32768");
	text_roundtrip(INT4OID, " 42 ", "42");
	text_roundtrip(INT8OID, "-9223372036854775808", "-9223372036854775808");
	text_roundtrip(OIDOID, "4294967295", "4294967295");
	text_roundtrip(FLOAT8OID, "0.1", "0.1");
	text_roundtrip(FLOAT8OID, "100", "100");
	text_roundtrip(FLOAT8OID, "1e15", "1e+15");
	text_roundtrip(FLOAT8OID, "123456789012345", "123456789012345");
	text_roundtrip(FLOAT8OID, "0.000015", "1.5e-05");
	text_roundtrip(FLOAT8OID, "-Infinity", "-Infinity");
	text_roundtrip(FLOAT8OID, "nan", "NaN");
	text_roundtrip(FLOAT4OID, "3.14159", "3.14159");
	text_roundtrip(FLOAT4OID, "1000000", "1e+06");
	text_roundtrip(NUMERICOID, "1.50", "1.50");
	text_roundtrip(NUMERICOID, "-000123.4500", "-123.4500");
	text_roundtrip(NUMERICOID, "1.5e3", "1500");
	text_roundtrip(NUMERICOID, "0.00012", "0.00012");
	text_roundtrip(NUMERICOID, "123456789.000000001", "123456789.000000001");
	text_roundtrip(NUMERICOID, "0", "0");
	text_roundtrip(NUMERICOID, "NaN", "NaN");
	text_roundtrip(TEXTOID, "héllo", "héllo");
	text_roundtrip(BYTEAOID, "\\x00ff10", "\\x00ff10");
	text_roundtrip(BYTEAOID, "a\\\\b\\001", "\\x615c6201");
	text_roundtrip(DATEOID, "2024-02-29", "2024-02-29");
	text_roundtrip(DATEOID, "1999-12-31 23:00:00", "1999-12-31");
	text_roundtrip(DATEOID, "0044-03-15 BC", "0044-03-15 BC");
	text_roundtrip(TIMEOID, "12:34:56.789", "12:34:56.789");
	text_roundtrip(TIMESTAMPOID, "2026-11-29T14:18:02.026", "2026-11-29 14:18:02.026");
	text_roundtrip(TIMESTAMPTZOID, "2026-11-29 16:18:02+02", "2026-11-29 14:18:02+00");
	text_roundtrip(TIMESTAMPTZOID, "infinity", "infinity");
	text_roundtrip(INTERVALOID, "1 year 2 mons 3 days 04:05:06.5", "1 year 2 mons 3 days 04:05:06.5");
	text_roundtrip(INTERVALOID, "90 minutes", "01:30:00");
	text_roundtrip(INTERVALOID, "-1 days", "-1 days");
	text_roundtrip(UUIDOID, "{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
	text_roundtrip(JSONBOID, "{\"a\": 1}", "{\"a\": 1}");
	text_roundtrip(VARCHAROID, "v", "v");
}
END_TEST

START_TEST(test_typio_binary_and_errors)
{
	/* numeric 1.50 as PostgreSQL sends it (captured) */
	static const uint8_t one_fifty[] = {0, 2, 0, 0, 0, 0, 0, 2, 0, 1, 0x13, 0x88};
	Value		v = typio_input(NUMERICOID, "1.50", -1);
	RlBuf		buf;
	PqMsgBuilder msg = {.buf = &buf};

	rlbuf_init(&buf);
	typio_send(&msg, &v);
	ck_assert_int_eq(buf.len, sizeof(one_fifty));
	ck_assert(memcmp(buf.data, one_fifty, sizeof(one_fifty)) == 0);
	rlbuf_reset(&buf);
	v = typio_input(NUMERICOID, "-12345678.9", -1);
	typio_send(&msg, &v);
	Value		back = typio_receive(NUMERICOID, buf.data, buf.len);

	ck_assert_str_eq(typio_output(&back, NULL), "-12345678.9");
	v = typio_input(NUMERICOID, "3.14159", (10 << 16 | 2) + 4);	/* numeric(10,2) */
	ck_assert_str_eq(typio_output(&v, NULL), "3.14");
	rlbuf_free(&buf);

	/* int2 41 as psycopg sends it */
	static const uint8_t int2_41[] = {0x00, 0x29};

	v = typio_receive(INT2OID, int2_41, 2);
	ck_assert_int_eq(v.u.i, 41);
	EXPECT_ERROR(typio_receive(INT4OID, int2_41, 2));
	EXPECT_ERROR(typio_receive(FLOAT4OID, int2_41, 2));	/* found by fuzz_types: read 4 bytes first */
	/* found by fuzz_types: an interval's hours go past 24, as its output shows them */
	v = typio_input(INTERVALOID, "25:10:32.5", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "25:10:32.5");
	v = typio_input(INTERVALOID, "2562047788:00:00", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "2562047788:00:00");
	EXPECT_ERROR(typio_input(INTERVALOID, "1:60:00", -1));
	EXPECT_ERROR(typio_input(INTERVALOID, "2562047788:01:00", -1));
	EXPECT_ERROR(typio_input(TIMEOID, "25:00:00", -1));
	EXPECT_ERROR(typio_input(TIMEOID, "23:59:60.931", -1));	/* past 24:00:00, which did not read back */
	v = typio_input(TIMEOID, "23:59:60", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "24:00:00");
	/* found by fuzz_types: timestamps past PostgreSQL's range, whose microseconds overflowed */
	v = typio_input(TIMESTAMPOID, "294276-12-31 23:59:59.999999", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "294276-12-31 23:59:59.999999");
	EXPECT_ERROR(typio_input(TIMESTAMPOID, "294277-01-01", -1));
	EXPECT_ERROR(typio_input(TIMESTAMPTZOID, "294726-12-31 23:59:59+00", -1));
	/* found by fuzz_types: BC after the time and zone, as the output writes it; no year 0 */
	v = typio_input(TIMESTAMPTZOID, "0001-02-03 00:00:00+00 BC", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "0001-02-03 00:00:00+00 BC");
	EXPECT_ERROR(typio_input(DATEOID, "00-2-3", -1));
	EXPECT_ERROR(typio_input(DATEOID, "0000-01-01", -1));
	/* found by fuzz_types: a reg* 0 prints as "-", which reads back as 0 */
	v = typio_input(REGTYPEOID, "-", -1);
	ck_assert_int_eq(v.u.i, 0);
	ck_assert_str_eq(typio_output(&v, NULL), "-");
	EXPECT_ERROR(typio_input(INT4OID, "abc", -1));
	EXPECT_ERROR(typio_input(INT4OID, "99999999999", -1));
	EXPECT_ERROR(typio_input(INT2OID, "40000", -1));
	EXPECT_ERROR(typio_input(BOOLOID, "maybe", -1));
	EXPECT_ERROR(typio_input(DATEOID, "2023-02-29", -1));
	EXPECT_ERROR(typio_input(DATEOID, "yesterday-ish", -1));
	EXPECT_ERROR(typio_input(NUMERICOID, "1.2.3", -1));
	EXPECT_ERROR(typio_input(NUMERICOID, "0e-2147483648", -1));	/* found by fuzz_types: int overflow */
	EXPECT_ERROR(typio_input(NUMERICOID, "12345", (4 << 16 | 2) + 4));
	EXPECT_ERROR(typio_input(UUIDOID, "a0eebc99", -1));
	EXPECT_ERROR(typio_input(FLOAT8OID, "1e400", -1));
	ck_assert_int_eq(typio_type_by_name("integer"), INT4OID);
	ck_assert_int_eq(typio_type_by_name("timestamptz"), TIMESTAMPTZOID);
	ck_assert_int_eq(typio_type_by_name("nosuch"), InvalidOid);
	ck_assert_str_eq(typio_format_type(TIMESTAMPTZOID), "timestamp with time zone");
}
END_TEST

START_TEST(test_typio_arrays)
{
	/* the canonical text form: elements checked and re-quoted as PostgreSQL's array_out does */
	Value		v = typio_input(TEXTARRAYOID, " { a , \"b c\",NULL, \"NULL\",\"\",\"q\\\"\\\\\"} ", -1);

	ck_assert_str_eq(typio_output(&v, NULL), "{a,\"b c\",NULL,\"NULL\",\"\",\"q\\\"\\\\\"}");
	v = typio_input(INT4ARRAYOID, "{ 1, 02 }", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "{1,2}");
	v = typio_input(INT4ARRAYOID, " {} ", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "{}");
	EXPECT_ERROR(typio_input(INT4ARRAYOID, "{1,x}", -1));
	EXPECT_ERROR(typio_input(TEXTARRAYOID, "{a", -1));
	EXPECT_ERROR(typio_input(TEXTARRAYOID, "a}", -1));
	EXPECT_ERROR(typio_input(TEXTARRAYOID, "{{a}}", -1));

	ArrayElements elems = typio_array_parse("{x,NULL,\"y,z\"}");

	ck_assert_int_eq(elems.n, 3);
	ck_assert_str_eq(elems.items[0], "x");
	ck_assert_ptr_null(elems.items[1]);
	ck_assert_str_eq(elems.items[2], "y,z");

	/* '{1,NULL}'::int4[] in binary: one dimension, a NULL, element type, size and lower bound 1 */
	static const uint8_t one_null[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 23, 0, 0, 0, 2, 0, 0, 0, 1,
	0, 0, 0, 4, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff};
	RlBuf		buf;
	PqMsgBuilder msg = {.buf = &buf};

	v = typio_input(INT4ARRAYOID, "{1,NULL}", -1);
	rlbuf_init(&buf);
	typio_send(&msg, &v);
	ck_assert_int_eq(buf.len, sizeof(one_null));
	ck_assert(memcmp(buf.data, one_null, sizeof(one_null)) == 0);
	rlbuf_free(&buf);
	v = typio_receive(INT4ARRAYOID, one_null, sizeof(one_null));
	ck_assert_str_eq(v.u.s.data, "{1,NULL}");
	EXPECT_ERROR(typio_receive(INT4ARRAYOID, one_null, sizeof(one_null) - 1));
	EXPECT_ERROR(typio_receive(INT8ARRAYOID, one_null, sizeof(one_null)));	/* int4 elements */

	ck_assert_int_eq(typio_array_type(NAMEOID), NAMEARRAYOID);
	ck_assert_int_eq(typio_array_type(UUIDOID), 2951);
	ck_assert_int_eq(typio_array_type(INT2OID), INT2ARRAYOID);	/* not int2vector */
	ck_assert_int_eq(typio_array_type(VOIDOID), InvalidOid);
	/* int2vector: an array from subscript 0 whose text is "1 2" */
	v = typio_input(INT2VECTOROID, " 1  2", -1);
	ck_assert_str_eq(v.u.s.data, "{1,2}");
	ck_assert_str_eq(typio_output(&v, NULL), "1 2");
	v = typio_input(OIDVECTOROID, "", -1);
	ck_assert_str_eq(typio_output(&v, NULL), "");
	ck_assert_str_eq(typio_format_type(TEXTARRAYOID), "text[]");
	ck_assert_str_eq(typio_format_type_typmod(NUMERICOID, (10 << 16 | 2) + 4), "numeric(10,2)");
	ck_assert_str_eq(typio_format_type_typmod(VARCHAROID, 24), "character varying(20)");
	ck_assert_str_eq(typio_format_type_typmod(TEXTOID, -1), "text");
	/* reg* types without the backend's hooks read and print as numbers */
	text_roundtrip(REGCLASSOID, "16385", "16385");
}
END_TEST

/* decode_all -- feed data in pieces of step bytes; returns the rows' text forms joined */
static char *
decode_all(const CopyOptions *opts, const Oid *types, int ncols, const void *data, size_t len,
		   size_t step)
{
	CopyDecoder dec;
	Value		row[4];
	char	   *out = pstrdup("");

	copy_decoder_init(&dec, opts, ncols, types);
	for (size_t off = 0; off <= len; off += step)
	{
		size_t		n = off + step <= len ? step : len - off;

		copy_decoder_feed(&dec, (const uint8_t *) data + off, n);
		while (copy_decoder_next(&dec, row, off + n == len))
			for (int i = 0; i < ncols; i++)
				out = psprintf("%s%s%c", out, row[i].isnull ? "NULL" : typio_output(&row[i], NULL),
							   i == ncols - 1 ? ';' : '|');
		if (off + n == len)
			break;
	}
	copy_decoder_free(&dec);
	return out;
}

START_TEST(test_copy_formats)
{
	static const Oid types[] = {INT4OID, TEXTOID, NUMERICOID};
	CopyOptions text,
				csv,
				binary;

	copy_options_init(&text, COPY_FORMAT_TEXT);
	copy_options_init(&csv, COPY_FORMAT_CSV);
	copy_options_init(&binary, COPY_FORMAT_BINARY);

	/* psql sends the in-band end marker inside the data; anything after it is ignored */
	static const char text_in[] = "1\tone\t1\n2\t\\N\t\\N\n3\ta\\tb\\\\c\\101\t2.5\n\\.\ngarbage\n";

	for (size_t step = 1; step <= sizeof(text_in); step++)
		ck_assert_str_eq(decode_all(&text, types, 3, text_in, sizeof(text_in) - 1, step),
						 "1|one|1;2|NULL|NULL;3|a\tb\\cA|2.5;");
	static const char csv_in[] = "1,\"x,\"\"y\"\"\",3\n2,,\n3,\"\",\"4\"\n4,\"multi\nline\",5";

	for (size_t step = 1; step <= sizeof(csv_in); step++)
		ck_assert_str_eq(decode_all(&csv, types, 3, csv_in, sizeof(csv_in) - 1, step),
						 "1|x,\"y\"|3;2|NULL|NULL;3||4;4|multi\nline|5;");

	/* encode rows in every format and decode them back */
	Value		rows[2][3] = {
		{typio_int(INT4OID, 1), typio_string(TEXTOID, "a\tb,\"c\"\n", 8), typio_input(NUMERICOID, "1.50", -1)},
		{typio_int(INT4OID, -2), typio_null(TEXTOID), typio_null(NUMERICOID)},
	};
	const char *names[] = {"id", "name", "price"};
	const CopyOptions *formats[] = {&text, &csv, &binary};

	csv.header = true;
	for (int f = 0; f < 3; f++)
	{
		RlBuf		enc;

		rlbuf_init(&enc);
		copy_encode_start(&enc, formats[f], 3, names);
		copy_encode_row(&enc, formats[f], 3, rows[0]);
		copy_encode_row(&enc, formats[f], 3, rows[1]);
		copy_encode_end(&enc, formats[f]);
		for (size_t step = 1; step <= enc.len; step += 3)
			ck_assert_str_eq(decode_all(formats[f], types, 3, enc.data, enc.len, step),
							 "1|a\tb,\"c\"\n|1.50;-2|NULL|NULL;");
		if (f == 2)
			ck_assert(memcmp(enc.data, "PGCOPY\n\377\r\n\0", 11) == 0);
		rlbuf_free(&enc);
	}

	/* malformed input */
	EXPECT_ERROR(decode_all(&text, types, 3, "1\t2\n", 4, 4));
	EXPECT_ERROR(decode_all(&text, types, 3, "1\t2\t3\t4\n", 8, 8));
	EXPECT_ERROR(decode_all(&binary, types, 3, "NOTCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19, 19));
}
END_TEST

static Suite *
protocol_suite(void)
{
	Suite	   *s = suite_create("protocol");
	TCase	   *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, test_contexts_setup, test_contexts_teardown);
	tcase_add_test(tc, test_scram_rfc7677);
	tcase_add_test(tc, test_scram_postgres_verifier);
	tcase_add_test(tc, test_md5);
	tcase_add_test(tc, test_hba);
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_pqformat);
	tcase_add_test(tc, test_typio_roundtrip);
	tcase_add_test(tc, test_typio_binary_and_errors);
	tcase_add_test(tc, test_typio_arrays);
	tcase_add_test(tc, test_copy_formats);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return test_run_suite(protocol_suite());
}
