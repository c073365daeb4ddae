/*
 * check_manifest.c: the manifest codec: round trip, CRC mismatch and truncation
 * rejected, unknown fields ignored, an unknown format refused; and the object-name
 * helpers.
 */
#include "common/crc32c.h"
#include "storage/manifest.h"
#include "test_util.h"

static void
sample_meta(SstMeta *m, const char *id, const char *first, const char *last)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->id, sizeof(m->id), "%s", id);
	m->size = 4096;
	m->entries = 17;
	m->min_seq = 3;
	m->max_seq = 9;
	rlbuf_init(&m->first_key);
	rlbuf_init(&m->last_key);
	rlbuf_append(&m->first_key, first, strlen(first));
	rlbuf_append(&m->last_key, last, strlen(last) + 1);	/* with a NUL byte inside the key */
}

static void
sample_manifest(Manifest *m)
{
	manifest_init(m);
	snprintf(m->db_uuid, sizeof(m->db_uuid), "0123456789abcdef");
	m->manifest_id = 42;
	m->created_ms = 1760000000000;
	m->writer_epoch = 7;
	m->replay_after_wal_id = 1311;
	m->last_l0_seq = 88411;
	m->next_seq_hint = 88412;
	m->next_run_id = 4;
	m->n_l0 = 2;
	m->l0 = calloc(2, sizeof(SstMeta));
	sample_meta(&m->l0[0], "01K0000000000000000000000A", "\x01\xff", "\x05");
	sample_meta(&m->l0[1], "01K0000000000000000000000B", "a", "z");
	m->n_runs = 1;
	m->runs = calloc(1, sizeof(SortedRun));
	m->runs[0].run_id = 3;
	m->runs[0].n_ssts = 1;
	m->runs[0].ssts = calloc(1, sizeof(SstMeta));
	sample_meta(&m->runs[0].ssts[0], "01J0000000000000000000000C", "", "\xff\xff");
}

START_TEST(test_roundtrip)
{
	Manifest	m,
				d,
				c;
	RlBuf		a,
				b;

	sample_manifest(&m);
	rlbuf_init(&a);
	rlbuf_init(&b);
	manifest_encode(&m, &a);
	ck_assert_int_eq(manifest_decode(a.data, a.len, &d), RL_OK);
	ck_assert_uint_eq(d.manifest_id, 42);
	ck_assert_uint_eq(d.writer_epoch, 7);
	ck_assert_uint_eq(d.replay_after_wal_id, 1311);
	ck_assert_int_eq(d.n_l0, 2);
	ck_assert_str_eq(d.l0[1].id, "01K0000000000000000000000B");
	ck_assert_uint_eq(d.l0[0].first_key.len, 2);
	ck_assert_uint_eq(d.l0[0].first_key.data[1], 0xff);
	ck_assert_int_eq(d.n_runs, 1);
	ck_assert_uint_eq(d.runs[0].ssts[0].first_key.len, 0);
	manifest_copy(&c, &d);
	manifest_encode(&c, &b);
	ck_assert_uint_eq(a.len, b.len);
	ck_assert_int_eq(memcmp(a.data, b.data, a.len), 0);
	manifest_free(&m);
	manifest_free(&d);
	manifest_free(&c);
	rlbuf_free(&a);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_corruption_detected)
{
	Manifest	m,
				d;
	RlBuf		a;

	sample_manifest(&m);
	rlbuf_init(&a);
	manifest_encode(&m, &a);
	for (size_t i = 0; i < a.len; i++)
	{
		a.data[i] ^= 0x20;
		ck_assert_int_eq(manifest_decode(a.data, a.len, &d), RL_CORRUPT);
		a.data[i] ^= 0x20;
	}
	for (size_t len = 0; len < a.len; len++)
		ck_assert_int_eq(manifest_decode(a.data, len, &d), RL_CORRUPT);
	manifest_free(&m);
	rlbuf_free(&a);
}
END_TEST

/* Build "<json>\ncrc32c=...\n" for hand-written JSON. */
static void
with_trailer(const char *json, RlBuf *out)
{
	rlbuf_init(out);
	rlbuf_append_str(out, json);
	rlbuf_printf(out, "\ncrc32c=%08x\n", crc32c(json, strlen(json)));
}

START_TEST(test_unknown_field_and_format)
{
	const char *base = "{\"format\":%d,\"db_uuid\":\"u\",\"manifest_id\":5,\"created_ms\":1,"
		"\"writer_epoch\":2,\"compactor_epoch\":0,\"replay_after_wal_id\":3,\"last_l0_seq\":4,"
		"\"next_seq_hint\":5,\"l0\":[],\"runs\":[],\"future_field\":{\"x\":[1,2]}}";
	char		json[512];
	RlBuf		b;
	Manifest	d;

	snprintf(json, sizeof(json), base, 1);
	with_trailer(json, &b);
	ck_assert_int_eq(manifest_decode(b.data, b.len, &d), RL_OK);
	ck_assert_uint_eq(d.manifest_id, 5);
	manifest_free(&d);
	rlbuf_free(&b);
	snprintf(json, sizeof(json), base, 2);
	with_trailer(json, &b);
	ck_assert_int_eq(manifest_decode(b.data, b.len, &d), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "format 2"));
	rlbuf_free(&b);
	with_trailer("{\"format\":1}", &b);
	ck_assert_int_eq(manifest_decode(b.data, b.len, &d), RL_CORRUPT);
	rlbuf_free(&b);
	with_trailer("[not json", &b);
	ck_assert_int_eq(manifest_decode(b.data, b.len, &d), RL_CORRUPT);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_object_keys)
{
	char		key[64];

	manifest_object_key(42, key, sizeof(key));
	ck_assert_str_eq(key, "manifest/00000000000000000042.manifest");
	ck_assert_uint_eq(object_key_id(key, "manifest/", ".manifest"), 42);
	wal_object_key(18446744073709551615ULL, key, sizeof(key));
	ck_assert_str_eq(key, "wal/18446744073709551615.sst");
	ck_assert_uint_eq(object_key_id(key, "wal/", ".sst"), 18446744073709551615ULL);
	ck_assert_uint_eq(object_key_id("wal/0000000000000000004x.sst", "wal/", ".sst"), 0);
	ck_assert_uint_eq(object_key_id("wal/00000000000000000042.sst.tmp", "wal/", ".sst"), 0);
	sst_object_key("01ABC", key, sizeof(key));
	ck_assert_str_eq(key, "compacted/01ABC.sst");
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("manifest");
	TCase	   *tc = tcase_create("codec");

	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_corruption_detected);
	tcase_add_test(tc, test_unknown_field_and_format);
	tcase_add_test(tc, test_object_keys);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
