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
 * Values cross into SQLite in their canonical forms (catalog_cache.h), and
 * whatever SQLite cannot compute with PostgreSQL's semantics (arithmetic, casts,
 * functions) it calls back into the executor through rl_eval(). The other
 * functions registered here: rl_scalar for a scalar subquery's value, rl_float_sum
 * and rl_float_avg for sum() and avg() of floats, rl_numeric_sum and rl_numeric_avg
 * for those of numerics, rl_array_agg for ARRAY(subquery) and array_agg(), rl_string_agg
 * for string_agg(... ORDER BY ...),
 * rl_array_json for json_each() to iterate a set-returning function's result; and
 * for pg_catalog (syscat.c) rl_pg_name for the names the cache writes in its own
 * form, rl_nspid for the schema of a table by its name there, rl_search_rank for
 * a schema's place in search_path, rl_quote_ident, rl_default_expr for pg_attrdef,
 * and rl_type_oid / rl_type_typmod for a column's declared type.
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

#include "catalog_cache.h"
#include "commit_horizon.h"
#include "stmt_cache.h"
#include "elog.h"
#include "executor.h"
#include "exprflatten.h"
#include "keptscan.h"
#include "guc.h"
#include "mcxt.h"
#include "miscadmin.h"
#include "namespace.h"
#include "numeric.h"
#include "writer.h"

typedef struct TempTable
{
	char	   *name;
	bool		on_commit_drop;
	struct TempTable *next;
} TempTable;

static sqlite3 *cache_db;
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
static bool callback_failed;	/* an ERROR (already reported) inside a SQLite callback */
static sqlite3_stmt *active_stmt;	/* CacheExecute's, evicted if an ERROR cuts it short */

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

/*
 * A session that compiled fewer statements than this itself (a health check's
 * SELECT 1, or a session the last one's hint had warmed up for) leaves the hint
 * as it is.
 */
#define WARM_MIN_STATEMENTS 4
/*
 * A session that compiled this many leaves its hint at the end of a transaction, if
 * the hint is for another database, without waiting for its own end: DuckDB keeps
 * its first connection open while its pool opens more, which would otherwise find
 * the spares warmed for another database.
 */
#define WARM_EARLY_STATEMENTS 16
static bool hint_left;			/* this session left its hint early */
static unsigned long warmed_statements;	/* compiled while warming up */

/* compiled_by_session -- how many statements the session compiled itself */
static unsigned long
compiled_by_session(void)
{
	return statements ? stmt_cache_compiled(statements) - warmed_statements : 0;
}

/* ---------- errors ---------- */

/* SQLite VM instructions between two looks at the interrupt flags (some microseconds) */
#define PROGRESS_HANDLER_OPS 1000

/* cache_progress -- SQLite's progress handler: nonzero stops the statement */
static int
cache_progress(void *arg)
{
	return InterruptPending && InterruptRaisePending();
}

/*
 * SQLite's own limits on the statements it compiles, met by SQL the analyser made from
 * a statement PostgreSQL would run (or refuse at its own, lower, limit), and the misuses
 * of aggregates the analyser does not check: SQLite reports them as SQLITE_ERROR, told
 * apart only by the message's start. The analyser checks PostgreSQL's limits and rules
 * first and writes its SQL so that SQLite's limits are rarely reached (analyze.c); what
 * still reaches them gets the SQLSTATE PostgreSQL gives, with its message at its limit.
 */
