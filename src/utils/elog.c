/*
 * elog.c: ereport()/elog() (see elog.h), after PostgreSQL's elog.c.
 *
 * A report is built on a small stack of ErrorData (a report raised while another is
 * being emitted gets its own slot), sent to the server log and to the client sink as
 * the levels say, and then, for ERROR, control jumps to the process's recovery point;
 * FATAL exits and PANIC aborts. Report texts are malloc'd, not palloc'd: an error may
 * be about memory, and the message context is reset by the very recovery that
 * handles it. Each log line is written with one write(2), so lines from several
 * processes sharing stderr or a log file never interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/rl_buffer.h"
#include "utils/elog.h"

#define ERRORDATA_STACK_SIZE 5

static ErrorData errordata[ERRORDATA_STACK_SIZE];
static int	errordata_depth = -1;
static bool emit_to_server[ERRORDATA_STACK_SIZE];
static bool emit_to_client[ERRORDATA_STACK_SIZE];
static ErrorClientSink client_sink;
static int	log_fd = STDERR_FILENO;
static long log_line_number;

sigjmp_buf *PG_exception_stack = NULL;
LogIdentity MyLogIdentity = {.backend_type = "postmaster"};
char	   *Log_line_prefix = "%m [%p] ";
int			log_min_messages = WARNING;
int			client_min_messages = NOTICE;
const char *debug_query_string = NULL;
bool		FatalSkipsCleanup = false;

const char *
error_severity(int elevel)
{
	switch (elevel)
	{
		case DEBUG5:
		case DEBUG1:
			return "DEBUG";
		case LOG:
		case COMMERROR:
			return "LOG";
		case INFO:
			return "INFO";
		case NOTICE:
			return "NOTICE";
		case WARNING:
			return "WARNING";
		case ERROR:
			return "ERROR";
		case FATAL:
			return "FATAL";
		case PANIC:
			return "PANIC";
	}
	return "???";
}

/*
 * For the server log LOG ranks between ERROR and FATAL (PostgreSQL's rule): a
 * log_min_messages of WARNING still logs LOG lines, one of FATAL does not.
 */
static bool
should_log(int elevel)
{
	if (elevel == LOG || elevel == COMMERROR)
		return log_min_messages == LOG || log_min_messages <= ERROR;
	if (log_min_messages == LOG)
		return elevel >= FATAL;
	return elevel >= log_min_messages;
}

static bool
should_tell_client(int elevel)
{
	if (client_sink == NULL || elevel == COMMERROR)
		return false;
	if (elevel >= ERROR)
		return true;
	/* for the client LOG ranks below NOTICE, as in PostgreSQL */
	if (elevel == LOG)
		return client_min_messages <= LOG;
	return elevel >= client_min_messages && elevel != LOG;
}

void
elog_set_client_sink(ErrorClientSink sink)
{
	client_sink = sink;
}

void
elog_set_log_file(const char *path)
{
	if (log_fd != STDERR_FILENO)
		close(log_fd);
	log_fd = STDERR_FILENO;
	if (path && path[0])
	{
		int			fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0)
			log_fd = fd;
		else
			fprintf(stderr, "could not open log file \"%s\": %s\n", path, strerror(errno));
	}
}

static void
format_time(RlBuf *out, bool with_ms)
{
	struct timeval tv;
	struct tm	tm;
	char		buf[64];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	rlbuf_append_str(out, buf);
	if (with_ms)
		rlbuf_printf(out, ".%03d", (int) (tv.tv_usec / 1000));
	rlbuf_append_str(out, " UTC");
}

static void
append_or_empty(RlBuf *out, const char *s)
{
	if (s)
		rlbuf_append_str(out, s);
}

