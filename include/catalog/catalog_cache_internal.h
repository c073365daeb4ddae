/*
 * catalog_cache_internal.h: what the catalog cache's files share (catalog_cache.c:
 * names, opening, relations; cache_rebuild.c: rebuilding from the store, whole or as a
 * standby's poll wrote; cache_apply.c: the writer's apply passes; changeset_apply.c:
 * changesets applied to a connection).
 */
#ifndef RL_CATALOG_CACHE_INTERNAL_H
#define RL_CATALOG_CACHE_INTERNAL_H

#include <alloca.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "catalog/catalog_cache.h"
#include "catalog/changeset.h"
#include "catalog/kvcodec.h"
#include "catalog/stmt_cache.h"
#include "utils/adt/numeric.h"
#include "utils/errcodes.h"

/*
 * The statements applying a changeset's changes to a table (table_apply_plan):
 * parameters ?1..?n old values, ?n+1..?2n new values, ?2n+1..?3n "column changed"
 * flags of an UPDATE.
 */
enum
{
	APPLY_INSERT, APPLY_DELETE, APPLY_UPDATE, APPLY_EXISTS /* SELECT 1 for the row's key */ , APPLY_NSTMTS
};

/*
 * The columns of a table of the main schema, the row id first (n = 0: no such table),
 * and the statements applying changes to it, for a changeset of plan_ncolumns columns
 * with the primary key plan_pk (plan_ncolumns 0: none made yet); the writer keeps both
 * while the schema stays (table_columns), so a commit does not write them out again.
 */
typedef struct TableColumns
{
	char	   *table;
	int			n;
	char	  **names;
	int			plan_ncolumns;
	uint8_t    *plan_pk;
	char	   *plan_sql[APPLY_NSTMTS];
	int64_t		relid;			/* in rl_relation (relation_map), or -1 until read */
} TableColumns;

#define KEPT_SHAPES 32

struct CatalogCache
{
	sqlite3    *db;
	StmtCache  *statements;		/* kept across commits: the same few texts every time */
	TableColumns shapes[KEPT_SHAPES];	/* table_columns, while shapes_cookie holds */
	int			next_shape;
	int64_t		shapes_cookie;
	bool		shapes_checked; /* shapes_cookie read since this changeset began or
								 * the writer last ran DDL */
	char	   *path;
	/* the checkpointer thread (checkpoint_wal) and what it waits on */
	pthread_t	checkpointer;
	bool		checkpointer_started;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool		checkpoint_due;
	bool		checkpointer_failed;	/* no connection: checkpoint in the commit */
	bool		stopping;
	uint64_t	seq;
	bool		in_transaction;
	bool		short_keys;		/* CACHE_SHORT_KEY_TABLE may have rows */
};

/* How one relation's rows are stored in the LSM. */
typedef struct RelationMap
{
	int64_t		relid;			/* 0 for rl_relation itself */
	char	   *name;
	int			ncolumns;		/* SQLite columns, the row id first */
	const KvTable *kv;			/* DuckLake table layout, or NULL: generic rows */
	CatalogCache *cache;		/* whose statements these are: */
	sqlite3_stmt *row_by_id;	/* read_row */
} RelationMap;

/* An insert that lost its row id to another commit, to be inserted again. */
typedef struct Reinsert
{
	char	   *table;
	int64_t		old_rowid;
	int64_t		new_rowid;
	int			ncolumns;
	KvDatum    *values;			/* the changeset's row: strings point into it */
} Reinsert;

/* A set of relation names, malloc'd. */
typedef struct NameList
{
	char	  **names;
	int			n;
} NameList;

typedef struct ApplyState
{
	CatalogCache *cache;
	CacheConflict *conflict;
	bool		conflicted;
	Reinsert   *reinserts;
	int			n_reinserts;
	NameList	rewritten;		/* relations whose layout changed: store every row again */
	NameList	created;		/* relations this changeset creates */
	NameList	rescan;			/* relations changed other than by appended rows
								 * (CACHE_SCAN_BASE_TABLE) */
	LsmBatch   *batch;
} ApplyState;

/* a name of the cache as PostgreSQL's, for a message, in a buffer of the caller's stack */
#define PG_NAME(name) cache_pg_name(alloca(strlen(name) + 1), (name))

/*
 * Names written before the cache had a form of its own ("Names" in catalog_cache.h)
 * are PostgreSQL's as they were, which shows where one holds a capital or a '^' the
 * cache's form would have escaped. A rebuild reads such rows of rl_relation into the
 * cache's form (in the store they keep their old text until the relation's DDL next
 * writes it), and a cache made before, holding relations, has no CACHE_NAMES_MARK:
 * its commit_seq is not believed, so the writer rebuilds it once.
 */
#define CACHE_NAMES_MARK "names"

/*
 * Keys of DuckLake's tables end in the row's row id (kvcodec.h) since the cache's
 * CACHE_ROW_KEYS_MARK: a cache made before holds row ids its store does not, so its
 * commit_seq is not believed either and the writer rebuilds it once. A store written
 * before holds rows under keys without a row id; a rebuild gives each such row a row
 * id and notes it in CACHE_SHORT_KEY_TABLE (short_key_taken).
 */
#define CACHE_ROW_KEYS_MARK "row_keys"

#define CACHE_SHORT_KEY_TABLE "rl_short_key"

/*
 * Numeric columns declared before they were exact ("numeric(p,s)", NUMERIC affinity,
 * which kept a double) are declared as numeric.h says at rebuild: the rl_relation
 * row's CREATE statement is rewritten as names are, and the rows' values, doubles in
 * the store, become SQLite's text of them, which numeric input and the collation read
 * (the digits a double lost stay lost). A cache made before, holding relations, has
 * no CACHE_NUMERIC_MARK and is rebuilt once, as for names.
 */
