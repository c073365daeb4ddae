/*
 * check_catalog_cache.c: the write path from a backend's changeset to the LSM and the
 * SQLite cache (doc/design.md, sections 2 and 4, invariant 5): tables created, altered
 * and dropped as rows of rl_relation; the conflicts DuckLake retries on (23505 for a
 * duplicate key, 40001 for a row changed or deleted since it was read); inserts whose
 * hidden row id was taken meanwhile; DuckLake's tables stored in kvcodec's layout; one
 * conflicting changeset of a group leaving the others alone; and a cache rebuilt from
 * the store equal to the one it replaces.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog_cache.h"
#include "catalog/kvcodec.h"
#include "test_util.h"

static char *dir;
static char cache_path[512];
static ObjectStore *os;
static Lsm *lsm;
static CatalogCache *cache;

#define ITEMS_SQL "CREATE TABLE items (_rl_rowid INTEGER PRIMARY KEY, id INTEGER UNIQUE, name TEXT)"
#define SNAPSHOT_SQL "CREATE TABLE ducklake_snapshot (_rl_rowid INTEGER PRIMARY KEY, " \
	"snapshot_id INTEGER UNIQUE, snapshot_time INTEGER, schema_version INTEGER, " \
	"next_catalog_id INTEGER, next_file_id INTEGER)"

static void
setup(void)
{
	LsmOptions	opts;
	char		store[512];

	dir = test_mkdtemp();
	snprintf(cache_path, sizeof(cache_path), "%s/cache.db", dir);
	snprintf(store, sizeof(store), "%s/store", dir);
	os = objstore_local_open(store);
	lsm_options_default(&opts);
	ck_assert_int_eq(lsm_open_writer(os, &opts, &lsm), RL_OK);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
}

static void
teardown(void)
{
	catalog_cache_close(cache);
	lsm_close(lsm);
	obj_close(os);
	test_rmdir(dir);
}

/* A backend's connection to the cache. */
static sqlite3 *
backend_open(void)
{
	sqlite3    *db;

	ck_assert_int_eq(sqlite3_open(cache_path, &db), SQLITE_OK);
	return db;
}

/* What sql would change, as a backend computes it (its statements kept in stmts, or not). */
static void
kept_changeset(sqlite3 *db, StmtCache *stmts, const char *sql, RlBuf *changeset)
{
	CacheCapture *capture;
	char	   *err = NULL;

	rlbuf_init(changeset);
	ck_assert_int_eq(cache_capture_begin(db, stmts, &capture), RL_OK);
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK, "%s: %s", sql, err);
	ck_assert_int_eq(cache_capture_end(capture, changeset), RL_OK);
}

/* What sql would change: a changeset, nothing kept. */
static void
backend_changeset(sqlite3 *db, const char *sql, RlBuf *changeset)
{
	kept_changeset(db, NULL, sql, changeset);
}

/* The writer commits a group; results[i] and conflicts[i] say what became of each. */
static void
commit_group(RlBuf *changesets, int n, RlStatus *results, CacheConflict *conflicts)
{
	LsmBatch   *batch = lsm_batch_new();
	uint64_t	seq = 0;

	ck_assert_int_eq(catalog_cache_begin(cache), RL_OK);
	for (int i = 0; i < n; i++)
		results[i] = catalog_cache_apply(cache, changesets[i].data, changesets[i].len, batch, &conflicts[i]);
	if (lsm_batch_count(batch) > 0)
		ck_assert_int_eq(lsm_commit(lsm, &batch, 1, &seq), RL_OK);
	ck_assert_int_eq(catalog_cache_commit(cache, seq), RL_OK);
	lsm_batch_free(batch);
}

static void
commit_sql(sqlite3 *db, const char *sql)
{
	RlBuf		cs;
	RlStatus	result;
	CacheConflict conflict;

	backend_changeset(db, sql, &cs);
	commit_group(&cs, 1, &result, &conflict);
	ck_assert_msg(result == RL_OK, "%s: %s %s %s", sql, rl_status_name(result), conflict.sqlstate,
				  conflict.message[0] ? conflict.message : rl_last_error());
	rlbuf_free(&cs);
}

static char *
query_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt;
	RlBuf		out;

	rlbuf_init(&out);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		for (int i = 0; i < sqlite3_column_count(stmt); i++)
			rlbuf_printf(&out, "%s%s", i ? "|" : "",
						 sqlite3_column_type(stmt, i) == SQLITE_NULL ? "NULL" : (const char *) sqlite3_column_text(stmt, i));
		rlbuf_append_str(&out, ";");
	}
	sqlite3_finalize(stmt);
	rlbuf_cstr(&out);
	return (char *) rlbuf_steal(&out, NULL);
}

static void
assert_query(sqlite3 *db, const char *sql, const char *expect)
{
	char	   *got = query_text(db, sql);

	ck_assert_msg(strcmp(got, expect) == 0, "%s\n  got:    %s\n  expect: %s", sql, got, expect);
	free(got);
}

static bool
count_cb(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, void *arg)
{
	(*(int *) arg)++;
	return true;
}

static int
count_keys(const uint8_t *prefix, size_t len)
{
	int			n = 0;

	ck_assert_int_eq(lsm_scan_prefix(lsm, prefix, len, count_cb, &n), RL_OK);
	return n;
}

static int
count_relation_rows(uint32_t relid)
{
	RlBuf		prefix;

	rlbuf_init(&prefix);
	kv_generic_prefix(relid, &prefix);
	int			n = count_keys(prefix.data, prefix.len);

	rlbuf_free(&prefix);
	return n;
}

static void
create_items(sqlite3 *db)
{
	commit_sql(db, "INSERT INTO rl_relation VALUES (1, 'items', '" ITEMS_SQL "');" ITEMS_SQL ";"
			   "INSERT INTO items VALUES (NULL, 1, 'one'), (NULL, 2, 'two');");
}

START_TEST(test_create_and_insert)
{
	sqlite3    *db = backend_open();

	create_items(db);
	assert_query(db, "SELECT id, name FROM items ORDER BY id", "1|one;2|two;");
	ck_assert_uint_eq(catalog_cache_seq(cache), 1);
	ck_assert_int_eq(count_relation_rows(0), 1);
	ck_assert_int_eq(count_relation_rows(1), 2);
	/* the backend's own attempt was rolled back: only the writer committed */
	commit_sql(db, "UPDATE items SET name = 'uno' WHERE id = 1; DELETE FROM items WHERE id = 2;");
	assert_query(db, "SELECT id, name FROM items ORDER BY id", "1|uno;");
	ck_assert_int_eq(count_relation_rows(1), 1);
	sqlite3_close(db);
}
END_TEST

/*
 * second_refused -- a's sql_a and b's sql_b, computed on the same state, committed in
 * one group: a's stands and b's is refused with sqlstate; returns b's message
 */
static const char *
second_refused(sqlite3 *a, const char *sql_a, sqlite3 *b, const char *sql_b, const char *sqlstate)
{
	static CacheConflict conflict[2];
	RlBuf		cs[2];
	RlStatus	result[2];

	backend_changeset(a, sql_a, &cs[0]);
	backend_changeset(b, sql_b, &cs[1]);
	commit_group(cs, 2, result, conflict);
	ck_assert_int_eq(result[0], RL_OK);
	ck_assert_int_eq(result[1], RL_PRECONDITION);
	ck_assert_str_eq(conflict[1].sqlstate, sqlstate);
	rlbuf_free(&cs[0]);
	rlbuf_free(&cs[1]);
	return conflict[1].message;
}

