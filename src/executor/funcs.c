/*
 * funcs.c: the builtin SQL functions: version(), pg_sleep(), current_setting(),
 * set_config(), current_user and friends, now() and the other clocks, the
 * string functions (substring, position, trim, pad, split_part ..., counting
 * characters in UTF-8), the numeric ones (abs, round, trunc, floor, ceil, sqrt,
 * power, mod, random, gen_random_uuid, md5), extract / date_part / date_trunc, to_char
 * of a timestamp in the common patterns, format() (strformat.c),
 * arrays (array_to_string, array_upper, array_length, cardinality, unnest,
 * generate_subscripts), like_escape (LIKE ... ESCAPE), the
 * set-returning generate_series(), and what psql's describe commands call to
 * read the catalog (format_type, pg_get_userbyid, pg_get_constraintdef,
 * obj_description, pg_size_pretty, ...); those that describe or control the server
 * are funcs_admin.c's. Those that must look a row up in the
 * catalog are lookups in a system relation (FuncDesc.catalog) that the analyser
 * writes into the query over the cache. Lookup is by name and argument count;
 * an argument may be widened implicitly (int4 to int8 or float8, oid to
 * regclass, unknown literals to anything), as PostgreSQL's function resolution
 * would (double precision first: it is the numbers' preferred type), and
 * anyarray takes any array.
 *
 * The file is a little over 1 500 lines because of the builtins table at its end,
 * which every call is resolved against and which is kept whole; functions of one
 * concern live in funcs_string.c, funcs_admin.c, funcs_json.c, strformat.c,
 * numformat.c and regexp.c.
 */

#include "catalog/pg_authid.h"
#include "executor/funcs_internal.h"
#include "executor/numformat.h"
#include "executor/publish.h"
#include "executor/regexp.h"
#include "executor/strformat.h"
#include "utils/adt/timezone.h"

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
f_session_user(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, SessionUserName, strlen(SessionUserName));
}

static Value
f_current_database(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, MyDatabaseName, strlen(MyDatabaseName));
}

static Value
f_current_schema(ExecState *es, const Value *args, int nargs)
{
	return CurrentSchemaValue();
}

static Value
f_current_schemas(ExecState *es, const Value *args, int nargs)
{
	return CurrentSchemasValue(args[0].u.i != 0);
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
	return typio_int(TIMESTAMPTZOID, ((int64_t) tv.tv_sec - UNIX_EPOCH_SECS) * USECS_PER_SEC + tv.tv_usec);
}

static Value
f_localtimestamp(ExecState *es, const Value *args, int nargs)
{
	return typio_int(TIMESTAMPOID, session_tz_to_local(GetCurrentTransactionStartTimestamp()));
}

/* f_timezone -- timezone(zone, value), value AT TIME ZONE zone: timestamptz to its local time there, timestamp back */
static Value
f_timezone(ExecState *es, const Value *args, int nargs)
{
	const char *zone = args[0].u.s.data;

	if (args[1].type == TIMESTAMPTZOID)
		return typio_int(TIMESTAMPOID, timezone_to_local(zone, args[1].u.i));
	return typio_int(TIMESTAMPTZOID, timezone_local_to_utc(zone, args[1].u.i));
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

/* ---------- numbers ---------- */

static Value
f_abs_int(ExecState *es, const Value *args, int nargs)
{
	Oid			type = args[0].type;
	int64_t		min = type == INT2OID ? INT16_MIN : type == INT4OID ? INT32_MIN : INT64_MIN;

	if (args[0].u.i == min)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("%s out of range", type == INT2OID ? "smallint" : type == INT4OID ? "integer" : "bigint"));
	return typio_int(type, args[0].u.i < 0 ? -args[0].u.i : args[0].u.i);
}

static Value
f_abs_float(ExecState *es, const Value *args, int nargs)
{
	return typio_float(args[0].type, fabs(args[0].u.f));
}

static Value
f_abs_numeric(ExecState *es, const Value *args, int nargs)
{
	const char *s = args[0].u.s.data;

	return s[0] == '-' ? typio_string(NUMERICOID, s + 1, args[0].u.s.len - 1) : args[0];
}

/* f_round_float -- round(double precision): to the nearest integer, halves to even (rint) */
static Value
f_round_float(ExecState *es, const Value *args, int nargs)
{
	return typio_float(FLOAT8OID, rint(args[0].u.f));
}

static Value
f_floor_float(ExecState *es, const Value *args, int nargs)
{
	return typio_float(FLOAT8OID, floor(args[0].u.f));
}

static Value
f_ceil_float(ExecState *es, const Value *args, int nargs)
{
	return typio_float(FLOAT8OID, ceil(args[0].u.f));
}

static Value
f_trunc_float(ExecState *es, const Value *args, int nargs)
{
	return typio_float(FLOAT8OID, trunc(args[0].u.f));
}

/* f_round_numeric -- round(numeric [, scale]): half away from zero */
static Value
f_round_numeric(ExecState *es, const Value *args, int nargs)
{
	return numeric_round(&args[0], nargs > 1 ? (int) args[1].u.i : 0);
}

static Value
f_trunc_numeric(ExecState *es, const Value *args, int nargs)
{
	return numeric_trunc(&args[0], nargs > 1 ? (int) args[1].u.i : 0, 0);
}

static Value
f_floor_numeric(ExecState *es, const Value *args, int nargs)
{
	return numeric_trunc(&args[0], 0, -1);
}

static Value
f_ceil_numeric(ExecState *es, const Value *args, int nargs)
{
	return numeric_trunc(&args[0], 0, 1);
}

static Value
f_sqrt(ExecState *es, const Value *args, int nargs)
{
	if (args[0].u.f < 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
				errmsg("cannot take square root of a negative number"));
	return typio_float(FLOAT8OID, sqrt(args[0].u.f));
}

/* f_power -- power(x, y), pow: PostgreSQL's errors for what has no real value */
static Value
f_power(ExecState *es, const Value *args, int nargs)
{
	double		x = args[0].u.f,
				y = args[1].u.f;

	if (x == 0 && y < 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
				errmsg("zero raised to a negative power is undefined"));
	if (x < 0 && floor(y) != y)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION),
				errmsg("a negative number raised to a non-integer power yields a complex result"));

	double		r = pow(x, y);

	if (isinf(r) && !isinf(x) && !isinf(y))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("value out of range: overflow"));
	return typio_float(FLOAT8OID, r);
}

static Value
f_mod(ExecState *es, const Value *args, int nargs)
{
	if (args[1].u.i == 0)
		ereport(ERROR,
				errcode(ERRCODE_DIVISION_BY_ZERO),
				errmsg("division by zero"));
	/* INT64_MIN % -1 traps in C; it is 0 */
	return typio_int(args[0].type, args[1].u.i == -1 ? 0 : args[0].u.i % args[1].u.i);
}

/* f_mod_numeric -- mod(numeric, numeric): the % operator's (numeric.c) */
static Value
f_mod_numeric(ExecState *es, const Value *args, int nargs)
{
	return numeric_mod(&args[0], &args[1]);
}

static Value
f_random(ExecState *es, const Value *args, int nargs)
{
	uint64_t	bits;

	if (RAND_bytes((unsigned char *) &bits, sizeof(bits)) != 1)
		elog(ERROR, "could not generate random bytes");
	return typio_float(FLOAT8OID, (double) (bits >> 11) / (double) (UINT64_C(1) << 53));
}

