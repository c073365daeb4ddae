/*
 * execute.c: running an AnalyzedStmt (executor.h).
 *
 * A row-returning statement is pulled one row at a time (ExecutorNext), so a
 * portal can stop after any row (Execute with a row limit, PortalSuspended) and
 * resume later; the rows come from the target list evaluated once, per VALUES
 * row, or per value of a set-returning function, filtered by WHERE and cut by
 * OFFSET/LIMIT. Each row is evaluated in a per-row memory context reset before
 * the next one, so long results run in constant memory. Utility statements do
 * their work in ExecutorStart and only leave a command tag. A statement over the
 * catalog cache runs whole in ExecutorStart (sqlite_exec.c), its rows kept for
 * ExecutorNext: so it holds no SQLite statement or write lock across messages.
 *
 * Arithmetic follows PostgreSQL: integer overflow is 22003 "integer out of range"
 * (smallint/bigint likewise), division by zero 22012, numeric is exact at any
 * precision (numeric.c), text compares bytewise (collation "C").
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/cache.h"
#include "executor/executor.h"
#include "executor/regexp.h"
#include "executor/sqlite_exec.h"
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
#include "utils/adt/numeric.h"
#include "utils/adt/timezone.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

struct ExecState
{
	AnalyzedStmt *stmt;
	const Value *params;
	MemoryContext row_context;
	Value	   *row;
	bool		done;
	bool		single_row_done;
	int			values_index;
	bool		srf_started;
	int64_t		srf_current,
				srf_stop,
				srf_step;
	int64_t		limit;			/* -1: none */
	int64_t		to_skip;
	int64_t		produced;
	const char *tag;			/* a statement over the cache without rows */
	int			nshow;			/* SHOW: the settings to list (name, value, description) */
	const char **show;
	int			show_index;
	Value	   *cache_rows;		/* a statement over the cache: its rows */
	int64_t		cache_nrows;
	bool		to_completion;	/* ExecutorStart's: a read may stream */
	CacheCursor *cursor;		/* the streaming read, until its end */
	int64_t		cache_next;
};

/* ---------- errors ---------- */

static void
int_out_of_range(Oid type)
{
	ereport(ERROR,
			errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			errmsg("%s out of range", type == INT2OID ? "smallint" : type == INT4OID ? "integer" : "bigint"));
}

static void
division_by_zero(void)
{
	ereport(ERROR,
			errcode(ERRCODE_DIVISION_BY_ZERO),
			errmsg("division by zero"));
}

static int64_t
check_int_range(Oid type, int64_t v)
{
	if ((type == INT2OID && (v < INT16_MIN || v > INT16_MAX)) ||
		(type == INT4OID && (v < INT32_MIN || v > INT32_MAX)))
		int_out_of_range(type);
	return v;
}

/* ---------- casts ---------- */

static int64_t mul_days(int64_t days, int64_t sign);
static int64_t check_timestamp(int64_t ts);

static bool
is_text_type(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_STRING;
}

/* cast_to_int -- numbers to an integer type, rounding as PostgreSQL does */
static Value
cast_to_int(const Value *v, Oid target)
{
	double		d;

	/*
	 * oid, regclass, regtype ... are unsigned 32-bit integers (the category of numbers,
	 * but not numerics): to int4 their bits, as PostgreSQL's binary-coercible cast.
	 */
	if (typio_is_oid(v->type))
	{
		uint32_t	u = (uint32_t) v->u.i;

		return typio_int(target, target == INT4OID ? (int32_t) u : check_int_range(target, u));
	}
	switch (v->type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			return typio_int(target, check_int_range(target, v->u.i));
		case FLOAT4OID:
		case FLOAT8OID:
			d = rint(v->u.f);	/* half to even */
			break;
		default:
			{
				/* a numeric: rounded half away from zero, its digits read exactly */
				Value		r = numeric_round(v, 0);
				char	   *end;
				long long	n;

				if (!isdigit((unsigned char) r.u.s.data[r.u.s.data[0] == '-']))
					ereport(ERROR,
							errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							errmsg("cannot convert %s to %s", r.u.s.data[0] == 'N' ? "NaN" : "infinity",
								   typio_format_type(target)));
				errno = 0;
				n = strtoll(r.u.s.data, &end, 10);
				if (errno == ERANGE || *end != '\0')
					int_out_of_range(target);
				return typio_int(target, check_int_range(target, n));
			}
	}
	if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		int_out_of_range(target);
	return typio_int(target, check_int_range(target, (int64_t) d));
}

/* cast_array -- an array cast to another array type element by element (typmod is theirs) */
static Value
cast_array(const Value *v, Oid from_elem, Oid target, Oid to_elem, int32_t typmod, bool explicit)
{
	ArrayElements elems = typio_array_parse(v->u.s.data);

	for (int i = 0; i < elems.n; i++)
		if (elems.items[i] != NULL)
		{
			Value		e = typio_input(from_elem, elems.items[i], -1);
			Value		c = ExecCastValue(&e, to_elem, typmod, explicit);

			elems.items[i] = typio_output(&c, NULL);
		}
	return typio_array_build(target, &elems);
}

