/*
 * fuzz_backend.c: a backend inside the fuzzing process (fuzz_backend.h).
 *
 * Set up once, at the first input: a data directory under $TMPDIR, a catalog cache
 * made by catalog_cache_open whose tables are created as a committed CREATE TABLE
 * creates them (the analyser's SQL for the statement, run on the cache's own
 * connection) with a few rows, and a second one like it: an input that may have made a
 * temporary table is followed by a switch to the other cache, which closes the
 * connection that held it. The session has statement_timeout at 1 s as a startup
 * option would set it, so RESET comes back to it; an input that names a timeout
 * could turn it off, and is not run (a hang it then causes would be no bug).
 *
 * The error recovery is the backend's own (BackendMessageLoop's sigsetjmp); a
 * FATAL, which ends a real session, jumps back here from the client's error sink
 * instead of exiting, and the session is reset as after any input.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "fuzz_backend.h"
#include "libpq/pqcomm.h"
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "tcop/backend.h"
#include "tcop/dest.h"
#include "tcop/portal.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

#define lengthof(a) (sizeof(a) / sizeof((a)[0]))

/* DuckLake's tables as DuckDB creates them (test/duckdb/data/ducklake_1_0_statements.sql), and one of every common type */
static const char *const catalog_ddl[] = {
	"CREATE TABLE \"public\".\"ducklake_metadata\"(\"key\" VARCHAR NOT NULL, \"value\" VARCHAR NOT NULL, "
	"\"scope\" VARCHAR, \"scope_id\" BIGINT)",
	"CREATE TABLE \"public\".\"ducklake_snapshot\"(\"snapshot_id\" BIGINT PRIMARY KEY, \"snapshot_time\" "
	"TIMESTAMP WITH TIME ZONE, \"schema_version\" BIGINT, \"next_catalog_id\" BIGINT, \"next_file_id\" BIGINT)",
	"CREATE TABLE \"public\".\"ducklake_snapshot_changes\"(\"snapshot_id\" BIGINT PRIMARY KEY, \"changes_made\" "
	"VARCHAR, \"author\" VARCHAR, \"commit_message\" VARCHAR, \"commit_extra_info\" VARCHAR)",
	"CREATE TABLE \"public\".\"ducklake_schema\"(\"schema_id\" BIGINT PRIMARY KEY, \"schema_uuid\" UUID, "
	"\"begin_snapshot\" BIGINT, \"end_snapshot\" BIGINT, \"schema_name\" VARCHAR, \"path\" VARCHAR, "
	"\"path_is_relative\" BOOLEAN)",
	"CREATE TABLE \"public\".\"ducklake_table\"(\"table_id\" BIGINT, \"table_uuid\" UUID, \"begin_snapshot\" BIGINT, "
	"\"end_snapshot\" BIGINT, \"schema_id\" BIGINT, \"table_name\" VARCHAR, \"path\" VARCHAR, \"path_is_relative\" BOOLEAN)",
	"CREATE TABLE \"public\".\"ducklake_column\"(\"column_id\" BIGINT, \"begin_snapshot\" BIGINT, \"end_snapshot\" BIGINT, "
	"\"table_id\" BIGINT, \"column_order\" BIGINT, \"column_name\" VARCHAR, \"column_type\" VARCHAR, "
	"\"initial_default\" VARCHAR, \"default_value\" VARCHAR, \"nulls_allowed\" BOOLEAN, \"parent_column\" BIGINT, "
	"\"default_value_type\" VARCHAR, \"default_value_dialect\" VARCHAR)",
	"CREATE TABLE \"public\".\"ducklake_data_file\"(\"data_file_id\" BIGINT PRIMARY KEY, \"table_id\" BIGINT, "
	"\"begin_snapshot\" BIGINT, \"end_snapshot\" BIGINT, \"file_order\" BIGINT, \"path\" VARCHAR, \"path_is_relative\" "
	"BOOLEAN, \"file_format\" VARCHAR, \"record_count\" BIGINT, \"file_size_bytes\" BIGINT, \"footer_size\" BIGINT, "
	"\"row_id_start\" BIGINT, \"partition_id\" BIGINT, \"encryption_key\" VARCHAR, \"mapping_id\" BIGINT)",
	"CREATE TABLE \"public\".\"ducklake_table_stats\"(\"table_id\" BIGINT, \"record_count\" BIGINT, \"next_row_id\" BIGINT, "
	"\"file_size_bytes\" BIGINT)",
	"CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10, 2), qty smallint, "
	"ratio double precision, created timestamptz, day date, flag boolean, u uuid, data bytea, tags text[], "
	"doc json, code varchar(8) UNIQUE)",
};