/* f_gen_random_uuid -- a version 4 UUID */
static Value
f_gen_random_uuid(ExecState *es, const Value *args, int nargs)
{
	Value		v = {.type = UUIDOID};

	if (RAND_bytes(v.u.uuid, sizeof(v.u.uuid)) != 1)
		elog(ERROR, "could not generate random bytes");
	v.u.uuid[6] = (uint8_t) ((v.u.uuid[6] & 0x0f) | 0x40);
	v.u.uuid[8] = (uint8_t) ((v.u.uuid[8] & 0x3f) | 0x80);
	return v;
}

static Value
f_md5(ExecState *es, const Value *args, int nargs)
{
	unsigned char digest[MD5_DIGEST_LENGTH];
	char		hex[2 * MD5_DIGEST_LENGTH + 1];

	if (EVP_Digest(args[0].u.s.data, args[0].u.s.len, digest, NULL, EVP_md5(), NULL) != 1)
		elog(ERROR, "could not compute an MD5 digest");
	for (int i = 0; i < MD5_DIGEST_LENGTH; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return text_of(hex, 2 * MD5_DIGEST_LENGTH);
}

/* ---------- parts of dates and times: extract, date_part, date_trunc ---------- */

typedef enum
{
	F_MICROSECONDS, F_MILLISECONDS, F_SECOND, F_MINUTE, F_HOUR, F_DAY, F_WEEK, F_MONTH,
	F_QUARTER, F_YEAR, F_DECADE, F_CENTURY, F_MILLENNIUM, F_DOW, F_ISODOW, F_DOY, F_ISOYEAR,
	F_EPOCH, F_TIMEZONE, F_TIMEZONE_HOUR, F_TIMEZONE_MINUTE
} DateField;

static const struct
{
	const char *name;
	DateField	field;
	bool		of_date;		/* also a field of a date */
	bool		truncates;		/* a unit of date_trunc */
	bool		monotonic;		/* +-Infinity of an infinite value, not NULL */
}			date_fields[] = {
	{"microsecond", F_MICROSECONDS, false, true, false}, {"microseconds", F_MICROSECONDS, false, true, false},
	{"us", F_MICROSECONDS, false, true, false},
	{"millisecond", F_MILLISECONDS, false, true, false}, {"milliseconds", F_MILLISECONDS, false, true, false},
	{"ms", F_MILLISECONDS, false, true, false},
	{"second", F_SECOND, false, true, false}, {"seconds", F_SECOND, false, true, false},
	{"minute", F_MINUTE, false, true, false}, {"minutes", F_MINUTE, false, true, false},
	{"hour", F_HOUR, false, true, false}, {"hours", F_HOUR, false, true, false},
	{"day", F_DAY, true, true, false}, {"days", F_DAY, true, true, false},
	{"week", F_WEEK, true, true, false}, {"weeks", F_WEEK, true, true, false},
	{"month", F_MONTH, true, true, false}, {"months", F_MONTH, true, true, false},
	{"quarter", F_QUARTER, true, true, false},
	{"year", F_YEAR, true, true, true}, {"years", F_YEAR, true, true, true},
	{"decade", F_DECADE, true, true, true}, {"decades", F_DECADE, true, true, true},
	{"century", F_CENTURY, true, true, true}, {"centuries", F_CENTURY, true, true, true},
	{"millennium", F_MILLENNIUM, true, true, true}, {"millennia", F_MILLENNIUM, true, true, true},
	{"dow", F_DOW, true, false, false}, {"isodow", F_ISODOW, true, false, false},
	{"doy", F_DOY, true, false, false}, {"isoyear", F_ISOYEAR, true, false, true},
	{"epoch", F_EPOCH, true, false, true},
	{"timezone", F_TIMEZONE, false, false, false}, {"timezone_hour", F_TIMEZONE_HOUR, false, false, false},
	{"timezone_minute", F_TIMEZONE_MINUTE, false, false, false},
};

/*
 * date_field -- the field a unit names (any case): 22023 for a name of none (or of
 * no unit of date_trunc), 0A000 for one that is no field of a date, as PostgreSQL says
 */
static int
date_field(const Value *unit, Oid type, bool trunc)
{
	char	   *lower = change_case(unit, false).u.s.data;

	for (size_t i = 0; i < sizeof(date_fields) / sizeof(date_fields[0]); i++)
	{
		if (strcmp(lower, date_fields[i].name) != 0 || (trunc && !date_fields[i].truncates))
			continue;
		if ((type == DATEOID && !date_fields[i].of_date) ||
			(type != TIMESTAMPTZOID && date_fields[i].field >= F_TIMEZONE))
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("unit \"%s\" not supported for type %s", lower, typio_format_type(type)));
		return (int) i;
	}
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("unit \"%s\" not recognized for type %s", lower, typio_format_type(type)));
	return -1;
}

/* The calendar parts of a finite timestamp (microseconds since 2000-01-01). */
typedef struct DateParts
{
	int64_t		days;			/* since 2000-01-01 */
	int64_t		usecs;			/* of the day */
	int			year,			/* astronomical: 0 is 1 BC */
				month,
				day;
} DateParts;

static DateParts
date_parts(int64_t ts)
{
	DateParts	p = {.days = ts / USECS_PER_DAY, .usecs = ts % USECS_PER_DAY};

	if (p.usecs < 0)
	{
		p.usecs += USECS_PER_DAY;
		p.days--;
	}
	date_to_ymd(p.days, &p.year, &p.month, &p.day);
	return p;
}

/* iso_week -- the ISO 8601 week and its year of a day: the week of its Thursday */
static int
iso_week(int64_t days, int *isoyear)
{
	int			isodow = (int) (((days + 5) % 7 + 7) % 7) + 1;	/* 2000-01-01 was a Saturday */
	int64_t		thursday = days - isodow + 4;
	int			y,
				m,
				d;

	date_to_ymd(thursday, &y, &m, &d);
	*isoyear = y;
	return (int) ((thursday - date_from_ymd(y, 1, 1)) / 7) + 1;
}

/* bc -- PostgreSQL's year of an astronomical one: no year 0, 1 BC is -1 */
static int64_t
bc(int year)
{
	return year > 0 ? year : year - 1;
}

/*
 * date_part_of -- field of ts as a scaled integer (value = *scaled / 10^*scale),
 * false for the NULL of an infinite value's non-monotonic field
 */