static const struct
{
	const char *prefix;			/* of sqlite3_errmsg() */
	const char *sqlstate;
	const char *message;		/* NULL: SQLite's, already PostgreSQL's words */
}			sqlite_limits[] =
{
	{"parser stack overflow", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"Expression tree is too large", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"too many terms in compound SELECT", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"too many columns", ERRCODE_TOO_MANY_COLUMNS, "target lists can have at most 1664 entries"},
	{"too many SQL variables", ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many constants and parameters in one statement"},
	{"at most 64 tables in a join", ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many tables in one join"},
	/* the analyser's checks come first; these remain as a guard */
	{"misuse of aggregate", ERRCODE_GROUPING_ERROR, NULL},
	{"aggregate functions are not allowed in", ERRCODE_GROUPING_ERROR, NULL},
};

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

/* pg_name -- a name of the cache read back as PostgreSQL's, palloc'd */
static char *
pg_name(const char *name)
{
	return cache_pg_name(palloc(strlen(name) + 1), name);
}

/*
 * The row a failed INSERT or UPDATE was writing when SQLite refused it (a UNIQUE or NOT
 * NULL constraint), for the DETAIL PostgreSQL gives: SQLite checks constraints before
 * anything but a BEFORE trigger sees the row, so probe_failing_row runs the statement
 * again with temporary triggers calling rl_probe_row(NEW's columns), which keeps the
 * last row here. Only on that error path; the statement's effects go with the error.
 */
static struct
{
	const char *message;		/* SQLite's message (palloc'd), NULL if no probe ran */
	const char *table;			/* SQLite's name of the table */
	int			ncolumns;		/* the row: its columns without the row id ... */
	char	  **names;
	char	  **values;			/* ... as PostgreSQL's output, NULL for a NULL */
	sqlite3_value **probed;		/* what rl_probe_row saw last (sqlite3_value_dup'd) */
	int			nprobed;
} failing;

static Oid	decl_type(const char *decl, int32_t *typmod);
static void exec_quietly(const char *sql);
static Value from_sqlite(sqlite3_value *sv, Oid type, int32_t typmod, bool borrow);

/* quoted -- a name as an SQLite identifier */
static char *
quoted(const char *name)
{
	RlBuf		q;

	rlbuf_init_in(&q, CurrentMemoryContext);
	rlbuf_append_str(&q, "\"");
	for (const char *c = name; *c; c++)
		rlbuf_append_str(&q, *c == '"' ? "\"\"" : (char[2]) {*c, 0});
	rlbuf_append_str(&q, "\"");
	return pstrdup(rlbuf_cstr(&q));
}

static void
rl_probe_row(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	for (int i = 0; i < failing.nprobed; i++)
		sqlite3_value_free(failing.probed[i]);
	free(failing.probed);
	failing.nprobed = 0;
	if ((failing.probed = calloc((size_t) argc + 1, sizeof(sqlite3_value *))) == NULL)
		return;
	for (int i = 0; i < argc; i++)
		failing.probed[i] = sqlite3_value_dup(argv[i]);
	failing.nprobed = argc;
}

/* probe_failing_row -- failing's row for stmt, which SQLite just refused (its message in msg) */
static void
probe_failing_row(sqlite3_stmt *stmt, const char *msg)
{
	const char *colon = strchr(msg, ':');
	const char *dot = colon ? strchr(cache_unqualified_name(colon + 2), '.') : NULL;
	sqlite3_stmt *cols = NULL;
	RlBuf		sql,
				args;
	Oid		   *types = NULL;
	int32_t    *typmods = NULL;

	failing.message = pstrdup(msg);
	if (dot == NULL)
		return;
	failing.table = pnstrdup(colon + 2, (size_t) (dot - colon - 2));
	if (sqlite3_prepare_v2(cache_db, "SELECT name, type FROM pragma_table_info(?1) WHERE name <> '"
						   CACHE_ROWID_COLUMN "' ORDER BY cid", -1, &cols, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(cols, 1, failing.table, -1, SQLITE_STATIC);
	rlbuf_init_in(&args, CurrentMemoryContext);
	failing.names = palloc(sizeof(char *));
	while (sqlite3_step(cols) == SQLITE_ROW)
	{
		int			n = failing.ncolumns++;

		failing.names = repalloc(failing.names, sizeof(char *) * (size_t) (n + 1));
		types = types ? repalloc(types, sizeof(Oid) * (size_t) (n + 1)) : palloc(sizeof(Oid));
		typmods = typmods ? repalloc(typmods, sizeof(int32_t) * (size_t) (n + 1)) : palloc(sizeof(int32_t));
		failing.names[n] = pstrdup((const char *) sqlite3_column_text(cols, 0));
		types[n] = decl_type((const char *) sqlite3_column_text(cols, 1), &typmods[n]);
		rlbuf_printf(&args, "%sNEW.%s", n ? ", " : "", quoted(failing.names[n]));
	}
	sqlite3_finalize(cols);
	if (failing.ncolumns == 0)
		return;
	rlbuf_init_in(&sql, CurrentMemoryContext);
	for (int i = 0; i < 2; i++)
		rlbuf_printf(&sql, "CREATE TEMP TRIGGER _rl_probe_%d BEFORE %s ON main.%s BEGIN SELECT rl_probe_row(%s); END;",
					 i, i ? "UPDATE" : "INSERT", quoted(failing.table), rlbuf_cstr(&args));
	if (sqlite3_exec(cache_db, rlbuf_cstr(&sql), NULL, NULL, NULL) == SQLITE_OK)
	{
		sqlite3_reset(stmt);
		(void) sqlite3_step(stmt);	/* refused again, at the same row */
		sqlite3_reset(stmt);
	}
	exec_quietly("DROP TRIGGER IF EXISTS temp._rl_probe_0; DROP TRIGGER IF EXISTS temp._rl_probe_1");
	if (failing.nprobed != failing.ncolumns)
		return;
	failing.values = palloc(sizeof(char *) * (size_t) failing.ncolumns);
	for (int i = 0; i < failing.ncolumns; i++)
	{
		Value		v = from_sqlite(failing.probed[i], types[i], typmods[i], false);

		failing.values[i] = v.isnull ? NULL : pstrdup(typio_output(&v, NULL));
	}
}

/* failing_value -- the failing row's value of a column as a DETAIL shows it, cut at limit bytes if limit > 0 */
static const char *
failing_value(const char *column, size_t limit)
{
	for (int i = 0; i < failing.ncolumns; i++)
		if (strcmp(failing.names[i], column) == 0)
		{
			const char *v = failing.values[i];
			size_t		cut = limit;

			if (v == NULL)
				return "null";
			if (limit == 0 || strlen(v) <= limit)
				return pstrdup(v);
			while (cut > 0 && ((unsigned char) v[cut] & 0xC0) == 0x80)
				cut--;
			return psprintf("%.*s...", (int) cut, v);
		}
	return "?";
}

/* failing_schema -- the schema of the failing row's table, as PostgreSQL names it */
static const char *
failing_schema(void)
{
	int64_t		nsp = cache_name_namespace(failing.table);
	sqlite3_stmt *stmt;
	const char *name = "public";

	if (nsp == 0)
		return name;
	if (sqlite3_prepare_v2(cache_db, "SELECT nspname FROM main." CACHE_NAMESPACE_TABLE " WHERE nspid = ?1",
						   -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(stmt, 1, nsp);
	name = sqlite3_step(stmt) == SQLITE_ROW ? pstrdup((const char *) sqlite3_column_text(stmt, 0)) : NULL;
	sqlite3_finalize(stmt);
	return name;
}

/* sqlite_error -- an ERROR for a failed SQLite call, with PostgreSQL's SQLSTATE where one fits */
static void
sqlite_error(int rc, const char *what)
{
	const char *msg = failing.message ? failing.message : sqlite3_errmsg(cache_db);
	const char *err_schema = NULL,	/* errtableconstraint's */
			   *err_table = NULL,
			   *err_column = NULL,
			   *err_constraint = NULL;

	if (callback_failed)
	{
		/* the report stands (elog.h): resume its recovery now that SQLite is out of the way */
		callback_failed = false;
		siglongjmp(*PG_exception_stack, 1);
	}
	const char *sqlstate = ERRCODE_INTERNAL_ERROR;
	char	   *text = NULL;
	const char *detail = NULL;
	const char *hint = NULL;

	if ((rc & 0xff) == SQLITE_INTERRUPT)
		ProcessInterrupts();	/* cache_progress stopped it: raise what it saw */
	switch (rc)
	{
		case SQLITE_CONSTRAINT_UNIQUE:
		case SQLITE_CONSTRAINT_PRIMARYKEY:
			{
				/* "UNIQUE constraint failed: t.a, t.b" -> t_a_b_key or t_pkey (catalog_cache.c) */
				char	   *table = NULL;
				char	   *name = cache_unique_violation(cache_db, msg, &table);
				const char *dot = table ? msg + strlen("UNIQUE constraint failed: ") + strlen(table) : NULL;

				sqlstate = ERRCODE_UNIQUE_VIOLATION;
				err_constraint = name ? pstrdup(name) : "?";
				text = psprintf("duplicate key value violates unique constraint \"%s\"", err_constraint);
				free(name);
				if (table)
				{
					char	   *copy = pstrdup(table);

					free(table);
					table = copy;
				}
				if (failing.values && table)
				{
					RlBuf		keys,
								values;

					rlbuf_init_in(&keys, CurrentMemoryContext);
					rlbuf_init_in(&values, CurrentMemoryContext);
					for (const char *c = dot; c != NULL; c = strstr(c + 1, ", "))
					{
						const char *col = strchr(c[0] == '.' ? c : cache_unqualified_name(c + 2), '.') + 1;
						char	   *colname = pnstrdup(col, strcspn(col, ","));

						rlbuf_printf(&keys, "%s%s", keys.len ? ", " : "", colname);
						rlbuf_printf(&values, "%s%s", values.len ? ", " : "", failing_value(colname, 0));
					}
					detail = psprintf("Key (%s)=(%s) already exists.", rlbuf_cstr(&keys), rlbuf_cstr(&values));
					err_schema = failing_schema();
					err_table = pg_name(table);
				}
				break;
			}
		case SQLITE_CONSTRAINT_NOTNULL:
			{
				/* "NOT NULL constraint failed: t.a" */
				const char *colon = strchr(msg, ':');
				const char *dot = colon ? strchr(cache_unqualified_name(colon + 2), '.') : NULL;

				sqlstate = ERRCODE_NOT_NULL_VIOLATION;
				text = psprintf("null value in column \"%s\" of relation \"%s\" violates not-null constraint",
								pg_name(dot ? dot + 1 : ""),
								pg_name(dot ? pnstrdup(colon + 2, (size_t) (dot - colon - 2)) : ""));
				if (failing.values && dot)
				{
					RlBuf		row;

					rlbuf_init_in(&row, CurrentMemoryContext);
					for (int i = 0; i < failing.ncolumns; i++)
						rlbuf_printf(&row, "%s%s", i ? ", " : "", failing_value(failing.names[i], 64));
					detail = psprintf("Failing row contains (%s).", rlbuf_cstr(&row));
					err_schema = failing_schema();
					err_table = pg_name(failing.table);
					err_column = dot + 1;
				}
				break;
			}
		case SQLITE_BUSY_SNAPSHOT:
			sqlstate = ERRCODE_T_R_SERIALIZATION_FAILURE;
			text = pstrdup("could not serialize access due to concurrent update");
			break;
		case SQLITE_CONSTRAINT_CHECK:
			{
				/* "CHECK constraint failed: t_x_check" */
				const char *name = strchr(msg, ':');

				sqlstate = ERRCODE_CHECK_VIOLATION;
				text = psprintf("new row violates check constraint \"%s\"", name ? name + 2 : msg);
				break;
			}
		case SQLITE_BUSY:
		case SQLITE_LOCKED:
			sqlstate = ERRCODE_LOCK_NOT_AVAILABLE;
			text = pstrdup("could not obtain lock on the catalog cache");
			break;
		default:
			switch (rc & 0xff)
			{
				case SQLITE_FULL:
					sqlstate = ERRCODE_DISK_FULL;
					text = pstrdup("could not write to the catalog cache: No space left on device");
					hint = "Check free disk space.";
					break;
				case SQLITE_NOMEM:
					sqlstate = ERRCODE_OUT_OF_MEMORY;
					text = pstrdup("out of memory");
					break;
				case SQLITE_TOOBIG:
					/* a string or bytea longer than SQLite holds, as PostgreSQL's repeat() says */
					sqlstate = ERRCODE_PROGRAM_LIMIT_EXCEEDED;
					text = pstrdup("requested length too large");
					break;
				case SQLITE_ERROR:
					for (size_t i = 0; i < sizeof(sqlite_limits) / sizeof(sqlite_limits[0]) && !text; i++)
						if (strncmp(msg, sqlite_limits[i].prefix, strlen(sqlite_limits[i].prefix)) == 0)
						{
							sqlstate = sqlite_limits[i].sqlstate;
							text = pstrdup(sqlite_limits[i].message ? sqlite_limits[i].message : msg);
							if (sqlite_limits[i].message)
								detail = psprintf("The catalog cache refused the statement: %s.", msg);
						}
					break;
			}
			if (text == NULL)
				text = psprintf("catalog cache: could not %s: %s", what, msg);
			break;
	}
	failing.message = NULL;
	failing.values = NULL;
	failing.ncolumns = 0;
	ereport(ERROR,
			errcode(sqlstate),
			errmsg("%s", text),
			detail ? errdetail("%s", detail) : 0,
			hint ? errhint("%s", hint) : 0,
			err_table ? errtableconstraint(err_schema, err_table, err_column, err_constraint) : 0);
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
static void
exec_quietly(const char *sql)
{
	sqlite3_exec(cache_db, sql, NULL, NULL, NULL);
}

/*
 * cached_statement -- a prepared statement for sql, reset: from the cache, or made
 * now and cached unless every slot is running (a statement inside another's callback)
 */
static sqlite3_stmt *
cached_statement(const char *sql)
{
	sqlite3_stmt *stmt = stmt_cache_get(statements, sql);

	if (stmt == NULL)
		sqlite_error(sqlite3_extended_errcode(cache_db), "prepare a statement");
	return stmt;
}

/* release_statement -- done with a statement: reset it if cached and it worked, else finalize */
static void
release_statement(sqlite3_stmt *stmt, bool failed)
{
	stmt_cache_release(statements, stmt, failed);
}

/* ---------- values ---------- */

/* integer_form -- the types held as Value.u.i, and as INTEGER in SQLite */
static bool
integer_form(Oid type)
{
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case TIDOID:
		case DATEOID:
		case TIMEOID:
		case TIMETZOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return true;
		default:
			return typio_is_oid(type);
	}
}

/*
 * to_sqlite -- a Value in its canonical SQLite form, through one of the two
 * setters (bind or result) the caller passes
 */
typedef struct SqliteSink
{
	sqlite3_stmt *stmt;
	int			index;
	sqlite3_context *ctx;
} SqliteSink;

/* SqliteForm -- a Value's canonical SQLite form: NULL, INTEGER, REAL, TEXT or BLOB */
typedef struct SqliteForm
{
	int			type;			/* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
	int64_t		i;
	double		f;
	const char *bytes;
	size_t		len;
} SqliteForm;

static SqliteForm
sqlite_form(const Value *v)
{
	SqliteForm	f = {.type = SQLITE_TEXT};

	if (v->isnull || v->type == VOIDOID)
		return (SqliteForm) {.type = SQLITE_NULL};
	switch (integer_form(v->type) ? INT8OID : v->type)
	{
		case BOOLOID:
			return (SqliteForm) {.type = SQLITE_INTEGER, .i = v->u.b};
		case INT8OID:
			return (SqliteForm) {.type = SQLITE_INTEGER, .i = v->u.i};
		case FLOAT4OID:
		case FLOAT8OID:
			/* SQLite makes a NaN REAL NULL: it is the text NaN (catalog_cache.h) */
			if (isnan(v->u.f))
				return (SqliteForm) {.type = SQLITE_TEXT, .bytes = "NaN", .len = 3};
			return (SqliteForm) {.type = SQLITE_FLOAT, .f = v->u.f};
		case UUIDOID:
			return (SqliteForm) {.type = SQLITE_BLOB, .bytes = (const char *) v->u.uuid, .len = 16};
		case BYTEAOID:
			return (SqliteForm) {.type = SQLITE_BLOB, .bytes = v->u.s.data, .len = v->u.s.len};
		case INTERVALOID:
			f.bytes = typio_output(v, &f.len);
			return f;
		default:
			f.bytes = v->u.s.data;
			f.len = v->u.s.len;
			return f;
	}
}

static void
to_sqlite(const SqliteSink *sink, const Value *v)
{
	SqliteForm	f = sqlite_form(v);

	switch (f.type)
	{
		case SQLITE_NULL:
			if (sink->ctx)
				sqlite3_result_null(sink->ctx);
			else
				sqlite3_bind_null(sink->stmt, sink->index);
			break;
		case SQLITE_INTEGER:
			if (sink->ctx)
				sqlite3_result_int64(sink->ctx, f.i);
			else
				sqlite3_bind_int64(sink->stmt, sink->index, f.i);
			break;
		case SQLITE_FLOAT:
			if (sink->ctx)
				sqlite3_result_double(sink->ctx, f.f);
			else
				sqlite3_bind_double(sink->stmt, sink->index, f.f);
			break;
		case SQLITE_BLOB:
			if (sink->ctx)
				sqlite3_result_blob64(sink->ctx, f.bytes, f.len, SQLITE_TRANSIENT);
			else
				sqlite3_bind_blob64(sink->stmt, sink->index, f.bytes, f.len, SQLITE_TRANSIENT);
			break;
		default:
			if (sink->ctx)
				sqlite3_result_text64(sink->ctx, f.bytes, f.len, SQLITE_TRANSIENT, SQLITE_UTF8);
			else
				sqlite3_bind_text64(sink->stmt, sink->index, f.bytes, f.len, SQLITE_TRANSIENT, SQLITE_UTF8);
			break;
	}
}

/*
 * CacheSqlLiteral -- append to out a SQLite literal that SQLite reads as the value
 * to_sqlite would bind for v; false (nothing appended) where there is none: a REAL
 * (the text of a double need not read back bit for bit) and INT64_MIN (SQLite reads
 * -9223372036854775808 as a minus applied to a REAL). For statements with more
 * constants than SQLite has variables (analyze.c).
 */
bool
CacheSqlLiteral(RlBuf *out, const Value *v)
{
	static const char hex[] = "0123456789ABCDEF";
	SqliteForm	f = sqlite_form(v);

	switch (f.type)
	{
		case SQLITE_NULL:
			rlbuf_append_str(out, "NULL");
			return true;
		case SQLITE_INTEGER:
			if (f.i == INT64_MIN)
				return false;
			rlbuf_printf(out, "%lld", (long long) f.i);
			return true;
		case SQLITE_FLOAT:
			return false;
		case SQLITE_BLOB:
			rlbuf_append_str(out, "X'");
			for (size_t k = 0; k < f.len; k++)
			{
				rlbuf_append(out, &hex[(unsigned char) f.bytes[k] >> 4], 1);
				rlbuf_append(out, &hex[(unsigned char) f.bytes[k] & 15], 1);
			}
			rlbuf_append_str(out, "'");
			return true;
		default:
			/* a NUL would end SQLite's reading of the literal: bind such a value */
			if (memchr(f.bytes, '\0', f.len) != NULL)
				return false;
			rlbuf_append_str(out, "'");
			for (size_t k = 0; k < f.len; k++)
				rlbuf_append(out, f.bytes[k] == '\'' ? "''" : &f.bytes[k], f.bytes[k] == '\'' ? 2 : 1);
			rlbuf_append_str(out, "'");
			return true;
	}
}

/*
 * from_sqlite -- a SQLite value as a Value of type
 *
 * The canonical form is read directly; anything else (an integer SQLite computed
 * for a numeric, the text of a double that a numeric column of an older store held)
 * goes through its text form. With borrow, a string points
 * into sv itself instead of a copy: valid until the statement steps again.
 */
static Value
from_sqlite(sqlite3_value *sv, Oid type, int32_t typmod, bool borrow)
{
	int			st = sqlite3_value_type(sv);

	if (st == SQLITE_NULL)
		return typio_null(type);
	if (integer_form(type) && st == SQLITE_INTEGER)
		return typio_int(type, sqlite3_value_int64(sv));
	switch (type)
	{
		case BOOLOID:
			if (st == SQLITE_INTEGER)
				return typio_bool(sqlite3_value_int64(sv) != 0);
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (st == SQLITE_INTEGER || st == SQLITE_FLOAT)
				return typio_float(type, sqlite3_value_double(sv));
			break;
		case UUIDOID:
			if (st == SQLITE_BLOB && sqlite3_value_bytes(sv) == 16)
			{
				Value		v = {.type = UUIDOID};

				memcpy(v.u.uuid, sqlite3_value_blob(sv), 16);
				return v;
			}
			break;
		case BYTEAOID:
			if (st == SQLITE_BLOB)
				return typio_string(type, sqlite3_value_blob(sv), (size_t) sqlite3_value_bytes(sv));
			break;
		default:
			break;
	}
	if (st == SQLITE_FLOAT && type == NUMERICOID)
		return typio_input(type, psprintf("%.15g", sqlite3_value_double(sv)), typmod);
	const char *text = (const char *) sqlite3_value_text(sv);
	size_t		len = (size_t) sqlite3_value_bytes(sv);
	const TypeInfo *t = typio_lookup(type);

	if (t != NULL && t->category == TYPCATEGORY_STRING && type != NAMEOID && type != BPCHAROID)
	{
		if (!borrow)
			return typio_string(type, text, len);

		Value		v = {.type = type};

		v.u.s.data = (char *) text; /* SQLite's text ends with a NUL too */
		v.u.s.len = len;
		return v;
	}
	if (st == SQLITE_INTEGER && type == BOOLOID)
		return typio_bool(sqlite3_value_int64(sv) != 0);
	return typio_input(type, text, typmod);
}

/* ---------- rl_eval: PostgreSQL's semantics inside SQLite ---------- */

/* callback_caught -- an ERROR inside a SQLite callback: SQLite's error now, ours after it */
static void
callback_caught(sqlite3_context *ctx, sigjmp_buf *save, MemoryContext context)
{
	PG_exception_stack = save;
	MemoryContextSwitchTo(context);
	callback_failed = true;
	sqlite3_result_error(ctx, CopyErrorData()->message, -1);
}

/*
 * call_catching_errors -- run a SQLite function's body that may raise an ERROR
 * (caught as rl_eval does) and returns its result as text, NULL for NULL
 */
static void
call_catching_errors(sqlite3_context *ctx, char *(*body) (sqlite3_value **argv), sqlite3_value **argv)
{
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		return;
	}
	PG_exception_stack = &local;

	char	   *result = body(argv);

	if (result)
		sqlite3_result_text(ctx, result, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
	PG_exception_stack = save;
}

/* rl_eval's arguments after its tree, each converted when the tree first reads it */
typedef struct EvalLeaves
{
	int			argc;
	sqlite3_value **argv;
	Value	   *values;
	bool	   *converted;
} EvalLeaves;

static Value
eval_leaf(void *arg, int slot, Oid type, int32_t typmod)
{
	EvalLeaves *leaves = arg;

	if (slot < 0 || slot >= leaves->argc)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
						errmsg("rl_eval: no argument for slot %d", slot)));
	if (!leaves->converted[slot])
	{
		leaves->values[slot] = from_sqlite(leaves->argv[slot], type, typmod, false);
		leaves->converted[slot] = true;
	}
	return leaves->values[slot];
}

/*
 * rl_eval(tree, leaves...) evaluates an analysed expression tree whose leaves SQLite
 * computed (exprflatten.h): each becomes a constant of its slot's type, the executor
 * does the rest. An ERROR inside (already reported) is caught here, since longjmp
 * must not cross SQLite, and its recovery resumed once sqlite3_step returns.
 */
static void
rl_eval(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const Expr *tree = sqlite3_value_pointer(argv[0], "rl_expr");
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (tree == NULL)
	{
		sqlite3_result_error(ctx, "rl_eval: bad arguments", -1);
		return;
	}
	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		return;
	}
	PG_exception_stack = &local;

	EvalLeaves	leaves = {.argc = argc - 1, .argv = argv + 1,
	.values = palloc(sizeof(Value) * (size_t) argc), .converted = palloc0((size_t) argc)};
	Value		v = ExecEvalExpr(NULL, ExprFillSlots(tree, eval_leaf, &leaves));
	SqliteSink	sink = {.ctx = ctx};

	to_sqlite(&sink, &v);
	PG_exception_stack = save;
}

/* rl_scalar(x): a scalar subquery's value; PostgreSQL's 21000 for a second row */
typedef struct ScalarState
{
	int64_t		rows;
	sqlite3_value *value;
} ScalarState;

static void
rl_scalar_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	ScalarState *st = sqlite3_aggregate_context(ctx, sizeof(ScalarState));

	if (st != NULL && st->rows++ == 0)
		st->value = sqlite3_value_dup(argv[0]);
}

/*
 * final_error -- an aggregate's final call fails with ERROR (sqlstate, message), caught
 * as rl_eval catches one; when an earlier call of the statement failed, that error
 * stands (SQLite calls every aggregate's final before it looks)
 */
static void
final_error(sqlite3_context *ctx, const char *sqlstate, const char *message)
{
	sigjmp_buf *save = PG_exception_stack;
	sigjmp_buf	local;

	if (callback_failed)
		sqlite3_result_error(ctx, "an earlier error", -1);
	else if (sigsetjmp(local, 0) != 0)
		callback_caught(ctx, save, CurrentMemoryContext);
	else
	{
		PG_exception_stack = &local;
		ereport(ERROR, errcode(sqlstate), errmsg("%s", message));
	}
}

static void
rl_scalar_final(sqlite3_context *ctx)
{
	ScalarState *st = sqlite3_aggregate_context(ctx, 0);

	if (callback_failed || (st != NULL && st->rows > 1))
		final_error(ctx, ERRCODE_CARDINALITY_VIOLATION,
					"more than one row returned by a subquery used as an expression");
	else if (st == NULL || st->rows == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_value(ctx, st->value);
	if (st != NULL)
		sqlite3_value_free(st->value);
}

/*
 * rl_float_sum(x), rl_float4_sum(x), rl_float_avg(x): sum() and avg() of floats with
 * PostgreSQL's arithmetic. SQLite's would read a NaN (the text NaN) as 0 and make
 * Infinity - Infinity NULL. A float4 sum adds in float4, as PostgreSQL's float4pl
 * does; a sum that overflows where no input was infinite is 22003.
 */
typedef struct FloatAggState
{
	double		sum;
	int64_t		n;
	bool		overflow;
} FloatAggState;

/* float_add -- a value into a float sum; float4: float4 arithmetic */
static void
float_add(FloatAggState *st, sqlite3_value *value, bool float4)
{
	int			type = sqlite3_value_type(value);

	if (type == SQLITE_NULL)
		return;

	double		x = type == SQLITE_TEXT ? NAN : sqlite3_value_double(value);
	double		sum = float4 ? (double) ((float) st->sum + (float) x) : st->sum + x;

	st->overflow |= isinf(sum) && !isinf(st->sum) && !isinf(x);
	st->sum = sum;
	st->n++;
}

static void
rl_float_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	FloatAggState *st = sqlite3_aggregate_context(ctx, sizeof(FloatAggState));

	if (st != NULL)
		float_add(st, argv[0], sqlite3_user_data(ctx) != NULL);
}

/* float_result -- the sum or average of st as ctx's result */
static void
float_result(sqlite3_context *ctx, const FloatAggState *st, bool avg)
{
	if (callback_failed || (st != NULL && st->overflow))
		final_error(ctx, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
	else if (st == NULL || st->n == 0)
		sqlite3_result_null(ctx);
	else
	{
		Value		v = typio_float(FLOAT8OID, avg ? st->sum / (double) st->n : st->sum);

		to_sqlite(&(SqliteSink) {.ctx = ctx}, &v);
	}
}

static void
float_final(sqlite3_context *ctx, bool avg)
{
	float_result(ctx, sqlite3_aggregate_context(ctx, 0), avg);
}

static void
rl_float_sum_final(sqlite3_context *ctx)
{
	float_final(ctx, false);
}

static void
rl_float_avg_final(sqlite3_context *ctx)
{
	float_final(ctx, true);
}

/*
 * rl_numeric_sum(x), rl_numeric_avg(x): sum() and avg() of numerics, exact (numeric.c),
 * as PostgreSQL's: the sum has the largest scale of the values, NaN and the
 * infinities as its addition has them, and avg() is that sum divided by the count
 * with numeric division's scale. SQLite's would add doubles. The running sum is
 * kept as malloc'd text between calls, each step computing in a context of its own
 * that it resets, so a long column costs the sum's size only.
 */
typedef struct NumericAggState
{
	char	   *sum;			/* malloc'd canonical text; NULL before the first value */
	int64_t		n;
} NumericAggState;

static MemoryContext numeric_agg_context;

/* numeric_agg_run -- a step adding x, or (x NULL) the final call, its ERROR caught */
static void
numeric_agg_run(sqlite3_context *ctx, NumericAggState *st, sqlite3_value *x, bool avg)
{
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (numeric_agg_context == NULL)
		numeric_agg_context = AllocSetContextCreate(TopMemoryContext, "numeric aggregates");
	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		MemoryContextReset(numeric_agg_context);
		return;
	}
	PG_exception_stack = &local;
	MemoryContextSwitchTo(numeric_agg_context);

	Value		sum = {.type = NUMERICOID};

	sum.u.s.data = st->sum;
	sum.u.s.len = st->sum ? strlen(st->sum) : 0;
	if (x != NULL)
	{
		Value		v = from_sqlite(x, NUMERICOID, -1, false);
		Value		r = st->sum ? numeric_add(&sum, &v) : v;
		char	   *copy = strdup(r.u.s.data);

		if (copy == NULL)
			ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		free(st->sum);
		st->sum = copy;
		st->n++;
	}
	else
	{
		char	   *n = psprintf("%lld", (long long) st->n);
		Value		count = typio_string(NUMERICOID, n, strlen(n));
		Value		r = avg ? numeric_div(&sum, &count) : sum;

		to_sqlite(&(SqliteSink) {.ctx = ctx}, &r);
	}
	MemoryContextSwitchTo(context);
	MemoryContextReset(numeric_agg_context);
	PG_exception_stack = save;
}

static void
rl_numeric_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	NumericAggState *st = sqlite3_aggregate_context(ctx, sizeof(NumericAggState));

	if (st != NULL && sqlite3_value_type(argv[0]) != SQLITE_NULL && !callback_failed)
		numeric_agg_run(ctx, st, argv[0], false);
}

