/*
 * catalog_cache.h: the SQLite cache of a catalog, and the writer's half of the write
 * path (doc/design.md, sections 2 and 4).
 *
 * The cache is one SQLite database file, derived from the LSM store and rebuildable
 * from it at any time; only the writer commits to it. Backends read it, and compute
 * the effect of their DML by running it in a write transaction while capturing what
 * it changes (cache_capture_*), taking the changeset and rolling back. The writer
 * applies each changeset in its own savepoint, turns what changed into key-value
 * mutations for the LSM, and commits the SQLite transaction only after the WAL write
 * is durable.
 *
 * What the cache holds:
 *   rl_relation(relid INTEGER PRIMARY KEY, relname TEXT NOT NULL UNIQUE, sql TEXT NOT NULL)
 *       every relation created over the wire; sql is its CREATE TABLE statement in
 *       SQLite's dialect. DDL is data: inserting a row creates the table, deleting it
 *       drops the table, changing sql migrates the table (columns with the same name
 *       keep their values), changing relname renames it.
 *   user relations: CREATE TABLE name (_rl_rowid INTEGER PRIMARY KEY, columns...)
 *       _rl_rowid is the row identity every table needs for changesets (and ctid's
 *       source); the client's own keys are UNIQUE constraints.
 *   rl_meta(name TEXT PRIMARY KEY, value)  the commit sequence the cache reflects.
 *   rl_namespace(nspid INTEGER PRIMARY KEY, nspname TEXT NOT NULL UNIQUE, nspowner INTEGER NOT NULL)
 *       the schemas created over the wire (public, pg_catalog and information_schema
 *       are not rows: they always exist); nspid is the schema's pg_namespace OID,
 *       nspname PostgreSQL's name as it is (a value, not a SQLite name).
 *   rl_database(datid INTEGER PRIMARY KEY, datname TEXT NOT NULL UNIQUE)
 *       the databases of the server; meaningful in the postgres database's cache
 *       only, which is the cluster's registry: inserting a row creates a database
 *       (its own store and cache), deleting it drops one.
 *   rl_authid(oid INTEGER PRIMARY KEY, rolname TEXT NOT NULL UNIQUE, rolsuper,
 *             rolcreaterole, rolcreatedb, rolcanlogin INTEGER NOT NULL, rolconnlimit
 *             INTEGER NOT NULL, rolpassword TEXT, rolvaliduntil INTEGER)
 *       the roles of the server (pg_authid's columns; rolvaliduntil in microseconds
 *       since 2000-01-01 UTC, NULL for none), meaningful in the postgres database's
 *       cache only, as rl_database: the cluster's roles (catalog/authid.h).
 *   rl_database_acl(aclid INTEGER PRIMARY KEY, datname TEXT NOT NULL UNIQUE,
 *                   datdba INTEGER NOT NULL, datacl TEXT)
 *       a database's owner and access control list (catalog/acl.h), in the postgres
 *       database's cache; a database without a row (made before roles were kept) is
 *       the bootstrap superuser's with the default ACL. Keyed by name, not datid: a
 *       CREATE DATABASE whose datid another took at the same time is moved to a new
 *       one by the writer, which would leave a datid here pointing elsewhere.
 *   rl_auth_members(id INTEGER PRIMARY KEY, roleid, member, grantor, admin_option
 *                   INTEGER NOT NULL, UNIQUE (roleid, member))
 *       the roles' memberships (pg_auth_members' rows: member is a member of roleid),
 *       in the postgres database's cache.
 *   rl_authid_noinherit(oid INTEGER PRIMARY KEY)
 *       the roles made or altered NOINHERIT (pg_authid.rolinherit false), in the
 *       postgres database's cache: a relation of its own so that rl_authid's rows
 *       keep the shape stores made before have.
 *   rl_class_acl(aclid INTEGER PRIMARY KEY, relname TEXT NOT NULL UNIQUE, relowner
 *                INTEGER NOT NULL, relacl TEXT)
 *       a relation's owner and access control list (catalog/acl.h; NULL: the default,
 *       everything for the owner), by the relation's cache name, in each database's
 *       cache: CREATE TABLE writes it, DROP TABLE deletes it. A relation without one
 *       (made before owners were kept) is the database owner's, with the default.
 *   rl_namespace_acl(nspid INTEGER PRIMARY KEY, nspacl TEXT)
 *       a schema's access control list once a GRANT or REVOKE wrote it out, in each
 *       database's cache (public's under its OID 2200); without a row, PostgreSQL's
 *       default: everything for the owner, and USAGE for PUBLIC on public.
 *   rl_db_role_setting(id INTEGER PRIMARY KEY, datname TEXT NOT NULL, setrole INTEGER
 *                      NOT NULL, setconfig TEXT NOT NULL, UNIQUE (datname, setrole))
 *       the settings ALTER ROLE and ALTER DATABASE ... SET give sessions
 *       (pg_db_role_setting's rows), in the postgres database's cache: datname '' for
 *       every database, setrole 0 for every role, setconfig "name=value" lines.
 *
 * Values are stored in their canonical SQLite form: integers, booleans (0/1) and
 * timestamps (microseconds since 2000-01-01 UTC, PostgreSQL's binary form) as
 * INTEGER, floats as REAL (but NaN, which SQLite would make NULL, as the text NaN:
 * SQLite orders text after every number and compares it equal to itself, as
 * PostgreSQL does NaN), text as TEXT, bytea and uuid (16 bytes) as BLOB, numerics
 * as their canonical text in columns of TEXT affinity under the rl_numeric
 * collation, which orders them by value (numeric.h).
 *
 * Column affinity. A column's declared type is its PostgreSQL type's name, which
 * gives it SQLite's affinity by SQLite's rules, except where that affinity would
 * change a value: a json or jsonb column is declared with CACHE_TEXT_SUFFIX
 * ("jsonb_text", TEXT affinity: under the NUMERIC affinity of the bare name a
 * document '0.0' would become a number) and a float4 or float8 column with
 * CACHE_BLOB_SUFFIX ("float8_blob", no affinity: REAL affinity stores a float with
 * an integer value as an integer, and -0 would come back as 0). The cache reads the
 * type back without the suffix. Columns made before with the bare names are declared
 * with the suffixes by a one-time rebuild (the "affinity" mark, catalog_cache.c).
 *
 * Names. SQLite compares names without regard to ASCII case, PostgreSQL exactly, so
 * "T" and t are two tables to PostgreSQL and one to SQLite. Every name the cache holds
 * (tables, columns, rl_relation.relname, constraints, the aliases of generated SQL) is
 * therefore the PostgreSQL name with a '^' written before each ASCII capital and each
 * '^' doubled: "Ducklake_Snapshot" is ^Ducklake_^Snapshot, "a^b" is a^^b. Two names
 * that differ in case differ apart from case once written so, and a name without
 * capitals or '^' (DuckLake's, all folded identifiers) is written as it is. Other
 * letters need nothing: SQLite folds ASCII only. cache_name_len and cache_put_name
 * write the cache's form, cache_pg_name reads a name back.
 *
 * Schemas. A table of public is named as above. A table of another schema is named
 * "<nspid>^.<name>" (its schema's rl_namespace.nspid in decimal, '^.', its name in the
 * cache's form): '^' before anything but a capital or '^' never occurs in a name of
 * the cache's form, so such a name is never a public table's, and the schema is in
 * the name by its id, so ALTER SCHEMA ... RENAME changes one rl_namespace row and no
 * table. cache_pg_name reads back the table's own name, cache_name_namespace the id.
 *
 * In the store a relation whose name and columns are those of a DuckLake table that
 * kvcodec.h knows uses that table's key layout, each key ending in the row's _rl_rowid
 * (so no layout refuses a row the client's DDL allows, and a rebuild gives every row
 * its row id back); every other relation's rows, and a DuckLake table's rows that
 * layout cannot key, are generic rows keyed by (relid, _rl_rowid); rl_relation itself
 * is relation 0, rl_database relation CACHE_DATABASE_RELID, rl_namespace
 * CACHE_NAMESPACE_RELID, rl_authid CACHE_AUTHID_RELID, rl_database_acl
 * CACHE_DATABASE_ACL_RELID, rl_auth_members CACHE_AUTH_MEMBERS_RELID,
 * rl_authid_noinherit CACHE_NOINHERIT_RELID, rl_class_acl CACHE_CLASS_ACL_RELID,
 * rl_namespace_acl CACHE_NAMESPACE_ACL_RELID, rl_db_role_setting CACHE_DB_ROLE_SETTING_RELID,
 * rl_publish_pin CACHE_PUBLISH_PIN_RELID. Only public's tables can have kvcodec's layout, whose keys
 * have no room for a schema: a DuckLake catalog in another schema (DuckLake's
 * METADATA_SCHEMA) is stored as generic rows of its relids, so two lakes in one
 * database never share a key.
 */