static bool
date_part_of(int64_t ts, DateField f, bool infinite_sign, __int128 *scaled, int *scale, double *inf)
{
	*scaled = 0;
	*scale = 0;
	*inf = 0;
	if (!TIMESTAMP_IS_FINITE(ts))
	{
		*inf = infinite_sign ? INFINITY : -INFINITY;
		return false;
	}
	DateParts	p = date_parts(ts);
	int64_t		y = bc(p.year),
				sec_us = p.usecs % USECS_PER_MINUTE;
	int			isoyear;

	switch (f)
	{
		case F_MICROSECONDS:
			*scaled = sec_us;
			break;
		case F_MILLISECONDS:
			*scaled = sec_us;
			*scale = 3;
			break;
		case F_SECOND:
			*scaled = sec_us;
			*scale = 6;
			break;
		case F_MINUTE:
			*scaled = p.usecs / USECS_PER_MINUTE % 60;
			break;
		case F_HOUR:
			*scaled = p.usecs / USECS_PER_HOUR;
			break;
		case F_DAY:
			*scaled = p.day;
			break;
		case F_MONTH:
			*scaled = p.month;
			break;
		case F_QUARTER:
			*scaled = (p.month - 1) / 3 + 1;
			break;
		case F_YEAR:
			*scaled = y;
			break;
		case F_DECADE:			/* PostgreSQL's rules, on the astronomical year */
			*scaled = p.year >= 0 ? p.year / 10 : -((8 - (p.year - 1)) / 10);
			break;
		case F_CENTURY:
			*scaled = p.year > 0 ? (p.year + 99) / 100 : -((99 - (p.year - 1)) / 100);
			break;
		case F_MILLENNIUM:
			*scaled = p.year > 0 ? (p.year + 999) / 1000 : -((999 - (p.year - 1)) / 1000);
			break;
		case F_DOW:
			*scaled = ((p.days + 6) % 7 + 7) % 7;
			break;
		case F_ISODOW:
			*scaled = ((p.days + 5) % 7 + 7) % 7 + 1;
			break;
		case F_DOY:
			*scaled = p.days - date_from_ymd(p.year, 1, 1) + 1;
			break;
		case F_WEEK:
			*scaled = iso_week(p.days, &isoyear);
			break;
		case F_ISOYEAR:
			iso_week(p.days, &isoyear);
			*scaled = bc(isoyear);
			break;
		case F_EPOCH:
			*scaled = (__int128) ts + (__int128) UNIX_EPOCH_SECS * USECS_PER_SEC;
			*scale = 6;
			break;
		case F_TIMEZONE:
		case F_TIMEZONE_HOUR:
		case F_TIMEZONE_MINUTE:
			break;				/* part() answers these from the zone */
	}
	return true;
}

/* part -- extract (numeric) or date_part (double precision) of a timestamp, timestamptz or date */
static Value
part(const Value *unit, const Value *v, bool numeric)
{
	int			i = date_field(unit, v->type, false);
	bool		is_date = v->type == DATEOID;
	int64_t		ts = !is_date ? v->u.i
		: v->u.i == DATE_NOEND ? DT_NOEND : v->u.i == DATE_NOBEGIN ? DT_NOBEGIN : v->u.i * USECS_PER_DAY;

	/* a timestamptz's fields are its local time's; its epoch is the instant's */
	if (date_fields[i].field >= F_TIMEZONE && TIMESTAMP_IS_FINITE(ts))
	{
		int32_t		east = session_tz_offset(ts),
					n = date_fields[i].field == F_TIMEZONE ? east
			: date_fields[i].field == F_TIMEZONE_HOUR ? east / 3600 : east / 60 % 60;

		return numeric ? numeric_from_scaled(n, 0) : typio_float(FLOAT8OID, n);
	}
	if (v->type == TIMESTAMPTZOID && date_fields[i].field != F_EPOCH)
		ts = session_tz_to_local(ts);
	__int128	scaled;
	int			scale;
	double		inf;

	if (!date_part_of(ts, date_fields[i].field, ts == DT_NOEND, &scaled, &scale, &inf))
	{
		if (!date_fields[i].monotonic)
			return typio_null(numeric ? NUMERICOID : FLOAT8OID);
		return numeric ? typio_string(NUMERICOID, inf > 0 ? "Infinity" : "-Infinity", inf > 0 ? 8 : 9)
			: typio_float(FLOAT8OID, inf);
	}
	if (is_date && date_fields[i].field == F_EPOCH)
	{
		scaled /= USECS_PER_SEC;	/* a date's epoch has no fraction */
		scale = 0;
	}
	if (!numeric)
	{
		double		d = (double) scaled;

		for (int k = 0; k < scale; k++)
			d /= 10;
		return typio_float(FLOAT8OID, d);
	}
	return numeric_from_scaled(scaled, scale);
}

static Value
f_extract(ExecState *es, const Value *args, int nargs)
{
	return part(&args[0], &args[1], true);
}

static Value
f_date_part(ExecState *es, const Value *args, int nargs)
{
	return part(&args[0], &args[1], false);
}

/*
 * f_to_char_timestamp -- to_char(timestamp or timestamptz, text) for the common patterns: YYYY MM DD
 * HH24 HH12 HH MI SS MS US AM PM, between spaces, punctuation and "quoted text"; any
 * other letter (lower case too), a backslash, and a year before 1 AD, are 0A000 rather than an answer PostgreSQL
 * would not give. An infinite timestamp gives NULL, as in PostgreSQL.
 */
static Value
f_to_char_timestamp(ExecState *es, const Value *args, int nargs)
{
	static const char *const tokens[] = {"YYYY", "HH24", "HH12", "HH", "MM", "DD", "MI", "SS", "MS", "US",
	"AM", "PM"};
	/* a timestamptz is shown in its local time, as its text is */
	int64_t		ts = args[0].type == TIMESTAMPTZOID ? session_tz_to_local(args[0].u.i) : args[0].u.i;

	if (!TIMESTAMP_IS_FINITE(ts))
		return typio_null(TEXTOID);

	DateParts	p = date_parts(ts);
	const char *f = args[1].u.s.data,
			   *end = f + args[1].u.s.len;
	int			hour = (int) (p.usecs / USECS_PER_HOUR);
	RlBuf		out;

	if (p.year < 1)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("to_char of a year before 1 AD is not supported"));
	rlbuf_init_in(&out, CurrentMemoryContext);
	while (f < end)
	{
		size_t		t = 0,
					tl = 0;

		if (*f == '"')
		{
			while (++f < end && *f != '"')
			{
				if (*f == '\\' && f + 1 < end)
					f++;
				rlbuf_append(&out, f, 1);
			}
			f++;
			continue;
		}
		if (!((*f >= 'A' && *f <= 'Z') || (*f >= 'a' && *f <= 'z') || *f == '\\'))
		{
			rlbuf_append(&out, f++, 1);
			continue;
		}
		for (; t < sizeof(tokens) / sizeof(tokens[0]); t++)
		{
			tl = strlen(tokens[t]);
			if ((size_t) (end - f) >= tl && memcmp(f, tokens[t], tl) == 0)
				break;
		}
		if (t == sizeof(tokens) / sizeof(tokens[0]) || (t == 7 && end - f >= 4 && memcmp(f, "SSSS", 4) == 0))
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("to_char pattern \"%.*s\" is not supported", (int) (end - f), f));
		switch (t)
		{
			case 0:
				rlbuf_printf(&out, "%04d", p.year);
				break;
			case 1:
				rlbuf_printf(&out, "%02d", hour);
				break;
			case 2:
			case 3:
				rlbuf_printf(&out, "%02d", hour % 12 == 0 ? 12 : hour % 12);
				break;
			case 4:
				rlbuf_printf(&out, "%02d", p.month);
				break;
			case 5:
				rlbuf_printf(&out, "%02d", p.day);
				break;
			case 6:
				rlbuf_printf(&out, "%02d", (int) (p.usecs / USECS_PER_MINUTE % 60));
				break;
			case 7:
				rlbuf_printf(&out, "%02d", (int) (p.usecs / USECS_PER_SEC % 60));
				break;
			case 8:
				rlbuf_printf(&out, "%03d", (int) (p.usecs % USECS_PER_SEC / 1000));
				break;
			case 9:
				rlbuf_printf(&out, "%06d", (int) (p.usecs % USECS_PER_SEC));
				break;
			default:
				rlbuf_append_str(&out, hour < 12 ? "AM" : "PM");
				break;
		}
		f += tl;
	}

	Value		r = typio_string(TEXTOID, out.len ? (const char *) out.data : "", out.len);

	rlbuf_free(&out);
	return r;
}

