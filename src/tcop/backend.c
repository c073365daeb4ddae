/*
 * backend.c: BackendMain, one client connection from the first packet to the
 * end (PostgreSQL's ProcessStartupPacket, InitPostgres and PostgresMain).
 *
 * Start-up: answer SSLRequest ('S' and a TLS handshake when ssl=on and the key
 * pair loads, else 'N') and GSSENCRequest ('N'), read the StartupMessage, send
 * NegotiateProtocolVersion only when the client asked for a newer 3.x or sent
 * _pq_ options, authenticate (hba + role passwords), check the database, apply
 * the startup options as settings, then AuthenticationOk, the ParameterStatus
 * set, BackendKeyData and ReadyForQuery.
 *
 * The message loop reads one message at a time into MessageContext, which is
 * reset at the top of every iteration. An ERROR longjmps back to the loop: the
 * transaction is marked failed (or ended, if implicit), a half-built message is
 * dropped, and in the extended protocol every message up to the next Sync is
 * skipped (ignore_till_sync). ReadyForQuery is sent after each simple Query and
 * each Sync, preceded by ParameterStatus for every reported setting that changed.
 * With log_min_duration_statement, a simple Query, Parse, Bind and Execute that
 * succeed and took at least that long are logged with their time, in PostgreSQL's
 * words ("duration: 0.123 ms  statement: ..."), so server-side time can be summed
 * from the log as it is for PostgreSQL; with rocklake.log_slow_plans each such
 * statement's plan follows its line, as auto_explain logs it (executor/explain.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "executor/executor.h"
#include "executor/explain.h"
#include "executor/keptscan.h"
#include "executor/sqlite_exec.h"
#include "libpq/auth.h"
#include "libpq/pqcomm.h"
#include "nodes/parsenodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "tcop/aclchk.h"
#include "tcop/backend.h"
#include "tcop/dest.h"
#include "tcop/portal.h"
#include "tcop/publish_pin.h"
#include "tcop/rolecount.h"
#include "tcop/role_settings.h"
#include "tcop/session_role.h"
#include "tcop/utility.h"
#include "tcop/warmup.h"
#include "tcop/xact.h"
#include "utils/backend_status.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"
#include "utils/ps_status.h"

/* extended-protocol error recovery (PostgreSQL's names) */
static bool doing_extended_query;
static bool ignore_till_sync;
static bool send_ready_for_query = true;
/* created by the message being processed; dropped again if it fails */
static PreparedStatement *pending_statement;
static Portal *pending_portal;

/* ---------- start-up ---------- */

static void
add_setting(StartupParams *sp, const char *name, const char *value)
{
	sp->names = repalloc(sp->names, sizeof(char *) * (size_t) (sp->nsettings + 1));
	sp->values = repalloc(sp->values, sizeof(char *) * (size_t) (sp->nsettings + 1));
	sp->names[sp->nsettings] = name;
	sp->values[sp->nsettings] = value;
	sp->nsettings++;
}

/*
 * parse_options -- the "options" parameter: -c name=value or --name=value,
 * whitespace separated, backslash escapes the next character
 */
static void
parse_options(StartupParams *sp, const char *options)
{
	const char *p = options;
	bool		expect_c_value = false;

	for (;;)
	{
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		RlBuf		word;

		rlbuf_init(&word);
		for (; *p && *p != ' ' && *p != '\t'; p++)
		{
			if (*p == '\\' && p[1])
				p++;
			rlbuf_put_u8(&word, (uint8_t) *p);
		}
		char	   *w = pstrdup(rlbuf_cstr(&word));

		rlbuf_free(&word);
		if (expect_c_value || strncmp(w, "-c", 2) == 0 || strncmp(w, "--", 2) == 0)
		{
			char	   *setting = expect_c_value ? w : w + 2;

			expect_c_value = setting[0] == '\0';
			if (expect_c_value)
				continue;
			char	   *eq = strchr(setting, '=');

			if (eq == NULL)
				ereport(FATAL,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("invalid command-line argument for server process: %s", w),
						errhint("Try \"rocklake --help\" for more information."));
			*eq = '\0';
			for (char *c = setting; *c; c++)
				if (*c == '-')
					*c = '_';
			add_setting(sp, setting, eq + 1);
		}
		else
			ereport(FATAL,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("invalid command-line argument for server process: %s", w),
					errhint("Try \"rocklake --help\" for more information."));
	}
}

static void
parse_startup_packet(StartupParams *sp, const uint8_t *body, size_t len)
{
	PqMsgReader r;

	memset(sp, 0, sizeof(*sp));
	sp->names = palloc(sizeof(char *));
	sp->values = palloc(sizeof(char *));
	sp->protocol_options = palloc(sizeof(char *) * (len / 2 + 1));
	pq_initreader(&r, 0, body, len);
	pq_getmsgint32(&r);			/* the protocol version, checked by the caller */
	bool		terminated = len >= 5 && body[len - 1] == '\0';

	/* name and value pairs, each string read up to a NUL, which the last byte is */
	while (terminated && pq_getmsgremaining(&r) > 1)
	{
		/* not checked to be UTF-8, as PostgreSQL does not (application_name is cleaned) */
		const char *name = pq_getmsgrawstring(&r);

		if (pq_getmsgremaining(&r) == 0)
			break;				/* a name without its value: the layout is wrong */

		const char *value = pq_getmsgrawstring(&r);

		if (strcmp(name, "user") == 0)
			sp->user = value;
		else if (strcmp(name, "database") == 0)
			sp->database = value;
		else if (strcmp(name, "options") == 0)
			parse_options(sp, value);
		else if (strcmp(name, "replication") == 0)
		{
			if (strcmp(value, "false") != 0 && strcmp(value, "0") != 0 && strcmp(value, "off") != 0)
				ereport(FATAL,
						errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
						errmsg("no pg_hba.conf entry for replication connection from host \"%s\"",
							   MyProcPort->remote_host));
		}
		else if (strncmp(name, "_pq_.", 5) == 0)
			sp->protocol_options[sp->nprotocol_options++] = name;
		else
			add_setting(sp, name, value);
	}
	/* PostgreSQL's check: the pairs end right before that last NUL */
	if (!terminated || pq_getmsgremaining(&r) != 1)
		ereport(FATAL,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid startup packet layout: expected terminator as last byte"));
	if (sp->user == NULL || sp->user[0] == '\0')
		ereport(FATAL,
				errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				errmsg("no PostgreSQL user name specified in startup packet"));
	if (sp->database == NULL || sp->database[0] == '\0')
		sp->database = sp->user;
}

/*
 * negotiate_encryption -- answer SSLRequest / GSSENCRequest (each at most once)
 *
 * A client must wait for the one-byte answer: bytes pipelined behind the
 * request are refused, as PostgreSQL does since CVE-2021-23214.
 */
static void
negotiate_encryption(uint32_t code, bool *ssl_done, bool *gss_done)
{
	bool	   *done = code == NEGOTIATE_SSL_CODE ? ssl_done : gss_done;
	bool		use_ssl = false;

	if (*done)
		ereport(FATAL,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
					   PG_PROTOCOL_MAJOR(code), PG_PROTOCOL_MINOR(code)));
	*done = true;
	if (code == NEGOTIATE_SSL_CODE && !MyProcPort->is_unix && GetConfigBool("ssl"))
		use_ssl = pq_secure_init();
	if (pq_buffered_input() > 0)
		ereport(FATAL,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("received unencrypted data after %s request",
					   code == NEGOTIATE_SSL_CODE ? "SSL" : "GSSAPI encryption"));
	if (pq_putrawbyte(use_ssl ? 'S' : 'N') != 0)
		exit(0);
	if (use_ssl && pq_secure_open_server() != 0)
		exit(0);
}

