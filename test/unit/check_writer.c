/*
 * check_writer.c: the writer process and its client library (writer.c) against a
 * local store: transactions' changesets are acknowledged with consecutive sequence
 * numbers, are in the catalog cache when acknowledged and survive the loss of the
 * cache; subscribers hear of every commit; a conflicting changeset gets 40001 and
 * costs no one else; concurrent committers are grouped into fewer WAL objects than
 * commits; a malformed frame costs only its own connection; a writer fenced by a
 * newer one answers 57P01 and exits with WRITER_EXIT_FENCED; CREATE and DROP
 * DATABASE as commits to the registry open and close independent catalogs; a
 * WriteIntent waits for the transactions that hold writes, within its bound.
 */
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog_cache.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "postmaster/writer.h"
#include "storage/lsm.h"
#include "storage/objstore.h"
#include "test_util.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

static char *dir;
static char store_path[512];
static char socket_path[512];
static char cache_path[512];
static pid_t writer_pid;

#define T_SQL "CREATE TABLE t (_rl_rowid INTEGER PRIMARY KEY, k TEXT UNIQUE, v TEXT)"

/* What sql would change in the catalog cache, computed as a backend does. */
static void
changeset_of(const char *sql, RlBuf *changeset)
{
	sqlite3    *db;
	CacheCapture *capture;

	ck_assert_int_eq(sqlite3_open(cache_path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(cache_capture_begin(db, NULL, &capture), RL_OK);
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
	rlbuf_init(changeset);
	ck_assert_int_eq(cache_capture_end(capture, changeset), RL_OK);
	sqlite3_close(db);
}

static void
commit_sql(WriterConn *c, const char *sql, WriterCommitResult *res)
{
	RlBuf		cs;

	changeset_of(sql, &cs);
	ck_assert_int_eq(writer_commit(c, 0, cs.data, cs.len, res), RL_OK);
	rlbuf_free(&cs);
}

static int
count_rows(const char *where)
{
	sqlite3    *db;
	sqlite3_stmt *stmt;
	char		sql[256];
	int			n;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM t %s", where);
	ck_assert_int_eq(sqlite3_open(cache_path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
	n = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return n;
}

/* fork a writer on the test's store and wait until it says it is ready */
static void
fork_writer(void)
{
	int			ready[2];
	char		b;

	ck_assert_int_eq(pipe(ready), 0);
	writer_pid = fork();
	ck_assert_int_ge(writer_pid, 0);
	if (writer_pid == 0)
	{
		WriterConfig config = {.store_location = store_path, .socket_path = socket_path,
		.data_directory = dir, .ready_fd = ready[1]};

		close(ready[0]);
		log_min_messages = PANIC;
		WriterMain(&config);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &b, 1), 1);
	close(ready[0]);
}

/* a writer on a fresh store */
static void
start_writer(void)
{
	MemoryContextInit();
	dir = test_mkdtemp();
	snprintf(store_path, sizeof(store_path), "%s/store", dir);
	snprintf(socket_path, sizeof(socket_path), "%s/%s", dir, WRITER_SOCKET_NAME);
	catalog_cache_path(cache_path, sizeof(cache_path), dir, CACHE_POSTGRES_DATID);
	fork_writer();
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
	WriterCommitResult res;
	uint64_t	newest;

	start_writer();
	sub = writer_connect(socket_path);
	ck_assert_ptr_nonnull(sub);
	ck_assert_int_eq(writer_subscribe(sub), RL_OK);
	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 1);	/* a new store's first commit: the database registry */

	c = writer_connect(socket_path);
	ck_assert_ptr_nonnull(c);
	commit_sql(c, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL ";"
			   "INSERT INTO t VALUES (NULL, 'k1', 'v1'), (NULL, 'k2', 'v2');", &res);
	ck_assert_msg(res.committed, "%s %s", res.sqlstate, res.message);
	ck_assert_uint_eq(res.commit_seq, 2);
	ck_assert_str_eq(res.sqlstate, "00000");
	ck_assert_int_eq(count_rows(""), 2);	/* visible in the cache once acknowledged */

	commit_sql(c, "DELETE FROM t WHERE k = 'k1'", &res);
	ck_assert(res.committed);
	ck_assert_uint_eq(res.commit_seq, 3);
	ck_assert_uint_eq(writer_newest_seq(c), 3);
	ck_assert_int_eq(count_rows(""), 1);

	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 2);
	ck_assert_int_eq(writer_wait_notify(sub, 5000, &newest), RL_OK);
	ck_assert_uint_eq(newest, 3);
	ck_assert_int_eq(writer_wait_notify(sub, 100, &newest), RL_NOT_FOUND);

	/* a changeset from an old snapshot touching a changed row: 40001, the writer goes on */
	{
		RlBuf		stale;

		changeset_of("UPDATE t SET v = 'mine' WHERE k = 'k2'", &stale);
		commit_sql(c, "UPDATE t SET v = 'theirs' WHERE k = 'k2'", &res);
		ck_assert(res.committed);
		ck_assert_int_eq(writer_commit(c, 0, stale.data, stale.len, &res), RL_OK);
		ck_assert(!res.committed);
		ck_assert_str_eq(res.sqlstate, "40001");
		ck_assert_str_eq(res.message, "could not serialize access due to concurrent update");
		rlbuf_free(&stale);
		ck_assert_int_eq(count_rows("WHERE v = 'theirs'"), 1);
	}
	writer_disconnect(c);
	writer_disconnect(sub);

	/* durable: a writer that lost its cache rebuilds it from the store */
	kill(writer_pid, SIGTERM);
	waitpid(writer_pid, NULL, 0);
	unlink(cache_path);
	fork_writer();
	ck_assert_int_eq(count_rows(""), 1);
	ck_assert_int_eq(count_rows("WHERE k = 'k2' AND v = 'theirs'"), 1);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

/* a WriteIntent on its own thread, timed */
typedef struct IntentWaiter
{
	WriterConn *conn;
	pthread_t	thread;
	int64_t		started_ms;
	int64_t		waited_ms;
	RlStatus	rc;
} IntentWaiter;

static void *
wait_intent(void *arg)
{
	IntentWaiter *w = arg;

	w->rc = writer_write_intent(w->conn);
	w->waited_ms = rl_monotonic_ms() - w->started_ms;
	return NULL;
}

static void
start_intent(IntentWaiter *w, WriterConn *conn)
{
	w->conn = conn;
	w->started_ms = rl_monotonic_ms();
	ck_assert_int_eq(pthread_create(&w->thread, NULL, wait_intent, w), 0);
}

static int64_t
finish_intent(IntentWaiter *w)
{
	pthread_join(w->thread, NULL);
	ck_assert_int_eq(w->rc, RL_OK);
	return w->waited_ms;
}

/*
 * A transaction about to write waits for the others that hold writes: until the
 * holder commits (its commit then in the cache), rolls back or goes away, and at
 * most WRITE_INTENT_WAIT_MS.
 */
START_TEST(test_write_intents)
{
	WriterConn *a,
			   *b;
	WriterCommitResult res;
	IntentWaiter w;
	int64_t		t0;

	start_writer();
	a = writer_connect(socket_path);
	b = writer_connect(socket_path);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	commit_sql(a, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL, &res);
	ck_assert(res.committed);

	/* nobody holds writes: granted at once */
	t0 = rl_monotonic_ms();
	ck_assert_int_eq(writer_write_intent(a), RL_OK);
	ck_assert_int_lt(rl_monotonic_ms() - t0, WRITE_INTENT_WAIT_MS / 2);

	/* a holds: b waits for a's commit, and then finds it in the cache */
	start_intent(&w, b);
	usleep(50 * 1000);
	commit_sql(a, "INSERT INTO t VALUES (NULL, 'k1', 'v1')", &res);
	ck_assert(res.committed);
	ck_assert_int_ge(finish_intent(&w), 45);
	ck_assert_int_lt(w.waited_ms, WRITE_INTENT_WAIT_MS);
	ck_assert_int_eq(count_rows(""), 1);

	/* b holds now: a waits for b's Release */
	start_intent(&w, a);
	usleep(50 * 1000);
	ck_assert_int_eq(writer_release(b), RL_OK);
	ck_assert_int_ge(finish_intent(&w), 45);
	ck_assert_int_lt(w.waited_ms, WRITE_INTENT_WAIT_MS);

	/* a holds and does nothing: b waits WRITE_INTENT_WAIT_MS, then writes anyway */
	start_intent(&w, b);
	ck_assert_int_ge(finish_intent(&w), WRITE_INTENT_WAIT_MS - 10);

	/* both hold; a holder that goes away holds nothing */
	ck_assert_int_eq(writer_release(b), RL_OK);
	start_intent(&w, b);
	usleep(50 * 1000);
	writer_disconnect(a);
	ck_assert_int_lt(finish_intent(&w), WRITE_INTENT_WAIT_MS);
	writer_disconnect(b);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

#define COMMITTERS 8
#define COMMITS_EACH 25

START_TEST(test_group_commit)
{
	pid_t		kids[COMMITTERS];
	int			wal_before;
	int			ready[2],
				go[2];
	char		byte = 0;

	start_writer();
	{
		WriterConn *c = writer_connect(socket_path);
		WriterCommitResult res;

		commit_sql(c, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL, &res);
		ck_assert(res.committed);
		writer_disconnect(c);
	}
	wal_before = count_wal_objects();
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	for (int k = 0; k < COMMITTERS; k++)
	{
		kids[k] = fork();
		ck_assert_int_ge(kids[k], 0);
		if (kids[k] == 0)
		{
			WriterConn *c = writer_connect(socket_path);
			WriterCommitResult res;
			uint64_t	last = 0;
			RlBuf		cs[COMMITS_EACH];

			if (c == NULL)
				_exit(10);

			/*
			 * the changesets first (each takes the cache's write lock), so that the
			 * committers' requests meet at the writer; all of them take the same row
			 * ids: the writer renumbers
			 */
			for (int i = 0; i < COMMITS_EACH; i++)
			{
				char		sql[64];

				snprintf(sql, sizeof(sql), "INSERT INTO t VALUES (NULL, 'c%d-%d', 'x')", k, i);
				changeset_of(sql, &cs[i]);
			}
			if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
				_exit(12);
			for (int i = 0; i < COMMITS_EACH; i++)
			{
				if (writer_commit(c, last, cs[i].data, cs[i].len, &res) != RL_OK || !res.committed ||
					res.commit_seq <= last)
				{
					fprintf(stderr, "committer %d: %s %s\n", k, res.sqlstate, res.message);
					_exit(11);
				}
				rlbuf_free(&cs[i]);
				last = res.commit_seq;
			}
			_exit(0);
		}
	}
	/* the first requests all wait for a stopped writer: one group at least */
	for (int k = 0; k < COMMITTERS; k++)
		ck_assert_int_eq(read(ready[0], &byte, 1), 1);
	kill(writer_pid, SIGSTOP);
	for (int k = 0; k < COMMITTERS; k++)
		ck_assert_int_eq(write(go[1], &byte, 1), 1);
	usleep(200 * 1000);
	kill(writer_pid, SIGCONT);
	for (int k = 0; k < COMMITTERS; k++)
	{
		int			status;

		waitpid(kids[k], &status, 0);
		ck_assert_int_eq(WEXITSTATUS(status), 0);
	}
	for (int i = 0; i < 2; i++)
	{
		close(ready[i]);
		close(go[i]);
	}
	/* every commit got its own sequence number, in fewer WAL objects */
	{
		WriterConn *c = writer_connect(socket_path);
		uint64_t	newest;

		ck_assert_int_eq(writer_subscribe(c), RL_OK);
		ck_assert_int_eq(writer_wait_notify(c, 5000, &newest), RL_OK);
		ck_assert_uint_eq(newest, 2 + COMMITTERS * COMMITS_EACH);	/* after registry and t */
		writer_disconnect(c);
	}
	ck_assert_int_eq(count_rows(""), COMMITTERS * COMMITS_EACH);
	ck_assert_int_lt(count_wal_objects() - wal_before, COMMITTERS * COMMITS_EACH);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

START_TEST(test_malformed_frame)
{
	WriterConn *bad,
			   *good;
	WriterCommitResult res;
	static const uint8_t junk[] = {'C', 0, 0, 0, 9, 1, 2, 3, 4, 5};
	char		b;

	start_writer();
	bad = writer_connect(socket_path);
	ck_assert_int_eq(write(writer_conn_fd(bad), junk, sizeof(junk)), (ssize_t) sizeof(junk));
	ck_assert_int_eq(read(writer_conn_fd(bad), &b, 1), 0);	/* closed */
	writer_disconnect(bad);

	good = writer_connect(socket_path);
	commit_sql(good, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL, &res);
	ck_assert(res.committed);
	/* a request whose changeset is garbage is refused alone */
	ck_assert_int_eq(writer_commit(good, 0, "garbage", 7, &res), RL_OK);
	ck_assert(!res.committed);
	ck_assert_str_eq(res.sqlstate, "22023");
	commit_sql(good, "INSERT INTO t VALUES (NULL, 'a', 'b')", &res);
	ck_assert(res.committed);
	writer_disconnect(good);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
}
END_TEST

START_TEST(test_fenced_writer)
{
	WriterConn *c;
	WriterCommitResult res;
	ObjectStore *os;
	Lsm		   *usurper;
	int			status;

	start_writer();
	c = writer_connect(socket_path);
	os = objstore_local_open(store_path);
	ck_assert_int_eq(lsm_open_writer(os, NULL, &usurper), RL_OK);

	commit_sql(c, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL, &res);
	ck_assert(!res.committed);
	ck_assert_str_eq(res.sqlstate, "57P01");
	waitpid(writer_pid, &status, 0);
	writer_pid = 0;
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), WRITER_EXIT_FENCED);
	writer_disconnect(c);
	lsm_close(usurper);
	obj_close(os);
	stop_writer();
}
END_TEST

START_TEST(test_databases)
{
	WriterConn *c,
			   *lake;
	WriterCommitResult res;
	uint32_t	datid = 0;
	char		lake_cache[600];
	RlBuf		cs;
	struct stat st;

	start_writer();
	ck_assert_int_eq(catalog_find_database(dir, "postgres", &datid), RL_OK);
	ck_assert_uint_eq(datid, CACHE_POSTGRES_DATID);
	ck_assert_int_eq(catalog_find_database(dir, "template1", &datid), RL_OK);
	ck_assert_int_eq(catalog_find_database(dir, "lake", &datid), RL_NOT_FOUND);

	/* CREATE DATABASE is a commit to the postgres catalog's registry */
	c = writer_connect(socket_path);
	changeset_of("INSERT INTO rl_database VALUES (3, 'lake')", &cs);
	ck_assert_int_eq(writer_commit(c, 0, cs.data, cs.len, &res), RL_OK);
	ck_assert(res.committed);
	rlbuf_free(&cs);
	ck_assert_int_eq(catalog_find_database(dir, "lake", &datid), RL_OK);
	ck_assert_uint_eq(datid, 3);
	catalog_cache_path(lake_cache, sizeof(lake_cache), dir, 3);
	ck_assert_int_eq(stat(lake_cache, &st), 0);

	/* its catalog is independent: its own cache, its own sequence of commits */
	lake = writer_connect(socket_path);
	ck_assert_int_eq(writer_attach(lake, 3), RL_OK);
	{
		sqlite3    *db;
		CacheCapture *capture;

		ck_assert_int_eq(sqlite3_open(lake_cache, &db), SQLITE_OK);
		ck_assert_int_eq(cache_capture_begin(db, NULL, &capture), RL_OK);
		ck_assert_int_eq(sqlite3_exec(db, "INSERT INTO rl_relation VALUES (1, 't', '" T_SQL "');" T_SQL ";"
									  "INSERT INTO t VALUES (NULL, 'x', 'y')", NULL, NULL, NULL), SQLITE_OK);
		rlbuf_init(&cs);
		ck_assert_int_eq(cache_capture_end(capture, &cs), RL_OK);
		sqlite3_close(db);
	}
	ck_assert_int_eq(writer_commit(lake, 0, cs.data, cs.len, &res), RL_OK);
	ck_assert_msg(res.committed, "%s %s", res.sqlstate, res.message);
	ck_assert_uint_eq(res.commit_seq, 1);
	rlbuf_free(&cs);

	/* DROP DATABASE: gone from the registry, its cache removed, commits refused */
	changeset_of("DELETE FROM rl_database WHERE datname = 'lake'", &cs);
	ck_assert_int_eq(writer_commit(c, 0, cs.data, cs.len, &res), RL_OK);
	ck_assert(res.committed);
	rlbuf_free(&cs);
	ck_assert_int_eq(catalog_find_database(dir, "lake", &datid), RL_NOT_FOUND);
	ck_assert_int_eq(stat(lake_cache, &st), -1);
	ck_assert_int_eq(writer_commit(lake, 0, "", 0, &res), RL_OK);
	ck_assert(!res.committed);
	ck_assert_str_eq(res.sqlstate, "3D000");
	writer_disconnect(lake);
	writer_disconnect(c);
	ck_assert_int_eq(WEXITSTATUS(stop_writer()), 0);
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
	tcase_add_test(tc, test_write_intents);
	tcase_add_test(tc, test_malformed_frame);
	tcase_add_test(tc, test_fenced_writer);
	tcase_add_test(tc, test_databases);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