Value
ExecCastValue(const Value *v, Oid target, int32_t typmod, bool explicit)
{
	if (v->isnull)
		return typio_null(target);
	if (v->type == target && typmod < 0)
		return *v;
	if ((target == VARCHAROID || target == BPCHAROID) && typmod >= 4)
	{
		Value		s = ExecCastValue(v, target, -1, explicit);

		return typio_char_length(&s, typmod, explicit);
	}
	if (v->type == BPCHAROID && is_text_type(target) && target != BPCHAROID)
	{
		/* character(n) to text or varchar: without its trailing spaces (PostgreSQL's rtrim) */
		size_t		len = v->u.s.len;

		while (len > 0 && v->u.s.data[len - 1] == ' ')
			len--;
		return typio_string(target, v->u.s.data, len);
	}
	const TypeInfo *from = typio_lookup(v->type);

	if (typio_is_oid(target) && typio_is_oid(v->type))
		return typio_int(target, v->u.i);	/* binary-compatible */
	if (typio_is_oid(target) && v->type == INT8OID && (v->u.i < 0 || v->u.i > UINT32_MAX))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("OID out of range"));

	if (target == INT2OID || target == INT4OID || target == INT8OID)
	{
		if (v->type == BOOLOID)
			return typio_int(target, v->u.b);
		if (from && from->category == TYPCATEGORY_NUMERIC)
			return cast_to_int(v, target);
	}
	/* a numeric's text read as the float's input, with its range errors (PostgreSQL's way) */
	if ((target == FLOAT4OID || target == FLOAT8OID) && v->type == NUMERICOID)
		return typio_input(target, typio_output(v, NULL), -1);
	if ((target == FLOAT4OID || target == FLOAT8OID) && from && from->category == TYPCATEGORY_NUMERIC)
	{
		double		d = (v->type == FLOAT4OID || v->type == FLOAT8OID) ? v->u.f : (double) v->u.i;

		if (target == FLOAT4OID && isfinite(d) && !isfinite((float) d))
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("value out of range: overflow"));
		return typio_float(target, target == FLOAT4OID ? (float) d : d);
	}
	if (target == BOOLOID && v->type == INT4OID)
		return typio_bool(v->u.i != 0);
	/* between timestamptz and the local types: local time in the session's zone (timezone.h) */
	if ((target == TIMESTAMPOID || target == TIMESTAMPTZOID) &&
		(v->type == DATEOID || v->type == TIMESTAMPOID || v->type == TIMESTAMPTZOID))
	{
		int64_t		ts = v->u.i;

		if (v->type == DATEOID)
			ts = !DATE_IS_FINITE(v->u.i) ? (v->u.i == DATE_NOEND ? DT_NOEND : DT_NOBEGIN)
				: check_timestamp(mul_days(v->u.i, 1));
		if (v->type != TIMESTAMPTZOID && target == TIMESTAMPTZOID && TIMESTAMP_IS_FINITE(ts))
			ts = check_timestamp(session_tz_local_to_utc(ts));
		else if (v->type == TIMESTAMPTZOID && target == TIMESTAMPOID && TIMESTAMP_IS_FINITE(ts))
			ts = check_timestamp(session_tz_to_local(ts));
		return typio_int(target, ts);
	}
	if (target == DATEOID && (v->type == TIMESTAMPOID || v->type == TIMESTAMPTZOID))
	{
		int64_t		ts = v->type == TIMESTAMPTZOID ? session_tz_to_local(v->u.i) : v->u.i;
		int64_t		days = ts / USECS_PER_DAY;

		if (!TIMESTAMP_IS_FINITE(ts))
			return typio_int(DATEOID, ts == DT_NOEND ? DATE_NOEND : DATE_NOBEGIN);
		return typio_int(DATEOID, ts < 0 && ts % USECS_PER_DAY ? days - 1 : days);
	}
	/* a time gets the zone's offset now, as PostgreSQL's time_timetz */
	if (target == TIMETZOID && v->type == TIMEOID)
		return typio_int(TIMETZOID, timetz_pack(v->u.i, -session_tz_offset(GetCurrentTransactionStartTimestamp())));
	if (target == TIMETZOID && v->type == TIMESTAMPTZOID)
		return TIMESTAMP_IS_FINITE(v->u.i)
			? typio_int(TIMETZOID, timetz_pack(((session_tz_to_local(v->u.i) % USECS_PER_DAY) + USECS_PER_DAY) % USECS_PER_DAY,
											   -session_tz_offset(v->u.i)))
			: typio_null(TIMETZOID);
	if (target == TIMEOID && v->type == INTERVALOID)	/* the time of day, days and months left out */
		return typio_int(TIMEOID, ((v->u.iv.time % USECS_PER_DAY) + USECS_PER_DAY) % USECS_PER_DAY);
	if (target == TIMEOID && v->type == TIMETZOID)
		return typio_int(TIMEOID, timetz_usecs(v->u.i));
	if (target == TIMEOID && (v->type == TIMESTAMPOID || v->type == TIMESTAMPTZOID))
	{
		int64_t		ts = v->type == TIMESTAMPTZOID ? session_tz_to_local(v->u.i) : v->u.i;

		if (!TIMESTAMP_IS_FINITE(ts))
			return typio_null(TIMEOID);	/* as PostgreSQL's timestamp_time */
		return typio_int(TIMEOID, ((ts % USECS_PER_DAY) + USECS_PER_DAY) % USECS_PER_DAY);
	}
	if (is_text_type(target) && target != NAMEOID && v->type == BOOLOID)
	{
		const char *s = v->u.b ? "true" : "false";

		return typio_input(target, s, typmod);
	}
	/* a float to numeric: its first 15 significant digits (6 of a float4), as PostgreSQL's */
	if (target == NUMERICOID && (v->type == FLOAT4OID || v->type == FLOAT8OID) && isfinite(v->u.f))
		return typio_input(NUMERICOID, psprintf("%.*g", v->type == FLOAT4OID ? FLT_DIG : DBL_DIG, v->u.f),
						   typmod);

	const TypeInfo *to = typio_lookup(target);

	if (from && to && from->category == TYPCATEGORY_ARRAY && to->category == TYPCATEGORY_ARRAY)
		return cast_array(v, from->elem, target, to->elem, typmod, explicit);
	/* everything else goes through the text form (CoerceViaIO) */
	return typio_input(target, typio_output(v, NULL), typmod);
}

