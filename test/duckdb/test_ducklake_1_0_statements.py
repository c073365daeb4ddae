"""DuckLake 1.0 (DuckDB 1.5)'s statements against RockLake: every distinct statement DuckDB
1.5.5 sent to PostgreSQL 15 while migrating a DuckLake 0.3 catalog and using it
(data/ducklake_1_0_statements.sql) is parsed and analysed (a Parse message, nothing runs)
on RockLake and on PostgreSQL 15, each holding the same catalog made by this run's DuckDB
(DuckLake 0.3 with DuckDB 1.4.4, 1.0 with 1.5.5). The design asks that DuckLake's next
formats need at most new functions or types, not new code paths; this shows which of their
statements RockLake would refuse.

PostgreSQL analyses queries at Parse (SELECT, INSERT, UPDATE, DELETE, WITH): there the
SQLSTATE (or success) must be the same on both servers; missing relations and columns
(the 1.0 tables and columns the migration would add, the scenario's own tables) are
expected on both. Utility statements (CREATE, ALTER, COPY, BEGIN...) are only analysed
when they run on PostgreSQL, so on RockLake they must not be refused as unsupported
(0A000, 42883); the 0.3 -> 1.0 migration's ALTER TABLE ... ADD/DROP COLUMN on the
catalog's tables are among them.
"""

import pathlib

import psycopg
import pytest

from lakes import Lake

pytestmark = pytest.mark.duckdb

HERE = pathlib.Path(__file__).resolve().parent
ANALYSED_AT_PARSE = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES")
UNSUPPORTED = ("0A000", "42883")


def statements() -> list[str]:
    """Each entry of the file, its multi-statement messages split into statements."""
    text = (HERE / "data" / "ducklake_1_0_statements.sql").read_text()
    entries = [e.strip() for e in text.split("\n-- ---\n")]
    out = []
    for entry in entries:
        lines = [line for line in entry.splitlines() if not line.startswith("-- ")]
        out += [s for s in split_statements("\n".join(lines)) if s]
    return list(dict.fromkeys(out))


def split_statements(sql: str) -> list[str]:
    """sql split at semicolons outside quotes and identifiers."""
    parts, current, quote = [], [], None
    for ch in sql:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";":
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def parse_sqlstate(conn: psycopg.Connection, sql: str) -> str | None:
    """Parse (unnamed statement) and Sync: the SQLSTATE of the error, or None."""
    result = conn.pgconn.prepare(b"", sql.encode())
    state = result.error_field(psycopg.pq.DiagnosticField.SQLSTATE)
    return state.decode() if state else None


@pytest.fixture(scope="module")
def connections(rocklake_server, postgres_server, tmp_path_factory):
    """A DuckLake catalog with one table on each server, and a connection to it."""
    conns = {}
    for kind, server in (("postgres", postgres_server), ("rocklake", rocklake_server)):
        lake = Lake(server, server.create_database("ducklake10"), tmp_path_factory.mktemp(f"dl10-{kind}"))
        with lake.session() as s:
            s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
            s.sql("INSERT INTO lake.t VALUES (1, 'a')")
        conns[kind] = server.connect(lake.dbname, autocommit=True)
    yield conns
    for conn in conns.values():
        conn.close()


def test_statements_of_ducklake_1_0(connections):
    refused, different = [], []
    for sql in statements():
        rl = parse_sqlstate(connections["rocklake"], sql)
        if sql.upper().startswith(ANALYSED_AT_PARSE):
            pg = parse_sqlstate(connections["postgres"], sql)
            if rl != pg:
                different.append((rl, pg, sql[:200]))
        elif rl in UNSUPPORTED:
            refused.append((rl, sql[:200]))
    assert not different, "SQLSTATE (RockLake, PostgreSQL) differs:\n" + "\n".join(map(str, different))
    assert not refused, "refused as unsupported:\n" + "\n".join(map(str, refused))
