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

#include "catalog/catalog_cache_internal.h"

void
name_list_add(NameList *list, const char *name)
{
	list->names = realloc(list->names, sizeof(char *) * (size_t) (list->n + 1));
	list->names[list->n++] = strdup(name);
}

bool
name_list_has(const NameList *list, const char *name)
{
	for (int i = 0; i < list->n; i++)
		if (strcmp(list->names[i], name) == 0)
			return true;
	return false;
}

void
name_list_free(NameList *list)
{
	for (int i = 0; i < list->n; i++)
		free(list->names[i]);
	free(list->names);
}

/* mark_rescan -- table's rows changed other than by rows appended (CACHE_SCAN_BASE_TABLE) */
void
mark_rescan(ApplyState *st, const char *table)
{
	if (!name_list_has(&st->rescan, table))
		name_list_add(&st->rescan, table);
}

/* SQLite's message, and for a failed system call the system's ("File too large") */
RlStatus
sqlite_failure(sqlite3 *db, const char *what)
{
	int			code = sqlite3_errcode(db) & 0xff;

	if ((code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN) && sqlite3_system_errno(db) != 0)
		return rl_error(RL_IO_ERROR, "catalog cache: %s: %s (%s)", what, sqlite3_errmsg(db),
						strerror(sqlite3_system_errno(db)));
	return rl_error(RL_IO_ERROR, "catalog cache: %s: %s", what, sqlite3_errmsg(db));
}

RlStatus
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
RlStatus
exec_kept(CatalogCache *cache, const char *sql)
{
	return stmt_cache_run(cache->statements, sql) == SQLITE_OK ? RL_OK : sqlite_failure(cache->db, sql);
}

void
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
 * primary key (parse_utility.c's add_key declares a primary key's first column DESC)
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

/* "name" quoted as an SQL identifier, into out. */

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
void
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
char *
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

void
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

sqlite3_stmt *
prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	return stmt;
}

/* ---------------------------------------------------------------- open */

RlStatus
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
					  "CREATE TABLE IF NOT EXISTS " CACHE_AUTHID_TABLE
					  " (oid INTEGER PRIMARY KEY, rolname TEXT NOT NULL UNIQUE, rolsuper INTEGER NOT NULL,"
					  " rolcreaterole INTEGER NOT NULL, rolcreatedb INTEGER NOT NULL, rolcanlogin INTEGER NOT NULL,"
					  " rolconnlimit INTEGER NOT NULL, rolpassword TEXT, rolvaliduntil INTEGER);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_DATABASE_ACL_TABLE
					  " (aclid INTEGER PRIMARY KEY, datname TEXT NOT NULL UNIQUE, datdba INTEGER NOT NULL, datacl TEXT);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_AUTH_MEMBERS_TABLE
					  " (id INTEGER PRIMARY KEY, roleid INTEGER NOT NULL, member INTEGER NOT NULL,"
					  " grantor INTEGER NOT NULL, admin_option INTEGER NOT NULL, UNIQUE (roleid, member));"
					  "CREATE TABLE IF NOT EXISTS " CACHE_NOINHERIT_TABLE " (oid INTEGER PRIMARY KEY);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_CLASS_ACL_TABLE
					  " (aclid INTEGER PRIMARY KEY, relname TEXT NOT NULL UNIQUE, relowner INTEGER NOT NULL, relacl TEXT);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_NAMESPACE_ACL_TABLE " (nspid INTEGER PRIMARY KEY, nspacl TEXT);"
					  "CREATE TABLE IF NOT EXISTS " CACHE_DB_ROLE_SETTING_TABLE " (id INTEGER PRIMARY KEY,"
					  " datname TEXT NOT NULL, setrole INTEGER NOT NULL, setconfig TEXT NOT NULL, UNIQUE (datname, setrole));"
					  "CREATE TABLE IF NOT EXISTS " CACHE_PUBLISH_PIN_TABLE " (id INTEGER PRIMARY KEY,"
					  " datname TEXT NOT NULL, snapshot_id INTEGER NOT NULL, version_id TEXT NOT NULL UNIQUE);"
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

void
relation_map_free(RelationMap *map)
{
	if (map->cache)
	{
		stmt_cache_release(map->cache->statements, map->row_by_id, false);
	}
	free(map->name);
	memset(map, 0, sizeof(*map));
}

