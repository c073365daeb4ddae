/*-------------------------------------------------------------------------
 *
 * postmaster.c
 *	  The postmaster: sockets, the pool of pre-forked backends, the writer
 *	  process, signals, child supervision and crash resets.
 *
 * NOTES
 *
 * PostgreSQL forks a new backend for every connection. RockLake keeps a few
 * idle backends forked in advance (spare_backends) and hands each accepted
 * connection to one of them, because our clients connect a lot: every DuckDB
 * process that attaches a lake, every script, every health check opens a
 * connection, and a connection should never wait for a process to start or for
 * a read cache to open. A backend still serves exactly one connection and then
 * exits, so nothing of one session can leak into the next, the PID a client
 * sees in BackendKeyData is its own backend's for the whole session (cancel,
 * pg_terminate_backend and the logs work as in PostgreSQL), and a crash takes
 * one session with it. The postmaster forks the replacement right after each
 * hand-off, while the handed-off backend is already talking to its client.
 *
 * The hand-off: each idle backend blocks in recvmsg() on its end of a Unix
 * socketpair. The postmaster sends it the client socket (SCM_RIGHTS) together
 * with a small payload: the cancel key the postmaster chose, the client's
 * address and the first packet (below). From then on the postmaster never
 * touches that connection again.
 *
 * Why the postmaster reads the first packet, and only that: it must answer
 * CancelRequests (only it knows which PID has which cancel key, and a cancel
 * arrives on a fresh connection that must not take a backend), and it must refuse
 * connections while the server is starting, resetting after a crash or
 * shutting down with 57P03, which is how pg_isready tells "rejecting" from "no
 * response"; with too many clients it refuses with 53300. Everything else in a
 * connection's life (SSL and GSS negotiation, the startup packet's contents,
 * authentication) is the backend's, so the bytes already read go along in the
 * hand-off. The first packet is read without blocking, inside the event loop,
 * with authentication_timeout as deadline: a client that sends nothing, or
 * sends slowly, costs the postmaster a buffer, not a stall. When refusing, the
 * postmaster itself answers an SSLRequest or GSSENCRequest with 'N' and reads
 * the startup packet after it, so that the refusal is an ErrorResponse the
 * client can read; with ssl on, an SSLRequest goes instead to a "dead-end"
 * child, as in PostgreSQL, which completes the TLS handshake before refusing.
 *
 * The writer is the one process that writes to the object store; backends send
 * it their commits. The postmaster starts it first and accepts connections only
 * once it has reported, through a pipe, that the store is open: until then
 * clients get 57P03 "the database system is starting up" and postmaster.pid
 * says "starting". A writer that exits because a newer writer fenced it is not
 * restarted: another server owns the store, so this one shuts down, with exit
 * status POSTMASTER_EXIT_FENCED, which a supervisor must not restart (any other
 * failure exit should be).
 *
 * Signals are PostgreSQL's: SIGTERM smart shutdown (wait for the sessions to
 * end), SIGINT fast (SIGTERM every backend: 57P01 to its client), SIGQUIT
 * immediate (SIGQUIT everyone), SIGHUP reload (config file; active backends get
 * SIGHUP and re-read it at their next idle point; idle backends are retired and
 * replaced by fresh ones that start from the new settings). Handlers only write
 * the signal number into a self-pipe; everything happens in the event loop.
 *
 * A child that exits with a status other than 0 or 1 or is killed by a signal has
 * crashed. As in PostgreSQL, every other backend and the writer are then sent
 * SIGQUIT (a backend tells its client 57P02), and once all are gone the writer
 * and the pool are started again; meanwhile connections get 57P03 "the database
 * system is in recovery mode". An idle backend that never got a connection has
 * touched nothing and is merely replaced.
 *
 * The file is a little over 1 500 lines: the one loop that starts, reaps and
 * restarts every kind of child (backends and their spares, the writer, the
 * metrics process) and the shutdown and crash-restart states it moves through are
 * easier to check for missed cases when they are read together.
 *
 * IDENTIFICATION
 *	  src/postmaster/postmaster.c
 *
 *-------------------------------------------------------------------------
 */
#define _GNU_SOURCE				/* accept4, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "libpq/auth.h"
#include "libpq/pqcomm.h"
#include "libpq/pqformat.h"
#include "postmaster/metrics.h"
#include "postmaster/pidfile.h"
#include "postmaster/postmaster.h"
#include "postmaster/postmaster_internal.h"
#include "postmaster/writer.h"
#include "tcop/backend.h"
#include "tcop/rolecount.h"
#include "utils/backend_status.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/miscadmin.h"
#include "utils/ps_status.h"
#include "utils/recovery.h"
#include "utils/rl_signal.h"

/* children that do not die within this long of SIGQUIT get SIGKILL */
#define SIGKILL_CHILDREN_AFTER_MS 5000
/* never wait longer than this in poll(), so a missed wakeup cannot hang us */
#define MAX_POLL_MS			60000
/* a writer that failed to start is started again after 1 s, 2 s, 4 s ... up to this */
#define WRITER_RETRY_MAX_MS	60000

/* where the postmaster is in its life (PostgreSQL's pmState, reduced) */
typedef enum PMState
{
	PM_STARTUP,					/* writer starting: refuse with 57P03 */
	PM_RUN,						/* accepting connections */
	PM_WAIT_BACKENDS,			/* shutdown: waiting for the backends to exit */
	PM_SHUTDOWN,				/* backends gone: writer told to stop */
	PM_WAIT_DEAD,				/* immediate shutdown: waiting for everyone to die */
	PM_CRASH_RESET,				/* a child crashed: waiting for all to exit, then restart */
	PM_NO_CHILDREN				/* all gone: exit */
} PMState;

typedef enum ShutdownMode
{
	NoShutdown,
	SmartShutdown,
	FastShutdown,
	ImmediateShutdown
} ShutdownMode;

typedef enum BackendState
{
	BACKEND_IDLE,				/* forked, waiting for a connection */
	BACKEND_ACTIVE,				/* serving a connection */
	BACKEND_RETIRING			/* idle, its hand-off socket closed: exiting */
} BackendState;

/* one backend process */
typedef struct Backend
{
	pid_t		pid;
	BackendState state;
	int32_t		cancel_key;		/* BACKEND_ACTIVE only */
	int			handoff_sock;	/* our end of its socketpair; -1 once handed off */
	struct Backend *next;
} Backend;

