/*
 * check_objstore_s3.c: the S3 backend against a real S3-compatible server (versitygw,
 * started by test/scripts/s3_backend.sh).
 *
 * Unit vectors prove the signer computes what AWS documents; only a server proves
 * the requests we actually send (paths, ranges, conditional headers, pagination,
 * odd keys) mean what the ObjectStore interface promises. The endpoint comes from
 * ROCKLAKE_TEST_S3_ENDPOINT; without it the test is skipped (exit 77), except in
 * CI (CI=true) where a missing server must not pass silently. When the server
 * checks signatures (ROCKLAKE_TEST_S3_VERIFIES_SIGNATURES=1; versitygw checks every
 * request's, LIST's and odd keys' included) the "signed requests" case also proves a
 * wrong secret is refused. The "races" case proves the server's conditional writes
 * atomic, which fencing needs. Every test works under its own
 * ULID-named prefix, so runs never see each other's objects.
 *
 * The failures a real server will not produce on demand (a write that lands but
 * whose answer is lost, 409 conflicts, 503 bursts, clock skew, a truncated body)
 * are played by a scripted one-thread HTTP server in the "scripted faults" case.
 */
#define _GNU_SOURCE				/* strptime, timegm */

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/ulid.h"
#include "storage/objstore.h"

#define EXIT_SKIP 77

static const char *endpoint;
static const char *bucket;
static char run_prefix[64];

/* A store under run_prefix/sub; page_size 0 leaves LIST pages at the server's size. */
static ObjectStore *
open_store(const char *sub, int page_size, const char *secret)
{
	S3Config	cfg;
	char		prefix[256];
	ObjectStore *os;

	snprintf(prefix, sizeof(prefix), "%s/%s", run_prefix, sub);
	memset(&cfg, 0, sizeof(cfg));
	cfg.endpoint = (char *) endpoint;
	cfg.bucket = (char *) bucket;
	cfg.prefix = prefix;
	cfg.access_key = getenv("AWS_ACCESS_KEY_ID");
	cfg.secret_key = (char *) (secret ? secret : getenv("AWS_SECRET_ACCESS_KEY"));
	cfg.max_attempts = 3;
	cfg.base_backoff_ms = 10;
	cfg.max_backoff_ms = 50;
	cfg.list_page_size = page_size;
	os = objstore_s3_open(&cfg);
	ck_assert_msg(os != NULL, "open: %s", rl_last_error());
	return os;
}

static void
assert_get(ObjectStore *os, const char *key, uint64_t off, uint64_t len, const char *expected)
{
	RlBuf		buf;
	RlStatus	st;

	rlbuf_init(&buf);
	st = obj_get_range(os, key, off, len, &buf);
	ck_assert_msg(st == RL_OK, "get %s [%llu,+%llu): %s", key, (unsigned long long) off,
				  (unsigned long long) len, rl_last_error());
	ck_assert_uint_eq(buf.len, strlen(expected));
	ck_assert_str_eq(rlbuf_cstr(&buf), expected);
	rlbuf_free(&buf);
}

static void
put_ok(ObjectStore *os, const char *key, const char *data, char *etag_out)
{
	RlStatus	st = obj_put(os, key, data, strlen(data), OBJ_PUT_OVERWRITE, NULL, etag_out);

	ck_assert_msg(st == RL_OK, "put %s: %s", key, rl_last_error());
}

START_TEST(test_put_get_head_delete)
{
	ObjectStore *os = open_store("basic", 0, NULL);
	char		etag[OBJ_ETAG_MAX];
	ObjInfo		info;
	RlBuf		buf;

	ck_assert_str_eq(os->kind, "s3");
	put_ok(os, "a/hello", "hello world", etag);
	ck_assert_msg(etag[0] == '"' && etag[strlen(etag) - 1] == '"', "etag %s not quoted", etag);
	assert_get(os, "a/hello", 0, OBJ_TO_END, "hello world");

	ck_assert_int_eq(obj_head(os, "a/hello", &info), RL_OK);
	ck_assert_uint_eq(info.size, 11);
	ck_assert_str_eq(info.etag, etag);
	ck_assert_str_eq(info.key, "a/hello");
	ck_assert_int_gt(info.mtime_ms, rl_now_ms() - 3600 * 1000);

	put_ok(os, "a/hello", "replaced", NULL);
	assert_get(os, "a/hello", 0, OBJ_TO_END, "replaced");

	rlbuf_init(&buf);
	ck_assert_int_eq(obj_get(os, "a/missing", &buf), RL_NOT_FOUND);
	ck_assert_uint_eq(buf.len, 0);	/* no error body leaks into the output */
	rlbuf_free(&buf);
	ck_assert_int_eq(obj_head(os, "a/missing", &info), RL_NOT_FOUND);

	ck_assert_int_eq(obj_delete(os, "a/hello"), RL_OK);
	ck_assert_int_eq(obj_head(os, "a/hello", &info), RL_NOT_FOUND);
	ck_assert_int_eq(obj_delete(os, "a/hello"), RL_OK);

	/* an empty object */
	put_ok(os, "a/empty", "", NULL);
	assert_get(os, "a/empty", 0, OBJ_TO_END, "");
	obj_close(os);
}
END_TEST

