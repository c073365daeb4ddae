/*
 * funcs.c: the builtin SQL functions the clients call before any table exists:
 * version(), pg_sleep(), current_setting(), set_config(), current_user and
 * friends, now() and the other clocks, generate_series(), and a few string
 * helpers. Lookup is by name and argument count; an argument may be widened
 * implicitly (int4 to int8 or float8, unknown literals to anything), as
 * PostgreSQL's function resolution would.
 */
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "elog.h"
#include "executor.h"
#include "guc.h"
#include "mcxt.h"
#include "miscadmin.h"
#include "xact.h"

static Value
text_value(const char *s)
{
	return typio_string(TEXTOID, s, strlen(s));
}

static Value
f_version(ExecState *es, const Value *args, int nargs)
{
	return text_value("PostgreSQL " PG_VERSION " (RockLake " PACKAGE_VERSION
					  ") on x86_64-pc-linux-gnu, compiled by gcc, 64-bit");
}

/*
 * f_pg_sleep -- sleep in slices of at most 100 ms, checking for a cancel or a
 * termination request after each (signals also cut a slice short)
 */
static Value
f_pg_sleep(ExecState *es, const Value *args, int nargs)
{
	struct timespec now,
				end;
	double		secs = args[0].u.f;

	clock_gettime(CLOCK_MONOTONIC, &end);
	if (secs > 0)
	{
		end.tv_sec += (time_t) secs;
		end.tv_nsec += (long) ((secs - (double) (time_t) secs) * 1e9);
		if (end.tv_nsec >= 1000000000L)
		{
			end.tv_sec++;
			end.tv_nsec -= 1000000000L;
		}
	}
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t		left_ns = (int64_t) (end.tv_sec - now.tv_sec) * 1000000000 + (end.tv_nsec - now.tv_nsec);

		if (left_ns <= 0)
			break;
		struct timespec slice = {0, left_ns < 100000000 ? (long) left_ns : 100000000L};

		nanosleep(&slice, NULL);
	}
	return typio_null(VOIDOID);
}

static Value
f_current_setting(ExecState *es, const Value *args, int nargs)
{
	const char *value = GetConfigOption(args[0].u.s.data);

	if (value != NULL)
		return text_value(value);
	if (nargs > 1 && args[1].u.b)
		return typio_null(TEXTOID);
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_OBJECT),
			errmsg("unrecognized configuration parameter \"%s\"", args[0].u.s.data));
	return typio_null(TEXTOID);
}

static Value
f_set_config(ExecState *es, const Value *args, int nargs)
{
	const char *msg = NULL,
			   *sqlstate = NULL;

	if (!(args[2].u.b ?
		  set_config_option_local(args[0].u.s.data, args[1].u.s.data, &msg, &sqlstate) :
		  set_config_option(args[0].u.s.data, args[1].u.s.data, PGC_S_SESSION, false, &msg, &sqlstate)))
		ereport(ERROR,
				errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s", msg ? msg : "invalid configuration change"));
	return text_value(GetConfigOption(args[0].u.s.data));
}

static Value
f_current_user(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, MyUserName, strlen(MyUserName));
}

static Value
f_current_database(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, MyDatabaseName, strlen(MyDatabaseName));
}

static Value
f_current_schema(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, "public", 6);
}

static Value
f_now(ExecState *es, const Value *args, int nargs)
{
	return typio_int(TIMESTAMPTZOID, GetCurrentTransactionStartTimestamp());
}

static Value
f_clock_timestamp(ExecState *es, const Value *args, int nargs)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return typio_int(TIMESTAMPTZOID, ((int64_t) tv.tv_sec - 946684800) * 1000000 + tv.tv_usec);
}

static Value
f_localtimestamp(ExecState *es, const Value *args, int nargs)
{
	return typio_int(TIMESTAMPOID, GetCurrentTransactionStartTimestamp());
}

static Value
f_current_date(ExecState *es, const Value *args, int nargs)
{
	Value		now = f_now(es, args, nargs);

	return ExecCastValue(&now, DATEOID, -1);
}

static Value
f_localtime(ExecState *es, const Value *args, int nargs)
{
	Value		now = f_now(es, args, nargs);

	return ExecCastValue(&now, TIMEOID, -1);
}

static Value
f_pg_backend_pid(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT4OID, MyProcPid);
}

static Value
f_false(ExecState *es, const Value *args, int nargs)
{
	return typio_bool(false);
}

/* f_length -- characters, counting UTF-8 sequences */
static Value
f_length(ExecState *es, const Value *args, int nargs)
{
	int64_t		n = 0;

	for (size_t i = 0; i < args[0].u.s.len; i++)
		if (((unsigned char) args[0].u.s.data[i] & 0xC0) != 0x80)
			n++;
	return typio_int(INT4OID, n);
}