/* a connection whose first packet is still being read */
typedef struct PendingConn
{
	int			sock;
	bool		is_unix;
	bool		ssl_answered;	/* refusing: SSLRequest already answered 'N' */
	bool		gss_answered;
	char		remote_host[64];
	char		remote_port[16];
	uint32_t	have;			/* bytes read into buf */
	uint32_t	len;			/* the packet's length word, 0 until read */
	int64_t		deadline_ms;
	struct PendingConn *next;
	uint8_t		buf[MAX_STARTUP_PACKET_LENGTH];
} PendingConn;

/* the fixed part of the hand-off message; the first packet follows it */
typedef struct HandoffHeader
{
	int32_t		cancel_key;
	char		remote_host[64];
	char		remote_port[16];
	uint32_t	first_packet_len;
} HandoffHeader;

pid_t		PostmasterPid;

static PMState pmState = PM_STARTUP;
static ShutdownMode Shutdown = NoShutdown;
static bool FatalError;			/* resetting after a crash */
static bool RecoveryAfterCrash; /* the writer starting is a restart */
static int	ExitStatus;			/* the postmaster's at the end: 0, 1, POSTMASTER_EXIT_FENCED */
static int64_t AbortDeadlineMs; /* PM_CRASH_RESET / PM_WAIT_DEAD: SIGKILL then */


static int	SelfPipe[2] = {-1, -1};
static Backend *BackendList;
static int	NumActiveBackends;
static int	NumIdleBackends;
static PendingConn *PendingList;
static int	NumPending;

static pid_t WriterPid;
/* the metrics process (postmaster/metrics.h): its socket (-1: off), pid, when to start it again */
static int	MetricsSock = -1;
static pid_t MetricsPid;
static int64_t MetricsRetryAtMs;
static int	WriterReadyFd = -1;
static int	WriterStartFailures;	/* in a row, since the writer was last ready */
static int64_t WriterRetryAtMs;	/* PM_STARTUP without a writer: start one then */
static char WriterSocketPath[sizeof(((struct sockaddr_un *) 0)->sun_path)];

static void PostmasterStateMachine(void);

/* ---------------------------------------------------------------- small helpers */

/*
 * pm_alloc -- malloc that treats failure as fatal (the postmaster's
 * long-lived structures outlive every memory context)
 */
static void *
pm_alloc(size_t size)
{
	void	   *p = calloc(1, size);

	if (p == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	return p;
}

/*
 * ExitPostmaster -- leave; the atexit hook removes the lock and socket files
 */
static void
ExitPostmaster(int status)
{
	exit(status);
}

/*
 * pm_atexit -- remove postmaster.pid and the sockets, in the postmaster only
 *
 * Children inherit the hook through fork; they must not run it.
 */
static void
pm_atexit(void)
{
	if (getpid() == PostmasterPid)
		RemoveLockFiles();
}

/*
 * set_pidfile_status -- line 8 of postmaster.pid
 */
static void
set_pidfile_status(const char *status)
{
	AddToDataDirLockFile(LOCK_FILE_LINE_PM_STATUS, status);
}

/* ---------------------------------------------------------------- signals */

/*
 * pm_signal_handler -- every postmaster signal: note it in the self-pipe
 */
static void
pm_signal_handler(int signo)
{
	int			save_errno = errno;
	unsigned char b = (unsigned char) signo;
	ssize_t		n = write(SelfPipe[1], &b, 1);

	(void) n;					/* a full pipe already holds a wakeup */
	errno = save_errno;
}

/* the signals the postmaster catches */
static const int pm_signals[] = {SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGCHLD};

/*
 * InitPostmasterSignals -- the self-pipe and the handlers
 */
static void
InitPostmasterSignals(void)
{
	if (pipe2(SelfPipe, O_NONBLOCK | O_CLOEXEC) < 0)
		ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR),
				errmsg("could not create self-pipe: %s", strerror(errno)));
	for (size_t i = 0; i < sizeof(pm_signals) / sizeof(pm_signals[0]); i++)
		rl_set_signal_handler(pm_signals[i], pm_signal_handler, true);
	rl_set_signal_handler(SIGPIPE, SIG_IGN, true);
	rl_set_signal_handler(SIGUSR1, SIG_IGN, true);
	rl_set_signal_handler(SIGUSR2, SIG_IGN, true);
	rl_set_signal_handler(SIGTTIN, SIG_IGN, true);
	rl_set_signal_handler(SIGTTOU, SIG_IGN, true);
	rl_set_signal_handler(SIGXFSZ, SIG_IGN, true);
}

/*
 * signal_child -- send a signal, with a SIGQUIT reason for the backends
 */
static void
signal_child(pid_t pid, int signo, QuitSignalReason reason)
{
	if (signo == SIGQUIT)
	{
		union sigval value = {.sival_int = reason};

		if (sigqueue(pid, SIGQUIT, value) < 0 && errno != ESRCH)
			ereport(LOG, errmsg("could not send signal to process %d: %s", (int) pid,
								strerror(errno)));
	}
	else if (kill(pid, signo) < 0 && errno != ESRCH)
		ereport(LOG, errmsg("could not send signal to process %d: %s", (int) pid,
							strerror(errno)));
}

/*
 * SignalBackends -- signal every backend serving a connection
 */
static void
SignalBackends(int signo, QuitSignalReason reason)
{
	for (Backend *bn = BackendList; bn; bn = bn->next)
		if (bn->state == BACKEND_ACTIVE)
			signal_child(bn->pid, signo, reason);
}

/*
 * RetireIdleBackends -- make idle backends exit by closing their hand-off
 * sockets (their recvmsg sees end-of-file). keep: how many to leave idle.
 */
static void
RetireIdleBackends(int keep)
{
	for (Backend *bn = BackendList; bn; bn = bn->next)
	{
		if (bn->state != BACKEND_IDLE)
			continue;
		if (keep > 0)
		{
			keep--;
			continue;
		}
		close(bn->handoff_sock);
		bn->handoff_sock = -1;
		bn->state = BACKEND_RETIRING;
		NumIdleBackends--;
	}
}

/*
 * SignalEveryone -- every child, idle or not, and the writer (crash reset,
 * immediate shutdown, SIGKILL of stragglers)
 */
static void
SignalEveryone(int signo, QuitSignalReason reason)
{
	for (Backend *bn = BackendList; bn; bn = bn->next)
		signal_child(bn->pid, signo, reason);
	if (WriterPid != 0)
		signal_child(WriterPid, signo, reason);
}

/* ---------------------------------------------------------------- child processes */

