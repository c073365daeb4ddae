/*
 * commit_horizon.h: the newest commit the writer has acknowledged, per database, in
 * memory the postmaster shares with every process it forks.
 *
 * The writer acknowledges a group of commits once it is durable and makes it
 * visible in the catalog cache right after: the cache's commit is off the client's
 * wait. A backend taking a snapshot reads the database's horizon first and waits
 * until the cache has reached it, so a snapshot taken after a commit was
 * acknowledged, on any connection, still sees that commit. The wait is on a
 * futex the writer wakes once the cache's commit is done.
 *
 * Beside it, when the writer last showed that the database's store is still its own
 * (a commit, or a look at the newest manifest's epoch): a backend will not serve a
 * snapshot once that proof is older than store_check_timeout, since a newer server
 * may have taken the store over meanwhile, or the store may be unreachable.
 */
#ifndef RL_COMMIT_HORIZON_H
#define RL_COMMIT_HORIZON_H

#include <stdbool.h>
#include <stdint.h>

/* The postmaster, before it forks anything: maps the shared table. */
void		CommitHorizonInit(void);

/*
 * The writer: database datid's newest acknowledged commit is seq (it may go down
 * when a database is made again). False if there is no table or no room in it:
 * the caller must then make the commit visible before acknowledging it.
 */
bool		commit_horizon_set(uint32_t datid, uint64_t seq);
/* The writer: what it acknowledged of datid is visible now; wakes the waiters. */
void		commit_horizon_visible(uint32_t datid);
/* The writer: the database is gone. */
void		commit_horizon_forget(uint32_t datid);

/* The writer: datid's store was shown to be its own at monotonic time now_ms. */
void		commit_horizon_proven(uint32_t datid, int64_t now_ms);
/*
 * A standby's writer: the newest commit it made visible in datid was written at
 * commit_ms (ms since 1970). commit_horizon_replay_ms: that time for datid, or the
 * newest of every database's for datid 0; 0 if none (pg_last_xact_replay_timestamp).
 */
void		commit_horizon_replayed(uint32_t datid, int64_t commit_ms);
int64_t		commit_horizon_replay_ms(uint32_t datid);
/* Anyone: milliseconds since that proof; -1 if datid has no slot. */
int64_t		commit_horizon_proof_age_ms(uint32_t datid);

/* Anyone: the newest acknowledged commit of datid, 0 if none is recorded. */
uint64_t	commit_horizon_get(uint32_t datid);
/* Backends: how many times datid was made visible; read before looking at the cache. */
uint32_t	commit_horizon_generation(uint32_t datid);
/*
 * Backends: wait until datid is made visible again after generation (or timeout_ms
 * passes, or a signal comes).
 */
void		commit_horizon_wait(uint32_t datid, uint32_t generation, int timeout_ms);

#endif