/*
 * interval_scale -- PostgreSQL's interval_mul (or interval_div): months and days
 * scaled each, their fractions cascading down (a month is 30 days, a day 86 400
 * seconds, rounded to microseconds) into days and time; never up
 */
#define TSROUND(j) (rint((j) * 1000000.0) / 1000000.0)

bool
interval_scale(const Interval *iv, double factor, bool divide, Interval *result)
{
	double		months = divide ? iv->month / factor : iv->month * factor,
				days = divide ? iv->day / factor : iv->day * factor,
				time = divide ? (double) iv->time / factor : (double) iv->time * factor,
				month_remainder_days,
				sec_remainder;

	if (isnan(months) || months > INT32_MAX || months < INT32_MIN || isnan(days) || days > INT32_MAX ||
		days < INT32_MIN)
		return false;
	result->month = (int32_t) months;
	result->day = (int32_t) days;
	month_remainder_days = TSROUND((months - result->month) * 30);
	sec_remainder = TSROUND((days - result->day + month_remainder_days - (int) month_remainder_days) * 86400);
	if (fabs(sec_remainder) >= 86400)
	{
		if (__builtin_add_overflow(result->day, (int) (sec_remainder / 86400), &result->day))
			return false;
		sec_remainder -= (int) (sec_remainder / 86400) * 86400;
	}
	if (__builtin_add_overflow(result->day, (int32_t) month_remainder_days, &result->day))
		return false;
	time = rint(time + sec_remainder * USECS_PER_SEC);
	if (isnan(time) || time < (double) INT64_MIN || time >= -(double) INT64_MIN)
		return false;
	result->time = (int64_t) time;
	return true;
}

/* ---------- comparison ---------- */

static int
cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int
cmp_bytes(const Value *a, const Value *b)
{
	size_t		n = a->u.s.len < b->u.s.len ? a->u.s.len : b->u.s.len;
	int			c = memcmp(a->u.s.data, b->u.s.data, n);

	return c ? (c < 0 ? -1 : 1) : cmp_i64((int64_t) a->u.s.len, (int64_t) b->u.s.len);
}

static int
compare_values(const Value *a, const Value *b)
{
	switch (a->type)
	{
		case BOOLOID:
			return cmp_i64(a->u.b, b->u.b);
		case FLOAT4OID:
		case FLOAT8OID:
			/* NaN sorts above everything, as in PostgreSQL */
			if (isnan(a->u.f) || isnan(b->u.f))
				return isnan(a->u.f) - isnan(b->u.f);
			return a->u.f < b->u.f ? -1 : a->u.f > b->u.f;
		case NUMERICOID:
			return numeric_cmp(a->u.s.data, a->u.s.len, b->u.s.data, b->u.s.len);
		case INTERVALOID:
			{
				__int128	ta = (__int128) a->u.iv.time + ((__int128) a->u.iv.month * 30 + a->u.iv.day) * USECS_PER_DAY;
				__int128	tb = (__int128) b->u.iv.time + ((__int128) b->u.iv.month * 30 + b->u.iv.day) * USECS_PER_DAY;

				return ta < tb ? -1 : ta > tb;
			}
		case UUIDOID:
			{
				int			c = memcmp(a->u.uuid, b->u.uuid, 16);

				return c < 0 ? -1 : c > 0;
			}
		default:
			if (typio_lookup(a->type)->typlen < 0 || a->type == NAMEOID || a->type == CHAROID)
				return cmp_bytes(a, b);
			return cmp_i64(a->u.i, b->u.i);
	}
}

/* ---------- arithmetic ---------- */

static Value
int_arith(ExprOp op, Oid type, int64_t a, int64_t b)
{
	int64_t		r = 0;
	bool		overflow = false;

	switch (op)
	{
		case OP_ADD:
			overflow = __builtin_add_overflow(a, b, &r);
			break;
		case OP_SUB:
			overflow = __builtin_sub_overflow(a, b, &r);
			break;
		case OP_MUL:
			overflow = __builtin_mul_overflow(a, b, &r);
			break;
		case OP_DIV:
		case OP_MOD:
			if (b == 0)
				division_by_zero();
			if (b == -1)
			{
				overflow = op == OP_DIV && __builtin_sub_overflow((int64_t) 0, a, &r);
				if (op == OP_MOD)
					r = 0;
			}
			else
				r = op == OP_DIV ? a / b : a % b;
			break;
		default:
			overflow = __builtin_sub_overflow((int64_t) 0, b, &r);	/* OP_NEG */
			break;
	}
	if (overflow)
		int_out_of_range(type);
	return typio_int(type, check_int_range(type, r));
}

static Value
float_arith(ExprOp op, Oid type, double a, double b)
{
	double		r;

	switch (op)
	{
		case OP_ADD:
			r = a + b;
			break;
		case OP_SUB:
			r = a - b;
			break;
		case OP_MUL:
			r = a * b;
			break;
		case OP_DIV:
			if (b == 0)
				division_by_zero();
			r = a / b;
			break;
		default:
			r = -b;				/* OP_NEG */
			break;
	}
	if (isinf(r) && !isinf(a) && !isinf(b))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("value out of range: overflow"));
	return typio_float(type, type == FLOAT4OID ? (float) r : r);
}

/* numeric_arith -- PostgreSQL's numeric operators, exact (numeric.c); OP_NEG negates b */
static Value
numeric_arith(ExprOp op, const Value *a, const Value *b)
{
	switch (op)
	{
		case OP_ADD:
			return numeric_add(a, b);
		case OP_SUB:
			return numeric_sub(a, b);
		case OP_MUL:
			return numeric_mul(a, b);
		case OP_DIV:
			return numeric_div(a, b);
		case OP_MOD:
			return numeric_mod(a, b);
		default:
			return numeric_neg(b);
	}
}

