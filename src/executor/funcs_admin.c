/*
 * funcs_admin.c: the builtin functions that describe or control the server rather
 * than compute on values: signals to the postmaster and to other backends, the size of a database (the bytes of its catalog cache file
 * and that file's write-ahead log: what the database takes on this server), the
 * postmaster's start, both ends of the session's connection (NULL on a Unix
 * socket, as PostgreSQL gives them), and the pins of published snapshots
 * (executor/publish.h). The sizes of relations are lookups in the
 * relation_size relation (catalog/pg_stat.h), in funcs.c's table.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/authid.h"
#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/maintenance.h"
#include "catalog/writer.h"
#include "executor/funcs_internal.h"
#include "executor/publish.h"
#include "libpq/pqcomm.h"
#include "utils/backend_status.h"
#include "utils/miscadmin.h"
#include "utils/recovery.h"

/* database_size -- the bytes of datid's cache and its WAL; -1 if it has no cache */
static int64_t
database_size(uint32_t datid)
{
	char		path[4096];
	struct stat st;
	int64_t		size;

	catalog_cache_path(path, sizeof(path), DataDir, datid);
	if (stat(path, &st) != 0)
		return -1;
	size = (int64_t) st.st_size;
	if (strlen(path) + 5 <= sizeof(path) && stat(strcat(path, "-wal"), &st) == 0)
		size += (int64_t) st.st_size;
	return size;
}

Value
f_pg_database_size_name(ExecState *es, const Value *args, int nargs)
{
	uint32_t	datid;
	RlStatus	rc = catalog_find_database(DataDir, args[0].u.s.data, &datid);
	int64_t		size;

	if (rc == RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_INVALID_CATALOG_NAME),
				errmsg("database \"%s\" does not exist", args[0].u.s.data));
	if (rc != RL_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s", rl_last_error()));
	size = database_size(datid);
	return size < 0 ? typio_null(INT8OID) : typio_int(INT8OID, size);
}

Value
f_pg_database_size_oid(ExecState *es, const Value *args, int nargs)
{
	int64_t		size = args[0].u.i > 0 && args[0].u.i <= UINT32_MAX ? database_size((uint32_t) args[0].u.i) : -1;

	return size < 0 ? typio_null(INT8OID) : typio_int(INT8OID, size);
}

Value
f_pg_postmaster_start_time(ExecState *es, const Value *args, int nargs)
{
	return typio_int(TIMESTAMPTZOID, PostmasterStartTimestamp());
}

/* connection_end -- the session's address (the server's end: local) as inet, or its port */
static Value
connection_end(bool local, bool port)
{
	struct sockaddr_storage addr;
	socklen_t	len = sizeof(addr);
	char		host[INET6_ADDRSTRLEN];
	int			rc;

	if (MyProcPort == NULL || MyProcPort->is_unix)
		return typio_null(port ? INT4OID : INETOID);
	rc = local ? getsockname(MyProcPort->sock, (struct sockaddr *) &addr, &len)
		: getpeername(MyProcPort->sock, (struct sockaddr *) &addr, &len);
	if (rc != 0 || (addr.ss_family != AF_INET && addr.ss_family != AF_INET6))
		return typio_null(port ? INT4OID : INETOID);
	if (addr.ss_family == AF_INET)
	{
		struct sockaddr_in *in = (struct sockaddr_in *) &addr;

		if (port)
			return typio_int(INT4OID, ntohs(in->sin_port));
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
	}
	else
	{
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &addr;

		if (port)
			return typio_int(INT4OID, ntohs(in6->sin6_port));
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
	}
	return typio_input(INETOID, host, -1);
}

Value
f_inet_client_addr(ExecState *es, const Value *args, int nargs)
{
	return connection_end(false, false);
}

Value
f_inet_client_port(ExecState *es, const Value *args, int nargs)
{
	return connection_end(false, true);
}

Value
f_inet_server_addr(ExecState *es, const Value *args, int nargs)
{
	return connection_end(true, false);
}

