/*
 * keptscan.c: copies of DuckLake's binary COPY scans of its tables, kept by a backend
 * and brought up to date by the rows added since (keptscan.h says when that holds).
 *
 * Before each CREATE TABLE, DuckDB reads all of ducklake_column again (12 000 rows at
 * 300 tables of 40 columns, 7 ms of SQLite and encoding) for the 40 rows the last one
 * added. A copy is the scan's CopyData messages as they went to the client (the binary
 * header at the start of the first), with the snapshot and the largest row id it
 * reflects. A scan that may use it sends the copy from where it is, then runs the
 * query for the rows above that row id, appending their messages to the copy and
 * sending them as they pile up; only
 * once they are all in does the copy take the new snapshot, so an ERROR in between
 * leaves it to be read again whole. A copy that outgrows KEPT_SCAN_MAX_BYTES is
 * dropped while the scan goes on streaming.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog_cache.h"
#include "elog.h"
#include "errcodes.h"
#include "keptscan.h"
#include "mcxt.h"
#include "pqcomm.h"
#include "typio.h"

typedef struct KeptScan
{
	char	   *key;			/* the scan's SQLite text and constants (NULL: free) */
	RlBuf		messages;		/* the copy: CopyData messages, the header in the first */
	int64_t		nrows;
	uint64_t	seq;			/* the snapshot the copy reflects (0: none, read it whole) */
	int64_t		rowid;			/* the largest row id in it */
	uint64_t	used;			/* when a scan last used it */
	int			unkept_runs;	/* scans left to run without it (after a small one) */
} KeptScan;

/*
 * A copy costs a scan a lookup of rl_scan_base and a query of its own, about 30 us,
 * which a result smaller than KEPT_SCAN_MIN_BYTES (a few dozen rows, read as fast by
 * the plain query) does not win back: after a copy that small, the next
 * KEPT_SCAN_PAUSE scans run as plain ones.
 */
#define KEPT_SCAN_MIN_BYTES		(16 * 1024)
#define KEPT_SCAN_PAUSE			16

static KeptScan kept[KEPT_SCANS];
static uint64_t scans_run;

static void
forget(KeptScan *k)
{
	free(k->key);
	rlbuf_free(&k->messages);
	memset(k, 0, sizeof(*k));
}

/* pause -- the copy goes, and the next KEPT_SCAN_PAUSE scans run without one */
static void
pause(KeptScan *k)
{
	k->unkept_runs = KEPT_SCAN_PAUSE;
	k->seq = 0;
	rlbuf_free(&k->messages);
}

void
KeptScanForgetAll(void)
{
	for (int i = 0; i < KEPT_SCANS; i++)
		forget(&kept[i]);
}

/*
 * scan_key -- what names the copy of a scan: its SQLite text and the values of its
 * constants; NULL when it has other values bound (an expression rl_eval computes may
 * hold constants of its own)
 */
static char *
scan_key(const SqlStatement *s)
{
	RlBuf		key;

	rlbuf_init_in(&key, CurrentMemoryContext);
	rlbuf_append_str(&key, s->sql);
	for (int i = 0; i < s->nbinds; i++)
	{
		const Value *v = &s->binds[i]->constval;
		size_t		len;

		if (s->binds[i]->kind != EXPR_CONST)
			return NULL;
		rlbuf_printf(&key, "\x1f%u:", v->type);
		if (v->isnull)
			rlbuf_append_str(&key, "\x1e");
		else
		{
			char	   *text = typio_output(v, &len);

			rlbuf_append(&key, text, len);
		}
	}
	return (char *) rlbuf_cstr(&key);
}

/* slot_for -- the copy named key, or the slot a new one takes (free, or least recently used) */
static KeptScan *
slot_for(const char *key)
{
	KeptScan   *oldest = &kept[0];

	for (int i = 0; i < KEPT_SCANS; i++)
	{
		if (kept[i].key && strcmp(kept[i].key, key) == 0)
			return &kept[i];
		if (oldest->key && (kept[i].key == NULL || kept[i].used < oldest->used))
			oldest = &kept[i];
	}
	forget(oldest);
	oldest->key = strdup(key);
	if (oldest->key == NULL)
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
			total += kept[i].messages.cap;
			if (kept[i].key && &kept[i] != k && (oldest == NULL || kept[i].used < oldest->used))
				oldest = &kept[i];
		}
		if (total <= KEPT_SCANS_MAX_BYTES || oldest == NULL)
			return;
		forget(oldest);
	}
}

