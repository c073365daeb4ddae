/*
 * globals.c: a backend's process-global state (miscadmin.h): its identity, its
 * signal handlers and CHECK_FOR_INTERRUPTS.
 *
 * PostgreSQL's discipline: a handler sets a flag and returns; the flags are acted on
 * only where it is safe to raise an error (CHECK_FOR_INTERRUPTS in loops that may
 * run long, pg_sleep, the blocking read of the next client message, and the waits
 * for the writer, which give up when InterruptRaisePending says so). The one
 * exception is SIGQUIT, which means "exit now": its handler writes a notice built in
 * advance with plain write(2) -- best effort, and only while no TLS session owns
 * the socket -- and calls _exit(2) without running any cleanup.
 *
 * The statement's timers are POSIX timers on CLOCK_MONOTONIC that deliver SIGALRM
 * with their own value: statement_timeout's fires once; the client check's is
 * re-armed by the check itself while the statement runs, so a session that only
 * runs short statements costs one timer_settime a second at most, and none when
 * statement_timeout is 0 and the tick is still armed from before. SIGALRM's handler
 * is installed when the first statement arms a timer, not before: a dead-end child
 * (postmaster.c) is ended by the default action of its authentication alarm().
 * SIGALRM restarts interrupted calls (SA_RESTART): its flags are read at the next
 * check, and the waits that matter (poll, nanosleep) return EINTR regardless.
 */
#define _GNU_SOURCE				/* POLLRDHUP */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/miscadmin.h"
#include "utils/rl_signal.h"

volatile sig_atomic_t InterruptPending;
volatile sig_atomic_t QueryCancelPending;
volatile sig_atomic_t ProcDiePending;
volatile sig_atomic_t ConfigReloadPending;
volatile sig_atomic_t ClientConnectionLost;
volatile sig_atomic_t StatementTimeoutPending;
volatile sig_atomic_t CheckClientConnectionPending;
int			MyProcPid;
const char *MyUserName = "";
const char *MyDatabaseName = "";
uint32_t	MyDatabaseId = 0;
uint32_t	MyRoleId = 0;
const char *SessionUserName = "";
uint32_t	SessionUserId = 0;
uint32_t	AuthenticatedUserId = 0;
static int64_t xact_start_timestamp;

static int	quit_notice_sock = -1;
static int	client_sock = -1;	/* what the client check looks at */
static pid_t postmaster_pid;	/* our parent; another parent means it died */
static volatile sig_atomic_t postmaster_died;

/* the statement's timers (SIGALRM's si_value says which fired) */
enum
{
	TIMER_STATEMENT = 1,
	TIMER_CLIENT_CHECK = 2
};
static bool timers_created;
static timer_t statement_timer;
static timer_t client_check_timer;
static bool statement_timer_armed;
static volatile sig_atomic_t client_check_armed;	/* cleared when it fires */
static volatile sig_atomic_t in_statement;
static bool exiting;			/* a FATAL for the flags is under way: cleanup runs unhindered */
static const RlBuf *quit_notice_crash;
static const RlBuf *quit_notice_immediate;

static void
handle_sigint(int signo)
{
	QueryCancelPending = 1;
	InterruptPending = 1;
}

static void
handle_sigterm(int signo)
{
	ProcDiePending = 1;
	InterruptPending = 1;
}

static void
handle_sigalrm(int signo, siginfo_t *info, void *context)
{
	if (info == NULL || info->si_code != SI_TIMER)
		return;
	if (info->si_value.sival_int == TIMER_STATEMENT)
	{
		if (!in_statement)
			return;
		StatementTimeoutPending = 1;
		QueryCancelPending = 1;
		InterruptPending = 1;
	}
	else if (info->si_value.sival_int == TIMER_CLIENT_CHECK)
	{
		client_check_armed = 0;
		if (!in_statement)
			return;
		CheckClientConnectionPending = 1;
		InterruptPending = 1;
	}
}

static void
handle_sighup(int signo)
{
	ConfigReloadPending = 1;
}

/* handle_sigquit -- PostgreSQL's quickdie: tell the client why, then _exit(2) */
static void
handle_sigquit(int signo, siginfo_t *info, void *context)
{
	const RlBuf *notice = quit_notice_immediate;

	if (info != NULL && info->si_code == SI_QUEUE &&
		info->si_value.sival_int == PM_QUIT_CRASH)
		notice = quit_notice_crash;
	if (quit_notice_sock >= 0 && notice != NULL)
	{
		ssize_t		n = write(quit_notice_sock, notice->data, notice->len);

		(void) n;				/* best effort: the process is going away */
	}
	_exit(2);
}

void
InitBackendSignals(int sock, const RlBuf *crash_notice, const RlBuf *immediate_notice)
{
	struct sigaction sa;

	MyProcPid = (int) getpid();
	quit_notice_crash = crash_notice;
	quit_notice_immediate = immediate_notice;
	quit_notice_sock = sock;
	client_sock = sock;
	postmaster_pid = getppid();

	rl_set_signal_handler(SIGINT, handle_sigint, false);
	rl_set_signal_handler(SIGTERM, handle_sigterm, false);
	rl_set_signal_handler(SIGHUP, handle_sighup, false);
	rl_set_signal_handler(SIGPIPE, SIG_IGN, false);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handle_sigquit;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGQUIT, &sa, NULL);
}

int64_t
GetCurrentTransactionStartTimestamp(void)
{
	return xact_start_timestamp;
}

