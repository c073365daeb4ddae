/*
 * changeset.c: a SQLite session changeset read where it lies, and written (changeset.h).
 *
 * The writer reads every commit's changeset three times and a backend replays its
 * transaction's before each statement that writes; with SQLite's iterator every
 * column of every change cost a malloc'd value and a copy of its string. Here a
 * change's fields become KvDatum values pointing into the changeset, in arrays
 * reused from change to change. Anything that does not parse stops the walk with
 * CHANGESET_CORRUPT: a changeset comes from another process, and a truncated one
 * must not be read past its end.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/changeset.h"

#define CHANGESET_TABLE_HEADER	'T'

/* Field type bytes (sqlite3session.c's record format; SQLITE_INTEGER ... SQLITE_NULL) */
#define FIELD_UNDEFINED			0

/*
 * read_varint -- one of SQLite's varints (big-endian groups of 7 bits, the high bit
 * set on all but the last; a ninth byte gives all 8 bits) at *pos; false if it runs
 * past end
 */
static bool
read_varint(const uint8_t **pos, const uint8_t *end, uint64_t *value)
{
	uint64_t	v = 0;
	const uint8_t *p = *pos;

	for (int i = 0; i < 9; i++)
	{
		if (p >= end)
			return false;
		if (i == 8)
		{
			v = (v << 8) | *p++;
			break;
		}
		v = (v << 7) | (*p & 0x7f);
		if ((*p++ & 0x80) == 0)
			break;
	}
	*pos = p;
	*value = v;
	return true;
}

