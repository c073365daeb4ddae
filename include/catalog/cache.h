/*
 * cache.h: the backend's connection to the SQLite catalog cache (cache.c): the
 * relations analysis looks up, the transaction's snapshot, the capture of its writes
 * and their commit through the writer.
 */
#ifndef RL_CACHE_H
#define RL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "catalog/stmt_cache.h"
#include "common/rl_buffer.h"
#include "common/rl_status.h"
#include "nodes/parsenodes.h"

/* A relation as the analyser sees it: its columns without the hidden row id. */
typedef struct CacheRelation
{
	const char *name;
	const char *table;			/* a user table: its name in the cache (namespace.h) */
	bool		temp;
	int			ncolumns;
	ResultColumn *columns;
	const char *sql;			/* a system catalog: the SQLite query computing it */
	int			npkey;			/* its primary key's columns (indexes into columns) */
	int		   *pkey;
} CacheRelation;

/* Fixed OIDs of pg_catalog (PostgreSQL's) that syscat.c and the functions share. */
#define PG_CATALOG_NAMESPACE	11
#define PG_PUBLIC_NAMESPACE		2200
#define INFORMATION_SCHEMA_NAMESPACE 13183
#define BOOTSTRAP_SUPERUSERID	10	/* pg_roles: the session's user */
#define ROLE_PG_DATABASE_OWNER	6171	/* owns public, as in PostgreSQL 15 */
#define PG_UTF8_ENCODING		6
#define FirstNormalObjectId		16384

/*
 * Open DATADIR's cache for this backend (at session start); kept if it is the one
 * CacheWarm opened.
 */
void		CacheOpen(const char *path);

/*
 * What the layers above do when the connection changes (PostgreSQL's hooks: the
 * cache calls up only through these). opened: a connection was made (the executor
 * registers its SQLite functions on it); closing: it is about to go (copies of
 * scans kept over it are dropped); transaction_ended: after each transaction's end
 * (the warm-up hint may be left early, tcop/warmup.h).
 */
typedef struct CacheHooks
{
	void		(*opened) (sqlite3 *db);
	void		(*closing) (void);
	void		(*transaction_ended) (void);
} CacheHooks;
extern CacheHooks cache_hooks;

/*
 * The connection's kept statements (stmt_cache.h), NULL while there is no
 * connection; how many of them the session compiled itself; CacheWarmedUp: those
 * compiled so far were the warm-up's, not the session's.
 */
StmtCache  *CacheStatements(void);
unsigned long CacheCompiledBySession(void);
void		CacheWarmedUp(void);
/*
 * the cache's form of a PostgreSQL name (catalog_cache.h, "Names"): name itself when
 * it has nothing to escape, as nearly every name
 */
const char *CacheSqliteName(const char *name);
/* NULL if there is none; schema NULL searches pg_temp, pg_catalog, then search_path (namespace.h). */
CacheRelation *CacheLookupRelation(const char *schema, const char *name);
/* the relation of that name in schema nsp (a pg_namespace OID), or NULL */
CacheRelation *CacheLookupRelationIn(Oid nsp, const char *name);
/* The first column of the first row of a query with one parameter ?1 as text, or NULL. */
char	   *CacheLookupText(const char *sql, const Value *param);
/* Whether a temporary table of that name exists. */
bool		CacheTempRelationExists(const char *name);
/* The running statement is about to drop catalog table table (its cache name; cache_capture_dropping). */
void		CacheTableDropping(const char *table);

/*
 * A kept copy of a plain scan of a catalog table (keptscan.c) can serve the
 * statement about to run: the transaction wrote nothing, so its snapshot is a
 * commit's.
 */
bool		CacheScanUsable(void);

/*
 * For a kept copy of a plain scan of table made at snapshot kept_seq (0: none),
 * holding its rows up to row id kept_rowid: the row id above which the copy lacks
 * rows at the transaction's snapshot, which this takes (kept_rowid while the table
 * changed only by rows appended since, CACHE_SCAN_BASE_TABLE; INT64_MIN when the
 * copy must be read again whole). *seq and *rowid get the snapshot and the table's
 * largest row id at it.
 */
int64_t		CacheScanSince(const char *table, uint64_t kept_seq, int64_t kept_rowid,
						   uint64_t *seq, int64_t *rowid);

/* The cache's identity (CACHE_ID_NAME): what copies published from it are named by. */
int64_t		CacheIdentity(void);

/*
 * Around each statement (analysis and execution): Begin sets the cache up as
 * the transaction sees it (40001 if its snapshot is gone), End finishes a
 * statement on temporary tables; an ERROR in between is cleaned up by
 * CacheAbortStatement. The statements of one message that write the catalog
 * share one capture of their changes (a commit batch of DuckLake is one Query
 * of many statements), which CacheMessageEnd closes, keeping what they wrote:
 * the backend's message loop calls it before it waits for the client again,
 * after the reply (replied: the client has heard the message's outcome, so a
 * failure to take the changes then ends the session, its transaction uncommitted).
 */
void		CacheStatementBegin(CacheTarget target);
void		CacheStatementEnd(void);
void		CacheMessageEnd(bool replied);

/*
 * Around ALTER TABLE of a catalog table: Begin sets the cache up as the transaction
 * sees it without capturing (the statement's SQLite ALTERs are not rows); End
 * records the table's new CREATE statement in rl_relation, which is what carries the
 * change, and adds that to the transaction's changeset. A later capture rebuilds the
 * table from it before it re-applies the transaction's rows.
 */
void		CacheAlterTableBegin(void);
void		CacheAlterTableEnd(const char *table);

/*
 * Between those two: table made again from its CREATE statement with the primary key
 * conname of columns (NULL-terminated) added, its rows kept; 23505 if they repeat a
 * key, 0A000 for a column that is not NOT NULL.
 */
void		CacheAddTableKey(const char *table, const char *conname, const char **columns);
/* Whether the transaction has changed rows of table so far. */
bool		CacheTransactionChanged(const char *table);
void		CacheAbortStatement(void);
/* End the transaction: Commit sends its changeset to the writer (may ERROR). */
void		CacheCommitTransaction(void);
/* The ERROR for a commit the writer did not answer (rc: writer_commit's status). */
void		CacheCommitOutcomeUnknown(RlStatus rc) __attribute__((noreturn));
void		CacheAbortTransaction(void);
/* A temporary table created by this transaction (dropped by ROLLBACK, or COMMIT too). */
void		CacheRememberTempTable(const char *name, bool on_commit_drop);

#endif