START_TEST(test_conflicts)
{
	sqlite3    *a = backend_open(),
			   *b = backend_open();
	RlBuf		cs[3];
	RlStatus	result[3];
	CacheConflict conflict[3];

	create_items(a);
	/* both take row id 3; distinct ids: the second is inserted again under a new row id */
	backend_changeset(a, "INSERT INTO items VALUES (NULL, 10, 'a')", &cs[0]);
	backend_changeset(b, "INSERT INTO items VALUES (NULL, 11, 'b')", &cs[1]);
	commit_group(&cs[0], 1, &result[0], &conflict[0]);
	commit_group(&cs[1], 1, &result[1], &conflict[1]);
	ck_assert_int_eq(result[0], RL_OK);
	ck_assert_int_eq(result[1], RL_OK);
	assert_query(a, "SELECT id FROM items WHERE id >= 10 ORDER BY id", "10;11;");
	ck_assert_int_eq(count_relation_rows(1), 4);
	rlbuf_free(&cs[0]);
	rlbuf_free(&cs[1]);

	/* the same unique value: 23505 */
	ck_assert_ptr_nonnull(strstr(second_refused(a, "INSERT INTO items VALUES (NULL, 20, 'a')",
												b, "INSERT INTO items VALUES (NULL, 20, 'b')", "23505"),
								 "duplicate key value violates unique constraint"));

	/* the same row updated twice from one snapshot: 40001; a deleted row likewise */
	ck_assert_str_eq(second_refused(a, "UPDATE items SET name = 'first' WHERE id = 1",
									b, "UPDATE items SET name = 'second' WHERE id = 1", "40001"),
					 "could not serialize access due to concurrent update");
	second_refused(a, "DELETE FROM items WHERE id = 2", b, "UPDATE items SET name = 'gone' WHERE id = 2", "40001");

	/* in a group, the one that conflicts is left out and the others stand */
	backend_changeset(a, "INSERT INTO items VALUES (NULL, 30, 'x')", &cs[0]);
	backend_changeset(b, "INSERT INTO items VALUES (NULL, 30, 'y')", &cs[1]);
	backend_changeset(b, "INSERT INTO items VALUES (NULL, 31, 'z')", &cs[2]);
	commit_group(cs, 3, result, conflict);
	ck_assert_int_eq(result[0], RL_OK);
	ck_assert_int_eq(result[1], RL_PRECONDITION);
	ck_assert_int_eq(result[2], RL_OK);
	assert_query(a, "SELECT id, name FROM items WHERE id >= 30 ORDER BY id", "30|x;31|z;");
	for (int i = 0; i < 3; i++)
		rlbuf_free(&cs[i]);
	assert_query(a, "SELECT id, name FROM items ORDER BY id", "1|first;10|a;11|b;20|a;30|x;31|z;");
	ck_assert_int_eq(count_relation_rows(1), 6);
	sqlite3_close(a);
	sqlite3_close(b);
}
END_TEST

/*
 * A DuckLake table's key in the store ends in the row's row id, so rows the client's
 * DDL lets through are stored whatever their values (DuckLake declares ducklake_table,
 * ducklake_file_partition_value and most others without a key): two rows with the same
 * key components, inserted or updated onto them, commit, and a rebuild brings back
 * each under its row id.
 */
#define UNKEYED_SNAPSHOT_SQL "CREATE TABLE ducklake_snapshot (_rl_rowid INTEGER PRIMARY KEY, " \
	"snapshot_id INTEGER, snapshot_time INTEGER, schema_version INTEGER, " \
	"next_catalog_id INTEGER, next_file_id INTEGER)"

static int
count_cache_indexes(sqlite3 *db, const char *table)
{
	sqlite3_stmt *stmt;
	int			n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
										"AND name = 'rl_cache_' || ?1", -1, &stmt, NULL), SQLITE_OK);
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

/* a DuckLake snapshot row deleted: keys_left keys of the table remain, and a rebuild reads expect */
static void
delete_then_rebuild(sqlite3 *db, int rowid, int keys_left, const char *expect)
{
	char	   *sql = sqlite3_mprintf("DELETE FROM ducklake_snapshot WHERE _rl_rowid = %d", rowid);
	uint8_t		tag = 0x02;

	commit_sql(db, sql);
	sqlite3_free(sql);
	ck_assert_int_eq(count_keys(&tag, 1), keys_left);
	ck_assert_int_eq(catalog_cache_rebuild(cache, lsm), RL_OK);
	assert_query(db, "SELECT * FROM ducklake_snapshot ORDER BY _rl_rowid", expect);
}

START_TEST(test_ducklake_duplicate_rows)
{
	sqlite3    *db = backend_open();
	uint8_t		tag = 0x02;

	commit_sql(db, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" UNKEYED_SNAPSHOT_SQL "');"
			   UNKEYED_SNAPSHOT_SQL ";"
			   "INSERT INTO ducklake_snapshot VALUES (NULL, 1, 100, 0, 1, 0), (NULL, 2, 200, 1, 2, 0);");
	ck_assert_int_eq(count_cache_indexes(db, "ducklake_snapshot"), 1);
	commit_sql(db, "INSERT INTO ducklake_snapshot VALUES (NULL, 2, 300, 2, 3, 0)");
	commit_sql(db, "UPDATE ducklake_snapshot SET snapshot_id = 1 WHERE snapshot_time = 200");
	commit_sql(db, "INSERT INTO ducklake_snapshot VALUES (NULL, 3, 0, 0, 0, 0), (NULL, 3, 0, 0, 0, 0)");
	ck_assert_int_eq(count_keys(&tag, 1), 5);
	assert_query(db, "SELECT * FROM ducklake_snapshot",
				 "1|1|100|0|1|0;2|1|200|1|2|0;3|2|300|2|3|0;4|3|0|0|0|0;5|3|0|0|0|0;");
	delete_then_rebuild(db, 4, 4, "1|1|100|0|1|0;2|1|200|1|2|0;3|2|300|2|3|0;5|3|0|0|0|0;");
	sqlite3_close(db);
}
END_TEST

/*
 * Where the table's own UNIQUE index is on exactly the key (a DuckLake primary key), the
 * cache makes no index of its own and SQLite refuses a duplicate of two commits from one
 * snapshot (a key with a NULL, which UNIQUE lets through, would still be probed; the
 * store refuses one before that).
 */
START_TEST(test_ducklake_key_unique)
{
	sqlite3    *a = backend_open(),
			   *b = backend_open();

	commit_sql(a, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" SNAPSHOT_SQL "');" SNAPSHOT_SQL ";"
			   "INSERT INTO ducklake_snapshot VALUES (NULL, 1, 100, 0, 1, 0);");
	ck_assert_int_eq(count_cache_indexes(a, "ducklake_snapshot"), 0);
	/* two commits from one snapshot take one key: the second is refused */
	second_refused(a, "INSERT INTO ducklake_snapshot VALUES (NULL, 2, 0, 0, 0, 0)",
				   b, "INSERT INTO ducklake_snapshot VALUES (NULL, 2, 1, 1, 1, 1)", "23505");
	assert_query(a, "SELECT snapshot_id, snapshot_time FROM ducklake_snapshot ORDER BY 1", "1|100;2|0;");
	sqlite3_close(a);
	sqlite3_close(b);
}
END_TEST