/*
 * added_rows -- query for the rows above row id since. Not in row id order: a scan
 * has none of its own (no ORDER BY), and asking for one made SQLite sort a filtered
 * scan's rows rather than take them from the filter's index.
 */
static AnalyzedStmt *
added_rows(const AnalyzedStmt *query, int64_t since)
{
	const SqlStatement *whole = &query->sql[0];
	SqlStatement *added = palloc(sizeof(SqlStatement));
	AnalyzedStmt *added_query = palloc(sizeof(AnalyzedStmt));
	Expr	   *after = palloc0(sizeof(Expr));

	after->kind = EXPR_CONST;
	after->type = INT8OID;
	after->typmod = -1;
	after->location = -1;
	after->constval = typio_int(INT8OID, since);
	added->nbinds = whole->nbinds + 1;
	added->binds = palloc(sizeof(Expr *) * (size_t) added->nbinds);
	memcpy(added->binds, whole->binds, sizeof(Expr *) * (size_t) whole->nbinds);
	added->binds[whole->nbinds] = after;
	added->sql = psprintf("%s %s %s." CACHE_ROWID_COLUMN " > ?%d", whole->sql,
						  query->scan_filtered ? "AND" : "WHERE", query->scan_alias, added->nbinds);
	*added_query = *query;
	added_query->sql = added;
	return added_query;
}

/* A scan running on a copy (in the statement's memory context). */
struct KeptScanRun
{
	KeptScan   *copy;
	ExecState  *added;			/* the rows above the copy's row id */
	const AnalyzedStmt *query;
	const CopyOptions *options;
	uint64_t	seq;			/* what the copy reflects once they are all in */
	int64_t		rowid;
};

static RlBuf unkept;			/* the messages of a copy too big to keep */

KeptScanRun *
KeptScanStart(const AnalyzedStmt *query, const Value *params, const CopyOptions *options)
{
	char	   *key;

	if (query->scan_table == NULL || query->nsql != 1 || options->format != COPY_FORMAT_BINARY ||
		!CacheScanUsable() || (key = scan_key(&query->sql[0])) == NULL)
		return NULL;

	KeptScan   *k = slot_for(key);

	if (k->unkept_runs > 0)
	{
		k->unkept_runs--;
		k->used = ++scans_run;
		return NULL;
	}

	KeptScanRun *run = palloc(sizeof(KeptScanRun));
	int64_t		since = CacheScanSince(query->scan_table, k->seq, k->rowid, &run->seq, &run->rowid);

	run->copy = k;
	run->query = query;
	run->options = options;
	run->added = ExecutorStart(added_rows(query, since), params, true);
	k->seq = 0;					/* until the added rows are all in */
	k->used = ++scans_run;
	if (since == INT64_MIN)
	{
		rlbuf_reset(&k->messages);
		k->nrows = 0;
	}
	return run;
}

uint64_t
KeptScanSend(KeptScanRun *run)
{
	KeptScan   *k = run->copy;
	RlBuf	   *out = &k->messages;
	size_t		sent = out->len;
	Value	   *row;

	pq_putmessages(out->data, out->len);
	rlbuf_reset(&unkept);
	while (ExecutorNext(run->added, &row))
	{
		PqMsgBuilder msg;

		pq_beginmessage(&msg, out, PqMsg_CopyData);
		if (k->nrows++ == 0)
			copy_encode_start(out, run->options, run->query->ncolumns, NULL);
		copy_encode_row(out, run->options, run->query->ncolumns, row);
		pq_endmessage(&msg);
		if (out == &k->messages && out->len > KEPT_SCAN_MAX_BYTES)
		{
			/* too big to keep: the rest streams through a buffer of its own */
			rlbuf_append(&unkept, out->data + sent, out->len - sent);
			rlbuf_free(&k->messages);
			out = &unkept;
			sent = 0;
		}
		if (out->len - sent >= PQ_SEND_BUFFER_SIZE)
		{
			pq_putmessages(out->data + sent, out->len - sent);
			sent = out->len;
			if (out == &unkept)
			{
				rlbuf_reset(out);
				sent = 0;
			}
		}
	}
	pq_putmessages(out->data + sent, out->len - sent);
	if (out == &k->messages && out->len < KEPT_SCAN_MIN_BYTES)
		pause(k);
	else if (out == &k->messages)
	{
		k->seq = run->seq;
		k->rowid = run->rowid;
	}
	stay_within_budget(k);
	return (uint64_t) k->nrows;
}