static uint64_t
read_u64be(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

/* read_record -- ncolumns fields into datums, their pointers (NULL if undefined) into out */
static bool
read_record(ChangesetIter *it, KvDatum *datums, const KvDatum **out)
{
	const uint8_t *p = it->pos;

	for (int i = 0; i < it->ncolumns; i++)
	{
		KvDatum    *d = &datums[i];
		uint64_t	bits,
					len;
		uint8_t		type;

		if (p >= it->end)
			return false;
		memset(d, 0, sizeof(*d));
		out[i] = d;
		type = *p++;
		switch (type)
		{
			case FIELD_UNDEFINED:
				out[i] = NULL;
				break;
			case SQLITE_NULL:
				d->type = KV_NULL;
				break;
			case SQLITE_INTEGER:
			case SQLITE_FLOAT:
				if (it->end - p < 8)
					return false;
				bits = read_u64be(p);
				p += 8;
				if (type == SQLITE_INTEGER)
				{
					d->type = KV_INT64;
					d->i = (int64_t) bits;
				}
				else
				{
					d->type = KV_DOUBLE;
					memcpy(&d->d, &bits, sizeof(double));
				}
				break;
			case SQLITE_TEXT:
			case SQLITE_BLOB:
				d->type = type == SQLITE_TEXT ? KV_TEXT : KV_BYTES;
				if (!read_varint(&p, it->end, &len) || len > (uint64_t) (it->end - p))
					return false;
				d->s = (const char *) p;
				d->len = (size_t) len;
				p += len;
				break;
			default:
				return false;
		}
	}
	it->pos = p;
	return true;
}

/* read_table_header -- the header at it->pos, the iterator's arrays big enough for it */
static bool
read_table_header(ChangesetIter *it)
{
	const uint8_t *p = it->pos + 1;
	uint64_t	ncolumns;
	const uint8_t *nul;

	if (!read_varint(&p, it->end, &ncolumns) || ncolumns == 0 || ncolumns > (uint64_t) (it->end - p))
		return false;
	it->pk = p;
	p += ncolumns;
	nul = memchr(p, '\0', (size_t) (it->end - p));
	if (nul == NULL)
		return false;
	it->table = (const char *) p;
	it->ncolumns = (int) ncolumns;
	it->pos = nul + 1;
	if (it->ncolumns > it->capacity)
	{
		int			capacity = it->ncolumns;
		void	   *block = realloc(it->datums, (size_t) capacity * 2 * (sizeof(KvDatum) + sizeof(KvDatum *)));

		if (block == NULL)
			return false;
		it->datums = block;
		it->capacity = capacity;
	}
	it->old = (const KvDatum **) (it->datums + 2 * it->capacity);
	it->new = it->old + it->capacity;
	return true;
}

void
changeset_begin(ChangesetIter *it, const void *data, size_t len)
{
	memset(it, 0, sizeof(*it));
	it->pos = data;
	it->end = it->pos + len;
}

ChangesetStep
changeset_next(ChangesetIter *it)
{
	while (it->pos < it->end && *it->pos == CHANGESET_TABLE_HEADER)
		if (!read_table_header(it))
			return CHANGESET_CORRUPT;
	if (it->pos == it->end)
		return CHANGESET_DONE;
	if (it->table == NULL || it->end - it->pos < 2)
		return CHANGESET_CORRUPT;
	it->op = it->pos[0];
	it->indirect = it->pos[1] != 0;
	it->pos += 2;
	for (int i = 0; i < it->ncolumns; i++)
		it->old[i] = it->new[i] = NULL;
	switch (it->op)
	{
		case SQLITE_INSERT:
			return read_record(it, it->datums + it->capacity, it->new) ? CHANGESET_ROW : CHANGESET_CORRUPT;
		case SQLITE_DELETE:
			return read_record(it, it->datums, it->old) ? CHANGESET_ROW : CHANGESET_CORRUPT;
		case SQLITE_UPDATE:
			return read_record(it, it->datums, it->old) &&
				read_record(it, it->datums + it->capacity, it->new) ? CHANGESET_ROW : CHANGESET_CORRUPT;
		default:
			return CHANGESET_CORRUPT;
	}
}

void
changeset_end(ChangesetIter *it)
{
	free(it->datums);
	memset(it, 0, sizeof(*it));
}

char *
changeset_text(const KvDatum *d)
{
	if (d == NULL || d->type != KV_TEXT)
		return NULL;

	char	   *text = malloc(d->len + 1);

	if (text == NULL)
		return NULL;
	memcpy(text, d->s, d->len);
	text[d->len] = '\0';
	return text;
}

/* put_varint -- v as one of SQLite's varints (read_varint's inverse) */
static void
put_varint(RlBuf *out, uint64_t v)
{
	uint8_t		groups[10];
	int			n = 0;

	if (v >> 56)
	{
		/* nine bytes: eight of 7 bits, the last of 8 */
		uint8_t		bytes[9];

		bytes[8] = (uint8_t) v;
		v >>= 8;
		for (int i = 7; i >= 0; i--, v >>= 7)
			bytes[i] = (uint8_t) ((v & 0x7f) | 0x80);
		rlbuf_append(out, bytes, sizeof(bytes));
		return;
	}
	do
	{
		groups[n++] = (uint8_t) (v & 0x7f);
		v >>= 7;
	} while (v);
	for (int i = n - 1; i >= 0; i--)
		rlbuf_put_u8(out, (uint8_t) (groups[i] | (i > 0 ? 0x80 : 0)));
}

static void
put_u64be(RlBuf *out, uint64_t v)
{
	uint8_t		bytes[8];

	for (int i = 7; i >= 0; i--, v >>= 8)
		bytes[i] = (uint8_t) v;
	rlbuf_append(out, bytes, sizeof(bytes));
}

void
changeset_put_table(RlBuf *out, const char *table, int ncolumns, const uint8_t *pk)
{
	rlbuf_put_u8(out, CHANGESET_TABLE_HEADER);
	put_varint(out, (uint64_t) ncolumns);
	rlbuf_append(out, pk, (size_t) ncolumns);
	rlbuf_append(out, table, strlen(table) + 1);
}

void
changeset_put_change(RlBuf *out, int op)
{
	rlbuf_put_u8(out, (uint8_t) op);
	rlbuf_put_u8(out, 0);		/* not indirect */
}

void
changeset_put_value(RlBuf *out, sqlite3_value *value)
{
	int			type = sqlite3_value_type(value);
	double		d;
	uint64_t	bits;

	rlbuf_put_u8(out, (uint8_t) type);
	switch (type)
	{
		case SQLITE_INTEGER:
			put_u64be(out, (uint64_t) sqlite3_value_int64(value));
			break;
		case SQLITE_FLOAT:
			d = sqlite3_value_double(value);
			memcpy(&bits, &d, sizeof(bits));
			put_u64be(out, bits);
			break;
		case SQLITE_TEXT:
		case SQLITE_BLOB:
			{
				/* the bytes first, then their length (sqlite3_value_bytes' rule) */
				const void *bytes = type == SQLITE_TEXT ? (const void *) sqlite3_value_text(value)
					: sqlite3_value_blob(value);
				int			len = sqlite3_value_bytes(value);

				put_varint(out, (uint64_t) len);
				rlbuf_append(out, bytes, (size_t) len);
			}
			break;
		default:
			break;				/* SQLITE_NULL: the type alone */
	}
}

void
changeset_put_undefined(RlBuf *out)
{
	rlbuf_put_u8(out, FIELD_UNDEFINED);
}
