/*
 * check_sigv4.c: unit tests for the SigV4 signer and the S3 response parser, no
 * server needed.
 *
 * The signer is checked against AWS's published vectors: cases from the generic
 * Signature Version 4 test suite (service "service", 2015-08-30) and the four
 * worked examples on the S3 "Signature Calculations for the Authorization Header"
 * page (GET with Range, PUT with a payload, GET ?lifecycle, GET ?max-keys&prefix).
 * If any of them drifts, S3 would answer 403 SignatureDoesNotMatch. The
 * ListObjectsV2 parser is checked on pagination fields and entity-escaped keys.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "storage/objstore.h"
#include "storage/sigv4.h"

#define SUITE_AKID "AKIDEXAMPLE"
#define SUITE_SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define SUITE_DATE "20150830T123600Z"
#define S3_AKID "AKIAIOSFODNN7EXAMPLE"
#define S3_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define S3_DATE "20130524T000000Z"
#define S3_HOST "examplebucket.s3.amazonaws.com"
#define WELCOME_HASH "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"

typedef struct SigningVector
{
	const char *name;
	const char *method;
	const char *path;			/* unencoded; encoded with '/' kept */
	SigV4QueryParam query[3];
	int			nquery;
	SigV4Header headers[6];
	int			nheaders;
	const char *payload_hash;
	const char *amz_date;
	const char *service;
	const char *akid;
	const char *secret;
	const char *signed_headers;
	const char *signature;
} SigningVector;