START_TEST(test_ranges)
{
	ObjectStore *os = open_store("ranges", 0, NULL);
	RlBuf		buf;

	put_ok(os, "r", "0123456789", NULL);
	assert_get(os, "r", 0, 4, "0123");
	assert_get(os, "r", 6, 4, "6789");
	assert_get(os, "r", 3, OBJ_TO_END, "3456789");
	assert_get(os, "r", 8, 100, "89");	/* clipped at the end */
	assert_get(os, "r", 10, 5, "");		/* starts exactly at the end */
	assert_get(os, "r", 2, 0, "");

	rlbuf_init(&buf);
	rlbuf_append_str(&buf, "prefix:");
	ck_assert_int_eq(obj_get_range(os, "r", 4, 2, &buf), RL_OK);	/* appends */
	ck_assert_str_eq(rlbuf_cstr(&buf), "prefix:45");
	ck_assert_int_eq(obj_get_range(os, "r", 11, 2, &buf), RL_INVALID);
	ck_assert_str_eq(rlbuf_cstr(&buf), "prefix:45");
	ck_assert_int_eq(obj_get_range(os, "nothing", 1, 2, &buf), RL_NOT_FOUND);
	rlbuf_free(&buf);
	obj_close(os);
}
END_TEST

START_TEST(test_conditional_writes)
{
	ObjectStore *os = open_store("cond", 0, NULL);
	char		etag1[OBJ_ETAG_MAX];
	char		etag2[OBJ_ETAG_MAX];
	RlStatus	st;

	st = obj_put(os, "fence", "v1", 2, OBJ_PUT_IF_NONE_MATCH, NULL, etag1);
	ck_assert_msg(st == RL_OK, "first create: %s", rl_last_error());
	st = obj_put(os, "fence", "v2", 2, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
	ck_assert_int_eq(st, RL_PRECONDITION);
	assert_get(os, "fence", 0, OBJ_TO_END, "v1");

	st = obj_put(os, "fence", "v2", 2, OBJ_PUT_IF_MATCH, "\"0123456789abcdef0123456789abcdef\"", NULL);
	ck_assert_int_eq(st, RL_PRECONDITION);
	st = obj_put(os, "fence", "v2", 2, OBJ_PUT_IF_MATCH, etag1, etag2);
	ck_assert_msg(st == RL_OK, "CAS with the current etag: %s", rl_last_error());
	ck_assert_str_ne(etag1, etag2);
	assert_get(os, "fence", 0, OBJ_TO_END, "v2");
	/* the etag that just won is now stale */
	ck_assert_int_eq(obj_put(os, "fence", "v3", 2, OBJ_PUT_IF_MATCH, etag1, NULL), RL_PRECONDITION);
	ck_assert_int_eq(obj_put(os, "absent", "v", 1, OBJ_PUT_IF_MATCH, etag2, NULL), RL_NOT_FOUND);
	ck_assert_int_eq(obj_put(os, "fence", "v", 1, OBJ_PUT_IF_MATCH, NULL, NULL), RL_INVALID);
	obj_close(os);
}
END_TEST

/*
 * Racing conditional writes: the server must evaluate the condition and publish the
 * object as one step, or two writers both win and fencing proves nothing. RACERS
 * threads, each with a store (and connection) of its own, meet at a barrier and put
 * one key at once: with If-None-Match exactly one creates it, with If-Match of the
 * etag they all know exactly one replaces it; every other one gets RL_PRECONDITION,
 * and the object holds the winner's bytes.
 */
#define RACERS 16
#define RACE_ROUNDS 10

typedef struct Racer
{
	ObjectStore *os;
	pthread_barrier_t *barrier;
	const char *key;
	ObjPutMode	mode;
	const char *if_match;
	char		body[64];
	RlStatus	rc;
} Racer;

static void *
racer_main(void *arg)
{
	Racer	   *r = arg;

	pthread_barrier_wait(r->barrier);
	r->rc = obj_put(r->os, r->key, r->body, strlen(r->body), r->mode, r->if_match, NULL);
	return NULL;
}

/* Race the racers' puts of key in mode; returns the body of the one that won. */
static const char *
race_puts(Racer *racers, const char *key, ObjPutMode mode, const char *if_match)
{
	pthread_barrier_t barrier;
	pthread_t	threads[RACERS];
	const char *winner = NULL;

	pthread_barrier_init(&barrier, NULL, RACERS);
	for (int i = 0; i < RACERS; i++)
	{
		racers[i].barrier = &barrier;
		racers[i].key = key;
		racers[i].mode = mode;
		racers[i].if_match = if_match;
		snprintf(racers[i].body, sizeof(racers[i].body), "%s by racer %d%s", key, i,
				 mode == OBJ_PUT_IF_MATCH ? ", replaced" : "");
		ck_assert_int_eq(pthread_create(&threads[i], NULL, racer_main, &racers[i]), 0);
	}
	for (int i = 0; i < RACERS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&barrier);
	for (int i = 0; i < RACERS; i++)
	{
		if (racers[i].rc != RL_OK)
		{
			ck_assert_msg(racers[i].rc == RL_PRECONDITION, "racer %d on %s: %s", i, key,
						  rl_status_name(racers[i].rc));
			continue;
		}
		ck_assert_msg(winner == NULL, "two racers won %s: \"%s\" and \"%s\"", key,
					  winner, racers[i].body);
		winner = racers[i].body;
	}
	ck_assert_msg(winner != NULL, "no racer won %s", key);
	return winner;
}

START_TEST(test_racing_conditional_writes)
{
	ObjectStore *os = open_store("races", 0, NULL);
	Racer		racers[RACERS];
	ObjInfo		info;
	char		etag[OBJ_ETAG_MAX];

	for (int i = 0; i < RACERS; i++)
		racers[i] = (Racer) {.os = open_store("races", 0, NULL)};
	for (int round = 0; round < RACE_ROUNDS; round++)
	{
		char		key[32];

		snprintf(key, sizeof(key), "key-%d", round);
		/* each racer's connection is open before the start */
		for (int i = 0; i < RACERS; i++)
			ck_assert_int_eq(obj_head(racers[i].os, key, &info), RL_NOT_FOUND);
		assert_get(os, key, 0, OBJ_TO_END, race_puts(racers, key, OBJ_PUT_IF_NONE_MATCH, NULL));
		ck_assert_int_eq(obj_head(os, key, &info), RL_OK);
		snprintf(etag, sizeof(etag), "%s", info.etag);
		assert_get(os, key, 0, OBJ_TO_END, race_puts(racers, key, OBJ_PUT_IF_MATCH, etag));
	}
	for (int i = 0; i < RACERS; i++)
		obj_close(racers[i].os);
	obj_close(os);
}
END_TEST

START_TEST(test_self_test)
{
	ObjectStore *os = open_store("selftest", 0, NULL);
	RlStatus	st = objstore_self_test(os);

	ck_assert_msg(st == RL_OK, "self-test: %s", rl_last_error());
	obj_close(os);
}
END_TEST

typedef struct Listing
{
	char		keys[64][128];
	char		etags[64][OBJ_ETAG_MAX];
	int			n;
	int			stop_after;		/* 0: never stop */
} Listing;

static bool
collect_key(const ObjInfo *info, void *arg)
{
	Listing    *l = arg;

	ck_assert_int_lt(l->n, 64);
	snprintf(l->keys[l->n], sizeof(l->keys[0]), "%s", info->key);
	snprintf(l->etags[l->n], sizeof(l->etags[0]), "%s", info->etag);
	l->n++;
	return l->stop_after == 0 || l->n < l->stop_after;
}

static void
list_into(ObjectStore *os, const char *prefix, const char *start_after, Listing *l, int stop_after)
{
	RlStatus	st;

	memset(l, 0, sizeof(*l));
	l->stop_after = stop_after;
	st = obj_list(os, prefix, start_after, collect_key, l);
	ck_assert_msg(st == RL_OK, "list %s: %s", prefix, rl_last_error());
}

START_TEST(test_list_pages)
{
	ObjectStore *os = open_store("list", 2, NULL);
	char		key[32];
	char		etag[OBJ_ETAG_MAX];
	Listing		l;

	for (int i = 0; i < 7; i++)
	{
		snprintf(key, sizeof(key), "wal/%020d.sst", i);
		put_ok(os, key, "x", i == 0 ? etag : NULL);
	}
	put_ok(os, "walrus", "not under wal/", NULL);
	put_ok(os, "manifest/00000000000000000001.manifest", "m", NULL);

	list_into(os, "wal/", NULL, &l, 0);
	ck_assert_int_eq(l.n, 7);
	for (int i = 0; i < 7; i++)
	{
		snprintf(key, sizeof(key), "wal/%020d.sst", i);
		ck_assert_str_eq(l.keys[i], key);
	}
	ck_assert_str_eq(l.etags[0], etag);

	list_into(os, "wal/", "wal/00000000000000000003.sst", &l, 0);
	ck_assert_int_eq(l.n, 3);
	ck_assert_str_eq(l.keys[0], "wal/00000000000000000004.sst");

	list_into(os, "wal/", NULL, &l, 3);	/* the callback stops mid-page */
	ck_assert_int_eq(l.n, 3);

	list_into(os, "", NULL, &l, 0);		/* the whole store, across all prefixes */
	ck_assert_int_eq(l.n, 9);
	ck_assert_str_eq(l.keys[0], "manifest/00000000000000000001.manifest");
	ck_assert_str_eq(l.keys[8], "walrus");

	list_into(os, "nothing/", NULL, &l, 0);
	ck_assert_int_eq(l.n, 0);
	obj_close(os);
}
END_TEST

START_TEST(test_odd_keys)
{
	static const char *const keys[] = {
		"dir with spaces/file name.txt",
		"utf8/caf\xC3\xA9-\xE2\x82\xAC-\xF0\x9F\x98\x80",
		"punct/a+b=c&d;e,f$g@h!i'j(k)l*m",
		"xml/<tag> & \"quotes\"",
		"tilde~under_score-dash.dot",
	};
	int			nkeys = (int) (sizeof(keys) / sizeof(keys[0]));
	ObjectStore *os = open_store("odd keys", 1, NULL);
	Listing		l;
	ObjInfo		info;

	for (int i = 0; i < nkeys; i++)
	{
		put_ok(os, keys[i], keys[i], NULL);
		assert_get(os, keys[i], 0, OBJ_TO_END, keys[i]);
		ck_assert_int_eq(obj_head(os, keys[i], &info), RL_OK);
		ck_assert_uint_eq(info.size, strlen(keys[i]));
	}
	list_into(os, "", NULL, &l, 0);
	ck_assert_int_eq(l.n, nkeys);
	for (int i = 0; i < nkeys; i++)
	{
		bool		found = false;

		for (int j = 0; j < l.n; j++)
			found |= strcmp(l.keys[j], keys[i]) == 0;
		ck_assert_msg(found, "key %s not listed", keys[i]);
	}
	/* start-after with a UTF-8 key */
	list_into(os, "utf8/", "utf8/caf", &l, 0);
	ck_assert_int_eq(l.n, 1);
	for (int i = 0; i < nkeys; i++)
		ck_assert_int_eq(obj_delete(os, keys[i]), RL_OK);
	list_into(os, "", NULL, &l, 0);
	ck_assert_int_eq(l.n, 0);
	obj_close(os);
}
END_TEST

START_TEST(test_prefix_isolation)
{
	ObjectStore *parent = open_store("tree", 0, NULL);
	ObjectStore *child = open_store("tree/db1", 0, NULL);
	ObjectStore *sibling = open_store("tree/db10", 0, NULL);
	Listing		l;

	put_ok(child, "k", "child", NULL);
	put_ok(sibling, "k", "sibling", NULL);
	assert_get(parent, "db1/k", 0, OBJ_TO_END, "child");
	list_into(child, "", NULL, &l, 0);
	ck_assert_int_eq(l.n, 1);	/* db10/ is not under db1/ */
	ck_assert_str_eq(l.keys[0], "k");
	list_into(parent, "", NULL, &l, 0);
	ck_assert_int_eq(l.n, 2);
	ck_assert_str_eq(l.keys[0], "db1/k");
	ck_assert_str_eq(l.keys[1], "db10/k");
	obj_close(parent);
	obj_close(child);
	obj_close(sibling);
}
END_TEST

START_TEST(test_open_url_from_env)
{
	char		url[256];
	ObjectStore *os;
	Listing		l;

	snprintf(url, sizeof(url), "s3://%s/%s/from-env", bucket, run_prefix);
	setenv("AWS_ENDPOINT_URL", endpoint, 1);
	setenv("ROCKLAKE_S3_LIST_PAGE", "1", 1);
	os = objstore_open_url(url);
	ck_assert_msg(os != NULL, "open %s: %s", url, rl_last_error());
	ck_assert(strstr(os->description, "/from-env/ at ") != NULL);
	put_ok(os, "one", "1", NULL);
	put_ok(os, "two", "2", NULL);
	list_into(os, "", NULL, &l, 0);
	ck_assert_int_eq(l.n, 2);
	obj_close(os);
}
END_TEST

START_TEST(test_missing_bucket)
{
	S3Config	cfg;
	ObjectStore *os;
	RlBuf		buf;

	memset(&cfg, 0, sizeof(cfg));
	cfg.endpoint = (char *) endpoint;
	cfg.bucket = "rocklake-no-such-bucket";
	cfg.access_key = getenv("AWS_ACCESS_KEY_ID");
	cfg.secret_key = getenv("AWS_SECRET_ACCESS_KEY");
	os = objstore_s3_open(&cfg);
	ck_assert_ptr_nonnull(os);
	rlbuf_init(&buf);
	ck_assert_int_eq(obj_get(os, "k", &buf), RL_INVALID);
	ck_assert_msg(strstr(rl_last_error(), "NoSuchBucket") != NULL, "%s", rl_last_error());
	rlbuf_free(&buf);
	obj_close(os);
}
END_TEST

START_TEST(test_unreachable_endpoint)
{
	S3Config	cfg;
	ObjectStore *os;
	RlBuf		buf;

	memset(&cfg, 0, sizeof(cfg));
	cfg.endpoint = "http://127.0.0.1:1";	/* nothing listens on port 1 */
	cfg.bucket = (char *) bucket;
	cfg.access_key = "AK";
	cfg.secret_key = "SK";
	cfg.max_attempts = 3;
	cfg.base_backoff_ms = 1;
	cfg.max_backoff_ms = 4;
	os = objstore_s3_open(&cfg);
	rlbuf_init(&buf);
	ck_assert_int_eq(obj_get(os, "k", &buf), RL_UNAVAILABLE);
	ck_assert_msg(strstr(rl_last_error(), "after 3 attempts") != NULL, "%s", rl_last_error());
	rlbuf_free(&buf);
	obj_close(os);
}
END_TEST

/*
 * The requests a server that checks signatures must accept (and refuse); the other
 * cases, LIST's included, are signed requests too, checked by a server that checks.
 */
START_TEST(test_signed_requests)
{
	ObjectStore *os = open_store("signed", 0, NULL);
	ObjectStore *forged;
	char		etag[OBJ_ETAG_MAX];
	const char *verifies = getenv("ROCKLAKE_TEST_S3_VERIFIES_SIGNATURES");
	ObjInfo		info;
	RlBuf		buf;

	ck_assert_int_eq(obj_put(os, "k 1", "a", 1, OBJ_PUT_IF_NONE_MATCH, NULL, etag), RL_OK);
	ck_assert_int_eq(obj_put(os, "k 1", "b", 1, OBJ_PUT_IF_MATCH, etag, NULL), RL_OK);
	put_ok(os, "k 2", "c", NULL);
	put_ok(os, "k 3", "d", NULL);
	assert_get(os, "k 1", 0, OBJ_TO_END, "b");
	assert_get(os, "k 2", 0, 1, "c");
	assert_get(os, "k 3", 0, 1, "d");
	ck_assert_int_eq(obj_head(os, "k 2", &info), RL_OK);
	ck_assert_int_eq(obj_delete(os, "k 3"), RL_OK);
	ck_assert_msg(objstore_self_test(os) == RL_OK, "%s", rl_last_error());
	obj_close(os);

	if (verifies == NULL || strcmp(verifies, "1") != 0)
		return;
	forged = open_store("signed", 0, "not-the-secret");
	rlbuf_init(&buf);
	ck_assert_int_eq(obj_get(forged, "k 1", &buf), RL_IO_ERROR);
	ck_assert_msg(strstr(rl_last_error(), "SignatureDoesNotMatch") != NULL, "%s", rl_last_error());
	rlbuf_free(&buf);
	obj_close(forged);
}
END_TEST

/* ---- scripted fault server ---- */

#define MAX_SCRIPTED 8

typedef struct ScriptedReply
{
	int			status;
	const char *headers;		/* extra "Name: value\r\n" lines; %PUTID% is the first
								 * x-amz-meta-putid a request carried */
	const char *body;
	int			short_body;		/* announce the body but send only this many bytes */
	bool		keep_alive;		/* serve the next reply on the same connection */
	bool		drop;			/* read the request, then close without an answer */
} ScriptedReply;

typedef struct FakeServer
{
	int			listen_fd;
	pthread_t	thread;
	const ScriptedReply *replies;
	int			nreplies;
	int			served;
	char		methods[MAX_SCRIPTED][8];
	char		amz_dates[MAX_SCRIPTED][20];
	char		first_putid[64];
} FakeServer;

/* Copy the value of header name (case-insensitive) out of a request head. */
static void
request_header(const char *head, const char *name, char *out, size_t outlen)
{
	char		needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), "\r\n%s:", name);
	p = strcasestr(head, needle);
	out[0] = '\0';
	if (p == NULL)
		return;
	p += strlen(needle);
	while (*p == ' ')
		p++;
	snprintf(out, outlen, "%.*s", (int) strcspn(p, "\r\n"), p);
}