/*
 * BackendReadStartup -- through any encryption requests to the StartupMessage
 *
 * false: the client went away, or sent a CancelRequest (the postmaster routes
 * those; there is nothing to say).
 */
bool
BackendReadStartup(StartupParams *sp)
{
	bool		ssl_done = false,
				gss_done = false;

	for (;;)
	{
		uint8_t    *body;
		size_t		len;

		if (pq_getstartuppacket(&body, &len, MAX_STARTUP_PACKET_LENGTH) != 0)
			return false;
		uint32_t	code = rl_load_u32be(body);

		if (code == NEGOTIATE_SSL_CODE || code == NEGOTIATE_GSS_CODE)
		{
			negotiate_encryption(code, &ssl_done, &gss_done);
			continue;
		}
		if (code == CANCEL_REQUEST_CODE)
			return false;
		if (PG_PROTOCOL_MAJOR(code) != 3)
			ereport(FATAL,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
						   PG_PROTOCOL_MAJOR(code), PG_PROTOCOL_MINOR(code)));
		parse_startup_packet(sp, body, len);
		if (PG_PROTOCOL_MINOR(code) > 0 || sp->nprotocol_options > 0)
		{
			PqMsgBuilder msg;

			pq_beginmsg(&msg, PqMsg_NegotiateProtocolVersion);
			pq_sendint32(&msg, PG_PROTOCOL_LATEST);
			pq_sendint32(&msg, (uint32_t) sp->nprotocol_options);
			for (int i = 0; i < sp->nprotocol_options; i++)
				pq_sendstring(&msg, sp->protocol_options[i]);
			pq_endmsg(&msg);
		}
		return true;
	}
}

