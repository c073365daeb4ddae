"""Schemas other than public, against PostgreSQL 15 in the same run: CREATE, DROP and
ALTER SCHEMA with their errors, notices and details; schema-qualified names wherever a
relation is named; search_path; what pg_catalog and information_schema show; and the
same catalog again after the server restarts and after its cache is rebuilt from the
store.
"""

import contextlib

import psycopg
import pytest

# each statement runs on both servers in turn and must answer alike (rows, status,
# SQLSTATE with message, detail and hint, and the notices it raised)
SETUP = [
    "DROP SCHEMA IF EXISTS sc_a, sc_b, \"Sc_C\", sc_a2 CASCADE",
    "DROP TABLE IF EXISTS sc_t",
    "RESET search_path",
]

STATEMENTS = [
    "CREATE SCHEMA sc_a",
    "CREATE SCHEMA sc_a",
    "CREATE SCHEMA IF NOT EXISTS sc_a",
    "CREATE SCHEMA pg_mine",
    "CREATE SCHEMA IF NOT EXISTS pg_catalog",
    "CREATE SCHEMA public",
    "CREATE SCHEMA sc_b AUTHORIZATION CURRENT_USER",
    "CREATE SCHEMA \"Sc_C\" AUTHORIZATION pg_database_owner",
    "CREATE SCHEMA sc_x AUTHORIZATION no_such_role",
    "CREATE TABLE sc_a.sc_t (id integer PRIMARY KEY, v text)",
    "CREATE TABLE sc_b.sc_t (id integer, w integer UNIQUE)",
    "CREATE TABLE \"Sc_C\".\"Sc_T\" (id integer)",
    "CREATE TABLE sc_t (id integer, note text)",
    "CREATE TABLE nosuch.sc_t (id integer)",
    "CREATE TABLE sc_a.sc_t (x integer)",
    "CREATE TABLE IF NOT EXISTS sc_a.sc_t (x integer)",
    "CREATE TABLE pg_catalog.sc_t (x integer)",
    "INSERT INTO sc_a.sc_t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "INSERT INTO sc_b.sc_t VALUES (1, 10), (2, 20)",
    "INSERT INTO \"Sc_C\".\"Sc_T\" VALUES (7)",
    "INSERT INTO sc_t VALUES (1, 'public')",
    "SELECT * FROM sc_a.sc_t ORDER BY id",
    "SELECT * FROM sc_b.sc_t ORDER BY id",
    "SELECT * FROM \"Sc_C\".\"Sc_T\"",
    "SELECT * FROM public.sc_t",
    "SELECT a.id, a.v, b.w, p.note FROM sc_a.sc_t a JOIN sc_b.sc_t b ON a.id = b.id"
    " LEFT JOIN sc_t p ON p.id = a.id ORDER BY 1",
    # the same name in two schemas: two tables, told apart by their schemas
    "SELECT * FROM sc_a.sc_t, sc_b.sc_t ORDER BY 1, 3",
    "SELECT sc_a.sc_t.v, sc_b.sc_t.w FROM sc_a.sc_t JOIN sc_b.sc_t ON sc_a.sc_t.id = sc_b.sc_t.id ORDER BY 1",
    "SELECT v, w FROM sc_a.sc_t, public.sc_t, sc_b.sc_t WHERE sc_b.sc_t.id = public.sc_t.id",
    "SELECT sc_t.id FROM sc_a.sc_t, sc_b.sc_t",
    "SELECT sc_t.id FROM sc_a.sc_t a, sc_b.sc_t",
    "SELECT * FROM sc_a.sc_t, sc_a.sc_t",
    "SELECT * FROM sc_a.sc_t x, sc_b.sc_t x",
    "SELECT nosuch.sc_t.id FROM sc_a.sc_t",
    "SELECT public.sc_t.id FROM sc_a.sc_t",
    "UPDATE sc_a.sc_t SET v = 'z' WHERE id = 2",
    "UPDATE sc_a.sc_t AS a SET v = a.v || b.w FROM sc_b.sc_t b WHERE a.id = b.id AND b.id = 1",
    "DELETE FROM sc_b.sc_t WHERE id = 2",
    "SELECT * FROM sc_a.sc_t ORDER BY id",
    "SELECT * FROM sc_b.sc_t ORDER BY id",
    "SELECT * FROM nosuch.sc_t",
    "SELECT * FROM sc_a.nosuch",
    "SELECT 'sc_a.sc_t'::regclass::text, 'sc_b.sc_t'::regclass::text, 'sc_t'::regclass::text",
    "SELECT 'sc_a.sc_t'::regclass = 'sc_b.sc_t'::regclass",
    "SELECT 'nosuch.sc_t'::regclass",
    "SELECT 'sc_a.nosuch'::regclass",
    "SELECT to_regclass('nosuch.sc_t') IS NULL, to_regclass('sc_b.sc_t') IS NULL",
    "SELECT current_schema(), current_schemas(false), current_schemas(true)",
    "SET search_path TO sc_b, sc_a, public",
    "SHOW search_path",
    "SELECT current_schema(), current_schemas(false), current_schemas(true)",
    "SELECT * FROM sc_t ORDER BY id",
    "SELECT 'sc_t'::regclass::text, 'sc_a.sc_t'::regclass::text, 'public.sc_t'::regclass::text",
    "CREATE TABLE sc_u (k integer)",
    "INSERT INTO sc_u VALUES (5)",
    "SELECT * FROM sc_b.sc_u",
    "SET search_path TO nosuch, sc_a",
    "SELECT current_schema(), current_schemas(false)",
    "SELECT * FROM sc_t ORDER BY id",
    "SET search_path TO nosuch",
    "SELECT current_schema(), current_schemas(false), current_schemas(true)",
    "CREATE TABLE sc_v (k integer)",
    "SELECT * FROM sc_t",
    "SET search_path TO \"Sc_C\"",
    "SELECT current_schema(), * FROM \"Sc_T\"",
    "RESET search_path",
    "SELECT * FROM sc_t ORDER BY id",
    "SELECT nspname, pg_get_userbyid(nspowner) = current_user, nspacl FROM pg_namespace"
    " WHERE nspname IN ('sc_a', 'sc_b', 'Sc_C', 'public') ORDER BY 1",
    "SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname IN ('sc_a', 'sc_b', 'Sc_C') OR (n.nspname = 'public' AND c.relname LIKE 'sc\\_%')"
    " ORDER BY 1, 2",
    "SELECT c.relname, pg_table_is_visible(c.oid) FROM pg_class c JOIN pg_namespace n"
    " ON n.oid = c.relnamespace WHERE n.nspname IN ('sc_a', 'sc_b', 'public') AND c.relname LIKE 'sc_%'"
    " ORDER BY n.nspname, 1",
    "SELECT n.nspname, con.conname, con.contype FROM pg_constraint con JOIN pg_namespace n"
    " ON n.oid = con.connamespace WHERE n.nspname LIKE 'sc_%' ORDER BY 1, 2",
    "SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes WHERE schemaname LIKE 'sc_%' ORDER BY 1, 3",
    "SELECT catalog_name = current_database(), schema_name, schema_owner = current_user"
    " FROM information_schema.schemata WHERE schema_name IN ('sc_a', 'sc_b', 'Sc_C', 'public') ORDER BY 2",
    "SELECT table_schema, table_name, table_type FROM information_schema.tables"
    " WHERE table_schema IN ('sc_a', 'sc_b', 'Sc_C') OR (table_schema = 'public' AND table_name LIKE 'sc\\_%')"
    " ORDER BY 1, 2",
    "SELECT table_schema, table_name, column_name, ordinal_position, data_type FROM information_schema.columns"
    " WHERE table_schema IN ('sc_a', 'sc_b', 'Sc_C') ORDER BY 1, 2, 4",
    "ALTER TABLE sc_a.sc_t ADD COLUMN extra integer DEFAULT 4",
    "SELECT * FROM sc_a.sc_t ORDER BY id",
    "ALTER TABLE nosuch.sc_t ADD COLUMN extra integer",
    "DROP SCHEMA sc_a",
    "DROP SCHEMA sc_a RESTRICT",
    "DROP SCHEMA sc_a, sc_b",
    "DROP SCHEMA nosuch",
    "DROP SCHEMA IF EXISTS nosuch",
    "DROP SCHEMA IF EXISTS nosuch, nosuch2",
    "ALTER SCHEMA nosuch RENAME TO sc_y",
    "ALTER SCHEMA sc_a RENAME TO sc_b",
    "ALTER SCHEMA sc_a RENAME TO pg_y",
    "ALTER SCHEMA sc_a RENAME TO sc_a2",
    "SELECT * FROM sc_a2.sc_t ORDER BY id",
    "SELECT * FROM sc_a.sc_t",
    "ALTER SCHEMA sc_a2 OWNER TO pg_database_owner",
    "ALTER SCHEMA sc_a2 OWNER TO no_such_role",
    "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'sc_a2'",
    "ALTER SCHEMA sc_a2 OWNER TO CURRENT_USER",
    "DROP TABLE sc_b.sc_u",
    "DROP TABLE nosuch.sc_t",
    "DROP TABLE IF EXISTS nosuch.sc_t",
    "DROP TABLE IF EXISTS sc_a2.nosuch",
    "DROP TABLE sc_a2.nosuch",
    "CREATE TEMP TABLE sc_t (id integer, tmp text)",
    "INSERT INTO sc_t VALUES (9, 'temp')",
    "SET search_path TO sc_b",
    "SELECT * FROM sc_t ORDER BY id",
    "SELECT * FROM sc_b.sc_t ORDER BY id",
    "DROP TABLE sc_t",
    "SELECT * FROM sc_t ORDER BY id",
    "RESET search_path",
    "BEGIN",
    "CREATE SCHEMA sc_tx",
    "CREATE TABLE sc_tx.t (a integer)",
    "INSERT INTO sc_tx.t VALUES (1)",
    "SELECT * FROM sc_tx.t",
    "ROLLBACK",
    "SELECT * FROM sc_tx.t",
    "SELECT count(*) FROM pg_namespace WHERE nspname = 'sc_tx'",
    "DROP SCHEMA sc_a2, sc_b CASCADE",
    "DROP SCHEMA \"Sc_C\" CASCADE",
    "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'sc_%' OR nspname = 'Sc_C'",
    "SELECT * FROM sc_t ORDER BY id",
    "DROP TABLE sc_t",
]

