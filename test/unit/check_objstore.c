/*
 * check_objstore.c: conformance of the local-directory object store (the semantics
 * the S3 backend shares: conditional writes, ranged reads, ordered listing with
 * start-after; its slots, empty, filled and torn), the self-test that refuses
 * stores without conditional writes, the fault-injection wrapper the crash
 * tests rely on, and the writer lease (storage/lease.h) in both its forms: the
 * local store's lock and the object a store without one keeps.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/ulid.h"
#include "storage/lease.h"
#include "storage/objstore.h"
#include "test_util.h"

static char *dir;
static ObjectStore *os;

static void
setup(void)
{
	dir = test_mkdtemp();
	os = objstore_local_open(dir);
	ck_assert_ptr_nonnull(os);
}

static void
teardown(void)
{
	obj_close(os);
	test_rmdir(dir);
}

static void
assert_content(const char *key, const char *expect)
{
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_get(os, key, &b), RL_OK);
	ck_assert_str_eq(rlbuf_cstr(&b), expect);
	rlbuf_free(&b);
}

static void
assert_absent(const char *key)
{
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_get(os, key, &b), RL_NOT_FOUND);
	rlbuf_free(&b);
}

START_TEST(test_put_get_head_delete)
{
	char		etag[OBJ_ETAG_MAX];
	ObjInfo		info;

	ck_assert_int_eq(obj_put(os, "a/b/c.txt", "hello", 5, OBJ_PUT_OVERWRITE, NULL, etag), RL_OK);
	assert_content("a/b/c.txt", "hello");
	ck_assert_int_eq(obj_head(os, "a/b/c.txt", &info), RL_OK);
	ck_assert_uint_eq(info.size, 5);
	ck_assert_str_eq(info.etag, etag);
	ck_assert_int_eq(obj_put(os, "a/b/c.txt", "bye", 3, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	assert_content("a/b/c.txt", "bye");
	ck_assert_int_eq(obj_delete(os, "a/b/c.txt"), RL_OK);
	ck_assert_int_eq(obj_delete(os, "a/b/c.txt"), RL_OK);
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_get(os, "a/b/c.txt", &b), RL_NOT_FOUND);
	ck_assert_int_eq(obj_head(os, "a/b/c.txt", &info), RL_NOT_FOUND);
	/* empty objects exist and are empty (WAL fences are empty objects) */
	ck_assert_int_eq(obj_put(os, "wal/1", "", 0, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_get(os, "wal/1", &b), RL_OK);
	ck_assert_uint_eq(b.len, 0);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_ranged_get)
{
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_put(os, "r", "0123456789", 10, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_get_range(os, "r", 2, 3, &b), RL_OK);
	ck_assert_str_eq(rlbuf_cstr(&b), "234");
	rlbuf_reset(&b);
	ck_assert_int_eq(obj_get_range(os, "r", 7, 100, &b), RL_OK);
	ck_assert_str_eq(rlbuf_cstr(&b), "789");
	rlbuf_reset(&b);
	ck_assert_int_eq(obj_get_range(os, "r", 10, OBJ_TO_END, &b), RL_OK);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(obj_get_range(os, "r", 11, 1, &b), RL_INVALID);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_conditional_writes)
{
	char		etag1[OBJ_ETAG_MAX],
				etag2[OBJ_ETAG_MAX];

	ck_assert_int_eq(obj_put(os, "m/1", "one", 3, OBJ_PUT_IF_NONE_MATCH, NULL, etag1), RL_OK);
	ck_assert_int_eq(obj_put(os, "m/1", "two", 3, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_PRECONDITION);
	assert_content("m/1", "one");
	ck_assert_int_eq(obj_put(os, "m/1", "two", 3, OBJ_PUT_IF_MATCH, "\"stale\"", NULL), RL_PRECONDITION);
	ck_assert_int_eq(obj_put(os, "m/1", "two", 3, OBJ_PUT_IF_MATCH, etag1, etag2), RL_OK);
	assert_content("m/1", "two");
	ck_assert_str_ne(etag1, etag2);
	ck_assert_int_eq(obj_put(os, "m/1", "three", 5, OBJ_PUT_IF_MATCH, etag1, NULL), RL_PRECONDITION);
	ck_assert_int_eq(obj_put(os, "m/absent", "x", 1, OBJ_PUT_IF_MATCH, etag1, NULL), RL_NOT_FOUND);
	/* no temporary file is left behind and none is listed */
	ck_assert_int_eq(objstore_self_test(os), RL_OK);
}
END_TEST

static bool
count_listed(const ObjInfo *info, void *arg)
{
	int		   *n = arg;

	(void) info;
	(*n)++;
	return true;
}

static int
listed(const char *prefix)
{
	int			n = 0;

	ck_assert_int_eq(obj_list(os, prefix, NULL, count_listed, &n), RL_OK);
	return n;
}

/* obj_prepare, until its thread has made the slot (it skips while another is made) */
static void
prepared(const char *key)
{
	char		path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	for (int i = 0; i < 2000 && stat(path, &st) != 0; i++)
	{
		obj_prepare(os, key);
		usleep(1000);
	}
	ck_assert_int_eq(stat(path, &st), 0);
}

/* what a crash part way through filling a slot leaves: a header whose payload fails */
static void
tear_slot(const char *key)
{
	char		path[512];
	uint8_t		header[32] = "RLSLOT0R";

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	rl_store_u64be(header + 8, 5);
	rl_store_u32le(header + 16, crc32c("whole", 5));
	rl_store_u32le(header + 20, crc32c(header, 20));

	int			fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, "wh", 2, 32), 2);
	ck_assert_int_eq(pwrite(fd, header, 32, 0), 32);
	close(fd);
}