/* apply_setting -- a startup option is a session setting; a bad one is FATAL */
static void
apply_setting(const char *name, const char *value, GucSource source)
{
	const char *msg = NULL,
			   *sqlstate = NULL;

	if (!set_config_option(name, value, source, false, &msg, &sqlstate))
		ereport(FATAL,
				errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s", msg ? msg : "invalid configuration parameter"));
}

static int64_t session_start_ms;

/* log_disconnection -- at exit, PostgreSQL's "disconnection:" line if asked for */
static void
log_disconnection(void)
{
	int64_t		ms = rl_now_ms() - session_start_ms;

	if (!GetConfigBool("log_disconnections"))
		return;
	ereport(LOG, errmsg("disconnection: session time: %d:%02d:%02d.%03d user=%s database=%s host=%s%s%s",
						(int) (ms / 3600000), (int) (ms / 60000 % 60), (int) (ms / 1000 % 60), (int) (ms % 1000),
						MyUserName, MyDatabaseName, MyLogIdentity.remote_host,
						MyLogIdentity.remote_port && MyLogIdentity.remote_port[0] ? " port=" : "",
						MyLogIdentity.remote_port ? MyLogIdentity.remote_port : ""));
}

void
BackendInitCache(void)
{
	cache_hooks.opened = ExecRegisterSqliteFunctions;
	cache_hooks.closing = KeptScanForgetAll;
	cache_hooks.transaction_ended = CacheLeaveHintEarly;
}

void
BackendWarmUp(const char *data_directory)
{
	BackendInitCache();
	CacheWarm(data_directory);
}

static void
start_session(const BackendStartupInfo *info)
{
	StartupParams sp;
	PqMsgBuilder msg;
	RoleInfo	role;

	if (GetConfigBool("log_connections"))
	{
		if (info->remote_port[0])
			ereport(LOG, errmsg("connection received: host=%s port=%s", info->remote_host, info->remote_port));
		else
			ereport(LOG, errmsg("connection received: host=%s", info->remote_host));
	}
	if (!BackendReadStartup(&sp))
		exit(0);
	MyUserName = MemoryContextStrdup(TopMemoryContext, sp.user);
	MyDatabaseName = MemoryContextStrdup(TopMemoryContext, sp.database);
	MyLogIdentity.user_name = MyUserName;
	MyLogIdentity.database_name = MyDatabaseName;
	/* a dead-end child: refused, now that the client can read why */
	if (info->refusal_message != NULL)
		ereport(FATAL, errcode(info->refusal_sqlstate), errmsg("%s", info->refusal_message));

	{
		RlStatus	rc = catalog_find_role(info->data_directory, sp.user, &role);
		int64_t		now = (rl_now_ms() - UNIX_EPOCH_SECS * 1000) * 1000;
		AuthRole	auth = {
			.found = rc == RL_OK,
			.canlogin = rc == RL_OK && role.rolcanlogin,
			.verifier = rc == RL_OK ? role.rolpassword : NULL,
			.expired = rc == RL_OK && role.rolvaliduntil != ROLE_NO_VALID_UNTIL && role.rolvaliduntil < now,
		};

		if (rc != RL_OK && rc != RL_NOT_FOUND)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not read the roles' registry: %s", rl_last_error()));
		ClientAuthentication(info->data_directory, sp.user, sp.database, &auth);
	}
	InitSessionUser(role.oid, sp.user, role.rolsuper);
	InitPublishPins();
	RoleConnectionEnter(role.oid, sp.user, role.rolconnlimit, role.rolsuper);
	/* before the startup options: whether they may set superusers' settings */
	apply_setting("is_superuser", role.rolsuper ? "on" : "off", PGC_S_OVERRIDE);
	UpdateHotStandby();
	role_info_free(&role);

	{
		/* the registry of databases is the postgres database's catalog */
		RlStatus	rc = catalog_find_database(DataDir, sp.database, &MyDatabaseId);
		char		path[4096];

		if (rc == RL_NOT_FOUND)
			ereport(FATAL,
					errcode(ERRCODE_INVALID_CATALOG_NAME),
					errmsg("database \"%s\" does not exist", sp.database));
		if (rc != RL_OK)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not read the database registry: %s", rl_last_error()));
		CheckDatabaseConnect(sp.database);
		catalog_cache_path(path, sizeof(path), DataDir, MyDatabaseId);
		CacheOpen(path);
	}
	ApplyRoleSettings(sp.database, MyRoleId);
	for (int i = 0; i < sp.nsettings; i++)
		apply_setting(sp.names[i], sp.values[i], PGC_S_CLIENT);
	apply_setting("session_authorization", sp.user, PGC_S_OVERRIDE);
	MyLogIdentity.application_name = application_name;
	if (GetConfigBool("log_connections"))
		ereport(LOG, errmsg("connection authorized: user=%s database=%s application_name=%s",
							sp.user, sp.database, MyLogIdentity.application_name));
	session_start_ms = rl_now_ms();
	atexit(log_disconnection);
	pgstat_bestart(BACKEND_KIND_CLIENT, MyDatabaseId, sp.user, sp.database,
				   info->remote_port[0] ? info->remote_host : "",
				   info->remote_port[0] ? atoi(info->remote_port) : -1);
	init_ps_display(info->remote_port[0]
					? psprintf("%s %s %s(%s)", sp.user, sp.database, info->remote_host, info->remote_port)
					: psprintf("%s %s %s", sp.user, sp.database, info->remote_host));
	atexit(CacheRememberStatements);

	ReportGucs(SendParameterStatus, NULL);
	pq_beginmsg(&msg, PqMsg_BackendKeyData);
	pq_sendint32(&msg, (uint32_t) MyProcPid);
	pq_sendint32(&msg, (uint32_t) info->cancel_key);
	pq_endmsg(&msg);
}

/* ---------- running statements ---------- */

static size_t max_message_length(int type);

/* when the message being processed started, for log_min_duration_statement */
static struct timespec statement_start;

/* start_statement_timer -- a message that runs a statement starts: its clocks start */
static void
start_statement_timer(void)
{
	clock_gettime(CLOCK_MONOTONIC, &statement_start);
	StatementInterruptsBegin();
}

/*
 * check_log_duration -- PostgreSQL's: true, with the milliseconds since
 * start_statement_timer as text in msec_str, when log_min_duration_statement
 * says the statement is to be logged
 */
static bool
check_log_duration(char *msec_str, size_t size)
{
	struct timespec now;
	int64_t		usecs;

	if (log_min_duration_statement < 0)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	usecs = (int64_t) (now.tv_sec - statement_start.tv_sec) * 1000000 +
		(now.tv_nsec - statement_start.tv_nsec) / 1000;
	if (usecs < (int64_t) log_min_duration_statement * 1000)
		return false;
	snprintf(msec_str, size, "%" PRId64 ".%03d", usecs / 1000, (int) (usecs % 1000));
	return true;
}

/*
 * slow_plan -- with rocklake.log_slow_plans, the plan of stmt, which has just run
 * (inside its transaction), if the message is already slow enough to be logged
 */
static char *
slow_plan(AnalyzedStmt *stmt, const Value *params)
{
	char		msec_str[32];

	if (!log_slow_plans || !check_log_duration(msec_str, sizeof(msec_str)))
		return NULL;
	return ExplainPlanText(stmt, params);
}

/* log_plan -- a plan after its statement's duration line, in auto_explain's words */
static void
log_plan(const char *plan, const char *msec_str)
{
	if (plan)
		ereport(LOG, errmsg("duration: %s ms  plan:\n%s", msec_str, plan));
}

/* check_not_aborted -- in a failed block only transaction exits may run */
static void
check_not_aborted(bool is_exit)
{
	if (IsAbortedTransactionBlockState() && !is_exit)
		ereport(ERROR,
				errcode(ERRCODE_IN_FAILED_SQL_TRANSACTION),
				errmsg("current transaction is aborted, commands ignored until end of transaction block"));
}

static bool
is_transaction_exit(const AnalyzedStmt *stmt)
{
	return stmt != NULL && stmt->kind == STMT_UTILITY &&
		(stmt->utility == UTIL_COMMIT || stmt->utility == UTIL_ROLLBACK ||
		 stmt->utility == UTIL_ROLLBACK_TO);
}

/*
 * run_copy_in -- COPY table FROM STDIN: CopyInResponse, then CopyData up to
 * CopyDone (or CopyFail); the rows are decoded as they come and inserted at the
 * end, so the catalog is written within this one message's processing
 */
/* What a COPY FROM error's CONTEXT line says: the row decoded, or the row inserted. */
typedef struct CopyInContext
{
	const char *relname;
	const CopyDecoder *dec;
	const long *lines;			/* each row's line ... */
	const char **texts;			/* ... and its text (text formats), as a context shows it ... */
	int64_t		inserting;		/* ... and the row being inserted, or -1 */
} CopyInContext;

static void
copy_in_context(void *arg)
{
	const CopyInContext *c = arg;
	const char *sqlstate = CurrentErrorData()->sqlstate;

	/* PostgreSQL checks NOT NULL and CHECK with the line at hand, a key once it is gone */
	if (c->inserting >= 0 && c->texts[c->inserting] &&
		(strcmp(sqlstate, ERRCODE_NOT_NULL_VIOLATION) == 0 || strcmp(sqlstate, ERRCODE_CHECK_VIOLATION) == 0))
		errcontext_msg("COPY %s, line %ld: \"%s\"", c->relname, c->lines[c->inserting], c->texts[c->inserting]);
	else if (c->inserting >= 0)
		errcontext_msg("COPY %s, line %ld", c->relname, c->lines[c->inserting]);
	else
		errcontext_msg("%s", copy_decoder_context(c->dec, c->relname));
}

static uint64_t
run_copy_in(AnalyzedStmt *stmt)
{
	int			n = stmt->ncolumns;
	Oid		   *types = palloc(sizeof(Oid) * (size_t) (n ? n : 1));
	int32_t    *typmods = palloc(sizeof(int32_t) * (size_t) (n ? n : 1));
	const char **names = palloc(sizeof(char *) * (size_t) (n ? n : 1));
	int64_t		nrows = 0,
				cap = 64;
	Value	   *rows = palloc(sizeof(Value) * (size_t) (cap * (n ? n : 1)));
	long	   *lines = palloc(sizeof(long) * (size_t) cap);
	const char **texts = palloc(sizeof(char *) * (size_t) cap);
	CopyDecoder dec;
	bool		done = false;
	CopyInContext context = {stmt->name, &dec, lines, texts, -1};
	ErrorContextCallback callback = {.previous = error_context_stack, .callback = copy_in_context,
	.arg = &context};
	sigjmp_buf *save = PG_exception_stack;
	sigjmp_buf	local;
	uint64_t	count;

	for (int i = 0; i < n; i++)
	{
		types[i] = stmt->columns[i].type;
		typmods[i] = stmt->columns[i].typmod;
		names[i] = stmt->columns[i].name;
	}
	CacheMessageEnd(false);		/* the data comes in further messages */
	copy_decoder_init(&dec, &stmt->copy, n, types);
	dec.typmods = typmods;
	dec.names = names;
	SendCopyResponse(PqMsg_CopyInResponse, stmt->copy.format, n);
	pq_flush();
	if (sigsetjmp(local, 0) != 0)
	{
		/* the report, sent with its context, stands: on to the recovery point */
		error_context_stack = callback.previous;
		PG_exception_stack = save;
		siglongjmp(*save, 1);
	}
	PG_exception_stack = &local;
	while (!done)
	{
		CHECK_FOR_INTERRUPTS();	/* a cancel that came during the last message */

		int			type = pq_getmsgtype();
		uint8_t    *body;
		size_t		len;

		/* PostgreSQL's words; the message loop then finds the connection gone */
		if (type == EOF_ON_CLIENT || pq_getmsgbody((char) type, &body, &len, max_message_length(type)) != 0)
			ereport(ERROR,
					errcode(ERRCODE_CONNECTION_FAILURE),
					errmsg("unexpected EOF on client connection with an open transaction"));
		switch (type)
		{
			case PqMsg_CopyData:
				copy_decoder_feed(&dec, body, len);
				break;
			case PqMsg_CopyDone:
				done = true;
				break;
			case PqMsg_CopyFail:
				{
					PqMsgReader r;
					const char *reason;

					pq_initreader(&r, (char) type, body, len);
					reason = pq_getmsgstring(&r);
					ereport(ERROR,
							errcode(ERRCODE_QUERY_CANCELED),
							errmsg("COPY from stdin failed: %s", reason));
				}
				break;
			case PqMsg_Flush:
			case PqMsg_Sync:
				break;
			default:
				ereport(ERROR,
						errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("unexpected message type 0x%02X during COPY from stdin", type));
		}
		error_context_stack = &callback;
		for (;;)
		{
			if (nrows == cap)
			{
				rows = repalloc(rows, sizeof(Value) * (size_t) ((cap *= 2) * (n ? n : 1)));
				lines = repalloc(lines, sizeof(long) * (size_t) cap);
				texts = repalloc(texts, sizeof(char *) * (size_t) cap);
				context.lines = lines;
				context.texts = texts;
			}
			if (!copy_decoder_next(&dec, &rows[nrows * n], done))
				break;
			texts[nrows] = dec.opts.format == COPY_FORMAT_BINARY ? NULL : dec.row_line;
			lines[nrows++] = dec.lineno;
		}
		error_context_stack = callback.previous;
	}
	copy_decoder_free(&dec);
	error_context_stack = &callback;
	count = (uint64_t) ExecutorInsertRows(stmt, rows, nrows, &context.inserting);
	error_context_stack = callback.previous;
	PG_exception_stack = save;
	return count;
}

/*
 * run_copy_out -- COPY (query) TO STDOUT: CopyOutResponse, one CopyData per row,
 * CopyDone
 *
 * Message boundaries follow PostgreSQL, and DuckDB's reader depends on them: the
 * binary header shares the first CopyData with the first tuple (or with the
 * trailer when there are no rows), and every later tuple has a message of its own;
 * a CSV header line is a message of its own. DuckLake's scans of whole catalog
 * tables send a kept copy of their tuples when they can (keptscan.h).
 */
static uint64_t
run_copy_out(AnalyzedStmt *stmt, const Value *params)
{
	AnalyzedStmt *query = stmt->copy_query;
	KeptScanRun *kept = KeptScanStart(query, params, &stmt->copy);
	ExecState  *es = kept ? NULL : ExecutorStart(query, params, true);
	const char **names = palloc(sizeof(char *) * (size_t) (query->ncolumns + 1));
	PqMsgBuilder msg;
	Value	   *row;
	uint64_t	nrows = 0;
	bool		open;

	for (int i = 0; i < query->ncolumns; i++)
		names[i] = query->columns[i].name;
	SendCopyResponse(PqMsg_CopyOutResponse, stmt->copy.format, query->ncolumns);
	if (kept)
	{
		/* the trailer; the header too when there were no rows */
		nrows = KeptScanSend(kept);
		pq_beginmsg(&msg, PqMsg_CopyData);
		if (nrows == 0)
			copy_encode_start(msg.buf, &stmt->copy, query->ncolumns, names);
		copy_encode_end(msg.buf, &stmt->copy);
		pq_endmsg(&msg);
		SendEmptyMessage(PqMsg_CopyDone);
		return nrows;
	}
	pq_beginmsg(&msg, PqMsg_CopyData);
	size_t		before = msg.buf->len;

	copy_encode_start(msg.buf, &stmt->copy, query->ncolumns, names);
	open = stmt->copy.format == COPY_FORMAT_BINARY || msg.buf->len == before;
	if (!open)
		pq_endmsg(&msg);
	while (ExecutorNext(es, &row))
	{
		if (!open)
			pq_beginmsg(&msg, PqMsg_CopyData);
		copy_encode_row(msg.buf, &stmt->copy, query->ncolumns, row);
		pq_endmsg(&msg);
		open = false;
		nrows++;
	}
	if (!open)
		pq_beginmsg(&msg, PqMsg_CopyData);
	copy_encode_end(msg.buf, &stmt->copy);
	if (msg.buf->len > msg.start + 4)	/* more than the length word */
		pq_endmsg(&msg);
	else
		pq_abort_partial_message();	/* text and CSV end with nothing */
	SendEmptyMessage(PqMsg_CopyDone);
	return nrows;
}

/*
 * end_command -- CommandComplete, and the statement's rows in its database's
 * and its table's counters (pg_stat_database, pg_stat_user_tables): rows a query or
 * COPY TO sent are returned, the count of an INSERT, UPDATE, DELETE or COPY FROM
 * its kind of change
 */
static void
end_command(const AnalyzedStmt *stmt, const char *tag)
{
	const char *count = strrchr(tag, ' ');
	int64_t		n = count ? strtoll(count + 1, NULL, 10) : 0;
	bool		copy_in = stmt->kind == STMT_COPY_IN;
	bool		returned = stmt->kind == STMT_COPY_OUT ||
		(stmt->kind == STMT_ROWS && strncmp(tag, "SELECT", 6) == 0);

	pgstat_count_tuples(stmt->changed_table, returned ? n : 0, copy_in || strncmp(tag, "INSERT", 6) == 0 ? n : 0,
						!copy_in && strncmp(tag, "UPDATE", 6) == 0 ? n : 0,
						!copy_in && strncmp(tag, "DELETE", 6) == 0 ? n : 0);
	EndCommand(tag);
}

/*
 * run_portal -- execute stmt, sending up to max_rows rows (0: all)
 *
 * Returns true when the rows ran out or the statement has none; false when it
 * stopped at max_rows (the caller sends PortalSuspended).
 */
static bool
run_portal(AnalyzedStmt *stmt, ExecState **esp, const Value *params,
		   const int16_t *formats, int64_t max_rows)
{
	Value	   *row;
	uint64_t	nrows = 0;

	if (*esp == NULL)
	{
		/* as PostgreSQL's executor: a read-only transaction first, then privileges */
		CheckStatementReadOnly(stmt);
		if (!ExecCheckPrivileges(stmt))
		{
			end_command(stmt, stmt->command_tag);
			return true;
		}
	}
	if (stmt->kind == STMT_COPY_OUT || stmt->kind == STMT_COPY_IN)
	{
		nrows = stmt->kind == STMT_COPY_IN ? run_copy_in(stmt) : run_copy_out(stmt, params);
		end_command(stmt, psprintf("COPY %llu", (unsigned long long) nrows));
		return true;
	}
	if (stmt->kind == STMT_UTILITY && stmt->utility != UTIL_CACHE)
	{
		end_command(stmt, ProcessUtility(stmt));
		return true;
	}
	if (*esp == NULL)
		*esp = stmt->explain ? ExplainQuery(stmt, params) : ExecutorStart(stmt, params, max_rows <= 0);
	if (stmt->kind == STMT_UTILITY)
	{
		end_command(stmt, ExecutorCommandTag(*esp, 0));
		return true;
	}
	while ((max_rows <= 0 || (int64_t) nrows < max_rows) && ExecutorNext(*esp, &row))
	{
		SendDataRow(stmt->ncolumns, row, formats);
		nrows++;
	}
	if (max_rows > 0 && (int64_t) nrows == max_rows)
		return false;
	end_command(stmt, ExecutorCommandTag(*esp, nrows));
	return true;
}

/*
 * analyzed_log_level -- an analysed statement's LogStmtLevel, by its command (the
 * extended protocol keeps no raw tree; its statements are logged at Execute)
 */
static LogStmtLevel
analyzed_log_level(const AnalyzedStmt *stmt)
{
	static const char *const mod[] = {"INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE"};
	static const char *const ddl[] = {"CREATE", "ALTER", "DROP", "COMMENT", "GRANT", "REVOKE"};

	if (stmt->kind == STMT_COPY_IN)
		return LOGSTMT_MOD;
	for (size_t i = 0; i < sizeof(mod) / sizeof(mod[0]); i++)
		if (strncmp(stmt->command_tag, mod[i], strlen(mod[i])) == 0)
			return LOGSTMT_MOD;
	for (size_t i = 0; i < sizeof(ddl) / sizeof(ddl[0]); i++)
		if (strncmp(stmt->command_tag, ddl[i], strlen(ddl[i])) == 0)
			return LOGSTMT_DDL;
	return LOGSTMT_ALL;
}

/* params_detail -- a portal's parameters as PostgreSQL logs them ($1 = '...', $2 = NULL), NULL if none */
static char *
params_detail(const Portal *portal)
{
	RlBuf		b;

	if (portal->stmt->nparams == 0)
		return NULL;
	rlbuf_init_in(&b, CurrentMemoryContext);
	for (int i = 0; i < portal->stmt->nparams; i++)
	{
		rlbuf_printf(&b, "%s$%d = ", i ? ", " : "", i + 1);
		if (portal->params[i].isnull)
		{
			rlbuf_append_str(&b, "NULL");
			continue;
		}
		rlbuf_append_str(&b, "'");
		for (const char *c = typio_output(&portal->params[i], NULL); *c; c++)
		{
			if (*c == '\'')
				rlbuf_append_str(&b, "'");
			rlbuf_append(&b, c, 1);
		}
		rlbuf_append_str(&b, "'");
	}
	char	   *detail = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return detail;
}

/* exec_simple_query -- 'Q': every statement of the string, one implicit transaction */
static void
exec_simple_query(const char *query)
{
	char		msec_str[32];

	start_statement_timer();
	debug_query_string = query;	/* the STATEMENT: of an error's log line */
	MyLogIdentity.application_name = application_name;
	DropPreparedStatement("", true);
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, query, MyLogIdentity.application_name,
						   GetCurrentTransactionStartTimestamp());
	ParsedQuery *pq = ParseQuery(query);
	int			log_level = log_statement;

	/* log_statement: the whole string once, if one of its statements is of the kind */
	for (int i = 0; log_level && i < pq->nstmts; i++)
		if ((int) RawStatementLogLevel(&pq->stmts[i]) <= log_level)
		{
			ereport(LOG, errmsg("statement: %s", query));
			break;
		}
	char	  **plans = palloc0(sizeof(char *) * (size_t) (pq->nstmts + 1));

	if (pq->nstmts == 0)
		SendEmptyMessage(PqMsg_EmptyQueryResponse);
	for (int i = 0; i < pq->nstmts; i++)
	{
		RawStatement *raw = &pq->stmts[i];

		check_not_aborted(IsTransactionExitStatement(raw));
		if (i > 0)
			StatementInterruptsBegin();	/* an earlier statement may have SET statement_timeout */
		StartTransactionCommand();
		if (pq->nstmts > 1)
			BeginImplicitTransactionBlock();
		AnalyzedStmt *stmt = AnalyzeStatement(raw, query, NULL, -1);
		ExecState  *es = NULL;

		set_ps_display(stmt->command_tag, false);

		if (stmt->kind == STMT_ROWS)
			SendRowDescription(stmt, NULL);
		run_portal(stmt, &es, NULL, NULL, 0);
		plans[i] = slow_plan(stmt, NULL);
		if (i == pq->nstmts - 1)
			EndImplicitTransactionBlock();
		CommitTransactionCommand();
	}
	CommitTransactionCommand();
	if (check_log_duration(msec_str, sizeof(msec_str)))
	{
		ereport(LOG, errmsg("duration: %s ms  statement: %s", msec_str, query));
		for (int i = 0; i < pq->nstmts; i++)
			log_plan(plans[i], msec_str);
	}
}

