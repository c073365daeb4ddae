/*
 * pidfile.h: the data-directory lock file (postmaster.pid) and the Unix-socket lock
 * files (.s.PGSQL.PORT.lock), in PostgreSQL's formats, which pg_ctl and the init
 * scripts read.
 *
 * postmaster.pid has eight lines: PID, data directory, start time (time_t), port,
 * first Unix socket directory, first listen address, shared-memory key (empty: we
 * have none), status. The status line is always eight characters so it can be
 * rewritten in place. A lock file whose PID is not alive (or is ours, our parent's
 * or our grandparent's, as after a reboot under pg_ctl) is stale and replaced.
 */
#ifndef RL_PIDFILE_H
#define RL_PIDFILE_H

#include <time.h>

#define LOCK_FILE_LINE_PID			1
#define LOCK_FILE_LINE_DATA_DIR		2
#define LOCK_FILE_LINE_START_TIME	3
#define LOCK_FILE_LINE_PORT			4
#define LOCK_FILE_LINE_SOCKET_DIR	5
#define LOCK_FILE_LINE_LISTEN_ADDR	6
#define LOCK_FILE_LINE_SHMEM_KEY	7
#define LOCK_FILE_LINE_PM_STATUS	8

#define PM_STATUS_STARTING	"starting"
#define PM_STATUS_STOPPING	"stopping"
#define PM_STATUS_READY		"ready   "

/*
 * Create DataDir/postmaster.pid (lines 1-4, 5-8 empty) or FATAL with PostgreSQL's
 * "lock file ... already exists" and a hint naming the running PID.
 */
void		CreateDataDirLockFile(const char *datadir, int port, time_t start_time);
/* Replace line `line` (1-based) of postmaster.pid with value. */
void		AddToDataDirLockFile(int line, const char *value);

/*
 * Create <socketdir>/.s.PGSQL.<port>.lock for the socket file about to be bound
 * (FATAL if another live server holds it). Only then may a stale socket file be
 * unlinked.
 */
void		CreateSocketLockFile(const char *socketfile, const char *socketdir);

/* Remove every lock file and socket file this process created (at exit). */
void		RemoveLockFiles(void);
/* Remember a socket file so RemoveLockFiles unlinks it. */
void		RememberSocketFile(const char *socketfile);

#endif
