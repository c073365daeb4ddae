/*
 * changeset.h: reading a SQLite session changeset in place, and writing one.
 *
 * A commit's changeset is read three times by the writer (its DDL, its rows, its
 * key-value mutations) and again by a backend replaying its transaction. SQLite's
 * own iterator (sqlite3changeset_next) makes a malloc'd sqlite3_value for every
 * column of every change and copies each string into it: a quarter of the writer's
 * instructions per commit. This one hands out KvDatum values that point into the
 * changeset, which must stay put while they are used.
 *
 * The format is SQLite's (sqlite3session.c, "CHANGESET FORMAT"): a table header
 * ('T', the column count as a varint, one primary-key flag byte per column, the
 * NUL-terminated table name) followed by its changes; a change is the operation
 * (SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE), the indirect flag, then the old
 * record (UPDATE, DELETE) and the new one (INSERT, UPDATE). A record holds one field
 * per column: a type byte (0 undefined, else SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB,
 * _NULL), then 8 big-endian bytes for a number, or a varint length and the bytes for
 * text and blobs (text without a NUL). An UPDATE leaves the columns it did not
 * change undefined, except the primary key's in its old record.
 */
#ifndef RL_CHANGESET_H
#define RL_CHANGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "catalog/kvcodec.h"
#include "common/rl_buffer.h"

typedef enum ChangesetStep
{
	CHANGESET_DONE = 0,			/* no more changes */
	CHANGESET_ROW,				/* the iterator is on a change */
	CHANGESET_CORRUPT			/* the bytes are not a changeset: stop */
} ChangesetStep;

typedef struct ChangesetIter
{
	const uint8_t *pos;			/* the next change or table header */
	const uint8_t *end;
	/* the table of the current change */
	const char *table;			/* NUL-terminated, in the changeset */
	int			ncolumns;
	const uint8_t *pk;			/* per column: nonzero if part of the primary key */
	/* the current change */
	int			op;				/* SQLITE_INSERT, SQLITE_UPDATE or SQLITE_DELETE */
	bool		indirect;
	/* its records: ncolumns each; NULL where a field is undefined */
	const KvDatum **old;
	const KvDatum **new;
	/* storage for the above (capacity columns) */
	KvDatum    *datums;
	int			capacity;
} ChangesetIter;

/* Start reading data (len bytes), which must stay put until changeset_end. */
void		changeset_begin(ChangesetIter *it, const void *data, size_t len);

/* Move to the next change. */
ChangesetStep changeset_next(ChangesetIter *it);

/* Free what the iterator allocated (the changeset itself is the caller's). */
void		changeset_end(ChangesetIter *it);

/*
 * The value of a column of the current change before it (DELETE, UPDATE) or after
 * it (INSERT, UPDATE); NULL where the change has none. Column numbers are
 * unchecked: 0 <= column < it->ncolumns.
 */
static inline const KvDatum *
changeset_old(const ChangesetIter *it, int column)
{
	return it->old[column];
}

static inline const KvDatum *
changeset_new(const ChangesetIter *it, int column)
{
	return it->new[column];
}

/* An integer datum's value; 0 for NULL or another type (as sqlite3_value_int64 gives for NULL) */
static inline int64_t
changeset_int64(const KvDatum *d)
{
	return d && d->type == KV_INT64 ? d->i : 0;
}

/* A malloc'd NUL-terminated copy of a KV_TEXT datum; NULL for NULL or another type. */
char	   *changeset_text(const KvDatum *d);

/*
 * Writing one (the backend's capture, catalog_cache.h): a table header, then per change
 * its operation and records, a record being one field per column, each a value or
 * undefined.
 */
void		changeset_put_table(RlBuf *out, const char *table, int ncolumns, const uint8_t *pk);
void		changeset_put_change(RlBuf *out, int op);
void		changeset_put_value(RlBuf *out, sqlite3_value *value);
void		changeset_put_undefined(RlBuf *out);

#endif