static Value
change_case(const Value *v, bool upper)
{
	Value		r = typio_string(TEXTOID, v->u.s.data, v->u.s.len);

	for (size_t i = 0; i < r.u.s.len; i++)
	{
		char		c = r.u.s.data[i];

		if (upper && c >= 'a' && c <= 'z')
			r.u.s.data[i] = (char) (c - 'a' + 'A');
		else if (!upper && c >= 'A' && c <= 'Z')
			r.u.s.data[i] = (char) (c - 'A' + 'a');
	}
	return r;
}

static Value
f_lower(ExecState *es, const Value *args, int nargs)
{
	return change_case(&args[0], false);
}

static Value
f_upper(ExecState *es, const Value *args, int nargs)
{
	return change_case(&args[0], true);
}

static const FuncDesc builtins[] = {
	{"version", 0, {0}, TEXTOID, true, false, f_version},
	{"pg_sleep", 1, {FLOAT8OID}, VOIDOID, true, false, f_pg_sleep},
	{"current_setting", 1, {TEXTOID}, TEXTOID, true, false, f_current_setting},
	{"current_setting", 2, {TEXTOID, BOOLOID}, TEXTOID, true, false, f_current_setting},
	{"set_config", 3, {TEXTOID, TEXTOID, BOOLOID}, TEXTOID, false, false, f_set_config},
	{"current_user", 0, {0}, NAMEOID, true, false, f_current_user},
	{"session_user", 0, {0}, NAMEOID, true, false, f_current_user},
	{"current_database", 0, {0}, NAMEOID, true, false, f_current_database},
	{"current_schema", 0, {0}, NAMEOID, true, false, f_current_schema},
	{"now", 0, {0}, TIMESTAMPTZOID, true, false, f_now},
	{"transaction_timestamp", 0, {0}, TIMESTAMPTZOID, true, false, f_now},
	{"statement_timestamp", 0, {0}, TIMESTAMPTZOID, true, false, f_now},
	{"clock_timestamp", 0, {0}, TIMESTAMPTZOID, true, false, f_clock_timestamp},
	{"localtimestamp", 0, {0}, TIMESTAMPOID, true, false, f_localtimestamp},
	{"localtime", 0, {0}, TIMEOID, true, false, f_localtime},
	{"current_date", 0, {0}, DATEOID, true, false, f_current_date},
	{"pg_backend_pid", 0, {0}, INT4OID, true, false, f_pg_backend_pid},
	{"pg_is_in_recovery", 0, {0}, BOOLOID, true, false, f_false},
	{"length", 1, {TEXTOID}, INT4OID, true, false, f_length},
	{"lower", 1, {TEXTOID}, TEXTOID, true, false, f_lower},
	{"upper", 1, {TEXTOID}, TEXTOID, true, false, f_upper},
	/* set-returning: the executor iterates, fn is never called */
	{"generate_series", 2, {INT4OID, INT4OID}, INT4OID, true, true, NULL},
	{"generate_series", 3, {INT4OID, INT4OID, INT4OID}, INT4OID, true, true, NULL},
	{"generate_series", 2, {INT8OID, INT8OID}, INT8OID, true, true, NULL},
	{"generate_series", 3, {INT8OID, INT8OID, INT8OID}, INT8OID, true, true, NULL},
};

/* arg_cost -- 0 exact, 1 implicit widening, -1 impossible */
static int
arg_cost(Oid given, Oid wanted)
{
	if (given == wanted)
		return 0;
	if (given == UNKNOWNOID)
		return 1;
	const TypeInfo *g = typio_lookup(given),
			   *w = typio_lookup(wanted);

	if (g && w && g->category == w->category &&
		(g->category == TYPCATEGORY_STRING ||
		 (g->category == TYPCATEGORY_NUMERIC && g->numeric_rank <= w->numeric_rank && given != OIDOID)))
		return 1 + (w->numeric_rank - g->numeric_rank);
	return -1;
}

const FuncDesc *
LookupBuiltinFunction(const char *name, int nargs, const Oid *argtypes)
{
	const FuncDesc *best = NULL;
	int			best_cost = 0;

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
	{
		const FuncDesc *f = &builtins[i];
		int			cost = 0;

		if (f->nargs != nargs || strcmp(f->name, name) != 0)
			continue;
		for (int a = 0; a < nargs && cost >= 0; a++)
		{
			int			c = arg_cost(argtypes[a], f->argtypes[a]);

			cost = c < 0 ? -1 : cost + c;
		}
		if (cost >= 0 && (best == NULL || cost < best_cost))
		{
			best = f;
			best_cost = cost;
		}
	}
	return best;
}