static void
serve_one(FakeServer *fs, int fd, const ScriptedReply *r)
{
	char		head[8192];
	size_t		len = 0;
	char		value[64];
	char		extra[512];
	char		reply[2048];
	const char *at;
	long		body_len;
	int			n;
	ssize_t		got;

	while (len < sizeof(head) - 1 && (got = read(fd, head + len, sizeof(head) - 1 - len)) > 0)
	{
		len += (size_t) got;
		head[len] = '\0';
		if (strstr(head, "\r\n\r\n"))
			break;
	}
	head[len] = '\0';
	/* drain the request body so the client sees its upload complete */
	request_header(head, "Content-Length", value, sizeof(value));
	body_len = atol(value) - (long) (len - (size_t) (strstr(head, "\r\n\r\n") + 4 - head));
	while (body_len > 0 && (got = read(fd, extra, sizeof(extra))) > 0)
		body_len -= got;

	snprintf(fs->methods[fs->served], sizeof(fs->methods[0]), "%.*s",
			 (int) strcspn(head, " "), head);
	request_header(head, "x-amz-date", fs->amz_dates[fs->served], sizeof(fs->amz_dates[0]));
	if (fs->first_putid[0] == '\0')
		request_header(head, "x-amz-meta-putid", fs->first_putid, sizeof(fs->first_putid));
	if (r->drop)
	{
		fs->served++;
		return;
	}

	snprintf(extra, sizeof(extra), "%s", r->headers ? r->headers : "");
	if ((at = strstr(r->headers ? r->headers : "", "%PUTID%")) != NULL)
		snprintf(extra, sizeof(extra), "%.*s%s%s", (int) (at - r->headers), r->headers,
				 fs->first_putid, at + 7);
	n = snprintf(reply, sizeof(reply),
				 "HTTP/1.1 %d Scripted\r\nContent-Length: %zu\r\n%s%s\r\n",
				 r->status, strlen(r->body), r->keep_alive ? "" : "Connection: close\r\n", extra);
	if (strcmp(fs->methods[fs->served], "HEAD") != 0)
		n += snprintf(reply + n, sizeof(reply) - (size_t) n, "%.*s",
					  r->short_body ? r->short_body : (int) strlen(r->body), r->body);
	if (write(fd, reply, (size_t) n) != n)
		return;
	fs->served++;
}

