/*
 * pg_stat.c: the statistics views, with PostgreSQL 15's columns and types.
 *
 * pg_stat_activity is a snapshot of the shared status array (utils/backend_status.h)
 * taken when the statement is analysed: one row per client backend and one for the
 * writer (backend_type "rocklake writer"). RockLake has no transaction ids, no
 * query ids and no parallel workers: backend_xid, backend_xmin, query_id and
 * leader_pid are NULL; client_hostname is NULL as with log_hostname off. A
 * session waiting for its client shows wait_event Client/ClientRead, as
 * PostgreSQL's do.
 *
 * pg_stat_database has a row per database of the registry and PostgreSQL's row for
 * shared objects (datid 0), with counters kept since the server started (they are
 * not stored: stats_reset is the server's start): numbackends, xact_commit,
 * xact_rollback, tup_returned (rows queries and COPY TO sent to clients),
 * tup_inserted, tup_updated, tup_deleted (the counts of INSERT, UPDATE, DELETE and
 * COPY FROM, whether or not their transaction committed, as PostgreSQL counts
 * them) and sessions. What RockLake does not have is 0 as for an idle PostgreSQL
 * database (blocks, conflicts, temporary files, deadlocks, times, the other
 * session counts) or NULL as PostgreSQL gives it (checksums, off).
 *
 * pg_stat_user_tables lists the catalog's tables with n_live_tup, the rows the
 * cache holds (the cells of the table's leaf pages, from SQLite's dbstat), and
 * n_tup_ins, n_tup_upd and n_tup_del since the server started, counted as the
 * database's are; n_mod_since_analyze and n_ins_since_vacuum follow from them
 * (vacuum and analyze never happen, their times are NULL), though PostgreSQL counts
 * only committed changes there. The scan counters are 0.
 *
 * relation_size gives pg_relation_size, pg_table_size, pg_indexes_size and
 * pg_total_relation_size their answers: the bytes of the SQLite pages a table and
 * the indexes of its keys take in the cache (dbstat), which is what the table costs
 * this server; the store keeps the same rows compressed in its own files. A key's
 * index has its own row (its pages; no indexes of its own), as in PostgreSQL.
 */
#include <string.h>

#include <sqlite3.h>

#include "catalog/catalog_cache.h"
#include "catalog/pg_stat.h"
#include "catalog/syscat.h"
#include "common/rl_buffer.h"
#include "utils/backend_status.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define COL(name, type) {name, type, -1}
#define NCOLS(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const ResultColumn pg_stat_activity_cols[] = {
	COL("datid", OIDOID), COL("datname", NAMEOID), COL("pid", INT4OID), COL("leader_pid", INT4OID),
	COL("usesysid", OIDOID), COL("usename", NAMEOID), COL("application_name", TEXTOID),
	COL("client_addr", INETOID), COL("client_hostname", TEXTOID), COL("client_port", INT4OID),
	COL("backend_start", TIMESTAMPTZOID), COL("xact_start", TIMESTAMPTZOID),
	COL("query_start", TIMESTAMPTZOID), COL("state_change", TIMESTAMPTZOID),
	COL("wait_event_type", TEXTOID), COL("wait_event", TEXTOID), COL("state", TEXTOID),
	COL("backend_xid", XIDOID), COL("backend_xmin", XIDOID), COL("query_id", INT8OID),
	COL("query", TEXTOID), COL("backend_type", TEXTOID),
};

static const ResultColumn pg_stat_database_cols[] = {
	COL("datid", OIDOID), COL("datname", NAMEOID), COL("numbackends", INT4OID),
	COL("xact_commit", INT8OID), COL("xact_rollback", INT8OID), COL("blks_read", INT8OID),
	COL("blks_hit", INT8OID), COL("tup_returned", INT8OID), COL("tup_fetched", INT8OID),
	COL("tup_inserted", INT8OID), COL("tup_updated", INT8OID), COL("tup_deleted", INT8OID),
	COL("conflicts", INT8OID), COL("temp_files", INT8OID), COL("temp_bytes", INT8OID),
	COL("deadlocks", INT8OID), COL("checksum_failures", INT8OID),
	COL("checksum_last_failure", TIMESTAMPTZOID), COL("blk_read_time", FLOAT8OID),
	COL("blk_write_time", FLOAT8OID), COL("session_time", FLOAT8OID), COL("active_time", FLOAT8OID),
	COL("idle_in_transaction_time", FLOAT8OID), COL("sessions", INT8OID),
	COL("sessions_abandoned", INT8OID), COL("sessions_fatal", INT8OID), COL("sessions_killed", INT8OID),
	COL("stats_reset", TIMESTAMPTZOID),
};

