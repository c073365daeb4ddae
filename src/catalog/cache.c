/*
 * cache.c: the backend's connection to the SQLite catalog cache, and its
 * transactions over it (doc/design.md, section 2; the cache's contract is
 * catalog_cache.h).
 *
 * Reads run on the backend's own connection inside a SQLite read transaction,
 * taken at a transaction's first statement and held until it ends: that is its
 * REPEATABLE READ snapshot, identified by the commit sequence the cache records.
 * Writes are computed, never kept: the first statement of a message that writes
 * the catalog opens a write transaction capturing what it changes
 * (cache_capture_begin) and re-applies the transaction's earlier changes; the
 * message's later statements run in the same capture (a DuckLake commit batch
 * is one Query of many statements), and at the end of the message what it all
 * changed becomes the transaction's changeset before everything is rolled back.
 * So no backend holds the cache's write lock between two client messages, and
 * later statements of the transaction see its own writes. Because SQLite can
 * only write on the newest state, a transaction that writes after another
 * commit landed since its snapshot fails with 40001 (the first updater wins, a
 * little more eagerly than PostgreSQL, which looks at the rows; DuckLake, whose
 * every commit inserts the next snapshot id, would conflict on PostgreSQL too,
 * and retries on either error). Before its first write a transaction waits, as
 * PostgreSQL's would for a row's holder, for the others that hold writes
 * (writer_write_intent), so the conflict shows at the statement and not at
 * COMMIT. COMMIT sends the
 * changeset and the snapshot's sequence to the writer, whose refusal (23505,
 * 40001, 42P07) becomes the client's error; a read-only transaction just ends.
 * Temporary tables live in SQLite's temp schema of this connection, outside any
 * capture, and never reach the writer.
 *
 * Values cross into SQLite in their canonical forms (catalog_cache.h;
 * cache_sqlite.c, with SQLite's errors and the cache's own SQLite functions), and
 * whatever SQLite cannot compute with PostgreSQL's semantics it calls back into the
 * executor through the functions the executor registers on each connection this
 * opens (executor/sqlite_exec.c, through cache_hooks.opened), which also runs the
 * analyser's statements here. The layers above hear of the connection only through
 * cache_hooks; the warm-up hint a session leaves is tcop/warmup.c's.
 *
 * Every statement on the connection can be stopped: SQLite calls a progress
 * handler every PROGRESS_HANDLER_OPS virtual machine instructions, which stops the
 * statement (SQLITE_INTERRUPT) when ProcessInterrupts would raise; the failed call
 * then raises it (sqlite_error). The check is a read of InterruptPending unless a
 * signal set it, so the common path pays one function call per thousand steps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "catalog/cache.h"
#include "catalog/cache_sqlite.h"
#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "catalog/stmt_cache.h"
#include "catalog/syscat.h"
#include "catalog/writer.h"
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
#include "utils/adt/numeric.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

typedef struct TempTable
{
	char	   *name;
	bool		on_commit_drop;
	struct TempTable *next;
} TempTable;

sqlite3    *cache_db;
static uint64_t read_txn_seq;	/* in_read_txn: the commit it reflects */
static bool have_snapshot;		/* snapshot_seq is the transaction's snapshot */
static uint64_t snapshot_seq;
static bool in_read_txn;		/* a SQLite transaction holds the snapshot */
static bool in_temp_txn;		/* a statement on temporary tables runs in its own */
static CacheCapture *capture;	/* open from a message's first statement over the cache to its end */
static bool capture_wrote;		/* a statement in it wrote the catalog */
static bool capture_paused;		/* what runs is not captured (CacheAlterTableBegin) */
static int64_t capture_schema_version;	/* main's cookie when the capture began */
static RlBuf changeset;			/* the transaction's writes so far */
static TempTable *temp_tables;	/* created by this transaction (malloc'd) */
static WriterConn *writer_conn;
static bool writes_held;		/* the writer knows this transaction writes */
sqlite3_stmt *active_stmt;		/* CacheExecute's, evicted if an ERROR cuts it short */

/*
 * The relations analysis looked up (and the names it found no relation for), kept
 * while the cache's schema is the one they were read from: SQLite's schema cookies
 * of main and temp, checked at a statement's first lookup. The cookies change with
 * every CREATE, ALTER and DROP, ours or the writer's, so other transactions'
 * commits keep them unless they change the schema. A capture's DDL is rolled back
 * with it, and the writer's DDL may then bring the cookie to the same number with
 * other tables, so a capture that changed the schema forgets them at its end.
 * Reading a relation's columns (pragma_table_info) was a tenth of a backend's time
 * in a DuckLake commit.
 */
#define RELATION_CACHE_SIZE 64
typedef struct KeptRelation
{
	char	   *schema;			/* "main" or "temp" */
	char	   *name;
	CacheRelation *rel;			/* NULL: no such relation */
} KeptRelation;
static KeptRelation relation_cache[RELATION_CACHE_SIZE];
static int	relation_cache_next;
static MemoryContext RelationCacheContext;
static int64_t relation_cache_key[2] = {-1, -1};	/* main cookie, temp cookie */
static bool relation_cache_checked;	/* in this statement */

