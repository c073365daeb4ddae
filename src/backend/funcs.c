/*
 * funcs.c: the builtin SQL functions: version(), pg_sleep(), current_setting(),
 * set_config(), current_user and friends, now() and the other clocks, a few
 * string helpers, arrays (array_to_string, array_upper, unnest), the
 * set-returning generate_series(), and what psql's describe commands call to
 * read the catalog (format_type, pg_get_userbyid, pg_get_constraintdef,
 * obj_description, pg_size_pretty, ...). Those that must look a row up in the
 * catalog are lookups in a system relation (FuncDesc.catalog) that the analyser
 * writes into the query over the cache. Lookup is by name and argument count;
 * an argument may be widened implicitly (int4 to int8 or float8, oid to
 * regclass, unknown literals to anything), as PostgreSQL's function resolution
 * would, and anyarray takes any array.
 */
#include <stdio.h>
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

/* reset_value -- the value RESET would give a setting (DescribeConfigOptions' callback) */
static void
reset_value(const GucInfo *info, void *arg)
{
	const char **found = arg;

	if (strcmp(info->name, found[0]) == 0)
		found[1] = info->reset_val;
}

/*
 * f_set_config -- set_config(name, value, is_local), not strict: a NULL value is the
 * setting's reset value, a NULL is_local false, as in PostgreSQL
 */
static Value
f_set_config(ExecState *es, const Value *args, int nargs)
{
	const char *msg = NULL,
			   *sqlstate = NULL;
	bool		local = !args[2].isnull && args[2].u.b;

	if (args[0].isnull)
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("SET requires parameter name"));

	const char *name = args[0].u.s.data;
	const char *value = args[1].isnull ? NULL : args[1].u.s.data;

	if (value == NULL && !local)
	{
		if (!ResetConfigOption(name))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("unrecognized configuration parameter \"%s\"", name));
		return text_value(GetConfigOption(name));
	}
	if (value == NULL)
	{
		const char *found[2] = {name, NULL};

		DescribeConfigOptions(reset_value, found);
		value = found[1] ? found[1] : "";
	}
	if (!(local ? set_config_option_local(name, value, &msg, &sqlstate) :
		  set_config_option(name, value, PGC_S_SESSION, false, &msg, &sqlstate)))
		ereport(ERROR,
				errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s", msg ? msg : "invalid configuration change"));
	return text_value(GetConfigOption(name));
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

	return ExecCastValue(&now, DATEOID, -1, true);
}