/*
 * ClosePostmasterPorts -- in a new child: close every descriptor that belongs
 * to the postmaster (listen sockets, the self-pipe, other children's hand-off
 * sockets, connections still being read)
 *
 * Otherwise an idle backend would keep another one's socketpair open and never
 * see end-of-file when the postmaster goes away.
 */
static void
ClosePostmasterPorts(void)
{
	for (int i = 0; i < NumListenSockets; i++)
		close(ListenSockets[i]);
	close(SelfPipe[0]);
	close(SelfPipe[1]);
	if (WriterReadyFd >= 0)
		close(WriterReadyFd);
	if (MetricsSock >= 0)
		close(MetricsSock);
	for (Backend *bn = BackendList; bn; bn = bn->next)
		if (bn->handoff_sock >= 0)
			close(bn->handoff_sock);
	for (PendingConn *pc = PendingList; pc; pc = pc->next)
		close(pc->sock);
}

/*
 * fork_process -- fork with signals blocked; in the child, drop the
 * postmaster's handlers and descriptors before anything can be delivered
 *
 * The child also asks for SIGTERM if the postmaster dies (Linux), so no backend
 * outlives it and keeps the port's clients hanging.
 */
static pid_t
fork_process(void)
{
	sigset_t	all,
				saved;
	pid_t		pid;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &saved);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
	{
		for (size_t i = 0; i < sizeof(pm_signals) / sizeof(pm_signals[0]); i++)
			rl_set_signal_handler(pm_signals[i], SIG_DFL, true);
		ClosePostmasterPorts();
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != PostmasterPid)
			_exit(1);			/* it died before the prctl */
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return pid;
}

/* how often a pre-forked backend looks whether a session ended since it warmed up */
#define WARM_UP_RECHECK_MS 1000

/*
 * idle_backend_exit -- SIGTERM/SIGQUIT while no connection has been handed
 * over: nothing to clean up
 */
static void
idle_backend_exit(int signo)
{
	_exit(0);
}

/*
 * IdleBackendMain -- a pre-forked backend: wait for a connection, then serve it
 */
static void __attribute__((noreturn))
IdleBackendMain(int handoff_sock)
{
	static uint8_t first_packet[MAX_STARTUP_PACKET_LENGTH];
	HandoffHeader hdr;
	struct iovec iov[2] = {
		{&hdr, sizeof(hdr)},
		{first_packet, sizeof(first_packet)}
	};
	union
	{
		struct cmsghdr align;
		char		buf[CMSG_SPACE(sizeof(int))];
	}			control;
	struct msghdr msg;
	struct cmsghdr *cmsg;
	BackendStartupInfo info;
	ssize_t		n;

	MyLogIdentity.backend_type = "client backend";
	rl_set_signal_handler(SIGTERM, idle_backend_exit, true);
	rl_set_signal_handler(SIGQUIT, idle_backend_exit, true);
	rl_set_signal_handler(SIGINT, SIG_IGN, true);
	rl_set_signal_handler(SIGHUP, SIG_IGN, true);
	init_ps_display("spare backend");
	BackendWarmUp(DataDir);
	for (;;)
	{
		struct pollfd handoff = {.fd = handoff_sock, .events = POLLIN};
		int			ready = poll(&handoff, 1, WARM_UP_RECHECK_MS);

		if (ready > 0 || (ready < 0 && errno != EINTR))
			break;
		BackendWarmUp(DataDir);	/* again, if a session ended since */
	}

	do
	{
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = iov;
		msg.msg_iovlen = 2;
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		n = recvmsg(handoff_sock, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		_exit(0);				/* retired, or the postmaster is gone */
	close(handoff_sock);

	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg == NULL || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
		(size_t) n < sizeof(hdr) || hdr.first_packet_len != (size_t) n - sizeof(hdr))
		elog(FATAL, "malformed connection hand-off from the postmaster");

	memset(&info, 0, sizeof(info));
	memcpy(&info.client_sock, CMSG_DATA(cmsg), sizeof(int));
	info.cancel_key = hdr.cancel_key;
	memcpy(info.remote_host, hdr.remote_host, sizeof(info.remote_host));
	memcpy(info.remote_port, hdr.remote_port, sizeof(info.remote_port));
	info.data_directory = DataDir;
	info.writer_socket_path = WriterSocketPath;
	info.first_packet = first_packet;
	info.first_packet_len = hdr.first_packet_len;
	BackendMain(&info);
}

/*
 * StartIdleBackend -- fork one pre-forked backend; NULL if fork failed
 */
static Backend *
StartIdleBackend(void)
{
	int			sv[2];
	pid_t		pid;
	Backend    *bn;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
	{
		ereport(LOG, errmsg("could not create socket pair for a new backend: %s",
							strerror(errno)));
		return NULL;
	}
	pid = fork_process();
	if (pid == 0)
	{
		close(sv[0]);
		IdleBackendMain(sv[1]);
	}
	close(sv[1]);
	if (pid < 0)
	{
		ereport(LOG, errmsg("could not fork new process for connection: %s", strerror(errno)));
		close(sv[0]);
		return NULL;
	}
	bn = pm_alloc(sizeof(Backend));
	bn->pid = pid;
	bn->state = BACKEND_IDLE;
	bn->handoff_sock = sv[0];
	bn->next = BackendList;
	BackendList = bn;
	NumIdleBackends++;
	return bn;
}

/*
 * MaintainBackendPool -- keep spare_backends idle backends while the server
 * may accept connections
 */
static void
MaintainBackendPool(void)
{
	int			spares = GetConfigInt("spare_backends");

	if ((pmState != PM_STARTUP && pmState != PM_RUN) || Shutdown != NoShutdown)
		return;
	while (NumIdleBackends < spares)
		if (StartIdleBackend() == NULL)
			break;
	if (NumIdleBackends > spares)
		RetireIdleBackends(spares);
}

/*
 * StartWriter -- fork the writer; it reports readiness through a pipe
 */
static void
StartWriter(void)
{
	int			ready[2];
	pid_t		pid;

	if (pipe2(ready, O_CLOEXEC) < 0)
		ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR),
				errmsg("could not create pipe for the writer: %s", strerror(errno)));
	pid = fork_process();
	if (pid == 0)
	{
		WriterConfig config;
		const char *store = GetConfigOption("store");
		char		location[PATH_MAX + 8];

		close(ready[0]);
		/* a relative store directory is relative to the data directory */
		if (store[0] == '/' || strncmp(store, "s3://", 5) == 0)
			snprintf(location, sizeof(location), "%s", store);
		else
			snprintf(location, sizeof(location), "%s/%s", DataDir, store);
		config.store_location = location;
		config.socket_path = WriterSocketPath;
		config.data_directory = DataDir;
		config.ready_fd = ready[1];
		config.startup_delay_ms = GetConfigInt("debug_startup_delay");
		config.visible_delay_ms = GetConfigInt("debug_visible_delay");
		config.store_check_timeout_ms = StoreCheckTimeout * 1000;
		config.gc_grace_ms = (int64_t) GetConfigInt("store_gc_grace") * 1000;
		config.standby_poll_ms = GetConfigInt("standby_poll_interval");
		config.standby_poll_max_ms = GetConfigInt("standby_poll_max_interval");
		if (config.standby_poll_max_ms < config.standby_poll_ms)
			config.standby_poll_max_ms = config.standby_poll_ms;
		init_ps_display("writer");
		pgstat_bestart(BACKEND_KIND_WRITER, 0, NULL, NULL, "", -1);
		WriterMain(&config);
	}
	close(ready[1]);
	if (pid < 0)
		ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR),
				errmsg("could not fork writer process: %s", strerror(errno)));
	WriterPid = pid;
	WriterReadyFd = ready[0];
}