#ifndef RL_CATALOG_CACHE_H
#define RL_CATALOG_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

#include "catalog/changeset.h"
#include "catalog/stmt_cache.h"
#include "common/rl_buffer.h"
#include "common/rl_status.h"
#include "storage/lsm.h"

#define CACHE_RELATION_TABLE "rl_relation"
#define CACHE_META_TABLE "rl_meta"
/*
 * rl_meta's row naming this cache: a random number drawn when the cache file is made
 * and again at each rebuild, so that what backends publish from one cache (keptscan.h)
 * is never taken for another's, of a database dropped and made again under its datid
 */
#define CACHE_ID_NAME "cache_id"
#define CACHE_DATABASE_TABLE "rl_database"
/*
 * Per table, the first commit after which its rows may have changed other than by
 * rows added with larger row ids than all before (updated, deleted, inserted into a
 * gap, or the table made, altered or dropped): seq is the cache's commit sequence
 * before that commit's, plus one (no snapshot lies between the two, as snapshots are
 * the cache's commits). The row named "" covers every table (a rebuild gave every row a new row
 * id). A backend's kept copy of a plain scan of a table made at snapshot S is brought
 * up to date by the rows above its largest row id while this says no more than S.
 */
#define CACHE_SCAN_BASE_TABLE "rl_scan_base"
#define CACHE_DATABASE_RELID 0x7fffffffU
#define CACHE_NAMESPACE_TABLE "rl_namespace"
#define CACHE_NAMESPACE_RELID 0x7ffffffeU
#define CACHE_AUTHID_TABLE "rl_authid"
#define CACHE_AUTHID_RELID 0x7ffffffdU
#define CACHE_DATABASE_ACL_TABLE "rl_database_acl"
#define CACHE_DATABASE_ACL_RELID 0x7ffffffcU
#define CACHE_AUTH_MEMBERS_TABLE "rl_auth_members"
#define CACHE_AUTH_MEMBERS_RELID 0x7ffffffbU
#define CACHE_NOINHERIT_TABLE "rl_authid_noinherit"
#define CACHE_NOINHERIT_RELID 0x7ffffffaU
#define CACHE_CLASS_ACL_TABLE "rl_class_acl"
#define CACHE_CLASS_ACL_RELID 0x7ffffff9U
#define CACHE_NAMESPACE_ACL_TABLE "rl_namespace_acl"
#define CACHE_NAMESPACE_ACL_RELID 0x7ffffff8U
#define CACHE_DB_ROLE_SETTING_TABLE "rl_db_role_setting"
#define CACHE_DB_ROLE_SETTING_RELID 0x7ffffff7U
/*
 * The snapshots published as versions (doc/publishing.md): one row per version, the
 * database by name and the snapshot id, which the server refuses to expire
 */