#define CACHE_NUMERIC_MARK "numeric"

/*
 * Likewise json, jsonb, float4 and float8 columns declared before they had the
 * affinity catalog_cache.h's suffixes give them (the bare names: NUMERIC affinity for
 * json, REAL for floats) are declared with the suffixes at rebuild, and a cache made
 * before, holding relations, has no CACHE_AFFINITY_MARK and is rebuilt once.
 */
#define CACHE_AFFINITY_MARK "affinity"

/*
 * The cache's WAL is copied into its file by a thread of the writer with a connection
 * of its own, not by the commit that takes the WAL past SQLite's 1000-page mark: that
 * checkpoint (megabytes written and fsynced) took hundreds of milliseconds inside a
 * COMMIT, every hundred or so DuckLake commits. A passive checkpoint runs beside the writer's commits;
 * the writer's WAL hook only says one is due.
 */
#define CHECKPOINT_WAL_PAGES 1000

/*
 * A rebuild loads a relation's rows under the row ids their keys hold (generic rows:
 * the row key; DuckLake tables: the row id that ends the key), so every row keeps its
 * place and its ctid. Rows of a store written before keys of DuckLake's tables ended
 * in a row id (CACHE_ROW_KEYS_MARK) have none: a second pass gives them row ids 1, 2
 * ... in key order, below the others' (they were written before any of those, and
 * every row id given since was above theirs), and notes them in CACHE_SHORT_KEY_TABLE.
 * Such a row keeps its place among the others, but its row id only while no row
 * before it in key order is deleted. A DuckLake table's rows that its layout cannot
 * hold are under its generic prefix (encode_row), each with its row id.
 */
typedef struct RebuildScan
{
	sqlite3    *db;
	sqlite3_stmt *insert;
	sqlite3_stmt *note_short;	/* into CACHE_SHORT_KEY_TABLE */
	const RelationMap *map;
	bool		generic;		/* the rows under the relation's generic prefix */
	bool		short_pass;		/* the last pass: rows whose key has no row id */
	int64_t		nshort;			/* the first pass counts them ... */
	int64_t		min_rowid;		/* ... and the smallest row id of the others */
	int64_t		next_rowid;		/* the second pass's next row id */
	RlStatus	status;
} RebuildScan;

#define BUSY_RETRY_US 200

/*
 * How a changeset's changes to one table are applied: the statements of its shape's
 * plan, prepared by SQL text (kept in the connection's StmtCache across changesets,
 * and held from the table's first change to its last).
 */
typedef struct TableApply
{
	char	   *table;
	int			ncolumns;		/* the changeset's (may be fewer than the table's) */
	bool		skip;
	char	  **sql;			/* the shape's plan_sql */
	TableColumns loaded;		/* the shape, when the cache does not keep it */
	sqlite3_stmt *stmt[APPLY_NSTMTS];
} TableApply;

#define APPLY_AND_GROUP 64

/* catalog_cache.c */
void		name_list_add(NameList *list, const char *name);
bool		name_list_has(const NameList *list, const char *name);
void		name_list_free(NameList *list);
void		mark_rescan(ApplyState *st, const char *table);
RlStatus	sqlite_failure(sqlite3 *db, const char *what);
RlStatus	exec_sql(sqlite3 *db, const char *sql);
RlStatus	exec_kept(CatalogCache *cache, const char *sql);
void		set_conflict(ApplyState *st, const char *sqlstate, const char *fmt, ...)
			__attribute__((format(printf, 3, 4)));
void		append_identifier(RlBuf *out, const char *name);
/* a name of either form (catalog_cache.h's "Names"), in the cache's, appended to out */
void		append_in_cache_form(RlBuf *out, const char *name, size_t len);
/* a CREATE TABLE's text in the cache's form: its names and its types' declarations (malloc'd) */
char	   *create_in_cache_form(const char *sql, size_t len);
sqlite3_stmt *prepare(sqlite3 *db, const char *sql);
RlStatus	read_seq(CatalogCache *cache);
void		relation_map_free(RelationMap *map);
void		table_columns_free(TableColumns *c);
RlStatus	load_columns(sqlite3 *db, StmtCache *stmts, const char *table, TableColumns *out);
void		forget_shapes(CatalogCache *cache);
RlStatus	table_columns(CatalogCache *cache, const char *table, TableColumns **out);
RlStatus	relation_map_shape(CatalogCache *cache, const char *name, int64_t relid, RelationMap *map);
RlStatus	relation_map(CatalogCache *cache, const char *name, RelationMap *map);
void		bind_datum(sqlite3_stmt *stmt, int index, const KvDatum *d);
RlStatus	encode_row(const RelationMap *map, const KvDatum *const *values, RlBuf *key, RlBuf *value);
int		read_row(RelationMap *map, int64_t rowid, sqlite3_stmt **stmt);
const KvDatum * *statement_row(sqlite3_stmt *stmt, int n);
RlStatus	emit_all_rows(sqlite3 *db, const RelationMap *map, LsmBatch *batch, bool put);

/* cache_apply.c */
void		create_cache_indexes(sqlite3 *db, const char *table);
bool		largest_rowid(CatalogCache *cache, const char *table, int64_t *rowid);
RlStatus	record_rescan(CatalogCache *cache, const char *table, uint64_t seq);
RlStatus	record_seq(CatalogCache *cache, uint64_t seq);

/* changeset_apply.c */
int		apply_changeset(sqlite3 *db, StmtCache *stmts, CatalogCache *kept, const void *changeset, size_t len, int (*filter) (void *arg, const char *table), int (*conflict) (void *arg, int reason, const ChangesetIter *it), void *arg);

#endif
