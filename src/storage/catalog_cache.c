/*
 * catalog_cache.c: the SQLite cache of a catalog and the writer's half of the write
 * path (see catalog_cache.h for what the cache holds and why).
 *
 * Applying a changeset happens in three passes inside one savepoint:
 *   1. tables created by the changeset (rows inserted into rl_relation) are created,
 *      and tables whose rl_relation row changed (renamed, ALTER TABLE) are rebuilt
 *      from the new statement, so that the transaction's rows can be applied to them
 *      (rows written before an ADD COLUMN have fewer columns than the table: SQLite
 *      gives them the defaults, and pass 3 stores all of such a table's rows again);
 *   2. cache_apply_changeset applies the rows, and its conflict handler turns a
 *      row changed since the backend read it into 40001 and a violated UNIQUE into
 *      23505; an insert whose hidden row id another commit took meanwhile is not a
 *      conflict and is inserted again under a fresh row id;
 *   3. every changed row is turned into a key-value mutation (kvcodec.h's layout for
 *      DuckLake's tables, generic rows for the rest): an inserted row from the
 *      changeset's values under its final row id, an updated one read back whole; and
 *      dropped tables get their physical DDL.
 * Each pass reads the changeset in place (changeset.h).
 * A conflict rolls the savepoint back: the other changesets of the group are not
 * affected. The statements of all three passes are kept across commits (stmt_cache.h),
 * as are the tables' columns while the schema does not change; the cache's WAL is
 * checkpointed by a thread of its own, beside the commits (checkpoint_wal).
 */
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

#include "catalog_cache.h"
#include "changeset.h"
#include "errcodes.h"
#include "kvcodec.h"
#include "numeric.h"
#include "stmt_cache.h"

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

static void forget_shapes(CatalogCache *cache);

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

static void
name_list_add(NameList *list, const char *name)
{
	list->names = realloc(list->names, sizeof(char *) * (size_t) (list->n + 1));
	list->names[list->n++] = strdup(name);
}

static bool
name_list_has(const NameList *list, const char *name)
{
	for (int i = 0; i < list->n; i++)
		if (strcmp(list->names[i], name) == 0)
			return true;
	return false;
}

static void
name_list_free(NameList *list)
{
	for (int i = 0; i < list->n; i++)
		free(list->names[i]);
	free(list->names);
}

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

/* mark_rescan -- table's rows changed other than by rows appended (CACHE_SCAN_BASE_TABLE) */
static void
mark_rescan(ApplyState *st, const char *table)
{
	if (!name_list_has(&st->rescan, table))
		name_list_add(&st->rescan, table);
}

/* SQLite's message, and for a failed system call the system's ("File too large") */
static RlStatus
sqlite_failure(sqlite3 *db, const char *what)
{
	int			code = sqlite3_errcode(db) & 0xff;

	if ((code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN) && sqlite3_system_errno(db) != 0)
		return rl_error(RL_IO_ERROR, "catalog cache: %s: %s (%s)", what, sqlite3_errmsg(db),
						strerror(sqlite3_system_errno(db)));
	return rl_error(RL_IO_ERROR, "catalog cache: %s: %s", what, sqlite3_errmsg(db));
}

static RlStatus
exec_sql(sqlite3 *db, const char *sql)
{
	char	   *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
	{
		RlStatus	rc = rl_error(RL_IO_ERROR, "catalog cache: %s: %s", sql, err ? err : "failed");

		sqlite3_free(err);
		return rc;
	}
	return RL_OK;
}

/*
 * exec_kept -- one statement through the cache's kept statements: the writer begins,
 * saves, releases and commits at every commit, and compiling "BEGIN IMMEDIATE" costs
 * SQLite as much as running it
 */
static RlStatus
exec_kept(CatalogCache *cache, const char *sql)
{
	return stmt_cache_run(cache->statements, sql) == SQLITE_OK ? RL_OK : sqlite_failure(cache->db, sql);
}

static void
set_conflict(ApplyState *st, const char *sqlstate, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
set_conflict(ApplyState *st, const char *sqlstate, const char *fmt, ...)
{
	va_list		ap;

	if (st->conflicted)
		return;					/* the first reason is the one to report */
	st->conflicted = true;
	snprintf(st->conflict->sqlstate, sizeof(st->conflict->sqlstate), "%s", sqlstate);
	va_start(ap, fmt);
	vsnprintf(st->conflict->message, sizeof(st->conflict->message), fmt, ap);
	va_end(ap);
}

size_t
cache_name_len(const char *name)
{
	size_t		len = 0;

	for (const char *p = name; *p; p++)
		len += cache_name_escaped(*p) ? 2 : 1;
	return len;
}

char *
cache_put_name(char *out, const char *name)
{
	for (const char *p = name; *p; p++)
	{
		if (cache_name_escaped(*p))
			*out++ = '^';
		*out++ = *p;
	}
	return out;
}

/* the length of a table name's "<nspid>^." prefix: 0 for a table of public or any other name */
static size_t
schema_prefix_len(const char *name)
{
	size_t		digits = strspn(name, "0123456789");

	return digits > 0 && strncmp(name + digits, CACHE_SCHEMA_SEPARATOR, 2) == 0 ? digits + 2 : 0;
}

const char *
cache_unqualified_name(const char *name)
{
	return name + schema_prefix_len(name);
}

/*
 * key_is_primary -- whether table's key of ncols columns that starts with first is its
 * primary key (analyze.c's add_key declares a primary key's first column DESC)
 */
static bool
key_is_primary(sqlite3 *db, const char *table, const char *first, int ncols)
{
	sqlite3_stmt *stmt;
	bool		primary;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_index_list(?1) AS i WHERE i.origin = 'u'"
						   " AND (SELECT count(*) FROM pragma_index_info(i.name)) = ?3"
						   " AND EXISTS (SELECT 1 FROM pragma_index_xinfo(i.name) AS x"
						   " WHERE x.seqno = 0 AND x.name = ?2 AND x.\"desc\")", -1, &stmt, NULL) != SQLITE_OK)
		return false;			/* the name PostgreSQL gives a unique key, then */
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 2, first, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(stmt, 3, ncols);
	primary = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return primary;
}

char *
cache_unique_violation(sqlite3 *db, const char *msg, char **table_out)
{
	static const char prefix[] = "UNIQUE constraint failed: ";
	const char *cols = msg && strncmp(msg, prefix, sizeof(prefix) - 1) == 0 ? msg + sizeof(prefix) - 1 : NULL;
	const char *dot = cols ? strchr(cache_unqualified_name(cols), '.') : NULL;

	if (dot == NULL)
		return NULL;

	size_t		table_len = (size_t) (dot - cols);
	char	   *table = strndup(cols, table_len);
	char	   *first = strndup(dot + 1, strcspn(dot + 1, ","));
	char	   *name = malloc(strlen(cols) + 8);
	char	   *o = name;
	int			ncols = 1;

	if (table == NULL || first == NULL || name == NULL)
	{
		free(table);
		free(first);
		free(name);
		return NULL;
	}
	/* "t.a, t.b" -> t_a_b (t without its schema id), each name read back as PostgreSQL's */
	for (const char *c = cache_unqualified_name(cols); *c; c++)
	{
		if (*c == ',')
		{
			ncols++;
			c = strchr(cache_unqualified_name(c + 2), '.');
			if (c == NULL)
				break;
		}
		*o++ = *c == '.' ? '_' : *c;
	}
	*o = '\0';
	if (key_is_primary(db, table, first, ncols))
		snprintf(name, strlen(cols) + 8, "%s_pkey", cache_unqualified_name(table));
	else
		strcat(name, "_key");
	cache_pg_name(name, name);
	free(first);
	if (table_out)
		*table_out = table;
	else
		free(table);
	return name;
}

int64_t
cache_name_namespace(const char *name)
{
	return schema_prefix_len(name) ? strtoll(name, NULL, 10) : 0;
}