#define CACHE_PUBLISH_PIN_TABLE "rl_publish_pin"
#define CACHE_PUBLISH_PIN_RELID 0x7ffffff6U
/* what separates a schema's id from a table's name in the cache's name of the table */
#define CACHE_SCHEMA_SEPARATOR "^."
/* the database that holds the registry, created with the store */
#define CACHE_POSTGRES_DATID 1
#define CACHE_ROWID_COLUMN "_rl_rowid"
/* the cache's own indexes on DuckLake's tables are named this + the table's name */
#define CACHE_INDEX_PREFIX "rl_cache_"
/* how long a connection waits for the write lock another one holds for a statement */
#define CACHE_BUSY_TIMEOUT_MS 30000

typedef struct CatalogCache CatalogCache;

/* Open (creating if needed) the cache file; WAL mode. */
/* whether the cache's form of a name writes '^' before this character */
static inline bool
cache_name_escaped(char c)
{
	return (c >= 'A' && c <= 'Z') || c == '^';
}

/* the cache's form of a PostgreSQL name (see "Names" above): its length, and the
 * name written at out (no terminator), returning the end */
size_t		cache_name_len(const char *name);
char	   *cache_put_name(char *out, const char *name);
/* a cache name read back as PostgreSQL's, at out (strlen(name) + 1 bytes suffice);
 * returns out; of a table of a schema other than public, the table's own name */