START_TEST(test_ducklake_table_layout)
{
	sqlite3    *db = backend_open();
	uint8_t		tag = 0x02;
	RlBuf		key,
				value;
	KvDatum		id = {.type = KV_INT64, .i = 7};
	const KvTable *snapshot = kv_table_by_name("ducklake_snapshot");

	commit_sql(db, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" SNAPSHOT_SQL "');" SNAPSHOT_SQL ";"
			   "INSERT INTO ducklake_snapshot VALUES (NULL, 0, 100, 0, 1, 0), (NULL, 7, 200, 1, 2, 0);");
	ck_assert_int_eq(count_keys(&tag, 1), 2);
	ck_assert_int_eq(count_relation_rows(5), 0);
	rlbuf_init(&key);
	rlbuf_init(&value);
	ck_assert_int_eq(kv_encode_key_prefix(snapshot, &id, 1, &key), RL_OK);
	kv_append_row_id(&key, 2);
	ck_assert_int_eq(lsm_get(lsm, key.data, key.len, &value), RL_OK);
	RlBuf		text;

	rlbuf_init(&text);
	kv_describe_value(key.data, key.len, value.data, value.len, &text);
	ck_assert_str_eq(rlbuf_cstr(&text), "{snapshot_id: 7, snapshot_time: 2000-01-01 00:00:00.000200+00, "
					 "schema_version: 1, next_catalog_id: 2, next_file_id: 0}");
	/* a changed key column moves the row to its new key */
	commit_sql(db, "UPDATE ducklake_snapshot SET snapshot_id = 8 WHERE snapshot_id = 7");
	ck_assert_int_eq(lsm_get(lsm, key.data, key.len, &value), RL_NOT_FOUND);
	ck_assert_int_eq(count_keys(&tag, 1), 2);
	/*
	 * a row the layout cannot hold (a NULL or negative key component, a value of
	 * another type) is stored all the same, as a generic row of the relation
	 */
	commit_sql(db, "INSERT INTO ducklake_snapshot VALUES (NULL, NULL, 0, 0, 0, 0), (NULL, -1, 1, 0, 0, 0),"
			   "(NULL, 'nine', 2, 0, 0, 0)");
	ck_assert_int_eq(count_relation_rows(5), 3);
	commit_sql(db, "UPDATE ducklake_snapshot SET snapshot_id = 9 WHERE snapshot_time = 2");
	commit_sql(db, "UPDATE ducklake_snapshot SET snapshot_id = NULL WHERE snapshot_id = 0");
	ck_assert_int_eq(count_relation_rows(5), 3);
	ck_assert_int_eq(count_keys(&tag, 1), 2);
	char	   *before = query_text(db, "SELECT * FROM ducklake_snapshot");

	ck_assert_int_eq(catalog_cache_rebuild(cache, lsm), RL_OK);
	assert_query(db, "SELECT * FROM ducklake_snapshot", before);
	commit_sql(db, "DELETE FROM ducklake_snapshot WHERE snapshot_id IS NULL");
	ck_assert_int_eq(count_relation_rows(5), 1);
	free(before);
	rlbuf_free(&key);
	rlbuf_free(&value);
	rlbuf_free(&text);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_alter_and_drop)
{
	sqlite3    *db = backend_open();

	create_items(db);
	commit_sql(db, "UPDATE rl_relation SET sql = 'CREATE TABLE items (_rl_rowid INTEGER PRIMARY KEY, "
			   "id INTEGER UNIQUE, name TEXT, note TEXT)' WHERE relname = 'items';"
			   "ALTER TABLE items ADD COLUMN note TEXT; UPDATE items SET note = 'n' WHERE id = 2;");
	assert_query(db, "SELECT id, name, note FROM items ORDER BY id", "1|one|NULL;2|two|n;");
	commit_sql(db, "UPDATE rl_relation SET relname = 'things' WHERE relname = 'items';"
			   "ALTER TABLE items RENAME TO things;");
	assert_query(db, "SELECT id, name, note FROM things ORDER BY id", "1|one|NULL;2|two|n;");
	ck_assert_int_eq(count_relation_rows(1), 2);
	commit_sql(db, "DELETE FROM rl_relation WHERE relname = 'things'; DROP TABLE things;");
	assert_query(db, "SELECT count(*) FROM sqlite_master WHERE name = 'things'", "0;");
	ck_assert_int_eq(count_relation_rows(1), 0);
	ck_assert_int_eq(count_relation_rows(0), 0);
	/* creating a relation another commit created meanwhile is 42P07 */
	create_items(db);
	RlStatus	result;
	CacheConflict conflict;
	RlBuf		create;
	sqlite3    *fresh;
	char		empty[600];

	/* the other backend's snapshot predates the creation: an empty catalog */
	snprintf(empty, sizeof(empty), "%s/empty.db", dir);
	ck_assert_int_eq(sqlite3_open(empty, &fresh), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(fresh, "CREATE TABLE rl_relation (relid INTEGER PRIMARY KEY, "
								  "relname TEXT NOT NULL UNIQUE, sql TEXT NOT NULL)", NULL, NULL, NULL), SQLITE_OK);
	backend_changeset(fresh, "INSERT INTO rl_relation VALUES (2, 'items', '" ITEMS_SQL "');" ITEMS_SQL, &create);
	sqlite3_close(fresh);
	commit_group(&create, 1, &result, &conflict);
	ck_assert_int_eq(result, RL_PRECONDITION);
	ck_assert_str_eq(conflict.sqlstate, "42P07");
	ck_assert_str_eq(conflict.message, "relation \"items\" already exists");
	rlbuf_free(&create);
	sqlite3_close(db);
}
END_TEST

static char *
dump_cache(sqlite3 *db)
{
	RlBuf		all;
	sqlite3_stmt *stmt;

	rlbuf_init(&all);
	char	   *relations = query_text(db, "SELECT relname, sql FROM rl_relation ORDER BY relname");

	rlbuf_append_str(&all, relations);
	free(relations);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT relname FROM rl_relation ORDER BY relname", -1, &stmt, NULL), SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		char		sql[256];
		const char *name = (const char *) sqlite3_column_text(stmt, 0);

		/* every row keeps its row id: its place in the table and its ctid */
		snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", name);
		char	   *rows = query_text(db, sql);

		rlbuf_printf(&all, "\n%s:%s", name, rows);
		free(rows);
	}
	sqlite3_finalize(stmt);
	rlbuf_cstr(&all);
	return (char *) rlbuf_steal(&all, NULL);
}

START_TEST(test_rebuild_equals_the_old_cache)
{
	sqlite3    *db = backend_open();

	create_items(db);
	commit_sql(db, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" SNAPSHOT_SQL "');" SNAPSHOT_SQL ";"
			   "INSERT INTO ducklake_snapshot VALUES (NULL, 0, 100, 0, 1, 0), (NULL, 1, 200, 1, 2, 0);");
	commit_sql(db, "UPDATE items SET name = 'x''y' WHERE id = 1; INSERT INTO items VALUES (NULL, 3, NULL);"
			   "INSERT INTO items VALUES (NULL, 4, X'00ff');");
	commit_sql(db, "DELETE FROM ducklake_snapshot WHERE snapshot_id = 0");
	char	   *before = dump_cache(db);

	sqlite3_close(db);
	catalog_cache_close(cache);
	unlink(cache_path);
	/* a fresh cache, rebuilt from the store after a restart of the writer */
	lsm_close(lsm);
	ck_assert_int_eq(lsm_open_writer(os, NULL, &lsm), RL_OK);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
	ck_assert_uint_eq(catalog_cache_seq(cache), 0);
	ck_assert_msg(catalog_cache_rebuild(cache, lsm) == RL_OK, "rebuild: %s", rl_last_error());
	ck_assert_uint_eq(catalog_cache_seq(cache), 4);
	db = backend_open();
	char	   *after = dump_cache(db);

	ck_assert_msg(strcmp(before, after) == 0, "before:\n%s\nafter:\n%s", before, after);
	/* and it keeps working */
	commit_sql(db, "INSERT INTO items VALUES (NULL, 5, 'five')");
	assert_query(db, "SELECT count(*) FROM items", "5;");
	/* rebuilding twice changes nothing */
	ck_assert_int_eq(catalog_cache_rebuild(cache, lsm), RL_OK);
	free(after);
	after = dump_cache(db);
	ck_assert_ptr_nonnull(strstr(after, "5|five;"));
	free(before);
	free(after);
	sqlite3_close(db);
}
END_TEST