static void forget_relations(void);

/* Prepared statements by SQL text (stmt_cache.h) */
#define STATEMENT_CACHE_SIZE 64
/* the longest a snapshot waits before it looks at the cache again (begin_fresh) */
#define HORIZON_WAIT_MS		10
static StmtCache *statements;
CacheHooks cache_hooks;

static unsigned long warmed_statements;	/* compiled while warming up */

unsigned long
CacheCompiledBySession(void)
{
	return statements ? stmt_cache_compiled(statements) - warmed_statements : 0;
}

/* SQLite VM instructions between two looks at the interrupt flags (some microseconds) */
#define PROGRESS_HANDLER_OPS 1000

/* cache_progress -- SQLite's progress handler: nonzero stops the statement */
static int
cache_progress(void *arg)
{
	return InterruptPending && InterruptRaisePending();
}

const char *
CacheSqliteName(const char *name)
{
	size_t		len = cache_name_len(name);

	if (len == strlen(name))
		return name;
	char	   *out = palloc(len + 1);

	*cache_put_name(out, name) = '\0';
	return out;
}

static void
exec_sql(const char *sql)
{
	/* through the kept statements: BEGIN and COMMIT of every transaction cost as much to compile as to run */
	int			rc = stmt_cache_run(statements, sql);

	if (rc != SQLITE_OK)
		sqlite_error(rc, sql);
}

/* exec_quietly -- for clean-up paths that must not fail */
void
exec_quietly(const char *sql)
{
	sqlite3_exec(cache_db, sql, NULL, NULL, NULL);
}

/*
 * cached_statement -- a prepared statement for sql, reset: from the cache, or made
 * now and cached unless every slot is running (a statement inside another's callback)
 */
sqlite3_stmt *
cached_statement(const char *sql)
{
	sqlite3_stmt *stmt = stmt_cache_get(statements, sql);

	if (stmt == NULL)
		sqlite_error(sqlite3_extended_errcode(cache_db), "prepare a statement");
	return stmt;
}

/* release_statement -- done with a statement: reset it if cached and it worked, else finalize */
void
release_statement(sqlite3_stmt *stmt, bool failed)
{
	stmt_cache_release(statements, stmt, failed);
}

/* ---------- the connection ---------- */

char *
CacheLookupText(const char *sql, const Value *param)
{
	sqlite3_stmt *stmt;
	char	   *result = NULL;

	if (cache_db == NULL)
		return NULL;
	stmt = cached_statement(sql);
	to_sqlite(&(SqliteSink) {.stmt = stmt, .index = 1}, param);
	if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		result = pstrdup((const char *) sqlite3_column_text(stmt, 0));
	release_statement(stmt, false);
	return result;
}

/* the file cache_db was opened on, to tell a warmed cache from another */
static char *cache_path;
static struct stat cache_file;

static void
close_cache(void)
{
	if (cache_hooks.closing)
		cache_hooks.closing();
	stmt_cache_destroy(statements);
	statements = NULL;
	warmed_statements = 0;
	sqlite3_close(cache_db);
	cache_db = NULL;
	forget_relations();
	free(cache_path);
	cache_path = NULL;
}