static const ResultColumn pg_stat_user_tables_cols[] = {
	COL("relid", OIDOID), COL("schemaname", NAMEOID), COL("relname", NAMEOID),
	COL("seq_scan", INT8OID), COL("seq_tup_read", INT8OID), COL("idx_scan", INT8OID),
	COL("idx_tup_fetch", INT8OID), COL("n_tup_ins", INT8OID), COL("n_tup_upd", INT8OID),
	COL("n_tup_del", INT8OID), COL("n_tup_hot_upd", INT8OID), COL("n_live_tup", INT8OID),
	COL("n_dead_tup", INT8OID), COL("n_mod_since_analyze", INT8OID), COL("n_ins_since_vacuum", INT8OID),
	COL("last_vacuum", TIMESTAMPTZOID), COL("last_autovacuum", TIMESTAMPTZOID),
	COL("last_analyze", TIMESTAMPTZOID), COL("last_autoanalyze", TIMESTAMPTZOID),
	COL("vacuum_count", INT8OID), COL("autovacuum_count", INT8OID), COL("analyze_count", INT8OID),
	COL("autoanalyze_count", INT8OID),
};

static const ResultColumn relation_size_cols[] = {
	COL("relid", OIDOID), COL("table_size", INT8OID), COL("indexes_size", INT8OID), COL("total_size", INT8OID),
};

/* the bytes the b-trees named by the SQL expression names take in the cache */
#define DBSTAT_BYTES(names) "coalesce((SELECT sum(s.pgsize) FROM dbstat('main', 1) AS s WHERE s.name IN (" names ")), 0)"

static const char *const pg_stat_user_tables_sql =
	"SELECT c.oid AS relid, n.nspname AS schemaname, c.relname AS relname, 0 AS seq_scan, 0 AS seq_tup_read,"
	" CASE WHEN c.relhasindex THEN 0 END AS idx_scan, CASE WHEN c.relhasindex THEN 0 END AS idx_tup_fetch,"
	" coalesce(t.column2, 0) AS n_tup_ins, coalesce(t.column3, 0) AS n_tup_upd, coalesce(t.column4, 0) AS n_tup_del,"
	" 0 AS n_tup_hot_upd,"
	" coalesce((SELECT sum(s.ncell) FROM dbstat('main') AS s WHERE s.name = r.relname AND s.pagetype = 'leaf'), 0)"
	" AS n_live_tup, 0 AS n_dead_tup, coalesce(t.column2 + t.column3 + t.column4, 0) AS n_mod_since_analyze,"
	" coalesce(t.column2, 0) AS n_ins_since_vacuum, NULL AS last_vacuum,"
	" NULL AS last_autovacuum, NULL AS last_analyze, NULL AS last_autoanalyze, 0 AS vacuum_count,"
	" 0 AS autovacuum_count, 0 AS analyze_count, 0 AS autoanalyze_count"
	" FROM main." CACHE_RELATION_TABLE " AS r JOIN (%s) AS c ON c.oid = " XSTR(FirstNormalObjectId) " + r.relid"
	" JOIN (%s) AS n ON n.oid = c.relnamespace LEFT JOIN (%s) AS t ON t.column1 = r.relname";

static const char *const relation_size_sql =
	"SELECT relid, table_size, indexes_size, table_size + indexes_size AS total_size FROM ("
	"SELECT " XSTR(FirstNormalObjectId) " + r.relid AS relid, " DBSTAT_BYTES("r.relname") " AS table_size, "
	DBSTAT_BYTES("SELECT i.name FROM pragma_index_list(r.relname, 'main') AS i") " AS indexes_size"
	" FROM main." CACHE_RELATION_TABLE " AS r"
	" UNION ALL SELECT " XSTR(INDEX_OID_BASE) " + r.relid * 256 + i.seq, " DBSTAT_BYTES("i.name") ", 0"
	" FROM main." CACHE_RELATION_TABLE " AS r, pragma_index_list(r.relname, 'main') AS i WHERE i.origin = 'u')";