/*
 * A store written before the cache had a form of its own for names: its relations'
 * names and CREATE statements hold PostgreSQL's names as they are. A rebuild reads
 * them into the cache's form, and a cache made then is not believed up to date.
 */
/*
 * rebuild_without_mark -- the cache as a release before mark (an rl_meta row) left it:
 * not believed up to date when opened, and rebuilt from the store
 */
static void
rebuild_without_mark(const char *mark)
{
	sqlite3    *db;
	char	   *sql = sqlite3_mprintf("DELETE FROM rl_meta WHERE name = %Q", mark);

	catalog_cache_close(cache);
	ck_assert_int_eq(sqlite3_open(cache_path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	sqlite3_close(db);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
	ck_assert_uint_eq(catalog_cache_seq(cache), 0);
	ck_assert_msg(catalog_cache_rebuild(cache, lsm) == RL_OK, "rebuild: %s", rl_last_error());
}

#define OLD_TABLE(q) "CREATE TABLE \"Old^T\" (_rl_rowid INTEGER PRIMARY KEY, \"A\" text DEFAULT " q "\"Q\"" q ", x int4)"

START_TEST(test_rebuild_reads_old_names)
{
	sqlite3    *db = backend_open();

	commit_sql(db, "INSERT INTO rl_relation VALUES (7, 'Old^T', '" OLD_TABLE("''") "');" OLD_TABLE("'") ";"
			   "INSERT INTO \"Old^T\" VALUES (NULL, 'x', 2);");
	sqlite3_close(db);
	rebuild_without_mark("names");	/* the cache of that release: no mark of the names' form */
	ck_assert_uint_eq(catalog_cache_seq(cache), 1);
	db = backend_open();
	assert_query(db, "SELECT relname FROM rl_relation", "^Old^^^T;");
	assert_query(db, "SELECT \"^A\", x FROM \"^Old^^^T\"", "x|2;");
	assert_query(db, "SELECT dflt_value FROM pragma_table_info('^Old^^^T') WHERE name = '^A'", "'\"Q\"';");
	sqlite3_close(db);
	/* a rebuilt cache is believed: reopened, it says how far it got */
	catalog_cache_close(cache);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
	ck_assert_uint_eq(catalog_cache_seq(cache), 1);
}
END_TEST

/*
 * A store written before keys of DuckLake's tables ended in a row id holds its rows
 * under the key components alone, and a cache made then has no row_keys mark: the
 * writer rebuilds it, giving those rows row ids below the others' in key order, and a
 * row deleted or updated later has its short key deleted, so no rebuild brings it back.
 */
static void
put_short_row(const KvTable *t, int64_t snapshot_id, int64_t time)
{
	KvDatum		row[5] = {{.type = KV_INT64, .i = snapshot_id}, {.type = KV_INT64, .i = time},
	{.type = KV_INT64}, {.type = KV_INT64}, {.type = KV_INT64}};
	RlBuf		key,
				value;
	LsmBatch   *batch = lsm_batch_new();
	uint64_t	seq;

	rlbuf_init(&key);
	rlbuf_init(&value);
	ck_assert_int_eq(kv_encode_row(t, row, 5, &key, &value), RL_OK);
	lsm_batch_put(batch, key.data, key.len, value.data, value.len);
	ck_assert_int_eq(lsm_commit(lsm, &batch, 1, &seq), RL_OK);
	lsm_batch_free(batch);
	rlbuf_free(&key);
	rlbuf_free(&value);
}

START_TEST(test_rebuild_reads_short_keys)
{
	sqlite3    *db = backend_open();
	const KvTable *t = kv_table_by_name("ducklake_snapshot");
	uint8_t		tag = 0x02;

	commit_sql(db, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" UNKEYED_SNAPSHOT_SQL "');"
			   UNKEYED_SNAPSHOT_SQL);
	put_short_row(t, 2, 200);
	put_short_row(t, 1, 100);
	put_short_row(t, 3, 300);
	sqlite3_close(db);
	rebuild_without_mark("row_keys");	/* the cache of that release */
	db = backend_open();
	assert_query(db, "SELECT _rl_rowid, snapshot_id FROM ducklake_snapshot ORDER BY 1", "1|1;2|2;3|3;");
	/* new rows get keys with row ids; old rows deleted or updated leave no short key */
	commit_sql(db, "INSERT INTO ducklake_snapshot VALUES (NULL, 1, 100, 0, 0, 0)");
	commit_sql(db, "DELETE FROM ducklake_snapshot WHERE _rl_rowid = 2");
	commit_sql(db, "UPDATE ducklake_snapshot SET snapshot_time = 301 WHERE _rl_rowid = 3");
	ck_assert_int_eq(count_keys(&tag, 1), 3);
	char	   *before = dump_cache(db);

	ck_assert_msg(catalog_cache_rebuild(cache, lsm) == RL_OK, "rebuild: %s", rl_last_error());
	char	   *after = dump_cache(db);

	ck_assert_msg(strcmp(before, after) == 0, "before:\n%s\nafter:\n%s", before, after);
	assert_query(db, "SELECT _rl_rowid, snapshot_id, snapshot_time FROM ducklake_snapshot ORDER BY 1",
				 "1|1|100;3|3|301;4|1|100;");
	/* the row still under its short key is deleted there too */
	delete_then_rebuild(db, 1, 2, "3|3|301|0|0|0;4|1|100|0|0|0;");
	free(before);
	free(after);
	sqlite3_close(db);
}
END_TEST

/*
 * A DuckLake catalog in a schema other than public (METADATA_SCHEMA) beside public's:
 * the schema is a row of rl_namespace, its tables "<nspid>^.name", stored as generic
 * rows (kvcodec's keys have no schema), so the two lakes' rows never share a key; a
 * rebuild brings both back.
 */
#define META_SNAPSHOT_SQL "CREATE TABLE \"16384^.ducklake_snapshot\" (_rl_rowid INTEGER PRIMARY KEY, " \
	"snapshot_id INTEGER UNIQUE, snapshot_time INTEGER, schema_version INTEGER, " \
	"next_catalog_id INTEGER, next_file_id INTEGER)"

START_TEST(test_ducklake_table_in_a_schema)
{
	sqlite3    *db = backend_open();
	uint8_t		tag = 0x02;

	ck_assert_str_eq(cache_unqualified_name("16384^.ducklake_snapshot"), "ducklake_snapshot");
	ck_assert_int_eq(cache_name_namespace("16384^.ducklake_snapshot"), 16384);
	ck_assert_int_eq(cache_name_namespace("16384^^.x"), 0);	/* public's table "16384^.x" */
	ck_assert_int_eq(cache_name_namespace("ducklake_snapshot"), 0);
	assert_query(db, "SELECT count(*) FROM rl_namespace", "0;");
	commit_sql(db, "INSERT INTO rl_relation VALUES (5, 'ducklake_snapshot', '" SNAPSHOT_SQL "');" SNAPSHOT_SQL ";"
			   "INSERT INTO ducklake_snapshot VALUES (NULL, 0, 100, 0, 1, 0), (NULL, 1, 200, 1, 2, 0);");
	commit_sql(db, "INSERT INTO rl_namespace VALUES (16384, 'meta_a', 10);"
			   "INSERT INTO rl_relation VALUES (6, '16384^.ducklake_snapshot', '" META_SNAPSHOT_SQL "');"
			   META_SNAPSHOT_SQL ";"
			   "INSERT INTO \"16384^.ducklake_snapshot\" VALUES (NULL, 0, 300, 0, 1, 0), (NULL, 1, 400, 5, 6, 0),"
			   " (NULL, 2, 500, 5, 6, 0);");
	ck_assert_int_eq(count_keys(&tag, 1), 2);
	ck_assert_int_eq(count_relation_rows(6), 3);
	ck_assert_int_eq(count_relation_rows(CACHE_NAMESPACE_RELID), 1);
	char	   *before = dump_cache(db);

	sqlite3_close(db);
	catalog_cache_close(cache);
	unlink(cache_path);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
	ck_assert_msg(catalog_cache_rebuild(cache, lsm) == RL_OK, "rebuild: %s", rl_last_error());
	db = backend_open();
	char	   *after = dump_cache(db);

	ck_assert_msg(strcmp(before, after) == 0, "before:\n%s\nafter:\n%s", before, after);
	assert_query(db, "SELECT * FROM rl_namespace", "16384|meta_a|10;");
	assert_query(db, "SELECT sum(snapshot_time) FROM \"16384^.ducklake_snapshot\"", "1200;");
	free(before);
	free(after);
	sqlite3_close(db);
}
END_TEST

/*
 * A cache made before schemas has no rl_namespace (and its store no schema rows):
 * opening it adds the empty table, and the cache is still believed up to date.
 */
START_TEST(test_cache_from_before_schemas)
{
	sqlite3    *db = backend_open();

	create_items(db);
	sqlite3_close(db);
	catalog_cache_close(cache);
	ck_assert_int_eq(sqlite3_open(cache_path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "DROP TABLE rl_namespace", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	ck_assert_int_eq(catalog_cache_open(cache_path, &cache), RL_OK);
	ck_assert_uint_eq(catalog_cache_seq(cache), 1);
	db = backend_open();
	assert_query(db, "SELECT count(*) FROM rl_namespace", "0;");
	commit_sql(db, "INSERT INTO rl_namespace VALUES (16384, 's', 10)");
	assert_query(db, "SELECT nspname FROM rl_namespace", "s;");
	sqlite3_close(db);
}
END_TEST

/*
 * A store written when numeric columns had NUMERIC affinity: CREATE statements that
 * declare numeric(p,s), values held as doubles. A rebuild declares the columns the
 * cache's way (TEXT affinity, the rl_numeric collation) and the values become text;
 * a cache made then is not believed up to date.
 */
#define OLD_NUMERIC "CREATE TABLE \"n\" (_rl_rowid INTEGER PRIMARY KEY, \"a\" numeric(38,6) DEFAULT 1.5," \
	" \"u\" NUMERIC, \"numeric_x\" text, \"t\" numeric_text COLLATE rl_numeric)"

START_TEST(test_rebuild_declares_old_numeric)
{
	sqlite3    *db = backend_open();

	cache_connection_setup(db);
	commit_sql(db, "INSERT INTO rl_relation VALUES (8, 'n', '" OLD_NUMERIC "');" OLD_NUMERIC ";"
			   "INSERT INTO n VALUES (NULL, 2.5, 10, 'numeric', '1.50'), (NULL, 1e20, -3, NULL, '1.5');");
	assert_query(db, "SELECT typeof(a), typeof(u) FROM n ORDER BY _rl_rowid", "real|integer;real|integer;");
	sqlite3_close(db);
	rebuild_without_mark("numeric");
	db = backend_open();
	cache_connection_setup(db);
	assert_query(db, "SELECT sql FROM rl_relation WHERE relname = 'n'",
				 "CREATE TABLE \"n\" (_rl_rowid INTEGER PRIMARY KEY,"
				 " \"a\" numeric_text(38,6) COLLATE rl_numeric DEFAULT 1.5,"
				 " \"u\" numeric_text COLLATE rl_numeric, \"numeric_x\" text,"
				 " \"t\" numeric_text COLLATE rl_numeric);");
	assert_query(db, "SELECT type FROM pragma_table_info('n') WHERE name = 'a'", "numeric_text(38,6);");
	assert_query(db, "SELECT typeof(a), a, u FROM n ORDER BY a", "text|2.5|10;text|1.0e+20|-3;");
	assert_query(db, "SELECT count(*) FROM n WHERE t = '1.5' AND a > '3'", "1;");
	sqlite3_close(db);
}
END_TEST

/*
 * A store written when json and float columns had the affinity of their bare names
 * (NUMERIC, REAL). A rebuild declares them with the suffixes (TEXT affinity, none),
 * the values read back as they were stored; a cache made then is not believed.
 */
#define OLD_AFFINITY "CREATE TABLE \"j\" (_rl_rowid INTEGER PRIMARY KEY, \"doc\" jsonb, \"d\" json," \
	" \"f\" float8, \"g\" float4, \"float8_x\" text, \"h\" float8_blob)"

START_TEST(test_rebuild_declares_old_affinity)
{
	sqlite3    *db = backend_open();

	commit_sql(db, "INSERT INTO rl_relation VALUES (9, 'j', '" OLD_AFFINITY "');" OLD_AFFINITY ";"
			   "INSERT INTO j VALUES (NULL, '{\"a\": 1}', '[1.50]', 0.1, 2.5, 'float8', -0.0);");
	sqlite3_close(db);
	rebuild_without_mark("affinity");
	db = backend_open();
	assert_query(db, "SELECT sql FROM rl_relation WHERE relname = 'j'",
				 "CREATE TABLE \"j\" (_rl_rowid INTEGER PRIMARY KEY, \"doc\" jsonb_text, \"d\" json_text,"
				 " \"f\" float8_blob, \"g\" float4_blob, \"float8_x\" text, \"h\" float8_blob);");
	assert_query(db, "SELECT type FROM pragma_table_info('j') WHERE name = 'd'", "json_text;");
	/* a document that is a number stays text; an integral float stays a float */
	commit_sql(db, "INSERT INTO j VALUES (NULL, '0.0', '1e2', 3.0, 4.0, NULL, NULL);");
	assert_query(db, "SELECT typeof(doc), doc, d, typeof(f), f, g, float8_x FROM j ORDER BY _rl_rowid",
				 "text|{\"a\": 1}|[1.50]|real|0.1|2.5|float8;text|0.0|1e2|real|3.0|4.0|NULL;");
	sqlite3_close(db);
}
END_TEST

START_TEST(test_abort_leaves_nothing)
{
	sqlite3    *db = backend_open();
	RlBuf		cs;
	LsmBatch   *batch = lsm_batch_new();
	CacheConflict conflict;

	create_items(db);
	backend_changeset(db, "INSERT INTO items VALUES (NULL, 50, 'lost')", &cs);
	ck_assert_int_eq(catalog_cache_begin(cache), RL_OK);
	ck_assert_int_eq(catalog_cache_apply(cache, cs.data, cs.len, batch, &conflict), RL_OK);
	ck_assert_uint_gt(lsm_batch_count(batch), 0);
	catalog_cache_abort(cache);	/* the WAL write failed */
	assert_query(db, "SELECT count(*) FROM items WHERE id = 50", "0;");
	ck_assert_uint_eq(catalog_cache_seq(cache), 1);
	/* garbage is refused as a malformed changeset */
	ck_assert_int_eq(catalog_cache_begin(cache), RL_OK);
	ck_assert_int_ne(catalog_cache_apply(cache, "garbage", 7, batch, &conflict), RL_OK);
	catalog_cache_abort(cache);
	lsm_batch_free(batch);
	rlbuf_free(&cs);
	sqlite3_close(db);
}
END_TEST

static int
abort_on_conflict(void *arg, int reason, const ChangesetIter *it)
{
	*(int *) arg = reason;
	return SQLITE_CHANGESET_ABORT;
}

static int
sqlite_abort_on_conflict(void *arg, int reason, sqlite3_changeset_iter *it)
{
	*(int *) arg = reason;
	return SQLITE_CHANGESET_ABORT;
}

/*
 * cache_apply_changeset against SQLite's own: inserts, updates and deletes land the
 * same, changes to a row that moved on are conflicts of the same kind, a table with
 * more columns than the changeset takes the rest as defaults, and the connection's
 * prepared statements stay compiled (sqlite3changeset_apply expires them all).
 */
START_TEST(test_apply_changeset_like_sqlite)
{
	sqlite3    *db = backend_open();
	sqlite3_stmt *probe;
	StmtCache  *stmts = stmt_cache_create(db, 8);
	RlBuf		cs;
	int			reason = 0;

	create_items(db);
	backend_changeset(db, "INSERT INTO items VALUES (NULL, 3, 'three'); UPDATE items SET name = 'TWO' WHERE id = 2;"
					  "DELETE FROM items WHERE id = 1", &cs);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM items", -1, &probe, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(probe), SQLITE_ROW);
	sqlite3_reset(probe);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(cache_apply_changeset(db, stmts, cs.data, cs.len, NULL, abort_on_conflict, &reason), SQLITE_OK);
	assert_query(db, "SELECT id, name FROM items ORDER BY id", "2|TWO;3|three;");
	ck_assert_int_eq(sqlite3_step(probe), SQLITE_ROW);
	sqlite3_reset(probe);
	ck_assert_int_eq(sqlite3_stmt_status(probe, SQLITE_STMTSTATUS_REPREPARE, 0), 0);

	/* applied again, every change conflicts: the first is the one SQLite reports */
	ck_assert_int_eq(cache_apply_changeset(db, stmts, cs.data, cs.len, NULL, abort_on_conflict, &reason), SQLITE_ABORT);
	int			sqlite_reason = 0;

	ck_assert_int_eq(sqlite3changeset_apply(db, (int) cs.len, cs.data, NULL, sqlite_abort_on_conflict, &sqlite_reason),
					 SQLITE_ABORT);
	ck_assert_int_eq(reason, sqlite_reason);
	ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);

	/* a row changed or deleted since the changeset was taken */
	rlbuf_free(&cs);
	backend_changeset(db, "UPDATE items SET name = 'zwei' WHERE id = 2", &cs);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN; UPDATE items SET name = 'dos' WHERE id = 2", NULL, NULL, NULL),
					 SQLITE_OK);
	ck_assert_int_eq(cache_apply_changeset(db, stmts, cs.data, cs.len, NULL, abort_on_conflict, &reason), SQLITE_ABORT);
	ck_assert_int_eq(reason, SQLITE_CHANGESET_DATA);
	ck_assert_int_eq(sqlite3_exec(db, "DELETE FROM items WHERE id = 2", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(cache_apply_changeset(db, stmts, cs.data, cs.len, NULL, abort_on_conflict, &reason), SQLITE_ABORT);
	ck_assert_int_eq(reason, SQLITE_CHANGESET_NOTFOUND);
	ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);

	/* a column added since: the changeset's rows take its default */
	rlbuf_free(&cs);
	backend_changeset(db, "INSERT INTO items VALUES (NULL, 7, 'seven')", &cs);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN; ALTER TABLE items ADD COLUMN extra TEXT DEFAULT 'd'", NULL, NULL, NULL),
					 SQLITE_OK);
	ck_assert_int_eq(cache_apply_changeset(db, stmts, cs.data, cs.len, NULL, abort_on_conflict, &reason), SQLITE_OK);
	assert_query(db, "SELECT id, name, extra FROM items WHERE id = 7", "7|seven|d;");
	ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);

	sqlite3_finalize(probe);
	stmt_cache_destroy(stmts);
	rlbuf_free(&cs);
	sqlite3_close(db);
}
END_TEST

/* assert_same_value -- one field as SQLite's iterator gives it (NULL: undefined) and as ours does */
static void
assert_same_value(sqlite3_value *expect, const KvDatum *got, const char *what, int column)
{
	ck_assert_msg((expect == NULL) == (got == NULL), "%s %d: defined %d, expected %d", what, column,
				  got != NULL, expect != NULL);
	if (expect == NULL)
		return;
	switch (sqlite3_value_type(expect))
	{
		case SQLITE_INTEGER:
			ck_assert_int_eq(got->type, KV_INT64);
			ck_assert_int_eq(got->i, sqlite3_value_int64(expect));
			break;
		case SQLITE_FLOAT:
			ck_assert_int_eq(got->type, KV_DOUBLE);
			ck_assert(got->d == sqlite3_value_double(expect));
			break;
		case SQLITE_TEXT:
		case SQLITE_BLOB:
			ck_assert_int_eq(got->type, sqlite3_value_type(expect) == SQLITE_TEXT ? KV_TEXT : KV_BYTES);
			ck_assert_int_eq(got->len, sqlite3_value_bytes(expect));
			ck_assert(got->len == 0 || memcmp(got->s, sqlite3_value_blob(expect), got->len) == 0);
			break;
		default:
			ck_assert_int_eq(got->type, KV_NULL);
	}
}

/*
 * The changeset reader against SQLite's iterator: every type (empty, long and
 * negative values too), inserts, updates with columns left undefined, deletes, two
 * tables; and every truncation of the changeset, and every byte of it changed, stops
 * the walk without reading past its end.
 */
START_TEST(test_changeset_reader)
{
	sqlite3    *db = backend_open();
	RlBuf		cs;

	create_items(db);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE kinds (k INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, "
								  "b BLOB, n)", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "INSERT INTO kinds VALUES (1, 5, 0.5, 'x', x'00', NULL)", NULL, NULL, NULL),
					 SQLITE_OK);
	backend_changeset(db, "INSERT INTO kinds VALUES (2, -9223372036854775808, -1.25e300, '', x'', NULL);"
					  "INSERT INTO kinds VALUES (3, 9223372036854775807, 3.0, printf('%300s', 'long'), "
					  "randomblob(200), 7);"
					  "UPDATE kinds SET r = 2.5, t = 'changed' WHERE k = 1;"
					  "INSERT INTO items VALUES (NULL, 9, 'nine'); DELETE FROM items WHERE id = 1;", &cs);

	sqlite3_changeset_iter *sit;
	ChangesetIter it;
	int			changes = 0;

	ck_assert_int_eq(sqlite3changeset_start(&sit, (int) cs.len, cs.data), SQLITE_OK);
	changeset_begin(&it, cs.data, cs.len);
	while (sqlite3changeset_next(sit) == SQLITE_ROW)
	{
		const char *table;
		int			ncolumns,
					op,
					indirect,
					npk;
		unsigned char *pk;

		ck_assert_int_eq(changeset_next(&it), CHANGESET_ROW);
		sqlite3changeset_op(sit, &table, &ncolumns, &op, &indirect);
		sqlite3changeset_pk(sit, &pk, &npk);
		ck_assert_str_eq(it.table, table);
		ck_assert_int_eq(it.ncolumns, ncolumns);
		ck_assert_int_eq(it.op, op);
		ck_assert_int_eq(it.indirect, indirect != 0);
		ck_assert_mem_eq(it.pk, pk, (size_t) npk);
		for (int c = 0; c < ncolumns; c++)
		{
			sqlite3_value *old = NULL,
					   *new = NULL;

			if (op != SQLITE_INSERT)
				sqlite3changeset_old(sit, c, &old);
			if (op != SQLITE_DELETE)
				sqlite3changeset_new(sit, c, &new);
			assert_same_value(old, changeset_old(&it, c), "old", c);
			assert_same_value(new, changeset_new(&it, c), "new", c);
		}
		changes++;
	}
	ck_assert_int_eq(changes, 5);
	ck_assert_int_eq(changeset_next(&it), CHANGESET_DONE);
	sqlite3changeset_finalize(sit);
	changeset_end(&it);

	/* cut short or damaged: each byte in a buffer of its own size, so ASan sees any overrun */
	for (size_t cut = 0; cut < cs.len; cut++)
	{
		uint8_t    *part = malloc(cut);

		memcpy(part, cs.data, cut);
		changeset_begin(&it, part, cut);
		while (changeset_next(&it) == CHANGESET_ROW)
			;
		changeset_end(&it);
		free(part);
	}
	for (size_t at = 0; at < cs.len; at++)
		for (int bit = 0; bit < 8; bit++)
		{
			uint8_t    *damaged = malloc(cs.len);

			memcpy(damaged, cs.data, cs.len);
			damaged[at] ^= (uint8_t) (1 << bit);
			changeset_begin(&it, damaged, cs.len);
			while (changeset_next(&it) == CHANGESET_ROW)
				;
			changeset_end(&it);
			free(damaged);
		}
	/* a truncated record is corrupt, not the end */
	changeset_begin(&it, cs.data, cs.len - 1);
	ChangesetStep last;

	while ((last = changeset_next(&it)) == CHANGESET_ROW)
		;
	ck_assert_int_eq(last, CHANGESET_CORRUPT);
	changeset_end(&it);
	rlbuf_free(&cs);
	sqlite3_close(db);
}
END_TEST

