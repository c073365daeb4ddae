/*
 * capture.c: what statements change in a catalog cache, taken as a changeset
 * (catalog_cache.h, "capture").
 *
 * A backend computes a transaction's writes by running its statements on the cache
 * in a write transaction that is then rolled back, and sends what they changed to
 * the writer as a SQLite changeset. SQLite's session module made that changeset,
 * and two thirds of a backend's instructions in a DuckLake commit of one row were
 * its: at each table's first change it compiled a PRAGMA table_info, and at the end
 * a SELECT per table, every time, as a session lives one message. Here a preupdate
 * hook notes, per table and row id, the row as it was before its first change
 * (nothing for a row the capture inserted); at the end each noted row is read
 * again through a kept statement and compared: a row that is gone was deleted, one
 * that is new was inserted, one whose columns differ was updated (deleted and
 * inserted if its primary key changed), and one back as it was is left out, as the
 * session module does. A table dropped while capturing (cache_capture_dropping)
 * forgets its noted rows: the drop is its relation row's change, and the writer
 * deletes the rows the table had; one made again under its name is another table
 * from then on. Every captured table has a rowid (DuckLake's tables are keyed by
 * _rl_rowid INTEGER PRIMARY KEY, RockLake's own by their integer ids); tables
 * without a primary key and SQLite's own are left out, as the session module
 * leaves them.
 *
 * A backend's connection has the hook from when it opens (cache_capture_watch):
 * SQLite compiles a DELETE without WHERE into a truncation that fires no hook unless
 * a hook is there when the statement is compiled, and a backend keeps statements
 * compiled outside any capture (before its first, or while warming up).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog_cache.h"

typedef struct CapturedRow
{
	int64_t		rowid;
	bool		existed;		/* there before the capture: its old record is noted */
	size_t		old;			/* the old record's offset in the table's olds ... */
	size_t		old_len;		/* ... and length */
} CapturedRow;

typedef struct CapturedTable
{
	char	   *name;
	int			ncolumns;
	uint8_t    *pk;				/* per column: 1 if part of the primary key */
	bool		shaped;			/* pk and keyed are known (shape_table) */
	bool		keyed;			/* it has a primary key: the others are not described */
	bool		dropped;		/* the table is gone, and so are its noted rows */
	CapturedRow *rows;			/* in the order of their first change */
	int			nrows;
	int			rows_cap;
	int		   *slots;			/* open addressing by row id: index in rows + 1, 0 free */
	int			nslots;			/* a power of two, at least twice nrows */
	RlBuf		olds;			/* the old records, field after field */
	struct CapturedTable *next;
} CapturedTable;

struct CacheCapture
{
	sqlite3    *db;
	StmtCache  *stmts;			/* the statements reading rows again */
	bool		own_stmts;		/* made for this capture */
	bool		paused;
	CapturedTable *tables;		/* in the order of their first change */
	CapturedTable **tail;
	const char *failure;		/* why the changes cannot be taken, or NULL */
	bool		watched;		/* the connection is watched (cache_capture_watch) */
	int64_t		cookie;			/* the schema cookie when it began, -1 unknown */
	bool		schema_kept;	/* ... and when it ended, no DDL in between */
};

/* the hook's argument on a watched connection while nothing is captured */
static char watching;

/*
 * The key columns of tables the watched connection's captures read (one connection
 * per process is watched: a backend's), by schema cookie: asking SQLite for each
 * column (sqlite3_table_column_metadata) at every capture was a twentieth of a
 * backend's DuckLake commit. Only a capture that ran no DDL (the same cookie at its
 * start and end) notes or uses them: the cookie of a committed schema names that
 * schema, while one a rolled-back DDL made may come back naming another.
 */
#define KNOWN_SHAPES 32
typedef struct KnownShape
{
	int64_t		cookie;
	char	   *name;			/* NULL: a free entry */
	int			ncolumns;
	uint8_t    *pk;
	bool		keyed;
} KnownShape;
static KnownShape known_shapes[KNOWN_SHAPES];
static int	next_known_shape;

/* ---------------------------------------------------------------- noting */