char *
cache_pg_name(char *out, const char *name)
{
	char	   *o = out;

	for (const char *p = cache_unqualified_name(name); *p; p++)
	{
		if (*p == '^' && p[1] != '\0')
			p++;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* a name of the cache as PostgreSQL's, for a message, in a buffer of the caller's stack */
#define PG_NAME(name) cache_pg_name(alloca(strlen(name) + 1), (name))

/* "name" quoted as an SQL identifier, into out. */
static void append_identifier(RlBuf *out, const char *name);

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

static bool
identifier_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* type_word -- whether text (ending at end) has the type name word at p */
static bool
type_word(const char *text, const char *end, const char *p, const char *word)
{
	size_t		wlen = strlen(word);

	return (size_t) (end - p) >= wlen && strncasecmp(p, word, wlen) == 0 &&
		(p == text || !identifier_char(p[-1])) && (p + wlen == end || !identifier_char(p[wlen]));
}

/*
 * append_type_text -- unquoted text of a CREATE statement (its end at end), each old
 * numeric type in it ("numeric", "numeric(p,s)") declared the cache's way, and each
 * bare json, jsonb, float4 or float8 with the suffix that gives it its affinity
 */
static void
append_type_text(RlBuf *out, const char *text, const char *end)
{
	static const char *const suffixed[][2] = {
		{"json", CACHE_TEXT_SUFFIX}, {"jsonb", CACHE_TEXT_SUFFIX},
		{"float4", CACHE_BLOB_SUFFIX}, {"float8", CACHE_BLOB_SUFFIX},
	};

	for (const char *p = text; p < end;)
	{
		size_t		k = 0;

		while (k < sizeof(suffixed) / sizeof(suffixed[0]) && !type_word(text, end, p, suffixed[k][0]))
			k++;
		if (k < sizeof(suffixed) / sizeof(suffixed[0]))
		{
			rlbuf_append(out, p, strlen(suffixed[k][0]));
			rlbuf_append_str(out, suffixed[k][1]);
			p += strlen(suffixed[k][0]);
			continue;
		}
		if (!type_word(text, end, p, "numeric"))
		{
			rlbuf_put_u8(out, (uint8_t) *p++);
			continue;
		}
		rlbuf_append_str(out, NUMERIC_CACHE_TYPE);
		p += strlen("numeric");
		const char *mods = p;

		while (mods < end && *mods == ' ')
			mods++;
		if (mods < end && *mods == '(')
		{
			const char *close = memchr(mods, ')', (size_t) (end - mods));

			if (close != NULL)
			{
				rlbuf_append(out, mods, (size_t) (close + 1 - mods));
				p = close + 1;
			}
		}
		rlbuf_append_str(out, " COLLATE " NUMERIC_COLLATION);
	}
}

static bool
in_cache_form(const char *name, size_t len)
{
	size_t		prefix = strspn(name, "0123456789");

	/* a table of a schema other than public: "<nspid>^.name" (schemas came after names) */
	prefix = prefix > 0 && prefix + 2 <= len && memcmp(name + prefix, CACHE_SCHEMA_SEPARATOR, 2) == 0 ? prefix + 2 : 0;
	for (size_t i = prefix; i < len; i++)
	{
		if (name[i] >= 'A' && name[i] <= 'Z')
			return false;
		if (name[i] == '^' && (++i == len || !cache_name_escaped(name[i])))
			return false;
	}
	return true;
}

/* append_in_cache_form -- a name of either form, in the cache's, appended to out */
static void
append_in_cache_form(RlBuf *out, const char *name, size_t len)
{
	bool		old = !in_cache_form(name, len);

	for (size_t i = 0; i < len; i++)
	{
		if (old && cache_name_escaped(name[i]))
			rlbuf_put_u8(out, '^');
		rlbuf_put_u8(out, (uint8_t) name[i]);
	}
}

/*
 * create_in_cache_form -- a CREATE TABLE's text with each "name" in the cache's form
 * and each numeric, json or float type declared the cache's way (malloc'd)
 */
static char *
create_in_cache_form(const char *sql, size_t len)
{
	RlBuf		out,
				name;
	const char *end = sql + len;

	rlbuf_init(&out);
	rlbuf_init(&name);
	for (const char *p = sql; p < end;)
	{
		char		quote = *p;

		if (quote != '"' && quote != '\'')
		{
			const char *text_end = p;

			while (text_end < end && *text_end != '"' && *text_end != '\'')
				text_end++;
			append_type_text(&out, p, text_end);
			p = text_end;
			continue;
		}
		/* a quoted name or string, each quote inside doubled */
		rlbuf_reset(&name);
		for (p++; p < end && (*p != quote || (p + 1 < end && p[1] == quote)); p++)
			rlbuf_put_u8(&name, (uint8_t) *(p += *p == quote));
		p += p < end;
		if (quote == '"')
		{
			RlBuf		converted;

			rlbuf_init(&converted);
			append_in_cache_form(&converted, (const char *) name.data, name.len);
			append_identifier(&out, rlbuf_cstr(&converted));
			rlbuf_free(&converted);
			continue;
		}
		rlbuf_put_u8(&out, '\'');
		for (size_t i = 0; i < name.len; i++)
		{
			if (name.data[i] == '\'')
				rlbuf_put_u8(&out, '\'');
			rlbuf_put_u8(&out, name.data[i]);
		}
		rlbuf_put_u8(&out, '\'');
	}
	rlbuf_free(&name);
	rlbuf_cstr(&out);
	return (char *) rlbuf_steal(&out, NULL);
}

static void
append_identifier(RlBuf *out, const char *name)
{
	rlbuf_put_u8(out, '"');
	for (const char *p = name; *p;)
	{
		size_t		run = strcspn(p, "\"");	/* up to the next quote, which is doubled */

		rlbuf_append(out, p, run + (p[run] == '"'));
		if (p[run] == '"')
			rlbuf_put_u8(out, '"');
		p += run + (p[run] == '"');
	}
	rlbuf_put_u8(out, '"');
}

static sqlite3_stmt *
prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	return stmt;
}

/* ---------------------------------------------------------------- open */

static RlStatus
read_seq(CatalogCache *cache)
{
	sqlite3_stmt *stmt = prepare(cache->db, "SELECT value FROM " CACHE_META_TABLE " WHERE name = 'commit_seq'"
								 " AND (SELECT count(*) FROM " CACHE_META_TABLE
								 " WHERE name IN ('" CACHE_NAMES_MARK "', '" CACHE_ROW_KEYS_MARK "', '"
								 CACHE_NUMERIC_MARK "', '" CACHE_AFFINITY_MARK "')) = 4");

	if (stmt == NULL)
		return sqlite_failure(cache->db, "read commit_seq");
	cache->seq = sqlite3_step(stmt) == SQLITE_ROW ? (uint64_t) sqlite3_column_int64(stmt, 0) : 0;
	sqlite3_finalize(stmt);
	stmt = prepare(cache->db, "SELECT EXISTS (SELECT 1 FROM " CACHE_SHORT_KEY_TABLE ")");
	if (stmt == NULL)
		return sqlite_failure(cache->db, "read " CACHE_SHORT_KEY_TABLE);
	cache->short_keys = sqlite3_step(stmt) != SQLITE_ROW || sqlite3_column_int(stmt, 0) != 0;
	sqlite3_finalize(stmt);
	return RL_OK;
}

/*
 * The cache's WAL is copied into its file by a thread of the writer with a connection
 * of its own, not by the commit that takes the WAL past SQLite's 1000-page mark: that
 * checkpoint (about 4 MB written and fsynced) took 140 to 970 ms inside a COMMIT, every
 * hundred or so DuckLake commits. A passive checkpoint runs beside the writer's commits;
 * the writer's WAL hook only says one is due.
 */
#define CHECKPOINT_WAL_PAGES 1000

static void *
checkpoint_wal(void *arg)
{
	CatalogCache *cache = arg;
	sqlite3    *db = NULL;
	sigset_t	all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);		/* signals are the writer's main thread's */
	/* a connection checkpoints only once it has read the database (and so found its WAL) */
	if (sqlite3_open_v2(cache->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
		sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK)
	{
		sqlite3_close(db);
		pthread_mutex_lock(&cache->lock);
		cache->checkpointer_failed = true;
		pthread_mutex_unlock(&cache->lock);
		return NULL;
	}
	pthread_mutex_lock(&cache->lock);
	while (!cache->stopping)
	{
		if (!cache->checkpoint_due)
		{
			pthread_cond_wait(&cache->wake, &cache->lock);
			continue;
		}
		cache->checkpoint_due = false;
		pthread_mutex_unlock(&cache->lock);
		sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&cache->lock);
	}
	pthread_mutex_unlock(&cache->lock);
	sqlite3_close(db);
	return NULL;
}

static int
wal_grew(void *arg, sqlite3 *db, const char *schema, int pages)
{
	CatalogCache *cache = arg;

	bool		inline_checkpoint;

	if (pages < CHECKPOINT_WAL_PAGES)
		return SQLITE_OK;
	pthread_mutex_lock(&cache->lock);
	inline_checkpoint = cache->checkpointer_failed;
	cache->checkpoint_due = true;
	pthread_cond_signal(&cache->wake);
	pthread_mutex_unlock(&cache->lock);
	if (inline_checkpoint)
		sqlite3_wal_checkpoint(db, schema);	/* as SQLite would have, in the commit */
	return SQLITE_OK;
}

/* start_checkpointer -- if no thread can start, SQLite checkpoints in the commit as it would */
static void
start_checkpointer(CatalogCache *cache)
{
	if ((cache->path = strdup(sqlite3_db_filename(cache->db, "main"))) == NULL ||
		pthread_create(&cache->checkpointer, NULL, checkpoint_wal, cache) != 0)
		return;
	cache->checkpointer_started = true;
	sqlite3_wal_hook(cache->db, wal_grew, cache);
}

static void
stop_checkpointer(CatalogCache *cache)
{
	if (cache->checkpointer_started)
	{
		pthread_mutex_lock(&cache->lock);
		cache->stopping = true;
		pthread_cond_signal(&cache->wake);
		pthread_mutex_unlock(&cache->lock);
		pthread_join(cache->checkpointer, NULL);
	}
	pthread_mutex_destroy(&cache->lock);
	pthread_cond_destroy(&cache->wake);
	free(cache->path);
}

RlStatus
catalog_cache_open(const char *path, CatalogCache **out)
{
	CatalogCache *cache = calloc(1, sizeof(CatalogCache));
	RlStatus	rc = RL_OK;

	*out = NULL;
	cache->shapes_cookie = -1;
	pthread_mutex_init(&cache->lock, NULL);
	pthread_cond_init(&cache->wake, NULL);
	/* one connection per process, used by one thread: no SQLite mutexes */
	if (sqlite3_open_v2(path, &cache->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
						NULL) != SQLITE_OK)
		rc = sqlite_failure(cache->db, path);
	/* backends take the write lock for a statement at a time to compute changesets */
	if (rc == RL_OK)
		cache_connection_setup(cache->db);
	if (rc == RL_OK && (cache->statements = stmt_cache_create(cache->db, 64)) == NULL)
		rc = rl_error(RL_IO_ERROR, "out of memory");
	/* NORMAL is enough: the cache is derived data, and its commit_seq says how far it got */
	if (rc == RL_OK)
		rc = exec_sql(cache->db,
					  "PRAGMA journal_mode = WAL;"
					  "PRAGMA synchronous = NORMAL;"
					  "CREATE TABLE IF NOT EXISTS " CACHE_RELATION_TABLE
					  " (relid INTEGER PRIMARY KEY, relname TEXT NOT NULL UNIQUE, sql TEXT NOT NULL);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_META_TABLE
					  " (name TEXT PRIMARY KEY, value);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_DATABASE_TABLE
					  " (datid INTEGER PRIMARY KEY, datname TEXT NOT NULL UNIQUE);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_NAMESPACE_TABLE
					  " (nspid INTEGER PRIMARY KEY, nspname TEXT NOT NULL UNIQUE, nspowner INTEGER NOT NULL);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_SCAN_BASE_TABLE
					  " (relname TEXT PRIMARY KEY, seq INTEGER NOT NULL);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_SHORT_KEY_TABLE
					  " (relid INTEGER, rowid INTEGER, PRIMARY KEY (relid, rowid)) WITHOUT ROWID;"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " VALUES ('" CACHE_ID_NAME "', random());"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " SELECT name, 1 FROM (SELECT '"
					  CACHE_NAMES_MARK "' AS name UNION ALL SELECT '" CACHE_ROW_KEYS_MARK "'"
					  " UNION ALL SELECT '" CACHE_NUMERIC_MARK "' UNION ALL SELECT '" CACHE_AFFINITY_MARK "')"
					  " WHERE NOT EXISTS (SELECT 1 FROM " CACHE_RELATION_TABLE ");");
	if (rc == RL_OK)
		rc = read_seq(cache);
	if (rc == RL_OK)
		start_checkpointer(cache);
	if (rc != RL_OK)
	{
		catalog_cache_close(cache);
		return rc;
	}
	*out = cache;
	return RL_OK;
}

void
catalog_cache_close(CatalogCache *cache)
{
	if (cache == NULL)
		return;
	if (cache->in_transaction)
		catalog_cache_abort(cache);
	stop_checkpointer(cache);
	forget_shapes(cache);
	stmt_cache_destroy(cache->statements);
	sqlite3_close(cache->db);
	free(cache);
}

sqlite3 *
catalog_cache_db(CatalogCache *cache)
{
	return cache->db;
}

uint64_t
catalog_cache_seq(CatalogCache *cache)
{
	return cache->seq;
}

/* ---------------------------------------------------------------- relations */

static void
relation_map_free(RelationMap *map)
{
	if (map->cache)
	{
		stmt_cache_release(map->cache->statements, map->row_by_id, false);
	}
	free(map->name);
	memset(map, 0, sizeof(*map));
}

static void
table_columns_free(TableColumns *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->table);
	free(c->plan_pk);
	for (int i = 0; i < APPLY_NSTMTS; i++)
		free(c->plan_sql[i]);
	memset(c, 0, sizeof(*c));
}

/* load_columns -- a table's columns as SQLite has them now */
static RlStatus
load_columns(sqlite3 *db, StmtCache *stmts, const char *table, TableColumns *out)
{
	sqlite3_stmt *stmt = stmt_cache_get(stmts, "SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid");
	int			cap = 16;

	memset(out, 0, sizeof(*out));
	out->relid = -1;
	if (stmt == NULL)
		return sqlite_failure(db, "read table columns");
	out->table = strdup(table);
	out->names = malloc(sizeof(char *) * (size_t) cap);
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		if (out->n == cap)
			out->names = realloc(out->names, sizeof(char *) * (size_t) (cap *= 2));
		out->names[out->n++] = strdup((const char *) sqlite3_column_text(stmt, 0));
	}
	stmt_cache_release(stmts, stmt, false);
	return RL_OK;
}

