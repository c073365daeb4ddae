/*
 * keptscan.c: copies of DuckLake's binary COPY scans of its tables, kept by a backend
 * and brought up to date by the rows added since (keptscan.h says when that holds).
 *
 * Before each CREATE TABLE, DuckDB reads all of ducklake_column again (a row per
 * column of every table, all of them read from SQLite and encoded) for the 40 rows the last one
 * added. A copy is the scan's CopyData messages as they went to the client (the binary
 * header at the start of the first), with the snapshot and the largest row id it
 * reflects. A scan that may use it sends the copy from where it is, then runs the
 * query for the rows above that row id, appending their messages to the copy and
 * sending them as they pile up; only
 * once they are all in does the copy take the new snapshot, so an ERROR in between
 * leaves it to be read again whole. A copy that outgrows KEPT_SCAN_MAX_BYTES is
 * dropped while the scan goes on streaming. A scan with new constants takes over the
 * copy of one with old ones when the rows it holds pass both filters alike
 * (adopt_copy): DuckDB's filters on the newest snapshot id change at every commit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "common/crc32c.h"
#include "executor/executor.h"
#include "executor/keptscan.h"
#include "libpq/pqcomm.h"
#include "libpq/pqformat.h"
#include "storage/bloom.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/errcodes.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

typedef struct KeptScan
{
	char	   *key;			/* the scan's SQLite text and constants (NULL: free) */
	int			body_fd;		/* the published file the copy begins with (if body_len) */
	off_t		body_offset;	/* where its messages start there */
	size_t		body_len;		/* their length (0: the copy is all in messages) */
	struct timespec body_mtime; /* the file's when the body was checked or written */
	RlBuf		messages;		/* the copy's CopyData messages after its body, the header in the first */
	int64_t		nrows;
	uint64_t	seq;			/* the snapshot the copy reflects (0: none, read it whole) */
	int64_t		rowid;			/* the largest row id in it */
	uint64_t	used;			/* when a scan last used it (0: never, a new slot) */
	int			unkept_runs;	/* scans left to run without it (after a small one) */
	size_t		published;		/* its size when last published or read from there */
	bool		reused;			/* a scan went on from it: a copy worth publishing */
	bool		publish_due;	/* to publish once the client has its answer */
} KeptScan;

/*
 * A copy costs a scan a lookup of rl_scan_base and a query of its own,
 * which a result smaller than KEPT_SCAN_MIN_BYTES (a few dozen rows, read as fast by
 * the plain query) does not win back: after a copy that small, the next
 * KEPT_SCAN_PAUSE scans run as plain ones.
 */
#define KEPT_SCAN_MIN_BYTES		(16 * 1024)
#define KEPT_SCAN_PAUSE			16

static KeptScan kept[KEPT_SCANS];
static uint64_t scans_run;

/*
 * Published copies. A backend serves one session, so a new DuckDB's first scans read
 * every table whole (all of ducklake_column at each re-ATTACH) although other backends
 * kept them a moment before. So a copy is also written to a file,
 * PUBLISHED_DIR/<datid>.<cache id>.<hash of its key> in the data directory, once a scan
 * went on from it (a filter on a snapshot id is a new name at every snapshot, whose
 * first scan no other session repeats) and it has grown to twice its size when last
 * published (a growing copy is written a few times, its final size twice in all), and,
 * if it grew since, when the backend exits; a backend without a copy of a scan looks
 * there first. A copy read from a file is checked as the backend's own are
 * (CacheScanSince: the snapshot and row id it reflects, the table's rescan mark), so it
 * is brought up to date or read again whole whichever backend wrote it and whenever. A
 * copy read from a file, or written to one, leaves its messages there (its body, sent
 * from the open file piece by piece) and holds in memory only those of the rows added
 * since: the budget of KEPT_SCANS_MAX_BYTES is for those, so a file list and its files'
 * statistics no longer take turns in it. The file holds the whole key (hashes may
 * collide) and a CRC32C of all of it, and is written under a temporary name then
 * renamed: a torn or foreign one is ignored. The backend that publishes keeps its
 * database to the PUBLISHED_MAX newest files and PUBLISHED_MAX_BYTES, and removes those
 * of other cache ids (a rebuilt cache, a database dropped and made again). Any failure
 * here only means that a scan reads its table.
 */
