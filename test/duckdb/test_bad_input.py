"""Bad input against RockLake: over 200 statements outside what it supports (PostgreSQL
features it will never have, syntax errors, invalid values, missing objects, misuse of
transactions, oversized and deeply nested input), each sent with psycopg over the simple
and the extended protocol. Every one must be answered with an ErrorResponse whose
SQLSTATE is not XX000 on a connection that stays usable; afterwards the session, an idle
bystander connection and the postmaster are unharmed.
"""

import psycopg
import pytest


UNSUPPORTED = [
    "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    "CREATE OR REPLACE FUNCTION f(a int) RETURNS int AS $$ BEGIN RETURN a; END $$ LANGUAGE plpgsql",
    "CREATE PROCEDURE p() LANGUAGE sql AS $$ SELECT 1 $$",
    "CALL no_such_procedure()",
    "DO $$ BEGIN RAISE NOTICE 'x'; END $$",
    "CREATE TRIGGER tr BEFORE INSERT ON no_such_table FOR EACH ROW EXECUTE FUNCTION f()",
    "CREATE EVENT TRIGGER et ON ddl_command_start EXECUTE FUNCTION f()",
    "CREATE RULE r AS ON INSERT TO no_such_table DO INSTEAD NOTHING",
    "CREATE POLICY pol ON no_such_table USING (true)",
    "CREATE AGGREGATE agg (int) (sfunc = int4pl, stype = int)",
    "CREATE OPERATOR === (leftarg = int, rightarg = int, function = int4eq)",
    "CREATE CAST (text AS no_such_type) WITH INOUT",
    "CREATE COLLATION c1 (locale = 'no_such_locale')",
    "CREATE TEXT SEARCH CONFIGURATION ts1 (COPY = no_such_config)",
    "CREATE FOREIGN DATA WRAPPER fdw1",
    "CREATE SERVER srv1 FOREIGN DATA WRAPPER no_such_fdw",
    "CREATE USER MAPPING FOR CURRENT_USER SERVER no_such_server",
    "CREATE FOREIGN TABLE ft (a int) SERVER no_such_server",
    "IMPORT FOREIGN SCHEMA s FROM SERVER no_such_server INTO public",
    "CREATE PUBLICATION pub FOR ALL TABLES",
    "CREATE SUBSCRIPTION sub CONNECTION 'host=192.0.2.1' PUBLICATION pub",
    "CREATE TABLESPACE tbs LOCATION '/nonexistent/rocklake'",
    "CREATE EXTENSION no_such_extension",
    "CREATE LANGUAGE no_such_language",
    "CREATE MATERIALIZED VIEW mv AS SELECT * FROM no_such_table",
    "REFRESH MATERIALIZED VIEW no_such_view",
    "CREATE DOMAIN d AS no_such_type",
    "CREATE TYPE ty AS (a no_such_type)",
    "CREATE TABLE inh (a int) INHERITS (no_such_parent)",
    "CREATE TABLE part_child PARTITION OF no_such_parent FOR VALUES IN (1)",
    "ALTER SYSTEM SET no_such_setting = 1",
    "LOAD '/nonexistent/library.so'",
    "COPY (SELECT 1) TO '/nonexistent/rocklake-bad-input'",
    "COPY no_such_table FROM '/etc/passwd'",
    "COPY no_such_table FROM PROGRAM 'true'",
    "SECURITY LABEL ON TABLE no_such_table IS 'x'",
    "PREPARE TRANSACTION 'gid-that-does-not-exist'",
    "COMMIT PREPARED 'gid-that-does-not-exist'",
    "ROLLBACK PREPARED 'gid-that-does-not-exist'",
    "LOCK TABLE no_such_table IN ACCESS EXCLUSIVE MODE",
    "CLUSTER no_such_table USING no_such_index",
    "REINDEX TABLE no_such_table",
    "FETCH NEXT FROM no_such_cursor",
    "MOVE NEXT IN no_such_cursor",
    "CLOSE no_such_cursor",
    "EXECUTE no_such_prepared_statement",
    "DEALLOCATE no_such_prepared_statement",
    "SAVEPOINT sp_outside_a_transaction",
    "RELEASE SAVEPOINT no_such_savepoint",
    "ROLLBACK TO SAVEPOINT no_such_savepoint",
    "SET TRANSACTION SNAPSHOT '00000003-0000001B-1'",
    "ALTER DATABASE no_such_database RENAME TO other",
    "DROP DATABASE no_such_database",
    "DROP ROLE no_such_role",
    "ALTER ROLE no_such_role SUPERUSER",
    "GRANT SELECT ON no_such_table TO no_such_role",
    "REVOKE ALL ON no_such_table FROM no_such_role",
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT lo_import('/etc/passwd')",
    "SELECT pg_terminate_backend(1, -1)",
    "SELECT dblink('host=192.0.2.1', 'SELECT 1')",
    "SELECT * FROM pg_catalog.no_such_catalog_table",
    "SELECT 1; SELECT 1/0",
]