/* forget_shapes -- after a rollback: its schema cookie may come back with other tables */
static void
forget_shapes(CatalogCache *cache)
{
	for (int i = 0; i < KEPT_SHAPES; i++)
		table_columns_free(&cache->shapes[i]);
	cache->shapes_cookie = -1;
	cache->shapes_checked = false;
}

/*
 * table_columns -- a table's columns, kept by the writer while SQLite's schema cookie
 * stays the same (only the writer commits to the cache, and its rollbacks forget them):
 * reading them with pragma_table_info, three times per table and commit, was a tenth
 * of the writer's time. The cookie itself is read once per changeset and again
 * after the writer's own DDL (shapes_checked). Valid until the next call.
 */
static RlStatus
table_columns(CatalogCache *cache, const char *table, TableColumns **out)
{
	if (!cache->shapes_checked)
	{
		int64_t		cookie = stmt_cache_int64(cache->statements, "PRAGMA main.schema_version", -1);

		if (cookie < 0 || cookie != cache->shapes_cookie)
		{
			forget_shapes(cache);
			cache->shapes_cookie = cookie;
		}
		cache->shapes_checked = cookie >= 0;
	}
	for (int i = 0; i < KEPT_SHAPES; i++)
		if (cache->shapes[i].table && strcmp(cache->shapes[i].table, table) == 0)
		{
			*out = &cache->shapes[i];
			return RL_OK;
		}

	TableColumns *slot = &cache->shapes[cache->next_shape];

	cache->next_shape = (cache->next_shape + 1) % KEPT_SHAPES;
	table_columns_free(slot);
	*out = slot;
	return load_columns(cache->db, cache->statements, table, slot);
}

/*
 * How the rows of table name (relation relid) are stored: its columns, and whether it
 * is a DuckLake table with the real columns (then kvcodec's layout).
 */
static RlStatus
relation_map_shape(CatalogCache *cache, const char *name, int64_t relid, RelationMap *map)
{
	TableColumns *columns;
	RlStatus	rc;

	memset(map, 0, sizeof(*map));
	map->relid = relid;
	map->cache = cache;
	if ((rc = table_columns(cache, name, &columns)) != RL_OK)
		return rc;

	const KvTable *kv = relid == 0 || relid == CACHE_DATABASE_RELID || relid == CACHE_NAMESPACE_RELID
		? NULL : kv_table_by_name(name);
	bool		kv_columns_match = kv != NULL;

	for (int i = 1; i < columns->n; i++)	/* the row id first */
		if (kv_columns_match && (i - 1 >= kv_table_ncolumns(kv) ||
								 strcmp(columns->names[i], kv_table_column_name(kv, i - 1)) != 0))
			kv_columns_match = false;
	map->ncolumns = columns->n;
	if (kv_columns_match && map->ncolumns - 1 != kv_table_ncolumns(kv))
		kv_columns_match = false;
	map->name = strdup(name);
	map->kv = kv_columns_match ? kv : NULL;
	return RL_OK;
}

/*
 * relation_map_shape for a relation rl_relation names now; RL_NOT_FOUND if it does
 * not. Its relid is kept with its columns: a name changes relation only by DDL.
 */
static RlStatus
relation_map(CatalogCache *cache, const char *name, RelationMap *map)
{
	TableColumns *columns;
	RlStatus	rc;

	memset(map, 0, sizeof(*map));
	if (strcmp(name, CACHE_RELATION_TABLE) == 0)
		return relation_map_shape(cache, name, 0, map);
	if (strcmp(name, CACHE_DATABASE_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_DATABASE_RELID, map);
	if (strcmp(name, CACHE_NAMESPACE_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_NAMESPACE_RELID, map);
	if ((rc = table_columns(cache, name, &columns)) != RL_OK)
		return rc;
	if (columns->relid < 0)
	{
		sqlite3_stmt *stmt = stmt_cache_get(cache->statements,
											"SELECT relid FROM " CACHE_RELATION_TABLE " WHERE relname = ?");

		if (stmt == NULL)
			return sqlite_failure(cache->db, "look up relation");
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) == SQLITE_ROW)
			columns->relid = sqlite3_column_int64(stmt, 0);
		stmt_cache_release(cache->statements, stmt, false);
		if (columns->relid < 0)
			return rl_error(RL_NOT_FOUND, "relation \"%s\" is not in " CACHE_RELATION_TABLE, name);
	}
	return relation_map_shape(cache, name, columns->relid, map);
}

/* A column of a statement's current row as a datum of a generic row. */
static void
column_datum(sqlite3_stmt *stmt, int column, KvDatum *d)
{
	memset(d, 0, sizeof(*d));
	switch (sqlite3_column_type(stmt, column))
	{
		case SQLITE_INTEGER:
			d->type = KV_INT64;
			d->i = sqlite3_column_int64(stmt, column);
			break;
		case SQLITE_FLOAT:
			d->type = KV_DOUBLE;
			d->d = sqlite3_column_double(stmt, column);
			break;
		case SQLITE_TEXT:
			d->type = KV_TEXT;
			d->s = (const char *) sqlite3_column_text(stmt, column);
			d->len = (size_t) sqlite3_column_bytes(stmt, column);
			break;
		case SQLITE_BLOB:
			d->type = KV_BYTES;
			d->s = sqlite3_column_blob(stmt, column);
			d->len = (size_t) sqlite3_column_bytes(stmt, column);
			break;
		default:
			d->type = KV_NULL;
			break;
	}
}

/* bind_datum -- d as parameter index of stmt (NULL for none); d's bytes must outlive the step */
static void
bind_datum(sqlite3_stmt *stmt, int index, const KvDatum *d)
{
	switch (d ? d->type : KV_NULL)
	{
		case KV_INT64:
			sqlite3_bind_int64(stmt, index, d->i);
			break;
		case KV_BOOL:
			sqlite3_bind_int(stmt, index, d->b);
			break;
		case KV_DOUBLE:
			sqlite3_bind_double(stmt, index, d->d);
			break;
		case KV_TEXT:
			sqlite3_bind_text(stmt, index, d->s, (int) d->len, SQLITE_STATIC);
			break;
		case KV_BYTES:
			if (d->len == 0)
				sqlite3_bind_zeroblob(stmt, index, 0);
			else
				sqlite3_bind_blob(stmt, index, d->s, (int) d->len, SQLITE_STATIC);
			break;
		case KV_NULL:
			sqlite3_bind_null(stmt, index);
			break;
	}
}

/* A generic datum as a datum of a DuckLake table column; false if the types disagree. */
static bool
typed_datum(const KvDatum *v, KvColumnType type, KvDatum *d)
{
	*d = *v;
	if (d->type == KV_NULL)
		return true;
	switch (type)
	{
		case KV_COL_BIGINT:
		case KV_COL_TIMESTAMPTZ:
			return d->type == KV_INT64;
		case KV_COL_BOOLEAN:
			if (d->type != KV_INT64)
				return false;
			d->type = KV_BOOL;
			d->b = d->i != 0;
			return true;
		case KV_COL_VARCHAR:
			return d->type == KV_TEXT;
		case KV_COL_UUID:
			return d->type == KV_BYTES;
	}
	return false;
}

/*
 * short_key_taken -- whether row rowid of map's relation is stored under a key without
 * its row id (a store written before keys ended in one, CACHE_ROW_KEYS_MARK); if so it
 * is noted no more, as its key is being deleted
 */
static bool
short_key_taken(const RelationMap *map, int64_t rowid)
{
	if (!map->cache->short_keys)
		return false;

	sqlite3_stmt *stmt = stmt_cache_get(map->cache->statements, "DELETE FROM " CACHE_SHORT_KEY_TABLE
										" WHERE relid = ?1 AND rowid = ?2");
	bool		taken;

	if (stmt == NULL)
		return false;
	sqlite3_bind_int64(stmt, 1, map->relid);
	sqlite3_bind_int64(stmt, 2, rowid);
	taken = sqlite3_step(stmt) == SQLITE_DONE && sqlite3_changes(map->cache->db) > 0;
	stmt_cache_release(map->cache->statements, stmt, false);
	return taken;
}

/*
 * The key (and, if value is not NULL, the value) of a row given as its SQLite column
 * values, the row id first. Without value the key is the one the row is stored under
 * now, to be deleted (a short one of an older store's row: short_key_taken); with it,
 * the one it is stored under from now on. Every key ends in the row id: it is the row's
 * place in its table, and the only thing that tells two rows with the same values
 * apart (the components of a DuckLake table's key are not a key the client declared).
 * A row of a DuckLake table that kvcodec's layout cannot hold (a NULL or negative key
 * component, which PostgreSQL stores as any other value) is a generic row of its
 * relation, as the rows of relations the layout does not know are: no layout of
 * RockLake's refuses a row.
 */
static RlStatus
encode_row(const RelationMap *map, const KvDatum *const *values, RlBuf *key, RlBuf *value)
{
	int			n = map->ncolumns - 1;
	KvDatum    *row = calloc((size_t) n + 1, sizeof(KvDatum));
	bool		fits = map->kv != NULL;
	RlStatus	rc = RL_OK;

	for (int i = 0; fits && i < n; i++)
		fits = typed_datum(values[i + 1], kv_table_column_type(map->kv, i), &row[i]);
	if (fits)
	{
		/* RL_INVALID: a NULL or negative key component, which kvcodec's keys cannot hold */
		fits = (value ? kv_encode_row(map->kv, row, n, key, value) : kv_encode_key(map->kv, row, n, key)) == RL_OK;
		if (fits && (value || !short_key_taken(map, values[0]->i)))
			kv_append_row_id(key, values[0]->i);
	}
	if (!fits)
	{
		kv_generic_key((uint32_t) map->relid, (uint64_t) values[0]->i, key);
		for (int i = 0; i < n; i++)
			row[i] = *values[i + 1];
		if (value)
			rc = kv_encode_generic_value(row, n, value);
	}
	free(row);
	return rc;
}

/*
 * read_row -- step map's statement reading row rowid: SQLITE_ROW with the row in
 * *stmt, SQLITE_DONE if there is none, or an error; the caller resets *stmt when
 * done with the row
 */
static int
read_row(RelationMap *map, int64_t rowid, sqlite3_stmt **stmt)
{
	sqlite3    *db = map->cache->db;

	if (map->row_by_id == NULL)
	{
		RlBuf		sql;

		rlbuf_init(&sql);
		rlbuf_append_str(&sql, "SELECT * FROM ");
		append_identifier(&sql, map->name);
		rlbuf_append_str(&sql, " WHERE rowid = ?");
		map->row_by_id = stmt_cache_get(map->cache->statements, rlbuf_cstr(&sql));
		rlbuf_free(&sql);
		if (map->row_by_id == NULL)
			return sqlite3_errcode(db);
	}
	*stmt = map->row_by_id;
	sqlite3_bind_int64(*stmt, 1, rowid);
	return sqlite3_step(*stmt);
}

/* statement_row -- the n columns of stmt's current row as datums, in one malloc'd block */
static const KvDatum **
statement_row(sqlite3_stmt *stmt, int n)
{
	const KvDatum **values = malloc((size_t) n * (sizeof(KvDatum *) + sizeof(KvDatum)));

	if (values == NULL)
		return NULL;

	KvDatum    *datums = (KvDatum *) (values + n);

	for (int i = 0; i < n; i++)
	{
		column_datum(stmt, i, &datums[i]);
		values[i] = &datums[i];
	}
	return values;
}