static void
numeric_final(sqlite3_context *ctx, bool avg)
{
	NumericAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (callback_failed)
		final_error(ctx, ERRCODE_INTERNAL_ERROR, "an earlier error");
	else if (st == NULL || st->n == 0)
		sqlite3_result_null(ctx);
	else
		numeric_agg_run(ctx, st, NULL, avg);
	if (st != NULL)
		free(st->sum);
}

static void
rl_numeric_sum_final(sqlite3_context *ctx)
{
	numeric_final(ctx, false);
}

static void
rl_numeric_avg_final(sqlite3_context *ctx)
{
	numeric_final(ctx, true);
}

/*
 * rl_window_agg: the window form of the cache's own sum() and avg() (floats, numerics),
 * which SQLite can use over a window only with a step that takes a row out (xInverse)
 * and one that gives the value so far (xValue). It keeps the values of the frame, in
 * order, and computes each row's result from them as the plain aggregate would (as
 * PostgreSQL's float aggregates do, which have no inverse: a frame's rows are added in
 * order), so a frame of n rows costs n additions per row.
 */
typedef enum WindowAggKind
{
	WINDOW_FLOAT_SUM,
	WINDOW_FLOAT4_SUM,
	WINDOW_FLOAT_AVG,
	WINDOW_NUMERIC_SUM,
	WINDOW_NUMERIC_AVG
} WindowAggKind;