/*
 * StartMetrics -- fork the metrics process (postmaster/metrics.h) on a copy of
 * its socket (fork_process closes the postmaster's own in every child)
 */
static void
StartMetrics(void)
{
	int			sock = dup(MetricsSock);
	pid_t		pid = sock < 0 ? -1 : fork_process();

	if (pid == 0)
	{
		MyLogIdentity.backend_type = "metrics";
		init_ps_display("metrics");
		MetricsMain(sock);
	}
	if (sock >= 0)
		close(sock);
	MetricsPid = pid > 0 ? pid : 0;
	if (pid <= 0)
	{
		ereport(LOG, errmsg("could not start metrics process: %s", strerror(errno)));
		MetricsRetryAtMs = rl_monotonic_ms() + 1000;
	}
}

/*
 * describe_exit -- "exited with exit code N" / "was terminated by signal N: Name"
 */
static void
describe_exit(char *buf, size_t size, int status)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with exit code %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was terminated by signal %d: %s", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "exited with unrecognized status %d", status);
}

/*
 * LogChildExit -- PostgreSQL's "server process (PID n) was terminated by ..."
 */
static void
LogChildExit(const char *procname, pid_t pid, int status)
{
	char		how[128];

	describe_exit(how, sizeof(how), status);
	ereport(LOG, errmsg("%s (PID %d) %s", procname, (int) pid, how));
}

/*
 * HandleChildCrash -- a child died abnormally: stop everyone, then restart
 */
static void
HandleChildCrash(void)
{
	if (FatalError || Shutdown == ImmediateShutdown)
		return;					/* already taking everything down */
	if (!GetConfigBool("restart_after_crash"))
	{
		ereport(LOG, errmsg("shutting down because restart_after_crash is off"));
		ExitStatus = 1;
		if (Shutdown < FastShutdown)
			Shutdown = FastShutdown;
	}
	else
		ereport(LOG, errmsg("terminating any other active server processes"));
	FatalError = true;
	SignalEveryone(SIGQUIT, PM_QUIT_CRASH);
	AbortDeadlineMs = rl_monotonic_ms() + SIGKILL_CHILDREN_AFTER_MS;
	pmState = PM_CRASH_RESET;
}

/* ---------------------------------------------------------------- shutdown */

/*
 * begin_shutdown -- enter a shutdown mode unless one as strong is under way;
 * false if nothing changes
 */
static bool
begin_shutdown(ShutdownMode mode, const char *name)
{
	if (Shutdown >= mode)
		return false;
	Shutdown = mode;
	ereport(LOG, errmsg("received %s shutdown request", name));
	set_pidfile_status(PM_STATUS_STOPPING);
	return true;
}

/*
 * pmdie -- a shutdown request (SIGTERM smart, SIGINT fast, SIGQUIT immediate)
 */
static void
pmdie(int signo)
{
	switch (signo)
	{
		case SIGTERM:
			if (!begin_shutdown(SmartShutdown, "smart"))
				return;
			RetireIdleBackends(0);
			if (pmState == PM_STARTUP || pmState == PM_RUN)
				pmState = PM_WAIT_BACKENDS;
			break;
		case SIGINT:
			if (!begin_shutdown(FastShutdown, "fast"))
				return;
			RetireIdleBackends(0);
			if (NumActiveBackends > 0)
				ereport(LOG, errmsg("aborting any active transactions"));
			SignalBackends(SIGTERM, 0);
			if (pmState == PM_STARTUP || pmState == PM_RUN)
				pmState = PM_WAIT_BACKENDS;
			break;
		case SIGQUIT:
			if (!begin_shutdown(ImmediateShutdown, "immediate"))
				return;
			SignalEveryone(SIGQUIT, PM_QUIT_IMMEDIATE);
			AbortDeadlineMs = rl_monotonic_ms() + SIGKILL_CHILDREN_AFTER_MS;
			pmState = PM_WAIT_DEAD;
			break;
	}
}

/*
 * reload_config -- SIGHUP: re-read rocklake.conf, tell the children
 */
static void
reload_config(void)
{
	ereport(LOG, errmsg("received SIGHUP, reloading configuration files"));
	ProcessConfigFile(ConfigFileName, true);
	elog_set_log_file(GetConfigOption("log_file"));
	SignalBackends(SIGHUP, 0);
	/* idle backends were forked with the old settings: replace them */
	RetireIdleBackends(0);
	MaintainBackendPool();
}

/* ---------------------------------------------------------------- reaping */

/*
 * remove_backend -- unlink a backend from the list and the counters
 */
static void
remove_backend(Backend *target)
{
	for (Backend **link = &BackendList; *link; link = &(*link)->next)
		if (*link == target)
		{
			*link = target->next;
			break;
		}
	if (target->state == BACKEND_ACTIVE)
		NumActiveBackends--;
	else if (target->state == BACKEND_IDLE)
		NumIdleBackends--;
	if (target->handoff_sock >= 0)
		close(target->handoff_sock);
	free(target);
}

/*
 * writer_exited -- the writer is gone; decide what that means
 */