/*
 * The changes of sql as SQLite's session module describes them (rolled back). The
 * session module takes the connection's preupdate hook for its own and reads the
 * argument of the one it replaces as the previous session of the connection, so a
 * connection's capture hook (cache_capture_watch) is taken off while it runs.
 */
static void
session_changeset(sqlite3 *db, const char *sql, RlBuf *changeset)
{
	sqlite3_session *session;
	int			n = 0;
	void	   *bytes = NULL;
	bool		watched = sqlite3_preupdate_hook(db, NULL, NULL) != NULL;

	rlbuf_init(changeset);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3session_create(db, "main", &session), SQLITE_OK);
	ck_assert_int_eq(sqlite3session_attach(session, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3session_changeset(session, &n, &bytes), SQLITE_OK);
	rlbuf_append(changeset, bytes, (size_t) n);
	sqlite3_free(bytes);
	sqlite3session_delete(session);
	ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	if (watched)
		cache_capture_watch(db);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* describe_changes -- one line per change (table, op, key flags, fields), sorted: rows have no order */
static char *
describe_changes(const RlBuf *changeset)
{
	ChangesetIter it;
	char	   *lines[4096];
	int			n = 0;
	RlBuf		all;

	rlbuf_init(&all);
	changeset_begin(&it, changeset->data, changeset->len);
	while (changeset_next(&it) == CHANGESET_ROW)
	{
		RlBuf		line;

		ck_assert_int_lt(n, 4096);
		rlbuf_init(&line);
		rlbuf_printf(&line, "%s %d", it.table, it.op);
		for (int c = 0; c < it.ncolumns; c++)
		{
			const KvDatum *fields[2] = {changeset_old(&it, c), changeset_new(&it, c)};

			rlbuf_printf(&line, " %s%d:", it.pk[c] ? "*" : "", c);
			for (int f = 0; f < 2; f++)
			{
				const KvDatum *d = fields[f];

				if (d == NULL)
					rlbuf_append_str(&line, "-");
				else if (d->type == KV_INT64)
					rlbuf_printf(&line, "i%lld", (long long) d->i);
				else if (d->type == KV_DOUBLE)
					rlbuf_printf(&line, "r%.17g", d->d);
				else if (d->type == KV_NULL)
					rlbuf_append_str(&line, "n");
				else
				{
					rlbuf_printf(&line, "%c", d->type == KV_TEXT ? 't' : 'b');
					rlbuf_append_hex(&line, d->s, d->len);
				}
				rlbuf_append_str(&line, f == 0 ? "/" : "");
			}
		}
		lines[n++] = strdup(rlbuf_cstr(&line));
		rlbuf_free(&line);
	}
	ck_assert_int_eq(changeset_next(&it), CHANGESET_DONE);
	changeset_end(&it);
	qsort(lines, (size_t) n, sizeof(char *), compare_strings);
	for (int i = 0; i < n; i++)
	{
		rlbuf_append_str(&all, lines[i]);
		rlbuf_append_str(&all, "\n");
		free(lines[i]);
	}
	char	   *described = strdup(rlbuf_cstr(&all));

	rlbuf_free(&all);
	return described;
}

/*
 * The backend's capture (capture.c) describes what statements change as SQLite's
 * session module does: rows inserted, updated (only the key and what changed), deleted,
 * changed twice, changed back, inserted and deleted again, moved to another key, replaced,
 * many at once, in several tables, and none of a table without a primary key.
 */
START_TEST(test_capture_like_session)
{
	static const char *const scripts[] = {
		"INSERT INTO kinds VALUES (2, -9223372036854775808, -1.25e300, '', x'', NULL);"
		"INSERT INTO kinds VALUES (3, 9223372036854775807, 3.0, printf('%300s', 'long'), zeroblob(200), 7)",
		"UPDATE kinds SET r = 2.5, t = 'changed' WHERE k = 1",
		"UPDATE kinds SET t = 'a' WHERE k = 1; UPDATE kinds SET i = 6 WHERE k = 1",
		"UPDATE kinds SET t = 'a' WHERE k = 1; UPDATE kinds SET t = 'x' WHERE k = 1",
		"INSERT INTO kinds VALUES (5, 1, 1, 'a', x'01', 1); DELETE FROM kinds WHERE k = 5",
		"INSERT INTO kinds VALUES (5, 1, 1, 'a', x'01', 1); UPDATE kinds SET t = 'b' WHERE k = 5",
		"UPDATE kinds SET k = 10 WHERE k = 1",
		"DELETE FROM kinds",
		"DELETE FROM kinds WHERE k = 1; INSERT INTO kinds VALUES (1, 5, 0.5, 'x', x'00', NULL)",
		"INSERT OR REPLACE INTO kinds VALUES (1, 6, 0.5, 'y', x'00', NULL)",
		"UPDATE kinds SET n = 1.5, b = NULL, i = NULL",
		"WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 700) "
		"INSERT INTO items SELECT NULL, i, 'row ' || i FROM n;"
		"DELETE FROM items WHERE id % 3 = 0; UPDATE items SET name = upper(name) WHERE id % 5 = 0;"
		"UPDATE kinds SET i = 1; INSERT INTO nokey VALUES (1, 2)",
		"CREATE TABLE later (k INTEGER PRIMARY KEY, v); INSERT INTO later VALUES (1, 'a'), (2, 'b');"
		"DELETE FROM later WHERE k = 1",
	};
	sqlite3    *db = backend_open();

	create_items(db);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE kinds (k INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, "
								  "b BLOB, n); CREATE TABLE nokey (a, b);"
								  "INSERT INTO kinds VALUES (1, 5, 0.5, 'x', x'00', NULL)", NULL, NULL, NULL),
					 SQLITE_OK);
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++)
	{
		RlBuf		ours,
					sessions;

		backend_changeset(db, scripts[i], &ours);
		session_changeset(db, scripts[i], &sessions);

		char	   *got = describe_changes(&ours),
				   *expected = describe_changes(&sessions);

		ck_assert_msg(strcmp(got, expected) == 0, "%s\ncapture:\n%s\nsession:\n%s", scripts[i], got, expected);
		free(got);
		free(expected);
		rlbuf_free(&ours);
		rlbuf_free(&sessions);
	}
	sqlite3_close(db);
}
END_TEST