/* exec_parse -- 'P': parse and analyse into a named or the unnamed statement */
static void
exec_parse(PqMsgReader *r)
{
	const char *name = pq_getmsgstring(r);
	const char *query = pq_getmsgstring(r);
	/* counts are unsigned 16-bit, as PostgreSQL reads them: up to 65 535 parameters */
	int			nparams = (uint16_t) pq_getmsgint16(r);
	char		msec_str[32];

	start_statement_timer();
	debug_query_string = query;

	Oid		   *types = palloc(sizeof(Oid) * (size_t) (nparams + 1));

	for (int i = 0; i < nparams; i++)
		types[i] = (Oid) pq_getmsgint32(r);
	pq_getmsgend(r);

	StartTransactionCommand();
	PreparedStatement *ps = CreatePreparedStatement(name, query);

	pending_statement = ps;
	MemoryContext old = MemoryContextSwitchTo(ps->context);
	ParsedQuery *pq = ParseQuery(query);

	if (pq->nstmts > 1)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("cannot insert multiple commands into a prepared statement"));
	if (pq->nstmts == 1)
	{
		check_not_aborted(IsTransactionExitStatement(&pq->stmts[0]));
		ps->stmt = AnalyzeStatement(&pq->stmts[0], ps->query_string, types, nparams);
	}
	MemoryContextSwitchTo(old);
	pending_statement = NULL;
	SendEmptyMessage(PqMsg_ParseComplete);
	if (check_log_duration(msec_str, sizeof(msec_str)))
		ereport(LOG, errmsg("duration: %s ms  parse %s: %s",
							msec_str, name[0] ? name : "<unnamed>", query));
}