# a catalog left in place to be read again after a restart and a rebuild
DURABLE = [
    "CREATE SCHEMA sc_keep",
    "CREATE SCHEMA sc_gone",
    "CREATE TABLE sc_keep.kept (id integer PRIMARY KEY, \"Name\" text)",
    "CREATE TABLE sc_keep.\"Kept\" (id integer)",
    "CREATE TABLE kept (id integer, public_only boolean)",
    "CREATE TABLE sc_gone.dropped (id integer)",
    "INSERT INTO sc_keep.kept VALUES (1, 'one'), (2, 'two')",
    "INSERT INTO sc_keep.\"Kept\" VALUES (42)",
    "INSERT INTO kept VALUES (1, true)",
    "DROP SCHEMA sc_gone CASCADE",
    "CREATE SCHEMA sc_renamed",
    "CREATE TABLE sc_renamed.r (x integer)",
    "INSERT INTO sc_renamed.r VALUES (3)",
    "ALTER SCHEMA sc_renamed RENAME TO sc_now",
]
READ_BACK = [
    "SELECT * FROM sc_keep.kept ORDER BY id",
    "SELECT * FROM sc_keep.\"Kept\"",
    "SELECT * FROM kept",
    "SELECT * FROM sc_now.r",
    "SELECT * FROM sc_gone.dropped",
    "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname LIKE 'sc_%' OR c.relname ILIKE 'kept%' ORDER BY 1, 2",
    "INSERT INTO sc_keep.kept VALUES (3, 'three')",
    "SELECT * FROM sc_keep.kept ORDER BY id",
    "CREATE SCHEMA sc_keep",
    "CREATE TABLE sc_keep.kept (x integer)",
    "CREATE SCHEMA sc_after",
    "CREATE TABLE sc_after.kept (y integer)",
    "INSERT INTO sc_after.kept VALUES (8)",
    "SELECT * FROM sc_after.kept",
    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'sc_%' ORDER BY 1",
]
CLEANUP = ["DROP SCHEMA IF EXISTS sc_keep, sc_now, sc_after CASCADE", "DROP TABLE IF EXISTS kept"]