/*
 * The same comparison over random scripts: inserts, updates (of values, of keys) and
 * deletes of a few rows of two tables, several to a script, so that rows are changed
 * twice, changed back, inserted and deleted again. Seeded: a failure names its script.
 */
START_TEST(test_capture_like_session_random)
{
	static const char *const values[] = {"NULL", "0", "1", "-7", "2.5", "'x'", "'yy'", "x'00ff'", "''"};
	sqlite3    *db = backend_open();
	unsigned	seed = 20261201;

	create_items(db);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE kinds (k INTEGER PRIMARY KEY, a, b);"
								  "INSERT INTO kinds VALUES (1, 1, 'x'), (2, NULL, 2.5), (3, 'yy', x'00ff')",
								  NULL, NULL, NULL), SQLITE_OK);
	for (int script = 0; script < 300; script++)
	{
		RlBuf		sql,
					ours,
					sessions;
		int			n = 1 + (int) (rand_r(&seed) % 8);

		rlbuf_init(&sql);
		for (int i = 0; i < n; i++)
		{
			int			k = 1 + (int) (rand_r(&seed) % 6);
			const char *v = values[rand_r(&seed) % (sizeof(values) / sizeof(values[0]))];
			const char *w = values[rand_r(&seed) % (sizeof(values) / sizeof(values[0]))];

			switch (rand_r(&seed) % 6)
			{
				case 0:
					rlbuf_printf(&sql, "INSERT OR REPLACE INTO kinds VALUES (%d, %s, %s);", k, v, w);
					break;
				case 1:
					rlbuf_printf(&sql, "UPDATE kinds SET a = %s WHERE k = %d;", v, k);
					break;
				case 2:
					rlbuf_printf(&sql, "UPDATE kinds SET k = %d WHERE k = %d AND NOT EXISTS "
								 "(SELECT 1 FROM kinds WHERE k = %d);", k + 3, k, k + 3);
					break;
				case 3:
					rlbuf_printf(&sql, "DELETE FROM kinds WHERE k = %d;", k);
					break;
				case 4:
					rlbuf_printf(&sql, "INSERT INTO items VALUES (NULL, %d, %s);", 100 + script * 10 + i, v);
					break;
				default:
					rlbuf_printf(&sql, "UPDATE items SET name = %s WHERE id = %d;", v, 1 + k % 2);
					break;
			}
		}
		backend_changeset(db, rlbuf_cstr(&sql), &ours);
		session_changeset(db, rlbuf_cstr(&sql), &sessions);

		char	   *got = describe_changes(&ours),
				   *expected = describe_changes(&sessions);

		ck_assert_msg(strcmp(got, expected) == 0, "script %d: %s\ncapture:\n%s\nsession:\n%s", script,
					  rlbuf_cstr(&sql), got, expected);
		free(got);
		free(expected);
		rlbuf_free(&ours);
		rlbuf_free(&sessions);
		rlbuf_free(&sql);
	}
	sqlite3_close(db);
}
END_TEST

