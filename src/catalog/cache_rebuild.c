/*
 * cache_rebuild.c: the catalog cache made again from the store, whole or in part.
 *
 * catalog_cache_rebuild empties the cache and reads every relation back from the
 * store: first rl_relation (each relation's CREATE TABLE, in the cache's form), then
 * every relation's rows under its key prefix (kvcodec.h's layout for DuckLake's
 * tables, generic rows for the rest), each row under the row id its key ends in. Keys
 * written before keys ended in a row id get row ids 1, 2 ... in key order, below the
 * others, as the rebuild that first read them gave, and are noted in
 * CACHE_SHORT_KEY_TABLE so that their keys can be found again to be deleted.
 *
 * catalog_cache_refresh is a standby's: the writer process of a server in recovery
 * polls the store, and the LSM's follower tells it every key the new WAL objects
 * wrote. Each key is matched to its relation by prefix and applied as a row (the
 * store's value now, or its absence), deletes first; a relation holding keys without
 * row ids is refilled whole, and a key that defines a relation (DDL) or belongs to
 * none makes the caller rebuild the whole cache. Both run in one SQLite transaction,
 * so backends see the cache before or after, never between.
 */

#include "catalog/catalog_cache_internal.h"

/* ---------------------------------------------------------------- rebuild */

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

/* rebuild_scan_begin -- scan, ready to insert rows of map's relation (rebuild_row_cb) */
static void
rebuild_scan_begin(CatalogCache *cache, const RelationMap *map, RebuildScan *scan)
{
	RlBuf		sql;

	*scan = (RebuildScan) {.db = cache->db, .map = map, .generic = map->kv == NULL, .status = RL_OK,
	.min_rowid = INT64_MAX};
	rlbuf_init(&sql);
	rlbuf_append_str(&sql, "INSERT INTO ");
	append_identifier(&sql, map->name);
	rlbuf_append_str(&sql, " VALUES (?");
	for (int i = 1; i < map->ncolumns; i++)
		rlbuf_append_str(&sql, ", ?");
	rlbuf_append_str(&sql, ")");
	scan->insert = prepare(cache->db, rlbuf_cstr(&sql));
	scan->note_short = prepare(cache->db, "INSERT INTO " CACHE_SHORT_KEY_TABLE " VALUES (?1, ?2)");
	if (scan->insert == NULL || scan->note_short == NULL)
		scan->status = sqlite_failure(cache->db, "rebuild: prepare insert");
	rlbuf_free(&sql);
}

static void
rebuild_scan_end(RebuildScan *scan)
{
	sqlite3_finalize(scan->insert);
	sqlite3_finalize(scan->note_short);
}

static RlStatus
rebuild_relation(CatalogCache *cache, Lsm *lsm, const RelationMap *map)
{
	RlBuf		prefix;
	RebuildScan scan;

	rlbuf_init(&prefix);
	rebuild_scan_begin(cache, map, &scan);
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
	rebuild_scan_end(&scan);
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
					  "DELETE FROM " CACHE_NAMESPACE_TABLE "; DELETE FROM " CACHE_AUTHID_TABLE ";"
					  "DELETE FROM " CACHE_DATABASE_ACL_TABLE "; DELETE FROM " CACHE_AUTH_MEMBERS_TABLE ";"
					  "DELETE FROM " CACHE_NOINHERIT_TABLE "; DELETE FROM " CACHE_CLASS_ACL_TABLE ";"
					  "DELETE FROM " CACHE_NAMESPACE_ACL_TABLE "; DELETE FROM " CACHE_DB_ROLE_SETTING_TABLE ";"
					  "DELETE FROM " CACHE_PUBLISH_PIN_TABLE "; DELETE FROM " CACHE_SHORT_KEY_TABLE);

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
				   " UNION ALL SELECT '" CACHE_AUTHID_TABLE "' UNION ALL SELECT '" CACHE_DATABASE_ACL_TABLE "'"
				   " UNION ALL SELECT '" CACHE_AUTH_MEMBERS_TABLE "' UNION ALL SELECT '" CACHE_NOINHERIT_TABLE "'"
				   " UNION ALL SELECT '" CACHE_CLASS_ACL_TABLE "' UNION ALL SELECT '" CACHE_NAMESPACE_ACL_TABLE "'"
				   " UNION ALL SELECT '" CACHE_DB_ROLE_SETTING_TABLE "' UNION ALL SELECT '" CACHE_PUBLISH_PIN_TABLE "'"
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

/* ---------------------------------------------------------------- a standby's refresh */

/* key_has_prefix -- whether the touched key at off starts with prefix */
static bool
key_has_prefix(const RlBuf *touched, size_t off, const RlBuf *prefix)
{
	uint32_t	len = rl_load_u32be(touched->data + off);

	return len >= prefix->len && memcmp(touched->data + off + 4, prefix->data, prefix->len) == 0;
}

