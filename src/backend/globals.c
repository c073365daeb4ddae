/*
 * globals.c: a backend's process-global state (miscadmin.h): its identity, its
 * signal handlers and CHECK_FOR_INTERRUPTS.
 *
 * PostgreSQL's discipline: a handler sets a flag and returns; the flags are acted on
 * only where it is safe to raise an error (CHECK_FOR_INTERRUPTS in loops that may
 * run long, pg_sleep, and the blocking read of the next client message). The one
 * exception is SIGQUIT, which means "exit now": its handler writes a notice built in
 * advance with plain write(2) -- best effort, and only while no TLS session owns
 * the socket -- and calls _exit(2) without running any cleanup.
 */
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "elog.h"
#include "miscadmin.h"
#include "rl_signal.h"
#include "pqformat.h"

volatile sig_atomic_t InterruptPending;
volatile sig_atomic_t QueryCancelPending;
volatile sig_atomic_t ProcDiePending;
volatile sig_atomic_t ConfigReloadPending;
volatile sig_atomic_t ClientConnectionLost;
int			MyProcPid;
const char *MyUserName = "";
const char *MyDatabaseName = "";
uint32_t	MyDatabaseId = 0;

static int	quit_notice_sock = -1;
static RlBuf quit_notice_crash;
static RlBuf quit_notice_immediate;

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
handle_sighup(int signo)
{
	ConfigReloadPending = 1;
}

/* handle_sigquit -- PostgreSQL's quickdie: tell the client why, then _exit(2) */
static void
handle_sigquit(int signo, siginfo_t *info, void *context)
{
	const RlBuf *notice = &quit_notice_immediate;

	if (info != NULL && info->si_code == SI_QUEUE &&
		info->si_value.sival_int == PM_QUIT_CRASH)
		notice = &quit_notice_crash;
	if (quit_notice_sock >= 0)
	{
		ssize_t		n = write(quit_notice_sock, notice->data, notice->len);

		(void) n;				/* best effort: the process is going away */
	}
	_exit(2);
}

/* build_notice -- a complete WARNING NoticeResponse, ready for write(2) */
static void
build_notice(RlBuf *buf, const char *sqlstate, const char *message,
			 const char *detail, const char *hint)
{
	PqMsgBuilder msg;
	ErrorData	notice = {.elevel = WARNING, .sqlstate = sqlstate, .message = (char *) message,
	.detail = (char *) detail, .hint = (char *) hint};

	rlbuf_init(buf);
	pq_beginmessage(&msg, buf, PqMsg_NoticeResponse);
	pq_send_error_fields(&msg, &notice);
	pq_endmessage(&msg);
}

void
InitBackendSignals(int client_sock)
{
	struct sigaction sa;

	MyProcPid = (int) getpid();
	build_notice(&quit_notice_crash, ERRCODE_CRASH_SHUTDOWN,
				 "terminating connection because of crash of another server process",
				 "The postmaster has commanded this server process to roll back the current "
				 "transaction and exit, because another server process exited abnormally and "
				 "possibly corrupted shared memory.",
				 "In a moment you should be able to reconnect to the database and repeat your command.");
	build_notice(&quit_notice_immediate, ERRCODE_ADMIN_SHUTDOWN,
				 "terminating connection due to immediate shutdown command", NULL, NULL);
	quit_notice_sock = client_sock;

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

void
SetQuitNoticeSocket(int client_sock)
{
	quit_notice_sock = client_sock;
}

void
ProcessInterrupts(void)
{
	InterruptPending = 0;
	if (ClientConnectionLost)
	{
		ProcDiePending = 0;
		QueryCancelPending = 0;
		ereport(FATAL,
				errcode(ERRCODE_CONNECTION_FAILURE),
				errmsg("connection to client lost"));
	}
	if (ProcDiePending)
	{
		ProcDiePending = 0;
		QueryCancelPending = 0;
		ereport(FATAL,
				errcode(ERRCODE_ADMIN_SHUTDOWN),
				errmsg("terminating connection due to administrator command"));
	}
	if (QueryCancelPending)
	{
		QueryCancelPending = 0;
		ereport(ERROR,
				errcode(ERRCODE_QUERY_CANCELED),
				errmsg("canceling statement due to user request"));
	}
}

/*
 * ProcessClientReadInterrupt -- a signal arrived while waiting for the client
 *
 * There is no statement to cancel, so a cancel request is dropped (PostgreSQL
 * does the same); termination is immediate.
 */
void
ProcessClientReadInterrupt(void)
{
	QueryCancelPending = 0;
	if (ProcDiePending || ClientConnectionLost)
		ProcessInterrupts();
	InterruptPending = 0;
}