Value
f_inet_server_port(ExecState *es, const Value *args, int nargs)
{
	return connection_end(true, true);
}

/*
 * require_superuser -- ERROR 42501 unless the session's role is a superuser: the
 * functions PostgreSQL grants to no one else by default
 */
static void
require_superuser(const char *function)
{
	if (!GetConfigBool("is_superuser"))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied for function %s", function));
}

/* maintenance: a superuser's, and a standby writes nothing (PreventCommandDuringRecovery) */
static void
require_maintenance(const char *function)
{
	require_superuser(function);
	if (RecoveryInProgress())
		ereport(ERROR, errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				errmsg("cannot execute %s() during recovery", function));
}

/* f_rocklake_compact, f_rocklake_gc -- the writer compacts or collects the database's store; what it did, as json */
Value
f_rocklake_compact(ExecState *es, const Value *args, int nargs)
{
	require_maintenance("rocklake_compact");

	char	   *summary = RequestStoreMaintenance(MAINTAIN_COMPACT);

	return typio_string(JSONOID, summary, strlen(summary));
}

Value
f_rocklake_gc(ExecState *es, const Value *args, int nargs)
{
	require_maintenance("rocklake_gc");

	char	   *summary = RequestStoreMaintenance(MAINTAIN_GC);

	return typio_string(JSONOID, summary, strlen(summary));
}

/* f_pg_reload_conf -- signal the postmaster (the backend's parent) to re-read the configuration */
Value
f_pg_reload_conf(ExecState *es, const Value *args, int nargs)
{
	require_superuser("pg_reload_conf");
	if (kill(getppid(), SIGHUP) != 0)
	{
		ereport(WARNING, errmsg("failed to send signal to postmaster: %s", strerror(errno)));
		return typio_bool(false);
	}
	return typio_bool(true);
}

Value
f_pg_is_in_recovery(ExecState *es, const Value *args, int nargs)
{
	return typio_bool(RecoveryInProgress());
}

/*
 * f_pg_last_xact_replay_timestamp -- on a standby, when the newest commit it has
 * applied to this database was written (its WAL object's time in the store); NULL
 * before the first, and on a server that was never a standby
 */
Value
f_pg_last_xact_replay_timestamp(ExecState *es, const Value *args, int nargs)
{
	int64_t		ms = commit_horizon_replay_ms(MyDatabaseId);

	if (ms <= 0)
		return typio_null(TIMESTAMPTZOID);
	return typio_int(TIMESTAMPTZOID, (ms / 1000 - UNIX_EPOCH_SECS) * USECS_PER_SEC + (ms % 1000) * 1000);
}

/*
 * f_pg_promote -- pg_promote([wait [, wait_seconds]]): as pg_ctl promote, the promote
 * file and SIGUSR1 to the postmaster (the standby's writer looks for the file at each
 * poll); with wait, true once recovery has ended, false (a WARNING) after
 * wait_seconds
 */
Value
f_pg_promote(ExecState *es, const Value *args, int nargs)
{
	bool		wait = nargs < 1 || args[0].u.b;
	int			wait_seconds = nargs < 2 ? 60 : (int) args[1].u.i;
	FILE	   *fp;

	require_superuser("pg_promote");
	if (!RecoveryInProgress())
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("recovery is not in progress"),
				errhint("Recovery control functions can only be executed during recovery."));
	if (wait_seconds <= 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("\"wait_seconds\" must not be negative or zero"));
	fp = fopen(PROMOTE_SIGNAL_FILE, "w");
	if (fp == NULL || fclose(fp) != 0)
		ereport(ERROR,
				errcode(ERRCODE_IO_ERROR),
				errmsg("could not create file \"%s\": %s", PROMOTE_SIGNAL_FILE, strerror(errno)));
	if (kill(getppid(), SIGUSR1) != 0)
	{
		ereport(WARNING, errmsg("failed to send signal to postmaster: %s", strerror(errno)));
		return typio_bool(false);
	}
	for (int tenths = 0; wait && tenths < wait_seconds * 10; tenths++)
	{
		struct timespec ts = {0, 100 * 1000 * 1000};

		if (!RecoveryInProgress())
			return typio_bool(true);
		CHECK_FOR_INTERRUPTS();
		nanosleep(&ts, NULL);
	}
	if (wait && RecoveryInProgress())
	{
		ereport(WARNING, errmsg(wait_seconds == 1 ? "server did not promote within %d second" :
								"server did not promote within %d seconds", wait_seconds));
		return typio_bool(false);
	}
	return typio_bool(true);
}

