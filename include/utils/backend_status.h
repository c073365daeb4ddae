/*
 * backend_status.h: what every server process is doing, and counters per
 * database, in memory the postmaster shares with every process it forks
 * (PostgreSQL's PgBackendStatus and the database part of its cumulative
 * statistics).
 *
 * Each process that serves a client (and the writer) owns one slot of the status
 * array while it lives: who it is (user, database, client address, start time) and
 * what it does now (state, query text, when its transaction, query and state
 * began). It writes only its own slot, bumping a change counter before and after
 * (odd while it writes), so a reader copies a slot without locks and copies again
 * if the counter moved. A slot is claimed by writing the pid into a free one
 * (compare-and-swap), freed at exit, and freed by the postmaster when it reaps a
 * process that could not free it. The views pg_stat_activity and pg_stat_database
 * (catalog/pg_stat.c) read snapshots of these arrays.
 */
#ifndef RL_BACKEND_STATUS_H
#define RL_BACKEND_STATUS_H

#include <stdbool.h>
#include <stdint.h>

/* PostgreSQL's default track_activity_query_size: longer query texts are cut */
#define BACKEND_QUERY_SIZE 1024
#define BACKEND_NAME_SIZE 64

typedef enum BackendStatusState
{
	STATE_UNDEFINED = 0,		/* not a client backend (the writer) */
	STATE_IDLE,
	STATE_RUNNING,
	STATE_IDLEINTRANSACTION,
	STATE_IDLEINTRANSACTION_ABORTED
} BackendStatusState;

typedef enum BackendKind
{
	BACKEND_KIND_CLIENT = 1,
	BACKEND_KIND_WRITER
} BackendKind;

/* one process's status, as a reader copies it */
typedef struct BackendStatus
{
	int32_t		pid;			/* 0: a free slot */
	uint32_t	datid;
	uint8_t		kind;			/* BackendKind */
	uint8_t		state;			/* BackendStatusState */
	int64_t		backend_start;	/* the timestamps: microseconds since 2000-01-01 UTC, 0 if none */
	int64_t		xact_start;
	int64_t		query_start;
	int64_t		state_change;
	char		usename[BACKEND_NAME_SIZE];
	char		datname[BACKEND_NAME_SIZE];
	char		appname[BACKEND_NAME_SIZE];
	char		client_addr[BACKEND_NAME_SIZE];	/* "" for a Unix socket */
	int32_t		client_port;	/* -1 for a Unix socket */
	char		query[BACKEND_QUERY_SIZE];
} BackendStatus;

/* counters of one database since the server started */
typedef struct DatabaseStats
{
	uint32_t	datid;			/* 0: a free slot */
	int64_t		xact_commit;
	int64_t		xact_rollback;
	int64_t		tup_returned;
	int64_t		tup_inserted;
	int64_t		tup_updated;
	int64_t		tup_deleted;
	int64_t		sessions;
	int64_t		stats_reset;	/* the server's start */
} DatabaseStats;

/* The postmaster, before it forks anything: maps the arrays (nslots processes). */
void		BackendStatusShmemInit(int nslots);
/* The postmaster: process pid is gone; its slot is free again. */
void		BackendStatusForget(int pid);
/* The postmaster's start, microseconds since 2000-01-01 UTC (pg_postmaster_start_time). */
int64_t		PostmasterStartTimestamp(void);

/*
 * A process takes its slot once it knows who it serves (client_port -1 for a Unix
 * socket); the slot is freed at exit.
 */
void		pgstat_bestart(BackendKind kind, uint32_t datid, const char *usename, const char *datname,
						   const char *client_addr, int client_port);
/*
 * What the backend does now: the query text (NULL keeps the previous one, as
 * PostgreSQL's idle sessions show their last query) and the application_name.
 */
void		pgstat_report_activity(BackendStatusState state, const char *query, const char *appname,
								   int64_t xact_start);
/* A transaction of this database ended. */
void		pgstat_report_xact_end(bool commit);
/*
 * Rows a statement returned, inserted, updated or deleted; those it changed are
 * counted for table too (its cache name; NULL: none).
 */
void		pgstat_count_tuples(const char *table, int64_t returned, int64_t inserted, int64_t updated,
								int64_t deleted);

/* the changes counted for one table of one database (pg_stat_user_tables) */
#define TABLE_STATS_SLOTS 4096
#define TABLE_NAME_SIZE 128		/* a longer cache name is not counted */
typedef struct TableStats
{
	uint32_t	datid;
	char		relname[TABLE_NAME_SIZE];
	int64_t		n_tup_ins;
	int64_t		n_tup_upd;
	int64_t		n_tup_del;
} TableStats;

/* Snapshots: up to max entries copied into out; returns how many. */
int			BackendStatusSnapshot(BackendStatus *out, int max);
int			DatabaseStatsSnapshot(DatabaseStats *out, int max);
/* datid's tables only */
int			TableStatsSnapshot(uint32_t datid, TableStats *out, int max);
int			BackendStatusSlots(void);
#define DATABASE_STATS_SLOTS 256

/* now, in microseconds since 2000-01-01 UTC */
int64_t		pgstat_now(void);

#endif