static Value
f_localtime(ExecState *es, const Value *args, int nargs)
{
	Value		now = f_now(es, args, nargs);

	return ExecCastValue(&now, TIMEOID, -1, true);
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

/* ---------- arrays ---------- */

static Value
f_array_to_string(ExecState *es, const Value *args, int nargs)
{
	ArrayElements elems = typio_array_parse(args[0].u.s.data);
	RlBuf		b;
	bool		first = true;

	rlbuf_init_in(&b, CurrentMemoryContext);
	for (int i = 0; i < elems.n; i++)
	{
		if (elems.items[i] == NULL)
			continue;			/* PostgreSQL skips NULL elements without a null string */
		if (!first)
			rlbuf_append(&b, args[1].u.s.data, args[1].u.s.len);
		rlbuf_append_str(&b, elems.items[i]);
		first = false;
	}
	Value		v = typio_string(TEXTOID, b.data ? rlbuf_cstr(&b) : "", b.len);

	rlbuf_free(&b);
	return v;
}

static Value
f_array_upper(ExecState *es, const Value *args, int nargs)
{
	ArrayElements elems = typio_array_parse(args[0].u.s.data);

	return elems.n == 0 || args[1].u.i != 1 ? typio_null(INT4OID) : typio_int(INT4OID, elems.n);
}

/* set-returning functions give their whole set as an array */

static Value
f_unnest(ExecState *es, const Value *args, int nargs)
{
	return args[0];
}

/*
 * f_generate_series -- the series as an integer array, written as its text form
 * directly (integers need no quotes): one buffer that doubles, not an allocation
 * per element, and an interrupt check every GENERATE_SERIES_CHECK elements, since
 * a series of a hundred million elements takes seconds to write
 */
#define GENERATE_SERIES_CHECK 65536

static Value
f_generate_series(ExecState *es, const Value *args, int nargs)
{
	int64_t		step = nargs > 2 ? args[2].u.i : 1;
	RlBuf		text;
	int64_t		n = 0;
	Value		v;

	if (step == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("step size cannot equal zero"));
	rlbuf_init_in(&text, CurrentMemoryContext);
	rlbuf_append_str(&text, "{");
	for (int64_t i = args[0].u.i; step > 0 ? i <= args[1].u.i : i >= args[1].u.i; n++)
	{
		char		digits[24];

		if (n % GENERATE_SERIES_CHECK == GENERATE_SERIES_CHECK - 1)
			CHECK_FOR_INTERRUPTS();
		rlbuf_append(&text, digits, (size_t) snprintf(digits, sizeof(digits), n ? ",%lld" : "%lld", (long long) i));
		if (__builtin_add_overflow(i, step, &i))
			break;
	}
	rlbuf_append_str(&text, "}");
	v = typio_string(typio_array_type(args[0].type), rlbuf_cstr(&text), text.len);
	rlbuf_free(&text);
	return v;
}

/* f_pg_partition_ancestors -- RockLake has no partitions: no rows for any relation */
static Value
f_pg_partition_ancestors(ExecState *es, const Value *args, int nargs)
{
	return typio_string(OIDARRAYOID, "{}", 2);
}

/* ---------- catalog information that needs no lookup ---------- */

/* f_pg_get_userbyid -- the roles pg_roles lists (syscat.c), else PostgreSQL's placeholder */
static Value
f_pg_get_userbyid(ExecState *es, const Value *args, int nargs)
{
	const char *name = args[0].u.i == BOOTSTRAP_SUPERUSERID ? MyUserName
		: args[0].u.i == ROLE_PG_DATABASE_OWNER ? "pg_database_owner"
		: psprintf("unknown (OID=%lld)", (long long) args[0].u.i);

	return typio_string(NAMEOID, name, strlen(name));
}

/* to_reg -- to_regclass, to_regtype, to_regnamespace: the object named, or NULL if there is none */
static Value
to_reg(Oid type, const Value *name)
{
	Oid			found = SystemRegLookup(type, name->u.s.data);

	return found == InvalidOid ? typio_null(type) : typio_int(type, found);
}

static Value
f_to_regclass(ExecState *es, const Value *args, int nargs)
{
	return to_reg(REGCLASSOID, &args[0]);
}

static Value
f_to_regtype(ExecState *es, const Value *args, int nargs)
{
	return to_reg(REGTYPEOID, &args[0]);
}

static Value
f_to_regnamespace(ExecState *es, const Value *args, int nargs)
{
	return to_reg(REGNAMESPACEOID, &args[0]);
}

static Value
f_pg_encoding_to_char(ExecState *es, const Value *args, int nargs)
{
	const char *name = args[0].u.i == PG_UTF8_ENCODING ? "UTF8" : "";

	return typio_string(NAMEOID, name, strlen(name));
}

/* f_format_type -- not strict: a NULL typmod is "no modifier", a NULL type gives NULL */
static Value
f_format_type(ExecState *es, const Value *args, int nargs)
{
	if (args[0].isnull)
		return typio_null(TEXTOID);
	Oid			type = (Oid) args[0].u.i;
	char	   *name = typio_lookup(type) ? typio_format_type_typmod(type, args[1].isnull ? -1 : (int32_t) args[1].u.i)
		: pstrdup("???");

	return text_value(name);
}

/* f_pg_get_expr -- pg_node_tree holds an expression as its SQL text already */
static Value
f_pg_get_expr(ExecState *es, const Value *args, int nargs)
{
	return typio_string(TEXTOID, args[0].u.s.data, args[0].u.s.len);
}

/* f_pg_size_pretty -- PostgreSQL's units and rounding (half up, one spare bit) */
static Value
f_pg_size_pretty(ExecState *es, const Value *args, int nargs)
{
	static const char *const units[] = {"kB", "MB", "GB", "TB", "PB"};
	const int64_t limit = 10 * 1024,
				limit2 = limit * 2 - 1;
	int64_t		size = args[0].u.i;

	if ((size < 0 ? -size : size) < limit)
		return text_value(psprintf("%lld bytes", (long long) size));
	size >>= 9;
	for (size_t u = 0;; u++)
	{
		if ((size < 0 ? -size : size) < limit2 || u == sizeof(units) / sizeof(units[0]) - 1)
			return text_value(psprintf("%lld %s", (long long) ((size + (size < 0 ? -1 : 1)) / 2), units[u]));
		size >>= 10;
	}
}

/*
 * f_zero_size -- pg_table_size, pg_database_size, ...: the rows live in the object
 * store and a table has no size of its own in the cache; 0 rather than a guess
 */
static Value
f_zero_size(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT8OID, 0);
}