/* Put (or, with put false, delete) the keys of every row of a relation. */
static RlStatus
emit_all_rows(sqlite3 *db, const RelationMap *map, LsmBatch *batch, bool put)
{
	RlBuf		sql,
				key,
				value;
	RlStatus	rc = RL_OK;

	rlbuf_init(&sql);
	rlbuf_init(&key);
	rlbuf_init(&value);
	rlbuf_append_str(&sql, "SELECT * FROM ");
	append_identifier(&sql, map->name);
	sqlite3_stmt *stmt = prepare(db, rlbuf_cstr(&sql));

	if (stmt == NULL)
		rc = sqlite_failure(db, "read relation");
	while (rc == RL_OK && sqlite3_step(stmt) == SQLITE_ROW)
	{
		const KvDatum **values = statement_row(stmt, map->ncolumns);

		rlbuf_reset(&key);
		rlbuf_reset(&value);
		rc = values ? encode_row(map, values, &key, put ? &value : NULL) : rl_error(RL_IO_ERROR, "out of memory");
		if (rc == RL_OK && put)
			lsm_batch_put(batch, key.data, key.len, value.data, value.len);
		else if (rc == RL_OK)
			lsm_batch_delete(batch, key.data, key.len);
		free(values);
	}
	sqlite3_finalize(stmt);
	rlbuf_free(&sql);
	rlbuf_free(&key);
	rlbuf_free(&value);
	return rc;
}

/* ---------------------------------------------------------------- apply: pass 1 */

static int
table_column_count(CatalogCache *cache, const char *name)
{
	TableColumns *columns;

	return table_columns(cache, name, &columns) == RL_OK ? columns->n : 0;
}

/*
 * The cache's own indexes on DuckLake's tables, which belong to no relation's
 * definition, never reach the store and pg_catalog does not show: one on the
 * components of each table's key in the store (kvcodec.h), which serves most filters
 * DuckLake's reads push down (table_id first), and two on what
 * no key leads with: column statistics by table and column, schema versions by
 * table. create_cache_indexes makes them whenever their table is made (created,
 * rebuilt, migrated); a table without the columns (another format version) just
 * goes without.
 */
static const struct
{
	const char *table;
	const char *columns;
}			read_indexes[] = {
	{"ducklake_file_column_stats", "table_id, column_id"},
	{"ducklake_schema_versions", "table_id, schema_version"},
};

static void
create_index(sqlite3 *db, const char *table, const char *suffix, const char *columns)
{
	char	   *sql = sqlite3_mprintf("CREATE INDEX IF NOT EXISTS main.\"" CACHE_INDEX_PREFIX "%w%w\" "
									  "ON \"%w\" (%s)", table, suffix, table, columns);

	sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_free(sql);
}

/*
 * key_is_unique -- whether table has a UNIQUE index on exactly kv's key columns (its
 * primary key is its key in the store: ducklake_snapshot, ducklake_snapshot_changes),
 * which serves what the cache's own index would. None of these indexes refuses a
 * row: only the constraints the client declared do.
 */
static bool
key_is_unique(sqlite3 *db, const char *table, const KvTable *kv)
{
	sqlite3_stmt *list = prepare(db, "SELECT name FROM pragma_index_list(?1) WHERE \"unique\" AND NOT partial");
	sqlite3_stmt *info = prepare(db, "SELECT name FROM pragma_index_info(?1)");
	bool		found = false;

	if (list && info)
	{
		sqlite3_bind_text(list, 1, table, -1, SQLITE_STATIC);
		while (!found && sqlite3_step(list) == SQLITE_ROW)
		{
			int			n = 0;
			bool		all_key = true;

			sqlite3_reset(info);
			sqlite3_bind_text(info, 1, (const char *) sqlite3_column_text(list, 0), -1, SQLITE_TRANSIENT);
			while (sqlite3_step(info) == SQLITE_ROW)
			{
				const char *column = (const char *) sqlite3_column_text(info, 0);
				bool		in_key = false;

				for (int k = 0; column && k < kv_table_nkey(kv); k++)
					in_key |= strcmp(column, kv_table_column_name(kv, kv_table_key_column(kv, k))) == 0;
				all_key &= in_key;
				n++;
			}
			found = all_key && n == kv_table_nkey(kv);
		}
	}
	sqlite3_finalize(list);
	sqlite3_finalize(info);
	return found;
}

static void
create_cache_indexes(sqlite3 *db, const char *table)
{
	const KvTable *kv = kv_table_by_name(cache_unqualified_name(table));

	if (kv == NULL)
		return;

	RlBuf		key;

	rlbuf_init(&key);
	for (int k = 0; k < kv_table_nkey(kv); k++)
	{
		if (k)
			rlbuf_append_str(&key, ", ");
		append_identifier(&key, kv_table_column_name(kv, kv_table_key_column(kv, k)));
	}
	if (!key_is_unique(db, table, kv))
		create_index(db, table, "", rlbuf_cstr(&key));
	rlbuf_free(&key);
	for (size_t i = 0; i < sizeof(read_indexes) / sizeof(read_indexes[0]); i++)
		if (strcmp(read_indexes[i].table, cache_unqualified_name(table)) == 0)
			create_index(db, table, "_read", read_indexes[i].columns);
}