/* touched_key -- the touched key at off, its length in *len */
static const uint8_t *
touched_key(const RlBuf *touched, size_t off, size_t *len)
{
	*len = rl_load_u32be(touched->data + off);
	return touched->data + off + 4;
}

/*
 * refresh_rows -- apply the touched keys of map's relation (mine) one row at a time,
 * as the store holds them now: each key's row id leaves the table, then the rows of
 * the keys the store still holds come back with their values. Deletes go first, as an
 * UPDATE that moved a row to another key (a key column changed, or the row stopped
 * fitting kvcodec's layout) deleted its old key and wrote the new one under the same
 * row id. *appended says whether the relation only gained rows above its largest row
 * id (kept scans then go on; catalog_cache.h). RL_INVALID for a key without a row id
 * (an older store's), which only a rebuild of the relation places.
 */
static RlStatus
refresh_rows(CatalogCache *cache, Lsm *lsm, const RelationMap *map, const RlBuf *touched,
			 const bool *mine, size_t nkeys, bool *appended)
{
	RlBuf		sql,
				value;
	RebuildScan scan;
	int64_t		largest,
			   *row_ids = calloc(nkeys ? nkeys : 1, sizeof(int64_t));
	sqlite3_stmt *delete;
	RlStatus	rc = row_ids ? RL_OK : rl_error(RL_IO_ERROR, "out of memory");

	*appended = largest_rowid(cache, map->name, &largest);
	rlbuf_init(&sql);
	rlbuf_init(&value);
	rlbuf_append_str(&sql, "DELETE FROM main.");
	append_identifier(&sql, map->name);
	rlbuf_append_str(&sql, " WHERE " CACHE_ROWID_COLUMN " = ?1");
	delete = stmt_cache_get(cache->statements, rlbuf_cstr(&sql));
	if (rc == RL_OK && delete == NULL)
		rc = sqlite_failure(cache->db, "refresh: prepare delete");
	for (size_t off = 0, i = 0; rc == RL_OK && i < nkeys; off += 4 + rl_load_u32be(touched->data + off), i++)
	{
		size_t		len;
		const uint8_t *key = touched_key(touched, off, &len);
		const KvTable *table;
		KvDatum		components[KV_MAX_KEY_COLUMNS];
		uint32_t	relid;
		bool		has_row_id = true;

		if (!mine[i])
			continue;
		if (key[0] == KV_TAG_GENERIC)
			rc = kv_decode_generic_key(key, len, &relid, (uint64_t *) &row_ids[i]);
		else
			rc = kv_decode_key(key, len, &table, components, &has_row_id, &row_ids[i]);
		if (rc == RL_OK && !has_row_id)
			rc = rl_error(RL_INVALID, "a key without a row id");
		if (rc != RL_OK)
			break;
		sqlite3_reset(delete);
		sqlite3_bind_int64(delete, 1, row_ids[i]);
		if (sqlite3_step(delete) != SQLITE_DONE)
			rc = sqlite_failure(cache->db, "refresh: delete a row");
	}
	rebuild_scan_begin(cache, map, &scan);
	if (rc == RL_OK)
		rc = scan.status;
	for (size_t off = 0, i = 0; rc == RL_OK && i < nkeys; off += 4 + rl_load_u32be(touched->data + off), i++)
	{
		size_t		len;
		const uint8_t *key = touched_key(touched, off, &len);

		if (!mine[i])
			continue;
		rlbuf_reset(&value);
		rc = lsm_get(lsm, key, len, &value);
		if (rc == RL_NOT_FOUND)
		{
			rc = RL_OK;
			*appended = false;	/* a row deleted */
			continue;
		}
		*appended &= row_ids[i] > largest;
		/* a key written twice by the poll's commits: its row is in once */
		sqlite3_reset(delete);
		sqlite3_bind_int64(delete, 1, row_ids[i]);
		if (rc == RL_OK && sqlite3_step(delete) != SQLITE_DONE)
			rc = sqlite_failure(cache->db, "refresh: delete a row");
		scan.generic = key[0] == KV_TAG_GENERIC;
		if (rc == RL_OK && !rebuild_row_cb(key, len, value.data, value.len, &scan))
			rc = scan.status;
	}
	rebuild_scan_end(&scan);
	if (delete)
		stmt_cache_release(cache->statements, delete, rc != RL_OK);
	free(row_ids);
	rlbuf_free(&sql);
	rlbuf_free(&value);
	return rc;
}

/*
 * refresh_relation -- if a touched key is name's (matched marks them), apply its rows
 * (refresh_rows), or rebuild them all from the store where a key has no row id
 */