/* read_format_codes -- Int16 n, then n codes: none (all text), one (for all) or one each */
static int16_t *
read_format_codes(PqMsgReader *r, int count, bool results)
{
	int			n = (uint16_t) pq_getmsgint16(r);
	int16_t    *codes = palloc(sizeof(int16_t) * (size_t) (count + 1));
	int16_t    *given = palloc(sizeof(int16_t) * (size_t) (n > 0 ? n : 1));

	for (int i = 0; i < n; i++)
	{
		given[i] = pq_getmsgint16(r);
		if (given[i] != PQ_FORMAT_TEXT && given[i] != PQ_FORMAT_BINARY)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("unsupported format code: %d", given[i]));
	}
	if (n > 1 && n != count)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				results ? errmsg("bind message has %d result formats but query has %d columns", n, count)
				: errmsg("bind message has %d parameter formats but %d parameters", n, count));
	for (int i = 0; i < count; i++)
		codes[i] = n == 0 ? PQ_FORMAT_TEXT : n == 1 ? given[0] : given[i];
	return codes;
}

/* exec_bind -- 'B': a portal with typed parameter values and result formats */
static void
exec_bind(PqMsgReader *r)
{
	char		msec_str[32];

	start_statement_timer();
	const char *portal_name = pq_getmsgstring(r);
	const char *stmt_name = pq_getmsgstring(r);
	PreparedStatement *ps = FetchPreparedStatement(stmt_name, false);

	debug_query_string = ps->query_string;
	AnalyzedStmt *stmt = ps->stmt;
	int			nparams = stmt ? stmt->nparams : 0;
	int16_t    *pformats = read_format_codes(r, nparams, false);
	int			nvalues = (uint16_t) pq_getmsgint16(r);

	if (nvalues != nparams)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
					   nvalues, stmt_name, nparams));
	check_not_aborted(stmt == NULL || is_transaction_exit(stmt));
	StartTransactionCommand();
	Portal	   *portal = CreatePortal(portal_name, ps);

	pending_portal = portal;
	MemoryContext old = MemoryContextSwitchTo(portal->context);

	portal->params = palloc(sizeof(Value) * (size_t) (nparams + 1));
	for (int i = 0; i < nparams; i++)
	{
		int32_t		len = pq_getmsgint32(r);
		Oid			type = stmt->paramtypes[i];

		if (len < 0)
		{
			portal->params[i] = typio_null(type);
			continue;
		}
		const uint8_t *data = pq_getmsgbytes(r, (size_t) len);

		if (pformats[i] == PQ_FORMAT_BINARY)
			portal->params[i] = typio_receive(type, data, (size_t) len);	/* checks text */
		else
		{
			/* text of any type, as PostgreSQL checks it: a NUL byte is refused too */
			pg_verify_utf8((const char *) data, (size_t) len);
			portal->params[i] = typio_input(type, pnstrdup((const char *) data, (size_t) len), -1);
		}
	}
	portal->formats = read_format_codes(r, stmt ? stmt->ncolumns : 0, true);
	pq_getmsgend(r);
	MemoryContextSwitchTo(old);
	pending_portal = NULL;
	SendEmptyMessage(PqMsg_BindComplete);
	if (check_log_duration(msec_str, sizeof(msec_str)))
		ereport(LOG, errmsg("duration: %s ms  bind %s%s%s: %s",
							msec_str, stmt_name[0] ? stmt_name : "<unnamed>",
							portal_name[0] ? "/" : "", portal_name, ps->query_string));
}

