"""Inputs that once took a backend (and with it every session of the server) down, and
writes that failed for their size: each is sent to RockLake and to PostgreSQL 15, and
both must give the same answer or the same SQLSTATE, with the server still serving the
same sessions afterwards (a crashed backend would reset them all).
"""

import psycopg
import pytest
from psycopg.types.string import TextLoader

from answers import answer

# values compared as the text the server sent (psycopg cannot hold infinite dates)
TEXT_TYPES = ["date", "time", "timestamp", "timestamptz", "interval", "numeric", "int2", "int4",
              "int8", "oid", "float8", "bool", "regclass", "regtype"]

# every cast pair of these types, from these literals, must answer without a crash
CAST_TYPES = ["int2", "int4", "int8", "float8", "numeric", "text", "oid", "regclass",
              "regtype", "date", "time", "timestamp", "timestamptz", "interval"]
CAST_LITERALS = ["1", "-1", "'NaN'", "'infinity'", "'-infinity'", "'2024-01-01'", "'1 day'"]

SAME_ANSWER = [
    "SELECT 1::regclass::int4",
    "SELECT 4294967295::oid::int4, 1::regtype::int8, (1::regclass)::int4 + 1",
    "SELECT 1 IN (" + ", ".join(str(i) for i in range(100_000)) + ")",
    "SELECT 'infinity'::date::timestamp, '-infinity'::timestamp::date",
    "SELECT 'infinity'::timestamp + interval '1 day', '-infinity'::date + 1",
    "SELECT interval '1 ms 3 us', interval '0 months 1 days 0 microseconds'",
    "SELECT 'NaN'::interval",
    "SELECT 'infinity'::interval",
    "SELECT '1e400 days'::interval",
    "SELECT -1::oid",
    "SELECT 'infinity'::timestamp - 'infinity'::timestamp",
    "SELECT timestamp '294276-12-31' + interval '1 day'",
    # what the libFuzzer targets found (doc/robustness.md): values that did not read back ...
    "SELECT '25:10:32.5'::interval, '-100:00'::interval, '1:00:60'::interval, '2562047788:00:00'::interval",
    "SELECT '-'::regclass, '-'::regtype",
    "SELECT '0001-02-03 00:00:00+00 BC'::timestamptz, '0001-02-03 04:05 BC'::timestamp, '0044-03-15 BC'::date",
    # ... no year 0, and timestamps past the range
    "SELECT '00-2-3'::date",
    "SELECT '0000-01-01'::date",
    "SELECT '23:59:60'::time, '12:00:60.5'::time",
    "SELECT '23:59:60.931'::time",
    "SELECT '2000-01-01 23:59:60.5'::timestamp",
    # ... and type modifiers out of PostgreSQL's range, which took the backend down
    "SELECT '1.5'::numeric(-4,2)",
    "SELECT '1'::numeric(2147483647)",
    "SELECT 'a'::varchar(0)",
    "SELECT 'a'::char(2147483647)",
    "SELECT '294277-01-01'::timestamp",
    "SELECT '294726-12-31 23:59:59.999999+00'::timestamptz",
]


@pytest.fixture
def both(rocklake_server, postgres_server):
    with rocklake_server.connect(autocommit=True) as rl, postgres_server.connect(autocommit=True) as pg:
        for conn in (rl, pg):
            conn.execute("SET TimeZone = 'UTC'")
            for t in TEXT_TYPES:
                conn.adapters.register_loader(t, TextLoader)
        yield rl, pg


def test_same_answers(rocklake_server, both):
    rl, pg = both
    pid = rocklake_server.pid
    with rocklake_server.connect(autocommit=True) as bystander:
        for sql in SAME_ANSWER:
            assert answer(rl, sql) == answer(pg, sql), sql[:100]
        assert bystander.execute("SELECT 42").fetchone() == (42,)
    assert rocklake_server.alive() and rocklake_server.pid == pid


def test_every_cast_pair_answers(rocklake_server, both):
    """No crash and no internal error for any cast pair; where PostgreSQL has a value,
    RockLake's error (if any) is one PostgreSQL could give too (not XX000)."""
    rl, _ = both
    with rocklake_server.connect(autocommit=True) as bystander:
        for lit in CAST_LITERALS:
            for t1 in CAST_TYPES:
                for t2 in CAST_TYPES:
                    sql = f"SELECT ({lit}::{t1})::{t2}::text"
                    kind, what = answer(rl, sql)
                    assert what != "XX000", sql
        assert bystander.execute("SELECT 42").fetchone() == (42,)


def test_long_in_lists_over_a_table(both):
    """IN lists, NOT IN and OR chains far longer than SQLite's expression depth (1000)."""
    rl, pg = both
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS rb_in")
        conn.execute("CREATE TABLE rb_in (x int8, v varchar)")
        conn.execute("INSERT INTO rb_in SELECT g, g::text FROM generate_series(1, 300) g")
    items = range(0, 100_000, 3)
    queries = [
        "SELECT count(*) FROM rb_in WHERE x IN (" + ", ".join(map(str, items)) + ")",
        "SELECT count(*) FROM rb_in WHERE v IN (" + ", ".join(f"'{i}'" for i in items) + ")",
        "SELECT count(*) FROM rb_in WHERE x NOT IN (" + ", ".join(map(str, items)) + ")",
        "SELECT count(*) FROM rb_in WHERE x IN (1, NULL, 2)",
        "SELECT count(*) FROM rb_in WHERE x NOT IN (1, NULL, 2)",
        "SELECT count(*) FROM rb_in WHERE " + " OR ".join(f"x = {i}" for i in range(10_000)),
    ]
    for sql in queries:
        assert answer(rl, sql) == answer(pg, sql), sql[:100]
    # row places differ between the servers (PostgreSQL's 8 KiB pages): RockLake's only
    ctids = ", ".join(f"'(0,{i})'" for i in range(1, 201))
    assert answer(rl, f"DELETE FROM rb_in WHERE ctid IN ({ctids})") == ("status", "DELETE 200")
    for conn in (rl, pg):
        conn.execute("DROP TABLE rb_in")


def test_writes_of_a_large_table(rocklake_server, both):
    """UPDATE of every row, DELETE of half and DROP of a 100 000-row table, inside a
    transaction block and alone, then a restart: these spill SQLite's statement journal,
    which failed with 'database or disk is full' when its spill size was raised."""
    rl, pg = both
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS rb_big")
        conn.execute("CREATE TABLE rb_big (id int8 PRIMARY KEY, a int8, b text)")
        conn.execute("INSERT INTO rb_big SELECT g, g, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' || g FROM generate_series(1, 100000) g")
        with conn.transaction():
            conn.execute("UPDATE rb_big SET a = a + 1, b = b || 'y'")
        conn.execute("DELETE FROM rb_big WHERE id % 2 = 0")
    check = "SELECT count(*), sum(a), max(b) FROM rb_big"
    assert answer(rl, check) == answer(pg, check)
    rocklake_server.restart()
    with rocklake_server.connect(autocommit=True) as again:
        assert answer(again, check) == answer(pg, check)
        again.execute("DROP TABLE rb_big")
    pg.execute("DROP TABLE rb_big")