static void
datetime_out_of_range(const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			errmsg("%s out of range", what));
}

static int64_t
add_checked(int64_t a, int64_t b, const char *what)
{
	int64_t		r;

	if (__builtin_add_overflow(a, b, &r))
		datetime_out_of_range(what);
	return r;
}

static int32_t
add32_checked(int32_t a, int64_t b, const char *what)
{
	int64_t		r = (int64_t) a + b;

	if (r < INT32_MIN || r > INT32_MAX)
		datetime_out_of_range(what);
	return (int32_t) r;
}

/* mul_days -- days (plus a fraction in microseconds) as microseconds, or 22008 */
static int64_t
mul_days(int64_t days, int64_t sign)
{
	int64_t		r;

	if (__builtin_mul_overflow(days, sign * USECS_PER_DAY, &r))
		datetime_out_of_range("timestamp");
	return r;
}

/* check_timestamp -- a finite timestamp within PostgreSQL's range, or 22008 */
static int64_t
check_timestamp(int64_t ts)
{
	if (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP)
		datetime_out_of_range("timestamp");
	return ts;
}

/*
 * datetime_arith -- date, time, timestamp and interval arithmetic
 *
 * Infinite dates and timestamps stay infinite when an interval or a number of days is
 * added; subtracting two of them is an error, as in PostgreSQL 15. Every sum is
 * checked: an overflow is 22008, never a wrapped value.
 */
static Value
datetime_arith(ExprOp op, Oid result, const Value *a, const Value *b)
{
	int64_t		sign = op == OP_SUB ? -1 : 1;

	if (a->type == DATEOID && b->type != INTERVALOID)
	{
		if (b->type == DATEOID)
		{
			if (!DATE_IS_FINITE(a->u.i) || !DATE_IS_FINITE(b->u.i))
				ereport(ERROR,
						errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						errmsg("cannot subtract infinite dates"));
			return typio_int(INT4OID, a->u.i - b->u.i);
		}
		if (!DATE_IS_FINITE(a->u.i))
			return *a;

		int64_t		days = a->u.i + sign * b->u.i;

		if (!DATE_IS_FINITE(days) || days < INT32_MIN || days > INT32_MAX)
			datetime_out_of_range("date");
		return typio_int(DATEOID, days);
	}
	if (a->type == INTERVALOID)
	{
		Value		v = {.type = INTERVALOID};

		if (b->u.iv.time == INT64_MIN && sign < 0)
			datetime_out_of_range("interval");
		v.u.iv.time = add_checked(a->u.iv.time, sign * b->u.iv.time, "interval");
		v.u.iv.day = add32_checked(a->u.iv.day, sign * b->u.iv.day, "interval");
		v.u.iv.month = add32_checked(a->u.iv.month, sign * b->u.iv.month, "interval");
		return v;
	}
	if (b->type != INTERVALOID)
	{
		/* timestamp - timestamp: days and time, as PostgreSQL's timestamp_mi */
		Value		v = {.type = INTERVALOID};
		int64_t		diff;

		if (!TIMESTAMP_IS_FINITE(a->u.i) || !TIMESTAMP_IS_FINITE(b->u.i))
			ereport(ERROR,
					errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					errmsg("cannot subtract infinite timestamps"));
		if (__builtin_sub_overflow(a->u.i, b->u.i, &diff))
			datetime_out_of_range("interval");
		v.u.iv.day = (int32_t) (diff / USECS_PER_DAY);
		v.u.iv.time = diff % USECS_PER_DAY;
		return v;
	}
	if (a->type == TIMEOID)
		return typio_int(TIMEOID, (((a->u.i + sign * (b->u.iv.time % USECS_PER_DAY)) % USECS_PER_DAY) +
								   USECS_PER_DAY) % USECS_PER_DAY);

	/* timestamp +/- interval: months on the calendar, then days, then time */
	if (a->type == DATEOID ? !DATE_IS_FINITE(a->u.i) : !TIMESTAMP_IS_FINITE(a->u.i))
		return typio_int(result, a->type != DATEOID ? a->u.i : a->u.i == DATE_NOEND ? DT_NOEND : DT_NOBEGIN);

	int64_t		ts = a->type == DATEOID ? mul_days(a->u.i, 1) : a->u.i;
	int64_t		days = ts / USECS_PER_DAY,
				usecs = ts % USECS_PER_DAY;

	if (usecs < 0)
	{
		usecs += USECS_PER_DAY;
		days--;
	}
	int			y,
				m,
				d;

	date_to_ymd(days, &y, &m, &d);
	int64_t		months = (int64_t) y * 12 + (m - 1) + sign * b->u.iv.month;

	if (months < -12 * 300000 || months > 12 * 300000)
		datetime_out_of_range("timestamp");
	y = (int) (months >= 0 ? months / 12 : -((-months + 11) / 12));
	m = (int) (months - (int64_t) y * 12) + 1;
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			last = mdays[m - 1] + (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));

	if (d > last)
		d = last;
	days = date_from_ymd(y, m, d) + sign * b->u.iv.day;

	int64_t		r = add_checked(mul_days(days, 1), usecs, "timestamp");

	if (b->u.iv.time == INT64_MIN && sign < 0)
		datetime_out_of_range("timestamp");
	return typio_int(result, check_timestamp(add_checked(r, sign * b->u.iv.time, "timestamp")));
}