class Recorder:
    """What a connection's statements answer, with the notices each raised."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn
        self.notices: list = []
        conn.add_notice_handler(lambda d: self.notices.append(
            (d.severity_nonlocalized, d.sqlstate, d.message_primary, d.message_detail, d.message_hint)))

    def answer(self, sql: str) -> tuple:
        self.notices.clear()
        try:
            with self.conn.cursor() as cur:
                cur.execute(sql)
                result = (("rows", [tuple(str(v) for v in row) for row in cur.fetchall()])
                          if cur.description is not None else ("status", cur.statusmessage))
        except psycopg.Error as e:
            assert e.sqlstate is not None and not self.conn.closed, f"{sql}: connection lost: {e}"
            result = ("error", e.sqlstate, e.diag.message_primary, e.diag.message_detail, e.diag.message_hint)
        return result, list(self.notices)


@contextlib.contextmanager
def recorders(rocklake_server, postgres_server, dbname="postgres"):
    with rocklake_server.connect(dbname, autocommit=True) as rl, \
            postgres_server.connect(dbname, autocommit=True) as pg:
        yield Recorder(rl), Recorder(pg)


def same_answers(rl: Recorder, pg: Recorder, statements) -> None:
    for sql in statements:
        assert rl.answer(sql) == pg.answer(sql), sql


def test_schemas_as_postgres(rocklake_server, postgres_server):
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        for sql in SETUP:
            rl.answer(sql)
            pg.answer(sql)
        same_answers(rl, pg, STATEMENTS)


def test_copy_with_schemas(rocklake_server, postgres_server):
    """COPY into and out of a table of another schema (and the same name in public)."""
    outputs = []
    for server in (rocklake_server, postgres_server):
        with server.connect(autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS sc_copy CASCADE")
            conn.execute("DROP TABLE IF EXISTS copied")
            conn.execute("CREATE SCHEMA sc_copy")
            conn.execute("CREATE TABLE sc_copy.copied (id integer, name text)")
            conn.execute("CREATE TABLE copied (id integer)")
            with conn.cursor().copy("COPY sc_copy.copied FROM STDIN") as copy:
                copy.write_row((1, "one"))
                copy.write_row((2, "two"))
            with conn.cursor().copy("COPY (SELECT * FROM sc_copy.copied ORDER BY id) TO STDOUT") as copy:
                got = b"".join(bytes(chunk) for chunk in copy)
            with conn.cursor().copy("COPY sc_copy.copied TO STDOUT") as copy:
                whole = sorted(b"".join(bytes(chunk) for chunk in copy).splitlines())
            count = conn.execute("SELECT count(*) FROM copied").fetchone()
            conn.execute("DROP SCHEMA sc_copy CASCADE")
            conn.execute("DROP TABLE copied")
            outputs.append((got, whole, count))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("how", ["restart", "rebuild"])
def test_schemas_survive(rocklake_server, postgres_server, how):
    """Schemas and their tables come back after a restart, and from the store alone."""
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        for sql in CLEANUP:
            rl.answer(sql)
            pg.answer(sql)
        same_answers(rl, pg, DURABLE)
    rocklake_server.restart(rebuild=how == "rebuild")
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, READ_BACK)
        for sql in CLEANUP:
            assert rl.answer(sql) == pg.answer(sql), sql