static void
writer_exited(pid_t pid, int status)
{
	bool		was_starting = pmState == PM_STARTUP;

	WriterPid = 0;
	if (WriterReadyFd >= 0)
	{
		close(WriterReadyFd);
		WriterReadyFd = -1;
	}
	if (pmState == PM_SHUTDOWN || pmState == PM_WAIT_DEAD || pmState == PM_CRASH_RESET)
		return;					/* expected */
	if (WIFEXITED(status) && WEXITSTATUS(status) == WRITER_EXIT_FENCED)
	{
		ereport(LOG, errmsg("writer process (PID %d) lost the store to another server", (int) pid),
				errhint("Another RockLake server has opened the same store as its writer. This server shuts down; it is not restarted automatically."));
		ExitStatus = POSTMASTER_EXIT_FENCED;
		pmdie(SIGINT);
		return;
	}
	LogChildExit("writer process", pid, status);
	if (was_starting)
	{
		/*
		 * The writer could not open its store or bring a cache up to date: an object
		 * store that is down, a disk that is full, a cache that cannot be rebuilt. The
		 * store is untouched (nothing is written before it opened) and clients are
		 * refused with 57P03 meanwhile, so try again, later each time, rather than
		 * exit and leave a server that needs a human to come back.
		 */
		int			shift = WriterStartFailures < 6 ? WriterStartFailures : 6;
		int64_t		delay = (int64_t) 1000 << shift;

		if (delay > WRITER_RETRY_MAX_MS)
			delay = WRITER_RETRY_MAX_MS;
		WriterStartFailures++;
		WriterRetryAtMs = rl_monotonic_ms() + delay;
		ereport(LOG, errmsg("writer process could not start; starting it again in %d s",
							(int) (delay / 1000)),
				errhint("The writer's log lines above say why."));
		return;
	}
	HandleChildCrash();
}

/*
 * reaper -- collect every exited child (SIGCHLD)
 */
static void
reaper(void)
{
	pid_t		pid;
	int			status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
	{
		Backend    *bn;
		BackendState state;

		BackendStatusForget(pid);

		if (pid == MetricsPid)
		{
			/* it serves nobody's data: start it again in a second, touching nothing else */
			LogChildExit("metrics process", pid, status);
			MetricsPid = 0;
			MetricsRetryAtMs = rl_monotonic_ms() + 1000;
			continue;
		}
		if (pid == WriterPid)
		{
			writer_exited(pid, status);
			continue;
		}
		for (bn = BackendList; bn; bn = bn->next)
			if (bn->pid == pid)
				break;
		if (bn == NULL)
			continue;			/* not ours to track */
		state = bn->state;
		remove_backend(bn);
		if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1))
			continue;
		if (FatalError || Shutdown == ImmediateShutdown)
			continue;			/* we told it to go */
		if (state != BACKEND_ACTIVE)
		{
			LogChildExit("idle backend process", pid, status);
			continue;
		}
		LogChildExit("server process", pid, status);
		HandleChildCrash();
	}
}

/* ---------------------------------------------------------------- the first packet */

/*
 * close_pending -- drop a connection being read
 */
static void
close_pending(PendingConn *pc)
{
	for (PendingConn **link = &PendingList; *link; link = &(*link)->next)
		if (*link == pc)
		{
			*link = pc->next;
			break;
		}
	close(pc->sock);
	free(pc);
	NumPending--;
}

/*
 * send_refusal -- a FATAL ErrorResponse, best effort, then close
 *
 * The socket is fresh and the message small, so a non-blocking send either
 * fits into the socket buffer or the client is gone.
 */
static void
send_refusal(PendingConn *pc, const char *sqlstate, const char *message)
{
	RlBuf		buf;
	PqMsgBuilder msg;
	ssize_t		n;

	ErrorData	refusal = {.elevel = FATAL, .sqlstate = sqlstate, .message = (char *) message};

	rlbuf_init(&buf);
	pq_beginmessage(&msg, &buf, PqMsg_ErrorResponse);
	pq_send_error_fields(&msg, &refusal);
	pq_endmessage(&msg);
	n = send(pc->sock, buf.data, buf.len, MSG_NOSIGNAL);
	(void) n;
	rlbuf_free(&buf);
	ereport(DEBUG1, errcode(sqlstate), errmsg("refused connection from %s: %s",
											  pc->remote_host, message));
	close_pending(pc);
}

/*
 * refusal_reason -- why a new session cannot start now (NULL: it can);
 * PostgreSQL's canAcceptConnections
 */
static const char *
refusal_reason(const char **sqlstate)
{
	*sqlstate = ERRCODE_CANNOT_CONNECT_NOW;
	if (Shutdown != NoShutdown)
		return "the database system is shutting down";
	if (pmState == PM_CRASH_RESET || (pmState == PM_STARTUP && RecoveryAfterCrash))
		return "the database system is in recovery mode";
	if (pmState == PM_STARTUP)
		return "the database system is starting up";
	if (pmState != PM_RUN)
		return "the database system is shutting down";
	if (StoreCheckTimeout > 0 && commit_horizon_proof_age_ms(CACHE_POSTGRES_DATID) > StoreCheckTimeout * 1000L)
		return "the database system is waiting for its object store";
	if (NumActiveBackends >= GetConfigInt("max_connections"))
	{
		*sqlstate = ERRCODE_TOO_MANY_CONNECTIONS;
		return "sorry, too many clients already";
	}
	return NULL;
}

/*
 * processCancelRequest -- SIGINT to the backend with that PID, if the key is
 * right. The requester is told nothing either way.
 */
static void
processCancelRequest(const uint8_t *packet)
{
	pid_t		pid = (pid_t) rl_load_u32be(packet + 8);
	int32_t		key = (int32_t) rl_load_u32be(packet + 12);

	for (Backend *bn = BackendList; bn; bn = bn->next)
	{
		if (bn->pid != pid || bn->state != BACKEND_ACTIVE)
			continue;
		if (bn->cancel_key == key)
		{
			ereport(DEBUG1, errmsg("processing cancel request: sending SIGINT to process %d",
								   (int) pid));
			signal_child(pid, SIGINT, 0);
		}
		else
			ereport(LOG, errmsg("wrong key in cancel request for process %d", (int) pid));
		return;
	}
	ereport(LOG, errmsg("PID %d in cancel request did not match any process", (int) pid));
}

/*
 * handoff_to -- pass the connection to one idle backend; false if that
 * backend is gone
 */