char	   *cache_pg_name(char *out, const char *name);
/* the name of a table with its schema's id taken off (the name itself for public's) */
const char *cache_unqualified_name(const char *name);
/*
 * The name PostgreSQL gives the constraint SQLite's message "UNIQUE constraint failed:
 * t.a, t.b" names ("t_pkey" for the table's primary key, else "t_a_b_key", as syscat.c
 * names keys), malloc'd; NULL if msg is not such a message. The table's own name (the
 * text before the first dot of its first column) goes to *table (malloc'd) if asked.
 */
char	   *cache_unique_violation(sqlite3 *db, const char *msg, char **table);
/* the nspid of the schema of a table by its cache name, or 0 for public */
int64_t		cache_name_namespace(const char *name);

RlStatus	catalog_cache_open(const char *path, CatalogCache **out);
void		catalog_cache_close(CatalogCache *cache);
sqlite3    *catalog_cache_db(CatalogCache *cache);
/* The commit sequence the cache reflects (0 for a new cache). */
uint64_t	catalog_cache_seq(CatalogCache *cache);

/*
 * The cache file of database datid in a data directory: "catalog.sqlite" for the
 * postgres database, "catalog.<datid>.sqlite" for the others.
 */
void		catalog_cache_path(char *out, size_t size, const char *data_directory, uint32_t datid);

/*
 * Look a database up by name in the registry (the postgres database's cache).
 * RL_OK with *datid, RL_NOT_FOUND if there is no such database.
 */
RlStatus	catalog_find_database(const char *data_directory, const char *name, uint32_t *datid);

/* A snapshot published as a version (doc/publishing.md), a row of rl_publish_pin. */
typedef struct PublishPin
{
	int64_t		snapshot_id;
	char		version_id[64];
	char		datname[256];
} PublishPin;

/*
 * The pin of version_id, or (version_id NULL) one of datname's snapshot_id: RL_OK
 * with it, RL_NOT_FOUND if there is none.
 */
RlStatus	catalog_find_publish_pin(const char *data_directory, const char *datname, int64_t snapshot_id,
									 const char *version_id, PublishPin *pin);

/* Each pin of datname, by snapshot then version id, given to each(). */
RlStatus	catalog_list_publish_pins(const char *data_directory, const char *datname,
									  void (*each) (const PublishPin *pin, void *arg), void *arg);

/* Replace the cache's contents with the store's, as of the store's last commit. */
RlStatus	catalog_cache_rebuild(CatalogCache *cache, Lsm *lsm);

/*
 * A standby's cache brought to the store's last commit by rebuilding only the
 * relations that the keys in touched name (each a 4-byte big-endian length, then
 * the key: the writes of the WAL objects its follower applied since the last
 * refresh). RL_INVALID, changing nothing, when a key is a relation's definition
 * (DDL) or belongs to no relation: the caller rebuilds the whole cache then.
 */
RlStatus	catalog_cache_refresh(CatalogCache *cache, Lsm *lsm, const RlBuf *touched);

/*
 * Why a changeset was refused: a SQLSTATE and PostgreSQL's wording; for a unique
 * violation also PostgreSQL's detail ("Key (a)=(1) already exists.") and the fields
 * errtableconstraint sets (schema, table, constraint). "" where there is none.
 */
typedef struct CacheConflict
{
	char		sqlstate[6];
	char		message[256];
	char		detail[512];
	char		schema_name[64];
	char		table_name[64];
	char		constraint_name[64];
} CacheConflict;

