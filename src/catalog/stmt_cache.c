/*
 * stmt_cache.c: prepared statements by SQL text (stmt_cache.h), shared by the
 * backends' cache connection and the writer's.
 *
 * A fixed number of slots reused round robin: the texts a connection runs in a
 * loop are few, and a linear search of a few dozen short strings is cheaper than
 * one sqlite3_prepare. Statements are prepared with SQLITE_PREPARE_PERSISTENT,
 * SQLite's hint that they will be reused. A statement handed out is pinned until
 * released: its slot is neither handed out again nor reused for another text, so
 * a caller may hold several at once (the writer holds a table's row reads and key
 * probes across a changeset).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/stmt_cache.h"

typedef struct StmtSlot
{
	char	   *sql;
	sqlite3_stmt *stmt;
	bool		pinned;
} StmtSlot;

struct StmtCache
{
	sqlite3    *db;
	int			size;
	int			next;			/* the slot to reuse next */
	unsigned long compiled;		/* statements prepared so far */
	StmtSlot	slots[];
};

StmtCache *
stmt_cache_create(sqlite3 *db, int size)
{
	StmtCache  *cache = calloc(1, sizeof(StmtCache) + sizeof(StmtSlot) * (size_t) size);

	if (cache)
	{
		cache->db = db;
		cache->size = size;
	}
	return cache;
}

void
stmt_cache_destroy(StmtCache *cache)
{
	if (cache == NULL)
		return;
	for (int i = 0; i < cache->size; i++)
	{
		sqlite3_finalize(cache->slots[i].stmt);
		free(cache->slots[i].sql);
	}
	free(cache);
}

sqlite3_stmt *
stmt_cache_get(StmtCache *cache, const char *sql)
{
	for (int i = 0; i < cache->size; i++)
	{
		StmtSlot   *slot = &cache->slots[i];

		if (slot->sql && !slot->pinned && strcmp(slot->sql, sql) == 0 && !sqlite3_stmt_busy(slot->stmt))
		{
			slot->pinned = true;
			return slot->stmt;
		}
	}

	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v3(cache->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
	{
		sqlite3_finalize(stmt);
		return NULL;
	}
	cache->compiled++;
	for (int tries = 0; tries < cache->size; tries++)
	{
		StmtSlot   *slot = &cache->slots[cache->next];
		char	   *copy;

		cache->next = (cache->next + 1) % cache->size;
		if (slot->pinned || (slot->stmt && sqlite3_stmt_busy(slot->stmt)))
			continue;
		if ((copy = strdup(sql)) == NULL)
			break;
		sqlite3_finalize(slot->stmt);
		free(slot->sql);
		slot->sql = copy;
		slot->stmt = stmt;
		slot->pinned = true;
		break;
	}
	return stmt;
}

void
stmt_cache_release(StmtCache *cache, sqlite3_stmt *stmt, bool failed)
{
	if (stmt == NULL)
		return;
	for (int i = 0; i < cache->size; i++)
		if (cache->slots[i].stmt == stmt)
		{
			cache->slots[i].pinned = false;
			if (!failed)
			{
				sqlite3_reset(stmt);
				sqlite3_clear_bindings(stmt);
				return;
			}
			free(cache->slots[i].sql);
			cache->slots[i].sql = NULL;
			cache->slots[i].stmt = NULL;
		}
	sqlite3_finalize(stmt);
}

void
stmt_cache_foreach_text(const StmtCache *cache, void (*fn) (const char *sql, void *arg), void *arg)
{
	for (int i = 0; i < cache->size; i++)
	{
		const StmtSlot *slot = &cache->slots[(cache->next + i) % cache->size];

		if (slot->sql)
			fn(slot->sql, arg);
	}
}

int
stmt_cache_run(StmtCache *cache, const char *sql)
{
	sqlite3_stmt *stmt = stmt_cache_get(cache, sql);
	int			rc;

	if (stmt == NULL)
		return sqlite3_extended_errcode(cache->db);
	rc = sqlite3_step(stmt) == SQLITE_DONE ? SQLITE_OK : sqlite3_extended_errcode(cache->db);
	stmt_cache_release(cache, stmt, rc != SQLITE_OK);
	return rc;
}

int64_t
stmt_cache_int64(StmtCache *cache, const char *sql, int64_t if_none)
{
	sqlite3_stmt *stmt = stmt_cache_get(cache, sql);
	int64_t		value = stmt && sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : if_none;

	stmt_cache_release(cache, stmt, false);
	return value;
}

unsigned long
stmt_cache_compiled(const StmtCache *cache)
{
	return cache->compiled;
}
