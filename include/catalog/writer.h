/*
 * writer.h: the writer process, the only process that writes to the object store,
 * and the client library backends use to talk to it.
 *
 * The postmaster forks the writer (WriterMain). It opens the store as its writer
 * (lsm_open_writer: this fences any older writer of the same store for good),
 * listens on a Unix socket in the data directory, and then serves commit requests
 * from backends. Every request that arrives while a WAL write is in flight joins
 * the next lsm_commit group (group commit); a request is acknowledged only after
 * lsm_commit has returned, i.e. once its batch is durable, and every subscriber is
 * then told the newest commit sequence number.
 *
 * The socket protocol (doc/protocol-writer.md has the same with examples). Every
 * frame is PostgreSQL-shaped: Byte1 type, Int32 length (big-endian, counting
 * itself and the body, not the type byte), body. Integers are big-endian,
 * strings NUL-terminated.
 *
 *   backend -> writer
 *     'A' Attach         Int32 datid: this connection's requests and notifications
 *                        are for that database from now on (the default is the
 *                        postgres database, CACHE_POSTGRES_DATID)
 *     'C' CommitRequest  Int64 snapshot_seq (the commit the transaction read at),
 *                        then to the end of the frame the transaction's changes as
 *                        a SQLite changeset over the catalog cache (catalog_cache.h)
 *     'S' Subscribe      empty: from now on this connection also receives Notify
 *     'W' WriteIntent    empty: the connection's transaction is about to write.
 *                        Answered by WriteIntentAck once every CommitRequest the
 *                        writer had read (from any connection) is answered and no
 *                        other connection of the database holds writes, or after
 *                        WRITE_INTENT_WAIT_MS whatever they do. From the answer on
 *                        the connection holds writes, until its CommitRequest or a
 *                        Release
 *     'R' Release        empty: the transaction holds no writes (rolled back, or
 *                        wrote nothing after all); no answer
 *     'M' Maintain       Byte1 task: 'K' checkpoint (flush the memtable: every
 *                        commit in SSTs), 'X' compact (that, then merge every
 *                        SST into one sorted run), 'G' gc (collect what no
 *                        manifest needs): run by the writer on the connection's
 *                        database after the commits it had read, between two
 *                        groups (commits wait meanwhile). Answered by
 *                        MaintainReply. This is how a live store is maintained:
 *                        rocklake-admin refuses to take over a store a server
 *                        holds (storage/lease.h)
 *
 *   writer -> backend
 *     'c' CommitReply    Byte1 status (0 committed, 1 not committed),
 *                        Int64 commit_seq (0 if not committed),
 *                        String sqlstate ("00000" when committed), String message,
 *                        and for a unique violation found at commit four more:
 *                        String detail ("Key (a)=(1) already exists."), String
 *                        schema, String table, String constraint (PostgreSQL's D,
 *                        s, t and n fields). A reader takes the strings it knows
 *                        and ignores any after them, so a frame may grow at its end
 *     'n' Notify         Int64 newest_commit_seq of the connection's database; sent
 *                        once right after Subscribe and after every group commit
 *     'w' WriteIntentAck empty: the commits in flight when the WriteIntent came are
 *                        done (a backend then finds them in the cache)
 *     'm' MaintainReply  Byte1 status (0 done, 1 failed), String sqlstate ("00000"
 *                        when done), String message: when done a JSON object
 *                        of what the task did ({"task": "compact",
 *                        "objects_before": 12, "objects_after": 5, "bytes_before":
 *                        ..., "bytes_after": ..., "deleted": 0, "manifest": 9,
 *                        "writer_epoch": 3, "l0_ssts": 0, "sorted_runs": 1})
 *
 * Each database is an independent catalog with its own store (the postgres
 * database at the store root, database N under root/db/N, each an LSM fenced on its
 * own) and its own cache file (catalog_cache_path). The registry of databases is
 * rl_database in the postgres database's catalog: CREATE DATABASE and DROP
 * DATABASE are commits to it, and the writer opens (after clearing what a crash
 * may have left under the id) or closes and removes the database's store and cache
 * once such a commit is durable. A new store's registry names postgres and
 * template1.
 *
 * The writer applies each changeset of a group to the catalog cache in its own
 * savepoint (a conflict fails that request alone: 23505, 40001, 42P07, with
 * PostgreSQL's wording), writes what the applied ones changed as one WAL object,
 * and commits the cache transaction only once that object is durable: a backend
 * that hears of commit N reads it from the cache.
 *
 * Replies on one connection come in request order; a connection may pipeline
 * several CommitRequests. A malformed frame closes the connection. A connection
 * that breaks before its CommitReply leaves the outcome unknown to the backend
 * (08007), exactly like a lost COMMIT acknowledgement in PostgreSQL.
 *
 * Not committed: 57P01 (the writer is shutting down, or a newer writer has taken
 * over the store: this writer then exits with WRITER_EXIT_FENCED and the
 * postmaster shuts the server down instead of restarting it), 08007 (the store
 * write may or may not have landed; the writer reopens the store, which replays
 * it if it did), 58030 (the store failed; nothing was written).
 */
#ifndef RL_WRITER_H
#define RL_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"

