/*
 * datetime.c: text input and output of date, time, timetz, timestamp, timestamptz
 * and interval (typio.h; PostgreSQL's datetime.c, date.c and timestamp.c), with
 * DateStyle ISO and IntervalStyle postgres. typio.c dispatches to these, and holds
 * the binary forms; dates and timestamps count from 2000-01-01.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utils/adt/timezone.h"
#include "utils/adt/typio.h"
#include "utils/adt/typio_internal.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

/* ---------- dates and times ---------- */

/* days_from_civil -- Howard Hinnant's algorithm, days since 1970-01-01 */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t		era = (y >= 0 ? y : y - 399) / 400;
	int64_t		yoe = y - era * 400;
	int64_t		doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

#define POSTGRES_EPOCH_DAYS 10957	/* 2000-01-01 counted from 1970-01-01 */

int64_t
date_from_ymd(int year, int month, int day)
{
	return days_from_civil(year, month, day) - POSTGRES_EPOCH_DAYS;
}

void
date_to_ymd(int64_t days, int *year, int *month, int *day)
{
	int64_t		z = days + POSTGRES_EPOCH_DAYS + 719468;
	int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t		doe = z - era * 146097;
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t		mp = (5 * doy + 2) / 153;

	*day = (int) (doy - (153 * mp + 2) / 5 + 1);
	*month = (int) (mp < 10 ? mp + 3 : mp - 9);
	*year = (int) (yoe + era * 400 + (*month <= 2));
}

static bool
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int y, int m)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && is_leap(y) ? 29 : mdays[m - 1];
}

/* parse_number -- n digits or more at *s; -1 when there are none */
static long
parse_number(const char **s, int *ndigits)
{
	long		v = 0;
	int			n = 0;

	while (isdigit((unsigned char) **s) && n < 12)
	{
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	if (ndigits)
		*ndigits = n;
	return n ? v : -1;
}

/*
 * parse_time_of_day -- "HH:MM[:SS[.ffffff]]" at *s into microseconds
 *
 * Returns false on bad syntax; an out-of-range field raises 22008. A time of day
 * goes up to 24:00:00 (and a leap second); an interval's time field has any number
 * of hours, as PostgreSQL's, and its output (25:10:32) must read back; one too big
 * is 22015, or bad syntax when signed_interval (it had a sign before it).
 */
static void interval_field_overflow(const char *str) __attribute__((noreturn));

static bool
parse_time_of_day(const char **s, int64_t *usecs, const char *orig, bool interval, bool signed_interval)
{
	long		h = parse_number(s, NULL),
				m = 0,
				sec = 0;
	int64_t		frac = 0;

	if (h < 0 || **s != ':')
		return false;
	(*s)++;
	if ((m = parse_number(s, NULL)) < 0)
		return false;
	if (**s == ':')
	{
		(*s)++;
		if ((sec = parse_number(s, NULL)) < 0)
			return false;
		if (**s == '.')
		{
			/* as PostgreSQL rounds a fraction to microseconds: rint of a double's */
			size_t		n = 1 + strspn(*s + 1, "0123456789");
			char	   *digits = pnstrdup(*s, n);

			frac = (int64_t) rint(strtod(digits, NULL) * USECS_PER_SEC);
			pfree(digits);
			*s += n;
		}
	}
	if (interval)
	{
		if (m > 59 || sec > 60 || __builtin_mul_overflow((int64_t) h, USECS_PER_HOUR, usecs) ||
			__builtin_add_overflow(*usecs, m * USECS_PER_MINUTE + sec * USECS_PER_SEC + frac, usecs))
		{
			/* PostgreSQL reads a signed time it cannot hold as a number, and fails */
			if (signed_interval)
				invalid_datetime(INTERVALOID, orig);
			interval_field_overflow(orig);
		}
		return true;
	}
	/* as PostgreSQL's time_overflows: 24 hours or a leap second, but never past 24:00:00 */
	if (h > 24 || m > 59 || sec > 60)
		datetime_out_of_range(orig);
	*usecs = h * USECS_PER_HOUR + m * USECS_PER_MINUTE + sec * USECS_PER_SEC + frac;
	if (*usecs > USECS_PER_DAY)
		datetime_out_of_range(orig);
	return true;
}

/*
 * strip_trailing_bc -- PostgreSQL writes BC last ("0001-02-03 00:00:00+00 BC"): str
 * without that word (a copy) and *bc set, or str itself
 */
static const char *
strip_trailing_bc(const char *str, bool *bc)
{
	size_t		len = strlen(str);

	while (len > 0 && isspace((unsigned char) str[len - 1]))
		len--;
	*bc = len > 2 && strncasecmp(str + len - 2, "BC", 2) == 0 && isspace((unsigned char) str[len - 3]);
	return *bc ? pnstrdup(str, len - 2) : str;
}

/*
 * parse_date_part -- "YYYY-MM-DD" at *s into days (BC right after it, or bc: the
 * input ended with BC); false on bad syntax. There is no year 0, as in PostgreSQL.
 */
static bool
parse_date_part(const char **s, int64_t *days, const char *orig, bool bc)
{
	long		y = parse_number(s, NULL),
				m,
				d;

	if (y < 0 || **s != '-')
		return false;
	(*s)++;
	if ((m = parse_number(s, NULL)) < 0 || **s != '-')
		return false;
	(*s)++;
	if ((d = parse_number(s, NULL)) < 0)
		return false;
	const char *rest = skip_space(*s);

	if (!bc && strncasecmp(rest, "BC", 2) == 0)
	{
		bc = true;
		*s = rest + 2;
	}
	if (y == 0)
		datetime_out_of_range(orig);
	if (bc)
		y = 1 - y;
	if (m < 1 || m > 12 || d < 1 || d > days_in_month((int) y, (int) m))
		datetime_out_of_range(orig);
	*days = date_from_ymd((int) y, (int) m, (int) d);
	return true;
}

/*
 * parse_zone -- "Z", "UTC", "+HH", "+HH:MM", "+HH:MM:SS", "+HHMM" into seconds east of UTC; more
 * than 15 hours is 22009 for orig, as PostgreSQL says
 */
static bool
parse_zone(const char **s, int64_t *offset, const char *orig)
{
	const char *p = skip_space(*s);

	if (*p == 'Z' || *p == 'z')
	{
		*offset = 0;
		*s = p + 1;
		return true;
	}
	if (strncasecmp(p, "UTC", 3) == 0 || strncasecmp(p, "GMT", 3) == 0)
	{
		*offset = 0;
		*s = p + 3;
		return true;
	}
	if (*p != '+' && *p != '-')
		return false;
	int			sign = *p == '-' ? -1 : 1;
	int			n;

	p++;
	long		hh = parse_number(&p, &n),
				mm = 0,
				ss = 0;

	if (hh < 0)
		return false;
	if (n == 4)
	{
		mm = hh % 100;
		hh /= 100;
	}
	else if (*p == ':')
	{
		p++;
		if ((mm = parse_number(&p, NULL)) < 0)
			return false;
		if (*p == ':')
		{
			p++;
			if ((ss = parse_number(&p, NULL)) < 0)
				return false;
		}
	}
	if (mm > 59 || ss > 59)
		return false;
	if (hh > 15)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE),
				errmsg("time zone displacement out of range: \"%s\"", orig));
	*offset = sign * (hh * 3600 + mm * 60 + ss);
	*s = p;
	return true;
}