static uint32_t
rowid_hash(int64_t rowid)
{
	uint64_t	h = (uint64_t) rowid * 0x9E3779B97F4A7C15ULL;

	return (uint32_t) (h >> 32);
}

/* find_row -- the slot of rowid in t: holding it, or the free one it would take */
static int *
find_row(CapturedTable *t, int64_t rowid)
{
	uint32_t	mask = (uint32_t) t->nslots - 1;

	for (uint32_t i = rowid_hash(rowid) & mask;; i = (i + 1) & mask)
		if (t->slots[i] == 0 || t->rows[t->slots[i] - 1].rowid == rowid)
			return &t->slots[i];
}

/* grow_rows -- room for one more row in t; false when out of memory */
static bool
grow_rows(CapturedTable *t)
{
	if (t->nrows == t->rows_cap)
	{
		int			cap = t->rows_cap ? t->rows_cap * 2 : 16;
		CapturedRow *rows = realloc(t->rows, sizeof(CapturedRow) * (size_t) cap);

		if (rows == NULL)
			return false;
		t->rows = rows;
		t->rows_cap = cap;
	}
	if (2 * (t->nrows + 1) > t->nslots)
	{
		int			nslots = t->nslots ? t->nslots * 2 : 32;
		int		   *slots = calloc((size_t) nslots, sizeof(int));

		if (slots == NULL)
			return false;
		free(t->slots);
		t->slots = slots;
		t->nslots = nslots;
		for (int i = 0; i < t->nrows; i++)
			*find_row(t, t->rows[i].rowid) = i + 1;
	}
	return true;
}

static void
table_free(CapturedTable *t)
{
	free(t->name);
	free(t->pk);
	free(t->rows);
	free(t->slots);
	rlbuf_free(&t->olds);
	free(t);
}

/* row_statement -- the statement reading a row of table again (?1 its row id) */
static sqlite3_stmt *
row_statement(CacheCapture *c, const char *table)
{
	char	   *sql = sqlite3_mprintf("SELECT * FROM main.\"%w\" WHERE rowid = ?1", table);
	sqlite3_stmt *stmt = sql ? stmt_cache_get(c->stmts, sql) : NULL;

	sqlite3_free(sql);
	return stmt;
}

/*
 * captured_table -- the table of that name changes: its entry, made at its first
 * change (NULL on failure, noted in c->failure). What its columns are called and
 * which make its key is asked once the capture reads its rows again (shape_table):
 * here, inside SQLite's hook, a kept statement may still be compiled for an older
 * shape of the table, which only its next step brings up to date.
 */
static CapturedTable *
captured_table(CacheCapture *c, const char *name, int ncolumns)
{
	CapturedTable *t,
			   *found = NULL;

	for (t = c->tables; t; t = t->next)
		if (!t->dropped && strcmp(t->name, name) == 0)
			found = t;
	if (found && found->ncolumns == ncolumns)
		return found;
	if (found)
	{
		c->failure = "a table changed its columns while its rows were captured";
		return NULL;
	}
	t = calloc(1, sizeof(CapturedTable));
	if (t == NULL || (t->name = strdup(name)) == NULL || (t->pk = calloc((size_t) ncolumns, 1)) == NULL)
	{
		c->failure = "out of memory";
		if (t)
			table_free(t);
		return NULL;
	}
	t->ncolumns = ncolumns;
	*c->tail = t;
	c->tail = &t->next;
	return t;
}

/* known_shape -- t's entry in known_shapes for the capture's cookie, or NULL */
static KnownShape *
known_shape(const CacheCapture *c, const CapturedTable *t)
{
	for (int i = 0; c->schema_kept && i < KNOWN_SHAPES; i++)
	{
		KnownShape *k = &known_shapes[i];

		if (k->name && k->cookie == c->cookie && k->ncolumns == t->ncolumns && strcmp(k->name, t->name) == 0)
			return k;
	}
	return NULL;
}

static void
forget_known_shape(KnownShape *k)
{
	free(k->name);
	free(k->pk);
	memset(k, 0, sizeof(*k));
}