typedef struct WindowAggState
{
	sqlite3_value **values;		/* malloc'd; [head, n) are the frame's */
	int			head;
	int			n;
	int			cap;
} WindowAggState;

static void
rl_window_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));

	if (st == NULL)
		return;
	if (st->n == st->cap)
	{
		int			cap = st->cap ? st->cap * 2 : 16;
		sqlite3_value **values = realloc(st->values, sizeof(sqlite3_value *) * (size_t) cap);

		if (values == NULL)
		{
			sqlite3_result_error_nomem(ctx);
			return;
		}
		st->values = values;
		st->cap = cap;
	}
	st->values[st->n++] = sqlite3_value_dup(argv[0]);
}

static void
rl_window_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));

	if (st != NULL && st->head < st->n)
	{
		sqlite3_value_free(st->values[st->head]);
		st->values[st->head++] = NULL;
	}
}

static void
rl_window_agg_value(sqlite3_context *ctx)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, sizeof(WindowAggState));
	WindowAggKind kind = (WindowAggKind) (intptr_t) sqlite3_user_data(ctx);

	if (st == NULL)
		return;
	if (kind == WINDOW_NUMERIC_SUM || kind == WINDOW_NUMERIC_AVG)
	{
		NumericAggState sum = {0};

		for (int i = st->head; i < st->n && !callback_failed; i++)
			if (st->values[i] && sqlite3_value_type(st->values[i]) != SQLITE_NULL)
				numeric_agg_run(ctx, &sum, st->values[i], false);
		if (callback_failed)
			final_error(ctx, ERRCODE_INTERNAL_ERROR, "an earlier error");
		else if (sum.n == 0)
			sqlite3_result_null(ctx);
		else
			numeric_agg_run(ctx, &sum, NULL, kind == WINDOW_NUMERIC_AVG);
		free(sum.sum);
		return;
	}

	FloatAggState sum = {0};

	for (int i = st->head; i < st->n; i++)
		if (st->values[i])
			float_add(&sum, st->values[i], kind == WINDOW_FLOAT4_SUM);
	float_result(ctx, &sum, kind == WINDOW_FLOAT_AVG);
}

