/*
 * recovery.h: whether this server is a standby (PostgreSQL's RecoveryInProgress),
 * in memory the postmaster shares with every process it forks.
 *
 * A server started with a standby.signal file in its data directory follows a store
 * another server writes: its writer opens each store as a follower and never writes
 * to it, and every transaction of its backends is read-only. Promotion (a promote
 * file in the data directory: pg_ctl promote, pg_promote()) makes its writer take the
 * stores over and ends recovery for every process at once.
 */
#ifndef RL_RECOVERY_H
#define RL_RECOVERY_H

#include <stdbool.h>

/* the files PostgreSQL's tools and standbys use, in the data directory */
#define STANDBY_SIGNAL_FILE "standby.signal"
#define PROMOTE_SIGNAL_FILE "promote"

/* The postmaster, before it forks anything: in_recovery is the start's mode. */
void		RecoveryShmemInit(bool in_recovery);
/* Anyone: true while the server is a standby. */
bool		RecoveryInProgress(void);
/* The writer, once it has taken the stores over. */
void		RecoveryEnd(void);

/*
 * global/pg_control as PostgreSQL 15's tools read it, for `pg_ctl promote` (which
 * refuses a server whose file does not say "in archive recovery", then waits for it
 * to say "in production"): the version numbers, the state and the CRC, the rest
 * zero. False (errno set) if it could not be written.
 */
bool		WriteControlFile(const char *data_directory, bool in_recovery);

#endif
