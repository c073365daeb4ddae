/*
 * elog.h: error reporting and logging, after PostgreSQL's elog.c.
 *
 *   ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
 *           errmsg("relation \"%s\" does not exist", name), errposition(pos));
 *
 * An ERROR longjmps to the innermost PG_TRY / sigsetjmp recovery point (the backend's
 * message loop: send 'E', discard until Sync, abort the transaction); FATAL sends the
 * error and exits the process; PANIC aborts (the postmaster then resets every child);
 * WARNING/NOTICE/INFO go to the client as NoticeResponse if the session wants them;
 * LOG goes to the server log only. The message text follows PostgreSQL's style guide
 * and, where a client may match on it, PostgreSQL's wording.
 *
 * The server log line starts with log_line_prefix (%m %p %u %d %a %r %e %t %l %%
 * ...); where the line goes (stderr or a file) is set by the postmaster. A backend
 * installs a client sink to turn reports into protocol messages.
 */
#ifndef RL_ELOG_H
#define RL_ELOG_H

#include <setjmp.h>
#include <stdbool.h>

#include "utils/errcodes.h"

/* levels, in PostgreSQL's order */
#define DEBUG5		10
#define DEBUG1		14
#define LOG			15
#define COMMERROR	16			/* log only, never to the client */
#define INFO		17
#define NOTICE		18
#define WARNING		19
#define ERROR		21
#define FATAL		22
#define PANIC		23

/* One report being built; fields are palloc'd in ErrorContext. */
typedef struct ErrorData
{
	int			elevel;
	const char *sqlstate;		/* five characters, e.g. "42P01" */
	char		sqlstate_buf[6];	/* errcode() copies here: callers may pass a temporary */
	char	   *message;
	char	   *detail;
	char	   *hint;
	char	   *context;
	char	   *schema_name;	/* the object a constraint violation is about (errtable ...) */
	char	   *table_name;
	char	   *column_name;
	char	   *constraint_name;
	int			cursorpos;		/* 1-based character position in the query, 0 if none */
	const char *filename;
	int			lineno;
	const char *funcname;
} ErrorData;

/* ereport(level, errcode(...), errmsg(...), ...) */
#define ereport(elevel, ...) \
	do { \
		if (errstart((elevel), __FILE__, __LINE__, __func__)) \
		{ \
			__VA_ARGS__; \
			errfinish(); \
		} \
		if ((elevel) >= ERROR) \
			__builtin_unreachable(); \
	} while (0)

/* elog(ERROR, "internal: ...") for can't-happen conditions (XX000) */
#define elog(elevel, ...) \
	ereport((elevel), errmsg_internal(__VA_ARGS__))

bool		errstart(int elevel, const char *filename, int lineno, const char *funcname);
void		errfinish(void);
int			errcode(const char *sqlstate);
int			errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int			errmsg_internal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int			errdetail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int			errhint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int			errcontext_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int			errposition(int cursorpos);
/* the schema, table, column (NULL: none) and constraint (NULL: none) of a constraint violation */
int			errtableconstraint(const char *schema, const char *table, const char *column, const char *constraint);

/*
 * Context callbacks, as PostgreSQL's error_context_stack: errfinish calls each on the
 * stack, innermost first, before the report goes anywhere, so that it can add to the
 * report (errposition, errcontext_msg) of whatever code raised it. Whoever pushes one
 * pops it, also when an ERROR passes (catching it, popping, and resuming the recovery
 * with siglongjmp to the recovery point it found).
 */
typedef struct ErrorContextCallback
{
	struct ErrorContextCallback *previous;
	void		(*callback) (void *arg);
	void	   *arg;
} ErrorContextCallback;
extern ErrorContextCallback *error_context_stack;
/* the report being finished, for a context callback (its cursorpos, to set one) */
ErrorData  *CurrentErrorData(void);

/*
 * Recovery point for ERROR. A process sets PG_exception_stack to its own jmp_buf
 * (sigsetjmp) before its loop; ERROR then longjmps there with the report still
 * available through CopyErrorData() until FlushErrorState().
 */
extern sigjmp_buf *PG_exception_stack;
ErrorData  *CopyErrorData(void);
void		FlushErrorState(void);

/*
 * Set when the process state can no longer be trusted (a fault was caught): FATAL
 * then ends the process with _exit, skipping atexit handlers and sanitizer checks
 * that would trip over the half-finished work.
 */
extern bool FatalSkipsCleanup;

/* Where client-visible reports go (the backend sends 'E' / 'N'); NULL: nowhere. */
typedef void (*ErrorClientSink) (const ErrorData *edata);
void		elog_set_client_sink(ErrorClientSink sink);

/* Process identity used by log_line_prefix escapes. */
typedef struct LogIdentity
{
	const char *user_name;		/* %u */
	const char *database_name;	/* %d */
	const char *application_name;	/* %a */
	const char *remote_host;	/* %r (host(port)) and %h (host) */
	const char *remote_port;
	const char *backend_type;	/* %b: postmaster, client backend, writer */
} LogIdentity;
extern LogIdentity MyLogIdentity;

/* Settings read by the logger (defaults: "%m [%p] ", stderr, LOG). */
extern char *Log_line_prefix;
extern int	log_min_messages;
extern int	client_min_messages;
/* Redirect the server log to a file (append); NULL or "" means stderr. */
void		elog_set_log_file(const char *path);

/* The statement being executed, for the STATEMENT: line of logged errors (or NULL). */
extern const char *debug_query_string;

/* Write one line to the server log, as a LOG report would, without the report machinery. */
void		write_server_log(int elevel, const char *sqlstate, const char *message);

/* Severity names as sent on the wire ("ERROR", "FATAL", ...). */
const char *error_severity(int elevel);

#endif