static Value
f_true(ExecState *es, const Value *args, int nargs)
{
	return typio_bool(true);
}

/* f_tablespace_location -- the built-in tablespaces are in the data directory: '' */
static Value
f_tablespace_location(ExecState *es, const Value *args, int nargs)
{
	return text_value("");
}

/* f_no_definition -- pg_get_triggerdef and the like: there are no such objects */
static Value
f_no_definition(ExecState *es, const Value *args, int nargs)
{
	return typio_null(TEXTOID);
}

#define BUILTIN(name, nargs, argtypes, rettype, strict, fn) \
	{name, nargs, argtypes, rettype, strict, false, fn, NULL, NULL, {NULL, NULL}}
#define SETOF(name, nargs, argtypes, rettype, fn) \
	{name, nargs, argtypes, rettype, true, true, fn, NULL, NULL, {NULL, NULL}}
#define LOOKUP(name, nargs, argtypes, catalog, column, key1, key2) \
	{name, nargs, argtypes, TEXTOID, true, false, NULL, catalog, column, {key1, key2}}
#define ARGS(...) {__VA_ARGS__}

static const FuncDesc builtins[] = {
	BUILTIN("version", 0, {0}, TEXTOID, true, f_version),
	BUILTIN("pg_sleep", 1, {FLOAT8OID}, VOIDOID, true, f_pg_sleep),
	BUILTIN("current_setting", 1, {TEXTOID}, TEXTOID, true, f_current_setting),
	BUILTIN("current_setting", 2, ARGS(TEXTOID, BOOLOID), TEXTOID, true, f_current_setting),
	BUILTIN("set_config", 3, ARGS(TEXTOID, TEXTOID, BOOLOID), TEXTOID, false, f_set_config),
	BUILTIN("current_user", 0, {0}, NAMEOID, true, f_current_user),
	BUILTIN("session_user", 0, {0}, NAMEOID, true, f_current_user),
	BUILTIN("current_database", 0, {0}, NAMEOID, true, f_current_database),
	BUILTIN("current_schema", 0, {0}, NAMEOID, true, f_current_schema),
	BUILTIN("now", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("transaction_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("statement_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("clock_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_clock_timestamp),
	BUILTIN("localtimestamp", 0, {0}, TIMESTAMPOID, true, f_localtimestamp),
	BUILTIN("localtime", 0, {0}, TIMEOID, true, f_localtime),
	BUILTIN("current_date", 0, {0}, DATEOID, true, f_current_date),
	BUILTIN("pg_backend_pid", 0, {0}, INT4OID, true, f_pg_backend_pid),
	BUILTIN("pg_is_in_recovery", 0, {0}, BOOLOID, true, f_false),
	BUILTIN("length", 1, {TEXTOID}, INT4OID, true, f_length),
	BUILTIN("lower", 1, {TEXTOID}, TEXTOID, true, f_lower),
	BUILTIN("upper", 1, {TEXTOID}, TEXTOID, true, f_upper),
	BUILTIN("array_to_string", 2, ARGS(ANYARRAYOID, TEXTOID), TEXTOID, true, f_array_to_string),
	BUILTIN("array_upper", 2, ARGS(ANYARRAYOID, INT4OID), INT4OID, true, f_array_upper),
	/* the catalog as psql's describe commands read it */
	BUILTIN("pg_get_userbyid", 1, {OIDOID}, NAMEOID, true, f_pg_get_userbyid),
	BUILTIN("to_regclass", 1, {TEXTOID}, REGCLASSOID, true, f_to_regclass),
	BUILTIN("to_regtype", 1, {TEXTOID}, REGTYPEOID, true, f_to_regtype),
	BUILTIN("to_regnamespace", 1, {TEXTOID}, REGNAMESPACEOID, true, f_to_regnamespace),
	BUILTIN("pg_encoding_to_char", 1, {INT4OID}, NAMEOID, true, f_pg_encoding_to_char),
	BUILTIN("format_type", 2, ARGS(OIDOID, INT4OID), TEXTOID, false, f_format_type),
	BUILTIN("pg_get_expr", 2, ARGS(PGNODETREEOID, OIDOID), TEXTOID, true, f_pg_get_expr),
	BUILTIN("pg_get_expr", 3, ARGS(PGNODETREEOID, OIDOID, BOOLOID), TEXTOID, true, f_pg_get_expr),
	BUILTIN("pg_size_pretty", 1, {INT8OID}, TEXTOID, true, f_pg_size_pretty),
	BUILTIN("pg_table_size", 1, {REGCLASSOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_relation_size", 1, {REGCLASSOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_total_relation_size", 1, {REGCLASSOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_database_size", 1, {NAMEOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_tablespace_size", 1, {OIDOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_table_is_visible", 1, {OIDOID}, BOOLOID, true, f_true),	/* all in pg_catalog or public */
	BUILTIN("pg_relation_is_publishable", 1, {REGCLASSOID}, BOOLOID, true, f_true),
	BUILTIN("has_database_privilege", 2, ARGS(NAMEOID, TEXTOID), BOOLOID, true, f_true),
	BUILTIN("pg_has_role", 2, ARGS(NAMEOID, TEXTOID), BOOLOID, true, f_true),
	BUILTIN("pg_get_triggerdef", 2, ARGS(OIDOID, BOOLOID), TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_statisticsobjdef_columns", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_viewdef", 2, ARGS(OIDOID, BOOLOID), TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_function_result", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_function_arguments", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_function_sqlbody", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_function_is_visible", 1, {OIDOID}, BOOLOID, true, f_true),
	BUILTIN("pg_tablespace_location", 1, {OIDOID}, TEXTOID, true, f_tablespace_location),
	LOOKUP("pg_get_constraintdef", 1, {OIDOID}, "pg_constraint", "_rl_condef", "oid", NULL),
	LOOKUP("pg_get_constraintdef", 2, ARGS(OIDOID, BOOLOID), "pg_constraint", "_rl_condef", "oid", NULL),
	LOOKUP("pg_get_indexdef", 1, {OIDOID}, "pg_class", "_rl_indexdef", "oid", NULL),
	LOOKUP("pg_get_indexdef", 3, ARGS(OIDOID, INT4OID, BOOLOID), "index_definition", "definition", "indexrelid",
		   "colno"),
	LOOKUP("obj_description", 2, ARGS(OIDOID, NAMEOID), "pg_description", "description", "objoid",
		   "_rl_classname"),
	LOOKUP("col_description", 2, ARGS(OIDOID, INT4OID), "pg_description", "description", "objoid",
		   "objsubid"),
	LOOKUP("shobj_description", 2, ARGS(OIDOID, NAMEOID), "pg_shdescription", "description", "objoid",
		   "_rl_classname"),
	/* set-returning; the executor iterates generate_series in a query without tables itself */
	SETOF("generate_series", 2, ARGS(INT4OID, INT4OID), INT4OID, f_generate_series),
	SETOF("generate_series", 3, ARGS(INT4OID, INT4OID, INT4OID), INT4OID, f_generate_series),
	SETOF("generate_series", 2, ARGS(INT8OID, INT8OID), INT8OID, f_generate_series),
	SETOF("generate_series", 3, ARGS(INT8OID, INT8OID, INT8OID), INT8OID, f_generate_series),
	SETOF("unnest", 1, {ANYARRAYOID}, ANYELEMENTOID, f_unnest),
	SETOF("pg_partition_ancestors", 1, {REGCLASSOID}, REGCLASSOID, f_pg_partition_ancestors),
};

bool
FunctionNeedsCache(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0 &&
			(builtins[i].catalog != NULL || (builtins[i].returns_set && builtins[i].fn != f_generate_series)))
			return true;
	return false;
}

/* arg_cost -- 0 exact, 1 implicit widening, -1 impossible */
static int
arg_cost(Oid given, Oid wanted)
{
	const TypeInfo *given_type = typio_lookup(given);

	if (given == wanted || (wanted == ANYARRAYOID && given_type && given_type->category == TYPCATEGORY_ARRAY))
		return 0;
	if (typio_is_oid(given) && typio_is_oid(wanted))
		return 1;				/* oid and the reg* types are binary-compatible */
	if (given == UNKNOWNOID)
		return wanted == ANYARRAYOID ? -1 : 1;
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
