/*
 * commit_horizon.c: the newest acknowledged commit of each database, shared by the
 * writer (which sets it) and the backends (which wait for their cache to reach it
 * before they take a snapshot).
 *
 * A writer that made a group visible before acknowledging it kept every client
 * waiting through the cache's SQLite commit (a fifth of a DuckLake COMMIT). Now it
 * acknowledges first, so the guarantee "a snapshot taken after a commit was
 * acknowledged sees it" needs the acknowledged sequence where every backend can
 * read it without asking anyone: a small table in an anonymous shared mapping the
 * postmaster makes before it forks, as PostgreSQL's shared memory. Only the writer
 * writes it (one thread), so a slot is claimed by writing its sequence before its
 * database id; readers load the id, then the sequence. A database that finds no
 * slot simply keeps the old order (visible, then acknowledged).
 *
 * A backend whose cache is behind waits on the slot's generation, a futex word the
 * writer bumps after each cache commit, waking whoever waits (FUTEX_WAKE only when
 * someone does): a sleep-and-look-again wait overshot by the scheduler's slack on a
 * busy machine. A wake that comes between a backend's look at the cache and its
 * wait is not lost: the futex only waits while the word still holds the generation
 * read before the look.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "catalog/commit_horizon.h"
#include "common/ulid.h"
#include "utils/elog.h"

#define COMMIT_HORIZON_SLOTS 256

typedef struct HorizonSlot
{
	uint32_t	datid;			/* 0: free */
	uint32_t	generation;		/* the futex: bumped at each cache commit */
	uint32_t	waiters;		/* backends in commit_horizon_wait */
	uint64_t	seq;
	int64_t		proven_ms;		/* rl_monotonic_ms() of the last proof of ownership */
	int64_t		replayed_ms;	/* standby: the newest applied commit's time (0: none) */
} HorizonSlot;

static HorizonSlot *horizon;

void
CommitHorizonInit(void)
{
	if (horizon != NULL)
		return;
	void	   *p = mmap(NULL, sizeof(HorizonSlot) * COMMIT_HORIZON_SLOTS, PROT_READ | PROT_WRITE,
						 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("could not create shared memory for the commit horizon: %s", strerror(errno)));
	horizon = p;
}

/* slot_of -- datid's slot, or NULL */
static HorizonSlot *
slot_of(uint32_t datid)
{
	for (int i = 0; horizon && i < COMMIT_HORIZON_SLOTS; i++)
		if (__atomic_load_n(&horizon[i].datid, __ATOMIC_ACQUIRE) == datid)
			return &horizon[i];
	return NULL;
}

bool
commit_horizon_set(uint32_t datid, uint64_t seq)
{
	HorizonSlot *slot = slot_of(datid);

	if (slot == NULL && (slot = slot_of(0)) != NULL)
	{
		/* claimed once the store is open: that is a proof too */
		__atomic_store_n(&slot->proven_ms, rl_monotonic_ms(), __ATOMIC_RELEASE);
		__atomic_store_n(&slot->replayed_ms, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&slot->seq, seq, __ATOMIC_RELEASE);
		__atomic_store_n(&slot->datid, datid, __ATOMIC_RELEASE);
		return true;
	}
	if (slot == NULL)
		return false;
	__atomic_store_n(&slot->seq, seq, __ATOMIC_RELEASE);
	return true;
}

void
commit_horizon_visible(uint32_t datid)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	if (slot == NULL)
		return;
	__atomic_add_fetch(&slot->generation, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&slot->waiters, __ATOMIC_SEQ_CST) > 0)
		syscall(SYS_futex, &slot->generation, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void
commit_horizon_forget(uint32_t datid)
{
	HorizonSlot *slot = slot_of(datid);

	if (slot != NULL)
	{
		__atomic_store_n(&slot->datid, 0, __ATOMIC_RELEASE);
		/* whoever waits on it looks again, and finds no slot */
		__atomic_add_fetch(&slot->generation, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, &slot->generation, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
}

void
commit_horizon_proven(uint32_t datid, int64_t now_ms)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	if (slot != NULL)
		__atomic_store_n(&slot->proven_ms, now_ms, __ATOMIC_RELEASE);
}

void
commit_horizon_replayed(uint32_t datid, int64_t commit_ms)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	if (slot != NULL)
		__atomic_store_n(&slot->replayed_ms, commit_ms, __ATOMIC_RELEASE);
}

int64_t
commit_horizon_replay_ms(uint32_t datid)
{
	int64_t		newest = 0;

	for (int i = 0; horizon && i < COMMIT_HORIZON_SLOTS; i++)
	{
		uint32_t	id = __atomic_load_n(&horizon[i].datid, __ATOMIC_ACQUIRE);
		int64_t		ms = __atomic_load_n(&horizon[i].replayed_ms, __ATOMIC_ACQUIRE);

		if (id != 0 && (datid == 0 || id == datid) && ms > newest)
			newest = ms;
	}
	return newest;
}

int64_t
commit_horizon_proof_age_ms(uint32_t datid)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	return slot ? rl_monotonic_ms() - __atomic_load_n(&slot->proven_ms, __ATOMIC_ACQUIRE) : -1;
}

uint64_t
commit_horizon_get(uint32_t datid)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	return slot ? __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) : 0;
}

uint32_t
commit_horizon_generation(uint32_t datid)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;

	return slot ? __atomic_load_n(&slot->generation, __ATOMIC_SEQ_CST) : 0;
}

void
commit_horizon_wait(uint32_t datid, uint32_t generation, int timeout_ms)
{
	HorizonSlot *slot = datid ? slot_of(datid) : NULL;
	struct timespec timeout = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};

	if (slot == NULL)
		return;
	__atomic_add_fetch(&slot->waiters, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&slot->generation, __ATOMIC_SEQ_CST) == generation)
		syscall(SYS_futex, &slot->generation, FUTEX_WAIT, generation, &timeout, NULL, 0);
	__atomic_sub_fetch(&slot->waiters, 1, __ATOMIC_SEQ_CST);
}