void
CacheOpen(const char *path)
{
	struct stat st;

	if (cache_db != NULL)
	{
		if (strcmp(path, cache_path) == 0 && stat(path, &st) == 0 &&
			st.st_dev == cache_file.st_dev && st.st_ino == cache_file.st_ino)
			return;				/* warmed for this database while waiting */
		close_cache();
	}

	int			rc = sqlite3_open_v2(path, &cache_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);

	if (rc != SQLITE_OK)
	{
		/* statements over tables then fail; the rest of the session works */
		ereport(LOG,
				errcode(ERRCODE_IO_ERROR),
				errmsg("could not open the catalog cache \"%s\": %s", path,
					   cache_db ? sqlite3_errmsg(cache_db) : sqlite3_errstr(rc)));
		sqlite3_close(cache_db);
		cache_db = NULL;
		return;
	}
	cache_connection_setup(cache_db);
	cache_capture_watch(cache_db);
	sqlite3_progress_handler(cache_db, PROGRESS_HANDLER_OPS, cache_progress, NULL);
	statements = stmt_cache_create(cache_db, STATEMENT_CACHE_SIZE);
	if (statements == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	cache_register_functions(cache_db);
	if (PgAttributeRegister(cache_db) != SQLITE_OK)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	if (cache_hooks.opened)
		cache_hooks.opened(cache_db);
	typio_reg_hooks.output = SystemRegOutput;
	typio_reg_hooks.input = SystemRegInput;
	rlbuf_free(&changeset);	/* lives across messages: malloc, not a context */
	if (stat(path, &cache_file) == 0)
		cache_path = strdup(path);
	else
		close_cache();			/* gone already: the session finds out as it would have */
}

StmtCache *
CacheStatements(void)
{
	return cache_db ? statements : NULL;
}

void
CacheWarmedUp(void)
{
	if (statements)
		warmed_statements = stmt_cache_compiled(statements);
}

/* read_seq -- the commit sequence the cache reflects, in the current transaction */
static uint64_t
read_seq(void)
{
	sqlite3_stmt *stmt = cached_statement("SELECT value FROM " CACHE_META_TABLE " WHERE name = 'commit_seq'");
	int			rc = sqlite3_step(stmt);
	uint64_t	seq = rc == SQLITE_ROW ? (uint64_t) sqlite3_column_int64(stmt, 0) : 0;

	release_statement(stmt, false);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		sqlite_error(rc, "read the commit sequence");
	return seq;
}

/* take_snapshot -- inside a fresh SQLite transaction (reflecting seq): it must be the transaction's */
static void
take_snapshot(uint64_t seq)
{
	if (have_snapshot && seq != snapshot_seq)
		ereport(ERROR,
				errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				errmsg("could not serialize access due to concurrent update"));
	have_snapshot = true;
	snapshot_seq = seq;
}

/* name_found -- whether query (with ?1 = name) returns a row */
static bool
name_found(const char *query, const char *name)
{
	sqlite3_stmt *stmt = cached_statement(query);
	bool		found = sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
		sqlite3_step(stmt) == SQLITE_ROW;

	release_statement(stmt, false);
	return found;
}

/*
 * load_relation -- the relation PostgreSQL calls name, the table table of SQLite's
 * schema ("main" or "temp")
 */
static CacheRelation *
load_relation(const char *schema, const char *table, const char *name)
{
	sqlite3_stmt *stmt = cached_statement("SELECT name, type FROM pragma_table_info(?1, ?2) ORDER BY cid");
	CacheRelation *rel = palloc0(sizeof(CacheRelation));
	int			cap = 8;

	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 2, schema, -1, SQLITE_STATIC);
	rel->name = pstrdup(name);
	rel->table = pstrdup(table);
	rel->temp = strcmp(schema, "temp") == 0;
	rel->columns = palloc(sizeof(ResultColumn) * (size_t) cap);
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		const char *col = (const char *) sqlite3_column_text(stmt, 0);

		if (strcmp(col, CACHE_ROWID_COLUMN) == 0)
			continue;
		if (rel->ncolumns == cap)
			rel->columns = repalloc(rel->columns, sizeof(ResultColumn) * (size_t) (cap *= 2));
		ResultColumn *c = &rel->columns[rel->ncolumns++];

		c->name = pg_name(col);
		c->type = decl_type((const char *) sqlite3_column_text(stmt, 1), &c->typmod);
	}
	release_statement(stmt, false);

	/* the primary key: the UNIQUE index whose first column is DESC (parse_utility.c's add_key) */
	stmt = cached_statement("SELECT x.cid FROM pragma_index_list(?1, ?2) AS i, pragma_index_xinfo(i.name, ?2) AS x"
							" WHERE i.origin = 'u' AND x.key AND (SELECT f.\"desc\" FROM pragma_index_xinfo(i.name, ?2)"
							" AS f WHERE f.seqno = 0) ORDER BY x.seqno");
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 2, schema, -1, SQLITE_STATIC);
	rel->pkey = palloc(sizeof(int) * (size_t) (rel->ncolumns ? rel->ncolumns : 1));
	while (sqlite3_step(stmt) == SQLITE_ROW && rel->npkey < rel->ncolumns)
		rel->pkey[rel->npkey++] = sqlite3_column_int(stmt, 0) - 1;	/* after _rl_rowid */
	release_statement(stmt, false);
	return rel;
}

/* copy_relation -- rel in the current memory context */
static CacheRelation *
copy_relation(const CacheRelation *rel)
{
	CacheRelation *copy = palloc(sizeof(CacheRelation));

	*copy = *rel;
	copy->name = pstrdup(rel->name);
	copy->table = pstrdup(rel->table);
	if (rel->pkey)
	{
		copy->pkey = palloc(sizeof(int) * (size_t) (rel->npkey ? rel->npkey : 1));
		memcpy(copy->pkey, rel->pkey, sizeof(int) * (size_t) rel->npkey);
	}
	copy->columns = palloc(sizeof(ResultColumn) * (size_t) (rel->ncolumns ? rel->ncolumns : 1));
	for (int i = 0; i < rel->ncolumns; i++)
	{
		copy->columns[i] = rel->columns[i];
		copy->columns[i].name = pstrdup(rel->columns[i].name);
	}
	return copy;
}

static int64_t
pragma_value(const char *sql)
{
	sqlite3_stmt *stmt = cached_statement(sql);
	int64_t		value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;

	release_statement(stmt, false);
	return value;
}

static int64_t
main_schema_version(void)
{
	return pragma_value("PRAGMA main.schema_version");
}