/* remember_shape -- t's key columns kept in known_shapes (if it may: schema_kept) */
static void
remember_shape(const CacheCapture *c, const CapturedTable *t)
{
	if (!c->schema_kept)
		return;

	KnownShape *k = &known_shapes[next_known_shape];

	next_known_shape = (next_known_shape + 1) % KNOWN_SHAPES;
	forget_known_shape(k);
	k->pk = malloc((size_t) t->ncolumns);
	k->name = k->pk ? strdup(t->name) : NULL;
	if (k->name == NULL)
	{
		forget_known_shape(k);
		return;
	}
	memcpy(k->pk, t->pk, (size_t) t->ncolumns);
	k->cookie = c->cookie;
	k->ncolumns = t->ncolumns;
	k->keyed = t->keyed;
}

/*
 * shape_table -- t's key columns, from stmt (row_statement's, stepped: compiled for
 * the table as it is) or known_shapes; false if its columns are not the ones noted
 */
static bool
shape_table(CacheCapture *c, CapturedTable *t, sqlite3_stmt *stmt)
{
	if (sqlite3_column_count(stmt) != t->ncolumns)
		return false;

	const KnownShape *k = known_shape(c, t);

	if (k != NULL)
	{
		memcpy(t->pk, k->pk, (size_t) t->ncolumns);
		t->keyed = k->keyed;
		t->shaped = true;
		return true;
	}
	for (int i = 0; i < t->ncolumns; i++)
	{
		int			primary = 0;

		sqlite3_table_column_metadata(c->db, "main", t->name, sqlite3_column_name(stmt, i), NULL, NULL, NULL,
									  &primary, NULL);
		t->pk[i] = primary != 0;
		t->keyed |= primary != 0;
	}
	t->shaped = true;
	remember_shape(c, t);
	return true;
}

/*
 * read_row -- step stmt (row_statement's for t) for rowid: whether the row is there;
 * the first read also shapes t (false in *sound if its columns are not the noted ones)
 */
static bool
read_row(CacheCapture *c, CapturedTable *t, sqlite3_stmt *stmt, int64_t rowid, bool *sound)
{
	bool		found;

	sqlite3_reset(stmt);
	sqlite3_bind_int64(stmt, 1, rowid);
	found = sqlite3_step(stmt) == SQLITE_ROW;
	if (!t->shaped && !shape_table(c, t, stmt))
		*sound = false;
	return found;
}

/* note_row -- the row rowid of t changes: noted at its first change, with its old record if it existed */
static void
note_row(CacheCapture *c, CapturedTable *t, int64_t rowid, bool existed)
{
	int		   *slot;
	CapturedRow *row;

	if (t->nslots > 0 && *(slot = find_row(t, rowid)) != 0)
		return;
	if (!grow_rows(t))
	{
		c->failure = "out of memory";
		return;
	}
	slot = find_row(t, rowid);
	*slot = t->nrows + 1;
	row = &t->rows[t->nrows++];
	row->rowid = rowid;
	row->existed = existed;
	row->old = t->olds.len;
	for (int i = 0; existed && i < t->ncolumns; i++)
	{
		sqlite3_value *value = NULL;

		if (sqlite3_preupdate_old(c->db, i, &value) != SQLITE_OK || value == NULL)
		{
			c->failure = "a changed row's old values could not be read";
			return;
		}
		changeset_put_value(&t->olds, value);
	}
	row->old_len = t->olds.len - row->old;
}

/*
 * capture_hook -- SQLite's preupdate hook: a row of a table is about to be inserted,
 * updated or deleted (an update that moves a row to another row id deletes one and
 * inserts the other)
 */
static void
capture_hook(void *arg, sqlite3 *db, int op, const char *schema, const char *table,
			 sqlite3_int64 old_rowid, sqlite3_int64 new_rowid)
{
	CacheCapture *c = arg;
	CapturedTable *t;

	if (arg == &watching || c->paused || c->failure || strcmp(schema, "main") != 0 ||
		strncmp(table, "sqlite_", 7) == 0 ||
		(t = captured_table(c, table, sqlite3_preupdate_count(db))) == NULL)
		return;
	if (op != SQLITE_INSERT)
		note_row(c, t, old_rowid, true);
	if (op != SQLITE_DELETE)
		note_row(c, t, new_rowid, false);
}