static bool
special_word(const char *str, const char *word)
{
	const char *s = skip_space(str);
	size_t		n = strlen(word);

	return strncasecmp(s, word, n) == 0 && *skip_space(s + n) == '\0';
}

Value
date_in(const char *str)
{
	bool		bc;
	const char *s = skip_space(strip_trailing_bc(str, &bc));
	int64_t		days;

	if (special_word(str, "infinity"))
		return typio_int(DATEOID, DATE_NOEND);
	if (special_word(str, "-infinity"))
		return typio_int(DATEOID, DATE_NOBEGIN);
	if (special_word(str, "epoch"))
		return typio_int(DATEOID, date_from_ymd(1970, 1, 1));
	if (!parse_date_part(&s, &days, str, bc))
		invalid_datetime(DATEOID, str);
	/* a time of day (and zone) after the date is accepted and ignored */
	if (*s == 'T' || *s == ' ')
	{
		const char *t = skip_space(*s == 'T' ? s + 1 : s);
		int64_t		usecs,
					offset;

		if (*t && parse_time_of_day(&t, &usecs, str, false, false))
		{
			s = t;
			parse_zone(&s, &offset, str);
		}
	}
	if (*skip_space(s) != '\0')
		invalid_datetime(DATEOID, str);
	/* PostgreSQL's range: 4714-11-24 BC (Julian day 0) up to 5874897-12-31 */
	if (days < DATE_MIN || days >= DATE_END)
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("date out of range: \"%s\"", str));
	return typio_int(DATEOID, days);
}