/* forget_relations -- the kept relations go (the schema they describe changed) */
static void
forget_relations(void)
{
	for (int i = 0; i < RELATION_CACHE_SIZE; i++)
		relation_cache[i].name = NULL;
	relation_cache_key[0] = -1;
	if (RelationCacheContext)
		MemoryContextReset(RelationCacheContext);
}

/*
 * user_relation -- a table of SQLite's schema ("main", only those rl_relation names,
 * or "temp") by its name there, table, which PostgreSQL calls name; or NULL; kept
 */
static CacheRelation *
user_relation(const char *schema, const char *table, const char *name)
{
	if (!relation_cache_checked)
	{
		int64_t		key[2] = {main_schema_version(), pragma_value("PRAGMA temp.schema_version")};

		if (memcmp(key, relation_cache_key, sizeof(key)) != 0)
		{
			forget_relations();
			memcpy(relation_cache_key, key, sizeof(key));
		}
		relation_cache_checked = true;
	}
	for (int i = 0; i < RELATION_CACHE_SIZE; i++)
	{
		KeptRelation *k = &relation_cache[i];

		if (k->name && strcmp(k->name, table) == 0 && strcmp(k->schema, schema) == 0)
			return k->rel ? copy_relation(k->rel) : NULL;
	}

	CacheRelation *rel = NULL;

	if (strcmp(schema, "temp") != 0 ||
		name_found("SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = ?1", table))
		if (strcmp(schema, "main") != 0 ||
			name_found("SELECT 1 FROM main." CACHE_RELATION_TABLE " WHERE relname = ?1", table))
			rel = load_relation(schema, table, name);

	if (RelationCacheContext == NULL)
		RelationCacheContext = AllocSetContextCreate(TopMemoryContext, "RelationCache");

	MemoryContext old = MemoryContextSwitchTo(RelationCacheContext);
	KeptRelation *k = &relation_cache[relation_cache_next];

	relation_cache_next = (relation_cache_next + 1) % RELATION_CACHE_SIZE;
	k->schema = pstrdup(schema);
	k->name = pstrdup(table);
	k->rel = rel ? copy_relation(rel) : NULL;
	MemoryContextSwitchTo(old);
	return rel;
}

void
CacheTableDropping(const char *table)
{
	if (capture != NULL)
		cache_capture_dropping(capture, table);
}

bool
CacheTempRelationExists(const char *name)
{
	return cache_db != NULL && user_relation("temp", CacheSqliteName(name), name) != NULL;
}

CacheRelation *
CacheLookupRelation(const char *schema, const char *name)
{
	CacheRelation *rel;

	if (schema == NULL || strcmp(schema, "pg_temp") == 0)
	{
		if ((rel = user_relation("temp", CacheSqliteName(name), name)) != NULL)
			return rel;
		if (schema != NULL)
			return NULL;
		if ((rel = SystemRelationLookup(name)) != NULL)
			return rel;

		/* the schemas of the search path in turn */
		Oid		   *path;
		int			n = SearchPathNamespaces(&path);

		for (int i = 0; i < n; i++)
			if ((rel = CacheLookupRelationIn(path[i], name)) != NULL)
				return rel;
		return NULL;
	}
	if (strcmp(schema, "pg_catalog") == 0)
		return SystemRelationLookup(name);
	if (strcmp(schema, "information_schema") == 0)
		return InformationSchemaLookup(name);

	Oid			nsp = NamespaceOid(schema);

	return nsp == InvalidOid ? NULL : CacheLookupRelationIn(nsp, name);
}

CacheRelation *
CacheLookupRelationIn(Oid nsp, const char *name)
{
	if (nsp == PG_CATALOG_NAMESPACE)
		return SystemRelationLookup(name);
	if (nsp == INFORMATION_SCHEMA_NAMESPACE)
		return InformationSchemaLookup(name);
	return user_relation("main", CacheTableName(nsp, name), name);
}

/* ---------- statements ---------- */

/* skip_missing_tables -- changeset filter: a table dropped later in the transaction */
static int
skip_missing_tables(void *arg, const char *table)
{
	return name_found("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?1", table);
}

static int
abort_on_conflict(void *arg, int reason, const ChangesetIter *it)
{
	return SQLITE_CHANGESET_ABORT;
}

/*
 * rebuild_altered -- a changed rl_relation row of the changeset being re-applied
 * (ALTER TABLE): its table made again from the new CREATE statement before the rows
 * are, which fit it (a row from before ADD COLUMN takes the default); not captured
 */