static RlStatus
refresh_relation(CatalogCache *cache, Lsm *lsm, const char *name, const RlBuf *touched, bool *matched,
				 size_t nkeys)
{
	RelationMap map;
	RlBuf		prefix,
				generic,
				sql;
	bool		hit = false,
				appended = false,
			   *mine;
	RlStatus	rc = relation_map(cache, name, &map);

	if (rc != RL_OK)
		return rc;
	mine = calloc(nkeys ? nkeys : 1, sizeof(bool));
	if (mine == NULL)
	{
		relation_map_free(&map);
		return rl_error(RL_IO_ERROR, "out of memory");
	}
	rlbuf_init(&prefix);
	rlbuf_init(&generic);
	if (map.kv)
		kv_encode_key_prefix(map.kv, NULL, 0, &prefix);
	kv_generic_prefix((uint32_t) map.relid, &generic);
	for (size_t off = 0, i = 0; i < nkeys; off += 4 + rl_load_u32be(touched->data + off), i++)
		if ((map.kv && key_has_prefix(touched, off, &prefix)) || key_has_prefix(touched, off, &generic))
			hit = mine[i] = matched[i] = true;
	rlbuf_init(&sql);
	if (hit)
		rc = cache->short_keys ? rl_error(RL_INVALID, "keys without row ids") :
			refresh_rows(cache, lsm, &map, touched, mine, nkeys, &appended);
	if (hit && rc == RL_INVALID)
	{
		appended = false;
		rlbuf_append_str(&sql, "DELETE FROM ");
		append_identifier(&sql, map.name);
		rlbuf_printf(&sql, "; DELETE FROM " CACHE_SHORT_KEY_TABLE " WHERE relid = %lld", (long long) map.relid);
		rc = exec_sql(cache->db, rlbuf_cstr(&sql));
		if (rc == RL_OK)
			rc = rebuild_relation(cache, lsm, &map);
	}
	if (hit && rc == RL_OK && !appended)
		rc = record_rescan(cache, map.name, cache->seq + 1);
	free(mine);
	rlbuf_free(&sql);
	rlbuf_free(&prefix);
	rlbuf_free(&generic);
	relation_map_free(&map);
	return rc;
}

RlStatus
catalog_cache_refresh(CatalogCache *cache, Lsm *lsm, const RlBuf *touched)
{
	size_t		nkeys = 0;
	RlBuf		definitions;
	bool	   *matched;
	RlStatus	rc = RL_OK;
	sqlite3_stmt *stmt;
	LsmStats	stats;

	rlbuf_init(&definitions);
	kv_generic_prefix(0, &definitions);
	for (size_t off = 0; off < touched->len; off += 4 + rl_load_u32be(touched->data + off), nkeys++)
		if (key_has_prefix(touched, off, &definitions))
			rc = rl_error(RL_INVALID, "a relation was defined or dropped");
	rlbuf_free(&definitions);
	if (rc != RL_OK)
		return rc;
	matched = calloc(nkeys ? nkeys : 1, sizeof(bool));
	if (matched == NULL)
		return rl_error(RL_IO_ERROR, "out of memory");
	rc = exec_sql(cache->db, "BEGIN IMMEDIATE");
	stmt = rc == RL_OK ? prepare(cache->db, "SELECT '" CACHE_DATABASE_TABLE "' UNION ALL SELECT '" CACHE_NAMESPACE_TABLE "'"
								 " UNION ALL SELECT '" CACHE_AUTHID_TABLE "' UNION ALL SELECT '" CACHE_DATABASE_ACL_TABLE "'"
								 " UNION ALL SELECT relname FROM " CACHE_RELATION_TABLE) : NULL;
	if (rc == RL_OK && stmt == NULL)
		rc = sqlite_failure(cache->db, "refresh: list the relations");
	/* the names first: rebuilding a relation runs statements of its own */
	NameList	names = {0};

	while (rc == RL_OK && sqlite3_step(stmt) == SQLITE_ROW)
		name_list_add(&names, (const char *) sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	for (int i = 0; rc == RL_OK && i < names.n; i++)
		rc = refresh_relation(cache, lsm, names.names[i], touched, matched, nkeys);
	name_list_free(&names);
	for (size_t i = 0; rc == RL_OK && i < nkeys; i++)
		if (!matched[i])
			rc = rl_error(RL_INVALID, "a write belongs to no relation of the cache");
	free(matched);
	lsm_stats(lsm, &stats);
	if (rc == RL_OK)
		rc = record_seq(cache, stats.last_seq);
	if (rc == RL_OK)
		rc = exec_sql(cache->db, "COMMIT");
	if (rc != RL_OK)
		catalog_cache_abort(cache);
	return rc;
}
