/*-------------------------------------------------------------------------
 *
 * writer.c
 *	  The writer process (group commit over a Unix socket) and the client
 *	  library backends use to reach it.
 *
 * Exactly one process may write to the object store, because the LSM's fencing
 * makes any second writer's first write fail. Backends therefore never open the
 * store for writing: they send the effect of a transaction to the writer and
 * wait for its answer. The writer is single-threaded on purpose. While it is
 * inside lsm_commit (a WAL object PUT: milliseconds locally, tens of
 * milliseconds on S3) new requests simply queue in their sockets; when the
 * commit returns, the loop drains every socket and commits everything it found
 * as the next group, in one WAL object. Under load the group grows with the
 * latency of the store, which is the point of group commit, and no request
 * waits for more than the one write in flight plus its own.
 *
 * A request is answered only after lsm_commit has returned RL_OK for its group:
 * an acknowledged commit is durable. Subscribers (every backend, on a connection
 * of its own) are told the newest commit sequence after each group, so they know
 * when their read cache is behind.
 *
 * It also knows which connections' transactions hold writes (from their
 * WriteIntent to their CommitRequest or Release), and answers a WriteIntent once
 * the others of its database have finished, or after WRITE_INTENT_WAIT_MS: the
 * wait a PostgreSQL writer makes for a row's holder, at the scale of a database.
 *
 * The frame format is described in writer.h and doc/protocol-writer.md.
 *
 * On a standby (utils/recovery.h) the same process follows the stores instead: it
 * opens each as a follower, never writes to it (no fence, no lease, no object),
 * polls it for new commits every standby_poll_interval (doubled while none come,
 * up to standby_poll_max_interval), makes new commits visible by applying to the
 * catalog cache, row by row, the keys their WAL objects wrote (the whole cache after
 * DDL, or when they came through a newer manifest), and tells the backends through the
 * commit horizon as after its own commits. A promote file in the data directory makes it close the
 * followers and open the stores as their writer, which fences the old one.
 * This file holds both modes, since they share the table of databases; it is
 * longer than 1 500 lines for that reason.
 *
 * IDENTIFICATION
 *	  src/postmaster/writer.c
 *
 *-------------------------------------------------------------------------
 */
#define _GNU_SOURCE				/* accept4, ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "postmaster/metrics.h"
#include "postmaster/writer.h"
#include "storage/lease.h"
#include "storage/lsm.h"
#include "storage/manifest.h"
#include "storage/objstore.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/recovery.h"
#include "utils/rl_signal.h"

/* a subscriber this far behind on reading is dropped (it reconnects) */
#define MAX_PENDING_OUTPUT	(1024 * 1024)
/* the longest interval between two checks that a store is still ours */
#define STORE_CHECK_INTERVAL_MAX_MS 5000
/* a store that cannot be opened while the writer runs is tried again after 1, 2, 4 ... s */
#define REOPEN_BACKOFF_MAX_MS 60000

/* ---------------------------------------------------------------- the process */

typedef struct WriterClient
{
	int			sock;
	RlBuf		in;
	RlBuf		out;
	uint32_t	datid;			/* the database its requests are for (Attach) */
	bool		subscribed;
	bool		closing;		/* drop once out is written (or at once if broken) */
	bool		holds_writes;	/* its transaction writes: CommitRequest or Release next */
	bool		intent_waiting; /* a WriteIntent not yet answered */
	int64_t		intent_since_ms;
	char		maintain;		/* a Maintain's task not yet run (0: none) */
	struct WriterClient *next;
} WriterClient;

/* one CommitRequest waiting for the next group */
typedef struct PendingCommit
{
	WriterClient *client;
	uint32_t	datid;
	uint64_t	snapshot_seq;	/* not needed for validation: changesets carry old values */
	RlBuf		changeset;
	LsmBatch   *batch;			/* its key-value mutations, once applied */
} PendingCommit;

/* one database: its own store (an LSM, fenced on its own) and catalog cache */
typedef struct WriterDatabase
{
	uint32_t	datid;
	char	   *location;		/* the store root, or root/db/<datid> */
	ObjectStore *store;
	Lsm		   *lsm;			/* NULL while the store is unavailable */
	CatalogCache *cache;
	int64_t		next_check_ms;	/* when to check again that the store is still ours */
	int64_t		reopen_at_ms;	/* lsm NULL: when to try to open it again */
	int			reopen_backoff_ms;
	char		unavailable[200];	/* lsm NULL: why */
	LeaseHolder lease;			/* who we say writes the store (storage/lease.h) */
	int64_t		lease_due_ms;	/* when to renew it */
} WriterDatabase;

static volatile sig_atomic_t shutdown_requested;
static bool fenced;				/* a newer writer owns the store */
static bool standby;			/* following the stores (RecoveryInProgress at start) */
static int	poll_ms;			/* standby: the poll interval now ... */
static int64_t next_poll_ms;	/* ... and when to poll next */
static RlBuf *touched;			/* standby: the keys a poll's WAL objects write, or NULL */
static bool running;			/* told the postmaster it is ready: a store failure is not FATAL */
static int	check_interval_ms;	/* how often a store is shown to be still ours */
static WriterDatabase *databases;
static int	n_databases;
static const WriterConfig *writer_config;
static WriterClient *clients;
static PendingCommit *pending;
static int	n_pending;
static int	max_pending;

/* sleep_ms -- wait ms milliseconds (the debug delays) */
static void
sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void flush_output(WriterClient *c);

/*
 * raise_open_files_limit -- the writer keeps every database open: its store's lock
 * and its catalog cache (SQLite's file, WAL and shared memory, some of them twice),
 * about six descriptors a database. Under the usual soft limit of 1 024 the 168th
 * CREATE DATABASE failed with EMFILE and left the store unavailable, where PostgreSQL
 * serves any number; the writer takes the hard limit (20 000 to a million on common
 * systems) as its own.
 */
static void
raise_open_files_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
	{
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			ereport(LOG, errmsg("could not raise the writer's limit on open files: %m"));
	}
}

/*
 * writer_sigterm -- finish the group in flight, answer the rest, exit
 */
static void
writer_sigterm(int signo)
{
	shutdown_requested = 1;
}

/*
 * writer_sigquit -- exit at once (crash reset or immediate shutdown)
 */
static void
writer_sigquit(int signo)
{
	_exit(2);
}

/*
 * open_cache -- open a database's catalog cache and bring it to its store's newest
 * commit
 *
 * The cache is derived data: when it reflects another commit than the store's
 * newest (missing, behind after a crash, or from another store), it is rebuilt.
 */
static void
remove_cache_files(const char *path);

/*
 * bring_cache_up -- open_cache's work once; false (with rl_last_error) if it failed
 */
static bool
bring_cache_up(WriterDatabase *db, const char *path, uint64_t last_seq)
{
	if (db->cache == NULL && catalog_cache_open(path, &db->cache) != RL_OK)
		return false;
	if (catalog_cache_seq(db->cache) == last_seq)
		return true;
	/* a standby does so for every new commit it sees */
	ereport(standby ? DEBUG1 : LOG,
			errmsg("rebuilding the catalog cache \"%s\": it reflects commit %llu, the store has %llu",
						path, (unsigned long long) catalog_cache_seq(db->cache),
						(unsigned long long) last_seq));
	return catalog_cache_rebuild(db->cache, db->lsm) == RL_OK;
}