/*
 * like_match -- SQL LIKE with % and _, backslash escapes (ESCAPE 'c' is like_escape's
 * rewrite of the pattern into these)
 *
 * LIKE_ABORT: the text ran out before the pattern did. A % that tries the rest of
 * the pattern at each later position of the text gives up then, since a shorter
 * text cannot match either; without that, a pattern of many %'s backtracks
 * exponentially ('aaa...' LIKE '%a%a%a...b'). What backtracking remains is
 * proportional to the text times the pattern, and checks for interrupts.
 */
typedef enum LikeResult
{
	LIKE_FALSE,
	LIKE_TRUE,
	LIKE_ABORT
} LikeResult;

static void
like_ends_with_escape(void)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
			errmsg("LIKE pattern must not end with escape character"));
}

static LikeResult
like_match(const char *s, const char *p, bool ci)
{
	for (; *p; p++, s++)
	{
		if (*p == '%')
		{
			while (p[1] == '%')
				p++;
			if (p[1] == '\0')
				return LIKE_TRUE;
			if (p[1] == '\\' && p[2] == '\0' && *s != '\0')
				like_ends_with_escape();	/* PostgreSQL looks at it only with text left */
			for (; *s; s++)
			{
				LikeResult	r = like_match(s, p + 1, ci);

				if (r != LIKE_FALSE)
					return r;
				CHECK_FOR_INTERRUPTS();
			}
			return LIKE_ABORT;
		}
		if (*s == '\0')
			return LIKE_ABORT;
		if (*p == '\\')
		{
			if (*++p == '\0')
				like_ends_with_escape();
		}
		else if (*p == '_')
			continue;
		if (ci ? strncasecmp(s, p, 1) != 0 : *s != *p)
			return LIKE_FALSE;
	}
	return *s == '\0' ? LIKE_TRUE : LIKE_FALSE;
}

static Value
array_concat(Oid type, const Value *a, const Value *b)
{
	if (a->isnull || b->isnull)
		return a->isnull ? *b : *a;
	ArrayElements la = typio_array_parse(a->u.s.data),
				lb = typio_array_parse(b->u.s.data),
				all = {la.n + lb.n, palloc(sizeof(char *) * (size_t) (la.n + lb.n + 1))};

	memcpy(all.items, la.items, sizeof(char *) * (size_t) la.n);
	memcpy(all.items + la.n, lb.items, sizeof(char *) * (size_t) lb.n);
	return typio_array_build(type, &all);
}

/* apply_op -- a op b (b is a again for a prefix operator), of result type */
static Value
apply_op(ExprOp op, Oid type, Value a, Value b)
{
	if (op == OP_DISTINCT || op == OP_NOT_DISTINCT)
	{
		bool		distinct = a.isnull != b.isnull ||
			(!a.isnull && compare_values(&a, &b) != 0);

		return typio_bool(op == OP_DISTINCT ? distinct : !distinct);
	}
	if (op == OP_CONCAT && typio_lookup(type)->category == TYPCATEGORY_ARRAY)
		return array_concat(type, &a, &b);	/* not strict: NULL is the empty array */
	if (a.isnull || b.isnull)
		return typio_null(type);
	switch (op)
	{
		case OP_EQ:
			return typio_bool(compare_values(&a, &b) == 0);
		case OP_NE:
			return typio_bool(compare_values(&a, &b) != 0);
		case OP_LT:
			return typio_bool(compare_values(&a, &b) < 0);
		case OP_LE:
			return typio_bool(compare_values(&a, &b) <= 0);
		case OP_GT:
			return typio_bool(compare_values(&a, &b) > 0);
		case OP_GE:
			return typio_bool(compare_values(&a, &b) >= 0);
		case OP_CONCAT:
			{
				size_t		la,
							lb;
				char	   *sa = typio_output(&a, &la),
						   *sb = typio_output(&b, &lb);
				char	   *r = palloc(la + lb + 1);

				memcpy(r, sa, la);
				memcpy(r + la, sb, lb + 1);
				Value		v = {.type = TEXTOID, .u.s = {r, la + lb}};

				return v;
			}
		case OP_LIKE:
		case OP_NOT_LIKE:
		case OP_ILIKE:
		case OP_NOT_ILIKE:
			{
				bool		ci = op == OP_ILIKE || op == OP_NOT_ILIKE;
				bool		m = like_match(a.u.s.data, b.u.s.data, ci) == LIKE_TRUE;

				return typio_bool(op == OP_LIKE || op == OP_ILIKE ? m : !m);
			}
		case OP_REGEX:
		case OP_NOT_REGEX:
		case OP_REGEX_CI:
		case OP_NOT_REGEX_CI:
			{
				bool		m = rl_regex_match(a.u.s.data, b.u.s.data,
											op == OP_REGEX_CI || op == OP_NOT_REGEX_CI);

				return typio_bool(op == OP_REGEX || op == OP_REGEX_CI ? m : !m);
			}
		default:
			break;
	}
	/* arithmetic: the operand types decide */
	switch (a.type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			return int_arith(op, type, a.u.i, b.u.i);
		case FLOAT4OID:
		case FLOAT8OID:
			return float_arith(op, type, a.u.f, b.u.f);
		case NUMERICOID:
			return numeric_arith(op, &a, &b);
		default:
			if (op == OP_NEG)
			{
				if (a.u.iv.time == INT64_MIN || a.u.iv.day == INT32_MIN || a.u.iv.month == INT32_MIN)
					datetime_out_of_range("interval");

				Value		v = {.type = INTERVALOID, .u.iv = {-a.u.iv.time, -a.u.iv.day, -a.u.iv.month}};

				return v;
			}
			if (op == OP_MUL || op == OP_DIV)
			{
				/* interval * / float8 (the analyser puts the interval first) */
				Value		v = {.type = INTERVALOID};

				if (op == OP_DIV && b.u.f == 0.0)
					ereport(ERROR,
							errcode(ERRCODE_DIVISION_BY_ZERO),
							errmsg("division by zero"));
				if (!interval_scale(&a.u.iv, b.u.f, op == OP_DIV, &v.u.iv))
					datetime_out_of_range("interval");
				return v;
			}
			return datetime_arith(op, type, &a, &b);
	}
}

