/*
 * cache_apply.c: the writer's application of a commit group's mutations to a
 * catalog cache (catalog_cache_begin / _apply / _commit / _abort, catalog_cache.h),
 * in its three passes, and the changeset it emits for the backends.
 */
#include "catalog/catalog_cache_internal.h"

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

void
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
bool
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
RlStatus
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

RlStatus
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