void
format_date(RlBuf *out, int64_t days)
{
	int			y,
				m,
				d;

	date_to_ymd(days, &y, &m, &d);
	if (y > 0)
		rlbuf_printf(out, "%04d-%02d-%02d", y, m, d);
	else
		rlbuf_printf(out, "%04d-%02d-%02d BC", 1 - y, m, d);
}

/* format_time -- HH:MM:SS[.ffffff] with trailing zeros of the fraction dropped */
void
format_time(RlBuf *out, int64_t usecs)
{
	int64_t		frac = usecs % USECS_PER_SEC;
	int64_t		secs = usecs / USECS_PER_SEC;

	rlbuf_printf(out, "%02d:%02d:%02d", (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
	if (frac)
	{
		char		f[8];
		int			n = 6;

		snprintf(f, sizeof(f), "%06d", (int) frac);
		while (n > 0 && f[n - 1] == '0')
			n--;
		f[n] = '\0';
		rlbuf_printf(out, ".%s", f);
	}
}

/* timetz_in -- a time of day and a zone (+00, the session's, when none is written) */
Value
timetz_in(const char *str)
{
	const char *s = skip_space(str);
	int64_t		usecs,
				east = 0;

	if (!parse_time_of_day(&s, &usecs, str, false, false) || (*skip_space(s) != '\0' && !parse_zone(&s, &east, str)) ||
		*skip_space(s) != '\0')
		invalid_datetime(TIMETZOID, str);
	return typio_int(TIMETZOID, timetz_pack(usecs, (int32_t) -east));
}

/* format_zone -- a zone (seconds west of UTC) as PostgreSQL shows it: +02, -08, +05:30 */
void
format_zone(RlBuf *out, int32_t zone)
{
	int32_t		east = zone < 0 ? -zone : zone;

	rlbuf_printf(out, "%c%02d", zone <= 0 ? '+' : '-', east / 3600);
	if (east % 3600)
		rlbuf_printf(out, ":%02d", east / 60 % 60);
	if (east % 60)
		rlbuf_printf(out, ":%02d", east % 60);
}

Value
time_in(const char *str)
{
	const char *s = skip_space(str);
	int64_t		usecs;

	if (!parse_time_of_day(&s, &usecs, str, false, false) || *skip_space(s) != '\0')
		invalid_datetime(TIMEOID, str);
	return typio_int(TIMEOID, usecs);
}

Value
timestamp_in(Oid type, const char *str)
{
	bool		bc;
	const char *s = skip_space(strip_trailing_bc(str, &bc));
	int64_t		days,
				usecs = 0,
				offset = 0;

	if (special_word(str, "infinity"))
		return typio_int(type, DT_NOEND);
	if (special_word(str, "-infinity"))
		return typio_int(type, DT_NOBEGIN);
	if (special_word(str, "epoch"))
		return typio_int(type, date_from_ymd(1970, 1, 1) * USECS_PER_DAY);
	if (!parse_date_part(&s, &days, str, bc))
		invalid_datetime(type, str);
	if (*s == 'T' || *s == ' ')
	{
		const char *t = skip_space(*s == 'T' ? s + 1 : s);

		if (*t && !parse_time_of_day(&t, &usecs, str, false, false))
			invalid_datetime(type, str);
		s = t;
	}
	bool		has_zone = *skip_space(s) != '\0';

	if (has_zone && !parse_zone(&s, &offset, str))
		invalid_datetime(type, str);
	if (*skip_space(s) != '\0')
		invalid_datetime(type, str);
	int64_t		ts;

	/*
	 * a zone in timestamp-without-zone input is ignored, as PostgreSQL does; a
	 * timestamptz without one is local time in the session's zone
	 */
	bool		overflow = __builtin_mul_overflow(days, USECS_PER_DAY, &ts) ||
		__builtin_add_overflow(ts, usecs, &ts);

	if (!overflow && type == TIMESTAMPTZOID && has_zone)
		overflow = __builtin_sub_overflow(ts, offset * USECS_PER_SEC, &ts);
	else if (!overflow && type == TIMESTAMPTZOID)
		ts = session_tz_local_to_utc(ts);
	if (overflow || ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP)
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("timestamp out of range: \"%s\"", str));
	return typio_int(type, ts);
}

void
format_timestamp(RlBuf *out, int64_t ts, bool with_zone)
{
	if (ts == DT_NOEND || ts == DT_NOBEGIN)
	{
		rlbuf_append_str(out, ts == DT_NOEND ? "infinity" : "-infinity");
		return;
	}
	int32_t		east = with_zone ? session_tz_offset(ts) : 0;

	ts += (int64_t) east * USECS_PER_SEC;
	int64_t		days = ts / USECS_PER_DAY;
	int64_t		usecs = ts % USECS_PER_DAY;

	if (usecs < 0)
	{
		usecs += USECS_PER_DAY;
		days--;
	}
	int			y,
				m,
				d;

	date_to_ymd(days, &y, &m, &d);
	rlbuf_printf(out, "%04d-%02d-%02d ", y > 0 ? y : 1 - y, m, d);
	format_time(out, usecs);
	if (with_zone)
		format_zone(out, -east);
	if (y <= 0)
		rlbuf_append_str(out, " BC");
}

/* ---------- interval ---------- */

static void __attribute__((noreturn))
interval_field_overflow(const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INTERVAL_FIELD_OVERFLOW),
			errmsg("interval field value out of range: \"%s\"", str));
}