static void
rl_window_agg_final(sqlite3_context *ctx)
{
	WindowAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	rl_window_agg_value(ctx);
	for (int i = st->head; i < st->n; i++)
		sqlite3_value_free(st->values[i]);
	free(st->values);
}

/* ---------- arrays inside SQLite ---------- */

/*
 * Aggregates that keep their rows and sort them: SQLite 3.40 has no ORDER BY inside
 * aggregates, so each row brings its sort keys, each followed by its flags
 * (AGG_ORDER_DESC, AGG_ORDER_NULLS_FIRST: the analyser spells PostgreSQL's defaults,
 * NULLs last ascending and first descending), and the final function sorts, equal keys
 * keeping the rows' arrival order.
 *
 * rl_array_agg(element, array_type [, key, flags]...): ARRAY(subquery) and array_agg(x
 * [ORDER BY ...]), the array of the rows' elements (each read as the element type from
 * its canonical SQLite form and kept in its text form); the empty array when there are
 * none (array_agg's NULL is the analyser's).
 * rl_string_agg(value, delimiter [, key, flags]...): string_agg(x, d ORDER BY ...), the
 * non-NULL values, each after the delimiter its row brought but the first; NULL if none.
 * Their _distinct variants are DISTINCT's: the value is the first key, and one of the
 * rows of equal values (by their text) stays.
 */
typedef struct OrderedAggItem
{
	char	   *text;			/* malloc'd; NULL for a NULL element */
	char	   *delimiter;		/* string_agg's, malloc'd, or NULL */
	sqlite3_value **keys;		/* sqlite3_value_dup'd, nkeys of them */
	int			seq;			/* arrival: equal keys keep it */
} OrderedAggItem;

typedef struct OrderedAggState
{
	Oid			type;			/* array_agg's array type */
	int			head;			/* over a window: the items before it left the frame */
	int			n;
	int			nkeys;
	int		   *flags;			/* malloc'd, one per key */
	OrderedAggItem *items;		/* malloc'd: lives across SQLite calls */
} OrderedAggState;

/* ordered_agg_add -- a row's item (text malloc'd by the caller) with its keys, from argv[2] on */
static bool
ordered_agg_add(OrderedAggState *st, char *text, char *delimiter, int argc, sqlite3_value **argv)
{
	OrderedAggItem *items = realloc(st->items, sizeof(OrderedAggItem) * (size_t) (st->n + 1));
	int			nkeys = (argc - 2) / 2;

	if (items == NULL)
		return false;
	st->items = items;
	if (st->flags == NULL && nkeys > 0)
	{
		if ((st->flags = malloc(sizeof(int) * (size_t) nkeys)) == NULL)
			return false;
		st->nkeys = nkeys;
		for (int k = 0; k < nkeys; k++)
			st->flags[k] = sqlite3_value_int(argv[3 + 2 * k]);
	}
	items[st->n] = (OrderedAggItem) {text, delimiter, NULL, st->n};
	if (nkeys > 0 && (items[st->n].keys = calloc((size_t) nkeys, sizeof(sqlite3_value *))) == NULL)
		return false;
	for (int k = 0; k < nkeys; k++)
		items[st->n].keys[k] = sqlite3_value_dup(argv[2 + 2 * k]);
	st->n++;
	return true;
}

/* compare_key_values -- SQLite's order of two non-NULL sort keys */
static int
compare_key_values(sqlite3_value *x, sqlite3_value *y)
{
	int			tx = sqlite3_value_type(x),
				ty = sqlite3_value_type(y);

	if ((tx == SQLITE_INTEGER || tx == SQLITE_FLOAT) && (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT))
	{
		if (tx == SQLITE_INTEGER && ty == SQLITE_INTEGER)
			return (sqlite3_value_int64(x) > sqlite3_value_int64(y)) - (sqlite3_value_int64(x) < sqlite3_value_int64(y));
		return (sqlite3_value_double(x) > sqlite3_value_double(y)) - (sqlite3_value_double(x) < sqlite3_value_double(y));
	}
	if (tx != ty)
		return tx - ty;
	return strcmp((const char *) sqlite3_value_text(x), (const char *) sqlite3_value_text(y));
}

/* the state whose items qsort is sorting (a backend sorts one at a time) */
static const OrderedAggState *sorting;

static int
compare_items(const void *a, const void *b)
{
	const OrderedAggState *st = sorting;
	const OrderedAggItem *x = a,
			   *y = b;

	for (int k = 0; k < st->nkeys; k++)
	{
		bool		xnull = x->keys[k] == NULL || sqlite3_value_type(x->keys[k]) == SQLITE_NULL,
					ynull = y->keys[k] == NULL || sqlite3_value_type(y->keys[k]) == SQLITE_NULL;
		int			c;

		if (xnull || ynull)
			c = (xnull - ynull) * (st->flags[k] & AGG_ORDER_NULLS_FIRST ? -1 : 1);
		else
			c = compare_key_values(x->keys[k], y->keys[k]) * (st->flags[k] & AGG_ORDER_DESC ? -1 : 1);
		if (c != 0)
			return c;
	}
	return x->seq - y->seq;
}

/*
 * ordered_agg_sort -- the items in the keys' order; for the _distinct variants (DISTINCT:
 * the value is the first key) one item of equal values, the others freed
 */