/*
 * open_cache -- open a database's catalog cache and bring it to its store's newest
 * commit
 *
 * The cache is derived data: when it reflects another commit than the store's
 * newest (missing, behind after a crash, or from another store), it is rebuilt. A
 * cache that cannot be opened or rebuilt (a damaged file, one a failed rebuild left
 * half made) is removed and made again from the store once; if that fails too the
 * writer exits and the postmaster starts it again later. The store is only read here.
 */
static void
open_cache(WriterDatabase *db)
{
	LsmStats	stats;
	char		path[4096];

	catalog_cache_path(path, sizeof(path), writer_config->data_directory, db->datid);
	lsm_stats(db->lsm, &stats);
	/* what a database made again under this id acknowledged is not this one's */
	commit_horizon_set(db->datid, stats.last_seq);
	if (!bring_cache_up(db, path, stats.last_seq))
	{
		ereport(LOG, errcode(ERRCODE_IO_ERROR),
				errmsg("could not bring the catalog cache \"%s\" up to date: %s", path, rl_last_error()),
				errdetail("The cache is removed and made again from the store."));
		if (db->cache != NULL)
			catalog_cache_close(db->cache);
		db->cache = NULL;
		remove_cache_files(path);
		if (!bring_cache_up(db, path, stats.last_seq))
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not rebuild the catalog cache \"%s\": %s", path, rl_last_error()));
	}
	commit_horizon_visible(db->datid);
}

/*
 * store_proven -- the store is shown to be ours as of now: tell the backends
 * (commit_horizon.h), and check again after check_interval_ms
 */
static void
store_proven(WriterDatabase *db)
{
	int64_t		now = rl_monotonic_ms();

	commit_horizon_proven(db->datid, now);
	db->next_check_ms = now + check_interval_ms;
}

/*
 * renew_lease -- say again that this server writes the store (storage/lease.h), so
 * that rocklake-admin refuses to disturb it; a failure is only logged, since the
 * lease is a courtesy and fencing the safety (a held lock is another process's
 * that this writer is fencing: it is taken at a later renewal)
 */
static void
renew_lease(WriterDatabase *db)
{
	LsmStats	stats;
	RlStatus	rc;

	if (db->lease.pid == 0)
	{
		const char *port = GetConfigOption("port");
		const char *listen = GetConfigOption("listen_addresses");

		lease_holder_self(&db->lease, "rocklake");
		snprintf(db->lease.data_directory, sizeof(db->lease.data_directory), "%s",
				 writer_config->data_directory);
		snprintf(db->lease.address, sizeof(db->lease.address), "%s port %s",
				 listen && listen[0] ? listen : "(Unix socket only)", port ? port : "?");
	}
	lsm_stats(db->lsm, &stats);
	db->lease.epoch = stats.writer_epoch;
	rc = lease_take(db->store, &db->lease, true, NULL);
	if (rc != RL_OK && rc != RL_CONTENDED)
		ereport(LOG, errcode(ERRCODE_IO_ERROR),
				errmsg("could not renew the writer lease of store \"%s\": %s", db->location,
					   rl_last_error()));
	db->lease_due_ms = rl_monotonic_ms() + (rc == RL_CONTENDED ? 1000 : LEASE_RENEW_MS);
}

/* note_touched -- a standby's follower applied a write of key (LsmOptions.applied_key) */
static void
note_touched(void *arg, const uint8_t *key, size_t key_len)
{
	if (touched != NULL)
	{
		rlbuf_put_u32be(touched, (uint32_t) key_len);
		rlbuf_append(touched, key, key_len);
	}
}

/*
 * open_store -- open a database's store as its writer, then its cache; false if
 * the store is unavailable (the writer is running: it is tried again later)
 *
 * RL_FENCED or RL_CONTENDED here mean another writer keeps bumping the epoch at
 * the same time: that is a second server on the same store, and fighting it
 * would only fence it in turn, so we give up like a fenced writer. Any other
 * failure at start is FATAL (the postmaster starts the writer again later and
 * refuses connections meanwhile); once running, the database's commits fail with
 * the reason until a later attempt opens it, and the other databases go on.
 */
static bool
open_store(WriterDatabase *db)
{
	LsmOptions	opts;
	RlStatus	rc;
	LeaseHolder holder;
	bool		took_over = false;

	if (db->store == NULL)
	{
		db->store = objstore_open_url(db->location);
		if (db->store == NULL)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not open store \"%s\": %s", db->location, rl_last_error()));
	}
	lsm_options_default(&opts);
	opts.auto_maintenance = !standby;
	if (standby)
		opts.applied_key = note_touched;
	opts.manifest_grace_ms = opts.sst_min_age_ms = opts.wal_retention_ms = writer_config->gc_grace_ms;
	rc = standby ? lsm_open_follower(db->store, &opts, &db->lsm) :
		lsm_open_writer(db->store, &opts, &db->lsm);
	/* a live lease of another server (not this one's before a restart): it is fenced now */
	if (rc == RL_OK && !standby && db->lease.pid == 0 && lease_holder(db->store, &holder) == RL_OK)
	{
		LeaseHolder self;

		lease_holder_self(&self, "rocklake");
		took_over = strcmp(holder.host, self.host) != 0 ||
			strcmp(holder.data_directory, writer_config->data_directory) != 0;
	}
	if (rc == RL_FENCED || rc == RL_CONTENDED)
	{
		ereport(LOG, errcode(ERRCODE_ADMIN_SHUTDOWN),
				errmsg("writer could not take over store \"%s\": another writer is active",
					   db->location),
				errdetail("%s", rl_last_error()));
		exit(WRITER_EXIT_FENCED);
	}
	if (rc != RL_OK && !running)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not open store \"%s\": %s", db->location, rl_last_error()));
	if (rc != RL_OK)
	{
		db->reopen_backoff_ms = db->reopen_backoff_ms == 0 ? 1000 :
			db->reopen_backoff_ms * 2 > REOPEN_BACKOFF_MAX_MS ? REOPEN_BACKOFF_MAX_MS :
			db->reopen_backoff_ms * 2;
		db->reopen_at_ms = rl_monotonic_ms() + db->reopen_backoff_ms;
		snprintf(db->unavailable, sizeof(db->unavailable), "%s", rl_last_error());
		ereport(LOG, errcode(ERRCODE_IO_ERROR),
				errmsg("could not open store \"%s\": %s", db->location, db->unavailable),
				errdetail("Commits to this database fail until it opens; trying again in %d s.",
						  db->reopen_backoff_ms / 1000));
		return false;
	}
	if (took_over)
	{
		RlBuf		who;

		rlbuf_init(&who);
		lease_describe(&holder, &who);
		ereport(LOG, errmsg("took over store \"%s\" from the server that was writing it (%s): it is fenced now",
							db->location, rlbuf_cstr(&who)),
				errhint("Two servers must not write one store: stop the other one, or make it a standby."));
		rlbuf_free(&who);
	}
	if (!standby)
		renew_lease(db);
	open_cache(db);
	if (db->reopen_backoff_ms > 0)
		ereport(LOG, errmsg("store \"%s\" is available again", db->location));
	db->reopen_backoff_ms = 0;
	store_proven(db);
	return true;
}