/* rows, in the cache's canonical forms (catalog_cache.h); the first column is the row id */
static const char *const catalog_rows[] = {
	"INSERT INTO ducklake_metadata VALUES (1, 'version', '0.3', NULL, NULL), (2, 'data_path', 's3://b/', NULL, NULL)",
	"INSERT INTO ducklake_snapshot VALUES (1, 0, 0, 0, 1, 0), (2, 1, 817000000000000, 1, 3, 1)",
	"INSERT INTO ducklake_snapshot_changes VALUES (1, 0, 'created_schema:\"main\"', NULL, NULL, NULL)",
	"INSERT INTO ducklake_schema VALUES (1, 0, x'0123456789abcdef0123456789abcdef', 0, NULL, 'main', 'main/', 1)",
	"INSERT INTO ducklake_table VALUES (1, 1, x'00112233445566778899aabbccddeeff', 1, NULL, 0, 't', 't/', 1)",
	"INSERT INTO ducklake_column VALUES (1, 1, 1, NULL, 1, 1, 'a', 'int32', NULL, NULL, 1, NULL, NULL, NULL), "
	"(2, 2, 1, NULL, 1, 2, 'b', 'varchar', NULL, NULL, 1, NULL, NULL, NULL)",
	"INSERT INTO ducklake_data_file VALUES (1, 1, 1, 1, NULL, NULL, 'f.parquet', 1, 'parquet', 3, 600, 200, 0, NULL, NULL, NULL)",
	"INSERT INTO ducklake_table_stats VALUES (1, 1, 3, 3, 600)",
	"INSERT INTO items VALUES (1, 1, 'one', '1.50', 3, 0.5, 817000000000000, 9000, 1, "
	"x'0123456789abcdef0123456789abcdef', x'00ff', '{a,\"b c\",NULL}', '{\"k\": [1, 2]}', 'A1'), "
	"(2, 2, 'two', '-20.00', NULL, -1e300, NULL, NULL, 0, NULL, NULL, '{}', 'null', NULL)",
};

static bool initialised;
static char cache_paths[2][4096];
static int	current_cache;
static sigjmp_buf *fatal_jump;	/* where a FATAL goes instead of exiting */

/* setup_failed -- the fuzzing cannot start */
static void
setup_failed(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_backend: %s: %s\n", what, why);
	abort();
}

/* fuzz_error_sink -- the client's error sink: the backend's, then the checks */
static void
fuzz_error_sink(const ErrorData *edata)
{
	SendErrorToClient(edata);
	if (edata->elevel == ERROR && strcmp(edata->sqlstate, ERRCODE_INTERNAL_ERROR) == 0)
	{
		fprintf(stderr, "internal error (XX000): %s\n", edata->message ? edata->message : "");
		abort();
	}
	if (edata->elevel >= FATAL && fatal_jump != NULL)
		siglongjmp(*fatal_jump, 1);
}