/*
 * signal_backend -- PostgreSQL's pg_signal_backend: sig to pid if it is a client
 * backend of this server (the status array says), else a WARNING and false. A role
 * that is no superuser may signal only its own role's sessions, and never a
 * superuser's (role membership and pg_signal_backend do not exist here).
 */
static bool
signal_backend(int pid, int sig, bool terminate)
{
	int			max = BackendStatusSlots(),
				n;
	BackendStatus *all = palloc(sizeof(BackendStatus) * (size_t) (max ? max : 1));
	const BackendStatus *target = NULL,
			   *me = NULL;

	n = BackendStatusSnapshot(all, max);
	for (int i = 0; i < n; i++)
	{
		if (all[i].pid == pid && all[i].kind == BACKEND_KIND_CLIENT)
			target = &all[i];
		if (all[i].pid == MyProcPid)
			me = &all[i];
	}
	if (target == NULL)
	{
		ereport(WARNING, errmsg("PID %d is not a PostgreSQL backend process", pid));
		return false;
	}
	if (!GetConfigBool("is_superuser"))
	{
		RoleInfo	role;
		bool		super = false;

		if (catalog_find_role(DataDir, target->usename, &role) == RL_OK)
		{
			super = role.rolsuper;
			role_info_free(&role);
		}
		if (super)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					errmsg(terminate ? "must be a superuser to terminate superuser process"
						   : "must be a superuser to cancel superuser query"));
		if (me == NULL || strcmp(me->usename, target->usename) != 0)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					errmsg(terminate ? "must be a member of the role whose process is being terminated or member of pg_signal_backend"
						   : "must be a member of the role whose query is being canceled or member of pg_signal_backend"));
	}
	if (kill(pid, sig) != 0)
	{
		ereport(WARNING, errmsg("could not send signal to process %d: %s", pid, strerror(errno)));
		return false;
	}
	return true;
}

/* f_pg_cancel_backend -- pg_cancel_backend(pid): cancel its statement, as a CancelRequest does */
Value
f_pg_cancel_backend(ExecState *es, const Value *args, int nargs)
{
	return typio_bool(signal_backend((int) args[0].u.i, SIGINT, false));
}

/*
 * f_pg_terminate_backend -- pg_terminate_backend(pid [, timeout ms]): end the session
 * (FATAL 57P01 to its client); with a timeout, wait that long for the process to exit
 */
Value
f_pg_terminate_backend(ExecState *es, const Value *args, int nargs)
{
	int64_t		timeout = nargs > 1 ? args[1].u.i : 0;
	int			pid = (int) args[0].u.i;

	if (timeout < 0)
		ereport(ERROR, errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("\"timeout\" must not be negative"));
	if (!signal_backend(pid, SIGTERM, true))
		return typio_bool(false);
	for (int64_t waited = 0; timeout > 0 && kill(pid, 0) == 0; waited += 10)
	{
		if (waited >= timeout)
		{
			ereport(WARNING, errmsg("backend with PID %d did not terminate within %lld milliseconds",
									pid, (long long) timeout));
			return typio_bool(false);
		}
		nanosleep(&(struct timespec) {0, 10 * 1000 * 1000}, NULL);
		CHECK_FOR_INTERRUPTS();
	}
	return typio_bool(true);
}