static const SigningVector vectors[] = {
	{
		"get-vanilla", "GET", "/", {{0}}, 0,
		{{"Host", "example.amazonaws.com"}, {"X-Amz-Date", SUITE_DATE}}, 2,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;x-amz-date",
		"5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
	},
	{
		"post-vanilla", "POST", "/", {{0}}, 0,
		{{"Host", "example.amazonaws.com"}, {"X-Amz-Date", SUITE_DATE}}, 2,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;x-amz-date",
		"5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
	},
	{
		"get-vanilla-query-order-key-case", "GET", "/",
		{{"Param2", "value2"}, {"Param1", "value1"}}, 2,
		{{"Host", "example.amazonaws.com"}, {"X-Amz-Date", SUITE_DATE}}, 2,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;x-amz-date",
		"b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
	},
	{
		"get-utf8", "GET", "/\xE1\x88\xB4", {{0}}, 0,
		{{"Host", "example.amazonaws.com"}, {"X-Amz-Date", SUITE_DATE}}, 2,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;x-amz-date",
		"8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"
	},
	{
		"get-header-value-trim", "GET", "/", {{0}}, 0,
		{{"Host", "example.amazonaws.com"}, {"My-Header1", " value1"},
		{"My-Header2", " \"a   b   c\""}, {"X-Amz-Date", SUITE_DATE}}, 4,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;my-header1;my-header2;x-amz-date",
		"acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"
	},
	{
		"get-header-key-duplicate", "GET", "/", {{0}}, 0,
		{{"Host", "example.amazonaws.com"}, {"My-Header1", "value2"},
		{"My-Header1", "value2"}, {"My-Header1", "value1"}, {"X-Amz-Date", SUITE_DATE}}, 5,
		SIGV4_EMPTY_PAYLOAD_HASH, SUITE_DATE, "service", SUITE_AKID, SUITE_SECRET,
		"host;my-header1;x-amz-date",
		"c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"
	},
	{
		"s3-get-object-range", "GET", "/test.txt", {{0}}, 0,
		{{"Host", S3_HOST}, {"Range", "bytes=0-9"},
		{"x-amz-content-sha256", SIGV4_EMPTY_PAYLOAD_HASH}, {"x-amz-date", S3_DATE}}, 4,
		SIGV4_EMPTY_PAYLOAD_HASH, S3_DATE, "s3", S3_AKID, S3_SECRET,
		"host;range;x-amz-content-sha256;x-amz-date",
		"f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
	},
	{
		"s3-put-object", "PUT", "/test$file.text", {{0}}, 0,
		{{"Host", S3_HOST}, {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
		{"x-amz-date", S3_DATE}, {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
		{"x-amz-content-sha256", WELCOME_HASH}}, 5,
		WELCOME_HASH, S3_DATE, "s3", S3_AKID, S3_SECRET,
		"date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
		"98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
	},
	{
		"s3-get-bucket-lifecycle", "GET", "/", {{"lifecycle", NULL}}, 1,
		{{"Host", S3_HOST}, {"x-amz-date", S3_DATE},
		{"x-amz-content-sha256", SIGV4_EMPTY_PAYLOAD_HASH}}, 3,
		SIGV4_EMPTY_PAYLOAD_HASH, S3_DATE, "s3", S3_AKID, S3_SECRET,
		"host;x-amz-content-sha256;x-amz-date",
		"fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"
	},
	{
		"s3-list-objects", "GET", "/", {{"max-keys", "2"}, {"prefix", "J"}}, 2,
		{{"Host", S3_HOST}, {"x-amz-date", S3_DATE},
		{"x-amz-content-sha256", SIGV4_EMPTY_PAYLOAD_HASH}}, 3,
		SIGV4_EMPTY_PAYLOAD_HASH, S3_DATE, "s3", S3_AKID, S3_SECRET,
		"host;x-amz-content-sha256;x-amz-date",
		"34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"
	},
};

/* Sign a vector; uri and query buffers must outlive the request. */
static SigV4Request
vector_request(const SigningVector *v, RlBuf *uri, RlBuf *query)
{
	sigv4_uri_encode(uri, v->path, true);
	sigv4_canonical_query(query, v->query, v->nquery);
	return (SigV4Request) {
		.method = v->method,
		.canonical_uri = rlbuf_cstr(uri),
		.canonical_query = rlbuf_cstr(query),
		.headers = v->headers,
		.nheaders = v->nheaders,
		.payload_hash = v->payload_hash,
		.amz_date = v->amz_date,
		.region = "us-east-1",
		.service = v->service,
		.access_key = v->akid,
		.secret_key = v->secret,
	};
}

START_TEST(test_published_vectors)
{
	const SigningVector *v = &vectors[_i];
	RlBuf		uri;
	RlBuf		query;
	RlBuf		auth;
	RlBuf		expected;
	char		signature[SIGV4_SHA256_HEX_LEN + 1];
	SigV4Request req;

	rlbuf_init(&uri);
	rlbuf_init(&query);
	rlbuf_init(&auth);
	rlbuf_init(&expected);
	req = vector_request(v, &uri, &query);
	sigv4_authorization(&auth, &req, signature);
	ck_assert_msg(strcmp(signature, v->signature) == 0, "%s: signature %s, expected %s",
				  v->name, signature, v->signature);
	rlbuf_printf(&expected, "AWS4-HMAC-SHA256 Credential=%s/%.8s/us-east-1/%s/aws4_request, "
				 "SignedHeaders=%s, Signature=%s",
				 v->akid, v->amz_date, v->service, v->signed_headers, v->signature);
	ck_assert_str_eq(rlbuf_cstr(&auth), rlbuf_cstr(&expected));
	rlbuf_free(&uri);
	rlbuf_free(&query);
	rlbuf_free(&auth);
	rlbuf_free(&expected);
}
END_TEST

/* The intermediate steps of the S3 GET example, as printed on the AWS page. */
START_TEST(test_s3_get_intermediate_steps)
{
	const SigningVector *v = &vectors[6];
	RlBuf		uri;
	RlBuf		query;
	RlBuf		out;
	SigV4Request req;

	ck_assert_str_eq(v->name, "s3-get-object-range");
	rlbuf_init(&uri);
	rlbuf_init(&query);
	rlbuf_init(&out);
	req = vector_request(v, &uri, &query);
	sigv4_canonical_request(&out, &req);
	ck_assert_str_eq(rlbuf_cstr(&out),
					 "GET\n/test.txt\n\n"
					 "host:examplebucket.s3.amazonaws.com\n"
					 "range:bytes=0-9\n"
					 "x-amz-content-sha256:" SIGV4_EMPTY_PAYLOAD_HASH "\n"
					 "x-amz-date:20130524T000000Z\n\n"
					 "host;range;x-amz-content-sha256;x-amz-date\n"
					 SIGV4_EMPTY_PAYLOAD_HASH);
	rlbuf_reset(&out);
	sigv4_string_to_sign(&out, &req);
	ck_assert_str_eq(rlbuf_cstr(&out),
					 "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
					 "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
	rlbuf_free(&uri);
	rlbuf_free(&query);
	rlbuf_free(&out);
}
END_TEST

START_TEST(test_sha256)
{
	char		hex[SIGV4_SHA256_HEX_LEN + 1];

	sigv4_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, SIGV4_EMPTY_PAYLOAD_HASH);
	sigv4_sha256_hex("Welcome to Amazon S3.", 21, hex);
	ck_assert_str_eq(hex, WELCOME_HASH);
}
END_TEST

static void
check_encoding(const char *in, bool keep_slash, const char *expected)
{
	RlBuf		out;

	rlbuf_init(&out);
	sigv4_uri_encode(&out, in, keep_slash);
	ck_assert_str_eq(rlbuf_cstr(&out), expected);
	rlbuf_free(&out);
}

START_TEST(test_uri_encode)
{
	check_encoding("-._~AZaz09", false, "-._~AZaz09");
	check_encoding("wal/0001 copy.sst", true, "wal/0001%20copy.sst");
	check_encoding("wal/0001 copy.sst", false, "wal%2F0001%20copy.sst");
	check_encoding("a+b=c&d", true, "a%2Bb%3Dc%26d");
	check_encoding("caf\xC3\xA9/\xE2\x82\xAC", true, "caf%C3%A9/%E2%82%AC");
	check_encoding("test$file.text", true, "test%24file.text");
	check_encoding("", true, "");
}
END_TEST

START_TEST(test_canonical_query)
{
	/* a continuation token is opaque base64: '+', '/' and '=' must all be encoded */
	SigV4QueryParam params[] = {
		{"prefix", "wal/"},
		{"list-type", "2"},
		{"continuation-token", "1a+B/c=="},
		{"start-after", "wal/00 1"},
		{"encoding-type", NULL},
	};
	RlBuf		out;

	rlbuf_init(&out);
	sigv4_canonical_query(&out, params, 5);
	ck_assert_str_eq(rlbuf_cstr(&out),
					 "continuation-token=1a%2BB%2Fc%3D%3D&encoding-type=&list-type=2"
					 "&prefix=wal%2F&start-after=wal%2F00%201");
	rlbuf_reset(&out);
	sigv4_canonical_query(&out, params, 0);
	ck_assert_uint_eq(out.len, 0);
	/* equal names sort by value */
	SigV4QueryParam same[] = {{"k", "b"}, {"k", "a"}};

	sigv4_canonical_query(&out, same, 2);
	ck_assert_str_eq(rlbuf_cstr(&out), "k=a&k=b");
	rlbuf_free(&out);
}
END_TEST

START_TEST(test_amz_date)
{
	char		date[SIGV4_AMZ_DATE_LEN + 1];

	sigv4_format_amz_date(1440938160, date);	/* 2015-08-30 12:36:00 UTC */
	ck_assert_str_eq(date, SUITE_DATE);
}
END_TEST

static const char list_page_xml[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
	"<Name>bucket</Name><Prefix>db/</Prefix><KeyCount>3</KeyCount><MaxKeys>3</MaxKeys>"
	"<IsTruncated>true</IsTruncated>"
	"<Contents><Key>db/a&amp;b &lt;1&gt;</Key>"
	"<LastModified>2009-10-12T17:50:30.000Z</LastModified>"
	"<ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag>"
	"<Size>434234</Size><StorageClass>STANDARD</StorageClass></Contents>"
	"<Contents><Key>db/caf&#233;&#x20AC;</Key>"
	"<LastModified>2009-10-12T17:50:31.250Z</LastModified>"
	"<ETag>&#34;abc&#34;</ETag><Size>0</Size></Contents>"
	"<Contents><Key><![CDATA[db/x&y]]></Key><Size>7</Size></Contents>"
	"<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
	"<StartAfter>db/</StartAfter></ListBucketResult>";

START_TEST(test_list_page)
{
	S3ListPage	page;

	ck_assert_int_eq(s3_parse_list_page(list_page_xml, strlen(list_page_xml), &page), RL_OK);
	ck_assert_int_eq(page.nitems, 3);
	ck_assert(page.truncated);
	ck_assert_str_eq(page.next_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
	ck_assert_str_eq(page.items[0].key, "db/a&b <1>");
	ck_assert_uint_eq(page.items[0].size, 434234);
	ck_assert_str_eq(page.items[0].etag, "\"fba9dede5f27731c9771645a39863328\"");
	ck_assert_int_eq(page.items[0].mtime_ms, 1255369830000LL);
	ck_assert_str_eq(page.items[1].key, "db/caf\xC3\xA9\xE2\x82\xAC");
	ck_assert_str_eq(page.items[1].etag, "\"abc\"");
	ck_assert_int_eq(page.items[1].mtime_ms, 1255369831250LL);
	ck_assert_str_eq(page.items[2].key, "db/x&y");
	ck_assert_uint_eq(page.items[2].size, 7);
	s3_list_page_free(&page);
}
END_TEST

START_TEST(test_list_last_and_empty_pages)
{
	static const char last[] =
		"<ListBucketResult><IsTruncated>false</IsTruncated>"
		"<Contents><Key>k</Key><Size>1</Size></Contents></ListBucketResult>";
	static const char empty[] =
		"<ListBucketResult><Name>b</Name><KeyCount>0</KeyCount>"
		"<IsTruncated>false</IsTruncated></ListBucketResult>";
	static const char not_a_list[] = "<Error><Code>AccessDenied</Code></Error>";
	S3ListPage	page;

	ck_assert_int_eq(s3_parse_list_page(last, strlen(last), &page), RL_OK);
	ck_assert_int_eq(page.nitems, 1);
	ck_assert(!page.truncated);
	ck_assert_ptr_null(page.next_token);
	s3_list_page_free(&page);

	ck_assert_int_eq(s3_parse_list_page(empty, strlen(empty), &page), RL_OK);
	ck_assert_int_eq(page.nitems, 0);
	s3_list_page_free(&page);

	ck_assert_int_eq(s3_parse_list_page(not_a_list, strlen(not_a_list), &page), RL_CORRUPT);
}
END_TEST

START_TEST(test_parse_url_and_env)
{
	S3Config	cfg;

	memset(&cfg, 0, sizeof(cfg));
	ck_assert_int_eq(s3config_parse_url(&cfg, "s3://bucket/some/prefix"), RL_OK);
	ck_assert_str_eq(cfg.bucket, "bucket");
	ck_assert_str_eq(cfg.prefix, "some/prefix");
	ck_assert_int_eq(s3config_parse_url(&cfg, "s3://only-bucket"), RL_OK);
	ck_assert_str_eq(cfg.bucket, "only-bucket");
	ck_assert_str_eq(cfg.prefix, "");
	ck_assert_int_eq(s3config_parse_url(&cfg, "s3:///prefix"), RL_INVALID);
	ck_assert_int_eq(s3config_parse_url(&cfg, "/tmp/dir"), RL_INVALID);

	setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9", 1);
	setenv("AWS_REGION", "eu-west-3", 1);
	setenv("AWS_ACCESS_KEY_ID", "AK", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "SK", 1);
	setenv("ROCKLAKE_S3_LIST_PAGE", "2", 1);
	s3config_from_env(&cfg);
	ck_assert_str_eq(cfg.endpoint, "http://127.0.0.1:9");
	ck_assert_str_eq(cfg.region, "eu-west-3");
	ck_assert_str_eq(cfg.access_key, "AK");
	ck_assert_ptr_null(cfg.session_token);
	ck_assert_int_eq(cfg.list_page_size, 2);
	s3config_free(&cfg);
	ck_assert_ptr_null(cfg.bucket);
}
END_TEST

START_TEST(test_open_describes_addressing)
{
	ObjectStore *os;

	unsetenv("AWS_ENDPOINT_URL");
	setenv("AWS_REGION", "us-west-2", 1);
	setenv("AWS_ACCESS_KEY_ID", "AK", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "SK", 1);
	os = objstore_open_url("s3://bucket/db1");
	ck_assert_ptr_nonnull(os);
	ck_assert_str_eq(os->kind, "s3");
	ck_assert_str_eq(os->description, "s3://bucket/db1/ at https://s3.us-west-2.amazonaws.com");
	obj_close(os);

	unsetenv("AWS_ACCESS_KEY_ID");
	os = objstore_open_url("s3://bucket/db1");
	ck_assert_ptr_null(os);
	ck_assert(strstr(rl_last_error(), "credentials") != NULL);
}
END_TEST

static Suite *
sigv4_suite(void)
{
	Suite	   *s = suite_create("sigv4");
	TCase	   *tc = tcase_create("signer");

	tcase_add_loop_test(tc, test_published_vectors, 0, (int) (sizeof(vectors) / sizeof(vectors[0])));
	tcase_add_test(tc, test_s3_get_intermediate_steps);
	tcase_add_test(tc, test_sha256);
	tcase_add_test(tc, test_uri_encode);
	tcase_add_test(tc, test_canonical_query);
	tcase_add_test(tc, test_amz_date);
	suite_add_tcase(s, tc);

	tc = tcase_create("s3 protocol");
	tcase_add_test(tc, test_list_page);
	tcase_add_test(tc, test_list_last_and_empty_pages);
	tcase_add_test(tc, test_parse_url_and_env);
	tcase_add_test(tc, test_open_describes_addressing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner    *sr = srunner_create(sigv4_suite());
	int			failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