/* Expand log_line_prefix (PostgreSQL's escapes) for one line. */
static void
append_prefix(RlBuf *out, const char *sqlstate)
{
	const LogIdentity *id = &MyLogIdentity;

	log_line_number++;
	for (const char *p = Log_line_prefix ? Log_line_prefix : ""; *p; p++)
	{
		if (*p != '%' || p[1] == '\0')
		{
			rlbuf_put_u8(out, (uint8_t) *p);
			continue;
		}
		switch (*++p)
		{
			case 'm':
				format_time(out, true);
				break;
			case 't':
				format_time(out, false);
				break;
			case 'p':
				rlbuf_printf(out, "%d", (int) getpid());
				break;
			case 'u':
				append_or_empty(out, id->user_name);
				break;
			case 'd':
				append_or_empty(out, id->database_name);
				break;
			case 'a':
				append_or_empty(out, id->application_name);
				break;
			case 'h':
				append_or_empty(out, id->remote_host);
				break;
			case 'r':
				append_or_empty(out, id->remote_host);
				if (id->remote_port && id->remote_port[0])
					rlbuf_printf(out, "(%s)", id->remote_port);
				break;
			case 'b':
				append_or_empty(out, id->backend_type);
				break;
			case 'e':
				rlbuf_append_str(out, sqlstate ? sqlstate : ERRCODE_SUCCESSFUL_COMPLETION);
				break;
			case 'l':
				rlbuf_printf(out, "%ld", log_line_number);
				break;
			case '%':
				rlbuf_put_u8(out, '%');
				break;
			default:
				/* unknown escapes are dropped, as PostgreSQL does */
				break;
		}
	}
}

static void
write_line_buffer(RlBuf *line)
{
	size_t		done = 0;

	while (done < line->len)
	{
		ssize_t		n = write(log_fd, line->data + done, line->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t) n;
	}
}

static void
append_field(RlBuf *out, const char *sqlstate, const char *label, const char *text)
{
	if (text == NULL)
		return;
	append_prefix(out, sqlstate);
	rlbuf_printf(out, "%s:  %s\n", label, text);
}

static void
send_to_server_log(const ErrorData *e)
{
	RlBuf		line;

	rlbuf_init(&line);
	append_field(&line, e->sqlstate, error_severity(e->elevel), e->message ? e->message : "missing error text");
	append_field(&line, e->sqlstate, "DETAIL", e->detail);
	append_field(&line, e->sqlstate, "HINT", e->hint);
	append_field(&line, e->sqlstate, "CONTEXT", e->context);
	if (e->elevel >= ERROR && debug_query_string)
		append_field(&line, e->sqlstate, "STATEMENT", debug_query_string);
	write_line_buffer(&line);
	rlbuf_free(&line);
}

void
write_server_log(int elevel, const char *sqlstate, const char *message)
{
	ErrorData	e = {.elevel = elevel, .sqlstate = sqlstate, .message = (char *) message};

	send_to_server_log(&e);
}

static void
free_errordata(ErrorData *e)
{
	free(e->message);
	free(e->detail);
	free(e->hint);
	free(e->context);
	free(e->schema_name);
	free(e->table_name);
	free(e->column_name);
	free(e->constraint_name);
	memset(e, 0, sizeof(*e));
}

bool
errstart(int elevel, const char *filename, int lineno, const char *funcname)
{
	bool		to_server,
				to_client;

	/* an ERROR with nowhere to recover ends the process: it is FATAL, as PostgreSQL says */
	if (elevel == ERROR && PG_exception_stack == NULL)
		elevel = FATAL;
	to_server = should_log(elevel);
	to_client = should_tell_client(elevel);
	if (elevel < ERROR && !to_server && !to_client)
		return false;
	if (errordata_depth + 1 >= ERRORDATA_STACK_SIZE)
	{
		/* reporting keeps failing: give up on the report machinery */
		write_server_log(PANIC, ERRCODE_INTERNAL_ERROR, "ERRORDATA_STACK_SIZE exceeded");
		abort();
	}
	ErrorData  *e = &errordata[++errordata_depth];

	memset(e, 0, sizeof(*e));
	e->elevel = elevel;
	e->sqlstate = elevel >= ERROR ? ERRCODE_INTERNAL_ERROR :
		elevel == WARNING ? ERRCODE_WARNING : ERRCODE_SUCCESSFUL_COMPLETION;
	e->filename = filename;
	e->lineno = lineno;
	e->funcname = funcname;
	emit_to_server[errordata_depth] = to_server;
	emit_to_client[errordata_depth] = to_client;
	return true;
}