/* table_counters -- the counters of this database's tables as VALUES (name, ins, upd, del) */
static char *
table_counters(void)
{
	TableStats *t = palloc(sizeof(TableStats) * TABLE_STATS_SLOTS);
	int			n = TableStatsSnapshot(MyDatabaseId, t, TABLE_STATS_SLOTS);
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "VALUES (NULL, 0, 0, 0)");
	for (int i = 0; i < n; i++)
	{
		char	   *row = sqlite3_mprintf(", (%Q, %lld, %lld, %lld)", t[i].relname, (long long) t[i].n_tup_ins,
										  (long long) t[i].n_tup_upd, (long long) t[i].n_tup_del);

		rlbuf_append_str(&b, row);
		sqlite3_free(row);
	}
	char	   *sql = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return sql;
}

/* make_relation -- a CacheRelation of these columns computed by sql */
static CacheRelation *
make_relation(const char *name, const ResultColumn *columns, int ncolumns, const char *sql)
{
	CacheRelation *rel = palloc0(sizeof(CacheRelation));

	rel->name = name;
	rel->ncolumns = ncolumns;
	rel->columns = palloc(sizeof(ResultColumn) * (size_t) ncolumns);
	memcpy(rel->columns, columns, sizeof(ResultColumn) * (size_t) ncolumns);
	rel->sql = sql;
	return rel;
}

/* ts_sql -- a status timestamp as SQL: NULL when there is none */
static char *
ts_sql(int64_t ts)
{
	return ts ? psprintf("%lld", (long long) ts) : "NULL";
}

static const char *const state_names[] = {
	[STATE_IDLE] = "idle",
	[STATE_RUNNING] = "active",
	[STATE_IDLEINTRANSACTION] = "idle in transaction",
	[STATE_IDLEINTRANSACTION_ABORTED] = "idle in transaction (aborted)",
};

/* build_pg_stat_activity -- the status array now */
static char *
build_pg_stat_activity(void)
{
	int			max = BackendStatusSlots();
	BackendStatus *st = palloc(sizeof(BackendStatus) * (size_t) (max > 0 ? max : 1));
	int			n = BackendStatusSnapshot(st, max);
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "SELECT column1 AS datid, column2 AS datname, column3 AS pid, NULL AS leader_pid,"
					 " column4 AS usesysid, column5 AS usename, column6 AS application_name,"
					 " column7 AS client_addr, NULL AS client_hostname, column8 AS client_port,"
					 " column9 AS backend_start, column10 AS xact_start, column11 AS query_start,"
					 " column12 AS state_change, column13 AS wait_event_type, column14 AS wait_event,"
					 " column15 AS state, NULL AS backend_xid, NULL AS backend_xmin, NULL AS query_id,"
					 " column16 AS query, column17 AS backend_type FROM (VALUES (NULL, NULL, NULL, NULL, NULL,"
					 " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
	bool		super = GetConfigBool("is_superuser");
	const char *me = GetConfigOption("session_authorization");

	for (int i = 0; i < n; i++)
	{
		bool		client = st[i].kind == BACKEND_KIND_CLIENT;
		bool		waiting = client && st[i].state != STATE_RUNNING;
		char	   *row;

		/* another role's session shows only who it is, as PostgreSQL shows it */
		if (!super && !(client && me && strcmp(st[i].usename, me) == 0))
			row = client
				? sqlite3_mprintf(", (%u, %Q, %d, " XSTR(BOOTSTRAP_SUPERUSERID) ", %Q, %Q, NULL, NULL, NULL, NULL,"
								  " NULL, NULL, NULL, NULL, NULL, '<insufficient privilege>', NULL)",
								  st[i].datid, st[i].datname, st[i].pid, st[i].usename, st[i].appname)
				: sqlite3_mprintf(", (NULL, NULL, %d, NULL, NULL, '', NULL, NULL, NULL, NULL, NULL, NULL,"
								  " NULL, NULL, NULL, '<insufficient privilege>', NULL)", st[i].pid);
		else if (client)
			row = sqlite3_mprintf(", (%u, %Q, %d, " XSTR(BOOTSTRAP_SUPERUSERID) ", %Q, %Q, %Q, %d, %s, %s, %s, %s,"
								  " %Q, %Q, %Q, %Q, 'client backend')",
								  st[i].datid, st[i].datname, st[i].pid, st[i].usename, st[i].appname,
								  st[i].client_addr[0] ? st[i].client_addr : NULL, st[i].client_port,
								  ts_sql(st[i].backend_start), ts_sql(st[i].xact_start),
								  ts_sql(st[i].query_start), ts_sql(st[i].state_change),
								  waiting ? "Client" : NULL, waiting ? "ClientRead" : NULL,
								  state_names[st[i].state], st[i].query);
		else
			row = sqlite3_mprintf(", (NULL, NULL, %d, NULL, NULL, '', NULL, NULL, %s, NULL, NULL, NULL,"
								  " NULL, NULL, NULL, '', 'rocklake writer')",
								  st[i].pid, ts_sql(st[i].backend_start));
		rlbuf_append_str(&b, row);
		sqlite3_free(row);
	}
	rlbuf_append_str(&b, ") WHERE column3 IS NOT NULL");
	char	   *sql = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return sql;
}