static void
rebuild_altered(const ChangesetIter *it)
{
	sqlite3_stmt *stmt = cached_statement("SELECT relname FROM main." CACHE_RELATION_TABLE " WHERE relid = ?1");
	char	   *old_name = NULL;

	sqlite3_bind_int64(stmt, 1, changeset_int64(changeset_old(it, 0)));
	if (sqlite3_step(stmt) == SQLITE_ROW)
		old_name = pstrdup((const char *) sqlite3_column_text(stmt, 0));
	release_statement(stmt, false);
	if (old_name == NULL)
		return;
	bool		was_paused = capture_paused;
	char	   *name = changeset_text(changeset_new(it, 1));
	char	   *sql = changeset_text(changeset_new(it, 2));

	cache_capture_pause(capture, capture_paused = true);
	RlStatus	rc = cache_rebuild_table(cache_db, old_name, name ? name : old_name, sql);

	free(name);
	free(sql);
	cache_capture_pause(capture, capture_paused = was_paused);
	if (rc != RL_OK)
		sqlite_error(sqlite3_extended_errcode(cache_db), "rebuild an altered table");
}

/*
 * replay_changeset -- re-apply the transaction's writes inside the capture
 *
 * DDL is rows of rl_relation: the tables those rows create are created first,
 * the rows applied, and the tables whose rows went are dropped.
 */
static void
replay_changeset(void)
{
	ChangesetIter it;
	ChangesetStep step;
	RlBuf		drops;

	rlbuf_init_in(&drops, CurrentMemoryContext);
	changeset_begin(&it, changeset.data, changeset.len);
	while ((step = changeset_next(&it)) == CHANGESET_ROW)
	{
		if (strcmp(it.table, CACHE_RELATION_TABLE) != 0 || it.ncolumns < 3)
			continue;
		/* the tables made again may differ from the kept ones under the same cookie */
		forget_relations();

		char	   *text = changeset_text(it.op == SQLITE_DELETE ? changeset_old(&it, 1) : changeset_new(&it, 2));

		if (it.op == SQLITE_INSERT && text)
			sqlite3_exec(cache_db, text, NULL, NULL, NULL);
		else if (it.op == SQLITE_UPDATE)
			rebuild_altered(&it);
		else if (it.op == SQLITE_DELETE && text)
		{
			char	   *sql = sqlite3_mprintf("DROP TABLE IF EXISTS main.\"%w\";", text);

			rlbuf_append_str(&drops, sql);
			sqlite3_free(sql);
		}
		free(text);
	}
	changeset_end(&it);
	if (step == CHANGESET_CORRUPT)
		elog(ERROR, "could not read the transaction's changeset");
	int			rc = cache_apply_changeset(cache_db, statements, changeset.data, changeset.len,
										   skip_missing_tables, abort_on_conflict, NULL);

	if (rc == SQLITE_OK && drops.len > 0)
		rc = sqlite3_exec(cache_db, rlbuf_cstr(&drops), NULL, NULL, NULL);
	rlbuf_free(&drops);
	if (rc == SQLITE_ABORT)
		ereport(ERROR,
				errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				errmsg("could not serialize access due to concurrent update"));
	if (rc != SQLITE_OK)
		sqlite_error(rc, "re-apply the transaction's changes");
}

/* end_read_txn -- COMMIT, so the temporary tables' changes stay */
static void
end_read_txn(void)
{
	if (in_read_txn)
		stmt_cache_run(statements, "COMMIT");
	in_read_txn = false;
}

/*
 * begin_fresh -- BEGIN on the cache once it has every commit the writer acknowledged
 * (commit_horizon.h), which it makes visible right after answering: a commit
 * acknowledged before this statement came is seen, whichever connection made it.
 * Returns the commit sequence the transaction reflects; *open (in_read_txn or
 * in_temp_txn) says whether the transaction is open. A capture needs no such wait: its
 * BEGIN IMMEDIATE waits for the writer's transaction to end. No snapshot is served
 * once the writer's last proof that the store is still its own is older than
 * store_check_timeout.
 */
static uint64_t
begin_fresh(bool *open)
{
	int64_t		unconfirmed_ms = commit_horizon_proof_age_ms(MyDatabaseId);

	/* a newer server may own the store by now, or the store is unreachable */
	if (StoreCheckTimeout > 0 && unconfirmed_ms > StoreCheckTimeout * 1000L)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not confirm that the catalog is current"),
				errdetail("The writer has not been able to check its object store for %lld s.",
						  (long long) (unconfirmed_ms / 1000)),
				errhint("Reads resume once the store answers again; the server log says why it does not."));
	for (;;)
	{
		uint32_t	generation = commit_horizon_generation(MyDatabaseId);
		uint64_t	horizon = commit_horizon_get(MyDatabaseId);
		uint64_t	seq;

		exec_sql("BEGIN");
		*open = true;
		seq = read_seq();
		if (seq >= horizon)
			return seq;
		stmt_cache_run(statements, "COMMIT");
		*open = false;
		CHECK_FOR_INTERRUPTS();
		commit_horizon_wait(MyDatabaseId, generation, HORIZON_WAIT_MS);
	}
}

static void
disconnect_writer(void)
{
	if (writer_conn)
		writer_disconnect(writer_conn);
	writer_conn = NULL;
	writes_held = false;
}

