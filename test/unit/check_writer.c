/*
 * check_writer.c: the writer process and its client library (writer.c) against a
 * local store: commits are acknowledged with consecutive sequence numbers and are
 * readable afterwards; subscribers hear of every commit; concurrent committers are
 * grouped into fewer WAL objects than commits; a malformed frame costs only its own
 * connection; a writer fenced by a newer one answers 57P01 and exits with
 * WRITER_EXIT_FENCED.
 */
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include "elog.h"
#include "lsm.h"
#include "mcxt.h"
#include "objstore.h"
#include "test_util.h"
#include "writer.h"

static char *dir;
static char store_path[512];
static char socket_path[512];
static pid_t writer_pid;

/* fork a writer on a fresh store and wait until it says it is ready */
static void
start_writer(void)
{
	int			ready[2];
	char		b;

	MemoryContextInit();
	dir = test_mkdtemp();
	snprintf(store_path, sizeof(store_path), "%s/store", dir);
	snprintf(socket_path, sizeof(socket_path), "%s/%s", dir, WRITER_SOCKET_NAME);
	ck_assert_int_eq(pipe(ready), 0);
	writer_pid = fork();
	ck_assert_int_ge(writer_pid, 0);
	if (writer_pid == 0)
	{
		WriterConfig config = {store_path, socket_path, ready[1], 0};

		close(ready[0]);
		log_min_messages = PANIC;
		WriterMain(&config);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &b, 1), 1);
	close(ready[0]);
}

static int
stop_writer(void)
{
	int			status = 0;

	if (writer_pid > 0)
	{
		kill(writer_pid, SIGTERM);
		waitpid(writer_pid, &status, 0);
		writer_pid = 0;
	}
	test_rmdir(dir);
	return status;
}

static int
count_wal_objects(void)
{
	char		path[600];
	DIR		   *d;
	struct dirent *de;
	int			n = 0;

	snprintf(path, sizeof(path), "%s/wal", store_path);
	d = opendir(path);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

START_TEST(test_commit_and_notify)
{
	WriterConn *c,
			   *sub;
	RlBuf		req;
	WriterCommitResult res;
	uint64_t	newest;
	ObjectStore *os;
	Lsm		   *follower;
	RlBuf		value;

	start_writer();
	sub = writer_connect(socket_path);
	ck_assert_ptr_nonnull(sub);
	ck_assert_int_eq(writer_subscribe(sub), RL_OK);
	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 0);

	c = writer_connect(socket_path);
	ck_assert_ptr_nonnull(c);
	rlbuf_init(&req);
	writer_request_init(&req, 0);
	writer_request_put(&req, "k1", 2, "v1", 2);
	writer_request_put(&req, "k2", 2, "v2", 2);
	writer_request_delete(&req, "k3", 2);
	ck_assert_int_eq(writer_commit(c, &req, &res), RL_OK);
	ck_assert(res.committed);
	ck_assert_uint_eq(res.commit_seq, 1);
	ck_assert_str_eq(res.sqlstate, "00000");

	writer_request_init(&req, 1);
	writer_request_delete(&req, "k1", 2);
	ck_assert_int_eq(writer_commit(c, &req, &res), RL_OK);
	ck_assert_uint_eq(res.commit_seq, 2);
	ck_assert_uint_eq(writer_newest_seq(c), 2);

	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 1);
	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 2);
	ck_assert_int_eq(writer_wait_notify(sub, 100, &newest), RL_NOT_FOUND);

	/* durable and readable by anyone */
	os = objstore_local_open(store_path);
	ck_assert_int_eq(lsm_open_follower(os, NULL, &follower), RL_OK);
	rlbuf_init(&value);
	ck_assert_int_eq(lsm_get(follower, "k2", 2, &value), RL_OK);
	ck_assert_mem_eq(value.data, "v2", 2);
	ck_assert_int_eq(lsm_get(follower, "k1", 2, &value), RL_NOT_FOUND);
	lsm_close(follower);
	obj_close(os);

	rlbuf_free(&value);
	rlbuf_free(&req);
	writer_disconnect(c);
	writer_disconnect(sub);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