/*
 * reopen_store -- open a database's store anew: after an unknown outcome (reopening
 * replays the write if it landed, and the cache follows)
 */
static void
reopen_store(WriterDatabase *db)
{
	lsm_close(db->lsm);
	db->lsm = NULL;
	open_store(db);
}

static WriterDatabase *
find_database(uint32_t datid)
{
	for (int i = 0; i < n_databases; i++)
		if (databases[i].datid == datid)
			return &databases[i];
	return NULL;
}

/* A cache file and SQLite's WAL and shared-memory files beside it. */
static void
remove_cache_files(const char *path)
{
	char		extra[4200];

	unlink(path);
	snprintf(extra, sizeof(extra), "%s-wal", path);
	unlink(extra);
	snprintf(extra, sizeof(extra), "%s-shm", path);
	unlink(extra);
}

static bool
collect_key_cb(const ObjInfo *info, void *arg)
{
	RlBuf	   *keys = arg;

	rlbuf_append(keys, info->key, strlen(info->key) + 1);
	return true;
}

/*
 * wipe_store -- delete every object of a store: a dropped database's, and what a
 * crash may have left of one before a new database takes its id
 */
static void
wipe_store(const char *location)
{
	ObjectStore *os = objstore_open_url(location);
	RlBuf		keys;
	RlStatus	rc;

	if (os == NULL)
		return;
	rlbuf_init(&keys);
	rc = obj_list(os, "", NULL, collect_key_cb, &keys);
	for (size_t off = 0; rc == RL_OK && off < keys.len; off += strlen((char *) keys.data + off) + 1)
		rc = obj_delete(os, (char *) keys.data + off);
	if (rc != RL_OK)
		ereport(LOG, errcode(ERRCODE_IO_ERROR),
				errmsg("could not remove the objects of store \"%s\": %s", location, rl_last_error()));
	rlbuf_free(&keys);
	obj_close(os);
}

/* Open database datid: the postgres database at the store root, the others below it. */
static void
open_database(uint32_t datid, bool created)
{
	WriterDatabase *grown = realloc(databases, sizeof(WriterDatabase) * (size_t) (n_databases + 1));
	RlBuf		location;

	if (grown == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	databases = grown;
	WriterDatabase *db = &databases[n_databases++];

	memset(db, 0, sizeof(*db));
	db->datid = datid;
	rlbuf_init(&location);
	rlbuf_append_str(&location, writer_config->store_location);
	if (datid != CACHE_POSTGRES_DATID)
		rlbuf_printf(&location, "/db/%u", datid);
	rlbuf_cstr(&location);
	db->location = (char *) rlbuf_steal(&location, NULL);
	if (created && datid != CACHE_POSTGRES_DATID && !standby)
	{
		char		path[4096];

		wipe_store(db->location);
		catalog_cache_path(path, sizeof(path), writer_config->data_directory, datid);
		remove_cache_files(path);
	}
	open_store(db);
}

/* Close database i; dropped: also remove its cache file and its store's objects. */
static void
close_database(int i, bool dropped)
{
	WriterDatabase *db = &databases[i];

	catalog_cache_close(db->cache);
	lsm_close(db->lsm);
	if (!fenced && !dropped && db->lease.pid != 0)
		lease_drop(db->store, &db->lease);
	obj_close(db->store);
	commit_horizon_forget(db->datid);
	if (dropped)
	{
		char		path[4096];

		catalog_cache_path(path, sizeof(path), writer_config->data_directory, db->datid);
		remove_cache_files(path);
		if (!standby)
			wipe_store(db->location);
		ereport(LOG, errmsg("dropped database %u (store \"%s\")", db->datid, db->location));
	}
	free(db->location);
	databases[i] = databases[--n_databases];
}

/*
 * sync_databases -- open the databases the registry names and close the ones it
 * no longer does; the registry is rl_database in the postgres database's cache
 */
static void
sync_databases(bool after_commit)
{
	sqlite3    *registry = catalog_cache_db(find_database(CACHE_POSTGRES_DATID)->cache);
	sqlite3_stmt *stmt;
	uint32_t   *listed = NULL;
	int			n_listed = 0;

	if (sqlite3_prepare_v2(registry, "SELECT datid FROM " CACHE_DATABASE_TABLE, -1, &stmt, NULL) != SQLITE_OK)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s", sqlite3_errmsg(registry)));
	while (sqlite3_step(stmt) == SQLITE_ROW)
	{
		listed = realloc(listed, sizeof(uint32_t) * (size_t) (n_listed + 1));
		listed[n_listed++] = (uint32_t) sqlite3_column_int64(stmt, 0);
	}
	sqlite3_finalize(stmt);
	/* one that appears with a commit is new: nothing of an earlier one may survive */
	for (int i = 0; i < n_listed; i++)
		if (find_database(listed[i]) == NULL)
			open_database(listed[i], after_commit);
	for (int i = n_databases - 1; i >= 0; i--)
	{
		bool		still = databases[i].datid == CACHE_POSTGRES_DATID;

		for (int k = 0; k < n_listed && !still; k++)
			still = listed[k] == databases[i].datid;
		if (!still)
			close_database(i, true);
	}
	free(listed);
}

/*
 * listen_on_socket -- bind the writer's Unix socket
 *
 * A socket file left by an earlier writer is removed first: the postmaster holds
 * postmaster.pid, so no other writer of this data directory can be alive.
 */
static int
listen_on_socket(const char *path)
{
	struct sockaddr_un addr;
	int			sock;

	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr.sun_path))
		ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("writer socket path \"%s\" is too long (maximum %d bytes)", path,
					   (int) sizeof(addr.sun_path) - 1));
	strcpy(addr.sun_path, path);
	unlink(path);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *) &addr, sizeof(addr)) < 0 ||
		listen(sock, 128) < 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not listen on writer socket \"%s\": %s", path, strerror(errno)));
	chmod(path, 0600);
	return sock;
}

/*
 * send_notify -- queue a Notify frame for one client
 */
static void
send_notify(WriterClient *c, uint64_t seq)
{
	size_t		start = frame_begin(&c->out, WriterMsg_Notify);

	rlbuf_put_u64be(&c->out, seq);
	frame_end(&c->out, start);
}

/*
 * send_commit_reply -- queue a CommitReply frame; conflict (NULL: none) adds its
 * detail and constraint fields
 */
static void
send_commit_reply(WriterClient *c, bool ok, uint64_t seq, const char *sqlstate,
				  const char *message, const CacheConflict *conflict)
{
	size_t		start = frame_begin(&c->out, WriterMsg_CommitReply);

	rlbuf_put_u8(&c->out, ok ? COMMIT_STATUS_OK : COMMIT_STATUS_FAILED);
	rlbuf_put_u64be(&c->out, ok ? seq : 0);
	rlbuf_append(&c->out, sqlstate, strlen(sqlstate) + 1);
	rlbuf_append(&c->out, message, strlen(message) + 1);
	if (conflict && conflict->detail[0])
	{
		const char *fields[] = {conflict->detail, conflict->schema_name, conflict->table_name,
		conflict->constraint_name};

		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			rlbuf_append(&c->out, fields[i], strlen(fields[i]) + 1);
	}
	frame_end(&c->out, start);
}

