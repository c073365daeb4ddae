"""Concurrent writers judged per row, as PostgreSQL 15 judges them: sessions inserting
distinct keys all succeed, duplicate keys fail with 23505 and nothing else, and an
UPDATE of a row another transaction changed since the snapshot fails with 40001
(PostgreSQL's REPEATABLE READ; its READ COMMITTED waits and updates the new row).
Each case runs on RockLake and on PostgreSQL in the same run, through psycopg's
extended protocol (a statement's Parse reads the catalog before it runs).
"""

import collections
import threading

import psycopg
import pytest

SESSIONS = 8
ROWS = 60


def fresh_table(server, dbname, name):
    with server.connect(dbname, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {name}")
        conn.execute(f"CREATE TABLE {name} (id int PRIMARY KEY, w int)")


def run_sessions(server, dbname, statement, params_of):
    """SESSIONS threads, ROWS autocommit statements each: a Counter of outcomes."""
    outcomes = collections.Counter()
    lock = threading.Lock()
    start = threading.Barrier(SESSIONS)

    def work(w):
        with server.connect(dbname, autocommit=True) as conn:
            start.wait()
            for i in range(ROWS):
                try:
                    conn.execute(statement, params_of(w, i))
                    result = "ok"
                except psycopg.Error as e:
                    result = e.sqlstate
                with lock:
                    outcomes[result] += 1

    threads = [threading.Thread(target=work, args=(w,)) for w in range(SESSIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.fixture(params=["rocklake", "postgres"])
def server(request):
    return request.getfixturevalue(f"{request.param}_server")


@pytest.fixture
def dbname(server):
    return server.create_database("concurrency")


def test_distinct_keys_all_commit(server, dbname):
    fresh_table(server, dbname, "k")
    outcomes = run_sessions(server, dbname, "INSERT INTO k VALUES (%s, %s)",
                            lambda w, i: (w * 1000 + i, w))
    assert outcomes == {"ok": SESSIONS * ROWS}
    with server.connect(dbname) as conn:
        assert conn.execute("SELECT count(*) FROM k").fetchone()[0] == SESSIONS * ROWS


def test_duplicate_keys_fail_with_23505_only(server, dbname):
    fresh_table(server, dbname, "d")
    # every session inserts the same ROWS keys: one of each succeeds
    outcomes = run_sessions(server, dbname, "INSERT INTO d VALUES (%s, %s)", lambda w, i: (i, w))
    assert outcomes == {"ok": ROWS, "23505": (SESSIONS - 1) * ROWS}


def test_update_of_a_row_changed_since_the_snapshot(server, dbname):
    fresh_table(server, dbname, "u")
    with server.connect(dbname, autocommit=True) as conn:
        conn.execute("INSERT INTO u VALUES (1, 0), (2, 0)")
    a = server.connect(dbname)
    b = server.connect(dbname, autocommit=True)
    try:
        a.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        assert a.execute("SELECT w FROM u WHERE id = 1").fetchone() == (0,)
        b.execute("UPDATE u SET w = 1 WHERE id = 1")
        b.execute("UPDATE u SET w = 1 WHERE id = 2")
        with pytest.raises(psycopg.Error) as e:
            a.execute("UPDATE u SET w = 2 WHERE id = 1")
            a.commit()
        assert e.value.sqlstate == "40001"
        a.rollback()
        # a row nobody else touched since the snapshot updates fine
        a.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        a.execute("SELECT 1")
        b.execute("INSERT INTO u VALUES (3, 0)")
        a.execute("UPDATE u SET w = 5 WHERE id = 2")
        a.commit()
        assert b.execute("SELECT w FROM u ORDER BY id").fetchall() == [(1,), (5,), (0,)]
    finally:
        a.close()
        b.close()


def constraint_error_fields(exc):
    d = exc.diag
    return (exc.sqlstate, d.message_primary, d.message_detail, d.schema_name, d.table_name,
            d.column_name, d.constraint_name)


@pytest.mark.parametrize("table, key, row, expected", [
    ("snap (snapshot_id bigint PRIMARY KEY, note text)", None, "(5, 'x')",
     ("snap_pkey", "Key (snapshot_id)=(5) already exists.")),
    ("tag (id int, name text, n float8)", "UNIQUE (name, n)", "(1, 'a b', 0.1)",
     ("tag_name_n_key", "Key (name, n)=(a b, 0.1) already exists.")),
])
def test_unique_violation_at_commit_has_postgres_fields(server, dbname, table, key, row, expected):
    """Two transactions insert the same key. PostgreSQL refuses the second at its INSERT
    (after the first commits); RockLake lets each write its own snapshot and refuses the
    second at COMMIT. Either way the client sees the same error fields."""
    name = table.split()[0]
    with server.connect(dbname, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS lake CASCADE")
        conn.execute("CREATE SCHEMA lake")
        conn.execute(f"CREATE TABLE lake.{table[:-1]}{', ' + key if key else ''})")
    first = server.connect(dbname)
    second = server.connect(dbname)
    try:
        first.execute(f"INSERT INTO lake.{name} VALUES {row}")
        if server.kind == "postgres":
            first.commit()      # PostgreSQL's second INSERT would wait for it
        with pytest.raises(psycopg.errors.UniqueViolation) as caught:
            second.execute(f"INSERT INTO lake.{name} VALUES {row}")
            first.commit()
            second.commit()
        constraint, detail = expected
        assert constraint_error_fields(caught.value) == (
            "23505", f'duplicate key value violates unique constraint "{constraint}"',
            detail, "lake", name, None, constraint)
    finally:
        first.close()
        second.close()