/* interval_add_time -- n units of unit microseconds added to the time part, or 22008 */
static void
interval_add_time(Interval *iv, double n, int64_t unit, const char *str)
{
	double		usecs = rint(n * (double) unit);
	int64_t		r;

	if (!(usecs > -9.2e18 && usecs < 9.2e18) || __builtin_add_overflow(iv->time, (int64_t) usecs, &r))
		interval_field_overflow(str);
	iv->time = r;
}

/* interval_add_field -- n times unit added to a day or month count, or 22008 */
static int32_t
interval_add_field(int32_t field, double n, int unit, const char *str)
{
	double		r = (double) field + trunc(n * unit);

	if (!(r >= INT32_MIN && r <= INT32_MAX))
		interval_field_overflow(str);
	return (int32_t) r;
}

/*
 * iso_interval -- ISO 8601's designator form, "P1Y2M3W4DT5H6M7.5S" (M is months
 * before the T, minutes after it), as PostgreSQL reads it into iv; false if str is
 * not in that form
 */
static bool
iso_interval(const char *str, Interval *iv)
{
	const char *s = skip_space(str);
	bool		time = false;

	if (*s != 'P' || s[1] == '\0')
		return false;
	for (s++; *s && !isspace((unsigned char) *s);)
	{
		char	   *end;
		double		n;

		if (*s == 'T' && !time)
		{
			time = true;
			s++;
			continue;
		}
		if (!isdigit((unsigned char) *s) && *s != '-' && *s != '+' && *s != '.')
			invalid_datetime(INTERVALOID, str);
		n = strtod(s, &end);
		if (end == s || strchr("eEnNiIxX", *end) != NULL)
			invalid_datetime(INTERVALOID, str);
		s = end + 1;
		switch (time ? tolower((unsigned char) *end) : toupper((unsigned char) *end))
		{
			case 'Y':
				iv->month = interval_add_field(iv->month, n, 12, str);
				break;
			case 'M':
				iv->month = interval_add_field(iv->month, n, 1, str);
				break;
			case 'W':
				iv->day = interval_add_field(iv->day, n, 7, str);
				break;
			case 'D':
				iv->day = interval_add_field(iv->day, n, 1, str);
				break;
			case 'h':
				interval_add_time(iv, n, USECS_PER_HOUR, str);
				break;
			case 'm':
				interval_add_time(iv, n, USECS_PER_MINUTE, str);
				break;
			case 's':
				interval_add_time(iv, n, USECS_PER_SEC, str);
				break;
			default:
				invalid_datetime(INTERVALOID, str);
		}
	}
	if (*skip_space(s) != '\0')
		invalid_datetime(INTERVALOID, str);
	return true;
}

