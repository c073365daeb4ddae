/*
 * timezone.h: the session's time zone (the TimeZone setting), as timestamptz's text
 * form, its casts and its field functions use it.
 *
 * A timestamptz is an instant (microseconds since 2000-01-01 00:00 UTC) and stays one
 * wherever it is stored, sent in binary or compared; only where PostgreSQL goes through
 * local time does the zone matter: text output (the local time and its offset, "+09",
 * "-03:30", "+00:19:32" for a local mean time), text input without an offset (local
 * time), casts to and from timestamp, date, time and timetz, and extract / date_part /
 * date_trunc. Offsets come from the system's tz database (glibc, reading
 * /usr/share/zoneinfo, the files PostgreSQL's own copy is made from), so they cover
 * every year, the zone's local mean time before its first rule and its POSIX rule after
 * the last. A local time a change of offset skips or repeats is read as PostgreSQL reads
 * it: in a gap with the offset before the change, in an overlap as standard time.
 * UTC, the default, and a numeric setting (hours east, as SET TIME ZONE 5) need no
 * lookup. AT TIME ZONE (PostgreSQL's timezone(zone, value)) does the same in the zone
 * it names, where a number is hours west (POSIX's sense, as in PostgreSQL).
 */
#ifndef RL_TIMEZONE_H
#define RL_TIMEZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The TimeZone setting's value (guc.c keeps it current; NULL before settings exist). */
extern char *session_timezone;

/* Seconds east of UTC in the session's zone at the instant ts (a finite timestamptz). */
int32_t		session_tz_offset(int64_t ts);

/* The instant of local time local (a finite timestamp) in the session's zone. */
int64_t		session_tz_local_to_utc(int64_t local);

/* The local time (a timestamp) of the instant ts in the session's zone; infinities stay. */
int64_t		session_tz_to_local(int64_t ts);

/* Whether name is a zone: UTC, GMT, a number of hours, or a zone of the tz database. */
bool		timezone_is_known(const char *name);

/*
 * A TimeZone setting of a number of hours east as PostgreSQL shows it, a POSIX zone:
 * "5" is "<+05>-05", "-3.5" "<-03:30>+03:30". false if value is no such number.
 */
bool		timezone_from_hours(const char *value, char *out, size_t outlen);

/* value AT TIME ZONE zone: a timestamptz's local time there; a timestamp's instant. */
int64_t		timezone_to_local(const char *zone, int64_t ts);
int64_t		timezone_local_to_utc(const char *zone, int64_t local);

#endif							/* RL_TIMEZONE_H */