static Value
eval_op(ExecState *es, const Expr *e)
{
	Value		a = ExecEvalExpr(es, e->args[0]);

	return apply_op(e->op, e->type, a, e->nargs > 1 ? ExecEvalExpr(es, e->args[1]) : a);
}

/*
 * eval_scalar_array -- x op ANY / ALL (array): ANY is true if op holds for an element,
 * ALL if it holds for every one; otherwise NULL if an element (or x) is NULL. An empty
 * array gives false (ANY) or true (ALL) whatever x is.
 */
static Value
eval_scalar_array(ExecState *es, const Expr *e)
{
	Value		x = ExecEvalExpr(es, e->args[0]);
	Value		array = ExecEvalExpr(es, e->args[1]);

	if (array.isnull)
		return typio_null(BOOLOID);

	ArrayElements elems = typio_array_parse(array.u.s.data);
	bool		saw_null = false;

	if (elems.n == 0)
		return typio_bool(e->array_all);
	for (int i = 0; i < elems.n; i++)
	{
		Value		r = x.isnull || elems.items[i] == NULL ? typio_null(BOOLOID)
			: apply_op(e->op, BOOLOID, x, typio_input(e->element_type, elems.items[i], -1));

		if (r.isnull)
			saw_null = true;
		else if (r.u.b != e->array_all)
			return r;
	}
	return saw_null ? typio_null(BOOLOID) : typio_bool(e->array_all);
}

/* eval_array -- ARRAY[...]: the elements' text forms, NULL kept */
static Value
eval_array(ExecState *es, const Expr *e)
{
	ArrayElements elems = {e->nargs, palloc(sizeof(char *) * (size_t) (e->nargs + 1))};

	for (int i = 0; i < e->nargs; i++)
	{
		Value		v = ExecEvalExpr(es, e->args[i]);

		elems.items[i] = v.isnull ? NULL : typio_output(&v, NULL);
	}
	return typio_array_build(e->type, &elems);
}

/* ---------- expressions ---------- */

/* eval_bool_list -- AND / OR with SQL's three-valued logic */
static Value
eval_bool_list(ExecState *es, const Expr *e, bool is_and)
{
	bool		any_null = false;

	for (int i = 0; i < e->nargs; i++)
	{
		Value		v = ExecEvalExpr(es, e->args[i]);

		if (v.isnull)
			any_null = true;
		else if (v.u.b != is_and)
			return typio_bool(!is_and);
	}
	return any_null ? typio_null(BOOLOID) : typio_bool(is_and);
}

static Value
eval_minmax(ExecState *es, const Expr *e, bool greatest)
{
	Value		best = typio_null(e->type);

	for (int i = 0; i < e->nargs; i++)
	{
		Value		v = ExecEvalExpr(es, e->args[i]);

		if (!v.isnull && (best.isnull || (compare_values(&v, &best) > 0) == greatest))
			best = v;
	}
	return best;
}

static Value
eval_booltest(Value v, int test)
{
	switch (test)
	{
		case 1:					/* IS TRUE */
			return typio_bool(!v.isnull && v.u.b);
		case 2:					/* IS NOT TRUE */
			return typio_bool(v.isnull || !v.u.b);
		case 3:					/* IS FALSE */
			return typio_bool(!v.isnull && !v.u.b);
		case 4:					/* IS NOT FALSE */
			return typio_bool(v.isnull || v.u.b);
		case 5:					/* IS UNKNOWN */
			return typio_bool(v.isnull);
		default:				/* IS NOT UNKNOWN */
			return typio_bool(!v.isnull);
	}
}