/* run_ddl -- one statement of a CREATE TABLE's SQL: its binds are the texts of the rl_relation row */
static void
run_ddl(sqlite3 *db, const SqlStatement *s)
{
	sqlite3_stmt *stmt;

	if (sqlite3_prepare_v2(db, s->sql, -1, &stmt, NULL) != SQLITE_OK)
		setup_failed(s->sql, sqlite3_errmsg(db));
	for (int k = 0; k < s->nbinds; k++)
	{
		const Expr *e = s->binds[k];

		if (e->kind != EXPR_CONST || e->constval.type != TEXTOID)
			setup_failed(s->sql, "a bind that is no text constant");
		sqlite3_bind_text(stmt, k + 1, e->constval.u.s.data, (int) e->constval.u.s.len, SQLITE_STATIC);
	}
	if (sqlite3_step(stmt) != SQLITE_DONE)
		setup_failed(s->sql, sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
}

/* create_catalog -- a cache at path with catalog_ddl's tables and catalog_rows */
static void
create_catalog(const char *path)
{
	CatalogCache *cache;
	char	   *err = NULL;

	if (catalog_cache_open(path, &cache) != RL_OK)
		setup_failed(path, rl_last_error());
	sqlite3    *db = catalog_cache_db(cache);

	CacheOpen(path);
	for (size_t i = 0; i < lengthof(catalog_ddl); i++)
	{
		StartTransactionCommand();
		ParsedQuery *pq = ParseQuery(catalog_ddl[i]);
		AnalyzedStmt *stmt = AnalyzeStatement(&pq->stmts[0], catalog_ddl[i], NULL, -1);

		AbortCurrentTransaction();	/* the analysis' read of the cache ends */
		for (int j = 0; j < stmt->nsql; j++)
			run_ddl(db, &stmt->sql[j]);
	}
	for (size_t i = 0; i < lengthof(catalog_rows); i++)
		if (sqlite3_exec(db, catalog_rows[i], NULL, NULL, &err) != SQLITE_OK)
			setup_failed(catalog_rows[i], err);
	catalog_cache_close(cache);
	MemoryContextReset(MessageContext);
}

static void
set_or_fail(const char *name, const char *value, GucSource source)
{
	const char *msg = NULL;

	if (!set_config_option(name, value, source, false, &msg, NULL))
		setup_failed(name, msg ? msg : "invalid value");
}

static void
initialise(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char	   *dir = malloc(strlen(tmp) + 32);

	sprintf(dir, "%s/rl-libfuzzer-XXXXXX", tmp);
	if (mkdtemp(dir) == NULL)
		setup_failed(dir, "mkdtemp failed");
	MemoryContextInit();
	InitializeGUCOptions();
	DataDir = dir;
	set_or_fail("data_directory", dir, PGC_S_OVERRIDE);
	set_or_fail("log_min_messages", "panic", PGC_S_ARGV);
	set_or_fail("statement_timeout", "1s", PGC_S_CLIENT);
	/* a superuser's session: privilege checks read a roles' registry the harness has not */
	set_or_fail("is_superuser", "on", PGC_S_OVERRIDE);
	BackendInitSignals(-1);
	BackendInitCache();
	MyUserName = "fuzz";
	MyDatabaseName = "fuzz";
	MemoryContextSwitchTo(MessageContext);
	snprintf(cache_paths[0], sizeof(cache_paths[0]), "%s/cache-a.db", dir);
	snprintf(cache_paths[1], sizeof(cache_paths[1]), "%s/cache-b.db", dir);
	create_catalog(cache_paths[1]);
	create_catalog(cache_paths[0]);
	CacheOpen(cache_paths[0]);
	elog_set_client_sink(fuzz_error_sink);
	initialised = true;
}

/* drain -- the client's side: read whatever the backend answers, until it closes */
static void *
drain(void *arg)
{
	int			sock = *(int *) arg;
	char		buf[65536];

	while (read(sock, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* reset_session -- the session as it began, after whatever the input left */
static void
reset_session(bool temp_tables)
{
	MemoryContextSwitchTo(MessageContext);
	FlushErrorState();
	PG_exception_stack = NULL;
	ActivePortal = NULL;
	AbortCurrentTransaction();
	if (IsTransactionBlock())
		UserAbortTransactionBlock();
	DropAllPreparedStatements();
	ResetAllSessionOptions();
	if (temp_tables)
	{
		current_cache = 1 - current_cache;
		CacheOpen(cache_paths[current_cache]);
	}
	MemoryContextReset(MessageContext);
}

/* mentions -- whether data has word in it, in any case */
static bool
mentions(const uint8_t *data, size_t len, const char *word)
{
	size_t		n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp((const char *) data + i, word, n) == 0)
			return true;
	return false;
}

void
fuzz_backend_serve(const uint8_t *data, size_t len, bool startup)
{
	int			sv[2];
	pthread_t	reader;
	sigjmp_buf	fatal;

	if (!initialised)
		initialise();
	/* the client's bytes must fit the socket's buffer: nobody reads them while we write */
	if (len > 65536 || mentions(data, len, "timeout"))
		return;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		setup_failed("socketpair", strerror(errno));
	for (size_t done = 0; done < len;)
	{
		ssize_t		n = write(sv[1], data + done, len - done);

		if (n <= 0)
			setup_failed("write", strerror(errno));
		done += (size_t) n;
	}
	shutdown(sv[1], SHUT_WR);
	if (pthread_create(&reader, NULL, drain, &sv[1]) != 0)
		setup_failed("pthread_create", "failed");
	pq_init(sv[0], "[local]", "", NULL, 0);
	if (sigsetjmp(fatal, 1) == 0)
	{
		StartupParams sp;

		fatal_jump = &fatal;
		MemoryContextSwitchTo(MessageContext);
		if (!startup || BackendReadStartup(&sp))
			BackendMessageLoop();
	}
	fatal_jump = NULL;
	pq_flush();
	close(sv[0]);
	pthread_join(reader, NULL);
	close(sv[1]);
	/* the reader takes everything: a failed send would end every later session at once */
	if (ClientConnectionLost)
		setup_failed("the backend", "lost its client");
	reset_session(mentions(data, len, "temp"));
}