static Portal *
get_portal(const char *name)
{
	Portal	   *portal = GetPortalByName(name);

	if (portal == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_CURSOR_NAME),
				errmsg("portal \"%s\" does not exist", name));
	return portal;
}

/* exec_execute -- 'E': run a portal, at most max_rows rows at a time */
static void
exec_execute(PqMsgReader *r)
{
	char		msec_str[32];

	start_statement_timer();
	Portal	   *portal = get_portal(pq_getmsgstring(r));
	int32_t		max_rows = pq_getmsgint32(r);
	bool		is_fetch = portal->exec != NULL;

	debug_query_string = portal->source->query_string;

	pq_getmsgend(r);
	if (portal->stmt == NULL)
	{
		SendEmptyMessage(PqMsg_EmptyQueryResponse);
		return;
	}
	check_not_aborted(is_transaction_exit(portal->stmt));
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, portal->source->query_string, application_name,
						   GetCurrentTransactionStartTimestamp());
	set_ps_display(portal->stmt->command_tag, false);
	if (log_statement && (int) analyzed_log_level(portal->stmt) <= log_statement)
	{
		char	   *params = params_detail(portal);

		ereport(LOG, errmsg("%s %s%s%s: %s", is_fetch ? "execute fetch from" : "execute",
							portal->source->name[0] ? portal->source->name : "<unnamed>",
							portal->name[0] ? "/" : "", portal->name, portal->source->query_string),
				params ? errdetail("parameters: %s", params) : 0);
	}
	if (portal->done)
	{
		/* a finished portal runs again as an empty one, as PostgreSQL's does */
		EndCommand(portal->stmt->kind == STMT_UTILITY ? portal->stmt->command_tag
				   : psprintf("%s 0", portal->stmt->command_tag));
		return;
	}
	ActivePortal = portal;
	MemoryContext old = MemoryContextSwitchTo(portal->context);
	bool		complete = run_portal(portal->stmt, &portal->exec, portal->params,
									  portal->formats, portal->stmt->kind == STMT_ROWS ? max_rows : 0);

	MemoryContextSwitchTo(old);
	portal->done = complete;
	if (!complete)
		SendEmptyMessage(PqMsg_PortalSuspended);
	if (check_log_duration(msec_str, sizeof(msec_str)))
	{
		ereport(LOG, errmsg("duration: %s ms  %s %s%s%s: %s", msec_str,
							is_fetch ? "execute fetch from" : "execute",
							portal->source->name[0] ? portal->source->name : "<unnamed>",
							portal->name[0] ? "/" : "", portal->name, portal->source->query_string));
		log_plan(slow_plan(portal->stmt, portal->params), msec_str);
	}
	if (ActivePortal == portal && portal->owns_source)
		PortalDrop(portal);		/* its statement was deallocated while it ran */
	ActivePortal = NULL;
}