SYNTAX = [
    "SELEC 1", "SELECT FROM WHERE", "SELECT 1 +", "SELECT (1", "SELECT 1)",
    "SELECT 'unterminated", 'SELECT "unterminated', "SELECT $$unterminated", "/* unterminated comment",
    "SELECT 1 FROM", "INSERT INTO", "UPDATE SET x = 1", "DELETE", "CREATE TABLE", "CREATE TABLE t (",
    "CREATE TABLE t (a int,)", "DROP", "ALTER TABLE t", "BEGIN TRANSACTION ISOLATION LEVEL NONSENSE",
    "SET", "SET x =", "SHOW", "COPY", "COPY t TO", "WITH x AS (SELECT 1)", "VALUES (1), (1, 2)",
    "SELECT * FROM (SELECT 1)", "SELECT 1 UNION", "SELECT CASE WHEN true THEN 1",
    "SELECT U&'\\+00ZZZZ'", "SELECT 1::", "SELECT ::int", "SELECT @@@ 1",
    "SELECT 1 2 3", "GRANT", "EXPLAIN", ";;;; SELEC", "\u00e9\u00e8 \u2603 \U0001f600",
    "SELECT " + "(" * 5000 + "1",
    "SELECT " + " + ".join(["1"] * 20000),
    "SELECT '" + "x" * 1_000_000 + "'::int",
    "SELECT " + ", ".join(f"c{i}" for i in range(3000)) + " FROM no_such_table",
    "SELECT \"" + "a" * 200 + "\" FROM no_such_table",
]

INVALID_VALUES = [
    f"SELECT {literal}::{type}" for type, bad in {
        "int": ["'abc'", "'1.5'", "'99999999999'", "''"],
        "smallint": ["'40000'", "'x'"],
        "bigint": ["'9223372036854775808'", "'1e5'"],
        "numeric": ["'1..2'", "'NaNx'", "'0e-2147483648'"],
        "numeric(2,1)": ["'100'"],
        "numeric(-4,2)": ["'1.5'"],
        "varchar(0)": ["'a'"],
        "real": ["'1e99'", "'x'"],
        "double precision": ["'1e999'", "'one'"],
        "boolean": ["'maybe'", "'2'"],
        "date": ["'2024-02-30'", "'2024-13-01'", "'yesterday-ish'"],
        "time": ["'25:00:00'", "'10:61'"],
        "timestamp": ["'2024-01-01 25:00'", "'not a time'", "'294277-01-01'"],
        "timestamptz": ["'2024-01-32 00:00+00'", "'294726-12-31 23:59:59+00'"],
        "interval": ["'1 fortnight'", "'x'"],
        "uuid": ["'a0eebc99-9c0b-4ef8-bb6d'", "'zzzzzzzz-9c0b-4ef8-bb6d-6bb9bd380a11'"],
        "bytea": ["'\\xZZ'", "'\\x1'"],
        "json": ["'{'"],
        "jsonb": ["'[1,'"],
        "inet": ["'300.1.1.1'"],
        "no_such_type": ["'1'"],
        "int[]": ["'{1,2'"],
        "tid": ["'(0,'", "'nonsense'"],
    }.items() for literal in bad
] + [
    "SELECT 1/0", "SELECT 1 % 0", "SELECT 1.0/0", "SELECT 2147483647::int + 1",
    "SELECT -32768::smallint - 1::smallint", "SELECT 9223372036854775807 + 1",
    "SELECT (-9223372036854775808)::bigint * -1", "SELECT sqrt(-1)", "SELECT ln(0)",
    "SELECT 10::numeric(3,0) * 1000::numeric(3,0)::numeric(3,0)", "SELECT 1 + 'a'",
    "SELECT 'a' + 'b'", "SELECT true + 1", "SELECT no_such_function(1)", "SELECT abs()",
    "SELECT abs(1, 2, 3)", "SELECT substr()", "SELECT no_such_column", "SELECT $1",
    "SELECT $3 + $1", "SELECT ARRAY[1, 'x']", "SELECT (SELECT 1 UNION SELECT 2)",
    "SELECT 1 WHERE 'x'", "SELECT 1 LIMIT -1", "SELECT 1 LIMIT 'x'", "SELECT 1 OFFSET -1",
    "SELECT chr(-1)", "SELECT repeat('x', 2147483647)", "SELECT make_date(2024, 2, 30)",
    "SELECT to_timestamp('x', 'YYYY')", "SELECT pg_sleep('x')", "SELECT version(1)",
    "SELECT 1 ORDER BY 2", "SELECT count(*) GROUP BY no_such_column", "SELECT max(max(1))",
    "SELECT sum('x')", "SELECT generate_series(1, 3, 0)", "SELECT now() + 1",
    "SELECT '2024-01-01'::date - 'x'", "SELECT current_setting('no.such_setting')",
    "SET no_such_setting = 1", "SET statement_timeout = 'a while'", "SET client_encoding = 'NO_SUCH'",
    "SET search_path = DEFAULT, 1", "SHOW no_such_setting", "RESET no_such_setting",
    "SET LOCAL no_such_setting = 1", "SET TIME ZONE 'No/Such_Zone'", "SET DateStyle = 'Klingon'",
    "SET server_version = '16'", "SET default_transaction_isolation = 'nonsense'",
]

