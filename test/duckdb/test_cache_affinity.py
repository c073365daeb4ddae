"""json, jsonb and float columns of a catalog cache made before they had the affinity
they now get (catalog_cache.h's suffixes) are declared anew by a one-time rebuild.

A cache of that release lacks the rl_meta mark "affinity": the test takes the mark away
from a running RockLake's cache, restarts, and reads every value back, in text and in
binary, as PostgreSQL 15 gives the same values.
"""

import sqlite3

import psycopg
import pytest
from psycopg.pq import Format

ROWS = [
    ("0.0", "0.0", "-0", "-0"),
    ("12345678901234567890", "[1.50, 2e3]", "1", "1"),
    ('{"a": [1, 2.50], "b": null}', '{"b": 1, "a": 2}', "5e-324", "1.4e-45"),
    ('"text"', "1e2", "1.7976931348623157e308", "3.4028235e38"),
    ("[]", "true", "NaN", "-Infinity"),
    ("null", "  {}  ", "0.1", "0.1"),
]


def read_back(server, dbname):
    with server.connect(dbname) as conn:
        out = []
        for fmt in (Format.TEXT, Format.BINARY):
            cur = conn.cursor(binary=fmt == Format.BINARY)
            cur.execute("SELECT doc::text, d::text, f, g FROM lake.j ORDER BY id")
            out.append([tuple(cur.pgresult.get_value(r, c) for c in range(4)) for r in range(cur.rowcount)])
        return out


def fill(server, dbname):
    with server.connect(dbname, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA lake")
        conn.execute("CREATE TABLE lake.j (id int PRIMARY KEY, doc jsonb, d json, f float8, g float4)")
        for i, row in enumerate(ROWS):
            conn.execute("INSERT INTO lake.j VALUES (%s, %s::jsonb, %s::json, %s::float8, %s::float4)",
                         (i, *row))


def test_old_cache_rebuilt_keeps_json_and_float_values(rocklake_server, postgres_server):
    rl_db = rocklake_server.create_database("affinity")
    pg_db = postgres_server.create_database("affinity")
    fill(postgres_server, pg_db)
    fill(rocklake_server, rl_db)
    expected = read_back(postgres_server, pg_db)
    assert read_back(rocklake_server, rl_db) == expected
    with rocklake_server.connect(rl_db) as conn:
        datid = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
    path = rocklake_server.workdir / "data" / f"catalog.{datid}.sqlite"
    with sqlite3.connect(path, timeout=30) as cache:
        assert cache.execute("DELETE FROM rl_meta WHERE name = 'affinity'").rowcount == 1
    cache.close()
    rocklake_server.restart()
    assert read_back(rocklake_server, rl_db) == expected
    # the rebuild marked the cache again (a cache with relations gets the mark no other way)
    with sqlite3.connect(path, timeout=30) as cache:
        assert cache.execute("SELECT count(*) FROM rl_meta WHERE name = 'affinity'").fetchone() == (1,)
    cache.close()
    with rocklake_server.connect(rl_db, autocommit=True) as conn:
        conn.execute("INSERT INTO lake.j VALUES (9, '0.10', '-0.0', -0.0, 1.0)")
    with postgres_server.connect(pg_db, autocommit=True) as conn:
        conn.execute("INSERT INTO lake.j VALUES (9, '0.10', '-0.0', -0.0, 1.0)")
    rocklake_server.restart()
    assert read_back(rocklake_server, rl_db) == read_back(postgres_server, pg_db)