Value
interval_in(const char *str)
{
	const char *s = skip_space(str);
	Interval	iv = {0, 0, 0};
	bool		any = false;

	if (iso_interval(str, &iv))
	{
		Value		v = {.type = INTERVALOID, .u.iv = iv};

		return v;
	}
	if (*s == '@')
		s = skip_space(s + 1);
	while (*s)
	{
		const char *start = s;
		int64_t		usecs;
		bool		neg = *s == '-';

		if (*s == '-' || *s == '+')
			s++;
		size_t		ndigits = strspn(s, "0123456789");

		if (ndigits > 0 && s[ndigits] == ':' && parse_time_of_day(&s, &usecs, str, true, s != start))
		{
			if (__builtin_add_overflow(iv.time, neg ? -usecs : usecs, &iv.time))
				interval_field_overflow(str);
			any = true;
			s = skip_space(s);
			continue;
		}
		s = start;
		/* a decimal number: strtod's "nan", "inf" and hex forms are not interval input */
		const char *digits = s + (*s == '-' || *s == '+');
		size_t		nint = strspn(digits, "0123456789");
		size_t		nfrac = digits[nint] == '.' ? strspn(digits + nint + 1, "0123456789") : 0;
		char	   *end;
		double		n;

		if (nint + nfrac == 0)
			invalid_datetime(INTERVALOID, str);
		n = strtod(s, &end);
		if (end != digits + nint + (digits[nint] == '.' ? 1 + nfrac : 0))
			invalid_datetime(INTERVALOID, str);
		s = skip_space(end);
		const char *unit = s;

		while (isalpha((unsigned char) *s))
			s++;
		size_t		ulen = (size_t) (s - unit);

#define UNIT_IS(word) (ulen > 0 && strncasecmp(unit, word, ulen) == 0 && ulen <= strlen(word))
		if (UNIT_IS("microseconds") || UNIT_IS("usecs") || UNIT_IS("us"))
			interval_add_time(&iv, n, 1, str);
		else if (UNIT_IS("milliseconds") || UNIT_IS("msecs") || UNIT_IS("ms"))
			interval_add_time(&iv, n, 1000, str);
		else if (ulen == 0 || UNIT_IS("seconds") || UNIT_IS("secs"))
			interval_add_time(&iv, n, USECS_PER_SEC, str);
		else if (UNIT_IS("minutes") || UNIT_IS("mins"))
			interval_add_time(&iv, n, USECS_PER_MINUTE, str);
		else if (UNIT_IS("hours") || UNIT_IS("hrs"))
			interval_add_time(&iv, n, USECS_PER_HOUR, str);
		else if (UNIT_IS("days"))
			iv.day = interval_add_field(iv.day, n, 1, str);
		else if (UNIT_IS("weeks"))
			iv.day = interval_add_field(iv.day, n, 7, str);
		else if (UNIT_IS("mons") || UNIT_IS("months"))
			iv.month = interval_add_field(iv.month, n, 1, str);
		else if (UNIT_IS("years"))
			iv.month = interval_add_field(iv.month, n, 12, str);
		else
			invalid_datetime(INTERVALOID, str);
#undef UNIT_IS
		any = true;
		s = skip_space(s);
		if (strncasecmp(s, "ago", 3) == 0 && *skip_space(s + 3) == '\0')
		{
			if (iv.time == INT64_MIN || iv.day == INT32_MIN || iv.month == INT32_MIN)
				interval_field_overflow(str);
			iv.time = -iv.time;
			iv.day = -iv.day;
			iv.month = -iv.month;
			s += 3;
		}
		s = skip_space(s);
	}
	if (!any)
		invalid_datetime(INTERVALOID, str);
	Value		v = {.type = INTERVALOID, .u.iv = iv};

	return v;
}

/*
 * interval_part -- one field of PostgreSQL's interval output: a positive field after
 * a negative one is written with its sign ("-1 years +2 mons"), as PostgreSQL does
 */
static void
interval_part(RlBuf *out, int64_t n, const char *singular, const char *plural, bool *negative_before)
{
	if (n == 0)
		return;
	if (out->len > 0)
		rlbuf_put_u8(out, ' ');
	rlbuf_printf(out, "%s%lld %s", *negative_before && n > 0 ? "+" : "", (long long) n, n == 1 ? singular : plural);
	*negative_before = n < 0;
}

void
format_interval(RlBuf *out, const Interval *iv)
{
	bool		negative_before = false;

	interval_part(out, iv->month / 12, "year", "years", &negative_before);
	interval_part(out, iv->month % 12, "mon", "mons", &negative_before);
	interval_part(out, iv->day, "day", "days", &negative_before);
	if (iv->time != 0 || out->len == 0)
	{
		/* unsigned, so that the most negative time has a magnitude too */
		uint64_t	t = iv->time < 0 ? 0 - (uint64_t) iv->time : (uint64_t) iv->time;

		if (out->len > 0)
			rlbuf_put_u8(out, ' ');
		if (iv->time < 0 || negative_before)
			rlbuf_put_u8(out, iv->time < 0 ? '-' : '+');
		uint64_t	hours = t / USECS_PER_HOUR;

		rlbuf_printf(out, "%02llu:", (unsigned long long) hours);
		RlBuf		rest;

		rlbuf_init_in(&rest, CurrentMemoryContext);
		format_time(&rest, (int64_t) (t % USECS_PER_HOUR));
		rlbuf_append_str(out, rlbuf_cstr(&rest) + 3);	/* skip the "00:" hours */
		rlbuf_free(&rest);
	}
}