#define PUBLISHED_DIR			"kept_scans"
#define PUBLISHED_MAX			32
#define PUBLISHED_MAX_BYTES		(4 * KEPT_SCANS_MAX_BYTES)
#define PUBLISHED_MAGIC			"RLKEPT1"
/* a temporary file older than this was left by a backend that died writing it */
#define PUBLISHED_STALE_TEMP_S	60

typedef struct PublishedHeader
{
	char		magic[8];
	uint64_t	seq;
	int64_t		rowid;
	int64_t		nrows;
	uint64_t	key_len;
	uint64_t	messages_len;
	uint32_t	crc;			/* of this header (with crc 0), the key and the messages */
	uint32_t	unused;
} PublishedHeader;

static int64_t cache_id;		/* CacheIdentity(), read at the session's first keepable scan */
static bool publish_at_exit;	/* the exit hook is registered */
static bool publishing_due;		/* some copy's publish_due is set */

/* copy_len -- the length of k's copy: its body in a file and the messages after it */
static size_t
copy_len(const KeptScan *k)
{
	return k->body_len + k->messages.len;
}

/*
 * body_unchanged -- whether k's body file is as it was when checked or written (a
 * publisher renames a new file over the name, which leaves the one open here as it
 * is; a file changed in place is not read again unchecked)
 */
static bool
body_unchanged(const KeptScan *k)
{
	struct stat st;

	return k->body_len == 0 ||
		(fstat(k->body_fd, &st) == 0 && st.st_mtim.tv_sec == k->body_mtime.tv_sec &&
		 st.st_mtim.tv_nsec == k->body_mtime.tv_nsec &&
		 (uint64_t) st.st_size >= (uint64_t) k->body_offset + k->body_len);
}

/* drop_body -- the copy no longer begins with a file's messages */
static void
drop_body(KeptScan *k)
{
	if (k->body_len > 0)
		close(k->body_fd);
	k->body_len = 0;
}

static void
forget(KeptScan *k)
{
	free(k->key);
	drop_body(k);
	rlbuf_free(&k->messages);
	memset(k, 0, sizeof(*k));
}

/* pause_keeping -- the copy goes, and the next KEPT_SCAN_PAUSE scans run without one */
static void
pause_keeping(KeptScan *k)
{
	k->unkept_runs = KEPT_SCAN_PAUSE;
	k->seq = 0;
	k->published = 0;
	drop_body(k);
	rlbuf_free(&k->messages);
}

void
KeptScanForgetAll(void)
{
	for (int i = 0; i < KEPT_SCANS; i++)
		forget(&kept[i]);
	cache_id = 0;
}

/* published_name -- the file name (in PUBLISHED_DIR) of the copy named key */
static void
published_name(char *out, size_t size, const char *key)
{
	snprintf(out, size, "%u.%016llx.%016llx", (unsigned) MyDatabaseId, (unsigned long long) cache_id,
			 (unsigned long long) bloom_hash(key, strlen(key), 0));
}

static bool
read_fully(int fd, void *data, size_t len)
{
	while (len > 0)
	{
		ssize_t		n = read(fd, data, len);

		if (n <= 0)
			return false;
		data = (char *) data + n;
		len -= (size_t) n;
	}
	return true;
}

/* a body is read in pieces of this size, to send, to check or to copy */
#define BODY_PIECE_BYTES	(256 * 1024)

/*
 * each_body_piece -- fn on k's body, piece by piece (pread: the file's offset stays
 * put); false if the file cannot be read whole or fn returns false
 */
