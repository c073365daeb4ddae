/*
 * keptscan.c: copies of DuckLake's whole-table binary COPY scans, kept by a backend
 * and brought up to date by the rows added since (keptscan.h says when that holds).
 *
 * Before each CREATE TABLE, DuckDB reads all of ducklake_column again (12 000 rows at
 * 300 tables of 40 columns, 7 ms of SQLite and encoding) for the 40 rows the last one
 * added. A copy is the scan's tuples as they went to the client, each behind its
 * length, with the snapshot and the largest row id it reflects. A scan that may use it
 * sends the copy, then runs the query for the rows above that row id (in row id
 * order, as the whole scan returns them), appending their tuples to the copy as they
 * are sent; only once they are all sent does the copy take the new snapshot, so an
 * ERROR in between leaves it to be read again whole. A copy that outgrows
 * KEPT_SCAN_MAX_BYTES is dropped while the scan goes on streaming.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog_cache.h"
#include "elog.h"
#include "errcodes.h"
#include "keptscan.h"
#include "mcxt.h"
#include "typio.h"

struct KeptScan
{
	char	   *sql;			/* the scan's SQLite text, which names it (NULL: free) */
	RlBuf		tuples;			/* the copy: per tuple its length (host order), then it */
	uint64_t	seq;			/* the snapshot the copy reflects (0: none, read it whole) */
	int64_t		rowid;			/* the largest row id in it */
	uint64_t	used;			/* when a scan last used it */
	/* the scan running on it */
	size_t		sent;			/* of the copy's bytes as it was: sent so far ... */
	size_t		kept_len;		/* ... of these */
	ExecState  *added;			/* the rows above the copy's row id */
	const CopyOptions *options;
	int			ncolumns;
	bool		keeping;		/* the added rows go into the copy */
	uint64_t	next_seq;		/* what the copy reflects once they are all in */
	int64_t		next_rowid;
};

static KeptScan kept[KEPT_SCANS];
static uint64_t scans_run;
static RlBuf unkept;			/* an added tuple of a copy too big to keep */

static void
forget(KeptScan *k)
{
	free(k->sql);
	rlbuf_free(&k->tuples);
	memset(k, 0, sizeof(*k));
}

void
KeptScanForgetAll(void)
{
	for (int i = 0; i < KEPT_SCANS; i++)
		forget(&kept[i]);
}

/* slot_for -- the copy of scan sql, or the slot a new one takes (free, or least recently used) */
static KeptScan *
slot_for(const char *sql)
{
	KeptScan   *oldest = &kept[0];

	for (int i = 0; i < KEPT_SCANS; i++)
	{
		if (kept[i].sql && strcmp(kept[i].sql, sql) == 0)
			return &kept[i];
		if (oldest->sql && (kept[i].sql == NULL || kept[i].used < oldest->used))
			oldest = &kept[i];
	}
	forget(oldest);
	oldest->sql = strdup(sql);
	rlbuf_init(&oldest->tuples);
	if (oldest->sql == NULL)
		ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	return oldest;
}

/* stay_within_budget -- forget the least recently used copies other than k while they take too much */
static void
stay_within_budget(const KeptScan *k)
{
	for (;;)
	{
		size_t		total = 0;
		KeptScan   *oldest = NULL;

		for (int i = 0; i < KEPT_SCANS; i++)
		{
			total += kept[i].tuples.cap;
			if (kept[i].sql && &kept[i] != k && (oldest == NULL || kept[i].used < oldest->used))
				oldest = &kept[i];
		}
		if (total <= KEPT_SCANS_MAX_BYTES || oldest == NULL)
			return;
		forget(oldest);
	}
}

KeptScan *
KeptScanOpen(const AnalyzedStmt *query, const Value *params, const CopyOptions *options)
{
	if (query->scan_table == NULL || query->nsql != 1 || options->format != COPY_FORMAT_BINARY ||
		!CacheScanUsable())
		return NULL;

	KeptScan   *k = slot_for(query->sql[0].sql);
	int64_t		since = CacheScanSince(query->scan_table, k->seq, k->rowid, &k->next_seq, &k->next_rowid);
	const SqlStatement *whole = &query->sql[0];
	SqlStatement *added = palloc(sizeof(SqlStatement));
	AnalyzedStmt *added_query = palloc(sizeof(AnalyzedStmt));
	Expr	   *after = palloc0(sizeof(Expr));

	k->seq = 0;					/* until the added rows are all in */
	k->used = ++scans_run;
	if (since == INT64_MIN)
		rlbuf_reset(&k->tuples);
	k->kept_len = k->tuples.len;
	k->sent = 0;
	k->keeping = true;
	k->options = options;
	k->ncolumns = query->ncolumns;

	/* the same query, for the rows above the copy's row id, in row id order */
	after->kind = EXPR_CONST;
	after->type = INT8OID;
	after->typmod = -1;
	after->location = -1;
	after->constval = typio_int(INT8OID, since);
	added->nbinds = whole->nbinds + 1;
	added->binds = palloc(sizeof(Expr *) * (size_t) added->nbinds);
	memcpy(added->binds, whole->binds, sizeof(Expr *) * (size_t) whole->nbinds);
	added->binds[whole->nbinds] = after;
	added->sql = psprintf("%s WHERE %s." CACHE_ROWID_COLUMN " > ?%d ORDER BY %s." CACHE_ROWID_COLUMN,
						  whole->sql, query->scan_alias, added->nbinds, query->scan_alias);
	*added_query = *query;
	added_query->sql = added;
	k->added = ExecutorStart(added_query, params, true);
	return k;
}

bool
KeptScanNext(KeptScan *k, const uint8_t **tuple, size_t *len)
{
	uint32_t	n;
	Value	   *row;

	if (k->sent < k->kept_len)
	{
		memcpy(&n, k->tuples.data + k->sent, sizeof(n));
		*tuple = k->tuples.data + k->sent + sizeof(n);
		*len = n;
		k->sent += sizeof(n) + n;
		return true;
	}
	if (!ExecutorNext(k->added, &row))
	{
		if (k->keeping)
		{
			k->seq = k->next_seq;
			k->rowid = k->next_rowid;
		}
		stay_within_budget(k);
		return false;
	}

	RlBuf	   *out = k->keeping ? &k->tuples : &unkept;
	size_t		at;

	if (!k->keeping)
		rlbuf_reset(out);
	at = out->len;
	rlbuf_append(out, &(uint32_t) {0}, sizeof(n));
	copy_encode_row(out, k->options, k->ncolumns, row);
	n = (uint32_t) (out->len - at - sizeof(n));
	memcpy(out->data + at, &n, sizeof(n));
	if (k->keeping && out->len > KEPT_SCAN_MAX_BYTES)
	{
		/* too big to keep: this tuple goes out from elsewhere, the copy goes */
		rlbuf_reset(&unkept);
		rlbuf_append(&unkept, out->data + at, sizeof(n) + n);
		rlbuf_free(&k->tuples);
		rlbuf_init(&k->tuples);
		k->keeping = false;
		out = &unkept;
		at = 0;
	}
	*tuple = out->data + at + sizeof(n);
	*len = n;
	return true;
}