/* exec_describe -- 'D': a statement's parameter and row types, or a portal's rows */
static void
exec_describe(PqMsgReader *r)
{
	int			kind = pq_getmsgbyte(r);
	const char *name = pq_getmsgstring(r);
	AnalyzedStmt *stmt;
	const int16_t *formats = NULL;

	pq_getmsgend(r);
	StartTransactionCommand();
	if (kind == PqDescribe_Statement)
	{
		stmt = FetchPreparedStatement(name, false)->stmt;
		check_not_aborted(stmt == NULL || stmt->ncolumns == 0);
		SendParameterDescription(stmt ? stmt->nparams : 0, stmt ? stmt->paramtypes : NULL);
	}
	else if (kind == PqDescribe_Portal)
	{
		Portal	   *portal = get_portal(name);

		stmt = portal->stmt;
		formats = portal->formats;
	}
	else
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid DESCRIBE message subtype %d", kind));
	if (stmt != NULL && stmt->kind == STMT_ROWS)
		SendRowDescription(stmt, formats);
	else
		SendEmptyMessage(PqMsg_NoData);
}

/* exec_close -- 'C': closing what does not exist is not an error */
static void
exec_close(PqMsgReader *r)
{
	int			kind = pq_getmsgbyte(r);
	const char *name = pq_getmsgstring(r);

	pq_getmsgend(r);
	if (kind == PqDescribe_Statement)
		DropPreparedStatement(name, true);
	else if (kind == PqDescribe_Portal)
	{
		Portal	   *portal = GetPortalByName(name);

		if (portal != NULL)
			PortalDrop(portal);
	}
	else
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid CLOSE message subtype %d", kind));
	SendEmptyMessage(PqMsg_CloseComplete);
}

/* ---------- the message loop ---------- */

static size_t
max_message_length(int type)
{
	switch (type)
	{
		case PqMsg_Query:
		case PqMsg_Parse:
		case PqMsg_Bind:
		case PqMsg_FunctionCall:
		case PqMsg_CopyData:
			return PQ_LARGE_MESSAGE_LIMIT;
		default:
			return PQ_SMALL_MESSAGE_LIMIT;
	}
}