Value
ExecEvalExpr(ExecState *es, const Expr *e)
{
	switch (e->kind)
	{
		case EXPR_CONST:
			return e->constval;
		case EXPR_PARAM:
			return es->params[e->paramno];
		case EXPR_OP:
			return eval_op(es, e);
		case EXPR_FUNC:
			{
				Value	   *args = palloc(sizeof(Value) * (size_t) (e->nargs ? e->nargs : 1));

				for (int i = 0; i < e->nargs; i++)
				{
					args[i] = ExecEvalExpr(es, e->args[i]);
					if (args[i].isnull && e->func->strict)
						return typio_null(e->type);
				}
				return e->func->fn(es, args, e->nargs);
			}
		case EXPR_CAST:
			{
				Value		v = ExecEvalExpr(es, e->args[0]);

				return ExecCastValue(&v, e->type, e->typmod, e->cast_explicit);
			}
		case EXPR_AND:
		case EXPR_OR:
			return eval_bool_list(es, e, e->kind == EXPR_AND);
		case EXPR_NOT:
			{
				Value		v = ExecEvalExpr(es, e->args[0]);

				return v.isnull ? v : typio_bool(!v.u.b);
			}
		case EXPR_CASE:
			for (int i = 0; i < e->nargs; i += 2)
			{
				Value		cond = ExecEvalExpr(es, e->args[i]);

				if (!cond.isnull && cond.u.b)
					return ExecEvalExpr(es, e->args[i + 1]);
			}
			return ExecEvalExpr(es, e->defresult);
		case EXPR_COALESCE:
			for (int i = 0; i < e->nargs; i++)
			{
				Value		v = ExecEvalExpr(es, e->args[i]);

				if (!v.isnull)
					return v;
			}
			return typio_null(e->type);
		case EXPR_NULLIF:
			{
				Value		a = ExecEvalExpr(es, e->args[0]);
				Value		b = ExecEvalExpr(es, e->args[1]);

				return !a.isnull && !b.isnull && compare_values(&a, &b) == 0 ? typio_null(e->type) : a;
			}
		case EXPR_GREATEST:
		case EXPR_LEAST:
			return eval_minmax(es, e, e->kind == EXPR_GREATEST);
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
			return typio_bool(ExecEvalExpr(es, e->args[0]).isnull == (e->kind == EXPR_IS_NULL));
		case EXPR_BOOLTEST:
			return eval_booltest(ExecEvalExpr(es, e->args[0]), e->booltest);
		case EXPR_SRF_VALUE:
			return typio_int(e->type, es->srf_current);
		case EXPR_ARRAY:
			return eval_array(es, e);
		case EXPR_SCALAR_ARRAY:
			return eval_scalar_array(es, e);
		case EXPR_SUBSCRIPT:
			{
				Value		array = ExecEvalExpr(es, e->args[0]);
				Value		index = ExecEvalExpr(es, e->args[1]);

				if (array.isnull || index.isnull)
					return typio_null(e->type);
				ArrayElements elems = typio_array_parse(array.u.s.data);
				int64_t		i = index.u.i - typio_array_lower(array.type);

				if (i < 0 || i >= elems.n || elems.items[i] == NULL)
					return typio_null(e->type);
				return typio_input(e->type, elems.items[i], -1);
			}
		case EXPR_VAR:
		case EXPR_AGG:
		case EXPR_SUBLINK:
			break;				/* only SQLite evaluates these */
	}
	elog(ERROR, "unrecognized expression kind %d", (int) e->kind);
	return typio_null(UNKNOWNOID);
}

/*
 * run_on_cache -- a statement over the catalog cache, as the transaction sees it:
 * its rows collected, its writes captured
 */
static void
run_on_cache(ExecState *es)
{
	AnalyzedStmt *stmt = es->stmt;
	int64_t		changes = 0;

	es->tag = stmt->command_tag;
	for (int i = 0; i < stmt->nnotices; i++)
		ereport(NOTICE, errcode(stmt->notice_codes[i]), errmsg("%s", stmt->notices[i]));
	if (stmt->nsql == 0 && stmt->add_key == NULL)
		return;					/* every object was skipped */
	if (stmt->run_notice)
		ereport(NOTICE, errmsg("%s", stmt->run_notice),
				stmt->run_notice_detail ? errdetail("%s", stmt->run_notice_detail) : 0);
	if (stmt->alter_table)
		CacheAlterTableBegin();
	else
		CacheStatementBegin(stmt->target);
	for (int i = 0; i < stmt->ndropped; i++)
		CacheTableDropping(stmt->dropped[i]);
	for (int i = 0; i < stmt->nsql; i++)
	{
		bool		last = i == stmt->nsql - 1;

		if (last && stmt->kind == STMT_ROWS && stmt->target == CACHE_READ && es->to_completion &&
			(es->cursor = CacheCursorOpen(&stmt->sql[i], es->params)) != NULL)
			break;
		changes = CacheExecute(&stmt->sql[i], es->params, last && stmt->kind == STMT_ROWS ? stmt->ncolumns : 0,
							   stmt->columns, &es->cache_rows, &es->cache_nrows);
	}
	if (stmt->add_key)
		CacheAddTableKey(stmt->alter_table, stmt->add_key, stmt->add_key_columns);
	if (stmt->alter_table)
		CacheAlterTableEnd(stmt->alter_table);
	CacheStatementEnd();
	if (stmt->temp_table)
		CacheRememberTempTable(stmt->temp_table, stmt->on_commit_drop);
	if (strcmp(stmt->command_tag, "INSERT") == 0)
		es->tag = psprintf("INSERT 0 %lld", (long long) changes);
	else if (strcmp(stmt->command_tag, "UPDATE") == 0 || strcmp(stmt->command_tag, "DELETE") == 0)
		es->tag = psprintf("%s %lld", stmt->command_tag, (long long) changes);
}

/* ---------- SHOW ---------- */


static void
add_setting(const GucInfo *info, void *arg)
{
	ExecState  *es = arg;

	if (es->stmt->utility == UTIL_SHOW && strcasecmp(info->name, es->stmt->name) != 0)
		return;
	es->show = repalloc(es->show, sizeof(char *) * 3 * (size_t) (es->nshow + 1));
	es->show[es->nshow * 3] = pstrdup(info->name);
	es->show[es->nshow * 3 + 1] = pstrdup(info->setting);
	es->show[es->nshow * 3 + 2] = info->short_desc ? pstrdup(info->short_desc) : NULL;
	es->nshow++;
}

/* collect_settings -- SHOW name / SHOW ALL: the rows, taken when the statement starts */
static void
collect_settings(ExecState *es)
{
	es->show = palloc(sizeof(char *) * 3);
	DescribeConfigOptions(add_setting, es);
	if (es->stmt->utility == UTIL_SHOW && es->nshow == 0)
		UnrecognizedConfigOption(es->stmt->name);
}

/* ---------- the executor interface ---------- */