/*
 * The statements a capture keeps to read rows again outlive a change of the table's
 * columns: the next capture reads the table as it is.
 */
START_TEST(test_capture_after_alter)
{
	sqlite3    *db = backend_open();
	StmtCache  *stmts = stmt_cache_create(db, 8);
	RlBuf		ours,
				sessions;

	cache_capture_watch(db);
	create_items(db);
	kept_changeset(db, stmts, "UPDATE items SET name = 'uno' WHERE id = 1", &ours);
	rlbuf_free(&ours);
	ck_assert_int_eq(sqlite3_exec(db, "ALTER TABLE items ADD COLUMN extra DEFAULT 7", NULL, NULL, NULL), SQLITE_OK);
	kept_changeset(db, stmts, "UPDATE items SET name = 'dos', extra = 8 WHERE id = 2", &ours);
	session_changeset(db, "UPDATE items SET name = 'dos', extra = 8 WHERE id = 2", &sessions);

	char	   *got = describe_changes(&ours),
			   *expected = describe_changes(&sessions);

	ck_assert_str_eq(got, expected);
	free(got);
	free(expected);
	rlbuf_free(&ours);
	rlbuf_free(&sessions);
	stmt_cache_destroy(stmts);
	sqlite3_close(db);
}
END_TEST

/*
 * A DELETE without WHERE compiled on a watched connection outside any capture (a kept
 * statement) is captured row by row: compiled without a hook, it would be a truncation
 * that fires none.
 */