static void
ordered_agg_sort(sqlite3_context *ctx, OrderedAggState *st)
{
	int			kept = 0;

	if (st->nkeys > 0)
	{
		sorting = st;
		qsort(st->items, (size_t) st->n, sizeof(OrderedAggItem), compare_items);
	}
	if (sqlite3_user_data(ctx) == NULL)
		return;
	for (int i = 0; i < st->n; i++)
	{
		OrderedAggItem *prev = kept ? &st->items[kept - 1] : NULL;

		if (prev && (prev->text == NULL ? st->items[i].text == NULL
					 : st->items[i].text && strcmp(prev->text, st->items[i].text) == 0))
		{
			free(st->items[i].text);
			free(st->items[i].delimiter);
			for (int k = 0; k < st->nkeys; k++)
				sqlite3_value_free(st->items[i].keys[k]);
			free(st->items[i].keys);
		}
		else
			st->items[kept++] = st->items[i];
	}
	st->n = kept;
}

static void
ordered_agg_free(OrderedAggState *st)
{
	for (int i = 0; i < st->n; i++)
	{
		free(st->items[i].text);
		free(st->items[i].delimiter);
		for (int k = 0; k < st->nkeys && st->items[i].keys; k++)
			sqlite3_value_free(st->items[i].keys[k]);
		free(st->items[i].keys);
	}
	free(st->items);
	free(st->flags);
}

static void
rl_array_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;
	char	   *text = NULL;

	if (st == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->type = (Oid) sqlite3_value_int64(argv[1]);
	if (sqlite3_value_type(argv[0]) != SQLITE_NULL && typio_lookup(st->type) != NULL)
	{
		if (sigsetjmp(local, 0) != 0)
		{
			callback_caught(ctx, save, context);
			return;
		}
		PG_exception_stack = &local;

		Value		v = from_sqlite(argv[0], typio_lookup(st->type)->elem, -1, true);

		text = strdup(typio_output(&v, NULL));
		PG_exception_stack = save;
	}
	if (!ordered_agg_add(st, text, NULL, argc, argv))
		sqlite3_result_error_nomem(ctx);
}

/* array_agg_result -- the array of the items in the frame */
static void
array_agg_result(sqlite3_context *ctx, OrderedAggState *st)
{
	ArrayElements elems = {st->n - st->head, palloc(sizeof(char *) * (size_t) (st->n - st->head + 1))};

	for (int i = st->head; i < st->n; i++)
		elems.items[i - st->head] = st->items[i].text;

	Value		v = typio_array_build(st->type, &elems);

	sqlite3_result_text64(ctx, v.u.s.data, v.u.s.len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void
rl_array_agg_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_text(ctx, "{}", 2, SQLITE_STATIC);
		return;
	}
	ordered_agg_sort(ctx, st);
	array_agg_result(ctx, st);
	ordered_agg_free(st);
}

static void
rl_string_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));
	const char *value = (const char *) sqlite3_value_text(argv[0]);
	const char *delimiter = (const char *) sqlite3_value_text(argv[1]);
	char	   *text = NULL,
			   *delim = NULL;

	if (st == NULL)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	/* a NULL is kept as an item (a window takes rows out one by one), and skipped */
	if ((value && (text = strdup(value)) == NULL) || (delimiter && (delim = strdup(delimiter)) == NULL) ||
		!ordered_agg_add(st, text, delim, argc, argv))
		sqlite3_result_error_nomem(ctx);
}

/* string_agg_result -- the values of the items in the frame, NULLs skipped */
static void
string_agg_result(sqlite3_context *ctx, OrderedAggState *st)
{
	RlBuf		out;
	bool		any = false;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int i = st->head; i < st->n; i++)
	{
		if (st->items[i].text == NULL)
			continue;
		if (any && st->items[i].delimiter)
			rlbuf_append_str(&out, st->items[i].delimiter);
		rlbuf_append_str(&out, st->items[i].text);
		any = true;
	}
	if (any)
		sqlite3_result_text64(ctx, (const char *) out.data, out.len, SQLITE_TRANSIENT, SQLITE_UTF8);
	else
		sqlite3_result_null(ctx);
	rlbuf_free(&out);
}

static void
rl_string_agg_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL)
	{
		sqlite3_result_null(ctx);
		return;
	}
	ordered_agg_sort(ctx, st);
	string_agg_result(ctx, st);
	ordered_agg_free(st);
}

/*
 * Over a window (no ORDER BY nor DISTINCT inside: PostgreSQL has none there), SQLite
 * takes the oldest row out (xInverse) and asks for the frame's value (xValue).
 */
static void
rl_ordered_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st == NULL || st->head >= st->n)
		return;
	free(st->items[st->head].text);
	free(st->items[st->head].delimiter);
	st->items[st->head].text = st->items[st->head].delimiter = NULL;
	st->head++;
}

/* over a window an empty frame's array_agg is NULL (ARRAY(subquery)'s '{}' is the plain form's) */
static void
rl_array_agg_value(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st == NULL || st->head >= st->n)
		sqlite3_result_null(ctx);
	else
		array_agg_result(ctx, st);
}

static void
rl_array_agg_window_final(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, 0);

	rl_array_agg_value(ctx);
	if (st != NULL)
		ordered_agg_free(st);
}

static void
rl_string_agg_value(sqlite3_context *ctx)
{
	OrderedAggState *st = sqlite3_aggregate_context(ctx, sizeof(OrderedAggState));

	if (st != NULL)
		string_agg_result(ctx, st);
}

/*
 * rl_array_json(array_text, element_type): the elements as a JSON array of their
 * canonical SQLite forms (numbers for the integer-held types and booleans, text
 * otherwise), for json_each() to iterate a set-returning function's result
 */
static char *
array_json(sqlite3_value **argv)
{
	const char *text = (const char *) sqlite3_value_text(argv[0]);
	Oid			elem = (Oid) sqlite3_value_int64(argv[1]);
	ArrayElements elems = typio_array_parse(text ? text : "{}");
	json_t	   *json = json_array();

	for (int i = 0; i < elems.n; i++)
	{
		Value		v = elems.items[i] ? typio_input(elem, elems.items[i], -1) : typio_null(elem);

		json_array_append_new(json, v.isnull ? json_null()
							  : integer_form(elem) ? json_integer(v.u.i)
							  : elem == BOOLOID ? json_integer(v.u.b)
							  : elem == FLOAT4OID || elem == FLOAT8OID ? json_real(v.u.f)
							  : json_string(elems.items[i]));
	}
	char	   *dump = json_dumps(json, JSON_COMPACT);
	char	   *result = pstrdup(dump);

	free(dump);
	json_decref(json);
	return result;
}

static void
rl_array_json(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	call_catching_errors(ctx, array_json, argv);
}

/* ---------- the connection ---------- */

/* decl_type -- the type a column's declared type names ("varchar(10)", "numeric_text(12,2)",
 * "jsonb_text", "float8_blob") */
static Oid
decl_type(const char *decl, int32_t *typmod)
{
	const char *paren = strchr(decl, '(');
	char	   *base = paren ? pnstrdup(decl, (size_t) (paren - decl)) : pstrdup(decl);
	size_t		blen = strlen(base);

	/* jsonb_text, float8_blob (catalog_cache.h): jsonb, float8 */
	for (int i = 0; i < 2; i++)
	{
		const char *suffix = i ? CACHE_BLOB_SUFFIX : CACHE_TEXT_SUFFIX;
		size_t		slen = strlen(suffix);

		if (blen > slen && strcmp(base + blen - slen, suffix) == 0)
			base[blen - slen] = '\0';
	}
	Oid			type = strcmp(base, NUMERIC_CACHE_TYPE) == 0 ? NUMERICOID : typio_type_by_name(base);
	int			mods[2] = {0, 0};

	*typmod = -1;
	if (type == InvalidOid)
		return TEXTOID;
	Oid			elem = typio_lookup(type) ? typio_lookup(type)->elem : InvalidOid;

	/* an array's typmod is its elements': _numeric(38,6), _bpchar(5) */
	if (paren && sscanf(paren, "(%d,%d)", &mods[0], &mods[1]) >= 1)
		*typmod = (type == NUMERICOID || elem == NUMERICOID) ? ((mods[0] << 16) | mods[1]) + 4 : mods[0] + 4;
	return type;
}

/* rl_type_oid(decl), rl_type_typmod(decl) -- decl_type for pg_attribute (syscat.c) */
static void
rl_type_oid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int32_t		typmod;

	sqlite3_result_int64(ctx, decl_type((const char *) sqlite3_value_text(argv[0]), &typmod));
}

static void
rl_type_typmod(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int32_t		typmod;

	decl_type((const char *) sqlite3_value_text(argv[0]), &typmod);
	sqlite3_result_int(ctx, typmod);
}