/*
 * Writer: catalog_cache_begin, then catalog_cache_apply for each changeset of the
 * group, then catalog_cache_commit once the group's WAL object is durable (or
 * catalog_cache_abort if it is not). apply returns RL_OK with the changeset's
 * key-value mutations appended to batch, or RL_PRECONDITION with the conflict
 * (23505 duplicate key, 40001 concurrent update, 42P07 duplicate relation, ...) and
 * nothing of that changeset applied; other codes are failures of the cache itself.
 */
RlStatus	catalog_cache_begin(CatalogCache *cache);
RlStatus	catalog_cache_apply(CatalogCache *cache, const void *changeset, size_t len,
								LsmBatch *batch, CacheConflict *conflict);
RlStatus	catalog_cache_commit(CatalogCache *cache, uint64_t seq);

/*
 * The table old_name renamed to new_name and, with new_sql, made again from that
 * CREATE statement (the columns both have keep their values, the others take their
 * defaults): the writer's half of a changed rl_relation row, and the backend's when
 * it re-applies one.
 */
RlStatus	cache_rebuild_table(sqlite3 *db, const char *old_name, const char *new_name,
								const char *new_sql);
void		catalog_cache_abort(CatalogCache *cache);

/*
 * Apply a changeset's rows to db, as sqlite3changeset_apply does (filter, when
 * given, says which tables to apply; conflict is called as its conflict handler
 * and returns SQLITE_CHANGESET_OMIT or _ABORT), with statements kept in stmts.
 * sqlite3changeset_apply itself runs PRAGMA defer_foreign_keys, which expires every
 * prepared statement of the connection, so each commit compiled everything again.
 * Returns SQLITE_OK, SQLITE_ABORT when the handler aborted, or an SQLite error;
 * what was applied before then stays for the caller to roll back.
 */
int			cache_apply_changeset(sqlite3 *db, StmtCache *stmts, const void *changeset, size_t len,
								  int (*filter) (void *arg, const char *table),
								  int (*conflict) (void *arg, int reason, const ChangesetIter *it),
								  void *arg);

/*
 * Backend: run statements on db between begin and end; end returns what they changed
 * as a changeset and rolls everything back. begin takes the cache's write lock at
 * once (BEGIN IMMEDIATE), waiting its turn behind the writer and other backends:
 * a transaction that read first and then tried to write would fail with
 * SQLITE_BUSY, without waiting, whenever another connection wrote in between.
 */
typedef struct CacheCapture CacheCapture;

/*
 * cache_connection_setup -- what every connection to a cache needs.
 *
 * It waits for the write lock another one holds (the writer's group, a backend's
 * statement) up to CACHE_BUSY_TIMEOUT_MS, retrying every 200 microseconds: SQLite's
 * own busy timeout sleeps 1, 2, 5, 10 ... 100 ms between tries, which would add up to
 * that much to a commit queued behind a writer holding the lock for a few
 * milliseconds. And a name in double quotes is a name only: SQLite's legacy rule
 * would make one that names no column a string, so that an index of DuckLake's
 * columns on a table of that name but other columns, or a generated statement's
 * mistake, would be made silently on a constant. It registers the rl_numeric
 * collation, which numeric columns declare (numeric.h): a connection without it
 * could not prepare a statement over them.
 */
void		cache_connection_setup(sqlite3 *db);

/*
 * The changeset is made by capture.c (a preupdate hook, not SQLite's session module):
 * begin reads changed rows again with statements kept in stmts (NULL: made for the
 * capture). A connection that keeps statements across captures must be watched from
 * when it opens, before it compiles anything (see capture.c); one that compiles only
 * inside its capture need not be.
 */
void		cache_capture_watch(sqlite3 *db);
RlStatus	cache_capture_begin(sqlite3 *db, StmtCache *stmts, CacheCapture **out);
/*
 * A table about to be dropped: the rows noted of it are forgotten (the drop is its
 * rl_relation row's change); a table made under its name is another.
 */
void		cache_capture_dropping(CacheCapture *capture, const char *table);
/* While paused, what runs is not captured (re-applying what is captured already). */
void		cache_capture_pause(CacheCapture *capture, bool paused);
RlStatus	cache_capture_end(CacheCapture *capture, RlBuf *changeset);

#define CACHE_TEXT_SUFFIX "_text"
#define CACHE_BLOB_SUFFIX "_blob"

#endif