/* connect_writer -- the session's connection to the writer, made when first needed */
static void
connect_writer(void)
{
	if (writer_conn != NULL)
		return;
	writer_conn = writer_connect(psprintf("%s/%s", DataDir, WRITER_SOCKET_NAME));
	if (writer_conn && writer_attach(writer_conn, MyDatabaseId) != RL_OK)
		disconnect_writer();
}

/* release_writes -- tell the writer the transaction holds no writes (see open_capture) */
static void
release_writes(void)
{
	if (writes_held && writer_release(writer_conn) != RL_OK)
		disconnect_writer();
	writes_held = false;
}

/*
 * end_capture -- end the message's capture: what its statements wrote becomes
 * the transaction's changeset, and the cache's write lock goes. RL_OK, or the
 * status of a failure to take the changes (which are then lost).
 */
static RlStatus
end_capture(void)
{
	if (capture == NULL)
		return RL_OK;
	CacheCapture *c = capture;
	RlBuf		captured;

	capture = NULL;
	capture_paused = false;
	if (main_schema_version() != capture_schema_version)
		forget_relations();		/* kept from a schema the rollback takes away */
	rlbuf_init_in(&captured, CurrentMemoryContext);
	RlStatus	rc = cache_capture_end(c, &captured);

	if (rc == RL_OK && capture_wrote)
	{
		rlbuf_reset(&changeset);
		rlbuf_append(&changeset, captured.data, captured.len);
	}
	rlbuf_free(&captured);
	if (rc == RL_OK && changeset.len == 0)
		release_writes();		/* it wrote nothing after all */
	return rc;
}

/* close_capture -- end_capture, whose failure is the statement's ERROR */
static void
close_capture(void)
{
	if (end_capture() != RL_OK)
		elog(ERROR, "could not take the statement's changes");
}

/*
 * open_capture -- a capture on the transaction's state: its changes so far re-applied
 *
 * Writes go on the newest state. Before its first write a transaction waits
 * (writer_write_intent, at most WRITE_INTENT_WAIT_MS) for the other transactions
 * of the database that hold writes, as a PostgreSQL writer waits for the holder of
 * a row it needs: if one commits first the statement fails with 40001, as
 * PostgreSQL's fails once the holder commits (DuckLake's INSERT of the next
 * snapshot_id: 23505), rather than the COMMIT, after which DuckDB's postgres
 * extension throws its connection away. Without a writer the COMMIT reports that.
 */
static void
open_capture(bool paused)
{
	end_read_txn();
	if (!writes_held)
	{
		connect_writer();
		if (writer_conn && writer_write_intent(writer_conn) != RL_OK)
		{
			disconnect_writer();	/* which ends the writer's hold too */
			CHECK_FOR_INTERRUPTS(); /* if the wait was given up for one */
		}
		writes_held = writer_conn != NULL;
	}
	if (cache_capture_begin(cache_db, statements, &capture) != RL_OK)
		sqlite_error(sqlite3_extended_errcode(cache_db), "start capturing changes");
	capture_schema_version = main_schema_version();
	cache_capture_pause(capture, capture_paused = paused);
	take_snapshot(read_seq());
	if (changeset.len > 0)
		replay_changeset();
}

void
CacheStatementBegin(CacheTarget target)
{
	relation_cache_checked = false;
	if (cache_db == NULL)
		ereport(ERROR,
				errcode(ERRCODE_IO_ERROR),
				errmsg("the catalog cache is not available"));
	if (target == CACHE_WRITE_TEMP)
	{
		/* temporary tables change outside any capture, which is rolled back */
		close_capture();
		if (!in_read_txn)
			begin_fresh(&in_temp_txn);
		return;
	}
	if (capture != NULL)
	{
		/* a later statement of the same message: its capture holds the changes so far */
		capture_wrote |= target == CACHE_WRITE_MAIN;
		return;
	}
	if (target != CACHE_WRITE_MAIN && changeset.len == 0)
	{
		if (!in_read_txn)
			read_txn_seq = begin_fresh(&in_read_txn);
		if (target == CACHE_READ)
			take_snapshot(read_txn_seq);
		return;
	}
	open_capture(false);
	capture_wrote = target == CACHE_WRITE_MAIN;
}

void
CacheStatementEnd(void)
{
	relation_cache_checked = false;
	if (in_temp_txn)
	{
		in_temp_txn = false;
		exec_sql("COMMIT");
	}
}

void
CacheMessageEnd(bool replied)
{
	relation_cache_checked = false;
	if (!replied)
		close_capture();
	else if (end_capture() != RL_OK)
		ereport(FATAL,
				errcode(ERRCODE_IO_ERROR),
				errmsg("could not take the changes of the last statement"),
				errdetail("The transaction did not commit."));
}

void
CacheAlterTableBegin(void)
{
	if (cache_db == NULL)
		ereport(ERROR,
				errcode(ERRCODE_IO_ERROR),
				errmsg("the catalog cache is not available"));
	close_capture();
	open_capture(true);
}