START_TEST(test_capture_kept_delete)
{
	sqlite3    *db = backend_open();
	sqlite3_stmt *stmt;
	CacheCapture *capture;
	RlBuf		cs;

	cache_capture_watch(db);
	create_items(db);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "DELETE FROM items", -1, &stmt, NULL), SQLITE_OK);
	rlbuf_init(&cs);
	ck_assert_int_eq(cache_capture_begin(db, NULL, &capture), RL_OK);
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_DONE);
	ck_assert_int_eq(cache_capture_end(capture, &cs), RL_OK);
	sqlite3_finalize(stmt);

	char	   *got = describe_changes(&cs);

	ck_assert_str_eq(got, "items 9 *0:i1/- 1:i1/- 2:t6f6e65/-\nitems 9 *0:i2/- 1:i2/- 2:t74776f/-\n");
	free(got);
	rlbuf_free(&cs);
	sqlite3_close(db);
}
END_TEST

/*
 * The WAL is checkpointed beside the commits, not in them: a commit that takes it past
 * 1000 pages returns at once, and the pages reach the cache file soon after.
 */
START_TEST(test_checkpoint_beside_commits)
{
	sqlite3    *db = backend_open();
	struct stat st;

	create_items(db);
	ck_assert_int_eq(stat(cache_path, &st), 0);
	off_t		before = st.st_size;

	commit_sql(db, "WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < 2600) "
			   "INSERT INTO items SELECT NULL, i, printf('%2000d', i) FROM n");
	for (int waited = 0; waited < 500; waited++)
	{
		ck_assert_int_eq(stat(cache_path, &st), 0);
		if (st.st_size > before + 4 * 1024 * 1024)
			break;
		usleep(10000);
	}
	ck_assert_msg(st.st_size > before + 4 * 1024 * 1024, "the cache file did not grow: %lld bytes",
				  (long long) st.st_size);
	assert_query(db, "SELECT count(*) FROM items", "2503;");
	sqlite3_close(db);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("catalog-cache");
	TCase	   *tc = tcase_create("write-path");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_create_and_insert);
	tcase_add_test(tc, test_conflicts);
	tcase_add_test(tc, test_ducklake_table_layout);
	tcase_add_test(tc, test_ducklake_duplicate_rows);
	tcase_add_test(tc, test_ducklake_key_unique);
	tcase_add_test(tc, test_alter_and_drop);
	tcase_add_test(tc, test_rebuild_equals_the_old_cache);
	tcase_add_test(tc, test_rebuild_reads_old_names);
	tcase_add_test(tc, test_rebuild_reads_short_keys);
	tcase_add_test(tc, test_ducklake_table_in_a_schema);
	tcase_add_test(tc, test_cache_from_before_schemas);
	tcase_add_test(tc, test_rebuild_declares_old_numeric);
	tcase_add_test(tc, test_rebuild_declares_old_affinity);
	tcase_add_test(tc, test_abort_leaves_nothing);
	tcase_add_test(tc, test_apply_changeset_like_sqlite);
	tcase_add_test(tc, test_changeset_reader);
	tcase_add_test(tc, test_capture_like_session);
	tcase_add_test(tc, test_capture_like_session_random);
	tcase_add_test(tc, test_capture_kept_delete);
	tcase_add_test(tc, test_capture_after_alter);
	tcase_add_test(tc, test_checkpoint_beside_commits);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