/* truncate_timestamp -- the start of a finite timestamp's unit field */
static int64_t
truncate_timestamp(int field, int64_t ts)
{
	DateParts	p = date_parts(ts);
	int64_t		unit_us = 0;
	int			y = p.year,
				m = p.month,
				d = p.day;

	switch (field)
	{
		case F_MICROSECONDS:
			return ts;
		case F_MILLISECONDS:
			unit_us = 1000;
			break;
		case F_SECOND:
			unit_us = USECS_PER_SEC;
			break;
		case F_MINUTE:
			unit_us = USECS_PER_MINUTE;
			break;
		case F_HOUR:
			unit_us = USECS_PER_HOUR;
			break;
		case F_DAY:
			break;
		case F_WEEK:			/* its Monday */
			return (p.days - ((p.days + 5) % 7 + 7) % 7) * USECS_PER_DAY;
		case F_QUARTER:
			m = (m - 1) / 3 * 3 + 1;
			d = 1;
			break;
		case F_MONTH:
			d = 1;
			break;
		case F_YEAR:
			m = d = 1;
			break;
		case F_DECADE:			/* PostgreSQL's rules, on the astronomical year */
			y = y > 0 ? y / 10 * 10 : -((8 - (y - 1)) / 10) * 10;
			m = d = 1;
			break;
		case F_CENTURY:
			y = y > 0 ? (y + 99) / 100 * 100 - 99 : -((99 - (y - 1)) / 100) * 100 + 1;
			m = d = 1;
			break;
		case F_MILLENNIUM:
			y = y > 0 ? (y + 999) / 1000 * 1000 - 999 : -((999 - (y - 1)) / 1000) * 1000 + 1;
			m = d = 1;
			break;
		default:
			break;
	}
	if (unit_us)
		return p.days * USECS_PER_DAY + p.usecs / unit_us * unit_us;
	return date_from_ymd(y, m, d) * USECS_PER_DAY;
}

/*
 * f_date_trunc -- date_trunc(unit, timestamp or timestamptz): the start of its unit. A
 * timestamptz is cut in its local time: below a day by what the cut takes off (its
 * offset kept, as PostgreSQL does), from a day up at the unit's local start, whose
 * offset may differ.
 */