/* recover_from_error -- the loop's sigsetjmp landing point for ERROR */
static void
recover_from_error(void)
{
	MemoryContextSwitchTo(TopMemoryContext);
	if (pending_statement != NULL)
		DropPreparedStatement(pending_statement->name, true);
	if (pending_portal != NULL)
		PortalDrop(pending_portal);
	if (ActivePortal != NULL)
		PortalDrop(ActivePortal);	/* its execution state is half-way */
	pending_statement = NULL;
	pending_portal = NULL;
	AbortCurrentTransaction();
	FlushErrorState();
	if (doing_extended_query)
		ignore_till_sync = true;
	else
		send_ready_for_query = true;
}

/* report_idle -- the session waits for its client: pg_stat_activity and the process title say how */
static void
report_idle(char status)
{
	BackendStatusState state = status == PqTrans_InBlock ? STATE_IDLEINTRANSACTION
		: status == PqTrans_Failed ? STATE_IDLEINTRANSACTION_ABORTED : STATE_IDLE;

	/* a failed transaction has ended for PostgreSQL's view too: no xact_start */
	pgstat_report_activity(state, NULL, application_name,
						   state == STATE_IDLEINTRANSACTION ? GetCurrentTransactionStartTimestamp() : 0);
	set_ps_display(state == STATE_IDLEINTRANSACTION ? "idle in transaction"
				   : state == STATE_IDLEINTRANSACTION_ABORTED ? "idle in transaction (aborted)" : "idle", false);
}

/* BackendMessageLoop -- serve messages until Terminate or the end of the connection */
void
BackendMessageLoop(void)
{
	sigjmp_buf	local_sigjmp_buf;

	doing_extended_query = false;
	ignore_till_sync = false;
	send_ready_for_query = true;
	if (sigsetjmp(local_sigjmp_buf, 1) != 0)
		recover_from_error();
	PG_exception_stack = &local_sigjmp_buf;

	for (;;)
	{
		MemoryContextSwitchTo(MessageContext);
		debug_query_string = NULL;
		doing_extended_query = false;
		if (send_ready_for_query)
		{
			ReportChangedGucs(SendParameterStatus, NULL);
			report_idle(TransactionBlockStatusCode());
			ReadyForQuery(TransactionBlockStatusCode());
			send_ready_for_query = false;
		}

		/*
		 * No write lock of the cache while the client is waited for; taken
		 * after the reply, the changes of a DuckLake commit batch
		 * are no longer part of the client's wait.
		 */
		CacheMessageEnd(true);
		KeptScanPublishDue();
		MemoryContextReset(MessageContext);
		StatementInterruptsEnd();	/* a cancel that arrives while idle cancels nothing */

		int			type = pq_getmsgtype();
		uint8_t    *body;
		size_t		len;
		PqMsgReader r;

		if (type == EOF_ON_CLIENT || pq_getmsgbody((char) type, &body, &len, max_message_length(type)) != 0)
		{
			if (IsTransactionBlock())
				ereport(COMMERROR,
						errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("unexpected EOF on client connection with an open transaction"));
			break;
		}

		/*
		 * A reload signalled while the session waited applies to the message that
		 * ended the wait, as in PostgreSQL (checked after the read, not before it)
		 */
		if (ConfigReloadPending)
		{
			ConfigReloadPending = 0;
			ProcessConfigFile(ConfigFileName, true);
		}
		if (type == PqMsg_Terminate)
			break;
		pq_initreader(&r, (char) type, body, len);
		doing_extended_query = strchr("PBEDCHS", type) != NULL;
		if (ignore_till_sync && type != PqMsg_Sync)
			continue;

		switch (type)
		{
			case PqMsg_Query:
				{
					const char *query = pq_getmsgstring(&r);

					pq_getmsgend(&r);
					exec_simple_query(query);
					send_ready_for_query = true;
					break;
				}
			case PqMsg_Parse:
				exec_parse(&r);
				break;
			case PqMsg_Bind:
				exec_bind(&r);
				break;
			case PqMsg_Execute:
				exec_execute(&r);
				break;
			case PqMsg_Describe:
				exec_describe(&r);
				break;
			case PqMsg_Close:
				exec_close(&r);
				break;
			case PqMsg_Flush:
				pq_getmsgend(&r);
				pq_flush();
				break;
			case PqMsg_Sync:
				pq_getmsgend(&r);
				ignore_till_sync = false;
				CommitTransactionCommand();
				send_ready_for_query = true;
				break;
			case PqMsg_CopyData:
			case PqMsg_CopyDone:
			case PqMsg_CopyFail:
				break;			/* stray COPY messages are ignored, per protocol */
			case PqMsg_FunctionCall:
				ereport(ERROR,
						errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("fast-path function calls are not supported"));
				break;
			default:
				ereport(FATAL,
						errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("invalid frontend message type %d", type));
		}
	}
	PG_exception_stack = NULL;
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
BackendInitSignals(int sock)
{
	static RlBuf crash_notice;
	static RlBuf immediate_notice;

	build_notice(&crash_notice, ERRCODE_CRASH_SHUTDOWN,
				 "terminating connection because of crash of another server process",
				 "The postmaster has commanded this server process to roll back the current "
				 "transaction and exit, because another server process exited abnormally and "
				 "possibly corrupted shared memory.",
				 "In a moment you should be able to reconnect to the database and repeat your command.");
	build_notice(&immediate_notice, ERRCODE_ADMIN_SHUTDOWN,
				 "terminating connection due to immediate shutdown command", NULL, NULL);
	InitBackendSignals(sock, &crash_notice, &immediate_notice);
	writer_wait_interrupted = InterruptRaisePending;	/* a writer that does not answer */
}

void
BackendMain(const BackendStartupInfo *info)
{
	MemoryContextInit();
	BackendInitSignals(info->client_sock);
	BackendInitCache();
	MyLogIdentity.backend_type = "client backend";
	MyLogIdentity.remote_host = info->remote_host;
	MyLogIdentity.remote_port = info->remote_port;
	pq_init(info->client_sock, info->remote_host, info->remote_port,
			info->first_packet, info->first_packet_len);
	elog_set_client_sink(SendErrorToClient);

	MemoryContextSwitchTo(SessionContext);
	start_session(info);
	BackendMessageLoop();
	exit(0);
}