/*
 * add_pending -- queue a CommitRequest body (snapshot_seq, changeset) for the next
 * group; false if it is too short to be one
 */
static bool
add_pending(WriterClient *c, const uint8_t *body, size_t len)
{
	if (len < 8)
		return false;
	if (n_pending == max_pending)
	{
		int			newmax = max_pending ? max_pending * 2 : 64;
		PendingCommit *grown = realloc(pending, newmax * sizeof(PendingCommit));

		if (grown == NULL)
			ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		pending = grown;
		max_pending = newmax;
	}
	PendingCommit *p = &pending[n_pending++];

	p->client = c;
	p->datid = c->datid;
	p->snapshot_seq = rl_load_u64be(body);
	rlbuf_init(&p->changeset);
	rlbuf_append(&p->changeset, body + 8, len - 8);
	p->batch = NULL;
	return true;
}

/* answer one queued request and forget it */
static void
finish_pending(PendingCommit *p, bool ok, uint64_t seq, const char *sqlstate, const char *message,
			   const CacheConflict *conflict)
{
	send_commit_reply(p->client, ok, seq, sqlstate, message, conflict);
	rlbuf_free(&p->changeset);
	lsm_batch_free(p->batch);
	p->batch = NULL;
	p->client = NULL;			/* answered */
}

/*
 * process_input -- act on every whole frame a client has sent
 */
static void
process_input(WriterClient *c)
{
	for (;;)
	{
		char		type;
		const uint8_t *body;
		size_t		body_len;
		int			rc = frame_complete(&c->in, &type, &body, &body_len);

		if (rc == 0)
			return;
		if (rc < 0)
		{
			ereport(LOG, errcode(ERRCODE_PROTOCOL_VIOLATION),
					errmsg("invalid frame length from writer client"));
			c->closing = true;
			return;
		}
		switch (type)
		{
			case WriterMsg_CommitRequest:
				c->holds_writes = false;
				if (!add_pending(c, body, body_len))
				{
					ereport(LOG, errcode(ERRCODE_PROTOCOL_VIOLATION),
							errmsg("malformed commit request from writer client"));
					c->closing = true;
					return;
				}
				break;
			case WriterMsg_Attach:
				if (body_len != 4)
				{
					ereport(LOG, errcode(ERRCODE_PROTOCOL_VIOLATION),
							errmsg("malformed attach request from writer client"));
					c->closing = true;
					return;
				}
				c->datid = rl_load_u32be(body);
				break;
			case WriterMsg_WriteIntent:
				c->intent_waiting = true;
				c->intent_since_ms = rl_monotonic_ms();
				break;
			case WriterMsg_Release:
				c->holds_writes = false;
				break;
			case WriterMsg_Maintain:
				if (body_len != 1 || (body[0] != MAINTAIN_CHECKPOINT && body[0] != MAINTAIN_COMPACT &&
									  body[0] != MAINTAIN_GC))
				{
					ereport(LOG, errcode(ERRCODE_PROTOCOL_VIOLATION),
							errmsg("malformed maintenance request from writer client"));
					c->closing = true;
					return;
				}
				c->maintain = (char) body[0];
				break;
			case WriterMsg_Subscribe:
				{
					WriterDatabase *db = find_database(c->datid);
					LsmStats	stats = {0};

					if (db && db->lsm)
						lsm_stats(db->lsm, &stats);
					c->subscribed = true;
					send_notify(c, stats.last_seq);
				}
				break;
			default:
				ereport(LOG, errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("invalid writer message type %d", (int) (uint8_t) type));
				c->closing = true;
				return;
		}
		frame_consume(&c->in, FRAME_HEADER_LEN + body_len);
	}
}

/*
 * fail_pending -- answer every queued request with an error, without committing
 */
static void
fail_pending(const char *sqlstate, const char *message)
{
	for (int i = 0; i < n_pending; i++)
		if (pending[i].client)
			finish_pending(&pending[i], false, 0, sqlstate, message, NULL);
	n_pending = 0;
}

/*
 * report_fenced -- a newer writer owns the store: log it and stop
 */
static void
report_fenced(void)
{
	ereport(LOG, errcode(ERRCODE_ADMIN_SHUTDOWN),
			errmsg("writer was fenced: another writer has taken over store \"%s\"",
				   writer_config->store_location),
			errdetail("%s", rl_last_error()),
			errhint("Two servers must not share one store. This server will shut down."));
	fenced = true;
	shutdown_requested = 1;
}

/*
 * apply_group -- apply a database's queued changesets to its cache, each in its own
 * savepoint
 *
 * A request that conflicts (or does not apply) is answered at once and leaves the
 * group; the others keep their key-value mutations in their batch. Returns the
 * number still to commit (moved to the front of group), or -1 if the cache itself
 * failed (all answered).
 */
static int
apply_group(WriterDatabase *db, PendingCommit **group, int n)
{
	int			kept = 0;
	CacheConflict conflict;

	if (catalog_cache_begin(db->cache) != RL_OK)
	{
		char		message[256];

		snprintf(message, sizeof(message), "could not write the catalog cache: %s", rl_last_error());
		for (int i = 0; i < n; i++)
			finish_pending(group[i], false, 0, ERRCODE_IO_ERROR, message, NULL);
		return -1;
	}
	for (int i = 0; i < n; i++)
	{
		PendingCommit *p = group[i];
		RlStatus	rc;

		p->batch = lsm_batch_new();
		rc = catalog_cache_apply(db->cache, p->changeset.data, p->changeset.len, p->batch, &conflict);
		if (rc == RL_OK)
			group[kept++] = p;
		else if (rc == RL_PRECONDITION)
		{
			metrics_count_conflict(conflict.sqlstate);
			finish_pending(p, false, 0, conflict.sqlstate, conflict.message, &conflict);
		}
		else
			finish_pending(p, false, 0, rc == RL_INVALID ? ERRCODE_INVALID_PARAMETER_VALUE : ERRCODE_IO_ERROR,
						   rl_last_error(), NULL);
	}
	return kept;
}

/*
 * acknowledge -- answer a group's requests (committed as first_seq onwards); with
 * send_now, send the answers before anything else happens
 */
static void
acknowledge(PendingCommit **group, int n, uint64_t first_seq, bool send_now)
{
	for (int i = 0; i < n; i++)
	{
		WriterClient *c = group[i]->client;

		finish_pending(group[i], true, first_seq + i, ERRCODE_SUCCESSFUL_COMPLETION, "", NULL);
		if (send_now)
			flush_output(c);
	}
}