/*
 * obj_prepare makes an empty slot at the key, which is no object until a
 * create-if-absent put fills it; a torn fill reads as absent too
 */
START_TEST(test_slots)
{
	char		etag[OBJ_ETAG_MAX];
	ObjInfo		info;
	RlBuf		b;

	prepared("wal/0001");
	obj_prepare(os, "wal/0001");	/* once is enough */
	/* its maker marks it ready once its name is durable */
	char		state = 0;

	for (int i = 0; i < 2000 && state != 'R'; i++)
	{
		char		slot[512];
		int			sfd;

		snprintf(slot, sizeof(slot), "%s/wal/0001", dir);
		sfd = open(slot, O_RDONLY);
		ck_assert_int_eq(pread(sfd, &state, 1, 7), 1);
		close(sfd);
		usleep(1000);
	}
	ck_assert_int_eq(state, 'R');
	assert_absent("wal/0001");
	ck_assert_int_eq(obj_head(os, "wal/0001", &info), RL_NOT_FOUND);
	ck_assert_int_eq(listed("wal/"), 0);
	ck_assert_int_eq(obj_put(os, "wal/0001", "first", 5, OBJ_PUT_IF_NONE_MATCH, NULL, etag), RL_OK);
	assert_content("wal/0001", "first");
	ck_assert_int_eq(obj_head(os, "wal/0001", &info), RL_OK);
	ck_assert_uint_eq(info.size, 5);
	ck_assert_str_eq(info.etag, etag);
	ck_assert_int_eq(listed("wal/"), 1);
	rlbuf_init(&b);
	ck_assert_int_eq(obj_get_range(os, "wal/0001", 1, 3, &b), RL_OK);
	ck_assert_int_eq(memcmp(b.data, "irs", 3), 0);
	rlbuf_free(&b);
	ck_assert_int_eq(obj_put(os, "wal/0001", "again", 5, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_PRECONDITION);
	obj_prepare(os, "wal/0001");	/* an object is left alone */
	assert_content("wal/0001", "first");

	/* the next prepare gives back the blocks past the filled slot's payload */
	struct stat st;
	char		first[512];

	snprintf(first, sizeof(first), "%s/wal/0001", dir);
	prepared("wal/0002");
	for (int i = 0; i < 2000 && stat(first, &st) == 0 && st.st_blocks * 512 > 8192; i++)
		usleep(1000);
	ck_assert_int_le(st.st_blocks * 512, 8192);
	assert_content("wal/0001", "first");
	ck_assert_int_eq(obj_delete(os, "wal/0002"), RL_OK);

	/* more than a slot holds goes in whole, in place of the slot */
	size_t		big = 100 * 1024;
	char	   *data = malloc(big);

	memset(data, 'x', big);
	prepared("db/7/wal/0002");
	ck_assert_int_eq(obj_put(os, "db/7/wal/0002", data, big, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_head(os, "db/7/wal/0002", &info), RL_OK);
	ck_assert_uint_eq(info.size, big);
	ck_assert_int_eq(obj_put(os, "db/7/wal/0002", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_PRECONDITION);
	free(data);

	/* a torn fill is no object, and the slot can still be filled */
	prepared("wal/0003");
	tear_slot("wal/0003");
	assert_absent("wal/0003");
	ck_assert_int_eq(listed("wal/"), 1);
	ck_assert_int_eq(obj_put(os, "wal/0003", "third", 5, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_OK);
	assert_content("wal/0003", "third");

	/* a slot whose maker died before its name was durable: absent, and fillable */
	char		path[512];
	uint8_t    *pending = calloc(1, 32 + 64 * 1024);

	memcpy(pending, "RLSLOT0P", 8);
	snprintf(path, sizeof(path), "%s/wal/0006", dir);
	int			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	ck_assert_int_eq(write(fd, pending, 32 + 64 * 1024), 32 + 64 * 1024);
	close(fd);
	free(pending);
	assert_absent("wal/0006");
	ck_assert_int_eq(obj_put(os, "wal/0006", "sixth", 5, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_OK);
	assert_content("wal/0006", "sixth");
	ck_assert_int_eq(obj_delete(os, "wal/0006"), RL_OK);

	/* a replacement and a delete treat a slot as a file */
	prepared("wal/0004");
	ck_assert_int_eq(obj_put(os, "wal/0004", "over", 4, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	assert_content("wal/0004", "over");
	prepared("wal/0005");
	ck_assert_int_eq(obj_delete(os, "wal/0005"), RL_OK);
	ck_assert_int_eq(obj_delete(os, "wal/0003"), RL_OK);
	ck_assert_int_eq(listed("wal/"), 2);

	/* nothing is left in the directory but the objects */
	obj_close(os);
	os = objstore_local_open(dir);
	DIR		   *d = opendir(dir);
	struct dirent *de;
	int			entries = 0;

	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
		{
			ck_assert_msg(strcmp(de->d_name, "wal") == 0 || strcmp(de->d_name, "db") == 0,
						  "unexpected entry %s", de->d_name);
			entries++;
		}
	closedir(d);
	ck_assert_int_eq(entries, 2);
	ck_assert_int_eq(objstore_self_test(os), RL_OK);
}
END_TEST

typedef struct Racer
{
	int			index;
	RlStatus	result;
} Racer;

static void *
race_create(void *arg)
{
	Racer	   *r = arg;
	char		body[16];

	snprintf(body, sizeof(body), "racer-%d", r->index);
	r->result = obj_put(os, "race/key", body, strlen(body), OBJ_PUT_IF_NONE_MATCH, NULL, NULL);
	return NULL;
}

START_TEST(test_create_race_one_winner)
{
	enum
	{
	NRACERS = 32};
	pthread_t	t[NRACERS];
	Racer		r[NRACERS];
	int			winners = 0;

	for (int round = 0; round < 6; round++)
	{
		obj_delete(os, "race/key");
		if (round % 2)
			prepared("race/key");	/* the racers fill a slot */
		else
			obj_prepare(os, "race/key");	/* one is made while they put */
		for (int i = 0; i < NRACERS; i++)
		{
			r[i].index = i;
			pthread_create(&t[i], NULL, race_create, &r[i]);
		}
		winners = 0;
		for (int i = 0; i < NRACERS; i++)
		{
			pthread_join(t[i], NULL);
			ck_assert(r[i].result == RL_OK || r[i].result == RL_PRECONDITION);
			winners += r[i].result == RL_OK;
		}
		ck_assert_int_eq(winners, 1);
		ck_assert_int_eq(obj_head(os, "race/key", &(ObjInfo) {0}), RL_OK);
	}
}
END_TEST

typedef struct Listing
{
	char		keys[64][64];
	int			n;
	int			stop_after;
} Listing;

static bool
listing_cb(const ObjInfo *info, void *arg)
{
	Listing    *l = arg;

	snprintf(l->keys[l->n++], 64, "%s", info->key);
	return l->stop_after == 0 || l->n < l->stop_after;
}

START_TEST(test_list_order_prefix_start_after)
{
	const char *keys[] = {"wal/00000000000000000002.sst", "wal/00000000000000000010.sst",
	"wal/00000000000000000001.sst", "manifest/00000000000000000001.manifest", "walrus", "a b/ü"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_int_eq(obj_put(os, keys[i], "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	Listing		l = {0};

	ck_assert_int_eq(obj_list(os, "wal/", NULL, listing_cb, &l), RL_OK);
	ck_assert_int_eq(l.n, 3);
	ck_assert_str_eq(l.keys[0], "wal/00000000000000000001.sst");
	ck_assert_str_eq(l.keys[2], "wal/00000000000000000010.sst");
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(obj_list(os, "wal/", "wal/00000000000000000001.sst", listing_cb, &l), RL_OK);
	ck_assert_int_eq(l.n, 2);
	ck_assert_str_eq(l.keys[0], "wal/00000000000000000002.sst");
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(obj_list(os, "wal", NULL, listing_cb, &l), RL_OK);
	ck_assert_int_eq(l.n, 4);	/* wal/... and walrus */
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(obj_list(os, "", NULL, listing_cb, &l), RL_OK);
	ck_assert_int_eq(l.n, 6);
	ck_assert_str_eq(l.keys[0], "a b/ü");
	memset(&l, 0, sizeof(l));
	l.stop_after = 2;
	ck_assert_int_eq(obj_list(os, "", NULL, listing_cb, &l), RL_OK);
	ck_assert_int_eq(l.n, 2);
}
END_TEST

START_TEST(test_invalid_keys)
{
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_put(os, "../escape", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_INVALID);
	ck_assert_int_eq(obj_put(os, "/abs", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_INVALID);
	ck_assert_int_eq(obj_put(os, "a//b", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_INVALID);
	ck_assert_int_eq(obj_put(os, ".lock", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_INVALID);
	ck_assert_int_eq(obj_get(os, "a/../../x", &b), RL_INVALID);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_self_test_refuses_unconditional_store)
{
	FaultPlan	plan = {.ignore_conditions = true};
	ObjectStore *inner = objstore_local_open(dir);
	ObjectStore *fake = objstore_fault_wrap(inner, &plan);

	ck_assert_int_eq(objstore_self_test(fake), RL_UNSUPPORTED_BACKEND);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "conditional"));
	obj_close(fake);
}
END_TEST

START_TEST(test_fault_actions)
{
	FaultPlan	plan = {.at_mutation = 2, .action = FAULT_CRASH_AFTER};
	ObjectStore *f = objstore_fault_wrap(objstore_local_open(dir), &plan);
	RlBuf		b;

	rlbuf_init(&b);
	ck_assert_int_eq(obj_put(f, "k1", "1", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_put(f, "k2", "2", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_CRASHED);
	ck_assert(objstore_fault_crashed(f));
	ck_assert_int_eq(obj_get(f, "k1", &b), RL_CRASHED);
	assert_content("k2", "2");	/* the write happened before the "crash" */
	obj_close(f);

	plan = (FaultPlan) {.at_mutation = 1, .action = FAULT_CRASH_BEFORE, .only_prefix = "wal/"};
	f = objstore_fault_wrap(objstore_local_open(dir), &plan);
	ck_assert_int_eq(obj_put(f, "other", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_put(f, "wal/1", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_CRASHED);
	ck_assert_int_eq(obj_get(os, "wal/1", &b), RL_NOT_FOUND);
	obj_close(f);

	plan = (FaultPlan) {.at_mutation = 1, .action = FAULT_LOSE_RESPONSE};
	f = objstore_fault_wrap(objstore_local_open(dir), &plan);
	ck_assert_int_eq(obj_put(f, "lost", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_UNAVAILABLE);
	ck_assert_int_eq(obj_put(f, "lost", "x", 1, OBJ_PUT_IF_NONE_MATCH, NULL, NULL), RL_PRECONDITION);
	ck_assert_int_eq(objstore_fault_mutations(f), 2);
	obj_close(f);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_disk_errors_are_reported)
{
	/* a file where a directory should be: publish must fail with a clear I/O error */
	ck_assert_int_eq(obj_put(os, "blocker", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	ck_assert_int_eq(obj_put(os, "blocker/child", "x", 1, OBJ_PUT_OVERWRITE, NULL, NULL), RL_IO_ERROR);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "blocker"));
}
END_TEST


/* The local store's writer lock: one holder, the holder named, gone with its process. */
START_TEST(test_lease_lock)
{
	ObjectStore *os2 = objstore_local_open(dir);
	LeaseHolder me,
				other,
				seen;
	int			ready[2];

	ck_assert_int_eq(lease_holder(os, &seen), RL_NOT_FOUND);
	lease_holder_self(&me, "rocklake");
	snprintf(me.data_directory, sizeof(me.data_directory), "/srv/data");
	me.epoch = 7;
	ck_assert_int_eq(lease_take(os, &me, false, NULL), RL_OK);
	ck_assert_int_eq(lease_take(os, &me, false, NULL), RL_OK);	/* a renewal */
	/* another handle (another open file) is refused and told who holds it */
	ck_assert_int_eq(lease_holder(os2, &seen), RL_OK);
	ck_assert_int_eq(seen.pid, getpid());
	ck_assert_str_eq(seen.data_directory, "/srv/data");
	ck_assert_uint_eq(seen.epoch, 7);
	ck_assert_int_eq(lease_take(os2, &me, false, &other), RL_CONTENDED);
	ck_assert_str_eq(other.program, "rocklake");
	/* a writer taking over cannot take the lock while it is held either */
	ck_assert_int_eq(lease_take(os2, &me, true, NULL), RL_CONTENDED);
	/* the lock goes with the handle */
	obj_close(os);
	os = objstore_local_open(dir);
	ck_assert_int_eq(lease_holder(os2, &seen), RL_NOT_FOUND);
	ck_assert_int_eq(lease_take(os2, &me, false, NULL), RL_OK);
	obj_close(os2);

	/* and with the process, however it ends */
	ck_assert_int_eq(pipe(ready), 0);
	pid_t		child = fork();

	if (child == 0)
	{
		ObjectStore *mine = objstore_local_open(dir);
		LeaseHolder self;

		lease_holder_self(&self, "rocklake");
		_exit(lease_take(mine, &self, false, NULL) != RL_OK ||
			  write(ready[1], "r", 1) != 1 || pause() != 0);
	}
	char		c;

	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(lease_holder(os, &seen), RL_OK);
	ck_assert_int_eq(seen.pid, child);
	ck_assert_int_eq(lease_take(os, &me, false, &other), RL_CONTENDED);
	ck_assert_int_eq(other.pid, child);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ck_assert_int_eq(lease_holder(os, &seen), RL_NOT_FOUND);
	ck_assert_int_eq(lease_take(os, &me, false, NULL), RL_OK);
	close(ready[0]);
	close(ready[1]);
}
END_TEST

/* The lease object (a store without a lock, as S3): live while renewed, conditional for tools. */
START_TEST(test_lease_object)
{
	FaultPlan	plan = {0};
	ObjectStore *obj = objstore_fault_wrap(objstore_local_open(dir), &plan);
	LeaseHolder server,
				tool,
				seen;
	RlBuf		text;

	lease_holder_self(&server, "rocklake");
	lease_holder_self(&tool, "rocklake-admin");
	tool.pid = server.pid + 1;
	ck_assert_int_eq(lease_holder(obj, &seen), RL_NOT_FOUND);
	/* the server's writer takes it whoever holds it; a tool is refused, told who */
	ck_assert_int_eq(lease_take(obj, &tool, false, NULL), RL_OK);
	ck_assert_int_eq(lease_take(obj, &server, true, NULL), RL_OK);
	ck_assert_int_eq(lease_holder(obj, &seen), RL_OK);
	ck_assert_str_eq(seen.program, "rocklake");
	ck_assert_int_eq(lease_take(obj, &tool, false, &seen), RL_CONTENDED);
	ck_assert_int_eq(seen.pid, server.pid);
	/* dropping someone else's lease leaves it */
	lease_drop(obj, &tool);
	ck_assert_int_eq(lease_holder(obj, &seen), RL_OK);
	/* not renewed for LEASE_TTL_MS: not live, a tool takes it */
	server.renewed_ms = rl_now_ms() - LEASE_TTL_MS - 1;
	rlbuf_init(&text);
	lease_encode(&server, &text);
	ck_assert_int_eq(obj_put(obj, LEASE_OBJECT_KEY, text.data, text.len, OBJ_PUT_OVERWRITE, NULL, NULL), RL_OK);
	rlbuf_free(&text);
	ck_assert_int_eq(lease_holder(obj, &seen), RL_NOT_FOUND);
	ck_assert_int_eq(lease_take(obj, &tool, false, NULL), RL_OK);
	ck_assert_int_eq(lease_holder(obj, &seen), RL_OK);
	ck_assert_int_eq(seen.pid, tool.pid);
	/* the tool's own lease is its to renew and to drop */
	ck_assert_int_eq(lease_take(obj, &tool, false, NULL), RL_OK);
	lease_drop(obj, &tool);
	ck_assert_int_eq(lease_holder(obj, &seen), RL_NOT_FOUND);
	obj_close(obj);
}
END_TEST

START_TEST(test_lease_encoding)
{
	LeaseHolder h,
				back;
	RlBuf		text;
	const char *later = "pid=12\nhost=h\nfuture_field=x\n";

	lease_holder_self(&h, "rocklake");
	snprintf(h.data_directory, sizeof(h.data_directory), "/a dir/with\nnewline");
	snprintf(h.address, sizeof(h.address), "* port 5432");
	h.epoch = 42;
	h.renewed_ms = h.since_ms + 5;
	rlbuf_init(&text);
	lease_encode(&h, &text);
	ck_assert_int_eq(lease_decode((const char *) text.data, text.len, &back), RL_OK);
	ck_assert_str_eq(back.host, h.host);
	ck_assert_int_eq(back.pid, h.pid);
	ck_assert_str_eq(back.data_directory, "/a dir/with newline");
	ck_assert_str_eq(back.address, "* port 5432");
	ck_assert_uint_eq(back.epoch, 42);
	ck_assert_int_eq(back.since_ms, h.since_ms);
	ck_assert_int_eq(back.renewed_ms, h.renewed_ms);
	rlbuf_reset(&text);
	lease_describe(&back, &text);
	ck_assert_ptr_nonnull(strstr(rlbuf_cstr(&text), "data directory /a dir/with newline, address * port 5432, writer epoch 42, since "));
	/* a holder whose lease could not be read is not described as anyone */
	memset(&back, 0, sizeof(back));
	rlbuf_reset(&text);
	lease_describe(&back, &text);
	ck_assert_str_eq(rlbuf_cstr(&text), "a process whose lease could not be read");
	rlbuf_free(&text);
	/* a later version's field is skipped; garbage and a lease without a pid are not a lease */
	ck_assert_int_eq(lease_decode(later, strlen(later), &back), RL_OK);
	ck_assert_int_eq(back.pid, 12);
	ck_assert_int_eq(lease_decode("garbage", 7, &back), RL_CORRUPT);
	ck_assert_int_eq(lease_decode("host=h\n", 7, &back), RL_CORRUPT);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("objstore");
	TCase	   *tc = tcase_create("local");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_put_get_head_delete);
	tcase_add_test(tc, test_ranged_get);
	tcase_add_test(tc, test_conditional_writes);
	tcase_add_test(tc, test_slots);
	tcase_add_test(tc, test_create_race_one_winner);
	tcase_add_test(tc, test_list_order_prefix_start_after);
	tcase_add_test(tc, test_invalid_keys);
	tcase_add_test(tc, test_self_test_refuses_unconditional_store);
	tcase_add_test(tc, test_fault_actions);
	tcase_add_test(tc, test_disk_errors_are_reported);
	tcase_add_test(tc, test_lease_lock);
	tcase_add_test(tc, test_lease_object);
	tcase_add_test(tc, test_lease_encoding);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