static void *
fake_server_main(void *arg)
{
	FakeServer *fs = arg;

	int			fd = -1;

	for (int i = 0; i < fs->nreplies; i++)
	{
		if (fd < 0 && (fd = accept(fs->listen_fd, NULL, NULL)) < 0)
			break;
		serve_one(fs, fd, &fs->replies[i]);
		if (!fs->replies[i].keep_alive)
		{
			close(fd);
			fd = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * Start a server that answers successive requests with replies, in order, each on
 * a connection of its own unless the previous reply kept its connection alive.
 */
static ObjectStore *
start_fake_server(FakeServer *fs, const ScriptedReply *replies, int nreplies)
{
	struct sockaddr_in addr;
	socklen_t	addrlen = sizeof(addr);
	char		url[64];
	S3Config	cfg;
	ObjectStore *os;

	memset(fs, 0, sizeof(*fs));
	fs->replies = replies;
	fs->nreplies = nreplies;
	fs->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fs->listen_fd, (struct sockaddr *) &addr, sizeof(addr)), 0);
	ck_assert_int_eq(listen(fs->listen_fd, 8), 0);
	getsockname(fs->listen_fd, (struct sockaddr *) &addr, &addrlen);
	ck_assert_int_eq(pthread_create(&fs->thread, NULL, fake_server_main, fs), 0);

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", ntohs(addr.sin_port));
	memset(&cfg, 0, sizeof(cfg));
	cfg.endpoint = url;
	cfg.bucket = "scripted";
	cfg.access_key = "AK";
	cfg.secret_key = "SK";
	cfg.max_attempts = 3;
	cfg.base_backoff_ms = 1;
	cfg.max_backoff_ms = 4;
	os = objstore_s3_open(&cfg);
	ck_assert_ptr_nonnull(os);
	return os;
}

static void
stop_fake_server(FakeServer *fs, ObjectStore *os)
{
	obj_close(os);
	shutdown(fs->listen_fd, SHUT_RDWR);
	pthread_join(fs->thread, NULL);
	close(fs->listen_fd);
}

#define S3_ERROR(code) "<?xml version=\"1.0\"?><Error><Code>" code "</Code><Message>scripted</Message></Error>"

START_TEST(test_lost_response_then_own_object)
{
	static const ScriptedReply replies[] = {
		{500, NULL, S3_ERROR("InternalError"), 0, false, false},	/* landed, answer lost */
		{412, NULL, S3_ERROR("PreconditionFailed"), 0, false, false},
		{200, "ETag: \"e1\"\r\nx-amz-meta-putid: %PUTID%\r\n", "", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os = start_fake_server(&fs, replies, 3);
	char		etag[OBJ_ETAG_MAX];
	RlStatus	st = obj_put(os, "fence", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, etag);

	stop_fake_server(&fs, os);
	ck_assert_msg(st == RL_OK, "%s", rl_last_error());
	ck_assert_str_eq(etag, "\"e1\"");
	ck_assert_int_eq(fs.served, 3);
	ck_assert_str_eq(fs.methods[2], "HEAD");
	ck_assert_int_eq((int) strlen(fs.first_putid), 32);
}
END_TEST

/*
 * The server takes a PUT on a kept-alive connection and closes it without an
 * answer. libcurl then sends the request again on a new connection by itself (it
 * does so when a reused connection dies before any byte of the answer), so the one
 * attempt we see is a 412 caused by our own write: the put id must be checked on
 * every 412, not only after an attempt we saw fail.
 */
START_TEST(test_silent_resend_after_dead_connection)
{
	static const ScriptedReply replies[] = {
		{200, NULL, "warm", 0, true, false},
		{0, NULL, "", 0, false, true},	/* landed, the connection died */
		{412, NULL, S3_ERROR("PreconditionFailed"), 0, false, false},
		{200, "ETag: \"e3\"\r\nx-amz-meta-putid: %PUTID%\r\n", "", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os = start_fake_server(&fs, replies, 4);
	RlBuf		buf;
	char		etag[OBJ_ETAG_MAX];
	RlStatus	st;

	rlbuf_init(&buf);
	ck_assert_int_eq(obj_get(os, "warm", &buf), RL_OK);
	rlbuf_free(&buf);
	st = obj_put(os, "wal", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, etag);
	stop_fake_server(&fs, os);
	ck_assert_msg(st == RL_OK, "%s", rl_last_error());
	ck_assert_str_eq(etag, "\"e3\"");
	ck_assert_int_eq(fs.served, 4);
	ck_assert_str_eq(fs.methods[1], "PUT");
	ck_assert_str_eq(fs.methods[2], "PUT");
	ck_assert_str_eq(fs.methods[3], "HEAD");
}
END_TEST

START_TEST(test_lost_response_then_other_writer)
{
	static const ScriptedReply replies[] = {
		{502, NULL, "", 0, false, false},
		{412, NULL, S3_ERROR("PreconditionFailed"), 0, false, false},
		{200, "ETag: \"e2\"\r\nx-amz-meta-putid: 0123456789abcdef0123456789abcdef\r\n", "", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os = start_fake_server(&fs, replies, 3);
	RlStatus	st = obj_put(os, "fence", "x", 1, OBJ_PUT_IF_MATCH, "\"e0\"", NULL);

	stop_fake_server(&fs, os);
	ck_assert_int_eq(st, RL_PRECONDITION);
	ck_assert(strstr(rl_last_error(), "PreconditionFailed") != NULL);
}
END_TEST

START_TEST(test_conflict_is_retried_not_ambiguous)
{
	static const ScriptedReply replies[] = {
		{409, NULL, S3_ERROR("ConditionalRequestConflict"), 0, false, false},
		{412, NULL, S3_ERROR("PreconditionFailed"), 0, false, false},
		{200, "ETag: \"e4\"\r\nx-amz-meta-putid: 0123456789abcdef0123456789abcdef\r\n", "", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os = start_fake_server(&fs, replies, 3);
	RlStatus	st = obj_put(os, "fence", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, NULL);

	stop_fake_server(&fs, os);
	ck_assert_int_eq(st, RL_PRECONDITION);
	ck_assert_int_eq(fs.served, 3);	/* a 409 is retried; the 412 is checked, not ours */
	ck_assert_str_eq(fs.methods[2], "HEAD");
}
END_TEST

START_TEST(test_slowdown_exhausts_attempts)
{
	static const ScriptedReply replies[] = {
		{503, NULL, S3_ERROR("SlowDown"), 0, false, false},
		{503, NULL, S3_ERROR("SlowDown"), 0, false, false},
		{503, NULL, S3_ERROR("SlowDown"), 0, false, false},
	};
	FakeServer	fs;
	StorageStats stats = {0};
	ObjectStore *os = start_fake_server(&fs, replies, 3);
	RlStatus	st;

	storage_stats = &stats;		/* the counters the metrics endpoint shows */
	st = obj_put(os, "k", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL);
	storage_stats = NULL;
	stop_fake_server(&fs, os);
	ck_assert_int_eq(st, RL_UNAVAILABLE);
	ck_assert_uint_eq(stats.requests[OBJ_OP_PUT], 1);
	ck_assert_uint_eq(stats.errors[OBJ_OP_PUT][RL_UNAVAILABLE], 1);
	ck_assert_uint_eq(stats.s3_retries, 2);
	ck_assert_msg(strstr(rl_last_error(), "SlowDown") != NULL &&
				  strstr(rl_last_error(), "may have been applied") != NULL, "%s", rl_last_error());
}
END_TEST

static int64_t
amz_date_seconds(const char *amz_date)
{
	struct tm	tm;

	memset(&tm, 0, sizeof(tm));
	ck_assert_ptr_nonnull(strptime(amz_date, "%Y%m%dT%H%M%SZ", &tm));
	return (int64_t) timegm(&tm);
}

START_TEST(test_clock_skew_is_corrected)
{
	char		skewed[128];
	time_t		server_now = time(NULL) + 2 * 3600;
	struct tm	tm;
	ScriptedReply replies[] = {
		{403, skewed, S3_ERROR("RequestTimeTooSkewed"), 0, false, false},
		{200, NULL, "ok", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os;
	int64_t		correction;

	gmtime_r(&server_now, &tm);
	strftime(skewed, sizeof(skewed), "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &tm);
	os = start_fake_server(&fs, replies, 2);
	assert_get(os, "k", 0, OBJ_TO_END, "ok");
	stop_fake_server(&fs, os);
	correction = amz_date_seconds(fs.amz_dates[1]) - amz_date_seconds(fs.amz_dates[0]);
	ck_assert_msg(correction > 2 * 3600 - 60 && correction < 2 * 3600 + 60,
				  "re-signed %lld s later", (long long) correction);
}
END_TEST

START_TEST(test_short_body_is_retried)
{
	static const ScriptedReply replies[] = {
		{200, NULL, "0123456789", 5, false, false},
		{200, NULL, "0123456789", 0, false, false},
	};
	FakeServer	fs;
	ObjectStore *os = start_fake_server(&fs, replies, 2);

	assert_get(os, "k", 0, OBJ_TO_END, "0123456789");
	stop_fake_server(&fs, os);
	ck_assert_int_eq(fs.served, 2);
}
END_TEST

static Suite *
objstore_s3_suite(void)
{
	Suite	   *s = suite_create("objstore_s3");
	TCase	   *tc = tcase_create("objects");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_put_get_head_delete);
	tcase_add_test(tc, test_ranges);
	tcase_add_test(tc, test_conditional_writes);
	tcase_add_test(tc, test_self_test);
	tcase_add_test(tc, test_list_pages);
	tcase_add_test(tc, test_odd_keys);
	tcase_add_test(tc, test_prefix_isolation);
	tcase_add_test(tc, test_open_url_from_env);
	tcase_add_test(tc, test_missing_bucket);
	tcase_add_test(tc, test_unreachable_endpoint);
	suite_add_tcase(s, tc);

	tc = tcase_create("races");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_racing_conditional_writes);
	suite_add_tcase(s, tc);

	tc = tcase_create("scripted faults");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_lost_response_then_own_object);
	tcase_add_test(tc, test_lost_response_then_other_writer);
	tcase_add_test(tc, test_silent_resend_after_dead_connection);
	tcase_add_test(tc, test_conflict_is_retried_not_ambiguous);
	tcase_add_test(tc, test_slowdown_exhausts_attempts);
	tcase_add_test(tc, test_clock_skew_is_corrected);
	tcase_add_test(tc, test_short_body_is_retried);
	suite_add_tcase(s, tc);

	tc = tcase_create("signed requests");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_signed_requests);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	const char *ci = getenv("CI");
	char		ulid[ULID_LEN + 1];
	SRunner    *sr;
	int			failed;

	endpoint = getenv("ROCKLAKE_TEST_S3_ENDPOINT");
	if (endpoint == NULL || endpoint[0] == '\0')
	{
		if (ci != NULL && strcmp(ci, "true") == 0)
		{
			fprintf(stderr, "ROCKLAKE_TEST_S3_ENDPOINT is not set: in CI the S3 tests must run\n");
			return EXIT_FAILURE;
		}
		fprintf(stderr, "ROCKLAKE_TEST_S3_ENDPOINT is not set: skipping the S3 backend tests\n");
		return EXIT_SKIP;
	}
	bucket = getenv("ROCKLAKE_TEST_S3_BUCKET");
	if (bucket == NULL)
		bucket = "rocklake-test";
	if (getenv("AWS_ACCESS_KEY_ID") == NULL)
		setenv("AWS_ACCESS_KEY_ID", "testing", 1);
	if (getenv("AWS_SECRET_ACCESS_KEY") == NULL)
		setenv("AWS_SECRET_ACCESS_KEY", "testing", 1);
	ulid_generate(ulid, rl_now_ms());
	snprintf(run_prefix, sizeof(run_prefix), "run-%s", ulid);

	sr = srunner_create(objstore_s3_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