static void
create_relation(ApplyState *st, const char *name, const char *sql)
{
	char	   *err = NULL;

	if (sqlite3_exec(st->cache->db, sql, NULL, NULL, &err) == SQLITE_OK)
		create_cache_indexes(st->cache->db, name);
	else
	{
		if (err && strstr(err, "already exists"))
			set_conflict(st, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
		else
			set_conflict(st, ERRCODE_INTERNAL_ERROR, "could not create relation \"%s\": %s",
						 name, err ? err : "failed");
	}
	sqlite3_free(err);
}

/*
 * cache_rebuild_table -- the table old_name renamed to new_name and, when new_sql is
 * given, made again from it: the columns both versions have keep their values, the
 * others take their defaults; the cache's own indexes are made again
 */
RlStatus
cache_rebuild_table(sqlite3 *db, const char *old_name, const char *new_name, const char *new_sql)
{
	RlStatus	rc = RL_OK;
	RlBuf		sql;
	sqlite3_stmt *stmt;

	rlbuf_init(&sql);
	if (strcmp(old_name, new_name) != 0)
	{
		rlbuf_append_str(&sql, "ALTER TABLE ");
		append_identifier(&sql, old_name);
		rlbuf_append_str(&sql, " RENAME TO ");
		append_identifier(&sql, new_name);
		rc = exec_sql(db, rlbuf_cstr(&sql));
	}
	if (rc == RL_OK && new_sql)
	{
		RlBuf		columns;

		rlbuf_reset(&sql);
		rlbuf_append_str(&sql, "ALTER TABLE ");
		append_identifier(&sql, new_name);
		rlbuf_append_str(&sql, " RENAME TO \"rl_migrating\"");
		rc = exec_sql(db, rlbuf_cstr(&sql));
		if (rc == RL_OK)
			rc = exec_sql(db, new_sql);
		/* copy the columns both versions have */
		rlbuf_init(&columns);
		stmt = prepare(db, "SELECT n.name FROM pragma_table_info(?) n "
					   "JOIN pragma_table_info('rl_migrating') o ON o.name = n.name ORDER BY n.cid");
		if (rc == RL_OK && stmt)
		{
			sqlite3_bind_text(stmt, 1, new_name, -1, SQLITE_STATIC);
			while (sqlite3_step(stmt) == SQLITE_ROW)
			{
				if (columns.len)
					rlbuf_append_str(&columns, ", ");
				append_identifier(&columns, (const char *) sqlite3_column_text(stmt, 0));
			}
		}
		sqlite3_finalize(stmt);
		rlbuf_reset(&sql);
		rlbuf_append_str(&sql, "INSERT INTO ");
		append_identifier(&sql, new_name);
		rlbuf_printf(&sql, " (%s) SELECT %s FROM \"rl_migrating\"; DROP TABLE \"rl_migrating\";",
					 rlbuf_cstr(&columns), rlbuf_cstr(&columns));
		if (rc == RL_OK)
			rc = exec_sql(db, rlbuf_cstr(&sql));
		rlbuf_free(&columns);
	}
	rlbuf_free(&sql);
	if (rc == RL_OK)
		create_cache_indexes(db, new_name);
	return rc;
}

/*
 * A relation whose rl_relation row changes name or CREATE statement: its rows' keys
 * under the old layout go now, the table is renamed or rebuilt from the new statement
 * (columns whose names survive keep their values), and pass 3 stores every row again.
 */
static RlStatus
rewrite_relation(ApplyState *st, int64_t relid, const char *new_name, const char *new_sql)
{
	sqlite3    *db = st->cache->db;
	sqlite3_stmt *stmt = prepare(db, "SELECT relname, sql FROM " CACHE_RELATION_TABLE " WHERE relid = ?");
	char	   *old_name = NULL;
	RelationMap old_map;
	RlStatus	rc = RL_OK;

	if (stmt == NULL)
		return sqlite_failure(db, "read relation");
	sqlite3_bind_int64(stmt, 1, relid);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		old_name = strdup((const char *) sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	if (old_name == NULL)
	{
		set_conflict(st, ERRCODE_T_R_SERIALIZATION_FAILURE,
					 "could not serialize access due to concurrent update");
		return RL_OK;
	}
	if (new_name == NULL)
		new_name = old_name;
	rc = relation_map(st->cache, old_name, &old_map);
	if (rc == RL_OK)
		rc = emit_all_rows(db, &old_map, st->batch, false);
	relation_map_free(&old_map);
	if (rc == RL_OK)
		rc = cache_rebuild_table(db, old_name, new_name, new_sql);
	if (rc == RL_OK)
	{
		name_list_add(&st->rewritten, new_name);
		mark_rescan(st, old_name);
		mark_rescan(st, new_name);
	}
	free(old_name);
	return rc;
}

/* check_shape -- a serialization failure unless table has the ncolumns it was computed with */
static void
check_shape(ApplyState *st, const char *table, int ncolumns)
{
	int			have = table_column_count(st->cache, table);

	/*
	 * rows written before an ALTER TABLE ... ADD COLUMN of the same changeset fit its
	 * table, whose every row pass 3 stores again
	 */
	if (have > ncolumns && name_list_has(&st->created, table) && !name_list_has(&st->rewritten, table))
		name_list_add(&st->rewritten, table);
	if (have != ncolumns && !(name_list_has(&st->rewritten, table) && ncolumns < have))
		set_conflict(st, ERRCODE_T_R_SERIALIZATION_FAILURE,
					 "could not serialize access due to concurrent update");
}

/*
 * largest_rowid -- the largest row id of table (INT64_MIN when it is empty); false
 * if it has none to ask for
 */
static bool
largest_rowid(CatalogCache *cache, const char *table, int64_t *rowid)
{
	RlBuf		sql;
	sqlite3_stmt *stmt;
	bool		found;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "SELECT max(" CACHE_ROWID_COLUMN ") FROM main.");
	append_identifier(&sql, table);
	stmt = stmt_cache_get(cache->statements, rlbuf_cstr(&sql));
	rlbuf_free(&sql);
	if (stmt == NULL)
		return false;
	found = sqlite3_step(stmt) == SQLITE_ROW;
	*rowid = found && sqlite3_column_type(stmt, 0) != SQLITE_NULL ? sqlite3_column_int64(stmt, 0) : INT64_MIN;
	stmt_cache_release(cache->statements, stmt, !found);
	return found;
}

/*
 * Pass 1: the physical DDL the changeset's rl_relation rows call for (created and
 * changed relations; dropped ones go in pass 3, after their rows), then a check that
 * every other table it touches has the columns it was computed with. SQLite skips the
 * rows of a table whose shape differs without a word, so a shape changed by another
 * commit meanwhile must be caught here, as a serialization failure.
 */
static RlStatus
prepare_schema(ApplyState *st, const void *changeset, size_t len)
{
	RlStatus	rc = RL_OK;
	ChangesetIter it;
	ChangesetStep step = CHANGESET_DONE;
	NameList	touched = {0};	/* the other tables, in the changeset's order ... */
	int		   *touched_columns = NULL;	/* ... and the columns it has for each */
	int64_t		last_rowid = 0;	/* the last touched table's largest row id, ... */
	bool		last_rowid_read = false;	/* ... once an insert asked for it */

	changeset_begin(&it, changeset, len);
	while (rc == RL_OK && !st->conflicted && (step = changeset_next(&it)) == CHANGESET_ROW)
	{
		if (strcmp(it.table, CACHE_RELATION_TABLE) != 0)
		{
			/* a changeset holds each table's rows together: note each table once */
			if (touched.n == 0 || strcmp(touched.names[touched.n - 1], it.table) != 0)
			{
				name_list_add(&touched, it.table);
				touched_columns = realloc(touched_columns, sizeof(int) * (size_t) touched.n);
				touched_columns[touched.n - 1] = it.ncolumns;
				last_rowid_read = false;
			}
			if (it.op == SQLITE_INSERT && !last_rowid_read)
			{
				last_rowid_read = true;
				if (!largest_rowid(st->cache, it.table, &last_rowid))
					mark_rescan(st, it.table);
			}
			if (it.op != SQLITE_INSERT || changeset_int64(changeset_new(&it, 0)) <= last_rowid)
				mark_rescan(st, it.table);
			continue;
		}
		if (it.ncolumns != 3 || it.op == SQLITE_DELETE)
			continue;

		char	   *name = changeset_text(changeset_new(&it, 1));
		char	   *sql = changeset_text(changeset_new(&it, 2));

		if (it.op == SQLITE_INSERT && name && sql)
		{
			create_relation(st, name, sql);
			name_list_add(&st->created, name);
			mark_rescan(st, name);
		}
		else if (name || sql)
			rc = rewrite_relation(st, changeset_int64(changeset_old(&it, 0)), name, sql);
		st->cache->shapes_checked = false;	/* DDL ran */
		free(name);
		free(sql);
	}
	if (step == CHANGESET_CORRUPT && rc == RL_OK && !st->conflicted)
		rc = rl_error(RL_INVALID, "malformed changeset");
	changeset_end(&it);
	for (int i = 0; rc == RL_OK && !st->conflicted && i < touched.n; i++)
		check_shape(st, touched.names[i], touched_columns[i]);
	name_list_free(&touched);
	free(touched_columns);
	return rc;
}

/* ---------------------------------------------------------------- applying a changeset */

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

static void
table_apply_free(StmtCache *stmts, TableApply *t)
{
	free(t->table);
	table_columns_free(&t->loaded);
	for (int i = 0; i < APPLY_NSTMTS; i++)
		stmt_cache_release(stmts, t->stmt[i], false);
	memset(t, 0, sizeof(*t));
}

static char *
buf_detach(RlBuf *buf)
{
	char	   *text = strdup(rlbuf_cstr(buf));

	rlbuf_reset(buf);
	return text;
}

/*
 * table_apply_plan -- the statements for the changes the iterator is on, made into
 * columns' plan unless it has them already; t->skip if the table cannot take them
 */
/*
 * append_and -- " AND " before the k-th comparison of a row's columns, in groups of
 * APPLY_AND_GROUP in parentheses (the caller closes the last): SQLite counts an AND
 * chain's length in its expression depth (at most 1000), and a table has up to
 * 1 600 columns.
 */
#define APPLY_AND_GROUP 64

static void
append_and(RlBuf *sql, int k)
{
	if (k > 0 && k % APPLY_AND_GROUP == 0)
		rlbuf_append_str(sql, ")");
	rlbuf_append_str(sql, k % APPLY_AND_GROUP == 0 ? " AND (" : " AND ");
}

static void
table_apply_plan(const ChangesetIter *it, TableColumns *columns, TableApply *t)
{
	const uint8_t *pk = it->pk;
	int			n = it->ncolumns;
	RlBuf		sql,
				where;
	char	  **names = columns->names;

	t->table = strdup(it->table);
	t->ncolumns = n;
	t->sql = columns->plan_sql;
	/* as sqlite3changeset_apply: a table that is gone or has fewer columns is skipped */
	t->skip = columns->n < n;
	if (t->skip || (columns->plan_ncolumns == n && memcmp(columns->plan_pk, pk, (size_t) n) == 0))
		return;
	free(columns->plan_pk);
	for (int i = 0; i < APPLY_NSTMTS; i++)
		free(columns->plan_sql[i]);
	columns->plan_ncolumns = n;
	columns->plan_pk = malloc((size_t) n);
	memcpy(columns->plan_pk, pk, (size_t) n);
	rlbuf_init(&sql);
	rlbuf_init(&where);
	for (int i = 0; i < n; i++)
		if (pk[i])
		{
			rlbuf_append_str(&where, where.len ? " AND " : " WHERE ");
			append_identifier(&where, names[i]);
			rlbuf_append_str(&where, " = ?");
			rlbuf_append_int(&where, i + 1);
		}
	/* INSERT: the changeset's columns; a table with more gives the rest their defaults */
	rlbuf_append_str(&sql, "INSERT INTO main.");
	append_identifier(&sql, columns->table);
	for (int i = 0; i < n; i++)
	{
		rlbuf_append_str(&sql, i ? ", " : " (");
		append_identifier(&sql, names[i]);
	}
	rlbuf_append_str(&sql, ") VALUES (");
	for (int i = 0; i < n; i++)
	{
		rlbuf_append_str(&sql, i ? ", ?" : "?");
		rlbuf_append_int(&sql, n + i + 1);
	}
	rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_INSERT] = buf_detach(&sql);

	/* DELETE: the row as the changeset last saw it */
	rlbuf_append_str(&sql, "DELETE FROM main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	int			k = 0;

	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			append_and(&sql, k++);
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " IS ?");
			rlbuf_append_int(&sql, i + 1);
		}
	if (k > 0)
		rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_DELETE] = buf_detach(&sql);

	/* UPDATE: the changed columns, if they still hold their old values */
	rlbuf_append_str(&sql, "UPDATE main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, " SET ");
	bool		first = true;

	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			if (!first)
				rlbuf_append_str(&sql, ", ");
			first = false;
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " = CASE WHEN ?");
			rlbuf_append_int(&sql, 2 * n + i + 1);
			rlbuf_append_str(&sql, " THEN ?");
			rlbuf_append_int(&sql, n + i + 1);
			rlbuf_append_str(&sql, " ELSE ");
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " END");
		}
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	k = 0;
	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			append_and(&sql, k++);
			rlbuf_append_str(&sql, "(NOT ?");
			rlbuf_append_int(&sql, 2 * n + i + 1);
			rlbuf_append_str(&sql, " OR ");
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " IS ?");
			rlbuf_append_int(&sql, i + 1);
			rlbuf_append_str(&sql, ")");
		}
	if (k > 0)
		rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_UPDATE] = first ? NULL : buf_detach(&sql);

	rlbuf_reset(&sql);
	rlbuf_append_str(&sql, "SELECT 1 FROM main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	columns->plan_sql[APPLY_EXISTS] = buf_detach(&sql);
	rlbuf_free(&sql);
	rlbuf_free(&where);
}

/*
 * bind_change -- the change's old and new values and changed flags, as TableApply's
 * parameters. Every parameter is bound, undefined values as NULL: the values point
 * into the changeset (SQLITE_STATIC), and a kept statement must not hold a pointer
 * into an earlier one.
 */
static void
bind_change(sqlite3_stmt *stmt, const ChangesetIter *it, int n, bool old_as_new)
{
	int			nparams = sqlite3_bind_parameter_count(stmt);

	for (int i = 0; i < n; i++)
	{
		const KvDatum *old = changeset_old(it, i),
				   *new = changeset_new(it, i);

		if (old_as_new && old == NULL)
			old = new;			/* an INSERT's primary key, for exists_sql */
		if (i + 1 <= nparams)
			bind_datum(stmt, i + 1, old);
		if (n + i + 1 <= nparams)
			bind_datum(stmt, n + i + 1, new);
		if (2 * n + i + 1 <= nparams)
			sqlite3_bind_int(stmt, 2 * n + i + 1, new != NULL);
	}
}

/* run_change -- step TableApply statement which for the change: SQLITE_DONE or an error code */
static int
run_change(sqlite3 *db, StmtCache *stmts, TableApply *t, int which, const ChangesetIter *it, bool *row)
{
	if (t->stmt[which] == NULL && (t->stmt[which] = stmt_cache_get(stmts, t->sql[which])) == NULL)
		return sqlite3_errcode(db);

	sqlite3_stmt *stmt = t->stmt[which];

	bind_change(stmt, it, t->ncolumns, which == APPLY_EXISTS);
	int			rc = sqlite3_step(stmt);

	if (row)
		*row = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	if (rc != SQLITE_DONE)
		rc = sqlite3_extended_errcode(db);
	sqlite3_reset(stmt);
	return rc;
}

/* apply_changeset -- cache_apply_changeset, with the writer's kept table shapes if kept is set */
static int
apply_changeset(sqlite3 *db, StmtCache *stmts, CatalogCache *kept, const void *changeset, size_t len,
				int (*filter) (void *arg, const char *table),
				int (*conflict) (void *arg, int reason, const ChangesetIter *it), void *arg)
{
	ChangesetIter it;
	ChangesetStep next = CHANGESET_DONE;
	TableApply	t = {0};
	int			rc = SQLITE_OK;

	changeset_begin(&it, changeset, len);
	while (rc == SQLITE_OK && (next = changeset_next(&it)) == CHANGESET_ROW)
	{
		const char *table = it.table;
		int			n = it.ncolumns,
					op = it.op,
					step,
					reason = 0;
		bool		found;

		if (t.table == NULL || strcmp(t.table, table) != 0 || t.ncolumns != n)
		{
			table_apply_free(stmts, &t);
			if (filter && !filter(arg, table))
			{
				t.table = strdup(table);
				t.ncolumns = n;
				t.skip = true;
			}
			else
			{
				TableColumns *columns = &t.loaded;
				RlStatus	crc = kept ? table_columns(kept, table, &columns)
					: load_columns(db, stmts, table, &t.loaded);

				if (crc != RL_OK)
				{
					rc = sqlite3_errcode(db);
					break;
				}
				table_apply_plan(&it, columns, &t);
			}
		}
		if (t.skip || (op == SQLITE_UPDATE && t.sql[APPLY_UPDATE] == NULL))
			continue;
		switch (op)
		{
			case SQLITE_INSERT:
				step = run_change(db, stmts, &t, APPLY_INSERT, &it, NULL);
				if ((step & 0xff) == SQLITE_CONSTRAINT)
				{
					step = run_change(db, stmts, &t, APPLY_EXISTS, &it, &found);
					reason = found ? SQLITE_CHANGESET_CONFLICT : SQLITE_CHANGESET_CONSTRAINT;
				}
				break;
			default:
				step = run_change(db, stmts, &t, op == SQLITE_DELETE ? APPLY_DELETE : APPLY_UPDATE, &it, NULL);
				if (step == SQLITE_DONE && sqlite3_changes(db) == 0)
				{
					step = run_change(db, stmts, &t, APPLY_EXISTS, &it, &found);
					reason = found ? SQLITE_CHANGESET_DATA : SQLITE_CHANGESET_NOTFOUND;
				}
				else if ((step & 0xff) == SQLITE_CONSTRAINT)
				{
					step = SQLITE_DONE;
					reason = SQLITE_CHANGESET_CONSTRAINT;
				}
				break;
		}
		if (step != SQLITE_DONE)
			rc = step;
		else if (reason && conflict(arg, reason, &it) != SQLITE_CHANGESET_OMIT)
			rc = SQLITE_ABORT;
	}
	if (rc == SQLITE_OK && next == CHANGESET_CORRUPT)
		rc = SQLITE_CORRUPT;
	table_apply_free(stmts, &t);
	changeset_end(&it);
	return rc;
}