void
cache_capture_watch(sqlite3 *db)
{
	sqlite3_preupdate_hook(db, capture_hook, &watching);
	/* a new watched connection: the shapes known are another's */
	for (int i = 0; i < KNOWN_SHAPES; i++)
		forget_known_shape(&known_shapes[i]);
}

/* ---------------------------------------------------------------- the changeset */

/* field_length -- the length of the field at p (of a record changeset_put_value wrote) */
static size_t
field_length(const uint8_t *p)
{
	const uint8_t *q = p + 1;
	uint64_t	len = 0;

	if (p[0] == SQLITE_INTEGER || p[0] == SQLITE_FLOAT)
		return 9;
	if (p[0] != SQLITE_TEXT && p[0] != SQLITE_BLOB)
		return 1;
	/* SQLite's varint: 7 bits a byte, the high bit on all but the last */
	do
		len = (len << 7) | (*q & 0x7f);
	while (*q++ & 0x80);
	return (size_t) (q - p) + (size_t) len;
}

/*
 * put_row -- the change of one noted row, found as current (a row of stmt) or gone
 * (NULL), appended to out; false if there is none (back as it was, or inserted and
 * gone again). scratch holds the current row's fields.
 */
static bool
put_row(RlBuf *out, const CapturedTable *t, const CapturedRow *row, sqlite3_stmt *current, RlBuf *scratch)
{
	const uint8_t *old = row->existed ? t->olds.data + row->old : NULL;
	size_t		old_at[t->ncolumns + 1],
				new_at[t->ncolumns + 1];
	bool		differs[t->ncolumns];
	bool		changed = false,
				key_changed = false;

	if (current == NULL)
	{
		if (!row->existed)
			return false;
		changeset_put_change(out, SQLITE_DELETE);
		rlbuf_append(out, old, row->old_len);
		return true;
	}
	rlbuf_reset(scratch);
	for (int i = 0; i < t->ncolumns; i++)
	{
		new_at[i] = scratch->len;
		changeset_put_value(scratch, sqlite3_column_value(current, i));
	}
	new_at[t->ncolumns] = scratch->len;
	if (!row->existed)
	{
		changeset_put_change(out, SQLITE_INSERT);
		rlbuf_append(out, scratch->data, scratch->len);
		return true;
	}
	old_at[0] = 0;
	for (int i = 0; i < t->ncolumns; i++)
	{
		size_t		len = field_length(old + old_at[i]);

		differs[i] = len != new_at[i + 1] - new_at[i] ||
			memcmp(old + old_at[i], scratch->data + new_at[i], len) != 0;
		old_at[i + 1] = old_at[i] + len;
		changed |= differs[i];
		key_changed |= differs[i] && t->pk[i];
	}
	if (key_changed)
	{
		changeset_put_change(out, SQLITE_DELETE);
		rlbuf_append(out, old, row->old_len);
		changeset_put_change(out, SQLITE_INSERT);
		rlbuf_append(out, scratch->data, scratch->len);
		return true;
	}
	if (!changed)
		return false;
	/* the old record: the key and what changed; the new one: what changed */
	changeset_put_change(out, SQLITE_UPDATE);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < t->ncolumns; i++)
		{
			if (pass == 0 && (differs[i] || t->pk[i]))
				rlbuf_append(out, old + old_at[i], old_at[i + 1] - old_at[i]);
			else if (pass == 1 && differs[i])
				rlbuf_append(out, scratch->data + new_at[i], new_at[i + 1] - new_at[i]);
			else
				changeset_put_undefined(out);
		}
	return true;
}

