/*
 * rl_status.h: the status codes every storage call returns, and the per-process
 * "last error" text that goes with them.
 *
 * The storage layer does not ereport(): it returns a code that names the class of
 * failure (the caller decides whether that is a retry, a fence, or a client error
 * with a SQLSTATE) and leaves a human-readable detail in rl_last_error().
 */
#ifndef RL_STATUS_H
#define RL_STATUS_H

typedef enum RlStatus
{
	RL_OK = 0,
	RL_NOT_FOUND,           /* key or object absent: a normal result */
	RL_PRECONDITION,        /* conditional write lost (object exists / etag moved) */
	RL_FENCED,              /* a newer writer owns the store: terminal for the handle */
	RL_UNKNOWN_OUTCOME,     /* a commit may or may not have landed: handle poisoned */
	RL_CONTENDED,           /* open lost the fencing race too many times */
	RL_UNSUPPORTED_BACKEND, /* the object store ignores conditional writes */
	RL_CORRUPT,             /* CRC, magic or format check failed */
	RL_UNAVAILABLE,         /* transient failure, retry budget exhausted */
	RL_IO_ERROR,            /* local I/O failure (errno in the message) */
	RL_NO_SPACE,            /* disk full */
	RL_INVALID,             /* bad argument or configuration */
	RL_CRASHED,             /* fault injection: the simulated process is dead */
	RL_INTERRUPTED          /* a wait for the writer given up for a signal (writer.h) */
} RlStatus;

const char *rl_status_name(RlStatus status);

/* Record a detail message for the failure being returned; returns status. */
RlStatus rl_error(RlStatus status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *rl_last_error(void);
void rl_clear_error(void);

#endif
