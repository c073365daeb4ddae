"""Statements psql and DuckLake users send, answered by RockLake as PostgreSQL 15 answers
them in the same run: rows and their types, command status, and every field of an error
or notice (SQLSTATE, message, DETAIL, HINT, CONTEXT, position, and the schema, table,
column and constraint a constraint violation names).
"""

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
        "CREATE TABLE pa_a (k integer)",
        "ALTER TABLE pa_a ADD COLUMN IF NOT EXISTS k integer, ADD COLUMN IF NOT EXISTS i integer,"
        " ADD COLUMN IF NOT EXISTS j integer",
        "ALTER TABLE pa_a DROP COLUMN IF EXISTS nosuch, DROP COLUMN IF EXISTS nosuch2",
        "SELECT * FROM pa_a",
        "DROP TABLE pa_a",
    ])