/*
 * commit_database_group -- commit a database's queued requests as one WAL object
 *
 * Durable before visible: the cache transaction holding the group commits only
 * after lsm_commit returns. The replies go out between the two once the commit
 * horizon says the group is acknowledged (commit_horizon.h: a backend's next
 * snapshot waits for the cache to reach it), so no client waits for the cache's
 * commit; the postgres database's commits (CREATE and DROP DATABASE, which open
 * or close a store once visible) and a database without a horizon slot are
 * answered after it.
 */
static void
commit_database_group(WriterDatabase *db, PendingCommit **group, int n)
{
	LsmBatch  **batches;
	uint64_t	first_seq = 0;
	RlStatus	rc;
	char		message[256];
	bool		acknowledged;
	uint64_t	start_us = stats_now_us(),
				write_start_us,
				durable_us;

	if (standby)
	{
		/* the backends' transactions are read-only here: nothing should come */
		for (int i = 0; i < n; i++)
			finish_pending(group[i], false, 0, ERRCODE_READ_ONLY_SQL_TRANSACTION,
						   "cannot execute COMMIT in a read-only transaction", NULL);
		return;
	}
	if (db->lsm == NULL && (rl_monotonic_ms() < db->reopen_at_ms || !open_store(db)))
	{
		snprintf(message, sizeof(message), "the store is unavailable: %s", db->unavailable);
		for (int i = 0; i < n; i++)
			finish_pending(group[i], false, 0, ERRCODE_IO_ERROR, message, NULL);
		return;
	}
	n = apply_group(db, group, n);
	if (n <= 0)
	{
		catalog_cache_abort(db->cache);
		return;
	}
	batches = malloc(n * sizeof(LsmBatch *));
	if (batches == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	for (int i = 0; i < n; i++)
		batches[i] = group[i]->batch;
	write_start_us = stats_now_us();
	rc = lsm_commit(db->lsm, batches, n, &first_seq);
	durable_us = stats_now_us();
	if (Metrics)
		stats_observe(&Metrics->store_write_us, latency_bounds_us, LATENCY_BOUNDS,
					  durable_us - write_start_us);
	free(batches);

	switch (rc)
	{
		case RL_OK:
			acknowledged = db->datid != CACHE_POSTGRES_DATID &&
				commit_horizon_set(db->datid, first_seq + n - 1);
			if (acknowledged)
				acknowledge(group, n, first_seq, true);
			store_proven(db);
			sleep_ms(writer_config->visible_delay_ms);
			if (catalog_cache_commit(db->cache, first_seq + n - 1) != RL_OK)
			{
				/* durable in the store but not in the cache: rebuild it from the store */
				ereport(LOG, errcode(ERRCODE_IO_ERROR),
						errmsg("could not commit to the catalog cache: %s", rl_last_error()));
				open_cache(db);
			}
			commit_horizon_visible(db->datid);
			if (Metrics)
				stats_observe(&Metrics->cache_lag_us, latency_bounds_us, LATENCY_BOUNDS,
							  stats_now_us() - durable_us);
			if (!acknowledged)
				acknowledge(group, n, first_seq, false);
			if (Metrics)
			{
				__atomic_add_fetch(&Metrics->commits, (uint64_t) n, __ATOMIC_RELAXED);
				stats_observe(&Metrics->group_size, group_size_bounds, GROUP_SIZE_BOUNDS, (uint64_t) n);
				stats_observe(&Metrics->commit_us, latency_bounds_us, LATENCY_BOUNDS,
							  stats_now_us() - start_us);
			}
			for (WriterClient *c = clients; c; c = c->next)
				if (c->subscribed && c->datid == db->datid)
					send_notify(c, first_seq + n - 1);
			/* the commit stands; maintenance after it may have found the handle done */
			rc = lsm_health(db->lsm);
			if (rc == RL_FENCED)
				report_fenced();
			else if (rc != RL_OK)
			{
				ereport(LOG, errcode(ERRCODE_IO_ERROR),
						errmsg("store maintenance failed: %s; reopening the store", rl_last_error()));
				reopen_store(db);
			}
			if (db->datid == CACHE_POSTGRES_DATID)
				sync_databases(true);	/* CREATE or DROP DATABASE may have committed; db moves */
			return;
		case RL_FENCED:
			snprintf(message, sizeof(message), "%s",
					 "terminating connection because another server has taken over the store");
			report_fenced();
			break;
		case RL_UNKNOWN_OUTCOME:
			snprintf(message, sizeof(message),
					 "the commit may or may not have been written: %s", rl_last_error());
			ereport(LOG, errcode(ERRCODE_IO_ERROR), errmsg("%s; reopening the store", message));
			break;
		default:
			snprintf(message, sizeof(message), "could not write to the store: %s",
					 rl_last_error());
			ereport(LOG, errcode(ERRCODE_IO_ERROR), errmsg("%s", message));
			break;
	}
	catalog_cache_abort(db->cache);
	for (int i = 0; i < n; i++)
		finish_pending(group[i], false, 0,
					   rc == RL_FENCED ? ERRCODE_ADMIN_SHUTDOWN :
					   rc == RL_UNKNOWN_OUTCOME ? ERRCODE_TRANSACTION_RESOLUTION_UNKNOWN : ERRCODE_IO_ERROR,
					   message, NULL);
	if (rc == RL_UNKNOWN_OUTCOME)
		reopen_store(db);
}

/*
 * publish_store_size -- what the open stores' manifests reference (SSTs and their
 * bytes) and the WAL objects not yet flushed into SSTs, for the metrics endpoint
 */
static void
publish_store_size(void)
{
	uint64_t	ssts = 0,
				bytes = 0,
				wals = 0;

	if (Metrics == NULL)
		return;
	for (int d = 0; d < n_databases; d++)
	{
		const Manifest *m;
		LsmStats	st;

		if (databases[d].lsm == NULL)
			continue;
		m = lsm_manifest(databases[d].lsm);
		lsm_stats(databases[d].lsm, &st);
		ssts += (uint64_t) m->n_l0;
		for (int r = 0; r < m->n_runs; r++)
			ssts += (uint64_t) m->runs[r].n_ssts;
		bytes += st.sst_bytes;
		if (st.next_wal_id > st.replay_after_wal_id + 1)
			wals += st.next_wal_id - st.replay_after_wal_id - 1;
	}
	__atomic_store_n(&Metrics->store_ssts, ssts, __ATOMIC_RELAXED);
	__atomic_store_n(&Metrics->store_sst_bytes, bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&Metrics->store_wal_objects, wals, __ATOMIC_RELAXED);
}

/*
 * commit_group -- commit everything queued, one group per database
 */
static void
commit_group(void)
{
	PendingCommit **group = malloc(sizeof(PendingCommit *) * (size_t) n_pending);

	if (group == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	for (int d = 0; d < n_databases && !fenced; d++)
	{
		int			n = 0;

		for (int i = 0; i < n_pending; i++)
			if (pending[i].client && pending[i].datid == databases[d].datid)
				group[n++] = &pending[i];
		if (n > 0)
			commit_database_group(&databases[d], group, n);
	}
	/* what is left names a database that does not exist (or the writer stopped) */
	for (int i = 0; i < n_pending; i++)
		if (pending[i].client)
		{
			char		message[128];

			snprintf(message, sizeof(message), "database with OID %u does not exist", pending[i].datid);
			finish_pending(&pending[i], false, 0, fenced ? ERRCODE_ADMIN_SHUTDOWN : ERRCODE_INVALID_CATALOG_NAME,
						   fenced ? "terminating connection because another server has taken over the store" : message, NULL);
		}
	n_pending = 0;
	free(group);
}

/* another connection of c's database holds writes */
static bool
others_hold_writes(const WriterClient *c)
{
	for (const WriterClient *o = clients; o; o = o->next)
		if (o != c && o->holds_writes && !o->closing && o->datid == c->datid)
			return true;
	return false;
}

/*
 * answer_intents -- grant the WriteIntents that have waited enough; called after
 * the round's group commit, so an answer follows every commit read before it.
 * Returns how long the next one may still wait (ms), or -1 if none waits.
 */
static int
answer_intents(void)
{
	int64_t		now = rl_monotonic_ms();
	int			next_ms = -1;

	for (WriterClient *c = clients; c; c = c->next)
	{
		if (!c->intent_waiting)
			continue;
		int64_t		left = c->intent_since_ms + WRITE_INTENT_WAIT_MS - now;

		if (c->holds_writes || left <= 0 || !others_hold_writes(c))
		{
			frame_end(&c->out, frame_begin(&c->out, WriterMsg_WriteIntentAck));
			c->intent_waiting = false;
			c->holds_writes = true;
		}
		else if (next_ms < 0 || left < next_ms)
			next_ms = (int) left;
	}
	return next_ms;
}

/*
 * flush_output -- write what a client can take now
 */
static void
flush_output(WriterClient *c)
{
	while (c->out.len > 0)
	{
		ssize_t		n = send(c->sock, c->out.data, c->out.len, MSG_NOSIGNAL);

		if (n > 0)
			frame_consume(&c->out, (size_t) n);
		else if (n < 0 && errno == EINTR)
			continue;
		else
		{
			if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			{
				c->out.len = 0;
				c->closing = true;	/* gone: nothing more to deliver */
			}
			break;
		}
	}
	if (c->out.len > MAX_PENDING_OUTPUT)
	{
		ereport(LOG, errmsg("dropping writer client that does not read its notifications"));
		c->out.len = 0;
		c->closing = true;
	}
}

/*
 * read_input -- take what a client has sent; false on EOF or error
 */
static bool
read_input(WriterClient *c)
{
	for (;;)
	{
		ssize_t		n;

		rlbuf_reserve(&c->in, 65536);
		n = recv(c->sock, c->in.data + c->in.len, c->in.cap - c->in.len, 0);
		if (n > 0)
		{
			c->in.len += (size_t) n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
	}
}

/*
 * drop_closed_clients -- free clients that are finished, unless a queued
 * request still refers to them
 */
static void
drop_closed_clients(void)
{
	WriterClient **link = &clients;

	while (*link)
	{
		WriterClient *c = *link;

		if (c->closing && c->out.len == 0 && n_pending == 0)
		{
			*link = c->next;
			close(c->sock);
			rlbuf_free(&c->in);
			rlbuf_free(&c->out);
			free(c);
		}
		else
			link = &c->next;
	}
}

/*
 * accept_clients -- take every waiting connection
 */
static void
accept_clients(int listen_sock)
{
	for (;;)
	{
		int			sock = accept4(listen_sock, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		WriterClient *c;

		if (sock < 0)
			return;
		c = calloc(1, sizeof(WriterClient));
		if (c == NULL)
			ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		c->sock = sock;
		c->datid = CACHE_POSTGRES_DATID;
		rlbuf_init(&c->in);
		rlbuf_init(&c->out);
		c->next = clients;
		clients = c;
	}
}

/*
 * bootstrap_registry -- a new store's registry names postgres and template1, and
 * its roles the bootstrap superuser (OID 10, catalog/authid.h); a store made before
 * roles were kept gets that role too
 *
 * Written as any transaction is: a changeset computed on the postgres cache and
 * committed through the store, so a rebuilt cache has it too.
 */
static void
bootstrap_registry(void)
{
	WriterDatabase *db = find_database(CACHE_POSTGRES_DATID);
	sqlite3    *cache = catalog_cache_db(db->cache);
	sqlite3_stmt *stmt;
	bool		no_databases,
				no_roles;
	CacheCapture *capture;
	RlBuf		changeset;
	WriterClient self = {0};
	char	   *superuser = catalog_bootstrap_superuser(writer_config->data_directory);
	char	   *sql;

	if (sqlite3_prepare_v2(cache, "SELECT NOT EXISTS (SELECT 1 FROM " CACHE_DATABASE_TABLE "),"
						   " NOT EXISTS (SELECT 1 FROM " CACHE_AUTHID_TABLE ")", -1, &stmt, NULL) != SQLITE_OK ||
		sqlite3_step(stmt) != SQLITE_ROW)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR), errmsg("could not read the database registry"));
	no_databases = sqlite3_column_int(stmt, 0) != 0;
	no_roles = sqlite3_column_int(stmt, 1) != 0;
	sqlite3_finalize(stmt);
	if (!no_databases && !no_roles)
	{
		free(superuser);
		return;
	}
	sql = sqlite3_mprintf("%s INSERT INTO " CACHE_AUTHID_TABLE " SELECT %d, %Q, 1, 1, 1, 1, -1, NULL, NULL WHERE %d",
						  no_databases ? "INSERT INTO " CACHE_DATABASE_TABLE
						  " VALUES (1, 'postgres'), (2, 'template1');" : "", BOOTSTRAP_SUPERUSERID, superuser, no_roles);
	free(superuser);
	rlbuf_init(&changeset);
	if (cache_capture_begin(cache, NULL, &capture) != RL_OK ||
		sqlite3_exec(cache, sql, NULL, NULL, NULL) != SQLITE_OK ||
		cache_capture_end(capture, &changeset) != RL_OK)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not create the database registry: %s", rl_last_error()));
	sqlite3_free(sql);
	/* commit it like a request, answered into a scratch client */
	self.datid = CACHE_POSTGRES_DATID;
	rlbuf_init(&self.out);
	if (!add_pending(&self, (const uint8_t *) "\0\0\0\0\0\0\0\0", 8))
		ereport(FATAL, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not queue the registry"));
	rlbuf_append(&pending[n_pending - 1].changeset, changeset.data, changeset.len);
	commit_group();
	rlbuf_free(&changeset);
	/* the reply is in self.out: status byte right after the frame header */
	if (self.out.len < 6 || self.out.data[5] != COMMIT_STATUS_OK)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR), errmsg("could not create the database registry"));
	rlbuf_free(&self.out);
}

/*
 * run_maintenance -- run the Maintain tasks clients asked for (writer.h), each on
 * its connection's database, and answer them
 *
 * A task fails like a commit: 57P01 once fenced (the writer then stops), 58030 if
 * the store failed (a handle the failure left unusable is reopened).
 */
static void
run_maintenance(void)
{
	for (WriterClient *c = clients; c; c = c->next)
	{
		if (c->maintain == 0 || c->closing)
			continue;
		WriterDatabase *db = find_database(c->datid);
		LsmTask		task = c->maintain == MAINTAIN_GC ? LSM_TASK_GC :
			c->maintain == MAINTAIN_COMPACT ? LSM_TASK_COMPACT : LSM_TASK_CHECKPOINT;
		LsmTaskResult r;
		RlStatus	rc = db && db->lsm ? lsm_run_task(db->lsm, task, &r) :
			rl_error(RL_UNAVAILABLE, "%s", db ? db->unavailable : "the database is gone");
		RlBuf		message;
		size_t		start = frame_begin(&c->out, WriterMsg_MaintainReply);

		c->maintain = 0;
		rlbuf_init(&message);
		if (rc == RL_OK)
		{
			static const char *const names[] = {"checkpoint", "compact", "gc"};
			LsmStats	st;

			lsm_stats(db->lsm, &st);
			rlbuf_printf(&message, "{\"task\": \"%s\", \"objects_before\": %llu, \"objects_after\": %llu, "
						 "\"bytes_before\": %llu, \"bytes_after\": %llu, \"deleted\": %llu, "
						 "\"manifest\": %llu, \"writer_epoch\": %llu, \"l0_ssts\": %d, \"sorted_runs\": %d}",
						 names[task], (unsigned long long) r.objects_before,
						 (unsigned long long) r.objects_after, (unsigned long long) r.bytes_before,
						 (unsigned long long) r.bytes_after, (unsigned long long) r.deleted,
						 (unsigned long long) st.manifest_id, (unsigned long long) st.writer_epoch,
						 st.l0_ssts, st.sorted_runs);
			store_proven(db);
		}
		else
		{
			rlbuf_printf(&message, "could not %s store \"%s\": %s",
						 task == LSM_TASK_GC ? "collect garbage in" : task == LSM_TASK_COMPACT ?
						 "compact" : "checkpoint", db ? db->location : "?", rl_last_error());
			ereport(LOG, errcode(rc == RL_FENCED ? ERRCODE_ADMIN_SHUTDOWN : ERRCODE_IO_ERROR),
					errmsg("%s", rlbuf_cstr(&message)));
		}
		rlbuf_put_u8(&c->out, rc == RL_OK ? COMMIT_STATUS_OK : COMMIT_STATUS_FAILED);
		rlbuf_append_str(&c->out, rc == RL_OK ? "00000" : rc == RL_FENCED ? ERRCODE_ADMIN_SHUTDOWN :
						 ERRCODE_IO_ERROR);
		rlbuf_put_u8(&c->out, 0);
		rlbuf_append(&c->out, rlbuf_cstr(&message), message.len + 1);
		frame_end(&c->out, start);
		rlbuf_free(&message);
		if (rc == RL_FENCED)
			report_fenced();
		else if (rc != RL_OK && db && db->lsm && lsm_health(db->lsm) != RL_OK)
			reopen_store(db);
		if (fenced)
			return;
	}
}

/*
 * store_upkeep -- what the stores need on a timer, whatever else the writer does;
 * returns the milliseconds until it is needed next
 *
 * Every check_interval_ms (a third of store_check_timeout, at most 5 s) since the
 * store was last shown to be ours (by a commit or by a check), the newest manifest is read: a newer epoch there fences
 * this writer, which stops the server rather than serve what may be stale; a check
 * the store cannot answer leaves the proof as old as it is, and backends refuse
 * reads once it is older than store_check_timeout. A store that is unavailable is
 * opened again when its backoff has passed. Every LEASE_RENEW_MS the writer lease
 * is renewed.
 */
/*
 * follow_store -- a standby's poll of one store: apply the WAL objects that appeared
 * and, if the newest commit moved, rebuild the cache at it and tell the backends;
 * true if anything new came. A poll that fails leaves the proof of freshness as old
 * as it is (backends refuse reads once it is older than store_check_timeout).
 */
static bool
follow_store(WriterDatabase *db)
{
	LsmStats	before,
				stats;
	int			applied;
	RlBuf		keys;
	RlStatus	rc;

	rlbuf_init(&keys);
	lsm_stats(db->lsm, &before);
	touched = &keys;
	rc = lsm_follower_refresh(db->lsm, &applied);
	touched = NULL;
	if (rc != RL_OK)
	{
		ereport(LOG, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read new commits of store \"%s\": %s", db->location, rl_last_error()));
		rlbuf_free(&keys);
		return false;
	}
	lsm_stats(db->lsm, &stats);
	store_proven(db);
	if (stats.last_seq != catalog_cache_seq(db->cache))
	{
		uint64_t	start_us = stats_now_us();

		/*
		 * the relations the new WAL objects wrote; the whole cache after DDL, or when
		 * the commits came through a newer manifest's SSTs (a reload)
		 */
		if (stats.manifest_id == before.manifest_id &&
			catalog_cache_refresh(db->cache, db->lsm, &keys) == RL_OK)
		{
			commit_horizon_set(db->datid, stats.last_seq);
			commit_horizon_visible(db->datid);
		}
		else
			open_cache(db);		/* a rebuild at the new commit; the horizon follows */
		if (Metrics)
			stats_observe(&Metrics->cache_lag_us, latency_bounds_us, LATENCY_BOUNDS,
						  stats_now_us() - start_us);
		if (stats.last_commit_ms > 0)
			commit_horizon_replayed(db->datid, stats.last_commit_ms);
		for (WriterClient *c = clients; c; c = c->next)
			if (c->subscribed && c->datid == db->datid)
				send_notify(c, stats.last_seq);
		/* a database made or dropped on the writer (last: db may move) */
		if (db->datid == CACHE_POSTGRES_DATID)
			sync_databases(true);
	}
	rlbuf_free(&keys);
	return applied > 0;
}

