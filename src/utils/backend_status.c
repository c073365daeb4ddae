/*
 * backend_status.c: the shared status array and the per-database counters
 * (utils/backend_status.h says what they hold and who writes them).
 *
 * Both live in one anonymous shared mapping the postmaster makes before it forks,
 * as the commit horizon does (catalog/commit_horizon.c). A report costs a few
 * stores and, for a query, one copy of at most BACKEND_QUERY_SIZE bytes: it is
 * done for every client message that runs something. The writer of a slot is
 * always its owner; the postmaster only clears the pid of a process it reaped.
 * A reader (a backend building pg_stat_activity) copies each slot between two
 * reads of its change counter and retries while the counter is odd or moved,
 * PostgreSQL's st_changecount protocol. Counters are atomic adds; a process that
 * finds no slot (more processes than slots, or 256 databases) reports nothing.
 * The tables' counters are an open-addressing table keyed by database and cache
 * name whose slots are claimed for good (a compare-and-swap of the slot's state,
 * then the name, then the state that says it is readable); a table dropped and
 * made again under its name goes on with its counts.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <stdlib.h>
#include <unistd.h>

#include "utils/adt/typio.h"
#include "utils/backend_status.h"
#include "utils/elog.h"
#include "utils/miscadmin.h"

typedef struct StatusSlot
{
	uint32_t	changecount;	/* odd while the owner writes */
	BackendStatus st;
} StatusSlot;

typedef struct TableSlot
{
	uint32_t	state;			/* TABLE_FREE, TABLE_CLAIMED (its name being written), TABLE_IN_USE */
	TableStats	st;
} TableSlot;

#define TABLE_FREE 0
#define TABLE_CLAIMED 1
#define TABLE_IN_USE 2
/* how long a claim may take before the slot is given up on (its claimer died) */
#define CLAIM_SPINS 1000000

typedef struct SharedStatus
{
	int64_t		postmaster_start;
	int			nslots;
	DatabaseStats databases[DATABASE_STATS_SLOTS];
	TableSlot	tables[TABLE_STATS_SLOTS];	/* open addressing by (datid, name); never freed */
	StatusSlot	slots[];
} SharedStatus;

static SharedStatus *shared;
static StatusSlot *my_slot;
static DatabaseStats *my_database;

int64_t
pgstat_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return ((int64_t) tv.tv_sec - UNIX_EPOCH_SECS) * USECS_PER_SEC + tv.tv_usec;
}

void
BackendStatusShmemInit(int nslots)
{
	size_t		size = sizeof(SharedStatus) + sizeof(StatusSlot) * (size_t) nslots;
	void	   *p;

	if (shared != NULL)
		return;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("could not create shared memory for the backend status array: %s", strerror(errno)));
	shared = p;
	shared->nslots = nslots;
	shared->postmaster_start = pgstat_now();
}

int64_t
PostmasterStartTimestamp(void)
{
	return shared ? shared->postmaster_start : 0;
}

int
BackendStatusSlots(void)
{
	return shared ? shared->nslots : 0;
}