static int64_t
eval_count(ExecState *es, const Expr *e, int64_t if_null)
{
	if (e == NULL)
		return if_null;
	Value		v = ExecEvalExpr(es, e);

	if (!v.isnull && v.u.i < 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s must not be negative", if_null < 0 ? "LIMIT" : "OFFSET"));
	return v.isnull ? if_null : v.u.i;
}

int64_t
ExecutorInsertRows(AnalyzedStmt *stmt, const Value *rows, int64_t nrows, int64_t *at)
{
	CacheStatementBegin(stmt->target);
	for (int64_t i = 0; i < nrows; i++)
	{
		CHECK_FOR_INTERRUPTS();
		*at = i;
		CacheExecute(&stmt->sql[0], &rows[i * stmt->ncolumns], 0, NULL, NULL, NULL);
	}
	*at = -1;
	CacheStatementEnd();
	return nrows;
}

ExecState *
ExecutorStart(AnalyzedStmt *stmt, const Value *params, bool to_completion)
{
	ExecState  *es = palloc0(sizeof(ExecState));

	es->stmt = stmt;
	es->params = params;
	es->to_completion = to_completion;
	es->row_context = AllocSetContextCreate(CurrentMemoryContext, "ExecutorRow");
	es->row = palloc0(sizeof(Value) * (size_t) (stmt->ncolumns ? stmt->ncolumns : 1));
	es->limit = -1;
	if (stmt->kind == STMT_ROWS && stmt->nsql > 0)
		run_on_cache(es);
	else if (stmt->kind == STMT_UTILITY)
	{
		run_on_cache(es);
		es->done = true;
	}
	else if (stmt->plan != NULL)
	{
		es->limit = eval_count(es, stmt->plan->limit, -1);
		es->to_skip = eval_count(es, stmt->plan->offset, 0);
	}
	else
		collect_settings(es);
	return es;
}

ExecState *
ExecutorStartRows(AnalyzedStmt *stmt, Value *rows, int64_t nrows)
{
	ExecState  *es = palloc0(sizeof(ExecState));

	es->stmt = stmt;
	es->row_context = AllocSetContextCreate(CurrentMemoryContext, "ExecutorRow");
	es->row = palloc0(sizeof(Value) * (size_t) (stmt->ncolumns ? stmt->ncolumns : 1));
	es->limit = -1;
	es->cache_rows = rows;
	es->cache_nrows = nrows;
	return es;
}

/* next_source_row -- advance to the next candidate row; false at the end */
static bool
next_source_row(ExecState *es)
{
	Plan	   *plan = es->stmt->plan;

	if (plan->nvalues_rows > 0)
		return es->values_index++ < plan->nvalues_rows;
	if (plan->srf == NULL)
	{
		bool		first = !es->single_row_done;

		es->single_row_done = true;
		return first;
	}
	if (!es->srf_started)
	{
		Value		args[3] = {{0}};

		for (int i = 0; i < plan->srf->nargs; i++)
		{
			args[i] = ExecEvalExpr(es, plan->srf->args[i]);
			if (args[i].isnull)
				return false;
		}
		es->srf_current = args[0].u.i;
		es->srf_stop = args[1].u.i;
		es->srf_step = plan->srf->nargs > 2 ? args[2].u.i : 1;
		if (es->srf_step == 0)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("step size cannot equal zero"));
		es->srf_started = true;
	}
	else if (__builtin_add_overflow(es->srf_current, es->srf_step, &es->srf_current))
		return false;
	return es->srf_step > 0 ? es->srf_current <= es->srf_stop : es->srf_current >= es->srf_stop;
}

/* show_row -- the next setting SHOW lists */
static bool
show_row(ExecState *es)
{
	if (es->show_index >= es->nshow)
		return false;
	for (int i = 0; i < es->stmt->ncolumns; i++)
	{
		const char *text = es->show[es->show_index * 3 + i + (es->stmt->ncolumns == 1)];

		es->row[i] = text ? typio_string(TEXTOID, text, strlen(text)) : typio_null(TEXTOID);
	}
	es->show_index++;
	return true;
}

bool
ExecutorNext(ExecState *es, Value **row)
{
	AnalyzedStmt *stmt = es->stmt;
	Plan	   *plan = stmt->plan;

	*row = es->row;
	if (es->done)
		return false;
	MemoryContextReset(es->row_context);
	MemoryContext old = MemoryContextSwitchTo(es->row_context);
	bool		found = false;

	if (es->cursor)
	{
		found = CacheCursorNext(es->cursor, stmt->ncolumns, stmt->columns, es->row);
		if (!found)
			es->cursor = NULL;
	}
	else if (stmt->nsql > 0 || stmt->explain)
	{
		found = es->cache_next < es->cache_nrows;
		if (found)
			memcpy(es->row, &es->cache_rows[es->cache_next++ * stmt->ncolumns],
				   sizeof(Value) * (size_t) stmt->ncolumns);
	}
	else if (plan == NULL)
		found = show_row(es);
	else
		while (!found && (es->limit < 0 || es->produced < es->limit) && next_source_row(es))
		{
			CHECK_FOR_INTERRUPTS();
			Expr	  **targets = plan->nvalues_rows ? plan->values_rows[es->values_index - 1] : plan->targets;

			if (plan->where)
			{
				Value		w = ExecEvalExpr(es, plan->where);

				if (w.isnull || !w.u.b)
					continue;
			}
			if (es->to_skip > 0)
			{
				es->to_skip--;
				continue;
			}
			for (int i = 0; i < stmt->ncolumns; i++)
				es->row[i] = ExecEvalExpr(es, targets[i]);
			found = true;
		}
	MemoryContextSwitchTo(old);
	if (found)
		es->produced++;
	else
		es->done = true;
	return found;
}

char *
ExecutorCommandTag(ExecState *es, uint64_t nrows)
{
	if (es->stmt->kind == STMT_UTILITY)
		return pstrdup(es->tag);
	if (es->stmt->explain)
		return pstrdup("EXPLAIN");
	if (es->stmt->plan == NULL && es->stmt->nsql == 0)
		return pstrdup("SHOW");
	return psprintf("%s %llu", es->stmt->command_tag, (unsigned long long) nrows);
}