/* ---------------------------------------------------------------- publishing pins */

static PublishPinWriter publish_pin_writer;

void
SetPublishPinWriter(PublishPinWriter writer)
{
	publish_pin_writer = writer;
}

/* a version id is a lowercase UUID in its text form, as the directory it names */
static const char *
version_id_arg(const Value *arg)
{
	const char *s = arg->u.s.data;
	size_t		n = strlen(s);
	bool		ok = n == 36;

	for (size_t i = 0; ok && i < n; i++)
		ok = (i == 8 || i == 13 || i == 18 || i == 23) ? s[i] == '-'
			: (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f');
	if (!ok)
		ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type uuid: \"%s\"", s));
	return s;
}

/* f_rocklake_publish_pin -- pin snapshot args[0] of this database for version args[1] */
Value
f_rocklake_publish_pin(ExecState *es, const Value *args, int nargs)
{
	require_maintenance("rocklake_publish_pin");

	const char *version = version_id_arg(&args[1]);

	if (args[0].u.i < 0)
		ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("snapshot id must not be negative"));
	publish_pin_writer(args[0].u.i, version, true);
	return typio_null(VOIDOID);
}

/* f_rocklake_publish_unpin -- remove version args[0]'s pin; whether there was one */
Value
f_rocklake_publish_unpin(ExecState *es, const Value *args, int nargs)
{
	require_maintenance("rocklake_publish_unpin");

	const char *version = version_id_arg(&args[0]);
	PublishPin	pin;
	RlStatus	rc = catalog_find_publish_pin(DataDir, NULL, 0, version, &pin);

	if (rc != RL_OK && rc != RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the publishing pins: %s", rl_last_error()));
	if (rc == RL_NOT_FOUND || strcmp(pin.datname, MyDatabaseName) != 0)
		return typio_bool(false);
	publish_pin_writer(pin.snapshot_id, version, false);
	return typio_bool(true);
}

static void
append_pin(const PublishPin *pin, void *arg)
{
	RlBuf	   *out = arg;

	rlbuf_printf(out, "%s{\"version_id\": \"%s\", \"snapshot_id\": %lld}", out->len > 1 ? ", " : "",
				 pin->version_id, (long long) pin->snapshot_id);
}

/*
 * f_rocklake_publish_pins -- this database's pins as json, [{"version_id": ...,
 * "snapshot_id": ...}, ...]: how an operator finds the pins of versions that never
 * were completed (a publisher killed)
 */
Value
f_rocklake_publish_pins(ExecState *es, const Value *args, int nargs)
{
	require_superuser("rocklake_publish_pins");

	RlBuf		out;
	RlStatus	rc;
	Value		result;

	rlbuf_init(&out);
	rlbuf_append_str(&out, "[");
	rc = catalog_list_publish_pins(DataDir, MyDatabaseName, append_pin, &out);
	rlbuf_append_str(&out, "]");
	result = typio_string(JSONOID, (const char *) out.data, out.len);
	rlbuf_free(&out);
	if (rc != RL_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the publishing pins: %s", rl_last_error()));
	return result;
}

/*
 * f_rocklake_publish_guard -- true, or ERROR 55000 if snapshot args[0] of this
 * database is published: the condition the analyser adds to a DELETE from
 * ducklake_snapshot
 */
Value
f_rocklake_publish_guard(ExecState *es, const Value *args, int nargs)
{
	PublishPin	pin;
	RlStatus	rc;

	if (args[0].isnull)
		return typio_bool(true);
	rc = catalog_find_publish_pin(DataDir, MyDatabaseName, args[0].u.i, NULL, &pin);
	if (rc == RL_OK)
		ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("cannot expire snapshot %lld: it is published as version %s",
					   (long long) pin.snapshot_id, pin.version_id),
				errhint("Withdraw or expire the version first, which calls rocklake_publish_unpin('%s').",
						pin.version_id));
	if (rc != RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the publishing pins: %s", rl_last_error()));
	return typio_bool(true);
}
