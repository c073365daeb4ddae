"""Read-only transactions, answered by RockLake as PostgreSQL 15 answers them in the same
run: BEGIN / START TRANSACTION READ ONLY, SET TRANSACTION, SET SESSION CHARACTERISTICS,
default_transaction_read_only and transaction_read_only; a write in a read-only
transaction is 25006 "cannot execute X in a read-only transaction" (a temporary table's
rows may change, no DDL may run, not even on temporary objects); READ WRITE comes only
before the first query and outside savepoints (25001); SET LOCAL lasts until the
transaction ends. pg_dump takes its snapshot in a read-only transaction, and DuckDB's
postgres extension reads a lake attached READ_ONLY in one.
"""

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)


def test_read_only_transactions(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS ro_t",
        "CREATE TABLE ro_t (a integer)",
        "BEGIN READ ONLY", "SHOW transaction_read_only", "INSERT INTO ro_t VALUES (1)", "ROLLBACK",
        "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", "UPDATE ro_t SET a = 2",
        "ROLLBACK",
        "BEGIN", "SET TRANSACTION READ ONLY", "DELETE FROM ro_t", "ROLLBACK",
        "BEGIN READ ONLY", "CREATE TABLE ro_u (a integer)", "ROLLBACK",
        "BEGIN READ ONLY", "CREATE TEMP TABLE ro_tt (a integer)", "ROLLBACK",
        "BEGIN READ ONLY", "TRUNCATE ro_t", "ROLLBACK",
        "BEGIN READ ONLY", "DROP TABLE ro_t", "ROLLBACK",
        "BEGIN READ ONLY", "ALTER TABLE ro_t ADD COLUMN b integer", "ROLLBACK",
        "BEGIN READ ONLY", "CREATE SCHEMA ro_s", "ROLLBACK",
        "BEGIN READ ONLY", "DROP SCHEMA IF EXISTS ro_nosuch", "ROLLBACK",
        "BEGIN READ ONLY", "CREATE ROLE ro_role", "ROLLBACK",
        "BEGIN READ ONLY", "SELECT count(*) FROM ro_t", "LOCK TABLE ro_t", "ROLLBACK",
        "BEGIN READ ONLY", "EXPLAIN (COSTS OFF) INSERT INTO ro_t VALUES (1)", "ROLLBACK",
        "BEGIN READ ONLY", "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM ro_t",
        "ROLLBACK",
        "BEGIN READ ONLY", ("COPY ro_t FROM STDIN", "5\n"), "ROLLBACK",
        "CREATE TEMP TABLE ro_temp (a integer)",
        "BEGIN READ ONLY", "INSERT INTO ro_temp VALUES (1)", "UPDATE ro_temp SET a = 3",
        ("COPY ro_temp FROM STDIN", "4\n"), "SELECT a FROM ro_temp ORDER BY a", "DROP TABLE ro_temp",
        "ROLLBACK",
        "SELECT count(*) FROM ro_t",
    ])


def test_read_write_mode_changes(both):
    same_answers(both, [
        "DROP TABLE IF EXISTS rw_t",
        "CREATE TABLE rw_t (a integer)",
        # READ WRITE: before the first query, outside savepoints; READ ONLY at any time
        "BEGIN READ ONLY", "SET TRANSACTION READ WRITE", "INSERT INTO rw_t VALUES (1)", "COMMIT",
        "BEGIN READ ONLY", "SHOW transaction_read_only", "SET TRANSACTION READ WRITE", "ROLLBACK",
        "BEGIN READ ONLY", "SELECT 1", "SET TRANSACTION READ WRITE", "ROLLBACK",
        "BEGIN READ ONLY", "SAVEPOINT s", "SET TRANSACTION READ WRITE", "ROLLBACK",
        "BEGIN READ ONLY", "SET transaction_read_only = off", "SHOW transaction_read_only", "ROLLBACK",
        "BEGIN READ ONLY", "SELECT 1", "SET transaction_read_only = off", "ROLLBACK",
        "BEGIN", "INSERT INTO rw_t VALUES (2)", "SET TRANSACTION READ ONLY",
        "INSERT INTO rw_t VALUES (3)", "ROLLBACK",
        "BEGIN", "SET LOCAL transaction_read_only = on", "INSERT INTO rw_t VALUES (4)", "ROLLBACK",
        "BEGIN", "SET transaction_read_only = 'maybe'", "ROLLBACK",
        # outside a block: a warning, and the next transaction starts afresh
        "SET TRANSACTION READ ONLY",
        "SET transaction_read_only = on", "SHOW transaction_read_only",
        "INSERT INTO rw_t VALUES (5)",
        # the session's default
        "SET default_transaction_read_only = on",
        "SHOW transaction_read_only", "INSERT INTO rw_t VALUES (6)",
        "CREATE DATABASE ro_db", "CREATE TEMP TABLE rw_temp (a integer)",
        "BEGIN READ WRITE", "INSERT INTO rw_t VALUES (7)", "COMMIT",
        "BEGIN", "SET TRANSACTION READ WRITE", "INSERT INTO rw_t VALUES (8)", "COMMIT",
        "RESET default_transaction_read_only",
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
        "SHOW default_transaction_read_only", "INSERT INTO rw_t VALUES (9)",
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
        "INSERT INTO rw_t VALUES (10)",
        "SELECT a FROM rw_t ORDER BY a",
    ])


def test_set_local(both):
    """SET LOCAL lasts until the transaction ends; outside a block it warns"""
    same_answers(both, [
        "BEGIN", "SET LOCAL work_mem = '1MB'", "SHOW work_mem", "COMMIT", "SHOW work_mem",
        "SET work_mem = '2MB'",
        "BEGIN", "SET LOCAL work_mem = '3MB'", "SHOW work_mem", "ROLLBACK", "SHOW work_mem",
        "BEGIN", "SET LOCAL work_mem TO DEFAULT", "SHOW work_mem", "COMMIT", "SHOW work_mem",
        "SET LOCAL work_mem = '5MB'", "SHOW work_mem",
        "RESET work_mem",
    ])