/*
 * promote -- end recovery (a promote file appeared): the followers closed, every
 * store opened as its writer, which fences the server that wrote it until now;
 * standby.signal and the promote file removed, pg_control says "in production"
 */
static void
promote(void)
{
	ereport(LOG, errmsg("received promote request"));
	unlink(PROMOTE_SIGNAL_FILE);
	standby = false;
	for (int d = 0; d < n_databases; d++)
	{
		lsm_close(databases[d].lsm);
		databases[d].lsm = NULL;
		open_store(&databases[d]);
	}
	if (unlink(STANDBY_SIGNAL_FILE) != 0 && errno != ENOENT)
		ereport(LOG, errmsg("could not remove file \"%s\": %s", STANDBY_SIGNAL_FILE, strerror(errno)));
	if (!WriteControlFile(writer_config->data_directory, false))
		ereport(LOG, errmsg("could not write the control file: %s", strerror(errno)));
	RecoveryEnd();
	ereport(LOG, errmsg("server promoted: this server writes store \"%s\" now",
						writer_config->store_location));
}

/*
 * standby_upkeep -- a standby's timer: poll the stores when due, the interval
 * doubling while nothing new comes; promote when asked. Returns the milliseconds
 * until the next poll.
 */
static int
standby_upkeep(void)
{
	int64_t		now = rl_monotonic_ms();
	bool		moved = false;

	if (access(PROMOTE_SIGNAL_FILE, F_OK) == 0)
	{
		promote();
		return 0;
	}
	if (now < next_poll_ms)
		return (int) (next_poll_ms - now);
	for (int d = 0; d < n_databases; d++)
	{
		WriterDatabase *db = &databases[d];

		if (db->lsm == NULL && now >= db->reopen_at_ms)
			open_store(db);
		else if (db->lsm != NULL)
			moved |= follow_store(db);
	}
	poll_ms = moved ? writer_config->standby_poll_ms :
		poll_ms * 2 > writer_config->standby_poll_max_ms ? writer_config->standby_poll_max_ms : poll_ms * 2;
	next_poll_ms = rl_monotonic_ms() + poll_ms;
	return poll_ms;
}

