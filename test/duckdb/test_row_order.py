"""Rows as PostgreSQL 15 keeps them, sent with psycopg to RockLake and to PostgreSQL:

- No constraint a client did not declare: rows of DuckLake's metadata tables that only
  the DDL's keys would refuse, two alike where no key is declared, are stored and read
  back (RockLake stores these tables under keys of its own, kvcodec.h), and the same
  rows come back after a restart and after the cache is rebuilt from the store.
- A scan without ORDER BY returns rows in the order a fresh PostgreSQL table gives after
  the same inserts, updates and deletes (insertion order, an updated row moved to the
  end), also after a restart and a rebuild, with ctid following that order.
"""

import pathlib
import re

import pytest

import duckdb_offline
from answers import answer

DATA = pathlib.Path(__file__).resolve().parent / "data"

# a value of each column type DuckLake's tables have
SAMPLE = {"bigint": "7", "character varying": "'x'", "text": "'x'", "boolean": "true",
          "uuid": "'6f1c2a00-1234-4567-89ab-cdef00112233'",
          "timestamp with time zone": "'2024-01-02 03:04:05+00'", "integer": "7"}


def new_database(server, name):
    dbname = server.create_database(name)
    return dbname, server.connect(dbname, autocommit=True)


def ducklake_tables(conn):
    return [r[0] for r in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
        "AND table_name LIKE 'ducklake%' ORDER BY table_name").fetchall()]


def column_types(conn, table):
    return conn.execute("SELECT column_name, data_type FROM information_schema.columns "
                        "WHERE table_schema = 'public' AND table_name = %s ORDER BY ordinal_position",
                        (table,)).fetchall()


def insert_twice(conn, table, types):
    """The same row twice, then a second row like it but for its last column: the
    answers (23505 where the DDL declares a key) and the table as a scan reads it."""
    values = [SAMPLE[t] for _, t in types]
    other = values[:-1] + ["NULL"]
    row = f"INSERT INTO {table} VALUES ({', '.join(values)})"
    return [answer(conn, row, with_message=True), answer(conn, row, with_message=True),
            answer(conn, f"INSERT INTO {table} VALUES ({', '.join(other)})", with_message=True),
            answer(conn, f"SELECT * FROM {table}")]


def scans(conn, tables):
    return {t: answer(conn, f"SELECT * FROM {t}") for t in tables}


def both_catalogs(rocklake_server, postgres_server, name, make):
    """make(dsn, conn) builds the same catalog in a new database of each server."""
    conns = {}
    for server in (rocklake_server, postgres_server):
        dbname, conn = new_database(server, name)
        make(server.dsn(dbname), conn)
        conns[server.kind] = (dbname, conn)
    return conns


def attach_ducklake(tmp_path):
    def make(dsn, conn):
        con = duckdb_offline.connect()
        con.execute(f"ATTACH 'ducklake:postgres:{dsn}' AS lake (DATA_PATH '{tmp_path}/')")
        con.close()
    return make


def create_1_0_tables(dsn, conn):
    text = (DATA / "ducklake_1_0_statements.sql").read_text()
    for ddl in re.findall(r'CREATE TABLE "public"\."ducklake_[a-z_]+"\([^;]*\);', text):
        conn.execute(ddl)


@pytest.mark.parametrize("ddl", ["0.3", "1.0"])
def test_duplicate_rows_in_ducklake_tables(rocklake_server, postgres_server, tmp_path, ddl):
    make = attach_ducklake(tmp_path) if ddl == "0.3" else create_1_0_tables
    conns = both_catalogs(rocklake_server, postgres_server, f"dup_{ddl.replace('.', '_')}", make)
    (rl_db, rl), (_, pg) = conns["rocklake"], conns["postgres"]
    tables = ducklake_tables(pg)
    assert ducklake_tables(rl) == tables and len(tables) >= 22
    for table in tables:
        types = column_types(pg, table)
        assert column_types(rl, table) == types, table
        for conn in (rl, pg):  # DuckDB's first rows hold a random uuid and the time
            conn.execute(f"DELETE FROM {table}")
        assert insert_twice(rl, table, types) == insert_twice(pg, table, types), table
    expected = scans(pg, tables)
    assert scans(rl, tables) == expected
    rl.close()
    for rebuild in (False, True):
        rocklake_server.restart(rebuild=rebuild)
        with rocklake_server.connect(rl_db, autocommit=True) as again:
            assert scans(again, tables) == expected, f"after a restart (rebuild={rebuild})"
    pg.close()