static Value
f_date_trunc(ExecState *es, const Value *args, int nargs)
{
	int			i = date_field(&args[0], args[1].type, true);
	int64_t		ts = args[1].u.i;

	if (!TIMESTAMP_IS_FINITE(ts))
		return args[1];
	if (args[1].type != TIMESTAMPTZOID)
		return typio_int(args[1].type, truncate_timestamp(date_fields[i].field, ts));

	int64_t		local = session_tz_to_local(ts),
				cut = truncate_timestamp(date_fields[i].field, local);

	return typio_int(TIMESTAMPTZOID, date_fields[i].of_date ? session_tz_local_to_utc(cut) : ts - (local - cut));
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

/*
 * f_array_remove -- array_remove(text[], text): the elements other than the value
 * (NULL removes the NULLs); of text arrays, the one kind pg_dump gives it
 */
static Value
f_array_remove(ExecState *es, const Value *args, int nargs)
{
	if (args[0].isnull)
		return typio_null(TEXTARRAYOID);
	ArrayElements elems = typio_array_parse(args[0].u.s.data);
	int			kept = 0;

	for (int i = 0; i < elems.n; i++)
		if (args[1].isnull ? elems.items[i] != NULL
			: elems.items[i] == NULL || strcmp(elems.items[i], args[1].u.s.data) != 0)
			elems.items[kept++] = elems.items[i];
	elems.n = kept;
	return typio_array_build(TEXTARRAYOID, &elems);
}

/* f_array_upper -- array_upper, array_length: one dimension, from 1 (NULL if empty) */
static Value
f_array_upper(ExecState *es, const Value *args, int nargs)
{
	ArrayElements elems = typio_array_parse(args[0].u.s.data);

	return elems.n == 0 || args[1].u.i != 1 ? typio_null(INT4OID) : typio_int(INT4OID, elems.n);
}

/* f_generate_subscripts -- generate_subscripts(array, dim): dimension 1's subscripts, as a set */
static Value
f_generate_subscripts(ExecState *es, const Value *args, int nargs)
{
	int			n = args[1].u.i == 1 ? typio_array_parse(args[0].u.s.data).n : 0;
	int			lower = typio_array_lower(args[0].type);
	ArrayElements elems = {n, palloc(sizeof(char *) * (size_t) (n + 1))};

	for (int i = 0; i < n; i++)
		elems.items[i] = psprintf("%d", lower + i);
	return typio_array_build(INT4ARRAYOID, &elems);
}

/* f_cardinality -- the number of elements */
static Value
f_cardinality(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT4OID, typio_array_parse(args[0].u.s.data).n);
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

/* f_pg_get_userbyid -- the roles pg_roles lists (pg_authid.c), else PostgreSQL's placeholder */
static Value
f_pg_get_userbyid(ExecState *es, const Value *args, int nargs)
{
	const char *name = RoleNameById((Oid) args[0].u.i);

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
f_to_regproc(ExecState *es, const Value *args, int nargs)
{
	return to_reg(REGPROCOID, &args[0]);
}

static Value
f_to_regprocedure(ExecState *es, const Value *args, int nargs)
{
	return to_reg(REGPROCEDUREOID, &args[0]);
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

/*
 * f_pg_char_to_encoding -- the counterpart of pg_encoding_to_char: UTF8, RockLake's one
 * encoding, by any of its spellings (case and punctuation ignored, as PostgreSQL does)
 */
static Value
f_pg_char_to_encoding(ExecState *es, const Value *args, int nargs)
{
	char		clean[16];
	size_t		n = 0;

	for (size_t i = 0; i < args[0].u.s.len && n + 1 < sizeof(clean); i++)
	{
		char		c = args[0].u.s.data[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			clean[n++] = c;
		else if (c >= 'A' && c <= 'Z')
			clean[n++] = (char) (c - 'A' + 'a');
	}
	clean[n] = '\0';
	return typio_int(INT4OID, strcmp(clean, "utf8") == 0 || strcmp(clean, "unicode") == 0
					 ? PG_UTF8_ENCODING : -1);
}

/* f_getdatabaseencoding -- every database is UTF8 */
static Value
f_getdatabaseencoding(ExecState *es, const Value *args, int nargs)
{
	return typio_string(NAMEOID, "UTF8", 4);
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

/*
 * f_acldefault -- acldefault(objtype, owner): the privileges an object of that kind
 * has when its ACL is NULL, as PostgreSQL 15 writes them (the owner's all, none of
 * a column's, PUBLIC's USAGE of languages and types, EXECUTE of functions, TEMP and
 * CONNECT of databases)
 */
static Value
f_acldefault(ExecState *es, const Value *args, int nargs)
{
	static const struct
	{
		char		objtype;
		const char *owner;		/* the owner's privileges (a column's are its table's) */
		const char *public;		/* PUBLIC's, if any */
	}			defaults[] = {
		{'c', NULL, NULL}, {'r', "arwdDxt", NULL}, {'s', "rwU", NULL}, {'d', "CTc", "Tc"},
		{'f', "X", "X"}, {'l', "U", "U"}, {'L', "rw", NULL}, {'n', "UC", NULL}, {'t', "C", NULL},
		{'F', "U", NULL}, {'S', "U", NULL}, {'T', "U", "U"}, {'p', "sA", NULL},
	};
	Oid			owner = (Oid) args[1].u.i;
	char		objtype = args[0].u.s.len == 1 ? args[0].u.s.data[0] : '\0';
	const char *name = RoleNameById(owner);
	RlBuf		acl;

	/* aclitem's output quotes a name with anything but letters, digits and _ */
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") < strlen(name))
		name = psprintf("\"%s\"", name);
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
	{
		if (defaults[i].objtype != objtype)
			continue;
		rlbuf_init_in(&acl, CurrentMemoryContext);
		rlbuf_append_str(&acl, "{");
		if (defaults[i].public)
			rlbuf_printf(&acl, "=%s/%s,", defaults[i].public, name);
		if (defaults[i].owner)
			rlbuf_printf(&acl, "%s=%s/%s", name, defaults[i].owner, name);
		rlbuf_append_str(&acl, "}");
		return typio_string(ACLITEMARRAYOID, (const char *) acl.data, acl.len);
	}
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("unrecognized object type abbreviation: %c", objtype));
	return typio_null(ACLITEMARRAYOID);
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

/* f_zero_size -- pg_tablespace_size: the tablespaces hold no files of their own */
static Value
f_zero_size(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT8OID, 0);
}

/* f_no_object -- the pg_*_is_visible of a catalog with no rows: NULL, as for any unknown OID */
static Value
f_no_object(ExecState *es, const Value *args, int nargs)
{
	return typio_null(BOOLOID);
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

/* f_no_sequence -- pg_get_serial_sequence: there are no sequences */
static Value
f_no_sequence(ExecState *es, const Value *args, int nargs)
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
/* a relation's bytes in the cache, looked up in relation_size (catalog/pg_stat.h) */
#define SIZE_LOOKUP(name, column) \
	{name, 1, {REGCLASSOID}, INT8OID, true, false, NULL, "relation_size", column, {"relid", NULL}}

static const FuncDesc builtins[] = {
	BUILTIN("version", 0, {0}, TEXTOID, true, f_version),
	BUILTIN("abs", 1, {INT2OID}, INT2OID, true, f_abs_int),
	BUILTIN("abs", 1, {INT4OID}, INT4OID, true, f_abs_int),
	BUILTIN("abs", 1, {INT8OID}, INT8OID, true, f_abs_int),
	BUILTIN("abs", 1, {FLOAT4OID}, FLOAT4OID, true, f_abs_float),
	BUILTIN("abs", 1, {FLOAT8OID}, FLOAT8OID, true, f_abs_float),
	BUILTIN("abs", 1, {NUMERICOID}, NUMERICOID, true, f_abs_numeric),
	BUILTIN("round", 1, {FLOAT8OID}, FLOAT8OID, true, f_round_float),
	BUILTIN("round", 1, {NUMERICOID}, NUMERICOID, true, f_round_numeric),
	BUILTIN("round", 2, ARGS(NUMERICOID, INT4OID), NUMERICOID, true, f_round_numeric),
	BUILTIN("trunc", 1, {FLOAT8OID}, FLOAT8OID, true, f_trunc_float),
	BUILTIN("trunc", 1, {NUMERICOID}, NUMERICOID, true, f_trunc_numeric),
	BUILTIN("trunc", 2, ARGS(NUMERICOID, INT4OID), NUMERICOID, true, f_trunc_numeric),
	BUILTIN("floor", 1, {FLOAT8OID}, FLOAT8OID, true, f_floor_float),
	BUILTIN("floor", 1, {NUMERICOID}, NUMERICOID, true, f_floor_numeric),
	BUILTIN("ceil", 1, {FLOAT8OID}, FLOAT8OID, true, f_ceil_float),
	BUILTIN("ceil", 1, {NUMERICOID}, NUMERICOID, true, f_ceil_numeric),
	BUILTIN("ceiling", 1, {FLOAT8OID}, FLOAT8OID, true, f_ceil_float),
	BUILTIN("ceiling", 1, {NUMERICOID}, NUMERICOID, true, f_ceil_numeric),
	BUILTIN("sqrt", 1, {FLOAT8OID}, FLOAT8OID, true, f_sqrt),
	BUILTIN("power", 2, ARGS(FLOAT8OID, FLOAT8OID), FLOAT8OID, true, f_power),
	BUILTIN("pow", 2, ARGS(FLOAT8OID, FLOAT8OID), FLOAT8OID, true, f_power),
	BUILTIN("mod", 2, ARGS(INT2OID, INT2OID), INT2OID, true, f_mod),
	BUILTIN("mod", 2, ARGS(INT4OID, INT4OID), INT4OID, true, f_mod),
	BUILTIN("mod", 2, ARGS(INT8OID, INT8OID), INT8OID, true, f_mod),
	BUILTIN("mod", 2, ARGS(NUMERICOID, NUMERICOID), NUMERICOID, true, f_mod_numeric),
	BUILTIN("random", 0, {0}, FLOAT8OID, false, f_random),
	BUILTIN("gen_random_uuid", 0, {0}, UUIDOID, false, f_gen_random_uuid),
	BUILTIN("md5", 1, {TEXTOID}, TEXTOID, true, f_md5),
	BUILTIN("extract", 2, ARGS(TEXTOID, TIMESTAMPOID), NUMERICOID, true, f_extract),
	BUILTIN("extract", 2, ARGS(TEXTOID, TIMESTAMPTZOID), NUMERICOID, true, f_extract),
	BUILTIN("extract", 2, ARGS(TEXTOID, DATEOID), NUMERICOID, true, f_extract),
	BUILTIN("date_part", 2, ARGS(TEXTOID, TIMESTAMPOID), FLOAT8OID, true, f_date_part),
	BUILTIN("date_part", 2, ARGS(TEXTOID, TIMESTAMPTZOID), FLOAT8OID, true, f_date_part),
	BUILTIN("date_part", 2, ARGS(TEXTOID, DATEOID), FLOAT8OID, true, f_date_part),
	BUILTIN("date_trunc", 2, ARGS(TEXTOID, TIMESTAMPOID), TIMESTAMPOID, true, f_date_trunc),
	BUILTIN("to_char", 2, ARGS(TIMESTAMPOID, TEXTOID), TEXTOID, true, f_to_char_timestamp),
	BUILTIN("to_char", 2, ARGS(TIMESTAMPTZOID, TEXTOID), TEXTOID, true, f_to_char_timestamp),
	BUILTIN("to_char", 2, ARGS(INT4OID, TEXTOID), TEXTOID, true, f_to_char_int),
	BUILTIN("to_char", 2, ARGS(INT8OID, TEXTOID), TEXTOID, true, f_to_char_int),
	BUILTIN("to_char", 2, ARGS(NUMERICOID, TEXTOID), TEXTOID, true, f_to_char_numeric),
	BUILTIN("to_char", 2, ARGS(FLOAT4OID, TEXTOID), TEXTOID, true, f_to_char_float),
	BUILTIN("to_char", 2, ARGS(FLOAT8OID, TEXTOID), TEXTOID, true, f_to_char_float),
	BUILTIN("to_number", 2, ARGS(TEXTOID, TEXTOID), NUMERICOID, true, f_to_number),
	BUILTIN("date_trunc", 2, ARGS(TEXTOID, TIMESTAMPTZOID), TIMESTAMPTZOID, true, f_date_trunc),
	BUILTIN("char_length", 1, {TEXTOID}, INT4OID, true, f_length),
	BUILTIN("character_length", 1, {TEXTOID}, INT4OID, true, f_length),
	BUILTIN("octet_length", 1, {TEXTOID}, INT4OID, true, f_octet_length),
	BUILTIN("octet_length", 1, {BYTEAOID}, INT4OID, true, f_octet_length),
	BUILTIN("length", 1, {BYTEAOID}, INT4OID, true, f_octet_length),
	/* first: an unknown pattern, as in substring(x FROM '...'), is text, as in PostgreSQL */
	BUILTIN("substring", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_substring_regex),
	BUILTIN("substring", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_substring),
	BUILTIN("substring", 3, ARGS(TEXTOID, INT4OID, INT4OID), TEXTOID, true, f_substring),
	BUILTIN("substr", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_substring),
	BUILTIN("substr", 3, ARGS(TEXTOID, INT4OID, INT4OID), TEXTOID, true, f_substring),
	BUILTIN("strpos", 2, ARGS(TEXTOID, TEXTOID), INT4OID, true, f_strpos),
	BUILTIN("position", 2, ARGS(TEXTOID, TEXTOID), INT4OID, true, f_strpos),
	BUILTIN("regexp_replace", 3, ARGS(TEXTOID, TEXTOID, TEXTOID), TEXTOID, true, f_regexp_replace),
	BUILTIN("regexp_replace", 4, ARGS(TEXTOID, TEXTOID, TEXTOID, TEXTOID), TEXTOID, true, f_regexp_replace),
	BUILTIN("regexp_replace", 4, ARGS(TEXTOID, TEXTOID, TEXTOID, INT4OID), TEXTOID, true, f_regexp_replace_nth),
	BUILTIN("regexp_replace", 5, ARGS(TEXTOID, TEXTOID, TEXTOID, INT4OID, INT4OID), TEXTOID, true,
			f_regexp_replace_nth),
	BUILTIN("regexp_replace", 6, ARGS(TEXTOID, TEXTOID, TEXTOID, INT4OID, INT4OID, TEXTOID), TEXTOID, true,
			f_regexp_replace_nth),
	BUILTIN("regexp_match", 2, ARGS(TEXTOID, TEXTOID), TEXTARRAYOID, true, f_regexp_match),
	BUILTIN("regexp_match", 3, ARGS(TEXTOID, TEXTOID, TEXTOID), TEXTARRAYOID, true, f_regexp_match),
	BUILTIN("similar_to_escape", 1, {TEXTOID}, TEXTOID, true, f_similar_to_escape),
	BUILTIN("similar_to_escape", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_similar_to_escape),
	BUILTIN("regexp_split_to_array", 2, ARGS(TEXTOID, TEXTOID), TEXTARRAYOID, true, f_regexp_split_to_array),
	BUILTIN("regexp_split_to_array", 3, ARGS(TEXTOID, TEXTOID, TEXTOID), TEXTARRAYOID, true,
			f_regexp_split_to_array),
	BUILTIN("replace", 3, ARGS(TEXTOID, TEXTOID, TEXTOID), TEXTOID, true, f_replace),
	BUILTIN("btrim", 1, {TEXTOID}, TEXTOID, true, f_btrim),
	BUILTIN("btrim", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_btrim),
	BUILTIN("ltrim", 1, {TEXTOID}, TEXTOID, true, f_ltrim),
	BUILTIN("ltrim", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_ltrim),
	BUILTIN("rtrim", 1, {TEXTOID}, TEXTOID, true, f_rtrim),
	BUILTIN("rtrim", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_rtrim),
	BUILTIN("left", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_left),
	BUILTIN("right", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_right),
	BUILTIN("lpad", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_lpad),
	BUILTIN("lpad", 3, ARGS(TEXTOID, INT4OID, TEXTOID), TEXTOID, true, f_lpad),
	BUILTIN("rpad", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_rpad),
	BUILTIN("rpad", 3, ARGS(TEXTOID, INT4OID, TEXTOID), TEXTOID, true, f_rpad),
	BUILTIN("split_part", 3, ARGS(TEXTOID, TEXTOID, INT4OID), TEXTOID, true, f_split_part),
	BUILTIN("repeat", 2, ARGS(TEXTOID, INT4OID), TEXTOID, true, f_repeat),
	BUILTIN("reverse", 1, {TEXTOID}, TEXTOID, true, f_reverse),
	BUILTIN("starts_with", 2, ARGS(TEXTOID, TEXTOID), BOOLOID, true, f_starts_with),
	BUILTIN("like_escape", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_like_escape),
	BUILTIN("pg_sleep", 1, {FLOAT8OID}, VOIDOID, true, f_pg_sleep),
	BUILTIN("current_setting", 1, {TEXTOID}, TEXTOID, true, f_current_setting),
	BUILTIN("current_setting", 2, ARGS(TEXTOID, BOOLOID), TEXTOID, true, f_current_setting),
	BUILTIN("set_config", 3, ARGS(TEXTOID, TEXTOID, BOOLOID), TEXTOID, false, f_set_config),
	BUILTIN("current_user", 0, {0}, NAMEOID, true, f_current_user),
	BUILTIN("session_user", 0, {0}, NAMEOID, true, f_session_user),
	BUILTIN("current_database", 0, {0}, NAMEOID, true, f_current_database),
	BUILTIN("current_schema", 0, {0}, NAMEOID, false, f_current_schema),
	BUILTIN("current_schemas", 1, {BOOLOID}, NAMEARRAYOID, true, f_current_schemas),
	BUILTIN("now", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("transaction_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("statement_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_now),
	BUILTIN("clock_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_clock_timestamp),
	BUILTIN("localtimestamp", 0, {0}, TIMESTAMPOID, true, f_localtimestamp),
	BUILTIN("localtime", 0, {0}, TIMEOID, true, f_localtime),
	BUILTIN("pg_reload_conf", 0, {0}, BOOLOID, true, f_pg_reload_conf),
	BUILTIN("pg_cancel_backend", 1, {INT4OID}, BOOLOID, true, f_pg_cancel_backend),
	BUILTIN("pg_terminate_backend", 1, {INT4OID}, BOOLOID, true, f_pg_terminate_backend),
	BUILTIN("pg_terminate_backend", 2, ARGS(INT4OID, INT8OID), BOOLOID, true, f_pg_terminate_backend),
	BUILTIN("timezone", 2, ARGS(TEXTOID, TIMESTAMPTZOID), TIMESTAMPOID, true, f_timezone),
	BUILTIN("timezone", 2, ARGS(TEXTOID, TIMESTAMPOID), TIMESTAMPTZOID, true, f_timezone),
	BUILTIN("current_date", 0, {0}, DATEOID, true, f_current_date),
	BUILTIN("pg_backend_pid", 0, {0}, INT4OID, true, f_pg_backend_pid),
	BUILTIN("rocklake_compact", 0, {0}, JSONOID, true, f_rocklake_compact),
	BUILTIN("rocklake_gc", 0, {0}, JSONOID, true, f_rocklake_gc),
	BUILTIN("rocklake_publish_pin", 2, ARGS(INT8OID, TEXTOID), VOIDOID, true, f_rocklake_publish_pin),
	BUILTIN("rocklake_publish_unpin", 1, {TEXTOID}, BOOLOID, true, f_rocklake_publish_unpin),
	BUILTIN("rocklake_publish_pins", 0, {0}, JSONOID, true, f_rocklake_publish_pins),
	/* not strict: the guard of a DELETE's rows must be true for a row it lets go */
	BUILTIN(PUBLISH_GUARD_FUNCTION, 1, {INT8OID}, BOOLOID, false, f_rocklake_publish_guard),
	BUILTIN("pg_is_in_recovery", 0, {0}, BOOLOID, true, f_pg_is_in_recovery),
	BUILTIN("pg_last_xact_replay_timestamp", 0, {0}, TIMESTAMPTZOID, true, f_pg_last_xact_replay_timestamp),
	BUILTIN("pg_promote", 0, {0}, BOOLOID, true, f_pg_promote),
	BUILTIN("pg_promote", 1, {BOOLOID}, BOOLOID, true, f_pg_promote),
	BUILTIN("pg_promote", 2, ARGS(BOOLOID, INT4OID), BOOLOID, true, f_pg_promote),
	BUILTIN("length", 1, {TEXTOID}, INT4OID, true, f_length),
	BUILTIN("lower", 1, {TEXTOID}, TEXTOID, true, f_lower),
	BUILTIN("upper", 1, {TEXTOID}, TEXTOID, true, f_upper),
	BUILTIN("array_to_string", 2, ARGS(ANYARRAYOID, TEXTOID), TEXTOID, true, f_array_to_string),
	BUILTIN("array_remove", 2, ARGS(TEXTARRAYOID, TEXTOID), TEXTARRAYOID, false, f_array_remove),
	BUILTIN("array_upper", 2, ARGS(ANYARRAYOID, INT4OID), INT4OID, true, f_array_upper),
	BUILTIN("array_length", 2, ARGS(ANYARRAYOID, INT4OID), INT4OID, true, f_array_upper),
	BUILTIN("cardinality", 1, {ANYARRAYOID}, INT4OID, true, f_cardinality),
	/* the catalog as psql's describe commands read it */
	BUILTIN("pg_get_userbyid", 1, {OIDOID}, NAMEOID, true, f_pg_get_userbyid),
	BUILTIN("to_regclass", 1, {TEXTOID}, REGCLASSOID, true, f_to_regclass),
	BUILTIN("to_regtype", 1, {TEXTOID}, REGTYPEOID, true, f_to_regtype),
	BUILTIN("to_regnamespace", 1, {TEXTOID}, REGNAMESPACEOID, true, f_to_regnamespace),
	BUILTIN("to_regproc", 1, {TEXTOID}, REGPROCOID, true, f_to_regproc),
	BUILTIN("to_regprocedure", 1, {TEXTOID}, REGPROCEDUREOID, true, f_to_regprocedure),
	BUILTIN("pg_encoding_to_char", 1, {INT4OID}, NAMEOID, true, f_pg_encoding_to_char),
	BUILTIN("pg_char_to_encoding", 1, {NAMEOID}, INT4OID, true, f_pg_char_to_encoding),
	BUILTIN("getdatabaseencoding", 0, {0}, NAMEOID, true, f_getdatabaseencoding),
	BUILTIN("pg_collation_is_visible", 1, {OIDOID}, BOOLOID, true, f_true),	/* all in pg_catalog */
	BUILTIN("format_type", 2, ARGS(OIDOID, INT4OID), TEXTOID, false, f_format_type),
	BUILTIN("acldefault", 2, ARGS(TEXTOID, OIDOID), ACLITEMARRAYOID, true, f_acldefault),
	BUILTIN("quote_ident", 1, {TEXTOID}, TEXTOID, true, f_quote_ident),
	BUILTIN("quote_literal", 1, {TEXTOID}, TEXTOID, true, f_quote_literal),
	BUILTIN("pg_get_expr", 2, ARGS(PGNODETREEOID, OIDOID), TEXTOID, true, f_pg_get_expr),
	BUILTIN("pg_get_expr", 3, ARGS(PGNODETREEOID, OIDOID, BOOLOID), TEXTOID, true, f_pg_get_expr),
	BUILTIN("pg_size_pretty", 1, {INT8OID}, TEXTOID, true, f_pg_size_pretty),
	SIZE_LOOKUP("pg_table_size", "table_size"),
	SIZE_LOOKUP("pg_relation_size", "table_size"),
	SIZE_LOOKUP("pg_indexes_size", "indexes_size"),
	SIZE_LOOKUP("pg_total_relation_size", "total_size"),
	BUILTIN("pg_database_size", 1, {NAMEOID}, INT8OID, true, f_pg_database_size_name),
	BUILTIN("pg_database_size", 1, {OIDOID}, INT8OID, true, f_pg_database_size_oid),
	BUILTIN("pg_postmaster_start_time", 0, {0}, TIMESTAMPTZOID, true, f_pg_postmaster_start_time),
	BUILTIN("inet_client_addr", 0, {0}, INETOID, false, f_inet_client_addr),
	BUILTIN("inet_client_port", 0, {0}, INT4OID, false, f_inet_client_port),
	BUILTIN("inet_server_addr", 0, {0}, INETOID, false, f_inet_server_addr),
	BUILTIN("inet_server_port", 0, {0}, INT4OID, false, f_inet_server_port),
	BUILTIN("pg_tablespace_size", 1, {OIDOID}, INT8OID, true, f_zero_size),
	BUILTIN("pg_relation_is_publishable", 1, {REGCLASSOID}, BOOLOID, true, f_true),
	BUILTIN("has_database_privilege", 2, ARGS(NAMEOID, TEXTOID), BOOLOID, true, f_true),
	BUILTIN("pg_has_role", 2, ARGS(NAMEOID, TEXTOID), BOOLOID, true, f_pg_has_role_current),
	BUILTIN("pg_has_role", 2, ARGS(OIDOID, TEXTOID), BOOLOID, true, f_pg_has_role_current),
	BUILTIN("pg_has_role", 3, ARGS(NAMEOID, NAMEOID, TEXTOID), BOOLOID, true, f_pg_has_role),
	BUILTIN("pg_has_role", 3, ARGS(NAMEOID, OIDOID, TEXTOID), BOOLOID, true, f_pg_has_role),
	BUILTIN("pg_has_role", 3, ARGS(OIDOID, NAMEOID, TEXTOID), BOOLOID, true, f_pg_has_role),
	BUILTIN("pg_has_role", 3, ARGS(OIDOID, OIDOID, TEXTOID), BOOLOID, true, f_pg_has_role),
	BUILTIN("has_table_privilege", 2, ARGS(TEXTOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_table_privilege", 2, ARGS(OIDOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_table_privilege", 3, ARGS(NAMEOID, TEXTOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_table_privilege", 3, ARGS(NAMEOID, OIDOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_table_privilege", 3, ARGS(OIDOID, TEXTOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_table_privilege", 3, ARGS(OIDOID, OIDOID, TEXTOID), BOOLOID, true, f_has_table_privilege),
	BUILTIN("has_schema_privilege", 2, ARGS(TEXTOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("has_schema_privilege", 2, ARGS(OIDOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("has_schema_privilege", 3, ARGS(NAMEOID, TEXTOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("has_schema_privilege", 3, ARGS(NAMEOID, OIDOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("has_schema_privilege", 3, ARGS(OIDOID, TEXTOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("has_schema_privilege", 3, ARGS(OIDOID, OIDOID, TEXTOID), BOOLOID, true, f_has_schema_privilege),
	BUILTIN("pg_get_triggerdef", 2, ARGS(OIDOID, BOOLOID), TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_statisticsobjdef_columns", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_get_viewdef", 2, ARGS(OIDOID, BOOLOID), TEXTOID, true, f_no_definition),
	LOOKUP("pg_get_function_result", 1, {OIDOID}, "pg_proc", "_rl_result", "oid", NULL),
	LOOKUP("pg_get_function_arguments", 1, {OIDOID}, "pg_proc", "_rl_arguments", "oid", NULL),
	LOOKUP("pg_get_functiondef", 1, {OIDOID}, "pg_proc", "_rl_functiondef", "oid", NULL),
	BUILTIN("pg_get_function_sqlbody", 1, {OIDOID}, TEXTOID, true, f_no_definition),
	BUILTIN("pg_function_is_visible", 1, {OIDOID}, BOOLOID, true, f_true),
	BUILTIN("pg_tablespace_location", 1, {OIDOID}, TEXTOID, true, f_tablespace_location),
	BUILTIN("pg_get_serial_sequence", 2, ARGS(TEXTOID, TEXTOID), TEXTOID, true, f_no_sequence),
	BUILTIN("pg_type_is_visible", 1, {OIDOID}, BOOLOID, true, f_true),	/* all in pg_catalog */
	BUILTIN("pg_conversion_is_visible", 1, {OIDOID}, BOOLOID, true, f_no_object),
	BUILTIN("pg_operator_is_visible", 1, {OIDOID}, BOOLOID, true, f_no_object),
	BUILTIN("pg_statistics_obj_is_visible", 1, {OIDOID}, BOOLOID, true, f_no_object),
	/* VARIADIC "any": any number of arguments of any type */
	BUILTIN("json_build_object", FUNC_VARIADIC_ANY, {0}, JSONOID, false, f_json_build_object),
	BUILTIN("jsonb_build_object", FUNC_VARIADIC_ANY, {0}, JSONBOID, false, f_jsonb_build_object),
	BUILTIN("json_build_array", FUNC_VARIADIC_ANY, {0}, JSONOID, false, f_json_build_array),
	BUILTIN("jsonb_build_array", FUNC_VARIADIC_ANY, {0}, JSONBOID, false, f_jsonb_build_array),
	BUILTIN("to_json", 1, {ANYELEMENTOID}, JSONOID, true, f_to_json),
	BUILTIN("to_jsonb", 1, {ANYELEMENTOID}, JSONBOID, true, f_to_jsonb),
	BUILTIN("json_array_length", 1, {JSONOID}, INT4OID, true, f_json_array_length),
	BUILTIN("jsonb_array_length", 1, {JSONBOID}, INT4OID, true, f_json_array_length),
	BUILTIN("json_object_field", 2, ARGS(JSONOID, TEXTOID), JSONOID, true, f_json_field),
	BUILTIN("jsonb_object_field", 2, ARGS(JSONBOID, TEXTOID), JSONBOID, true, f_json_field),
	BUILTIN("json_array_element", 2, ARGS(JSONOID, INT4OID), JSONOID, true, f_json_field),
	BUILTIN("jsonb_array_element", 2, ARGS(JSONBOID, INT4OID), JSONBOID, true, f_json_field),
	BUILTIN("json_object_field_text", 2, ARGS(JSONOID, TEXTOID), TEXTOID, true, f_json_field_text),
	BUILTIN("jsonb_object_field_text", 2, ARGS(JSONBOID, TEXTOID), TEXTOID, true, f_json_field_text),
	BUILTIN("json_array_element_text", 2, ARGS(JSONOID, INT4OID), TEXTOID, true, f_json_field_text),
	BUILTIN("jsonb_array_element_text", 2, ARGS(JSONBOID, INT4OID), TEXTOID, true, f_json_field_text),
	BUILTIN("json_extract_path_op", 2, ARGS(JSONOID, TEXTARRAYOID), JSONOID, true, f_json_path),
	BUILTIN("jsonb_extract_path_op", 2, ARGS(JSONBOID, TEXTARRAYOID), JSONBOID, true, f_json_path),
	BUILTIN("json_extract_path_text_op", 2, ARGS(JSONOID, TEXTARRAYOID), TEXTOID, true, f_json_path_text),
	BUILTIN("jsonb_extract_path_text_op", 2, ARGS(JSONBOID, TEXTARRAYOID), TEXTOID, true, f_json_path_text),
	BUILTIN("format", FUNC_VARIADIC_ANY, {TEXTOID}, TEXTOID, false, f_format),
	LOOKUP("pg_get_constraintdef", 1, {OIDOID}, "pg_constraint", "_rl_condef", "oid", NULL),
	LOOKUP("pg_get_constraintdef", 2, ARGS(OIDOID, BOOLOID), "pg_constraint", "_rl_condef", "oid", NULL),
	LOOKUP("pg_get_indexdef", 1, {OIDOID}, "pg_class", "_rl_indexdef", "oid", NULL),
	/* found first by its name in the search path (namespace.h); pg_catalog's own are not rows */
	{"pg_table_is_visible", 1, {OIDOID}, BOOLOID, true, false, NULL, "pg_class", "_rl_visible", {"oid", NULL}},
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
	/* a row per match, its groups' text[] (regexp.c) */
	SETOF("regexp_matches", 2, ARGS(TEXTOID, TEXTOID), TEXTARRAYOID, f_regexp_matches),
	SETOF("regexp_matches", 3, ARGS(TEXTOID, TEXTOID, TEXTOID), TEXTARRAYOID, f_regexp_matches),
	/* its elements "name=value", which FROM makes rows of two columns (parse_relation.c) */
	SETOF("pg_options_to_table", 1, {TEXTARRAYOID}, TEXTOID, f_unnest),
	SETOF("generate_subscripts", 2, ARGS(ANYARRAYOID, INT4OID), INT4OID, f_generate_subscripts),
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

	if (given == wanted || wanted == ANYELEMENTOID ||
		(wanted == ANYARRAYOID && given_type && given_type->category == TYPCATEGORY_ARRAY))
		return 0;
	if (typio_is_oid(given) && typio_is_oid(wanted))
		return 1;				/* oid and the reg* types are binary-compatible */
	if (given == UNKNOWNOID)
		return wanted == ANYARRAYOID ? -1 : 1;
	const TypeInfo *g = typio_lookup(given),
			   *w = typio_lookup(wanted);

	/* double precision is the numbers' preferred type, as in PostgreSQL: abs(1.5::real), round(4) */
	if (g && w && g->category == TYPCATEGORY_NUMERIC && wanted == FLOAT8OID && given != OIDOID &&
		w->category == TYPCATEGORY_NUMERIC && given != NUMERICOID)
		return 1;
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

		int			fixed = f->nargs != FUNC_VARIADIC_ANY ? nargs : f->argtypes[0] != InvalidOid;

		if ((f->nargs != nargs && f->nargs != FUNC_VARIADIC_ANY) || nargs < fixed || strcmp(f->name, name) != 0)
			continue;
		for (int a = 0; a < fixed && cost >= 0; a++)
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