static int
store_upkeep(void)
{
	int64_t		now = rl_monotonic_ms();
	int64_t		next = now + check_interval_ms;

	if (standby)
		return standby_upkeep();

	for (int d = 0; d < n_databases && !fenced; d++)
	{
		WriterDatabase *db = &databases[d];

		if (db->lsm == NULL && now >= db->reopen_at_ms)
			open_store(db);
		else if (db->lsm != NULL && now >= db->next_check_ms)
		{
			RlStatus	rc = lsm_check_fence(db->lsm);

			if (rc == RL_FENCED)
				report_fenced();
			else if (rc == RL_OK)
				store_proven(db);
			else if (lsm_health(db->lsm) != RL_OK)
				reopen_store(db);
			else
				db->next_check_ms = now + check_interval_ms;
		}
		if (db->lsm != NULL && !fenced && now >= db->lease_due_ms)
			renew_lease(db);
		if (db->lsm != NULL && db->lease_due_ms < next)
			next = db->lease_due_ms;
		if (db->lsm == NULL && db->reopen_at_ms < next)
			next = db->reopen_at_ms;
		if (db->lsm != NULL && db->next_check_ms < next)
			next = db->next_check_ms;
	}
	now = rl_monotonic_ms();
	return next > now ? (int) (next - now) : 0;
}

