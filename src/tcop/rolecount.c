/*
 * rolecount.c: sessions per role in shared memory (tcop/rolecount.h).
 *
 * Each slot is claimed by a compare-and-swap of its pid from 0 (or from a pid
 * whose process is gone) to the backend's own, then its role is stored; counting
 * reads the slots without a lock, so two sessions of a role that start at the same
 * moment may both see the other and both be refused, never both let in past the
 * limit. With every slot taken the limit is not enforced.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tcop/rolecount.h"
#include "utils/elog.h"
#include "utils/miscadmin.h"

#define ROLE_CONNECTION_SLOTS 1024

typedef struct RoleSlot
{
	int32_t		pid;			/* 0: free */
	uint32_t	role;
} RoleSlot;

static RoleSlot *slots;
static RoleSlot *my_slot;

void
RoleConnectionsInit(void)
{
	void	   *p;

	if (slots != NULL)
		return;
	p = mmap(NULL, sizeof(RoleSlot) * ROLE_CONNECTION_SLOTS, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("could not create shared memory for the sessions of roles: %s", strerror(errno)));
	slots = p;
}

/* whether pid is a process that still runs */
static bool
alive(int32_t pid)
{
	return pid != 0 && (kill(pid, 0) == 0 || errno != ESRCH);
}

static void
release_slot(void)
{
	if (my_slot != NULL)
		__atomic_store_n(&my_slot->pid, 0, __ATOMIC_RELEASE);
}

void
RoleConnectionEnter(uint32_t role, const char *name, int32_t limit, bool superuser)
{
	int			count = 0;

	for (int i = 0; slots && my_slot == NULL && i < ROLE_CONNECTION_SLOTS; i++)
	{
		int32_t		pid = __atomic_load_n(&slots[i].pid, __ATOMIC_ACQUIRE);

		/* a slot of a process gone, this pid's included (it was another's) */
		if ((pid == 0 || pid == MyProcPid || !alive(pid)) &&
			__atomic_compare_exchange_n(&slots[i].pid, &pid, MyProcPid, false, __ATOMIC_ACQ_REL,
										__ATOMIC_ACQUIRE))
		{
			__atomic_store_n(&slots[i].role, role, __ATOMIC_RELEASE);
			my_slot = &slots[i];
			atexit(release_slot);
		}
	}
	if (my_slot == NULL || limit < 0 || superuser)
		return;
	for (int i = 0; i < ROLE_CONNECTION_SLOTS; i++)
		if (__atomic_load_n(&slots[i].role, __ATOMIC_ACQUIRE) == role && alive(__atomic_load_n(&slots[i].pid,
																								 __ATOMIC_ACQUIRE)))
			count++;
	if (count > limit)
		ereport(FATAL, errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				errmsg("too many connections for role \"%s\"", name));
}