/*
 * rl_row_after(largest) -- the row id an updated row moves to: PostgreSQL writes an
 * updated row as a new version after the others, so a later scan meets it last, and
 * its ctid changes. An UPDATE sets each row's row id to this, with largest the
 * table's largest row id when the statement began (a subquery SQLite evaluates once):
 * the first row of the statement gets largest + 1, the next largest + 2, and so on.
 * Ids are never given twice in a statement, and only above the table's rows; a gap
 * (the same largest again after rows were deleted) changes no order.
 */
static void
rl_row_after(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static int64_t largest = INT64_MIN;
	static int64_t last;
	int64_t		now = sqlite3_value_type(argv[0]) == SQLITE_NULL ? 0 : sqlite3_value_int64(argv[0]);

	if (now != largest)
		largest = last = now;
	if (last == INT64_MAX)
	{
		sqlite3_result_error(ctx, "row ids exhausted", -1);
		return;
	}
	sqlite3_result_int64(ctx, ++last);
}

/* rl_pg_name(name) -- a name of the cache as PostgreSQL's (catalog_cache.h, "Names") */
static void
rl_pg_name(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);
	size_t		len = (size_t) sqlite3_value_bytes(argv[0]);

	if (name == NULL || cache_name_len(name) == len)
		sqlite3_result_value(ctx, argv[0]);
	else
		sqlite3_result_text(ctx, cache_pg_name(sqlite3_malloc64(len + 1), name), -1, sqlite3_free);
}

/* rl_nspid(name) -- the rl_namespace id of a table's schema by its cache name, 0 for public */
static void
rl_nspid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	sqlite3_result_int64(ctx, name ? cache_name_namespace(name) : 0);
}

/* rl_search_rank(nspname) -- the schema's place in search_path (SearchPathRank) */
static void
rl_search_rank(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	sqlite3_result_int(ctx, name ? SearchPathRank(name) : -1);
}

/* rl_quote_ident(name) -- PostgreSQL's quote_ident (without its keyword list) for pg_catalog's texts */
static void
rl_quote_ident(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	if (name == NULL)
		sqlite3_result_null(ctx);
	else if (IdentifierIsSafe(name))
		sqlite3_result_value(ctx, argv[0]);
	else
		sqlite3_result_text(ctx, sqlite3_mprintf("\"%w\"", name), -1, sqlite3_free);
}

/*
 * default_value -- a column default as the cache declares it (analyze.c's
 * sqlite_literal: a number, 'text', or X'hex') in its PostgreSQL text form
 */
static char *
default_value(const char *literal, Oid type)
{
	size_t		len = strlen(literal);

	if (literal[0] == '\'')
	{
		RlBuf		b;

		rlbuf_init_in(&b, CurrentMemoryContext);
		for (size_t i = 1; i + 1 < len; i++)
			if (literal[i] != '\'' || literal[++i] == '\'')
				rlbuf_append(&b, &literal[i], 1);
		return pstrdup(rlbuf_cstr(&b));
	}
	if ((literal[0] == 'X' || literal[0] == 'x') && literal[1] == '\'')
	{
		Value		v = typio_input(BYTEAOID, psprintf("\\x%.*s", (int) len - 3, literal + 2), -1);

		if (type == UUIDOID && v.u.s.len == 16)
		{
			Value		u = {.type = UUIDOID};

			memcpy(u.u.uuid, v.u.s.data, 16);
			return typio_output(&u, NULL);
		}
		return typio_output(&v, NULL);
	}
	if (type == BOOLOID)
		return pstrdup(strcmp(literal, "0") == 0 ? "false" : "true");
	if (integer_form(type) && type != INT2OID && type != INT4OID && type != INT8OID)
	{
		Value		v = typio_int(type, strtoll(literal, NULL, 10));

		return typio_output(&v, NULL);
	}
	if (type == FLOAT4OID || type == FLOAT8OID)
	{
		Value		v = typio_float(type, strtod(literal, NULL));

		return typio_output(&v, NULL);
	}
	return pstrdup(literal);
}

/*
 * rl_default_expr(literal, declared_type) -- pg_attrdef.adbin: the default as
 * pg_get_expr shows it, a number bare when it is not negative and a literal
 * with its type otherwise ('x'::text, '-1'::integer, true)
 */
static char *
default_expr(sqlite3_value **argv)
{
	const char *literal = (const char *) sqlite3_value_text(argv[0]);
	int32_t		typmod;

	if (literal == NULL || strcmp(literal, "NULL") == 0)
		return NULL;
	Oid			type = decl_type((const char *) sqlite3_value_text(argv[1]), &typmod);
	char	   *text = default_value(literal, type);
	const TypeInfo *t = typio_lookup(type);

	for (size_t n = strlen(text); type == BPCHAROID && n > 0 && text[n - 1] == ' '; n--)
		text[n - 1] = '\0';	/* the literal before it was padded to the column's length */

	if (type == BOOLOID ||
		(t->category == TYPCATEGORY_NUMERIC && text[0] != '-' &&
		 !(type == INT8OID && strtoll(text, NULL, 10) > INT32_MAX)))
		return text;
	char	   *quoted = sqlite3_mprintf("%Q", text);
	char	   *expr = psprintf("%s::%s", quoted, type == BPCHAROID ? "bpchar"
								: t->category == TYPCATEGORY_NUMERIC && type != INT8OID && type != NUMERICOID
								? "integer" : typio_format_type(type));

	sqlite3_free(quoted);
	return expr;
}

static void
rl_default_expr(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	call_catching_errors(ctx, default_expr, argv);
}

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
	KeptScanForgetAll();
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
	sqlite3_create_function(cache_db, "rl_eval", -1, SQLITE_UTF8, NULL, rl_eval, NULL, NULL);
	sqlite3_create_function(cache_db, "rl_scalar", 1, SQLITE_UTF8, NULL, NULL, rl_scalar_step, rl_scalar_final);
	sqlite3_create_function(cache_db, "rl_float_sum", 1, SQLITE_UTF8, NULL, NULL, rl_float_step,
							rl_float_sum_final);
	sqlite3_create_function(cache_db, "rl_float4_sum", 1, SQLITE_UTF8, (void *) 1, NULL, rl_float_step,
							rl_float_sum_final);
	sqlite3_create_function(cache_db, "rl_float_avg", 1, SQLITE_UTF8, NULL, NULL, rl_float_step,
							rl_float_avg_final);
	{
		static const char *const names[] = {"rl_float_sum_window", "rl_float4_sum_window", "rl_float_avg_window",
		"rl_numeric_sum_window", "rl_numeric_avg_window"};

		for (int i = 0; i < (int) (sizeof(names) / sizeof(names[0])); i++)
			sqlite3_create_window_function(cache_db, names[i], 1, SQLITE_UTF8, (void *) (intptr_t) i,
										   rl_window_agg_step, rl_window_agg_final, rl_window_agg_value,
										   rl_window_agg_inverse, NULL);
	}
	sqlite3_create_function(cache_db, "rl_numeric_sum", 1, SQLITE_UTF8, NULL, NULL, rl_numeric_step,
							rl_numeric_sum_final);
	sqlite3_create_function(cache_db, "rl_numeric_avg", 1, SQLITE_UTF8, NULL, NULL, rl_numeric_step,
							rl_numeric_avg_final);
	sqlite3_create_function(cache_db, "rl_array_agg", -1, SQLITE_UTF8, NULL, NULL, rl_array_agg_step,
							rl_array_agg_final);
	sqlite3_create_function(cache_db, "rl_probe_row", -1, SQLITE_UTF8, NULL, rl_probe_row, NULL, NULL);
	sqlite3_create_function(cache_db, "rl_string_agg", -1, SQLITE_UTF8, NULL, NULL, rl_string_agg_step,
							rl_string_agg_final);
	sqlite3_create_window_function(cache_db, "rl_array_agg_window", -1, SQLITE_UTF8, NULL, rl_array_agg_step,
								   rl_array_agg_window_final, rl_array_agg_value, rl_ordered_agg_inverse, NULL);
	sqlite3_create_window_function(cache_db, "rl_string_agg_window", -1, SQLITE_UTF8, NULL, rl_string_agg_step,
								   rl_string_agg_final, rl_string_agg_value, rl_ordered_agg_inverse, NULL);
	sqlite3_create_function(cache_db, "rl_array_agg_distinct", -1, SQLITE_UTF8, (void *) 1, NULL,
							rl_array_agg_step, rl_array_agg_final);
	sqlite3_create_function(cache_db, "rl_string_agg_distinct", -1, SQLITE_UTF8, (void *) 1, NULL,
							rl_string_agg_step, rl_string_agg_final);
	sqlite3_create_function(cache_db, "rl_row_after", 1, SQLITE_UTF8, NULL, rl_row_after, NULL, NULL);
	sqlite3_create_function(cache_db, "rl_pg_name", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_pg_name,
							NULL, NULL);
	sqlite3_create_function(cache_db, "rl_nspid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_nspid, NULL, NULL);
	sqlite3_create_function(cache_db, "rl_search_rank", 1, SQLITE_UTF8, NULL, rl_search_rank, NULL, NULL);
	sqlite3_create_function(cache_db, "rl_quote_ident", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_quote_ident,
							NULL, NULL);
	sqlite3_create_function(cache_db, "rl_default_expr", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
							rl_default_expr, NULL, NULL);
	typio_reg_hooks.output = SystemRegOutput;
	typio_reg_hooks.input = SystemRegInput;
	sqlite3_create_function(cache_db, "rl_array_json", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_array_json,
							NULL, NULL);
	sqlite3_create_function(cache_db, "rl_type_oid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_type_oid,
							NULL, NULL);
	sqlite3_create_function(cache_db, "rl_type_typmod", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
							rl_type_typmod, NULL, NULL);
	rlbuf_free(&changeset);	/* lives across messages: malloc, not a context */
	if (stat(path, &cache_file) == 0)
		cache_path = strdup(path);
	else
		close_cache();			/* gone already: the session finds out as it would have */
}