/*
 * WriterMain -- the writer process
 *
 * SIGTERM and SIGHUP are blocked except inside ppoll, so a request to stop is
 * seen between two groups, never inside one.
 */
void
WriterMain(const WriterConfig *config)
{
	sigset_t	blocked,
				unblocked;
	int			listen_sock;
	struct pollfd *fds = NULL;
	int			max_fds = 0;

	writer_config = config;
	MyLogIdentity.backend_type = "writer";
	if (Metrics)
		storage_stats = &Metrics->storage;	/* the store's counters, for the metrics endpoint */
	check_interval_ms = config->store_check_timeout_ms > 0 &&
		config->store_check_timeout_ms / 3 < STORE_CHECK_INTERVAL_MAX_MS ?
		config->store_check_timeout_ms / 3 : STORE_CHECK_INTERVAL_MAX_MS;

	rl_set_signal_handler(SIGTERM, writer_sigterm, false);
	rl_set_signal_handler(SIGINT, writer_sigterm, false);
	rl_set_signal_handler(SIGQUIT, writer_sigquit, false);
	rl_set_signal_handler(SIGHUP, SIG_IGN, false);
	rl_set_signal_handler(SIGPIPE, SIG_IGN, false);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGINT);
	sigprocmask(SIG_BLOCK, &blocked, &unblocked);
	sigdelset(&unblocked, SIGTERM);
	sigdelset(&unblocked, SIGINT);

	raise_open_files_limit();
	standby = RecoveryInProgress();
	poll_ms = config->standby_poll_ms;
	open_database(CACHE_POSTGRES_DATID, false);
	if (!standby)
		bootstrap_registry();
	sync_databases(false);
	listen_sock = listen_on_socket(config->socket_path);
	sleep_ms(config->startup_delay_ms);
	{
		LsmStats	stats;
		char		ready = 'R';

		lsm_stats(find_database(CACHE_POSTGRES_DATID)->lsm, &stats);
		ereport(LOG, errmsg("%s ready: store \"%s\", epoch %llu, newest commit %llu, %d databases",
							standby ? "standby" : "writer", config->store_location, (unsigned long long) stats.writer_epoch,
							(unsigned long long) stats.last_seq, n_databases));
		if (write(config->ready_fd, &ready, 1) != 1)
			ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR),
					errmsg("could not tell the postmaster the writer is ready: %s",
						   strerror(errno)));
		close(config->ready_fd);
	}

	int			intent_wait_ms = -1;

	running = true;
	while (!shutdown_requested)
	{
		int			nfds = 0;
		int			i;
		int			rc;
		int			wait_ms = store_upkeep();
		struct timespec timeout;

		if (intent_wait_ms >= 0 && intent_wait_ms < wait_ms)
			wait_ms = intent_wait_ms;
		timeout = (struct timespec) {wait_ms / 1000, (wait_ms % 1000) * 1000000L};

		for (WriterClient *c = clients; c; c = c->next)
			nfds++;
		if (nfds + 1 > max_fds)
		{
			max_fds = (nfds + 1) * 2;
			fds = realloc(fds, max_fds * sizeof(struct pollfd));
			if (fds == NULL)
				ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		}
		fds[0].fd = listen_sock;
		fds[0].events = POLLIN;
		i = 1;
		for (WriterClient *c = clients; c; c = c->next, i++)
		{
			fds[i].fd = c->sock;
			fds[i].events = POLLIN | (c->out.len > 0 ? POLLOUT : 0);
		}
		rc = ppoll(fds, nfds + 1, &timeout, &unblocked);
		if (rc < 0)
		{
			if (errno == EINTR)
				continue;
			ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR), errmsg("poll failed: %s", strerror(errno)));
		}
		i = 1;
		for (WriterClient *c = clients; c && i <= nfds; c = c->next, i++)
		{
			if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
			{
				if (!read_input(c))
					c->closing = true;
				process_input(c);
			}
		}
		/* new clients go to the head of the list: only after the walk above */
		if (fds[0].revents & POLLIN)
			accept_clients(listen_sock);
		if (n_pending > 0)
			commit_group();
		if (!fenced)
			run_maintenance();
		publish_store_size();
		intent_wait_ms = answer_intents();
		for (WriterClient *c = clients; c; c = c->next)
			flush_output(c);
		drop_closed_clients();
		/* replies are out: what the next commit's WAL object needs is made now */
		for (int d = 0; d < n_databases && !fenced && !standby; d++)
			if (databases[d].lsm)
				lsm_prepare_commit(databases[d].lsm);
	}

	fail_pending(ERRCODE_ADMIN_SHUTDOWN, "the writer is shutting down");
	for (WriterClient *c = clients; c; c = c->next)
	{
		fcntl(c->sock, F_SETFL, 0);
		flush_output(c);
		c->out.len = 0;
		c->closing = true;
	}
	drop_closed_clients();
	free(fds);
	free(pending);
	while (n_databases > 0)
		close_database(n_databases - 1, false);
	free(databases);
	unlink(config->socket_path);
	if (fenced)
		exit(WRITER_EXIT_FENCED);
	ereport(LOG, errmsg("writer shut down"));
	exit(0);
}