void
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
RlStatus
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
void
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
RlStatus
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
RlStatus
relation_map_shape(CatalogCache *cache, const char *name, int64_t relid, RelationMap *map)
{
	TableColumns *columns;
	RlStatus	rc;

	memset(map, 0, sizeof(*map));
	map->relid = relid;
	map->cache = cache;
	if ((rc = table_columns(cache, name, &columns)) != RL_OK)
		return rc;

	const KvTable *kv = relid == 0 || relid == CACHE_DATABASE_RELID || relid == CACHE_NAMESPACE_RELID ||
		relid == CACHE_AUTHID_RELID || relid == CACHE_DATABASE_ACL_RELID || relid == CACHE_AUTH_MEMBERS_RELID ||
		relid == CACHE_NOINHERIT_RELID || relid == CACHE_CLASS_ACL_RELID || relid == CACHE_NAMESPACE_ACL_RELID ||
		relid == CACHE_DB_ROLE_SETTING_RELID || relid == CACHE_PUBLISH_PIN_RELID ? NULL : kv_table_by_name(name);
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
RlStatus
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
	if (strcmp(name, CACHE_AUTHID_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_AUTHID_RELID, map);
	if (strcmp(name, CACHE_DATABASE_ACL_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_DATABASE_ACL_RELID, map);
	if (strcmp(name, CACHE_AUTH_MEMBERS_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_AUTH_MEMBERS_RELID, map);
	if (strcmp(name, CACHE_NOINHERIT_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_NOINHERIT_RELID, map);
	if (strcmp(name, CACHE_CLASS_ACL_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_CLASS_ACL_RELID, map);
	if (strcmp(name, CACHE_NAMESPACE_ACL_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_NAMESPACE_ACL_RELID, map);
	if (strcmp(name, CACHE_DB_ROLE_SETTING_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_DB_ROLE_SETTING_RELID, map);
	if (strcmp(name, CACHE_PUBLISH_PIN_TABLE) == 0)
		return relation_map_shape(cache, name, CACHE_PUBLISH_PIN_RELID, map);
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
void
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
RlStatus
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
int
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
const KvDatum **
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
RlStatus
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

/* ---------------------------------------------------------------- waiting for the write lock */

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

/* the postgres database's cache, read-only, where the registry is */
static RlStatus
registry_open(const char *data_directory, sqlite3 **db)
{
	char		path[4096];
	RlStatus	rc = RL_OK;

	*db = NULL;
	catalog_cache_path(path, sizeof(path), data_directory, CACHE_POSTGRES_DATID);
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
	{
		rc = sqlite_failure(*db, path);
		sqlite3_close(*db);
		*db = NULL;
		return rc;
	}
	cache_connection_setup(*db);
	return rc;
}

RlStatus
catalog_find_database(const char *data_directory, const char *name, uint32_t *datid)
{
	sqlite3    *db;
	sqlite3_stmt *stmt;
	RlStatus	rc = registry_open(data_directory, &db);

	if (rc != RL_OK)
		return rc;
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

/* a row (snapshot_id, version_id, datname) of rl_publish_pin */
static void
pin_from_row(sqlite3_stmt *stmt, PublishPin *pin)
{
	pin->snapshot_id = sqlite3_column_int64(stmt, 0);
	snprintf(pin->version_id, sizeof(pin->version_id), "%s", (const char *) sqlite3_column_text(stmt, 1));
	snprintf(pin->datname, sizeof(pin->datname), "%s", (const char *) sqlite3_column_text(stmt, 2));
}

RlStatus
catalog_find_publish_pin(const char *data_directory, const char *datname, int64_t snapshot_id,
						 const char *version_id, PublishPin *pin)
{
	sqlite3    *db;
	sqlite3_stmt *stmt;
	RlStatus	rc = registry_open(data_directory, &db);

	if (rc != RL_OK)
		return rc;
	stmt = prepare(db, version_id
				   ? "SELECT snapshot_id, version_id, datname FROM " CACHE_PUBLISH_PIN_TABLE " WHERE version_id = ?1"
				   : "SELECT snapshot_id, version_id, datname FROM " CACHE_PUBLISH_PIN_TABLE
				   " WHERE datname = ?1 AND snapshot_id = ?2 ORDER BY version_id LIMIT 1");
	if (stmt == NULL)
		rc = sqlite_failure(db, "look up publishing pins");
	else
	{
		sqlite3_bind_text(stmt, 1, version_id ? version_id : datname, -1, SQLITE_STATIC);
		if (!version_id)
			sqlite3_bind_int64(stmt, 2, snapshot_id);
		rc = sqlite3_step(stmt) == SQLITE_ROW ? RL_OK : RL_NOT_FOUND;
		if (rc == RL_OK)
			pin_from_row(stmt, pin);
		sqlite3_finalize(stmt);
	}
	sqlite3_close(db);
	return rc;
}

RlStatus
catalog_list_publish_pins(const char *data_directory, const char *datname,
						  void (*each) (const PublishPin *pin, void *arg), void *arg)
{
	sqlite3    *db;
	sqlite3_stmt *stmt;
	RlStatus	rc = registry_open(data_directory, &db);
	int			step;

	if (rc != RL_OK)
		return rc;
	stmt = prepare(db, "SELECT snapshot_id, version_id, datname FROM " CACHE_PUBLISH_PIN_TABLE
				   " WHERE datname = ?1 ORDER BY snapshot_id, version_id");
	if (stmt == NULL)
		rc = sqlite_failure(db, "list publishing pins");
	else
	{
		sqlite3_bind_text(stmt, 1, datname, -1, SQLITE_STATIC);
		while ((step = sqlite3_step(stmt)) == SQLITE_ROW)
		{
			PublishPin	pin;

			pin_from_row(stmt, &pin);
			each(&pin, arg);
		}
		if (step != SQLITE_DONE)
			rc = sqlite_failure(db, "list publishing pins");
		sqlite3_finalize(stmt);
	}
	sqlite3_close(db);
	return rc;
}