/* Format into a malloc'd string (NULL if even that fails). */
static char *
format_message(const char *fmt, va_list ap)
{
	va_list		copy;

	va_copy(copy, ap);
	int			n = vsnprintf(NULL, 0, fmt, copy);

	va_end(copy);
	char	   *s = n >= 0 ? malloc((size_t) n + 1) : NULL;

	if (s)
		vsnprintf(s, (size_t) n + 1, fmt, ap);
	return s;
}

#define SET_FIELD(field) \
	do { \
		ErrorData  *e = &errordata[errordata_depth]; \
		va_list		ap; \
		va_start(ap, fmt); \
		free(e->field); \
		e->field = format_message(fmt, ap); \
		va_end(ap); \
	} while (0)

int
errcode(const char *sqlstate)
{
	ErrorData  *e = &errordata[errordata_depth];

	snprintf(e->sqlstate_buf, sizeof(e->sqlstate_buf), "%s", sqlstate);
	e->sqlstate = e->sqlstate_buf;
	return 0;
}

int
errmsg(const char *fmt, ...)
{
	SET_FIELD(message);
	return 0;
}

int
errmsg_internal(const char *fmt, ...)
{
	SET_FIELD(message);
	return 0;
}

int
errdetail(const char *fmt, ...)
{
	SET_FIELD(detail);
	return 0;
}

int
errhint(const char *fmt, ...)
{
	SET_FIELD(hint);
	return 0;
}

int
errcontext_msg(const char *fmt, ...)
{
	SET_FIELD(context);
	return 0;
}

int
errtableconstraint(const char *schema, const char *table, const char *column, const char *constraint)
{
	ErrorData  *e = &errordata[errordata_depth];

	e->schema_name = schema ? strdup(schema) : NULL;
	e->table_name = table ? strdup(table) : NULL;
	e->column_name = column ? strdup(column) : NULL;
	e->constraint_name = constraint ? strdup(constraint) : NULL;
	return 0;
}

int
errposition(int cursorpos)
{
	errordata[errordata_depth].cursorpos = cursorpos;
	return 0;
}

ErrorContextCallback *error_context_stack;

ErrorData *
CurrentErrorData(void)
{
	return &errordata[errordata_depth];
}

void
errfinish(void)
{
	ErrorData  *e = &errordata[errordata_depth];
	int			elevel = e->elevel;

	for (ErrorContextCallback *c = error_context_stack; c != NULL; c = c->previous)
		c->callback(c->arg);

	if (emit_to_server[errordata_depth])
		send_to_server_log(e);
	if (emit_to_client[errordata_depth])
		client_sink(e);
	if (elevel == ERROR && PG_exception_stack != NULL)
		siglongjmp(*PG_exception_stack, 1);	/* the report stays until FlushErrorState */
	if (elevel >= ERROR)
	{
		if (elevel == PANIC)
			abort();
		if (FatalSkipsCleanup)
			_exit(1);
		exit(1);				/* FATAL, or ERROR with nowhere to recover */
	}
	free_errordata(e);
	errordata_depth--;
}

ErrorData *
CopyErrorData(void)
{
	return errordata_depth >= 0 ? &errordata[errordata_depth] : NULL;
}

void
FlushErrorState(void)
{
	while (errordata_depth >= 0)
		free_errordata(&errordata[errordata_depth--]);
}