static bool
each_body_piece(const KeptScan *k, bool (*fn) (const void *piece, size_t len, void *arg), void *arg)
{
	static char *piece;

	if (k->body_len > 0 && piece == NULL && (piece = malloc(BODY_PIECE_BYTES)) == NULL)
		return false;
	for (size_t done = 0; done < k->body_len;)
	{
		size_t		want = k->body_len - done < BODY_PIECE_BYTES ? k->body_len - done : BODY_PIECE_BYTES;
		ssize_t		n = pread(k->body_fd, piece, want, k->body_offset + (off_t) done);

		if (n <= 0 || !fn(piece, (size_t) n, arg))
			return false;
		done += (size_t) n;
	}
	return true;
}

static bool
crc_piece(const void *piece, size_t len, void *arg)
{
	*(uint32_t *) arg = crc32c_extend(*(uint32_t *) arg, piece, len);
	return true;
}

typedef struct PieceWriter
{
	int			fd;
	uint32_t	crc;
} PieceWriter;

/* write_piece -- piece to the file, and into the CRC */
static bool
write_piece(const void *piece, size_t len, void *arg)
{
	PieceWriter *w = arg;

	w->crc = crc32c_extend(w->crc, piece, len);
	return write(w->fd, piece, len) == (ssize_t) len;
}

static bool
send_piece(const void *piece, size_t len, void *arg)
{
	return pq_putmessages(piece, len) == 0;
}

/* header_crc -- the CRC32C of header (with crc 0) and key, which the messages' extends */
static uint32_t
header_crc(const PublishedHeader *header, const char *key)
{
	PublishedHeader h = *header;

	h.crc = 0;
	return crc32c_extend(crc32c(&h, sizeof(h)), key, h.key_len);
}

/*
 * load_published -- the published copy named k->key into k, if there is a sound one:
 * its messages stay in the file, k's body, read through once now for the CRC and
 * again, piece by piece, whenever they are sent
 */
