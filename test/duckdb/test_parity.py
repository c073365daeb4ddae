"""Statements psql and DuckLake users send, answered by RockLake as PostgreSQL 15 answers
them in the same run: rows and their types, command status, and every field of an error
or notice (SQLSTATE, message, DETAIL, HINT, CONTEXT, position, and the schema, table,
column and constraint a constraint violation names).
"""

import threading
import time

import psycopg
import pytest

DIAG = ("severity_nonlocalized", "sqlstate", "message_primary", "message_detail", "message_hint",
        "context", "statement_position", "schema_name", "table_name", "column_name",
        "constraint_name", "datatype_name")


def diag(d) -> tuple:
    return tuple(getattr(d, field) for field in DIAG)


class Recorder:
    """What a connection's statements answer, with the notices each raised."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn
        self.notices: list = []
        conn.add_notice_handler(lambda d: self.notices.append(diag(d)))

    def answer(self, sql: str, copy_in: bytes | None = None) -> tuple:
        self.notices.clear()
        try:
            with self.conn.cursor() as cur:
                if copy_in is not None:
                    with cur.copy(sql) as copy:
                        copy.write(copy_in)
                    result = ("status", cur.statusmessage)
                else:
                    cur.execute(sql)
                    result = (("rows", [d.type_code for d in cur.description],
                               [tuple(str(v) for v in row) for row in cur.fetchall()])
                              if cur.description is not None else ("status", cur.statusmessage))
        except psycopg.Error as e:
            assert e.sqlstate is not None and not self.conn.closed, f"{sql}: connection lost: {e}"
            result = ("error",) + diag(e.diag)
        return result, list(self.notices)


@pytest.fixture
def both(rocklake_server, postgres_server):
    with rocklake_server.connect(autocommit=True) as rl, \
            postgres_server.connect(autocommit=True) as pg:
        yield Recorder(rl), Recorder(pg)


def same_answers(both, statements) -> None:
    """each statement (or COPY FROM STDIN with its data) on both servers in turn; every
    difference is listed"""
    rl, pg = both
    differences = []
    for sql in statements:
        sql, data = sql if isinstance(sql, tuple) else (sql, None)
        got, expected = rl.answer(sql, data), pg.answer(sql, data)
        if got != expected:
            differences.append(f"{sql}\n  rocklake: {got}\n  postgres: {expected}")
    assert not differences, "\n".join(differences)


def test_multi_object_drop(both):
    """DROP TABLE [IF EXISTS] of several names: every name is looked up first (one missing
    without IF EXISTS drops nothing), each missing one has its NOTICE, in order, the others
    are dropped, and a table named twice is dropped once"""
    same_answers(both, [
        "DROP TABLE IF EXISTS pa_a, pa_b, pa_c",
        "CREATE TABLE pa_a (k integer)",
        "CREATE TABLE pa_c (k integer)",
        "DROP TABLE IF EXISTS pa_a, pa_b",
        "SELECT relname FROM pg_class WHERE relname LIKE 'pa\\_%' ORDER BY 1",
        "CREATE TABLE pa_a (k integer)",
        "DROP TABLE pa_a, pa_b",
        "SELECT relname FROM pg_class WHERE relname LIKE 'pa\\_%' ORDER BY 1",
        "DROP TABLE IF EXISTS pa_b, pa_a, pa_c",
        "SELECT relname FROM pg_class WHERE relname LIKE 'pa\\_%' ORDER BY 1",
        "DROP TABLE IF EXISTS pa_b, nosuch_schema.pa_b",
        "CREATE TABLE pa_a (k integer)",
        "CREATE TEMP TABLE pa_t (k integer)",
        "DROP TABLE pa_a, pa_a",
        "DROP TABLE IF EXISTS pa_t, pa_b",
        "SELECT relname FROM pg_class WHERE relname LIKE 'pa\\_%' ORDER BY 1",
        "CREATE SCHEMA pa_s",
        "DROP SCHEMA IF EXISTS pa_nosuch, pa_s, pa_nosuch2",
        # views and indexes of their own RockLake has none: the answers for names
        "DROP VIEW IF EXISTS pa_v, pa_w",
        "DROP VIEW pa_v",
        "DROP VIEW nosuch_schema.pa_v",
        "DROP INDEX IF EXISTS pa_k, pa_k2",
        "DROP INDEX pa_k",
        "DROP INDEX IF EXISTS nosuch_schema.pa_k",
        "CREATE TABLE pa_a (k integer)",
        "ALTER TABLE pa_a ADD COLUMN IF NOT EXISTS k integer, ADD COLUMN IF NOT EXISTS i integer,"
        " ADD COLUMN IF NOT EXISTS j integer",
        "ALTER TABLE pa_a DROP COLUMN IF EXISTS nosuch, DROP COLUMN IF EXISTS nosuch2",
        "ALTER TABLE pa_a ADD COLUMN IF NOT EXISTS k integer, DROP COLUMN IF EXISTS nosuch",
        "ALTER TABLE pa_a ADD COLUMN h integer, DROP COLUMN h",
        "ALTER TABLE pa_a DROP COLUMN j, ADD COLUMN j text",
        "SELECT * FROM pa_a",
        "DROP VIEW pa_a",
        "DROP VIEW IF EXISTS pa_a, pa_v",
        "DROP INDEX pa_a",
        "DROP INDEX IF EXISTS public.pa_a",
        "DROP TABLE pa_a",
    ])


def test_constraint_violations(both):
    """23505 and 23502 with PostgreSQL's DETAIL and the schema, table, column and
    constraint they name, at INSERT, UPDATE, COPY FROM and COMMIT"""
    same_answers(both, [
        "DROP TABLE IF EXISTS pv_t, pv_n",
        "CREATE TABLE pv_t (k integer PRIMARY KEY, v text UNIQUE, n integer NOT NULL DEFAULT 0)",
        "CREATE TABLE pv_n (a integer, b text NOT NULL, c numeric(5,2))",
        "INSERT INTO pv_t VALUES (10, 'x'), (20, 'y')",
        "INSERT INTO pv_t VALUES (20, 'z')",
        "INSERT INTO pv_t VALUES (30, 'x')",
        "INSERT INTO pv_t VALUES (30, NULL, NULL)",
        "UPDATE pv_t SET k = 10 WHERE k = 20",
        "UPDATE pv_t SET n = NULL WHERE k = 20",
        "INSERT INTO pv_n VALUES (1, NULL, 2.5)",
        "INSERT INTO pv_n (a) VALUES (1)",
        "INSERT INTO pv_n VALUES (NULL, NULL, NULL)",
        ("COPY pv_t (k, v) FROM STDIN", b"40\tq\n10\tr\n"),
        ("COPY pv_n FROM STDIN", b"1\ta\t1\n2\t\\N\t2\n"),
        "BEGIN",
        "INSERT INTO pv_t VALUES (50, 'w')",
        "INSERT INTO pv_t VALUES (50, 'v')",
        "ROLLBACK",
        # the failed statement's rows go, the transaction's earlier and later ones stay
        "BEGIN",
        "INSERT INTO pv_t VALUES (60, 'p')",
        "SAVEPOINT s",
        "INSERT INTO pv_t VALUES (61, 'q'), (62, 'r'), (60, 's')",
        "ROLLBACK TO SAVEPOINT s",
        "INSERT INTO pv_t VALUES (63, 't')",
        "UPDATE pv_t SET k = k + 1 WHERE k >= 60",
        "COMMIT",
        "SELECT * FROM pv_t ORDER BY k",
        "DROP TABLE pv_t, pv_n",
    ])


def test_aggregates_and_literals(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS pg_agg",
        "CREATE TABLE pg_agg (id integer, g text, x integer)",
        "INSERT INTO pg_agg VALUES (1, 'a', 5), (2, 'a', NULL), (3, 'b', 7), (4, 'b', 1), (5, NULL, 2)",
        "SELECT pg_typeof(avg(id)) FROM pg_agg",
        "SELECT pg_typeof(sum(id)), pg_typeof(count(*)) FROM pg_agg",
        "SELECT upper(max(g)) FROM pg_agg",
        "SELECT pg_typeof(-1), pg_typeof(-2147483648), pg_typeof(-2147483649), pg_typeof(2147483648)",
        "SELECT abs(-2147483648)",
        "SELECT -2147483648, -(2147483648), - 2147483648",
        "SELECT -2147483648 * 2",
        "SELECT (-2147483648)::int4 - 1",
        "SELECT -9223372036854775808, pg_typeof(-9223372036854775808)",
        "SELECT -9223372036854775809, pg_typeof(-9223372036854775809)",
        "SELECT array_agg(x ORDER BY g NULLS FIRST, x DESC) FROM pg_agg",
        "SELECT array_agg(x ORDER BY x NULLS FIRST) FROM pg_agg",
        "SELECT array_agg(id ORDER BY g DESC NULLS LAST, x) FROM pg_agg",
        "SELECT string_agg(g, ',' ORDER BY id DESC) FROM pg_agg",
        "SELECT g, string_agg(x::text, '-' ORDER BY x) FROM pg_agg GROUP BY g ORDER BY g",
        "SELECT string_agg(g, ',') FROM pg_agg",
        "SELECT string_agg(g, x::text ORDER BY x DESC NULLS LAST) FROM pg_agg",
        "SELECT string_agg(g, ',' ORDER BY x) FILTER (WHERE id > 2) FROM pg_agg",
        "SELECT string_agg(g, ',' ORDER BY x) FROM pg_agg WHERE false",
        "SELECT string_agg(NULLIF(g, g), ',' ORDER BY x), string_agg(g, NULL ORDER BY id) FROM pg_agg",
        "SELECT string_agg(DISTINCT g, ',' ORDER BY g) FROM pg_agg",
        "SELECT array_agg(DISTINCT g ORDER BY g) FROM pg_agg",
        "SELECT array_agg(DISTINCT x ORDER BY id) FROM pg_agg",
        "SELECT array_agg(DISTINCT x), string_agg(DISTINCT g, ';') FROM pg_agg",
        "SELECT sum(x ORDER BY id DESC), count(DISTINCT x ORDER BY x) FROM pg_agg",
        "SELECT count(x ORDER BY x) FROM pg_agg",
        "SELECT pg_typeof(max(x)), max(x) FROM pg_agg",
        "SELECT pg_typeof(max(x)), x FROM pg_agg",
        "SELECT (SELECT pg_typeof(count(*)) FROM pg_agg) FROM pg_agg",
        # aggregates and window functions without FROM: over the one row there is
        "SELECT count(*), sum(1), max('a'), avg(2)",
        "SELECT count(*) WHERE false",
        "SELECT 1 HAVING count(*) > 0",
        "SELECT array_agg(1 ORDER BY 1), string_agg('x', ',')",
        "SELECT row_number() OVER (), rank() OVER (ORDER BY 1), sum(2) OVER ()",
        "VALUES (row_number() OVER ())",
        "VALUES (count(*))",
        "DROP TABLE pg_agg",
    ])


def test_array_literals_with_a_typmod(both):
    """An array literal takes its elements' typmod: an explicit cast cuts a string, an
    assignment refuses it."""
    same_answers(both, [
        "DROP TABLE IF EXISTS pg_arr",
        "CREATE TABLE pg_arr (a varchar(2)[], n numeric(3,1)[])",
        "INSERT INTO pg_arr VALUES ('{abc}', NULL)",
        "INSERT INTO pg_arr VALUES ('{ab,NULL}', '{1.55,-0.04}')",
        "INSERT INTO pg_arr VALUES (NULL, '{123.4}')",
        "SELECT '{abc,de}'::varchar(2)[], '{1.55,NULL}'::numeric(3,1)[], '{abc}'::char(2)[]",
        "SELECT cast('{xyz}' AS varchar(1)[]), '{1000}'::numeric(3,1)[]",
        "SELECT * FROM pg_arr",
        "DROP TABLE pg_arr",
    ])


def test_delete_using(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS pd_a, pd_b",
        "CREATE TABLE pd_a (id integer, v text)",
        "CREATE TABLE pd_b (id integer, keep boolean)",
        "INSERT INTO pd_a VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')",
        "INSERT INTO pd_b VALUES (1, false), (2, true), (3, false), (3, false)",
        "DELETE FROM pd_a USING pd_b WHERE pd_a.id = pd_b.id AND NOT pd_b.keep",
        "SELECT * FROM pd_a ORDER BY id",
        "DELETE FROM pd_a a USING pd_b b WHERE a.id = b.id RETURNING a.v, a.*",
        "SELECT * FROM pd_a ORDER BY id",
        "DELETE FROM pd_a USING pd_b WHERE nosuch = 1",
        "DELETE FROM pd_a USING pd_a WHERE true",
        "UPDATE pd_a SET v = 'x' FROM pd_a WHERE true",
        "UPDATE pd_a SET v = 'x' FROM pd_b WHERE pd_a.id = pd_b.id RETURNING id",
        "DELETE FROM pd_a USING pd_b WHERE pd_a.id = pd_b.id RETURNING id",
        "INSERT INTO pd_a VALUES (1, 'one'), (2, 'two'), (3, 'three')",
        "DELETE FROM pd_a USING pd_a b WHERE pd_a.id = b.id + 1 AND b.id = 2 RETURNING pd_a.*",
        "DELETE FROM pd_a USING pd_b",
        "INSERT INTO pd_a VALUES (7, 'seven')",
        "TRUNCATE pd_a, pd_b",
        "SELECT (SELECT count(*) FROM pd_a), (SELECT count(*) FROM pd_b)",
        "TRUNCATE TABLE ONLY pd_a RESTART IDENTITY CASCADE",
        "TRUNCATE nosuch",
        "TRUNCATE pg_class",
        "INSERT INTO pd_b VALUES (1, false), (2, true), (3, false), (3, false)",
        "DELETE FROM pd_a USING (SELECT max(id) AS m FROM pd_b) s, pd_b WHERE pd_a.id < s.m AND pd_b.id = pd_a.id",
        "SELECT * FROM pd_a ORDER BY id",
        "DROP TABLE pd_a, pd_b",
    ])


def test_copy_from_context(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS pc_t",
        "CREATE TABLE pc_t (k integer, d date, v varchar(3))",
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\tabc\n2x\t2024-01-01\tabc\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\tabc\n2\tnope\tabc\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\tabcd\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\tabc\textra\n"),
        ("COPY pc_t FROM STDIN (FORMAT csv)", b"1,2024-01-01,abc\n99999999999,2024-01-01,x\n"),
        ("COPY pc_t FROM STDIN (FORMAT csv, HEADER)", b"k,d,v\n1,2024-01-01,abc\n,x,\n"),
        ("COPY pc_t (v, k) FROM STDIN", b"ab\t1\nabc\t" + b"9" * 120 + b"\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\t" + "\u00e9".encode() * 80 + b"\n"),
        ("COPY pc_t (k) FROM STDIN", b"1\n2\t3\n"),
        ("COPY pc_t FROM STDIN", b"1\t2024-01-01\tabc\n2\t2024-01-02\tdef\n"),
        "SELECT * FROM pc_t ORDER BY k",
        "DROP TABLE pc_t",
    ])


def test_window_functions(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS pw_t",
        "CREATE TABLE pw_t (id integer, g text, x integer)",
        "INSERT INTO pw_t VALUES (1, 'a', 5), (2, 'a', 3), (3, 'b', 7), (4, 'b', 7), (5, 'b', 2)",
        "SELECT id, row_number() OVER (ORDER BY id DESC) FROM pw_t ORDER BY id",
        "SELECT id, rank() OVER (PARTITION BY g ORDER BY x), dense_rank() OVER (PARTITION BY g ORDER BY x)"
        " FROM pw_t ORDER BY id",
        "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY x) FROM pw_t ORDER BY id",
        "SELECT id, sum(x) OVER (), count(*) OVER (PARTITION BY g) FROM pw_t ORDER BY id",
        "SELECT id, lag(x) OVER (ORDER BY id), lead(x, 2, 0) OVER (ORDER BY id) FROM pw_t ORDER BY id",
        "SELECT id, count(x) OVER w, max(x) OVER w FROM pw_t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id",
        "SELECT id, min(x) OVER (w ROWS UNBOUNDED PRECEDING), sum(x) OVER (w ORDER BY x DESC) FROM pw_t"
        " WINDOW w AS (PARTITION BY g) ORDER BY id",
        "SELECT id, sum(x) OVER nosuch FROM pw_t",
        "SELECT id, avg(x) OVER (PARTITION BY g ORDER BY id), avg(x) OVER () FROM pw_t ORDER BY id",
        "SELECT id, avg(x::float8) OVER (ORDER BY id ROWS 1 PRECEDING), sum(x::float4) OVER () FROM pw_t ORDER BY id",
        "SELECT id, sum(x::numeric / 3) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),"
        " avg(x::numeric(6,2)) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM pw_t ORDER BY id",
        "SELECT id, sum(x::float8) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) FROM pw_t ORDER BY id",
        "SELECT id, array_agg(x) OVER (ORDER BY id), string_agg(g, '-') OVER (ORDER BY id DESC) FROM pw_t ORDER BY id",
        "SELECT id, array_agg(g) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),"
        " string_agg(NULLIF(g, 'a'), ',') OVER (ORDER BY id ROWS 1 PRECEDING) FROM pw_t ORDER BY id",
        "SELECT id, array_agg(x) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) FROM pw_t ORDER BY id",
        "SELECT id, string_agg(g, ',' ORDER BY id) OVER () FROM pw_t",
        "SELECT id, array_agg(DISTINCT x) OVER () FROM pw_t",
        "SELECT id, x, sum(x) OVER (ORDER BY x RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM pw_t ORDER BY id",
        "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW)"
        " FROM pw_t ORDER BY id",
        "SELECT id, count(*) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM pw_t ORDER BY id",
        "SELECT id, row_number() OVER (ORDER BY g DESC, x), g FROM pw_t ORDER BY 2",
        "SELECT id, lag(g, 1, 'none') OVER (ORDER BY id), nth_value(x, 2) OVER (ORDER BY id) FROM pw_t ORDER BY id",
        "SELECT sum(row_number() OVER ()) FROM pw_t",
        "SELECT count(DISTINCT x) OVER () FROM pw_t",
        "SELECT id FROM pw_t GROUP BY id, rank() OVER ()",
        "SELECT * FROM (SELECT id, rank() OVER (PARTITION BY g ORDER BY x DESC) AS r FROM pw_t) s WHERE r = 1"
        " ORDER BY id",
        "SELECT id, count(*) FILTER (WHERE x > 2) OVER (ORDER BY id) FROM pw_t ORDER BY id",
        "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pw_t ORDER BY id",
        "SELECT id, first_value(x) OVER (PARTITION BY g ORDER BY id), last_value(x) OVER (PARTITION BY g ORDER BY id)"
        " FROM pw_t ORDER BY id",
        "SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC) FROM pw_t GROUP BY g ORDER BY g",
        "SELECT pg_typeof(row_number() OVER ()), pg_typeof(rank() OVER ()), pg_typeof(sum(x) OVER ())"
        " FROM pw_t LIMIT 1",
        "SELECT id FROM pw_t WHERE row_number() OVER () > 1",
        "SELECT id, ntile(2) OVER (ORDER BY id), percent_rank() OVER (ORDER BY id) FROM pw_t ORDER BY id",
        "DROP TABLE pw_t",
    ])


@pytest.mark.parametrize("row", ["(70, 'b')", "(71, 'a')"])
def test_commit_conflict(rocklake_server, postgres_server, row):
    """two sessions write the same key: PostgreSQL's second INSERT waits for the first
    transaction and then fails, RockLake's writer refuses the first transaction's COMMIT
    (the second committed at once); either way one error, with the same SQLSTATE and
    message (the constraint's name: the primary key, or the UNIQUE column's key)"""
    answers = []
    for server in (rocklake_server, postgres_server):
        errors = []

        def run(conn, sql):
            try:
                conn.execute(sql)
            except psycopg.Error as e:
                errors.append((e.sqlstate, e.diag.message_primary))

        with server.connect(autocommit=True) as a, server.connect(autocommit=True) as b:
            a.execute("DROP TABLE IF EXISTS pk_t")
            a.execute("CREATE TABLE pk_t (k integer PRIMARY KEY, v text UNIQUE)")
            a.execute("BEGIN")
            a.execute("INSERT INTO pk_t VALUES (70, 'a')")
            second = threading.Thread(target=run, args=(b, f"INSERT INTO pk_t VALUES {row}"))
            second.start()
            time.sleep(0.5)
            run(a, "COMMIT")
            second.join(30)
            a.execute("DROP TABLE pk_t")
        answers.append(errors)
    assert answers[0] == answers[1] and len(answers[0]) == 1, answers