static bool
handoff_to(Backend *bn, PendingConn *pc)
{
	HandoffHeader hdr;
	struct iovec iov[2];
	union
	{
		struct cmsghdr align;
		char		buf[CMSG_SPACE(sizeof(int))];
	}			control;
	struct msghdr msg;
	struct cmsghdr *cmsg;

	memset(&hdr, 0, sizeof(hdr));
	/* four bytes from getrandom() never fail once the pool is initialised */
	if (getrandom(&hdr.cancel_key, sizeof(hdr.cancel_key), 0) != sizeof(hdr.cancel_key))
		ereport(LOG, errmsg("could not generate a cancel key: %s", strerror(errno)));
	memcpy(hdr.remote_host, pc->remote_host, sizeof(hdr.remote_host));
	memcpy(hdr.remote_port, pc->remote_port, sizeof(hdr.remote_port));
	hdr.first_packet_len = pc->len;
	iov[0].iov_base = &hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = pc->buf;
	iov[1].iov_len = pc->len;
	memset(&control, 0, sizeof(control));
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.msg_iovlen = 2;
	msg.msg_control = control.buf;
	msg.msg_controllen = sizeof(control.buf);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &pc->sock, sizeof(int));

	if (sendmsg(bn->handoff_sock, &msg, MSG_NOSIGNAL) < 0)
	{
		/* it died while idle: the reaper will collect it */
		close(bn->handoff_sock);
		bn->handoff_sock = -1;
		bn->state = BACKEND_RETIRING;
		NumIdleBackends--;
		return false;
	}
	close(bn->handoff_sock);
	bn->handoff_sock = -1;
	bn->state = BACKEND_ACTIVE;
	bn->cancel_key = hdr.cancel_key;
	NumIdleBackends--;
	NumActiveBackends++;
	return true;
}

/*
 * BackendStartup -- give the connection to an idle backend, forking one if
 * the pool is empty, then top the pool up again
 */
static void
BackendStartup(PendingConn *pc)
{
	int			flags = fcntl(pc->sock, F_GETFL);

	/* the backend reads and writes in blocking mode */
	fcntl(pc->sock, F_SETFL, flags & ~O_NONBLOCK);
	for (int attempt = 0; attempt < 3; attempt++)
	{
		Backend    *bn;

		for (bn = BackendList; bn; bn = bn->next)
			if (bn->state == BACKEND_IDLE)
				break;
		if (bn == NULL)
			bn = StartIdleBackend();
		if (bn == NULL)
			break;
		if (handoff_to(bn, pc))
		{
			close_pending(pc);
			MaintainBackendPool();
			return;
		}
	}
	fcntl(pc->sock, F_SETFL, flags);
	send_refusal(pc, ERRCODE_INSUFFICIENT_RESOURCES, "could not fork new process for connection");
}

/*
 * StartDeadEndChild -- refuse a connection that asked for SSL while ssl is on
 *
 * PostgreSQL's dead-end child: a process that negotiates encryption as a
 * backend does ('S' and the TLS handshake), reads the startup packet and only
 * then sends the refusal, so that a client with sslmode=require reads the
 * FATAL error instead of failing on an 'N'. It is not a Backend: the reaper
 * ignores it, and authentication_timeout (SIGALRM) ends a client that stalls.
 */
static void
StartDeadEndChild(PendingConn *pc, const char *sqlstate, const char *message)
{
	int			sock = dup(pc->sock);	/* fork_process closes pc->sock */
	pid_t		pid;

	if (sock < 0)
	{
		send_refusal(pc, sqlstate, message);
		return;
	}
	pid = fork_process();
	if (pid == 0)
	{
		BackendStartupInfo info;

		fcntl(sock, F_SETFL, fcntl(sock, F_GETFL) & ~O_NONBLOCK);
		alarm((unsigned) GetConfigInt("authentication_timeout"));
		memset(&info, 0, sizeof(info));
		info.client_sock = sock;
		memcpy(info.remote_host, pc->remote_host, sizeof(info.remote_host));
		memcpy(info.remote_port, pc->remote_port, sizeof(info.remote_port));
		info.data_directory = DataDir;
		info.writer_socket_path = WriterSocketPath;
		info.first_packet = pc->buf;
		info.first_packet_len = pc->len;
		info.refusal_sqlstate = sqlstate;
		info.refusal_message = message;
		BackendMain(&info);
	}
	if (pid < 0)
		ereport(LOG, errmsg("could not fork new process for connection: %s", strerror(errno)));
	close(sock);
	if (pid < 0)
		send_refusal(pc, sqlstate, message);
	else
		close_pending(pc);
}

/*
 * ProcessFirstPacket -- a whole packet has been read: decide
 */
static void
ProcessFirstPacket(PendingConn *pc)
{
	uint32_t	code = rl_load_u32be(pc->buf + 4);
	const char *sqlstate;
	const char *refusal;

	if (code == CANCEL_REQUEST_CODE)
	{
		if (pc->len == 16)
			processCancelRequest(pc->buf);
		else
			ereport(COMMERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
					errmsg("invalid length of cancel request packet"));
		close_pending(pc);
		return;
	}
	refusal = refusal_reason(&sqlstate);
	if (refusal == NULL)
	{
		BackendStartup(pc);
		return;
	}
	if (code == NEGOTIATE_SSL_CODE && !pc->ssl_answered && !pc->is_unix && GetConfigBool("ssl"))
	{
		StartDeadEndChild(pc, sqlstate, refusal);
		return;
	}
	if ((code == NEGOTIATE_SSL_CODE && !pc->ssl_answered) ||
		(code == NEGOTIATE_GSS_CODE && !pc->gss_answered))
	{
		/* no encryption: "N", then the refusal comes after the startup packet */
		static const char no = 'N';

		if (pc->len != 8 || send(pc->sock, &no, 1, MSG_NOSIGNAL) != 1)
		{
			close_pending(pc);
			return;
		}
		if (code == NEGOTIATE_SSL_CODE)
			pc->ssl_answered = true;
		else
			pc->gss_answered = true;
		pc->have = pc->len = 0;
		return;
	}
	send_refusal(pc, sqlstate, refusal);
}

/*
 * ReadPendingConn -- read what has arrived of a first packet
 */
static void
ReadPendingConn(PendingConn *pc)
{
	for (;;)
	{
		uint32_t	want = pc->len ? pc->len : 4;
		ssize_t		n = recv(pc->sock, pc->buf + pc->have, want - pc->have, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0)
		{
			/* a client that connects and leaves (a port probe) is not news */
			if (pc->have > 0)
				ereport(COMMERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("incomplete startup packet"));
			close_pending(pc);
			return;
		}
		pc->have += (uint32_t) n;
		if (pc->len == 0 && pc->have == 4)
		{
			pc->len = rl_load_u32be(pc->buf);
			if (pc->len < 8 || pc->len > MAX_STARTUP_PACKET_LENGTH)
			{
				ereport(COMMERROR, errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("invalid length of startup packet"));
				close_pending(pc);
				return;
			}
		}
		if (pc->len != 0 && pc->have == pc->len)
		{
			ProcessFirstPacket(pc);
			return;
		}
	}
}