int
cache_apply_changeset(sqlite3 *db, StmtCache *stmts, const void *changeset, size_t len,
					  int (*filter) (void *arg, const char *table),
					  int (*conflict) (void *arg, int reason, const ChangesetIter *it), void *arg)
{
	return apply_changeset(db, stmts, NULL, changeset, len, filter, conflict, arg);
}

/* ---------------------------------------------------------------- apply: pass 2 */

/* append_datum_text -- a key value as PostgreSQL's output function writes it */
static void
append_datum_text(RlBuf *out, const KvDatum *d)
{
	char		num[32];

	switch (d ? d->type : KV_NULL)
	{
		case KV_NULL:
			rlbuf_append_str(out, "null");
			break;
		case KV_INT64:
			rlbuf_printf(out, "%lld", (long long) d->i);
			break;
		case KV_BOOL:
			rlbuf_append_str(out, d->b ? "t" : "f");
			break;
		case KV_DOUBLE:
			/* the shortest digits that read back as the same double, as float8out's */
			for (int digits = 1; digits <= 17; digits++)
			{
				snprintf(num, sizeof(num), "%.*g", digits, d->d);
				if (strtod(num, NULL) == d->d)
					break;
			}
			rlbuf_append_str(out, num);
			break;
		case KV_TEXT:
		case KV_BYTES:
			rlbuf_append(out, d->s, d->len);
			break;
	}
}

/*
 * key_detail -- PostgreSQL's "Key (a, b)=(1, x) already exists." for the row whose key
 * SQLite's message ("UNIQUE constraint failed: t.a, t.b") names; row has table's
 * columns in order (a changeset's). False if a column is not found.
 */
static bool
key_detail(sqlite3 *db, const char *table, const char *msg, const KvDatum *const *row, int ncolumns,
		   char *out, size_t outlen)
{
	const char *cols = strchr(msg, ':');
	sqlite3_stmt *stmt = prepare(db, "SELECT cid FROM pragma_table_info(?1) WHERE name = ?2");
	RlBuf		keys,
				values;
	bool		ok = stmt != NULL && cols != NULL;

	rlbuf_init(&keys);
	rlbuf_init(&values);
	for (const char *c = cols; ok && c != NULL; c = strstr(c + 1, ", "))
	{
		const char *dot = strchr(cache_unqualified_name(c + 2), '.');
		char	   *column = dot ? strndup(dot + 1, strcspn(dot + 1, ",")) : NULL;
		int			cid;

		sqlite3_reset(stmt);
		sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(stmt, 2, column ? column : "", -1, SQLITE_TRANSIENT);
		cid = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
		ok = column != NULL && cid >= 0 && cid < ncolumns;
		if (ok)
		{
			rlbuf_printf(&keys, "%s%s", keys.len ? ", " : "", PG_NAME(column));
			if (values.len)
				rlbuf_append_str(&values, ", ");
			append_datum_text(&values, row[cid]);
		}
		free(column);
	}
	sqlite3_finalize(stmt);
	if (ok)
		snprintf(out, outlen, "Key (%s)=(%s) already exists.", rlbuf_cstr(&keys), rlbuf_cstr(&values));
	rlbuf_free(&keys);
	rlbuf_free(&values);
	return ok;
}

/* namespace_name -- the name of the schema table is in, into out ("" if not found) */
static void
namespace_name(sqlite3 *db, const char *table, char *out, size_t outlen)
{
	int64_t		nsp = cache_name_namespace(table);
	sqlite3_stmt *stmt = nsp ? prepare(db, "SELECT nspname FROM main." CACHE_NAMESPACE_TABLE " WHERE nspid = ?1")
		: NULL;

	snprintf(out, outlen, "%s", nsp ? "" : "public");
	if (stmt == NULL)
		return;
	sqlite3_bind_int64(stmt, 1, nsp);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		snprintf(out, outlen, "%s", (const char *) sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
}

/*
 * unique_conflict -- 23505 naming the constraint SQLite's message names, if it does,
 * with PostgreSQL's detail and fields for row (table's columns in order)
 */
static void
unique_conflict(ApplyState *st, const char *table, const KvDatum *const *row, int ncolumns)
{
	sqlite3    *db = st->cache->db;
	char	   *msg = strdup(sqlite3_errmsg(db));	/* the lookups below replace it */
	char	   *name = cache_unique_violation(db, msg, NULL);
	bool		first = !st->conflicted;

	if (name)
		set_conflict(st, ERRCODE_UNIQUE_VIOLATION, "duplicate key value violates unique constraint \"%s\"", name);
	else
		set_conflict(st, ERRCODE_UNIQUE_VIOLATION,
					 "duplicate key value violates unique constraint \"%s_key\"", PG_NAME(table));
	if (first && name && msg)
	{
		CacheConflict *c = st->conflict;

		snprintf(c->constraint_name, sizeof(c->constraint_name), "%s", name);
		snprintf(c->table_name, sizeof(c->table_name), "%s", PG_NAME(table));
		namespace_name(db, table, c->schema_name, sizeof(c->schema_name));
		if (!key_detail(db, table, msg, row, ncolumns, c->detail, sizeof(c->detail)))
			c->detail[0] = '\0';
	}
	free(msg);
	free(name);
}

static int
on_conflict(void *arg, int reason, const ChangesetIter *it)
{
	ApplyState *st = arg;
	const char *table = it->table;

	switch (reason)
	{
		case SQLITE_CHANGESET_DATA:
		case SQLITE_CHANGESET_NOTFOUND:
			set_conflict(st, ERRCODE_T_R_SERIALIZATION_FAILURE,
						 "could not serialize access due to concurrent update");
			return SQLITE_CHANGESET_ABORT;
		case SQLITE_CHANGESET_CONFLICT:
			/* a schema's id is in its tables' names: another commit's schema took it */
			if (it->op == SQLITE_INSERT && strcmp(table, CACHE_NAMESPACE_TABLE) != 0)
			{
				/* another commit took this row id: insert the row again under a new one */
				Reinsert   *r;

				st->reinserts = realloc(st->reinserts, sizeof(Reinsert) * (size_t) (st->n_reinserts + 1));
				r = &st->reinserts[st->n_reinserts++];
				r->table = strdup(table);
				r->ncolumns = it->ncolumns;
				r->values = calloc((size_t) it->ncolumns, sizeof(KvDatum));
				for (int i = 0; i < it->ncolumns; i++)
					r->values[i] = *changeset_new(it, i);
				r->old_rowid = changeset_int64(&r->values[0]);
				r->new_rowid = 0;
				return SQLITE_CHANGESET_OMIT;
			}
			set_conflict(st, ERRCODE_T_R_SERIALIZATION_FAILURE,
						 "could not serialize access due to concurrent update");
			return SQLITE_CHANGESET_ABORT;
		case SQLITE_CHANGESET_CONSTRAINT:
			unique_conflict(st, table, it->new, it->ncolumns);
			return SQLITE_CHANGESET_ABORT;
		default:
			set_conflict(st, ERRCODE_INTEGRITY_CONSTRAINT_VIOLATION,
						 "change to \"%s\" violates a constraint", PG_NAME(table));
			return SQLITE_CHANGESET_ABORT;
	}
}

static RlStatus
insert_again(ApplyState *st, Reinsert *r)
{
	RlBuf		sql;
	sqlite3    *db = st->cache->db;

	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "INSERT INTO ");
	append_identifier(&sql, r->table);
	rlbuf_append_str(&sql, " VALUES (NULL");
	for (int i = 1; i < r->ncolumns; i++)
		rlbuf_append_str(&sql, ", ?");
	rlbuf_append_str(&sql, ")");
	sqlite3_stmt *stmt = prepare(db, rlbuf_cstr(&sql));

	rlbuf_free(&sql);
	if (stmt == NULL)
		return sqlite_failure(db, "insert again");
	for (int i = 1; i < r->ncolumns; i++)
		bind_datum(stmt, i, &r->values[i]);
	int			step = sqlite3_step(stmt);

	sqlite3_finalize(stmt);
	if (step == SQLITE_CONSTRAINT)
	{
		const KvDatum **row = calloc((size_t) r->ncolumns, sizeof(KvDatum *));

		for (int i = 0; row && i < r->ncolumns; i++)
			row[i] = &r->values[i];
		unique_conflict(st, r->table, row, row ? r->ncolumns : 0);
		free(row);
	}
	else if (step != SQLITE_DONE)
		return sqlite_failure(db, "insert again");
	r->new_rowid = sqlite3_last_insert_rowid(db);
	return RL_OK;
}

static int64_t
final_rowid(const ApplyState *st, const char *table, int64_t rowid)
{
	for (int i = 0; i < st->n_reinserts; i++)
		if (st->reinserts[i].old_rowid == rowid && strcmp(st->reinserts[i].table, table) == 0)
			return st->reinserts[i].new_rowid;
	return rowid;
}

/* ---------------------------------------------------------------- apply: pass 3 */

/* put_row -- a row, given as its column values (the row id first), into the batch; its key into key_out */
static RlStatus
put_row(ApplyState *st, const RelationMap *map, const KvDatum *const *values, RlBuf *key_out)
{
	RlBuf		value;
	RlStatus	rc;

	rlbuf_init(&value);
	rc = encode_row(map, values, key_out, &value);
	if (rc == RL_OK)
		lsm_batch_put(st->batch, key_out->data, key_out->len, value.data, value.len);
	rlbuf_free(&value);
	return rc;
}

/*
 * put_current_row -- the current state of a row (by row id) into the batch, its key
 * into key_out; with old, the changeset's old values of the row (NULL where a column
 * did not change), also the key the row had before into old_key
 */
static RlStatus
put_current_row(ApplyState *st, RelationMap *map, int64_t rowid, RlBuf *key_out,
				const KvDatum *const *old, RlBuf *old_key)
{
	sqlite3_stmt *stmt = NULL;
	int			step = read_row(map, rowid, &stmt);
	RlStatus	rc = RL_OK;

	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return sqlite_failure(st->cache->db, "read changed row");
	if (step == SQLITE_ROW)
	{
		const KvDatum **values = statement_row(stmt, map->ncolumns);

		rc = values ? put_row(st, map, values, key_out) : rl_error(RL_IO_ERROR, "out of memory");
		if (rc == RL_OK && old)
		{
			for (int i = 0; i < map->ncolumns; i++)
				if (old[i])
					values[i] = old[i];
			rc = encode_row(map, values, old_key, NULL);
		}
		free(values);
	}
	sqlite3_reset(stmt);
	return rc;
}

