/*
 * miscadmin.h: process-global state of a backend and its interrupt handling.
 *
 * Signal handlers only set flags (QueryCancelPending on SIGINT, ProcDiePending on
 * SIGTERM) plus InterruptPending; the code acts on them at safe points with
 * CHECK_FOR_INTERRUPTS(), as PostgreSQL does: a cancel raises ERROR 57014 "canceling
 * statement due to user request", a termination FATAL 57P01 "terminating connection
 * due to administrator command". A flag raised while the backend waits for the
 * client is handled there (terminate: FATAL at once; cancel: ignored between
 * statements, an ERROR in a statement that waits for its client's data). SIGQUIT
 * writes a pre-built 57P01/57P02 notice to the client and _exits(2) in the handler.
 *
 * While a statement runs (StatementInterruptsBegin to StatementInterruptsEnd) two
 * timers raise flags the same way (SIGALRM): statement_timeout, an ERROR 57014
 * "canceling statement due to statement timeout", and a tick every
 * CLIENT_CHECK_INTERVAL_MS that looks whether the client closed its connection
 * (FATAL "connection to client lost", logged only) or the postmaster died (FATAL
 * 57P01), so a statement nobody waits for, or that outlives its server, ends too.
 * Code that runs long without CHECK_FOR_INTERRUPTS must call it at least every few
 * milliseconds; SQLite's VM does (cache.c's progress handler), through
 * InterruptRaisePending, which says without raising whether ProcessInterrupts would.
 */
#ifndef RL_MISCADMIN_H
#define RL_MISCADMIN_H

#include <signal.h>
#include <stdint.h>
#include <stdbool.h>

#include "common/rl_buffer.h"

extern volatile sig_atomic_t InterruptPending;
extern volatile sig_atomic_t QueryCancelPending;
extern volatile sig_atomic_t ProcDiePending;
extern volatile sig_atomic_t ConfigReloadPending;
extern volatile sig_atomic_t StatementTimeoutPending;	/* the cancel is statement_timeout's */
extern volatile sig_atomic_t CheckClientConnectionPending;
/* Set when a write to the client failed: the backend exits at the next check. */
extern volatile sig_atomic_t ClientConnectionLost;

extern int	MyProcPid;
/*
 * Who this session is: set once authentication succeeded. MyUserName and MyRoleId
 * are the current user (current_user, whose privileges statements have: SET ROLE
 * changes it), SessionUserName and SessionUserId the session user (session_user:
 * SET SESSION AUTHORIZATION changes both), AuthenticatedUserId the role that
 * logged in (tcop/session_role.h).
 */
extern const char *MyUserName;
extern uint32_t MyRoleId;		/* its role's OID in the registry (catalog/authid.h) */
extern const char *SessionUserName;
extern uint32_t SessionUserId;
extern uint32_t AuthenticatedUserId;
extern const char *MyDatabaseName;
extern uint32_t MyDatabaseId;	/* its datid in the registry (catalog_cache.h) */

/*
 * now(): microseconds since 2000-01-01 UTC at the start of the transaction, which
 * StartTransactionCommand (tcop/xact.c) sets.
 */
int64_t		GetCurrentTransactionStartTimestamp(void);
void		SetCurrentTransactionStartTimestamp(int64_t timestamp);

/*
 * SIGQUIT means "exit at once" to every child. The postmaster sends it with
 * sigqueue() and one of these in si_value.sival_int, so that a backend's
 * SA_SIGINFO handler can tell its client why (PostgreSQL's quickdie):
 * crash of another process -> WARNING 57P02 "terminating connection because of
 * crash of another server process"; immediate shutdown -> WARNING 57P01
 * "terminating connection due to immediate shutdown command". A plain kill
 * (si_code != SI_QUEUE) is treated as PM_QUIT_IMMEDIATE.
 */
typedef enum QuitSignalReason
{
	PM_QUIT_IMMEDIATE = 1,
	PM_QUIT_CRASH = 2
} QuitSignalReason;

/*
 * Install the backend's SIGINT/SIGTERM/SIGQUIT/SIGHUP handlers; sock gets the
 * SIGQUIT notice, the bytes of a NoticeResponse built in advance for each reason
 * (BackendInitSignals, tcop/backend.h, builds them).
 */
void		InitBackendSignals(int client_sock, const RlBuf *crash_notice,
							   const RlBuf *immediate_notice);
/* SIGQUIT must not write raw bytes into a TLS stream. */
void		SetQuitNoticeSocket(int client_sock);

/* Act on pending interrupts: ERROR 57014, FATAL 57P01, or a silent exit. */
void		ProcessInterrupts(void);
/* Whether ProcessInterrupts would raise now; does the due client check, raises nothing. */
bool		InterruptRaisePending(void);

/* how often a running statement looks whether its client or the postmaster is gone */
#define CLIENT_CHECK_INTERVAL_MS 1000

/* A statement starts: arm statement_timeout (unless armed) and the client check. */
void		StatementInterruptsBegin(void);
/* Back to waiting for the client: disarm, and forget a cancel or timeout that came late. */
void		StatementInterruptsEnd(void);
/*
 * The variant used while blocked reading from the client: a cancel is a no-op
 * between statements, and acted on in one (COPY FROM STDIN) if at_message_start.
 */
void		ProcessClientReadInterrupt(bool at_message_start);

#define CHECK_FOR_INTERRUPTS() \
	do { \
		if (InterruptPending) \
			ProcessInterrupts(); \
	} while (0)

#endif