void
CacheAlterTableEnd(const char *table)
{
	sqlite3_stmt *stmt;
	RlBuf		recorded;
	int			n = 0;
	void	   *combined = NULL;

	cache_capture_pause(capture, capture_paused = false);
	stmt = cached_statement("UPDATE main." CACHE_RELATION_TABLE " SET sql = (SELECT sql FROM main.sqlite_master"
							" WHERE type = 'table' AND name = ?1) WHERE relname = ?1");
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	int			rc = sqlite3_step(stmt);

	release_statement(stmt, rc != SQLITE_DONE);
	if (rc != SQLITE_DONE)
		sqlite_error(sqlite3_extended_errcode(cache_db), "record the altered table");

	/* what this capture holds is that row alone: the transaction's earlier changes were not captured */
	CacheCapture *c = capture;

	capture = NULL;
	rlbuf_init_in(&recorded, CurrentMemoryContext);
	if (cache_capture_end(c, &recorded) != RL_OK ||
		sqlite3changeset_concat((int) changeset.len, changeset.data, (int) recorded.len, recorded.data,
								&n, &combined) != SQLITE_OK)
		elog(ERROR, "could not take the statement's changes");
	rlbuf_reset(&changeset);
	rlbuf_append(&changeset, combined, (size_t) n);
	sqlite3_free(combined);
	rlbuf_free(&recorded);
}

void
CacheAddTableKey(const char *table, const char *conname, const char **columns)
{
	sqlite3_stmt *stmt = cached_statement("SELECT \"notnull\" FROM pragma_table_info(?1) WHERE name = ?2");
	char	   *quoted = sqlite3_mprintf("%w", conname);
	RlBuf		key;
	char	   *sql = NULL;

	/* a primary key of the cache is a UNIQUE constraint, its first column DESC (syscat.c) */
	rlbuf_init_in(&key, CurrentMemoryContext);
	rlbuf_printf(&key, "CONSTRAINT \"%s\" UNIQUE (", quoted);
	sqlite3_free(quoted);
	for (int i = 0; columns[i]; i++)
	{
		sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(stmt, 2, columns[i], -1, SQLITE_TRANSIENT);
		bool		notnull = sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0);

		sqlite3_reset(stmt);
		if (!notnull)
		{
			release_statement(stmt, false);
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("ADD PRIMARY KEY on a column without NOT NULL is not supported yet"));
		}
		quoted = sqlite3_mprintf("%w", columns[i]);
		rlbuf_printf(&key, "%s\"%s\"%s", i ? ", " : "", quoted, i ? "" : " DESC");
		sqlite3_free(quoted);
	}
	rlbuf_append_str(&key, ")");
	release_statement(stmt, false);
	stmt = cached_statement("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?1");
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(stmt) == SQLITE_ROW)
	{
		const char *old = (const char *) sqlite3_column_text(stmt, 0);
		const char *close = strrchr(old, ')');

		/* the statement ends with its column list's ")": the key goes last in it */
		sql = psprintf("%.*s, %s)", (int) (close - old), old, rlbuf_cstr(&key));
	}
	release_statement(stmt, false);
	rlbuf_free(&key);
	if (sql != NULL && cache_rebuild_table(cache_db, table, table, sql) == RL_OK)
		return;
	if (sqlite3_extended_errcode(cache_db) == SQLITE_CONSTRAINT_UNIQUE)
		ereport(ERROR,
				errcode(ERRCODE_UNIQUE_VIOLATION),
				errmsg("could not create unique index \"%s\"", conname));
	sqlite_error(sqlite3_extended_errcode(cache_db), "add the primary key");
}

bool
CacheScanUsable(void)
{
	return cache_db != NULL && changeset.len == 0 && capture == NULL && !in_temp_txn;
}

int64_t
CacheScanSince(const char *table, uint64_t kept_seq, int64_t kept_rowid, uint64_t *seq, int64_t *rowid)
{
	sqlite3_stmt *stmt;
	int64_t		base = INT64_MAX;

	char	   *sql = sqlite3_mprintf("SELECT (SELECT max(seq) FROM main." CACHE_SCAN_BASE_TABLE
									  " WHERE relname IN ('%q', '')), (SELECT max(" CACHE_ROWID_COLUMN
									  ") FROM main.\"%w\")", table, table);

	CacheStatementBegin(CACHE_READ);
	stmt = cached_statement(sql);
	sqlite3_free(sql);
	*rowid = INT64_MIN;
	if (sqlite3_step(stmt) == SQLITE_ROW)
	{
		base = sqlite3_column_int64(stmt, 0);
		if (sqlite3_column_type(stmt, 1) != SQLITE_NULL)
			*rowid = sqlite3_column_int64(stmt, 1);
	}
	release_statement(stmt, false);
	*seq = snapshot_seq;
	if (kept_seq != 0 && snapshot_seq >= kept_seq && base >= 0 && (uint64_t) base <= kept_seq)
		return kept_rowid;
	return INT64_MIN;
}