/* frame types */
#define WriterMsg_Attach			'A'
#define WriterMsg_CommitRequest		'C'
#define WriterMsg_Subscribe			'S'
#define WriterMsg_WriteIntent		'W'
#define WriterMsg_Release			'R'
#define WriterMsg_Maintain			'M'
#define WriterMsg_CommitReply		'c'
#define WriterMsg_Notify			'n'
#define WriterMsg_WriteIntentAck	'w'
#define WriterMsg_MaintainReply		'm'

/* Maintain's task byte */
#define MAINTAIN_CHECKPOINT			'K'
#define MAINTAIN_COMPACT			'X'
#define MAINTAIN_GC					'G'

/*
 * How long a WriteIntent waits for the other writing transactions of its database.
 * Bounded, so that a transaction left open cannot stall the others (nor two
 * connections of one client deadlock): they then write as they would have anyway.
 */
#define WRITE_INTENT_WAIT_MS		200

/* the largest frame either side accepts */
#define WRITER_MAX_FRAME			(256 * 1024 * 1024)

/* the socket's name inside the data directory */
#define WRITER_SOCKET_NAME			".s.rocklake.writer"

/* exit status of a writer that found a newer writer on its store: do not restart */
#define WRITER_EXIT_FENCED			3

/* ---------------------------------------------------------------- the client library */

typedef struct WriterConn WriterConn;

/*
 * Asked before a backend waits for the writer (for an answer, or to send a
 * request) and when a signal interrupts the wait: true gives the wait up with
 * RL_INTERRUPTED, which leaves the connection in no known state (disconnect it).
 * NULL (the default) waits on. A backend sets InterruptRaisePending: a cancel, a
 * shutdown, a gone client or postmaster then end a wait on a writer that does not
 * answer, and the client check's tick (miscadmin.h) interrupts the wait every
 * second.
 */
extern bool (*writer_wait_interrupted) (void);

/* Connect; NULL with rl_last_error() if the writer is not there. */
WriterConn *writer_connect(const char *socket_path);
void		writer_disconnect(WriterConn *conn);
/* For poll(): readable when a Notify (or a reply) has arrived. */
int			writer_conn_fd(const WriterConn *conn);

typedef struct WriterCommitResult
{
	bool		committed;
	uint64_t	commit_seq;
	char		sqlstate[6];
	char		message[256];
	/* a unique violation's detail and fields (CacheConflict's); "" if none */
	char		detail[512];
	char		schema_name[64];
	char		table_name[64];
	char		constraint_name[64];
} WriterCommitResult;

/*
 * Send a transaction's changeset and wait for the reply. RL_OK: a reply came (see
 * result->committed). RL_IO_ERROR: the connection broke, RL_INTERRUPTED: the wait
 * was given up; the outcome is unknown. Notify frames read meanwhile update
 * writer_newest_seq().
 */
RlStatus	writer_commit(WriterConn *conn, uint64_t snapshot_seq, const void *changeset,
						  size_t changeset_len, WriterCommitResult *result);

/*
 * Before a transaction writes: wait (at most WRITE_INTENT_WAIT_MS) for the other
 * transactions of the database that hold writes to commit or roll back, as a
 * PostgreSQL writer waits for the holder of a row it needs; a backend that then
 * finds its snapshot superseded reports the conflict at the statement, not at
 * COMMIT. The connection holds writes until its CommitRequest or writer_release.
 */
RlStatus	writer_write_intent(WriterConn *conn);
RlStatus	writer_release(WriterConn *conn);

/* Make this connection's requests and notifications about database datid. */
RlStatus	writer_attach(WriterConn *conn, uint32_t datid);

typedef struct WriterMaintainResult
{
	bool		done;
	char		sqlstate[6];
	char		message[1024];	/* done: the JSON summary; else why not */
} WriterMaintainResult;

/*
 * Ask the writer to run a maintenance task (MAINTAIN_*) on the connection's
 * database and wait for it. RL_OK: a reply came (see result->done).
 */
RlStatus	writer_maintain(WriterConn *conn, char task, WriterMaintainResult *result);

/* Ask for Notify frames on this connection. */
RlStatus	writer_subscribe(WriterConn *conn);

/*
 * Wait up to timeout_ms (-1: forever) for the next Notify. RL_OK with *newest set;
 * RL_NOT_FOUND on timeout; RL_IO_ERROR if the connection broke.
 */
RlStatus	writer_wait_notify(WriterConn *conn, int timeout_ms, uint64_t *newest);

/* The newest commit sequence this connection has heard of. */
uint64_t	writer_newest_seq(const WriterConn *conn);

/* ---------------------------------------------------------------- the frame codec, both sides */

#define FRAME_HEADER_LEN	5
/* CommitReply's status byte */
#define COMMIT_STATUS_OK	0
#define COMMIT_STATUS_FAILED 1

/* a frame of type starts in buf: its length word is filled in by frame_end */
size_t		frame_begin(RlBuf *buf, char type);
void		frame_end(RlBuf *buf, size_t start);
/* 1: buf starts with a whole frame (its type and body); 0: not yet; -1: a bad length */
int			frame_complete(const RlBuf *buf, char *type, const uint8_t **body, size_t *body_len);
/* drop the first n bytes of buf (a frame read, or output sent) */
void		frame_consume(RlBuf *buf, size_t n);

#endif