/* CACHE_WARM_FILE's kinds of text */
#define WARM_STATEMENT	'S'			/* an SQLite statement to compile */
#define WARM_QUERY		'Q'			/* a client's query to parse */

/*
 * warm_worthy -- whether a kept statement is for the next session: one that reads
 * or changes rows (SQLite runs some pragmas as it compiles them, and DDL is not run
 * twice anyway)
 */
static bool
warm_worthy(const char *sql)
{
	static const char *const kinds[] = {"SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(sql, kinds[i], strlen(kinds[i])) == 0)
			return true;
	return false;
}

static void
write_warm_text(const char *sql, void *arg)
{
	if (warm_worthy(sql))
		fprintf((FILE *) arg, "%c%zu\n%s\n", WARM_STATEMENT, strlen(sql), sql);
}

/* write_warm_query -- a query text the session kept the parse tree of, for the next session */
static void
write_warm_query(const char *text, void *arg)
{
	fprintf((FILE *) arg, "%c%zu\n%s\n", WARM_QUERY, strlen(text), text);
}

void
CacheRememberStatements(void)
{
	char		path[4096],
				tmp[4200];
	FILE	   *f;

	if (cache_db == NULL || statements == NULL || compiled_by_session() < WARM_MIN_STATEMENTS)
		return;
	snprintf(path, sizeof(path), "%s/%s", DataDir, CACHE_WARM_FILE);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int) getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return;
	fprintf(f, "%u\n", MyDatabaseId);
	stmt_cache_foreach_text(statements, write_warm_text, f);
	ParseCacheForeachText(write_warm_query, f);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}

/*
 * leave_hint_early -- CacheRememberStatements once this session compiled enough, if
 * the hint is for another database (one for this database stays till the session ends)
 */
static void
leave_hint_early(void)
{
	char		path[4096];
	FILE	   *f;
	unsigned int datid = 0;

	if (hint_left || compiled_by_session() < WARM_EARLY_STATEMENTS)
		return;
	hint_left = true;
	snprintf(path, sizeof(path), "%s/%s", DataDir, CACHE_WARM_FILE);
	if ((f = fopen(path, "r")) != NULL)
	{
		if (fscanf(f, "%u", &datid) != 1)
			datid = 0;
		fclose(f);
	}
	if (datid != MyDatabaseId)
		CacheRememberStatements();
}

void
CacheWarm(const char *data_directory)
{
	char		path[4096];
	FILE	   *f;
	unsigned int datid;
	size_t		len;
	char	   *sql;
	char		kind;
	static struct stat warmed_from;	/* the file as it was when last read */
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", data_directory, CACHE_WARM_FILE);
	if (stat(path, &st) != 0 || (st.st_ino == warmed_from.st_ino && st.st_mtim.tv_sec == warmed_from.st_mtim.tv_sec &&
								 st.st_mtim.tv_nsec == warmed_from.st_mtim.tv_nsec))
		return;
	warmed_from = st;
	if ((f = fopen(path, "r")) == NULL)
		return;
	if (fscanf(f, "%u\n", &datid) == 1)
	{
		catalog_cache_path(path, sizeof(path), data_directory, datid);
		if (stat(path, &st) == 0)	/* a dropped database's hint is ignored */
			CacheOpen(path);
	}
	/* each text: its kind, its length and a newline, the text, a newline */
	while (fscanf(f, "%c%zu", &kind, &len) == 2 && fgetc(f) == '\n' && len < 1024 * 1024 &&
		   (sql = malloc(len + 1)) != NULL)
	{
		bool		whole = fread(sql, 1, len, f) == len && fgetc(f) == '\n';
		sqlite3_stmt *stmt;

		sql[len] = '\0';
		if (whole && kind == WARM_STATEMENT && cache_db != NULL && (stmt = stmt_cache_get(statements, sql)) != NULL)
			stmt_cache_release(statements, stmt, false);
		else if (whole && kind == WARM_QUERY)
			ParseCacheWarm(sql);
		free(sql);
		if (!whole)
			break;
	}
	fclose(f);
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

	/* the primary key: the UNIQUE index whose first column is DESC (analyze.c's add_key) */
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
	leave_hint_early();
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

/* bound_statement -- s prepared with its values bound: CacheExecute's and a cursor's */
static sqlite3_stmt *
bound_statement(const SqlStatement *s, const Value *params)
{
	sqlite3_stmt *stmt = active_stmt = cached_statement(s->sql);	/* released if binding fails */

	for (int i = 0; i < s->nbinds; i++)
	{
		const Expr *e = s->binds[i];
		SqliteSink	sink = {.stmt = stmt, .index = i + 1};

		if (e->kind == EXPR_CONST)
			to_sqlite(&sink, &e->constval);
		else if (e->kind == EXPR_PARAM)
		{
			Value		v = ExecCastValue(&params[e->paramno], e->type, -1, true);

			to_sqlite(&sink, &v);
		}
		else
			sqlite3_bind_pointer(stmt, i + 1, (void *) e, "rl_expr", NULL);
	}
	callback_failed = false;
	return stmt;
}

/*
 * step_row -- the statement's next row into row (ncolumns values, in the current
 * memory context; with borrow, strings point into the statement's row, as
 * from_sqlite's); false at its end, when the statement is released. An ERROR
 * leaves it to CacheAbortStatement, as active_stmt.
 */
static bool
step_row(sqlite3_stmt *stmt, int ncolumns, const ResultColumn *columns, Value *row, bool borrow)
{
	int			rc = sqlite3_step(stmt);

	if (rc == SQLITE_ROW)
	{
		CHECK_FOR_INTERRUPTS();
		for (int c = 0; c < ncolumns; c++)
			row[c] = from_sqlite(sqlite3_column_value(stmt, c), columns[c].type, columns[c].typmod, borrow);
		return true;
	}
	active_stmt = NULL;
	if (rc != SQLITE_DONE)
	{
		rc = sqlite3_extended_errcode(cache_db);
		if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_NOTNULL)
			probe_failing_row(stmt, sqlite3_errmsg(cache_db));
		release_statement(stmt, true);
		sqlite_error(rc, "run a statement");
	}
	release_statement(stmt, false);
	return false;
}

int64_t
CacheExecute(const SqlStatement *s, const Value *params, int ncolumns,
			 const ResultColumn *columns, Value **rows, int64_t *nrows)
{
	sqlite3_stmt *stmt = bound_statement(s, params);
	int64_t		n = 0,
				cap = 16;
	Value	   *out = palloc(sizeof(Value) * (size_t) (cap * (ncolumns ? ncolumns : 1)));

	for (;;)
	{
		if (n == cap)
			out = repalloc(out, sizeof(Value) * (size_t) ((cap *= 2) * (ncolumns ? ncolumns : 1)));
		if (!step_row(stmt, ncolumns, columns, &out[n * ncolumns], false))
			break;
		n += ncolumns > 0;
	}

	int64_t		changes = sqlite3_changes64(cache_db);

	if (rows)
		*rows = out;
	if (nrows)
		*nrows = n;
	return changes;
}

CacheCursor *
CacheCursorOpen(const SqlStatement *s, const Value *params)
{
	if (capture != NULL || in_temp_txn || active_stmt != NULL)
		return NULL;
	return (CacheCursor *) bound_statement(s, params);
}

bool
CacheCursorNext(CacheCursor *cursor, int ncolumns, const ResultColumn *columns, Value *row)
{
	return step_row((sqlite3_stmt *) cursor, ncolumns, columns, row, true);
}