void
BackendStatusForget(int pid)
{
	for (int i = 0; shared && i < shared->nslots; i++)
	{
		int32_t		expected = pid;

		__atomic_compare_exchange_n(&shared->slots[i].st.pid, &expected, 0, false,
									__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
}

/* begin_write / end_write -- the owner's side of the change counter */
static inline void
begin_write(void)
{
	__atomic_add_fetch(&my_slot->changecount, 1, __ATOMIC_SEQ_CST);
}

static inline void
end_write(void)
{
	__atomic_add_fetch(&my_slot->changecount, 1, __ATOMIC_SEQ_CST);
}

static void
copy_name(char *dst, const char *src, size_t size)
{
	size_t		n = src ? strnlen(src, size - 1) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

/* pgstat_beshutdown -- at exit: the slot is free again */
static void
pgstat_beshutdown(void)
{
	if (my_slot != NULL)
		__atomic_store_n(&my_slot->st.pid, 0, __ATOMIC_SEQ_CST);
	my_slot = NULL;
}

/* database_slot -- datid's counters, claimed if it has none yet; NULL if all are taken */
static DatabaseStats *
database_slot(uint32_t datid)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; shared && datid != 0 && i < DATABASE_STATS_SLOTS; i++)
		{
			DatabaseStats *d = &shared->databases[i];
			uint32_t	expected = 0;

			if (__atomic_load_n(&d->datid, __ATOMIC_ACQUIRE) == datid)
				return d;
			if (pass == 1 && __atomic_compare_exchange_n(&d->datid, &expected, datid, false,
														 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			{
				__atomic_store_n(&d->stats_reset, shared->postmaster_start, __ATOMIC_RELEASE);
				return d;
			}
		}
	return NULL;
}

void
pgstat_bestart(BackendKind kind, uint32_t datid, const char *usename, const char *datname,
			   const char *client_addr, int client_port)
{
	int32_t		pid = (int32_t) getpid();

	for (int i = 0; shared && my_slot == NULL && i < shared->nslots; i++)
	{
		int32_t		expected = 0;

		if (__atomic_compare_exchange_n(&shared->slots[i].st.pid, &expected, pid, false,
										__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			my_slot = &shared->slots[i];
	}
	if (my_slot == NULL)
		return;
	/* a process killed while it wrote left the counter odd */
	if (__atomic_load_n(&my_slot->changecount, __ATOMIC_SEQ_CST) & 1)
		__atomic_add_fetch(&my_slot->changecount, 1, __ATOMIC_SEQ_CST);
	begin_write();
	BackendStatus *st = &my_slot->st;

	st->datid = datid;
	st->kind = (uint8_t) kind;
	st->state = kind == BACKEND_KIND_CLIENT ? STATE_IDLE : STATE_UNDEFINED;
	st->backend_start = pgstat_now();
	st->xact_start = st->query_start = 0;
	st->state_change = kind == BACKEND_KIND_CLIENT ? st->backend_start : 0;
	copy_name(st->usename, usename, sizeof(st->usename));
	copy_name(st->datname, datname, sizeof(st->datname));
	copy_name(st->appname, "", sizeof(st->appname));
	copy_name(st->client_addr, client_addr, sizeof(st->client_addr));
	st->client_port = client_port;
	st->query[0] = '\0';
	end_write();
	atexit(pgstat_beshutdown);
	if (kind == BACKEND_KIND_CLIENT && (my_database = database_slot(datid)) != NULL)
		__atomic_add_fetch(&my_database->sessions, 1, __ATOMIC_RELAXED);
}

void
pgstat_report_activity(BackendStatusState state, const char *query, const char *appname, int64_t xact_start)
{
	if (my_slot == NULL)
		return;
	BackendStatus *st = &my_slot->st;
	int64_t		now = pgstat_now();

	begin_write();
	if (st->state != state)
		st->state_change = now;
	st->state = (uint8_t) state;
	st->xact_start = xact_start;
	if (query != NULL)
	{
		/* cut at a character boundary, as PostgreSQL's pg_mbcliplen */
		size_t		n = strnlen(query, BACKEND_QUERY_SIZE - 1);

		if (n == BACKEND_QUERY_SIZE - 1)
			while (n > 0 && ((unsigned char) query[n] & 0xC0) == 0x80)
				n--;
		memcpy(st->query, query, n);
		st->query[n] = '\0';
		st->query_start = now;
	}
	copy_name(st->appname, appname, sizeof(st->appname));
	end_write();
}

void
pgstat_report_xact_end(bool commit)
{
	if (my_database != NULL)
		__atomic_add_fetch(commit ? &my_database->xact_commit : &my_database->xact_rollback, 1,
						   __ATOMIC_RELAXED);
}

/*
 * table_slot -- the counters of table (a cache name) in this backend's database,
 * claimed if it has none yet; NULL if there is no room or the name is too long
 */
static TableStats *
table_slot(const char *table)
{
	size_t		len = strlen(table);
	uint32_t	hash = 2166136261u ^ my_database->datid;	/* FNV-1a */

	if (len >= TABLE_NAME_SIZE)
		return NULL;
	for (size_t i = 0; i < len; i++)
		hash = (hash ^ (uint8_t) table[i]) * 16777619u;
	for (uint32_t probe = 0; probe < TABLE_STATS_SLOTS; probe++)
	{
		TableSlot  *t = &shared->tables[(hash + probe) % TABLE_STATS_SLOTS];
		uint32_t	state = TABLE_FREE;

		if (__atomic_compare_exchange_n(&t->state, &state, TABLE_CLAIMED, false, __ATOMIC_SEQ_CST,
										__ATOMIC_SEQ_CST))
		{
			t->st.datid = my_database->datid;
			memcpy(t->st.relname, table, len + 1);
			__atomic_store_n(&t->state, TABLE_IN_USE, __ATOMIC_RELEASE);
			return &t->st;
		}
		for (int spin = 0; state == TABLE_CLAIMED && spin < CLAIM_SPINS; spin++)
			state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
		if (state == TABLE_IN_USE && t->st.datid == my_database->datid && strcmp(t->st.relname, table) == 0)
			return &t->st;
	}
	return NULL;
}

void
pgstat_count_tuples(const char *table, int64_t returned, int64_t inserted, int64_t updated, int64_t deleted)
{
	TableStats *t;

	if (my_database == NULL)
		return;
	if (table != NULL && inserted + updated + deleted > 0 && (t = table_slot(table)) != NULL)
	{
		__atomic_add_fetch(&t->n_tup_ins, inserted, __ATOMIC_RELAXED);
		__atomic_add_fetch(&t->n_tup_upd, updated, __ATOMIC_RELAXED);
		__atomic_add_fetch(&t->n_tup_del, deleted, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&my_database->tup_returned, returned, __ATOMIC_RELAXED);
	__atomic_add_fetch(&my_database->tup_inserted, inserted, __ATOMIC_RELAXED);
	__atomic_add_fetch(&my_database->tup_updated, updated, __ATOMIC_RELAXED);
	__atomic_add_fetch(&my_database->tup_deleted, deleted, __ATOMIC_RELAXED);
}

int
BackendStatusSnapshot(BackendStatus *out, int max)
{
	int			n = 0;

	for (int i = 0; shared && i < shared->nslots && n < max; i++)
	{
		StatusSlot *slot = &shared->slots[i];

		for (int attempt = 0; attempt < 1000; attempt++)
		{
			uint32_t	before = __atomic_load_n(&slot->changecount, __ATOMIC_SEQ_CST);

			if (before & 1)
				continue;
			memcpy(&out[n], &slot->st, sizeof(BackendStatus));
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (__atomic_load_n(&slot->changecount, __ATOMIC_SEQ_CST) != before)
				continue;
			out[n].pid = __atomic_load_n(&slot->st.pid, __ATOMIC_SEQ_CST);
			if (out[n].pid != 0)
				n++;
			break;
		}
	}
	return n;
}

int
DatabaseStatsSnapshot(DatabaseStats *out, int max)
{
	int			n = 0;

	for (int i = 0; shared && i < DATABASE_STATS_SLOTS && n < max; i++)
	{
		DatabaseStats *d = &shared->databases[i];

		if (__atomic_load_n(&d->datid, __ATOMIC_ACQUIRE) == 0)
			continue;
		out[n].datid = d->datid;
		out[n].xact_commit = __atomic_load_n(&d->xact_commit, __ATOMIC_RELAXED);
		out[n].xact_rollback = __atomic_load_n(&d->xact_rollback, __ATOMIC_RELAXED);
		out[n].tup_returned = __atomic_load_n(&d->tup_returned, __ATOMIC_RELAXED);
		out[n].tup_inserted = __atomic_load_n(&d->tup_inserted, __ATOMIC_RELAXED);
		out[n].tup_updated = __atomic_load_n(&d->tup_updated, __ATOMIC_RELAXED);
		out[n].tup_deleted = __atomic_load_n(&d->tup_deleted, __ATOMIC_RELAXED);
		out[n].sessions = __atomic_load_n(&d->sessions, __ATOMIC_RELAXED);
		out[n].stats_reset = __atomic_load_n(&d->stats_reset, __ATOMIC_ACQUIRE);
		n++;
	}
	return n;
}

int
TableStatsSnapshot(uint32_t datid, TableStats *out, int max)
{
	int			n = 0;

	for (int i = 0; shared && i < TABLE_STATS_SLOTS && n < max; i++)
	{
		TableSlot  *t = &shared->tables[i];

		if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != TABLE_IN_USE || t->st.datid != datid)
			continue;
		out[n].datid = datid;
		memcpy(out[n].relname, t->st.relname, TABLE_NAME_SIZE);
		out[n].n_tup_ins = __atomic_load_n(&t->st.n_tup_ins, __ATOMIC_RELAXED);
		out[n].n_tup_upd = __atomic_load_n(&t->st.n_tup_upd, __ATOMIC_RELAXED);
		out[n].n_tup_del = __atomic_load_n(&t->st.n_tup_del, __ATOMIC_RELAXED);
		n++;
	}
	return n;
}