void
SetCurrentTransactionStartTimestamp(int64_t timestamp)
{
	xact_start_timestamp = timestamp;
}

void
SetQuitNoticeSocket(int sock)
{
	quit_notice_sock = sock;
}

/* ---------- the statement's timers ---------- */

static void
create_timers(void)
{
	struct sigaction sa;
	struct sigevent ev;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handle_sigalrm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGALRM;
	ev.sigev_value.sival_int = TIMER_STATEMENT;
	if (timer_create(CLOCK_MONOTONIC, &ev, &statement_timer) != 0)
		ereport(FATAL, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not create a timer: %s", strerror(errno)));
	ev.sigev_value.sival_int = TIMER_CLIENT_CHECK;
	if (timer_create(CLOCK_MONOTONIC, &ev, &client_check_timer) != 0)
		ereport(FATAL, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not create a timer: %s", strerror(errno)));
	timers_created = true;
}

/* arm_timer -- fire once after ms milliseconds; 0 disarms */
static void
arm_timer(timer_t timer, int ms)
{
	struct itimerspec it = {{0, 0}, {ms / 1000, (long) (ms % 1000) * 1000000L}};

	timer_settime(timer, 0, &it, NULL);
}

static void
arm_client_check(void)
{
	client_check_armed = 1;
	arm_timer(client_check_timer, CLIENT_CHECK_INTERVAL_MS);
}

void
StatementInterruptsBegin(void)
{
	if (!timers_created)
		create_timers();
	in_statement = 1;
	if (StatementTimeout > 0 && !statement_timer_armed)
	{
		statement_timer_armed = true;
		arm_timer(statement_timer, StatementTimeout);
	}
	else if (StatementTimeout == 0 && statement_timer_armed)
	{
		/* SET statement_timeout = 0 ran in this message: the rest runs without */
		statement_timer_armed = false;
		arm_timer(statement_timer, 0);
	}
	if (!client_check_armed)
		arm_client_check();
}

void
StatementInterruptsEnd(void)
{
	in_statement = 0;
	if (statement_timer_armed)
	{
		statement_timer_armed = false;
		arm_timer(statement_timer, 0);
	}
	/* what arrived after the statement's last check cancels nothing */
	StatementTimeoutPending = 0;
	QueryCancelPending = 0;
	CheckClientConnectionPending = 0;
}

/* ---------- acting on the flags ---------- */

/*
 * check_client_connection -- the tick while a statement runs: is the client or the
 * postmaster gone? Either sets a flag that makes ProcessInterrupts end the session.
 */
static void
check_client_connection(void)
{
	struct pollfd pfd = {client_sock, POLLRDHUP, 0};

	if (getppid() != postmaster_pid)
		postmaster_died = 1;
	if (client_sock >= 0 && poll(&pfd, 1, 0) > 0 &&
		(pfd.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
		ClientConnectionLost = 1;
	if (in_statement && !ClientConnectionLost && !postmaster_died)
		arm_client_check();
}

bool
InterruptRaisePending(void)
{
	bool		raise;

	InterruptPending = 0;		/* before the flags: a signal from now on sets it again */
	if (exiting)
		return false;
	if (CheckClientConnectionPending)
	{
		CheckClientConnectionPending = 0;
		check_client_connection();
	}
	raise = ClientConnectionLost || postmaster_died || ProcDiePending || QueryCancelPending;
	if (raise)
		InterruptPending = 1;
	return raise;
}

void
ProcessInterrupts(void)
{
	if (!InterruptRaisePending())
		return;
	InterruptPending = 0;
	if (ClientConnectionLost)
	{
		exiting = true;
		ereport(FATAL,
				errcode(ERRCODE_CONNECTION_FAILURE),
				errmsg("connection to client lost"));
	}
	if (postmaster_died)
	{
		exiting = true;
		ereport(FATAL,
				errcode(ERRCODE_ADMIN_SHUTDOWN),
				errmsg("terminating connection due to unexpected postmaster exit"));
	}
	if (ProcDiePending)
	{
		exiting = true;
		ereport(FATAL,
				errcode(ERRCODE_ADMIN_SHUTDOWN),
				errmsg("terminating connection due to administrator command"));
	}
	if (QueryCancelPending)
	{
		bool		timeout = StatementTimeoutPending;

		QueryCancelPending = 0;
		StatementTimeoutPending = 0;
		if (timeout)
			ereport(ERROR,
					errcode(ERRCODE_QUERY_CANCELED),
					errmsg("canceling statement due to statement timeout"));
		ereport(ERROR,
				errcode(ERRCODE_QUERY_CANCELED),
				errmsg("canceling statement due to user request"));
	}
}

/*
 * ProcessClientReadInterrupt -- a signal arrived while waiting for the client
 *
 * Between statements there is nothing to cancel, so a cancel request is dropped
 * (PostgreSQL does the same); termination is immediate. A statement that waits
 * for its client (COPY FROM STDIN for its data) is cancelled in the wait too,
 * which PostgreSQL defers until the client sends again: if the read would begin a
 * message, at once, as the protocol allows; in the middle of one, the cancel stays
 * pending until the message is read, so that the next message read is a whole one.
 */
void
ProcessClientReadInterrupt(bool at_message_start)
{
	if (!in_statement)
	{
		QueryCancelPending = 0;
		StatementTimeoutPending = 0;
	}
	if (ProcDiePending || ClientConnectionLost || postmaster_died ||
		(QueryCancelPending && at_message_start))
		ProcessInterrupts();
	InterruptPending = QueryCancelPending;
}