# inserts, updates and deletes whose scans must come back in PostgreSQL's order
HISTORY = [
    "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')",
    "UPDATE t SET v = 'B' WHERE id = 2",
    "INSERT INTO t VALUES (6, 'f')",
    "UPDATE t SET v = v || '!' WHERE id IN (1, 4)",
    "DELETE FROM t WHERE id = 3",
    "UPDATE t SET v = v WHERE id = 5",
    "INSERT INTO t VALUES (7, 'g'), (8, 'h')",
    "DELETE FROM t WHERE id = 8",
    "INSERT INTO t VALUES (9, 'i')",
    "UPDATE t SET id = id + 100 WHERE id = 6",
    "UPDATE t SET v = u.v FROM (VALUES (2, 'from'), (7, 'from')) AS u(id, v) WHERE t.id = u.id",
    "BEGIN",
    "UPDATE t SET v = 'in a transaction' WHERE id = 1",
    "INSERT INTO t VALUES (10, 'j')",
    "COMMIT",
    "BEGIN",
    "UPDATE t SET v = 'rolled back' WHERE id = 4",
    "ROLLBACK",
    "UPDATE t SET v = 'returning' WHERE id = 9 RETURNING id, v",
]

# (a filter on an indexed column PostgreSQL may serve from its index, in its order)
QUERIES = ["SELECT * FROM t", "SELECT id FROM t", "SELECT v FROM t", "SELECT * FROM t WHERE v IS NOT NULL",
           "SELECT * FROM t WHERE v > 'c' LIMIT 3", "SELECT id FROM t LIMIT 2"]


def read_all(conn, key):
    keyless = ["SELECT * FROM t WHERE id > 2", "SELECT id, generate_series(1, 2) FROM t"]
    return [answer(conn, q) for q in QUERIES + (keyless if not key else [])]


def assert_ctid_follows_order(conn):
    ctids = [tuple(map(int, c.strip("()").split(","))) for (c,) in
             conn.execute("SELECT ctid::text FROM t").fetchall()]
    assert ctids == sorted(ctids) and len(set(ctids)) == len(ctids), ctids


@pytest.mark.parametrize("key", ["", " PRIMARY KEY", " UNIQUE"])
def test_scan_order_after_dml(rocklake_server, postgres_server, key):
    name = "order" + key.replace(" ", "_").lower()
    conns = both_catalogs(rocklake_server, postgres_server, name,
                          lambda dsn, c: c.execute(f"CREATE TABLE t (id integer{key}, v text)"))
    (rl_db, rl), (_, pg) = conns["rocklake"], conns["postgres"]
    for sql in HISTORY:
        assert answer(rl, sql) == answer(pg, sql), sql
        if sql not in ("BEGIN",) and not rl.info.transaction_status:
            assert read_all(rl, key) == read_all(pg, key), f"after {sql}"
    assert_ctid_follows_order(rl)
    before = rl.execute("SELECT ctid::text FROM t WHERE id = 10").fetchone()
    rl.execute("UPDATE t SET v = 'moved' WHERE id = 10")
    pg.execute("UPDATE t SET v = 'moved' WHERE id = 10")
    assert rl.execute("SELECT ctid::text FROM t WHERE id = 10").fetchone() != before
    expected = read_all(pg, key)
    assert read_all(rl, key) == expected
    ctids = rl.execute("SELECT ctid::text, id FROM t").fetchall()
    rl.close()
    for rebuild in (False, True):
        rocklake_server.restart(rebuild=rebuild)
        with rocklake_server.connect(rl_db, autocommit=True) as again:
            assert read_all(again, key) == expected, f"after a restart (rebuild={rebuild})"
            assert again.execute("SELECT ctid::text, id FROM t").fetchall() == ctids
    pg.close()