static void
load_published(KeptScan *k)
{
	char		path[4096];
	char		name[64];
	PublishedHeader h;
	struct stat st;
	size_t		key_len = strlen(k->key);
	bool		sound = false;
	int			fd;

	published_name(name, sizeof(name), k->key);
	snprintf(path, sizeof(path), "%s/%s/%s", DataDir, PUBLISHED_DIR, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	drop_body(k);
	rlbuf_free(&k->messages);
	if (fstat(fd, &st) == 0 && read_fully(fd, &h, sizeof(h)) &&
		memcmp(h.magic, PUBLISHED_MAGIC, sizeof(h.magic)) == 0 && h.seq != 0 && h.nrows > 0 &&
		h.key_len == key_len && h.messages_len > 0 && h.messages_len <= KEPT_SCAN_MAX_BYTES &&
		(uint64_t) st.st_size == sizeof(h) + h.key_len + h.messages_len)
	{
		char	   *key = palloc(key_len + 1);
		uint32_t	crc;

		k->body_fd = fd;
		k->body_offset = (off_t) (sizeof(h) + key_len);
		k->body_len = h.messages_len;
		k->body_mtime = st.st_mtim;
		sound = read_fully(fd, key, key_len) && memcmp(key, k->key, key_len) == 0 &&
			(crc = header_crc(&h, key), each_body_piece(k, crc_piece, &crc)) && crc == h.crc;
		pfree(key);
	}
	if (!sound)
	{
		if (k->body_len == 0)
			close(fd);
		drop_body(k);
		return;
	}
	k->seq = h.seq;
	k->rowid = h.rowid;
	k->nrows = h.nrows;
	k->published = h.messages_len;
}

typedef struct PublishedFile
{
	char		name[64];
	time_t		mtime;
	off_t		size;
} PublishedFile;

static int
newest_first(const void *a, const void *b)
{
	const PublishedFile *x = a,
			   *y = b;

	return (x->mtime < y->mtime) - (x->mtime > y->mtime);
}

/*
 * prune_published -- remove the database's files of other cache ids, temporary files
 * left by backends that died writing them, and all but the newest PUBLISHED_MAX
 * within PUBLISHED_MAX_BYTES
 */
static void
prune_published(const char *dir)
{
	char		ours[64],
				database[16];
	PublishedFile files[PUBLISHED_MAX * 2];
	int			nfiles = 0;
	off_t		bytes = 0;
	DIR		   *d = opendir(dir);
	struct dirent *e;
	time_t		now = time(NULL);

	if (d == NULL)
		return;
	snprintf(database, sizeof(database), "%u.", (unsigned) MyDatabaseId);
	snprintf(ours, sizeof(ours), "%u.%016llx.", (unsigned) MyDatabaseId, (unsigned long long) cache_id);
	while ((e = readdir(d)) != NULL)
	{
		struct stat st;
		bool		temporary;

		if (strncmp(e->d_name, database, strlen(database)) != 0 || fstatat(dirfd(d), e->d_name, &st, 0) != 0)
			continue;
		/* <datid>.<cache id>.<hash>.<pid> */
		temporary = strlen(e->d_name) > strlen(ours) && strchr(e->d_name + strlen(ours), '.') != NULL;
		if (strncmp(e->d_name, ours, strlen(ours)) != 0 || (temporary && now - st.st_mtime > PUBLISHED_STALE_TEMP_S) ||
			(!temporary && (nfiles == PUBLISHED_MAX * 2 || strlen(e->d_name) >= sizeof(files[0].name))))
			unlinkat(dirfd(d), e->d_name, 0);
		else if (!temporary)
		{
			strcpy(files[nfiles].name, e->d_name);
			files[nfiles].mtime = st.st_mtime;
			files[nfiles++].size = st.st_size;
		}
	}
	qsort(files, (size_t) nfiles, sizeof(files[0]), newest_first);
	for (int i = 0; i < nfiles; i++)
	{
		bytes += files[i].size;
		if (i >= PUBLISHED_MAX || bytes > PUBLISHED_MAX_BYTES)
			unlinkat(dirfd(d), files[i].name, 0);
	}
	closedir(d);
}

/*
 * publish -- write k where other backends look for it (see PUBLISHED_DIR); the file
 * becomes k's body, and the messages k held in memory go
 */
static void
publish(KeptScan *k)
{
	char		dir[4096],
				name[64],
				path[4200],
				temp[4300];
	PublishedHeader h = {.magic = PUBLISHED_MAGIC};
	PieceWriter w;

	if (k->key == NULL || k->seq == 0 || !k->reused || cache_id == 0)
		return;
	h.seq = k->seq;
	h.rowid = k->rowid;
	h.nrows = k->nrows;
	h.key_len = strlen(k->key);
	h.messages_len = copy_len(k);

	struct iovec parts[2] = {{&h, sizeof(h)}, {k->key, h.key_len}};

	snprintf(dir, sizeof(dir), "%s/%s", DataDir, PUBLISHED_DIR);
	published_name(name, sizeof(name), k->key);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(temp, sizeof(temp), "%s.%d", path, (int) MyProcPid);
	k->published = copy_len(k);	/* tried: not again before it doubles */
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return;
	if ((w.fd = open(temp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		return;
	/* the header, whose CRC covers the messages, is written again once they are */
	w.crc = header_crc(&h, k->key);

	bool		written = writev(w.fd, parts, 2) == (ssize_t) (sizeof(h) + h.key_len) &&
		each_body_piece(k, write_piece, &w) && write_piece(k->messages.data, k->messages.len, &w) &&
		(h.crc = w.crc, pwrite(w.fd, &h, sizeof(h), 0) == (ssize_t) sizeof(h));

	if (!written || rename(temp, path) != 0)
	{
		close(w.fd);
		unlink(temp);
		return;
	}
	struct stat st;

	if (fstat(w.fd, &st) != 0)
	{
		close(w.fd);
		return;
	}
	drop_body(k);
	rlbuf_free(&k->messages);
	k->body_fd = w.fd;
	k->body_offset = (off_t) (sizeof(h) + h.key_len);
	k->body_len = h.messages_len;
	k->body_mtime = st.st_mtim;
	prune_published(dir);
}

void
KeptScanPublishDue(void)
{
	if (!publishing_due)
		return;
	publishing_due = false;
	for (int i = 0; i < KEPT_SCANS; i++)
		if (kept[i].publish_due)
		{
			kept[i].publish_due = false;
			publish(&kept[i]);
		}
}

/* publish_grown -- at exit: publish the copies that grew since they were last */
static void
publish_grown(void)
{
	for (int i = 0; i < KEPT_SCANS; i++)
		if (copy_len(&kept[i]) > kept[i].published)
			publish(&kept[i]);
}

/*
 * scan_key -- what names the copy of a scan: its SQLite text and the values of its
 * constants; NULL when it has other values bound (an expression rl_eval computes may
 * hold constants of its own)
 */
static char *
scan_key(const SqlStatement *s)
{
	RlBuf		key,
				value;

	rlbuf_init_in(&key, CurrentMemoryContext);
	rlbuf_init_in(&value, CurrentMemoryContext);
	rlbuf_append_str(&key, s->sql);
	for (int i = 0; i < s->nbinds; i++)
	{
		const Value *v = &s->binds[i]->constval;

		if (s->binds[i]->kind != EXPR_CONST)
			return NULL;
		rlbuf_printf(&key, "\x1f%u:", v->type);
		if (v->isnull)
			rlbuf_append_str(&key, "\x1e");
		else
		{
			/* binary, in hex: the text form of some types follows session settings (DateStyle) */
			PqMsgBuilder bytes = {.buf = &value};

			rlbuf_reset(&value);
			typio_send(&bytes, v);
			rlbuf_append_hex(&key, value.data, value.len);
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

/*
 * stay_within_budget -- forget the least recently used copies other than k while the
 * messages they hold in memory take too much (a body is in its file)
 */
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

/* const_expr -- an expression of the constant v */
static Expr *
const_expr(Value v)
{
	Expr	   *e = palloc0(sizeof(Expr));

	e->kind = EXPR_CONST;
	e->type = v.type;
	e->typmod = -1;
	e->location = -1;
	e->constval = v;
	return e;
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
	Expr	   *after = const_expr(typio_int(INT8OID, since));

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

/* read_back_exactly -- whether a constant of type comes back from its binary form as it was */
static bool
read_back_exactly(Oid type)
{
	switch (type)
	{
		case BOOLOID:
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case FLOAT8OID:
		case NUMERICOID:
		case UUIDOID:
		case TEXTOID:
		case VARCHAROID:
			return true;
		default:
			return false;		/* float4 rounds, arrays have no binary input */
	}
}

/*
 * key_constants -- the constants a scan key names (scan_key), each an expression,
 * after the n given; false if the key does not hold n of them after its text, or one
 * of a type read_back_exactly does not vouch for
 */
static bool
key_constants(const char *key, size_t text_len, int n, Expr **out)
{
	const char *p = key + text_len;

	for (int b = 0; b < n; b++)
	{
		char	   *end;
		unsigned long type;

		if (*p++ != '\x1f' || (type = strtoul(p, &end, 10)) == 0 || *end != ':' ||
			!read_back_exactly((Oid) type))
			return false;
		p = end + 1;
		if (*p == '\x1e')
		{
			out[b] = const_expr(typio_null((Oid) type));
			p++;
			continue;
		}

		size_t		len = strcspn(p, "\x1f") / 2;
		uint8_t    *bytes = palloc(len + 1);

		for (size_t i = 0; i < len; i++, p += 2)
		{
			char		hex[3] = {p[0], p[1], 0};

			bytes[i] = (uint8_t) strtoul(hex, NULL, 16);
		}
		out[b] = const_expr(typio_receive((Oid) type, bytes, len));
	}
	return *p == '\0';
}

/* renumbered -- text with every ?N outside quotes made ?(N + by) */
static char *
renumbered(const char *text, int by)
{
	RlBuf		out;
	char		quote = 0;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (const char *p = text; *p; p++)
	{
		if (quote == 0 && *p == '?' && p[1] >= '0' && p[1] <= '9')
		{
			char	   *end;

			rlbuf_printf(&out, "?%ld", strtol(p + 1, &end, 10) + by);
			p = end - 1;
			continue;
		}
		if (quote == 0 && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (*p == quote)
			quote = 0;			/* a doubled quote closes and opens again */
		rlbuf_put_u8(&out, (uint8_t) *p);
	}
	return (char *) rlbuf_cstr(&out);
}

/*
 * same_rows -- whether the rows of the table up to row id rowid pass query's filter
 * exactly when they pass it with the constants donor_key names: one query for a row
 * where the two disagree
 */
static bool
same_rows(const AnalyzedStmt *query, const Value *params, const char *donor_key, int64_t rowid)
{
	const SqlStatement *s = &query->sql[0];
	int			n = s->nbinds;
	SqlStatement *check = palloc(sizeof(SqlStatement));
	AnalyzedStmt *check_query = palloc(sizeof(AnalyzedStmt));
	ResultColumn *column = palloc0(sizeof(ResultColumn));

	check->nbinds = 2 * n + 1;
	check->binds = palloc(sizeof(Expr *) * (size_t) check->nbinds);
	if (!key_constants(donor_key, strlen(s->sql), n, check->binds))
		return false;
	memcpy(check->binds + n, s->binds, sizeof(Expr *) * (size_t) n);
	check->binds[2 * n] = const_expr(typio_int(INT8OID, rowid));
	check->sql = psprintf("SELECT 1 FROM %s WHERE %s." CACHE_ROWID_COLUMN " <= ?%d AND "
						  "(CASE WHEN %s THEN 1 ELSE 0 END) <> (CASE WHEN %s THEN 1 ELSE 0 END) LIMIT 1",
						  query->scan_from, query->scan_alias, check->nbinds, query->scan_where,
						  renumbered(query->scan_where, n));
	column->name = "differs";
	column->type = INT4OID;
	column->typmod = -1;
	*check_query = *query;
	check_query->sql = check;
	check_query->ncolumns = 1;
	check_query->columns = column;
	check_query->scan_table = NULL;

	ExecState  *es = ExecutorStart(check_query, params, true);
	Value	   *row;
	bool		differs = ExecutorNext(es, &row);

	while (differs && ExecutorNext(es, &row))
		;
	return !differs;
}

/*
 * adopt_copy -- k, a scan no copy is kept of, takes over the copy of one that differs
 * from it only in its constants, when the table has only had rows appended since that
 * copy and the rows it held pass k's filter exactly when they passed the copy's.
 * DuckDB filters its catalog scans on the newest snapshot id (begin_snapshot <= N), a
 * new scan at every snapshot: without this, each read a table whole again (for a long
 * file list, several times what sending the copy costs; doc/performance.md).
 */
static void
adopt_copy(KeptScan *k, const AnalyzedStmt *query, const Value *params)
{
	size_t		text_len = strlen(query->sql[0].sql);
	KeptScan   *donor = NULL;
	uint64_t	seq;
	int64_t		rowid;

	for (int i = 0; i < KEPT_SCANS; i++)
		if (&kept[i] != k && kept[i].key && kept[i].seq != 0 && copy_len(&kept[i]) > 0 &&
			strncmp(kept[i].key, query->sql[0].sql, text_len) == 0 && kept[i].key[text_len] == '\x1f' &&
			(donor == NULL || kept[i].used > donor->used))
			donor = &kept[i];
	if (donor == NULL ||
		CacheScanSince(query->scan_table, donor->seq, donor->rowid, &seq, &rowid) == INT64_MIN ||
		!same_rows(query, params, donor->key, donor->rowid))
		return;
	drop_body(k);
	rlbuf_free(&k->messages);
	k->messages = donor->messages;
	k->body_fd = donor->body_fd;
	k->body_offset = donor->body_offset;
	k->body_len = donor->body_len;
	k->body_mtime = donor->body_mtime;
	k->nrows = donor->nrows;
	k->seq = donor->seq;
	k->rowid = donor->rowid;
	k->reused = true;
	/* published again only once it doubles: not a file per snapshot and reader */
	k->published = donor->published;
	memset(&donor->messages, 0, sizeof(donor->messages));
	donor->body_len = 0;
	forget(donor);
}

KeptScanRun *
KeptScanStart(const AnalyzedStmt *query, const Value *params, const CopyOptions *options)
{
	char	   *key;

	if (query->scan_table == NULL || query->nsql != 1 || options->format != COPY_FORMAT_BINARY ||
		!CacheScanUsable() || (key = scan_key(&query->sql[0])) == NULL)
		return NULL;

	KeptScan   *k = slot_for(key);

	if (k->used == 0)
	{
		/* not a scan this backend kept: perhaps another one published it ... */
		if (cache_id == 0)
			cache_id = CacheIdentity();
		load_published(k);
		/* ... or one with other constants holds the same rows */
		if (k->seq == 0 && query->scan_where != NULL)
			adopt_copy(k, query, params);
		stay_within_budget(k);
	}
	if (k->unkept_runs > 0)
	{
		k->unkept_runs--;
		k->used = ++scans_run;
		return NULL;
	}

	KeptScanRun *run = palloc(sizeof(KeptScanRun));

	if (!body_unchanged(k))
		k->seq = 0;				/* read it whole */

	int64_t		since = CacheScanSince(query->scan_table, k->seq, k->rowid, &run->seq, &run->rowid);

	run->copy = k;
	run->query = query;
	run->options = options;
	run->added = ExecutorStart(added_rows(query, since), params, true);
	k->seq = 0;					/* until the added rows are all in */
	k->used = ++scans_run;
	if (since == INT64_MIN)
	{
		drop_body(k);
		rlbuf_reset(&k->messages);
		k->nrows = 0;
		k->published = 0;
	}
	else
		k->reused = true;
	return run;
}

uint64_t
KeptScanSend(KeptScanRun *run)
{
	KeptScan   *k = run->copy;
	RlBuf	   *out = &k->messages;
	size_t		sent = out->len;
	Value	   *row;

	if (!each_body_piece(k, send_piece, NULL))
	{
		int			read_errno = errno;

		pause_keeping(k);
		errno = read_errno;
		ereport(ERROR,
				errcode(ERRCODE_IO_ERROR),
				errmsg("could not read a kept copy of a scan: %m"));
	}
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
		if (out == &k->messages && copy_len(k) > KEPT_SCAN_MAX_BYTES)
		{
			/* too big to keep: the rest streams through a buffer of its own */
			rlbuf_append(&unkept, out->data + sent, out->len - sent);
			drop_body(k);
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
	if (out->len > sent)		/* else data may be NULL, and NULL + 0 is undefined */
		pq_putmessages(out->data + sent, out->len - sent);
	if (out == &k->messages && copy_len(k) < KEPT_SCAN_MIN_BYTES)
		pause_keeping(k);
	else if (out == &k->messages)
	{
		k->seq = run->seq;
		k->rowid = run->rowid;
		if (copy_len(k) >= 2 * k->published)
			k->publish_due = publishing_due = true;
		if (!publish_at_exit)
			publish_at_exit = atexit(publish_grown) == 0;
	}
	stay_within_budget(k);
	return (uint64_t) k->nrows;
}