#define COMMITTERS 8
#define COMMITS_EACH 25

START_TEST(test_group_commit)
{
	pid_t		kids[COMMITTERS];
	int			wal_before;

	start_writer();
	wal_before = count_wal_objects();
	for (int k = 0; k < COMMITTERS; k++)
	{
		kids[k] = fork();
		ck_assert_int_ge(kids[k], 0);
		if (kids[k] == 0)
		{
			WriterConn *c = writer_connect(socket_path);
			RlBuf		req;
			WriterCommitResult res;
			uint64_t	last = 0;

			if (c == NULL)
				_exit(10);
			rlbuf_init(&req);
			for (int i = 0; i < COMMITS_EACH; i++)
			{
				char		key[32];

				snprintf(key, sizeof(key), "c%d-%d", k, i);
				writer_request_init(&req, last);
				writer_request_put(&req, key, strlen(key), "x", 1);
				if (writer_commit(c, &req, &res) != RL_OK || !res.committed ||
					res.commit_seq <= last)
					_exit(11);
				last = res.commit_seq;
			}
			_exit(0);
		}
	}
	for (int k = 0; k < COMMITTERS; k++)
	{
		int			status;

		waitpid(kids[k], &status, 0);
		ck_assert_int_eq(WEXITSTATUS(status), 0);
	}
	/* every commit got its own sequence number, in fewer WAL objects */
	{
		WriterConn *c = writer_connect(socket_path);
		uint64_t	newest;

		ck_assert_int_eq(writer_subscribe(c), RL_OK);
		ck_assert_int_eq(writer_wait_notify(c, 5000, &newest), RL_OK);
		ck_assert_uint_eq(newest, COMMITTERS * COMMITS_EACH);
		writer_disconnect(c);
	}
	ck_assert_int_lt(count_wal_objects() - wal_before, COMMITTERS * COMMITS_EACH);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

START_TEST(test_malformed_frame)
{
	WriterConn *bad,
			   *good;
	RlBuf		req;
	WriterCommitResult res;
	static const uint8_t junk[] = {'C', 0, 0, 0, 9, 1, 2, 3, 4, 5};
	char		b;

	start_writer();
	bad = writer_connect(socket_path);
	ck_assert_int_eq(write(writer_conn_fd(bad), junk, sizeof(junk)), (ssize_t) sizeof(junk));
	ck_assert_int_eq(read(writer_conn_fd(bad), &b, 1), 0);	/* closed */
	writer_disconnect(bad);

	good = writer_connect(socket_path);
	rlbuf_init(&req);
	writer_request_init(&req, 0);
	writer_request_put(&req, "a", 1, "b", 1);
	ck_assert_int_eq(writer_commit(good, &req, &res), RL_OK);
	ck_assert(res.committed);
	rlbuf_free(&req);
	writer_disconnect(good);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

START_TEST(test_fenced_writer)
{
	WriterConn *c;
	RlBuf		req;
	WriterCommitResult res;
	ObjectStore *os;
	Lsm		   *usurper;
	int			status;

	start_writer();
	c = writer_connect(socket_path);
	os = objstore_local_open(store_path);
	ck_assert_int_eq(lsm_open_writer(os, NULL, &usurper), RL_OK);

	rlbuf_init(&req);
	writer_request_init(&req, 0);
	writer_request_put(&req, "a", 1, "b", 1);
	ck_assert_int_eq(writer_commit(c, &req, &res), RL_OK);
	ck_assert(!res.committed);
	ck_assert_str_eq(res.sqlstate, "57P01");
	waitpid(writer_pid, &status, 0);
	writer_pid = 0;
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), WRITER_EXIT_FENCED);
	rlbuf_free(&req);
	writer_disconnect(c);
	lsm_close(usurper);
	obj_close(os);
	stop_writer();
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("writer");
	TCase	   *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_commit_and_notify);
	tcase_add_test(tc, test_group_commit);
	tcase_add_test(tc, test_malformed_frame);
	tcase_add_test(tc, test_fenced_writer);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