MISSING_OBJECTS = [
    template.format(name=name)
    for name in ("no_such_table", "no_such_schema.t", '"NoSuch Quoted"', "pg_catalog.no_such")
    for template in (
        "SELECT * FROM {name}", "SELECT a FROM {name} WHERE a = 1", "INSERT INTO {name} VALUES (1)",
        "UPDATE {name} SET a = 1", "DELETE FROM {name} WHERE ctid IN ('(0,1)')",
        "DROP TABLE {name}", "ALTER TABLE {name} ADD COLUMN z int", "TRUNCATE {name}",
        "COPY {name} TO STDOUT", "COPY (SELECT * FROM {name}) TO STDOUT (FORMAT binary)",
        "DROP VIEW {name}", "COMMENT ON TABLE {name} IS 'x'",
    )
] + [
    "DROP SCHEMA no_such_schema", "ALTER SCHEMA no_such_schema RENAME TO s2",
    "CREATE TABLE no_such_schema.t (a int)", "CREATE VIEW v AS SELECT * FROM no_such_table",
    "DROP INDEX no_such_index", "DROP SEQUENCE no_such_sequence", "DROP FUNCTION no_such_function()",
    "DROP TYPE no_such_type", "SELECT nextval('no_such_sequence')",
    "SELECT 'no_such_table'::regclass", "SELECT * FROM pg_class JOIN no_such_table USING (oid)",
]

STATEMENTS = UNSUPPORTED + SYNTAX + INVALID_VALUES + MISSING_OBJECTS

PROTOCOLS = ["simple", "extended"]


def test_enough_statements():
    assert len(set(STATEMENTS)) == len(STATEMENTS) >= 200


def outcome(conn: psycopg.Connection, sql: str, prepare: bool) -> str | None:
    """None for a clean error on a connection that still works, else what went wrong."""
    try:
        conn.execute(sql, prepare=prepare)
        return "no error"
    except psycopg.Error as e:
        if conn.closed or e.sqlstate is None:
            return f"connection lost: {e}"
        if e.sqlstate == "XX000":
            return f"internal error: {e}"
    try:
        conn.execute("SELECT 1").fetchone()
    except psycopg.Error as e:
        return f"connection unusable after the error: {e}"
    return None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_bad_input(rocklake_server, protocol):
    pid = rocklake_server.pid
    with rocklake_server.connect(autocommit=True) as bystander, \
            rocklake_server.connect(autocommit=True) as conn:
        conn.execute("SET application_name = 'bad-input'")
        failures = []
        for sql in STATEMENTS:
            problem = outcome(conn, sql, prepare=protocol == "extended")
            if problem:
                failures.append(f"{sql[:100]!r}: {problem}")
                if conn.closed:
                    conn = rocklake_server.connect(autocommit=True)
        # errors inside a transaction block: aborted until ROLLBACK
        conn.execute("BEGIN")
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1/0")
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            conn.execute("SELECT 1")
        conn.execute("ROLLBACK")
        assert not failures, f"{len(failures)} of {len(STATEMENTS)}:\n" + "\n".join(failures)
        assert conn.execute("SHOW application_name").fetchone() == ("bad-input",)
        assert bystander.execute("SELECT 40 + 2").fetchone() == (42,)
    with rocklake_server.connect() as fresh:
        assert fresh.execute("SELECT 'unharmed'").fetchone() == ("unharmed",)
    assert rocklake_server.alive() and rocklake_server.pid == pid