/* Rows of a dropped relation go, and so does its table. */
static RlStatus
drop_relation(ApplyState *st, const char *name, int64_t relid)
{
	if (name)
		mark_rescan(st, name);
	RelationMap map;
	RlStatus	rc = relation_map_shape(st->cache, name, relid, &map);
	RlBuf		sql;

	if (rc == RL_OK && map.ncolumns > 0)
		rc = emit_all_rows(st->cache->db, &map, st->batch, false);
	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "DROP TABLE IF EXISTS ");
	append_identifier(&sql, name);
	if (rc == RL_OK)
		rc = exec_sql(st->cache->db, rlbuf_cstr(&sql));
	st->cache->shapes_checked = false;	/* DDL ran */
	rlbuf_free(&sql);
	relation_map_free(&map);
	return rc;
}

static RlStatus
emit_relation_change(ApplyState *st, const ChangesetIter *it)
{
	RelationMap catalog = {.relid = 0, .name = (char *) CACHE_RELATION_TABLE, .ncolumns = 3, .cache = st->cache};
	RlBuf		key;
	RlStatus	rc = RL_OK;

	rlbuf_init(&key);
	if (it->op == SQLITE_DELETE)
	{
		int64_t		relid = changeset_int64(changeset_old(it, 0));
		char	   *name = changeset_text(changeset_old(it, 1));

		kv_generic_key(0, (uint64_t) relid, &key);
		lsm_batch_delete(st->batch, key.data, key.len);
		rc = drop_relation(st, name, relid);
		free(name);
	}
	else
	{
		const KvDatum *relid = changeset_new(it, 0) ? changeset_new(it, 0) : changeset_old(it, 0);

		rc = put_current_row(st, &catalog, final_rowid(st, CACHE_RELATION_TABLE, changeset_int64(relid)),
							 &key, NULL, NULL);
		stmt_cache_release(st->cache->statements, catalog.row_by_id, false);
	}
	rlbuf_free(&key);
	return rc;
}

static RlStatus
emit_row_change(ApplyState *st, ChangesetIter *it, RelationMap *map)
{
	RlBuf		key,
				old_key;
	RlStatus	rc = RL_OK;

	rlbuf_init(&key);
	rlbuf_init(&old_key);
	if (it->op == SQLITE_DELETE)
	{
		rc = encode_row(map, it->old, &key, NULL);
		if (rc == RL_OK)
			lsm_batch_delete(st->batch, key.data, key.len);
	}
	else if (it->op == SQLITE_INSERT)
	{
		/* the row as the cache holds it: the changeset's values, under its final row id */
		KvDatum		rowid = {.type = KV_INT64,
		.i = final_rowid(st, it->table, changeset_int64(changeset_new(it, 0)))};

		const KvDatum *changeset_rowid = it->new[0];

		it->new[0] = &rowid;
		rc = put_row(st, map, it->new, &key);
		it->new[0] = changeset_rowid;
	}
	else
	{
		int64_t		rowid = final_rowid(st, it->table, changeset_int64(changeset_old(it, 0)));

		rc = put_current_row(st, map, rowid, &key, map->kv ? it->old : NULL, &old_key);
		if (rc == RL_OK && old_key.len &&
			(old_key.len != key.len || memcmp(old_key.data, key.data, key.len) != 0))
			lsm_batch_delete(st->batch, old_key.data, old_key.len);
	}
	rlbuf_free(&key);
	rlbuf_free(&old_key);
	return rc;
}

static RlStatus
emit_mutations(ApplyState *st, const void *changeset, size_t len)
{
	ChangesetIter it;
	ChangesetStep step = CHANGESET_DONE;
	RlStatus	rc = RL_OK;
	RelationMap map = {0};

	changeset_begin(&it, changeset, len);
	while (rc == RL_OK && !st->conflicted && (step = changeset_next(&it)) == CHANGESET_ROW)
	{
		const char *table = it.table;

		if (strcmp(table, CACHE_RELATION_TABLE) == 0)
		{
			rc = emit_relation_change(st, &it);
			relation_map_free(&map);	/* names may have moved */
			continue;
		}
		if (map.name == NULL || strcmp(map.name, table) != 0)
		{
			relation_map_free(&map);
			rc = relation_map(st->cache, table, &map);
			if (rc == RL_NOT_FOUND)
				rc = rl_error(RL_INVALID, "changeset changes \"%s\", which is not a relation", table);
		}
		if (name_list_has(&st->rewritten, table))
			continue;			/* emit_all_rows stores all of it below */
		if (rc == RL_OK && it.ncolumns != map.ncolumns)
			rc = rl_error(RL_INVALID, "changeset has %d columns for \"%s\", the table %d",
						  it.ncolumns, table, map.ncolumns);
		if (rc == RL_OK)
			rc = emit_row_change(st, &it, &map);
	}
	if (step == CHANGESET_CORRUPT && rc == RL_OK)
		rc = rl_error(RL_INVALID, "malformed changeset");
	relation_map_free(&map);
	changeset_end(&it);
	for (int i = 0; rc == RL_OK && !st->conflicted && i < st->rewritten.n; i++)
	{
		rc = relation_map(st->cache, st->rewritten.names[i], &map);
		if (rc == RL_OK)
			rc = emit_all_rows(st->cache->db, &map, st->batch, true);
		relation_map_free(&map);
	}
	return rc;
}

/* ---------------------------------------------------------------- apply */

/*
 * record_rescan -- CACHE_SCAN_BASE_TABLE's row for table: the commits from seq on
 * (the cache's next: snapshots are the cache's commits, so none lies between) may
 * have changed its rows other than by appending
 */
static RlStatus
record_rescan(CatalogCache *cache, const char *table, uint64_t seq)
{
	sqlite3_stmt *stmt = stmt_cache_get(cache->statements, "INSERT OR REPLACE INTO " CACHE_SCAN_BASE_TABLE
										" (relname, seq) VALUES (?1, ?2)");
	int			step;

	if (stmt == NULL)
		return sqlite_failure(cache->db, "record a table's rescan");
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(stmt, 2, (int64_t) seq);
	step = sqlite3_step(stmt);
	stmt_cache_release(cache->statements, stmt, step != SQLITE_DONE);
	return step == SQLITE_DONE ? RL_OK : sqlite_failure(cache->db, "record a table's rescan");
}

RlStatus
catalog_cache_begin(CatalogCache *cache)
{
	RlStatus	rc = exec_kept(cache, "BEGIN IMMEDIATE");

	cache->in_transaction = rc == RL_OK;
	return rc;
}

RlStatus
catalog_cache_apply(CatalogCache *cache, const void *changeset, size_t len,
					LsmBatch *batch, CacheConflict *conflict)
{
	ApplyState	st = {.cache = cache, .conflict = conflict, .batch = batch};
	RlStatus	rc;
	LsmBatch   *mine = lsm_batch_new();

	memset(conflict, 0, sizeof(*conflict));
	st.batch = mine;
	cache->shapes_checked = false;
	rc = exec_kept(cache, "SAVEPOINT rl_apply");
	if (rc != RL_OK)
	{
		lsm_batch_free(mine);
		return rc;
	}
	rc = prepare_schema(&st, changeset, len);
	if (rc == RL_OK && !st.conflicted)
	{
		int			arc = apply_changeset(cache->db, cache->statements, cache, changeset, len, NULL,
										  on_conflict, &st);

		if (arc != SQLITE_OK && !st.conflicted)
			rc = arc == SQLITE_ABORT ? RL_OK : sqlite_failure(cache->db, "apply changeset");
	}
	for (int i = 0; rc == RL_OK && !st.conflicted && i < st.n_reinserts; i++)
		rc = insert_again(&st, &st.reinserts[i]);
	if (rc == RL_OK && !st.conflicted)
		rc = emit_mutations(&st, changeset, len);
	for (int i = 0; rc == RL_OK && !st.conflicted && i < st.rescan.n; i++)
		rc = record_rescan(cache, st.rescan.names[i], cache->seq + 1);
	if (rc == RL_OK && !st.conflicted)
	{
		rc = exec_kept(cache, "RELEASE rl_apply");
		lsm_batch_append(batch, mine);
	}
	else
	{
		exec_sql(cache->db, "ROLLBACK TO rl_apply; RELEASE rl_apply");
		forget_shapes(cache);
		if (rc == RL_OK)
			rc = RL_PRECONDITION;
	}
	for (int i = 0; i < st.n_reinserts; i++)
	{
		free(st.reinserts[i].values);
		free(st.reinserts[i].table);
	}
	free(st.reinserts);
	name_list_free(&st.rewritten);
	name_list_free(&st.created);
	name_list_free(&st.rescan);
	lsm_batch_free(mine);
	return rc;
}

static RlStatus
record_seq(CatalogCache *cache, uint64_t seq)
{
	sqlite3_stmt *stmt = stmt_cache_get(cache->statements, "INSERT OR REPLACE INTO " CACHE_META_TABLE
										" (name, value) VALUES ('commit_seq', ?)");

	if (stmt == NULL)
		return sqlite_failure(cache->db, "record commit_seq");
	sqlite3_bind_int64(stmt, 1, (int64_t) seq);
	int			step = sqlite3_step(stmt);

	stmt_cache_release(cache->statements, stmt, false);
	if (step != SQLITE_DONE)
		return sqlite_failure(cache->db, "record commit_seq");
	cache->seq = seq;
	return RL_OK;
}

RlStatus
catalog_cache_commit(CatalogCache *cache, uint64_t seq)
{
	RlStatus	rc = record_seq(cache, seq);

	if (rc == RL_OK)
		rc = exec_kept(cache, "COMMIT");
	if (rc != RL_OK)
		catalog_cache_abort(cache);
	cache->in_transaction = false;
	return rc;
}

/*
 * An error that ends a transaction (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) has
 * rolled it back already: a ROLLBACK then would fail and replace the error that
 * says why in rl_last_error.
 */
void
catalog_cache_abort(CatalogCache *cache)
{
	if (!sqlite3_get_autocommit(cache->db))
		exec_sql(cache->db, "ROLLBACK");
	forget_shapes(cache);
	cache->in_transaction = false;
	read_seq(cache);
}

/* ---------------------------------------------------------------- rebuild */

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

static bool
rebuild_row_cb(const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen, void *arg)
{
	RebuildScan *scan = arg;
	KvRow		row;
	uint32_t	relid;
	uint64_t	rowkey = 0;
	RlStatus	rc;

	if (!scan->generic)
	{
		const KvTable *table;
		KvDatum		components[KV_MAX_KEY_COLUMNS];
		bool		has_row_id;
		int64_t		row_id;

		rc = kv_decode_key(key, klen, &table, components, &has_row_id, &row_id);
		if (rc == RL_OK && has_row_id == scan->short_pass)
		{
			scan->nshort += !has_row_id;
			return true;		/* the other pass's */
		}
		if (rc == RL_OK && !has_row_id)
			row_id = scan->next_rowid++;
		else if (rc == RL_OK && row_id < scan->min_rowid)
			scan->min_rowid = row_id;
		rowkey = (uint64_t) row_id;
		if (rc == RL_OK)
			rc = kv_decode_value(scan->map->kv, value, vlen, &row);
	}
	else
	{
		rc = kv_decode_generic_key(key, klen, &relid, &rowkey);
		if (rc == RL_OK)
			rc = kv_decode_generic_value(value, vlen, &row);
		if (rc == RL_OK && (int64_t) rowkey < scan->min_rowid)
			scan->min_rowid = (int64_t) rowkey;
	}
	if (rc != RL_OK)
	{
		scan->status = rc;
		return false;
	}
	sqlite3_reset(scan->insert);
	sqlite3_clear_bindings(scan->insert);
	sqlite3_bind_int64(scan->insert, 1, (int64_t) rowkey);
	for (int i = 0; i < row.ncolumns && i + 2 <= scan->map->ncolumns; i++)
		bind_datum(scan->insert, i + 2, &row.columns[i]);
	if (sqlite3_step(scan->insert) != SQLITE_DONE)
		scan->status = sqlite_failure(scan->db, "rebuild: insert");
	if (scan->status == RL_OK && scan->short_pass)
	{
		sqlite3_reset(scan->note_short);
		sqlite3_bind_int64(scan->note_short, 1, scan->map->relid);
		sqlite3_bind_int64(scan->note_short, 2, (int64_t) rowkey);
		if (sqlite3_step(scan->note_short) != SQLITE_DONE)
			scan->status = sqlite_failure(scan->db, "rebuild: note a short key");
	}
	kv_row_free(&row);
	return scan->status == RL_OK;
}