/* build_pg_stat_database -- the registry's databases and PostgreSQL's datid 0, with their counters */
static char *
build_pg_stat_database(void)
{
	int			max = BackendStatusSlots();
	BackendStatus *st = palloc(sizeof(BackendStatus) * (size_t) (max > 0 ? max : 1));
	int			nbackends = BackendStatusSnapshot(st, max);
	DatabaseStats db[DATABASE_STATS_SLOTS];
	int			ndb = DatabaseStatsSnapshot(db, DATABASE_STATS_SLOTS);
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "SELECT d.oid AS datid, d.datname AS datname,"
					 " (SELECT count(*) FROM (VALUES (NULL)");
	for (int i = 0; i < nbackends; i++)
		rlbuf_printf(&b, ", (%u)", st[i].datid);
	rlbuf_append_str(&b, ") AS b WHERE b.column1 = d.oid) AS numbackends,"
					 " coalesce(s.column2, 0) AS xact_commit, coalesce(s.column3, 0) AS xact_rollback,"
					 " 0 AS blks_read, 0 AS blks_hit, coalesce(s.column4, 0) AS tup_returned, 0 AS tup_fetched,"
					 " coalesce(s.column5, 0) AS tup_inserted, coalesce(s.column6, 0) AS tup_updated,"
					 " coalesce(s.column7, 0) AS tup_deleted, 0 AS conflicts, 0 AS temp_files, 0 AS temp_bytes,"
					 " 0 AS deadlocks, NULL AS checksum_failures, NULL AS checksum_last_failure,"
					 " 0.0 AS blk_read_time, 0.0 AS blk_write_time, 0.0 AS session_time, 0.0 AS active_time,"
					 " 0.0 AS idle_in_transaction_time, coalesce(s.column8, 0) AS sessions,"
					 " 0 AS sessions_abandoned, 0 AS sessions_fatal, 0 AS sessions_killed,");
	rlbuf_printf(&b, " %lld AS stats_reset FROM (SELECT 0 AS oid, NULL AS datname UNION ALL"
				 " SELECT oid, datname FROM (%s)) AS d LEFT JOIN (VALUES (NULL, 0, 0, 0, 0, 0, 0, 0)",
				 (long long) PostmasterStartTimestamp(), SystemRelationLookup("pg_database")->sql);
	for (int i = 0; i < ndb; i++)
		rlbuf_printf(&b, ", (%u, %lld, %lld, %lld, %lld, %lld, %lld, %lld)", db[i].datid,
					 (long long) db[i].xact_commit, (long long) db[i].xact_rollback,
					 (long long) db[i].tup_returned, (long long) db[i].tup_inserted,
					 (long long) db[i].tup_updated, (long long) db[i].tup_deleted, (long long) db[i].sessions);
	rlbuf_append_str(&b, ") AS s ON s.column1 = d.oid");
	char	   *sql = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return sql;
}

CacheRelation *
PgStatRelationLookup(const char *name)
{
	if (strcmp(name, "pg_stat_activity") == 0)
		return make_relation("pg_stat_activity", pg_stat_activity_cols, NCOLS(pg_stat_activity_cols),
							 build_pg_stat_activity());
	if (strcmp(name, "pg_stat_database") == 0)
		return make_relation("pg_stat_database", pg_stat_database_cols, NCOLS(pg_stat_database_cols),
							 build_pg_stat_database());
	if (strcmp(name, "pg_stat_user_tables") == 0)
		return make_relation("pg_stat_user_tables", pg_stat_user_tables_cols, NCOLS(pg_stat_user_tables_cols),
							 psprintf(pg_stat_user_tables_sql, SystemRelationLookup("pg_class")->sql,
									  SystemRelationLookup("pg_namespace")->sql, table_counters()));
	return NULL;
}

CacheRelation *
PgStatFunctionRelation(const char *name)
{
	if (strcmp(name, "relation_size") == 0)
		return make_relation("relation_size", relation_size_cols, NCOLS(relation_size_cols), relation_size_sql);
	return NULL;
}
