/*
 * timezone.c: the session's time zone, and AT TIME ZONE (timezone.h).
 *
 * The TimeZone setting is read on every use (its C mirror, session_timezone, so no
 * name lookup), so SET, RESET, SET LOCAL and a transaction's rollback need no hook.
 * A zone of the tz database is the process's TZ:
 * a name other than the one set up last sets TZ and calls tzset() once, and localtime_r
 * gives the offsets. A backend serves one session and formats no log times through
 * localtime, so the process-wide TZ is the session's own (or, within one call, the
 * zone AT TIME ZONE names). UTC and numbers need no lookup.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "utils/adt/timezone.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"

static char tz_set_up[256];		/* the tz database zone TZ names now */

/*
 * fixed_offset -- whether name is a fixed offset (UTC, GMT, a number of hours), and
 * its seconds east of UTC: east of UTC for the TimeZone setting, west in POSIX's
 * sense for AT TIME ZONE (PostgreSQL reads numbers both ways)
 */
static bool
fixed_offset(const char *name, bool posix, int32_t *east)
{
	char	   *end;
	double		hours = strtod(name, &end);
	int			h1,
				m1 = 0,
				h2,
				m2 = 0,
				n = 0;
	char		s1,
				s2;

	if (end != name && *end == '\0')
	{
		*east = (int32_t) (hours * 3600) * (posix ? -1 : 1);
		return true;
	}
	/* the form SET TIME ZONE gives a number ("<+05:30>-05:30", timezone_from_hours) */
	if ((sscanf(name, "<%c%2d:%2d>%c%2d:%2d%n", &s1, &h1, &m1, &s2, &h2, &m2, &n) == 6 ||
		 sscanf(name, "<%c%2d>%c%2d%n", &s1, &h1, &s2, &h2, &n) == 4) &&
		name[n] == '\0' && (s1 == '+' || s1 == '-') && s2 == (s1 == '+' ? '-' : '+') &&
		h1 == h2 && m1 == m2)
	{
		*east = (h1 * 3600 + m1 * 60) * (s1 == '+' ? 1 : -1);
		return true;
	}
	*east = 0;
	return strcasecmp(name, "UTC") == 0 || strcasecmp(name, "GMT") == 0 ||
		strcasecmp(name, "Etc/UTC") == 0;
}

bool
timezone_is_known(const char *name)
{
	int32_t		east;
	char		path[512];
	struct stat st;

	if (fixed_offset(name, false, &east))
		return true;
	if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") != NULL)
		return false;
	snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool
timezone_from_hours(const char *value, char *out, size_t outlen)
{
	char	   *end;
	double		hours = strtod(value, &end);

	if (end == value || *end != '\0' || !(hours > -24 && hours < 24))
		return false;

	int			minutes = (int) (hours * 60 + (hours < 0 ? -0.5 : 0.5)),
				a = minutes < 0 ? -minutes : minutes;
	char		sign = minutes < 0 ? '-' : '+',
				opposite = minutes < 0 ? '+' : '-';

	if (a % 60)
		snprintf(out, outlen, "<%c%02d:%02d>%c%02d:%02d", sign, a / 60, a % 60, opposite, a / 60, a % 60);
	else
		snprintf(out, outlen, "<%c%02d>%c%02d", sign, a / 60, opposite, a / 60);
	return true;
}

/* set_up -- make the tz database zone name the one localtime_r uses */
static void
set_up(const char *name)
{
	if (strcmp(name, tz_set_up) == 0)
		return;
	snprintf(tz_set_up, sizeof(tz_set_up), "%s", name);
	setenv("TZ", name, 1);
	tzset();
}

/* offset_at_unix -- seconds east of UTC at the Unix time t under TZ; its DST flag */
static int32_t
offset_at_unix(int64_t t, bool *dst)
{
	time_t		tt = (time_t) t;
	struct tm	tm;

	if (localtime_r(&tt, &tm) == NULL)
	{
		if (dst)
			*dst = false;
		return 0;
	}
	if (dst)
		*dst = tm.tm_isdst > 0;
	return (int32_t) tm.tm_gmtoff;
}

/* unix_seconds -- the Unix time (floor) of a timestamp's microseconds since 2000 */
static int64_t
unix_seconds(int64_t ts)
{
	int64_t		secs = ts / USECS_PER_SEC;

	if (ts % USECS_PER_SEC < 0)
		secs--;
	return secs + UNIX_EPOCH_SECS;
}

/* offset_in -- seconds east of UTC in zone at the instant ts */
static int32_t
offset_in(const char *zone, bool posix, int64_t ts)
{
	int32_t		east;

	if (fixed_offset(zone, posix, &east))
		return east;
	set_up(zone);
	return offset_at_unix(unix_seconds(ts), NULL);
}

/*
 * local_to_utc_in -- the instant of local time local in zone. No zone changes its
 * offset twice within a day: the offsets a day either side are the candidates. One
 * that maps back to itself is the answer; two are an overlap (standard time wins, else
 * the later instant), none a gap (the offset before the change), as PostgreSQL reads
 * them.
 */
static int64_t
local_to_utc_in(const char *zone, bool posix, int64_t local)
{
	int32_t		east;

	if (fixed_offset(zone, posix, &east))
		return local - (int64_t) east * USECS_PER_SEC;
	set_up(zone);

	int64_t		secs = unix_seconds(local);
	int32_t		before = offset_at_unix(secs - 86400, NULL),
				after = offset_at_unix(secs + 86400, NULL);
	bool		before_dst,
				after_dst;
	bool		before_ok = offset_at_unix(secs - before, &before_dst) == before,
				after_ok = offset_at_unix(secs - after, &after_dst) == after;

	if (before_ok && after_ok && before != after)
		east = before_dst != after_dst ? (before_dst ? after : before) : (before < after ? before : after);
	else
		east = after_ok && !before_ok ? after : before;
	return local - (int64_t) east * USECS_PER_SEC;
}

char	   *session_timezone;

static const char *
session_zone(void)
{
	return session_timezone ? session_timezone : "UTC";
}

int32_t
session_tz_offset(int64_t ts)
{
	return offset_in(session_zone(), false, ts);
}

int64_t
session_tz_local_to_utc(int64_t local)
{
	return local_to_utc_in(session_zone(), false, local);
}

int64_t
session_tz_to_local(int64_t ts)
{
	if (!TIMESTAMP_IS_FINITE(ts))
		return ts;
	return ts + (int64_t) session_tz_offset(ts) * USECS_PER_SEC;
}

/* known_zone -- zone, or 22023 as PostgreSQL's timestamptz_zone says */
static const char *
known_zone(const char *zone)
{
	if (!timezone_is_known(zone))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("time zone \"%s\" not recognized", zone));
	return zone;
}

int64_t
timezone_to_local(const char *zone, int64_t ts)
{
	known_zone(zone);
	if (!TIMESTAMP_IS_FINITE(ts))
		return ts;
	return ts + (int64_t) offset_in(zone, true, ts) * USECS_PER_SEC;
}

int64_t
timezone_local_to_utc(const char *zone, int64_t local)
{
	known_zone(zone);
	if (!TIMESTAMP_IS_FINITE(local))
		return local;
	return local_to_utc_in(zone, true, local);
}