/*
 * close_oldest_pending -- make room for a new connection by closing the one that has
 * waited longest for its first packet
 *
 * Refusing the newcomer instead let a few hundred connections that never send a
 * byte lock every client out until authentication_timeout. A client that talks
 * sends its first packet within milliseconds of connecting, so to push one out a
 * flood must open the whole table's worth of connections in that time.
 */
static void
close_oldest_pending(void)
{
	PendingConn *oldest = PendingList;

	for (PendingConn *pc = PendingList; pc; pc = pc->next)
		if (pc->deadline_ms <= oldest->deadline_ms)
			oldest = pc;
	ereport(LOG, errmsg("too many connections still sending their startup packet; closing the oldest, from %s",
						oldest->remote_host));
	close_pending(oldest);
}

/*
 * AcceptConnections -- take every waiting connection on one listen socket
 */
static void
AcceptConnections(int listen_sock, bool is_unix)
{
	int			max_pending = GetConfigInt("max_connections") * 2 + 16;

	for (;;)
	{
		struct sockaddr_storage addr;
		socklen_t	addrlen = sizeof(addr);
		int			sock = accept4(listen_sock, (struct sockaddr *) &addr, &addrlen,
								   SOCK_NONBLOCK);
		PendingConn *pc;

		if (sock < 0)
		{
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
				errno != ECONNABORTED)
				ereport(LOG, errmsg("could not accept new connection: %s", strerror(errno)));
			return;
		}
		if (NumPending >= max_pending)
			close_oldest_pending();
		pc = pm_alloc(sizeof(PendingConn));
		pc->sock = sock;
		pc->is_unix = is_unix;
		if (is_unix)
			snprintf(pc->remote_host, sizeof(pc->remote_host), "[local]");
		else
		{
			int			one = 1;

			getnameinfo((struct sockaddr *) &addr, addrlen, pc->remote_host,
						sizeof(pc->remote_host), pc->remote_port, sizeof(pc->remote_port),
						NI_NUMERICHOST | NI_NUMERICSERV);
			setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
		}
		pc->deadline_ms = rl_monotonic_ms() + (int64_t) GetConfigInt("authentication_timeout") * 1000;
		pc->next = PendingList;
		PendingList = pc;
		NumPending++;
	}
}

/* ---------------------------------------------------------------- the loop */

/*
 * PostmasterStateMachine -- move on when what a state waits for has happened
 */
static void
PostmasterStateMachine(void)
{
	if (pmState == PM_WAIT_BACKENDS && BackendList == NULL)
	{
		if (WriterPid != 0)
		{
			ereport(LOG, errmsg("shutting down"));
			signal_child(WriterPid, SIGTERM, 0);
			pmState = PM_SHUTDOWN;
		}
		else
			pmState = PM_NO_CHILDREN;
	}
	if (pmState == PM_SHUTDOWN && WriterPid == 0)
		pmState = PM_NO_CHILDREN;
	if ((pmState == PM_WAIT_DEAD || pmState == PM_CRASH_RESET) &&
		BackendList == NULL && WriterPid == 0)
	{
		if (pmState == PM_WAIT_DEAD || Shutdown != NoShutdown)
			pmState = PM_NO_CHILDREN;
		else
		{
			ereport(LOG, errmsg("all server processes terminated; reinitializing"));
			FatalError = false;
			RecoveryAfterCrash = true;
			/* not ready again until the new writer is: pg_ctl and tests read this */
			set_pidfile_status(PM_STATUS_STARTING);
			StartWriter();
			pmState = PM_STARTUP;
		}
	}
	if (pmState == PM_NO_CHILDREN)
	{
		if (MetricsPid != 0)
		{
			kill(MetricsPid, SIGTERM);
			waitpid(MetricsPid, NULL, 0);
		}
		ereport(LOG, errmsg("database system is shut down"));
		ExitPostmaster(ExitStatus);
	}
}

/*
 * writer_ready -- the writer's pipe is readable: ready, or gone
 */
static void
writer_ready(void)
{
	char		b;
	ssize_t		n = read(WriterReadyFd, &b, 1);

	if (n < 0 && errno == EINTR)
		return;
	close(WriterReadyFd);
	WriterReadyFd = -1;
	if (n != 1 || pmState != PM_STARTUP)
		return;					/* died (the reaper says how) or no longer wanted */
	pmState = PM_RUN;
	RecoveryAfterCrash = false;
	WriterStartFailures = 0;
	set_pidfile_status(PM_STATUS_READY);
	ereport(LOG, errmsg("database system is ready to accept connections"));
}

/*
 * handle_signals -- act on what the self-pipe says arrived
 */
static void
handle_signals(void)
{
	unsigned char sigs[64];
	bool		seen[NSIG] = {false};
	ssize_t		n;

	while ((n = read(SelfPipe[0], sigs, sizeof(sigs))) > 0)
		for (ssize_t i = 0; i < n; i++)
			if (sigs[i] < NSIG)
				seen[sigs[i]] = true;
	if (seen[SIGHUP])
		reload_config();
	if (seen[SIGQUIT])
		pmdie(SIGQUIT);
	if (seen[SIGINT])
		pmdie(SIGINT);
	if (seen[SIGTERM])
		pmdie(SIGTERM);
	if (seen[SIGCHLD])
		reaper();
}

/*
 * poll_timeout -- until the next deadline (first packets, SIGKILL)
 */
static int
poll_timeout(int64_t now)
{
	int64_t		next = now + MAX_POLL_MS;

	for (PendingConn *pc = PendingList; pc; pc = pc->next)
		if (pc->deadline_ms < next)
			next = pc->deadline_ms;
	if ((pmState == PM_CRASH_RESET || pmState == PM_WAIT_DEAD) && AbortDeadlineMs < next)
		next = AbortDeadlineMs;
	if (pmState == PM_STARTUP && WriterPid == 0 && WriterRetryAtMs < next)
		next = WriterRetryAtMs;
	if (MetricsSock >= 0 && MetricsPid == 0 && MetricsRetryAtMs < next)
		next = MetricsRetryAtMs;
	return next <= now ? 0 : (int) (next - now);
}