/* put_table -- the changes of t's noted rows, after its header, appended to out */
static void
put_table(CacheCapture *c, CapturedTable *t, RlBuf *out, RlBuf *scratch)
{
	size_t		header;
	bool		any = false,
				sound = true;
	sqlite3_stmt *stmt;

	if ((stmt = row_statement(c, t->name)) == NULL)
	{
		/* dropped by a way that did not say so: its rows went with it */
		if (sqlite3_table_column_metadata(c->db, "main", t->name, NULL, NULL, NULL, NULL, NULL, NULL) == SQLITE_OK)
			c->failure = "a changed table could not be read";
		return;
	}
	read_row(c, t, stmt, t->rows[0].rowid, &sound);
	if (!sound || !t->shaped)
	{
		c->failure = "a changed table's columns are not the ones noted";
		stmt_cache_release(c->stmts, stmt, true);
		return;
	}
	header = out->len;
	changeset_put_table(out, t->name, t->ncolumns, t->pk);
	for (int i = 0; t->keyed && i < t->nrows; i++)
	{
		const CapturedRow *row = &t->rows[i];
		bool		found = read_row(c, t, stmt, row->rowid, &sound);

		any |= put_row(out, t, row, found ? stmt : NULL, scratch);
	}
	stmt_cache_release(c->stmts, stmt, false);
	if (!any)
		out->len = header;		/* a table with nothing to say says nothing, as one without a key */
}

/* ---------------------------------------------------------------- the capture */

/* schema_cookie -- the connection's main schema cookie now, -1 if unknown */
static int64_t
schema_cookie(CacheCapture *c)
{
	return stmt_cache_int64(c->stmts, "PRAGMA main.schema_version", -1);
}

RlStatus
cache_capture_begin(sqlite3 *db, StmtCache *stmts, CacheCapture **out)
{
	CacheCapture *capture = calloc(1, sizeof(CacheCapture));

	*out = NULL;
	if (capture == NULL)
		return rl_error(RL_IO_ERROR, "out of memory");
	capture->db = db;
	capture->tail = &capture->tables;
	capture->stmts = stmts;
	if (stmts == NULL)
	{
		capture->own_stmts = true;
		capture->stmts = stmt_cache_create(db, 8);
	}
	if (capture->stmts == NULL || stmt_cache_run(capture->stmts, "BEGIN IMMEDIATE") != SQLITE_OK)
	{
		RlStatus	rc = rl_error(RL_IO_ERROR, "catalog cache: start capturing: %s",
								  capture->stmts ? sqlite3_errmsg(db) : "out of memory");

		if (capture->own_stmts)
			stmt_cache_destroy(capture->stmts);
		free(capture);
		return rc;
	}
	capture->watched = sqlite3_preupdate_hook(db, capture_hook, capture) == &watching;
	capture->cookie = capture->watched ? schema_cookie(capture) : -1;
	*out = capture;
	return RL_OK;
}

void
cache_capture_pause(CacheCapture *capture, bool paused)
{
	capture->paused = paused;
}

void
cache_capture_dropping(CacheCapture *capture, const char *table)
{
	for (CapturedTable *t = capture->tables; t; t = t->next)
		if (!t->dropped && strcmp(t->name, table) == 0)
		{
			/* what the drop takes away needs no telling: its relation row says it */
			t->dropped = true;
			t->nrows = 0;
		}
}

RlStatus
cache_capture_end(CacheCapture *capture, RlBuf *changeset)
{
	RlStatus	rc = RL_OK;
	RlBuf		scratch;

	/* nothing more is noted */
	sqlite3_preupdate_hook(capture->db, capture->watched ? capture_hook : NULL, capture->watched ? &watching : NULL);
	rlbuf_reset(changeset);
	rlbuf_init(&scratch);
	capture->schema_kept = capture->cookie >= 0 && schema_cookie(capture) == capture->cookie;
	for (CapturedTable *t = capture->tables; !capture->failure && t; t = t->next)
		if (t->nrows > 0)
			put_table(capture, t, changeset, &scratch);
	if (capture->failure)
		rc = rl_error(RL_IO_ERROR, "catalog cache: take the changes: %s", capture->failure);
	rlbuf_free(&scratch);
	stmt_cache_run(capture->stmts, "ROLLBACK");
	while (capture->tables)
	{
		CapturedTable *next = capture->tables->next;

		table_free(capture->tables);
		capture->tables = next;
	}
	if (capture->own_stmts)
		stmt_cache_destroy(capture->stmts);
	free(capture);
	return rc;
}
