"""The TimeZone setting, answered by RockLake as PostgreSQL 15 answers it in the same run:
timestamptz shown in the session's zone with its offset (local mean time before a zone's
first rule, BC years), read in it when the input has no offset (a skipped local time with
the offset before the change, a repeated one as standard time), its casts to and from
timestamp, date, time and timetz, extract / date_part / date_trunc in local time, AT TIME
ZONE, and numeric zones. A value stored under one zone is the same instant under another.
"""

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)

INSTANTS = ["2024-01-01 00:00:00+00", "2024-03-10 07:30:00+00", "2024-11-03 05:30:00+00",
            "1800-01-01 00:00:00+00", "0044-03-15 12:00:00+00 BC", "2500-07-01 00:00:00+00",
            "infinity", "-infinity"]


def per_zone(zone: str) -> list:
    shown = ", ".join(f"'{t}'::timestamptz::text" for t in INSTANTS)
    return [
        f"SET TimeZone = '{zone}'",
        "SHOW TimeZone",
        f"SELECT {shown}",
        "SELECT '2024-01-01 00:00'::timestamptz::text, '2024-03-10 02:30'::timestamptz::text,"
        " '2024-11-03 01:30'::timestamptz::text, '2024-06-01 12:00:00.123456'::timestamptz::text",
        "SELECT '2024-01-01 00:00+00'::timestamptz::timestamp::text, '2024-01-01 00:00+00'::timestamptz::date::text,"
        " '2024-01-01 00:00+00'::timestamptz::time::text, '2024-01-01 00:00+00'::timestamptz::timetz::text",
        "SELECT '2024-06-01'::date::timestamptz::text, '2024-06-01 10:00'::timestamp::timestamptz::text,"
        " 'infinity'::timestamptz::timestamp::text, '-infinity'::timestamptz::date::text",
        "SELECT extract(hour FROM '2024-07-01 12:00+00'::timestamptz), extract(day FROM '2024-07-01 02:00+00'::timestamptz),"
        " extract(epoch FROM '2024-07-01 12:00+00'::timestamptz), date_part('dow', '2024-07-01 02:00+00'::timestamptz)",
        "SELECT extract(timezone FROM '2024-01-01'::timestamptz), extract(timezone_hour FROM '2024-07-01'::timestamptz),"
        " extract(timezone_minute FROM '2024-07-01'::timestamptz), date_part('timezone', 'infinity'::timestamptz)",
        "SELECT date_trunc('day', '2024-03-10 12:00+00'::timestamptz)::text, date_trunc('hour', '2024-11-03 05:30+00'::timestamptz)::text,"
        " date_trunc('month', '2024-03-10 12:00+00'::timestamptz)::text, date_trunc('minute', '2024-11-03 06:30:59+00'::timestamptz)::text",
        "SELECT '2024-01-01 00:00'::timestamp = '2024-01-01 00:00'::timestamptz,"
        " ('2024-01-01 00:00+00'::timestamptz + interval '1 day')::text",
        "SELECT (timestamptz '2024-01-01 00:00+00' AT TIME ZONE 'Asia/Tokyo')::text,"
        " (timestamp '2024-03-10 02:30' AT TIME ZONE 'America/New_York')::text,"
        " (timestamp '2024-01-01 00:00' AT TIME ZONE 'UTC')::text, timezone('5', timestamptz '2024-01-01 00:00+00')::text",
        "SELECT current_date = now()::date, localtimestamp = now()::timestamp, now()::timetz::text = now()::time::timetz::text",
        "SELECT to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI:SS'), to_char('infinity'::timestamptz, 'YYYY')",
    ]


def test_timezones(both):
    """every zone kind: UTC, half-hour and quarter-hour zones, DST north and south,
    a zone with local mean time in its history, numbers of hours"""
    statements = []
    for zone in ("UTC", "Asia/Tokyo", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu",
                 "Australia/Lord_Howe", "America/St_Johns", "Europe/London", "Pacific/Apia", "5", "-3.5"):
        statements += per_zone(zone)
    same_answers(both, statements)


def test_zone_errors_and_storage(both):
    """unknown zones are refused as PostgreSQL does; a stored timestamptz is an instant,
    read back the same under another zone, in text and compared"""
    same_answers(both, [
        "SET TimeZone = 'Nowhere/Else'",
        "SELECT timezone('Nowhere', now())",
        "SELECT extract(timezone FROM '2024-01-01'::timestamp)",
        "DROP TABLE IF EXISTS tz_t",
        "CREATE TABLE tz_t (k integer, t timestamptz)",
        "SET TimeZone = 'Asia/Tokyo'",
        "INSERT INTO tz_t VALUES (1, '2024-01-01 09:00'), (2, '2024-01-01 00:00+00'), (3, 'infinity')",
        "SET TimeZone = 'America/New_York'",
        "INSERT INTO tz_t VALUES (4, '2024-07-01 12:00')",
        "SELECT k, t::text FROM tz_t ORDER BY k",
        "SELECT count(*) FROM tz_t WHERE t = '2024-01-01 00:00+00'",
        "RESET TimeZone",
        "SELECT k, t::text, extract(hour FROM t) FROM tz_t ORDER BY t, k",
        "DROP TABLE tz_t",
    ])