int64_t
CacheIdentity(void)
{
	sqlite3_stmt *stmt;
	int64_t		id = 0;

	CacheStatementBegin(CACHE_READ);
	stmt = cached_statement("SELECT value FROM main." CACHE_META_TABLE " WHERE name = '" CACHE_ID_NAME "'");
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	release_statement(stmt, false);
	return id;
}

bool
CacheTransactionChanged(const char *table)
{
	ChangesetIter it;
	bool		changed = false;

	close_capture();			/* the message's earlier statements' changes too */
	changeset_begin(&it, changeset.data, changeset.len);
	while (!changed && changeset_next(&it) == CHANGESET_ROW)
		changed = strcmp(it.table, table) == 0;
	changeset_end(&it);
	return changed;
}


void
CacheAbortStatement(void)
{
	callback_failed = false;
	relation_cache_checked = false;
	if (cache_db == NULL)
		return;
	if (capture != NULL || in_temp_txn || active_stmt != NULL)
		forget_relations();		/* what is undone may have changed the schema */
	if (active_stmt)
		release_statement(active_stmt, true);
	active_stmt = NULL;
	if (capture != NULL)
	{
		RlBuf		discard;

		rlbuf_init_in(&discard, CurrentMemoryContext);
		cache_capture_end(capture, &discard);
		rlbuf_free(&discard);
		capture = NULL;
		capture_paused = false;
	}
	if (in_temp_txn)
		exec_quietly("ROLLBACK");
	in_temp_txn = false;
	if (changeset.len == 0)
		release_writes();		/* the statement that was to write failed */
}

void
CacheRememberTempTable(const char *name, bool on_commit_drop)
{
	TempTable  *t = malloc(sizeof(TempTable));

	t->name = strdup(CacheSqliteName(name));
	t->on_commit_drop = on_commit_drop;
	t->next = temp_tables;
	temp_tables = t;
}

/* end_transaction -- forget the snapshot and the changes; drop the temporary tables due */
static void
end_transaction(bool committed)
{
	if (cache_hooks.transaction_ended)
		cache_hooks.transaction_ended();
	have_snapshot = false;
	rlbuf_reset(&changeset);
	while (temp_tables != NULL)
	{
		TempTable  *t = temp_tables;

		if (!committed || t->on_commit_drop)
		{
			char	   *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.\"%w\"", t->name);

			exec_quietly(sql);
			sqlite3_free(sql);
		}
		temp_tables = t->next;
		free(t->name);
		free(t);
	}
}

void
CacheAbortTransaction(void)
{
	if (cache_db == NULL)
		return;
	CacheAbortStatement();
	if (in_read_txn)
	{
		exec_quietly("ROLLBACK");
		forget_relations();		/* it may have held temporary tables' DDL */
	}
	in_read_txn = false;
	release_writes();
	end_transaction(false);
}

/*
 * CacheCommitOutcomeUnknown -- a CommitRequest went out and no answer came back
 *
 * The transaction may or may not be committed. A wait given up for a cancel or a
 * shutdown says so in a WARNING before the interrupt's own error, as PostgreSQL's
 * does when it stops waiting for a synchronous standby; a broken connection is
 * 08007.
 */
void
CacheCommitOutcomeUnknown(RlStatus rc)
{
	if (rc == RL_INTERRUPTED)
	{
		ereport(WARNING,
				errcode(ERRCODE_TRANSACTION_RESOLUTION_UNKNOWN),
				errmsg("canceling the wait for the writer's answer"),
				errdetail("The transaction may or may not have been committed."));
		ProcessInterrupts();
	}
	ereport(ERROR,
			errcode(ERRCODE_TRANSACTION_RESOLUTION_UNKNOWN),
			errmsg("lost the connection to the writer while committing"),
			errdetail("The transaction may or may not have been committed."));
}

void
CacheCommitTransaction(void)
{
	if (cache_db == NULL)
		return;
	close_capture();
	end_read_txn();
	if (changeset.len == 0)
	{
		release_writes();
		end_transaction(true);
		return;
	}

	uint64_t	seq = snapshot_seq;
	RlBuf		cs = changeset;
	WriterCommitResult result;

	rlbuf_init(&changeset);	/* lives across messages: malloc, not a context */
	end_transaction(true);
	connect_writer();
	RlStatus	rc = writer_conn ? writer_commit(writer_conn, seq, cs.data, cs.len, &result) : RL_IO_ERROR;

	writes_held = false;		/* the CommitRequest ended the hold */
	rlbuf_free(&cs);
	if (rc != RL_OK)
	{
		disconnect_writer();
		CacheCommitOutcomeUnknown(rc);
	}
	if (!result.committed)
		ereport(ERROR,
				errcode(result.sqlstate),
				errmsg("%s", result.message),
				result.detail[0] ? errdetail("%s", result.detail) : 0,
				result.constraint_name[0] ? errtableconstraint(result.schema_name, result.table_name, NULL,
															   result.constraint_name) : 0);
}

bool
CacheCursorAllowed(void)
{
	return capture == NULL && !in_temp_txn && active_stmt == NULL;
}