/*
 * check_deadlines -- drop first packets that took too long; SIGKILL children
 * that ignore SIGQUIT
 */
static void
check_deadlines(int64_t now)
{
	PendingConn *next;

	for (PendingConn *pc = PendingList; pc; pc = next)
	{
		next = pc->next;
		if (pc->deadline_ms <= now)
			close_pending(pc);	/* PostgreSQL is silent about these too */
	}
	if ((pmState == PM_CRASH_RESET || pmState == PM_WAIT_DEAD) && AbortDeadlineMs <= now)
	{
		ereport(LOG, errmsg("issuing SIGKILL to recalcitrant children"));
		SignalEveryone(SIGKILL, 0);
		AbortDeadlineMs = now + SIGKILL_CHILDREN_AFTER_MS;
	}
	if (pmState == PM_STARTUP && WriterPid == 0 && Shutdown == NoShutdown && WriterRetryAtMs <= now)
		StartWriter();
	if (MetricsSock >= 0 && MetricsPid == 0 && Shutdown == NoShutdown && MetricsRetryAtMs <= now)
		StartMetrics();
}

/*
 * ServerLoop -- wait for signals, connections and first packets; never returns
 */
static void __attribute__((noreturn))
ServerLoop(void)
{
	struct pollfd *fds = NULL;
	PendingConn **pcs = NULL;
	int			max_fds = 0;

	for (;;)
	{
		int			nfds = 0;
		int			first_pending;
		int			writer_slot = -1;
		int			rc;

		if (2 + NumListenSockets + NumPending > max_fds)
		{
			max_fds = (2 + NumListenSockets + NumPending) * 2;
			fds = realloc(fds, max_fds * sizeof(struct pollfd));
			pcs = realloc(pcs, max_fds * sizeof(PendingConn *));
			if (fds == NULL || pcs == NULL)
				ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
		}
		fds[nfds++] = (struct pollfd) {SelfPipe[0], POLLIN, 0};
		if (WriterReadyFd >= 0)
		{
			writer_slot = nfds;
			fds[nfds++] = (struct pollfd) {WriterReadyFd, POLLIN, 0};
		}
		for (int i = 0; i < NumListenSockets; i++)
			fds[nfds++] = (struct pollfd) {ListenSockets[i], POLLIN, 0};
		first_pending = nfds;
		for (PendingConn *pc = PendingList; pc; pc = pc->next)
		{
			pcs[nfds] = pc;
			fds[nfds++] = (struct pollfd) {pc->sock, POLLIN, 0};
		}

		rc = poll(fds, nfds, poll_timeout(rl_monotonic_ms()));
		if (rc < 0 && errno != EINTR)
			ereport(FATAL, errcode(ERRCODE_SYSTEM_ERROR), errmsg("poll() failed: %s", strerror(errno)));

		if (rc > 0)
		{
			/* first packets of connections we already had (the list changes below) */
			for (int i = first_pending; i < nfds; i++)
				if (fds[i].revents)
					ReadPendingConn(pcs[i]);
			if (fds[0].revents & POLLIN)
				handle_signals();
			if (writer_slot >= 0 && fds[writer_slot].revents && WriterReadyFd >= 0)
				writer_ready();
			for (int i = 0; i < NumListenSockets; i++)
				if (fds[(writer_slot >= 0 ? 2 : 1) + i].revents & POLLIN)
					AcceptConnections(ListenSockets[i], ListenIsUnix[i]);
		}
		check_deadlines(rl_monotonic_ms());
		PostmasterStateMachine();
		MaintainBackendPool();
	}
}

/* ---------------------------------------------------------------- startup */

/*
 * write_postmaster_opts -- the command line, for pg_ctl restart
 */
static void
write_postmaster_opts(int argc, char **argv)
{
	char		exe[PATH_MAX];
	ssize_t		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE	   *fp = fopen("postmaster.opts", "w");

	if (fp == NULL)
	{
		ereport(LOG, errmsg("could not create file \"postmaster.opts\": %s", strerror(errno)));
		return;
	}
	exe[n > 0 ? n : 0] = '\0';
	fputs(n > 0 ? exe : argv[0], fp);
	for (int i = 1; i < argc; i++)
		fprintf(fp, " \"%s\"", argv[i]);
	fputc('\n', fp);
	fclose(fp);
}

/*
 * PostmasterMain -- see postmaster.h
 */
void
PostmasterMain(int argc, char **argv)
{
	int			port = GetConfigInt("port");

	PostmasterPid = getpid();
	MyLogIdentity.backend_type = "postmaster";
	if (chdir(DataDir) < 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not change directory to \"%s\": %s", DataDir, strerror(errno)));
	elog_set_log_file(GetConfigOption("log_file"));

	CreateDataDirLockFile(DataDir, port, time(NULL));
	atexit(pm_atexit);
	write_postmaster_opts(argc, argv);
	if ((size_t) snprintf(WriterSocketPath, sizeof(WriterSocketPath), "%s/%s", DataDir,
						  WRITER_SOCKET_NAME) >= sizeof(WriterSocketPath))
		ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("data directory path \"%s\" is too long for the writer's socket", DataDir));

	ereport(LOG, errmsg("starting RockLake %s (PostgreSQL %s compatible)", PACKAGE_VERSION,
						PG_VERSION));
	InitPostmasterSignals();
	if (GetConfigBool("ssl"))
		pq_secure_check();		/* as PostgreSQL: a server with ssl on starts only with a usable key */
	OpenListenSockets(port);
	MetricsSock = MetricsListen();

	auth_prepare_crypto();
	CommitHorizonInit();
	/* a standby (standby.signal) follows the store; pg_ctl promote reads the control file */
	RecoveryShmemInit(access(STANDBY_SIGNAL_FILE, F_OK) == 0);
	if (!WriteControlFile(DataDir, RecoveryInProgress()))
		ereport(LOG, errmsg("could not write the control file \"global/pg_control\": %s", strerror(errno)));
	if (RecoveryInProgress())
		ereport(LOG, errmsg("entering standby mode"));
	/* every connection, the writer, and room for those that exit while others start */
	BackendStatusShmemInit(GetConfigInt("max_connections") + 8);
	RoleConnectionsInit();
	MetricsShmemInit();
	StartWriter();
	if (MetricsSock >= 0)
		StartMetrics();
	pmState = PM_STARTUP;
	MaintainBackendPool();
	ServerLoop();
}