static RlStatus
rebuild_relation(CatalogCache *cache, Lsm *lsm, const RelationMap *map)
{
	RlBuf		sql,
				prefix;
	RebuildScan scan = {.db = cache->db, .map = map, .generic = map->kv == NULL, .status = RL_OK,
	.min_rowid = INT64_MAX};

	rlbuf_init(&sql);
	rlbuf_init(&prefix);
	rlbuf_append_str(&sql, "INSERT INTO ");
	append_identifier(&sql, map->name);
	rlbuf_append_str(&sql, " VALUES (?");
	for (int i = 1; i < map->ncolumns; i++)
		rlbuf_append_str(&sql, ", ?");
	rlbuf_append_str(&sql, ")");
	scan.insert = prepare(cache->db, rlbuf_cstr(&sql));
	scan.note_short = prepare(cache->db, "INSERT INTO " CACHE_SHORT_KEY_TABLE " VALUES (?1, ?2)");
	if (scan.insert == NULL || scan.note_short == NULL)
		scan.status = sqlite_failure(cache->db, "rebuild: prepare insert");
	if (map->kv)
		kv_encode_key_prefix(map->kv, NULL, 0, &prefix);
	else
		kv_generic_prefix((uint32_t) map->relid, &prefix);
	if (scan.status == RL_OK)
	{
		RlStatus	rc = lsm_scan_prefix(lsm, prefix.data, prefix.len, rebuild_row_cb, &scan);

		if (rc != RL_OK)
			scan.status = rc;
	}
	if (scan.status == RL_OK && map->kv)
	{
		/* a DuckLake table's rows its layout cannot hold (encode_row) */
		RlBuf		generic;
		RlStatus	rc;

		rlbuf_init(&generic);
		kv_generic_prefix((uint32_t) map->relid, &generic);
		scan.generic = true;
		rc = lsm_scan_prefix(lsm, generic.data, generic.len, rebuild_row_cb, &scan);
		scan.generic = false;
		rlbuf_free(&generic);
		if (rc != RL_OK)
			scan.status = rc;
	}
	if (scan.status == RL_OK && scan.nshort > 0)
	{
		/* 1, 2 ... as the rebuild that first read them gave, below the others' row ids */
		scan.short_pass = true;
		scan.next_rowid = 1;
		if (scan.min_rowid <= scan.nshort && largest_rowid(cache, map->name, &scan.next_rowid))
			scan.next_rowid++;	/* no room (never so in a store this code wrote): above */
		cache->short_keys = true;

		RlStatus	rc = lsm_scan_prefix(lsm, prefix.data, prefix.len, rebuild_row_cb, &scan);

		if (rc != RL_OK)
			scan.status = rc;
	}
	sqlite3_finalize(scan.insert);
	sqlite3_finalize(scan.note_short);
	rlbuf_free(&sql);
	rlbuf_free(&prefix);
	return scan.status;
}

static bool
rebuild_relation_row_cb(const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen, void *arg)
{
	RebuildScan *scan = arg;
	KvRow		row;
	uint32_t	relid;
	uint64_t	rowkey;
	RlStatus	rc = kv_decode_generic_key(key, klen, &relid, &rowkey);

	if (rc == RL_OK)
		rc = kv_decode_generic_value(value, vlen, &row);
	if (rc == RL_OK && (row.ncolumns != 2 || row.columns[0].type != KV_TEXT || row.columns[1].type != KV_TEXT))
	{
		kv_row_free(&row);
		rc = rl_error(RL_CORRUPT, "relation %" PRIu64 " has a malformed catalog row", rowkey);
	}
	if (rc == RL_OK)
	{
		char	   *create = create_in_cache_form(row.columns[1].s, row.columns[1].len);
		RlBuf		relname;

		rlbuf_init(&relname);
		append_in_cache_form(&relname, row.columns[0].s, row.columns[0].len);
		sqlite3_reset(scan->insert);
		sqlite3_bind_int64(scan->insert, 1, (int64_t) rowkey);
		sqlite3_bind_text(scan->insert, 2, rlbuf_cstr(&relname), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(scan->insert, 3, create, -1, SQLITE_STATIC);
		rlbuf_free(&relname);
		if (sqlite3_step(scan->insert) != SQLITE_DONE)
			rc = sqlite_failure(scan->db, "rebuild: insert relation");
		else
			rc = exec_sql(scan->db, create);
		free(create);
		kv_row_free(&row);
	}
	scan->status = rc;
	return rc == RL_OK;
}

RlStatus
catalog_cache_rebuild(CatalogCache *cache, Lsm *lsm)
{
	RlStatus	rc = exec_sql(cache->db, "BEGIN IMMEDIATE");
	sqlite3_stmt *stmt;

	forget_shapes(cache);
	if (rc != RL_OK)
		return rc;
	/* drop everything the cache holds (names first: DROP needs no statement open) */
	RlBuf		drops;

	rlbuf_init(&drops);
	stmt = prepare(cache->db, "SELECT relname FROM " CACHE_RELATION_TABLE);
	while (stmt && sqlite3_step(stmt) == SQLITE_ROW)
	{
		rlbuf_append_str(&drops, "DROP TABLE IF EXISTS ");
		append_identifier(&drops, (const char *) sqlite3_column_text(stmt, 0));
		rlbuf_append_str(&drops, ";");
	}
	sqlite3_finalize(stmt);
	if (drops.len)
		rc = exec_sql(cache->db, rlbuf_cstr(&drops));
	rlbuf_free(&drops);
	if (rc == RL_OK)
		rc = exec_sql(cache->db, "DELETE FROM " CACHE_RELATION_TABLE "; DELETE FROM " CACHE_DATABASE_TABLE ";"
					  "DELETE FROM " CACHE_NAMESPACE_TABLE "; DELETE FROM " CACHE_SHORT_KEY_TABLE);

	/* the relations, then their rows */
	RebuildScan scan = {.db = cache->db, .status = RL_OK};
	RlBuf		prefix;

	rlbuf_init(&prefix);
	kv_generic_prefix(0, &prefix);
	scan.insert = prepare(cache->db, "INSERT INTO " CACHE_RELATION_TABLE " VALUES (?, ?, ?)");
	if (rc == RL_OK)
		rc = lsm_scan_prefix(lsm, prefix.data, prefix.len, rebuild_relation_row_cb, &scan);
	if (rc == RL_OK)
		rc = scan.status;
	sqlite3_finalize(scan.insert);
	rlbuf_free(&prefix);
	stmt = prepare(cache->db, "SELECT '" CACHE_DATABASE_TABLE "' UNION ALL SELECT '" CACHE_NAMESPACE_TABLE "'"
				   " UNION ALL SELECT relname FROM (SELECT relname FROM " CACHE_RELATION_TABLE " ORDER BY relid)");
	while (rc == RL_OK && stmt && sqlite3_step(stmt) == SQLITE_ROW)
	{
		RelationMap map;

		rc = relation_map(cache, (const char *) sqlite3_column_text(stmt, 0), &map);
		if (rc == RL_OK)
			rc = rebuild_relation(cache, lsm, &map);
		if (rc == RL_OK)
			create_cache_indexes(cache->db, map.name);
		relation_map_free(&map);
	}
	sqlite3_finalize(stmt);
	LsmStats	stats;

	lsm_stats(lsm, &stats);
	if (rc == RL_OK)
		rc = record_seq(cache, stats.last_seq);
	/* a new cache: no kept scan goes on from the old one's, nor a published one */
	if (rc == RL_OK)
		rc = exec_sql(cache->db, "DELETE FROM " CACHE_SCAN_BASE_TABLE ";"
					  "INSERT OR REPLACE INTO " CACHE_META_TABLE " VALUES ('" CACHE_ID_NAME "', random());"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " VALUES ('" CACHE_NAMES_MARK "', 1);"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " VALUES ('" CACHE_ROW_KEYS_MARK "', 1);"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " VALUES ('" CACHE_NUMERIC_MARK "', 1);"
					  "INSERT OR IGNORE INTO " CACHE_META_TABLE " VALUES ('" CACHE_AFFINITY_MARK "', 1)");
	if (rc == RL_OK)
		rc = record_rescan(cache, "", stats.last_seq + 1);
	if (rc == RL_OK)
		rc = exec_sql(cache->db, "COMMIT");
	if (rc != RL_OK)
		catalog_cache_abort(cache);
	return rc;
}

/* ---------------------------------------------------------------- waiting for the write lock */

#define BUSY_RETRY_US 200

static int
retry_when_busy(void *arg, int tries)
{
	struct timespec pause = {0, BUSY_RETRY_US * 1000L};

	if ((int64_t) tries * BUSY_RETRY_US >= (int64_t) CACHE_BUSY_TIMEOUT_MS * 1000)
		return 0;
	nanosleep(&pause, NULL);
	return 1;
}

void
cache_connection_setup(sqlite3 *db)
{
	sqlite3_busy_handler(db, retry_when_busy, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *) NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *) NULL);
	sqlite3_create_collation(db, NUMERIC_COLLATION, SQLITE_UTF8, NULL, numeric_collate);
}

/* ---------------------------------------------------------------- databases */

void
catalog_cache_path(char *out, size_t size, const char *data_directory, uint32_t datid)
{
	if (datid == CACHE_POSTGRES_DATID)
		snprintf(out, size, "%s/catalog.sqlite", data_directory);
	else
		snprintf(out, size, "%s/catalog.%u.sqlite", data_directory, datid);
}

RlStatus
catalog_find_database(const char *data_directory, const char *name, uint32_t *datid)
{
	char		path[4096];
	sqlite3    *db = NULL;
	sqlite3_stmt *stmt;
	RlStatus	rc;

	catalog_cache_path(path, sizeof(path), data_directory, CACHE_POSTGRES_DATID);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
	{
		rc = sqlite_failure(db, path);
		sqlite3_close(db);
		return rc;
	}
	cache_connection_setup(db);
	stmt = prepare(db, "SELECT datid FROM " CACHE_DATABASE_TABLE " WHERE datname = ?");
	if (stmt == NULL)
		rc = sqlite_failure(db, "look up database");
	else
	{
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		rc = sqlite3_step(stmt) == SQLITE_ROW ? RL_OK
			: rl_error(RL_NOT_FOUND, "database \"%s\" does not exist", name);
		if (rc == RL_OK)
			*datid = (uint32_t) sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
	}
	sqlite3_close(db);
	return rc;
}
