"""EXPLAIN, EXPLAIN ANALYZE and the plans of slow statements in the server log.

RockLake's plans are SQLite's plans of the SQL a statement is translated to, written in
PostgreSQL's text layout and node names, so where the two servers plan alike (a scan of a
whole table, a statement without a table, COSTS OFF) the answers are compared with
PostgreSQL 15's in the same run; so are the result's shape (one text column "QUERY
PLAN", command tag EXPLAIN), every error of a bad option or statement, and what EXPLAIN
and EXPLAIN ANALYZE do to the rows (the first never runs the statement, the second does,
inside its transaction). Where the plans differ (PostgreSQL chooses by costs, SQLite by
its indexes; SQLite's conditions have no values), RockLake's own plans of the catalog
queries DuckLake sends are asserted.
"""

import re

import pytest

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)


def plan(conn, sql: str, params=None) -> list[str]:
    with conn.cursor() as cur:
        cur.execute(sql, params)
        assert [(d.name, d.type_code) for d in cur.description] == [("QUERY PLAN", 25)]
        assert cur.statusmessage == "EXPLAIN"
        return [row[0] for row in cur.fetchall()]


@pytest.fixture
def tables(both):
    rl, pg = both
    for conn in (rl.conn, pg.conn):
        conn.execute("DROP TABLE IF EXISTS ex_t, ex_u")
        conn.execute("CREATE TABLE ex_t (a integer PRIMARY KEY, b text UNIQUE, c integer)")
        conn.execute("CREATE TABLE ex_u (x integer, y integer, PRIMARY KEY (x, y))")
        conn.execute("INSERT INTO ex_t VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 2)")
        conn.execute("INSERT INTO ex_u VALUES (1, 1), (2, 2)")
    yield both
    for conn in (rl.conn, pg.conn):
        conn.execute("DROP TABLE IF EXISTS ex_t, ex_u")


def test_same_plans(tables):
    """plans both servers make alike, with COSTS OFF (RockLake shows no costs: SQLite has none)"""
    same_answers(tables, [
        "EXPLAIN (COSTS OFF) SELECT 1",
        "EXPLAIN (COSTS OFF) VALUES (1), (2)",
        "EXPLAIN (COSTS OFF) SELECT generate_series(1, 3)",
        "EXPLAIN (COSTS OFF) SELECT * FROM ex_t",
        "EXPLAIN (COSTS OFF) SELECT * FROM ex_t AS q",
        "EXPLAIN (COSTS false, VERBOSE off, BUFFERS on, SETTINGS 1) SELECT * FROM ex_t",
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT 1",
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM ex_t",
        "EXPLAIN (COSTS OFF) INSERT INTO ex_t VALUES (9, 'z', 9)",
        "EXPLAIN (COSTS OFF, FORMAT TEXT) DELETE FROM ex_u",
    ])


def test_shape_and_errors(tables):
    """one row per line in one text column, whatever the options; bad options and
    statements are refused with PostgreSQL's SQLSTATE, message and position, the
    statement's own analysis first, as PostgreSQL's parse analysis comes before
    ExplainQuery reads the options"""
    rl, pg = tables
    for sql in ("EXPLAIN SELECT 1", "EXPLAIN SELECT * FROM ex_t", "EXPLAIN VERBOSE SELECT * FROM ex_t",
                "EXPLAIN ANALYZE SELECT 1", "EXPLAIN ANALYZE VERBOSE SELECT * FROM ex_t"):
        lines = plan(rl.conn, sql)
        assert len(lines) == len(plan(pg.conn, sql)), sql
    same_answers(tables, [
        "EXPLAIN (foo) SELECT 1",
        "EXPLAIN (FORMAT bar) SELECT 1",
        "EXPLAIN (FORMAT 'TEXT') SELECT 1",
        "EXPLAIN (FORMAT) SELECT 1",
        "EXPLAIN (ANALYZE 2) SELECT 1",
        "EXPLAIN (ANALYZE maybe) SELECT 1",
        "EXPLAIN (TIMING) SELECT 1",
        "EXPLAIN (TIMING off, COSTS off) SELECT 1",
        "EXPLAIN (WAL) SELECT 1",
        "EXPLAIN SELECT * FROM ex_nosuch",
        "EXPLAIN (foo) SELECT * FROM ex_nosuch",
        "EXPLAIN SELECT nosuch FROM ex_t",
        "EXPLAIN INSERT INTO ex_t VALUES ('x')",
        "EXPLAIN ANALYZE INSERT INTO ex_t VALUES (1, 'dup', 0)",
        "EXPLAIN ANALYZE SELECT 1 / 0",
    ])
    for fmt in ("JSON", "XML", "YAML"):
        got, _ = rl.answer(f"EXPLAIN (FORMAT {fmt}) SELECT 1")
        assert got[:2] == ("error", "ERROR") and got[2] == "0A000", got


def test_explain_runs_only_with_analyze(tables):
    """EXPLAIN of an INSERT, UPDATE or DELETE changes nothing; EXPLAIN ANALYZE runs it,
    in the transaction it is part of (rolled back with it), and shows the rows its top
    node returned and its times"""
    rl, pg = tables

    def each(statements):
        for conn in (rl.conn, pg.conn):
            for sql in statements:
                conn.execute(sql)

    each(["EXPLAIN INSERT INTO ex_t VALUES (10, 'j', 10)", "EXPLAIN UPDATE ex_t SET c = 0",
          "EXPLAIN DELETE FROM ex_t"])
    same_answers(tables, ["SELECT a, b, c FROM ex_t ORDER BY a"])
    each(["BEGIN", "EXPLAIN ANALYZE INSERT INTO ex_t VALUES (11, 'k', 11)"])
    same_answers(tables, ["SELECT count(*) FROM ex_t", "ROLLBACK", "SELECT count(*) FROM ex_t"])
    for conn in (rl.conn, pg.conn):
        lines = plan(conn, "EXPLAIN ANALYZE UPDATE ex_t SET c = c + 1 WHERE a = 1")
        assert re.fullmatch(r"Update on ex_t  ?(\(cost=\S+ rows=\d+ width=\d+\) )?"
                            r"\(actual time=\d+\.\d{3}\.\.\d+\.\d{3} rows=0 loops=1\)", lines[0]), lines
        assert re.fullmatch(r"Planning Time: \d+\.\d{3} ms", lines[-2]), lines
        assert re.fullmatch(r"Execution Time: \d+\.\d{3} ms", lines[-1]), lines
        lines = plan(conn, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM ex_t WHERE a = 3 RETURNING a")
        assert lines[0] == "Delete on ex_t (actual rows=1 loops=1)", lines
    same_answers(tables, ["SELECT a, c FROM ex_t ORDER BY a"])


def test_rocklake_plans(tables):
    """SQLite's plans in PostgreSQL's words: indexes of keys by their PostgreSQL names,
    searches with their conditions (values are not shown: `?`), joins as nested loops,
    temporary b-trees as Sort and aggregates, subqueries as InitPlan and SubPlan,
    compound queries as Append, relations by the client's names and aliases"""
    rl, _ = tables
    cases = {
        "SELECT * FROM ex_t WHERE b = 'x'": [
            "Index Scan using ex_t_b_key on ex_t",
            "  Index Cond: (b = ?)"],
        # sorted back into the table's row order, which a search by an index loses ("Row order")
        "SELECT * FROM ex_u WHERE x = 1 AND y > 0": [
            "Sort",
            "  ->  Index Only Scan using ex_u_pkey on ex_u",
            "        Index Cond: ((x = ?) AND (y > ?))"],
        "SELECT count(*) FROM ex_t": [
            "Index Only Scan using ex_t_pkey on ex_t"],
        "SELECT * FROM ex_t q JOIN ex_u ON q.c = ex_u.x ORDER BY q.c": [
            "Sort",
            "  ->  Nested Loop",
            "        ->  Seq Scan on ex_t q",
            "        ->  Index Only Scan using ex_u_pkey on ex_u",
            "              Index Cond: (x = ?)"],
        "SELECT c, count(*) FROM ex_t GROUP BY c": [
            "GroupAggregate",
            "  ->  Sort",
            "        ->  Seq Scan on ex_t"],
        "SELECT (SELECT max(x) FROM ex_u), * FROM ex_t WHERE EXISTS (SELECT 1 FROM ex_u WHERE ex_u.y = ex_t.a)": [
            "Seq Scan on ex_t",
            "  InitPlan 1",
            "    ->  Index Only Scan using ex_u_pkey on ex_u",
            "  SubPlan 2",
            "    ->  Seq Scan on ex_u"],
        "SELECT a FROM ex_t UNION SELECT x FROM ex_u": [
            "HashAggregate",
            "  ->  Append",
            "        ->  Index Only Scan using ex_t_pkey on ex_t",
            "        ->  Seq Scan on ex_u"],
        "SELECT * FROM ex_t WHERE ctid = '(0,1)'": [
            "Tid Scan on ex_t",
            "  TID Cond: (ctid = ?)"],
        "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace": [
            "Nested Loop",
            "  ->  Seq Scan on pg_class c",
            "  ->  Seq Scan on pg_namespace n"],
        "WITH w AS MATERIALIZED (SELECT * FROM ex_t) SELECT * FROM w, w w2": [
            "Nested Loop",
            "  CTE w",
            "    ->  Seq Scan on ex_t",
            "  ->  CTE Scan on w",
            "  ->  CTE Scan on w w2"],
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r": [
            "CTE Scan on r",
            "  CTE r",
            "    ->  Recursive Union",
            "          ->  Result",
            "          ->  WorkTable Scan on r"],
        "SELECT * FROM ex_t x JOIN ex_t y ON x.a = y.c": [
            "Nested Loop",
            "  ->  Seq Scan on ex_t y",
            "  ->  Index Scan using ex_t_pkey on ex_t x",
            "        Index Cond: (a = ?)"],
        "SELECT * FROM ex_t, ex_u WHERE ex_t.c = ex_u.y": [
            "Hash Join",
            "  Hash Cond: (y = ?)",
            "  ->  Seq Scan on ex_t",
            "  ->  Hash",
            "        ->  Seq Scan on ex_u"],
        "SELECT 1 LIMIT 1": [
            "Limit",
            "  ->  Result"],
        "DELETE FROM ex_t WHERE b = 'a'": [
            "Delete on ex_t",
            "  ->  Index Scan using ex_t_b_key on ex_t",
            "        Index Cond: (b = ?)"],
    }
    for sql, expected in cases.items():
        assert plan(rl.conn, "EXPLAIN " + sql) == expected, sql
    assert plan(rl.conn, "EXPLAIN (VERBOSE) SELECT a, b AS bee FROM ex_t") == [
        "Seq Scan on public.ex_t", "  Output: a, bee"]
    # a parameter of the extended protocol, bound as the statement is; a prepared EXPLAIN
    for prepare in (False, True, True):
        with rl.conn.cursor() as cur:
            cur.execute("EXPLAIN SELECT b FROM ex_t WHERE b = %s", ("b",), prepare=prepare)
            assert cur.fetchall() == [("Index Only Scan using ex_t_b_key on ex_t",), ("  Index Cond: (b = ?)",)]
    lines = plan(rl.conn, "EXPLAIN ANALYZE SELECT * FROM ex_t")
    assert re.fullmatch(r"Seq Scan on ex_t \(actual time=\d+\.\d{3}\.\.\d+\.\d{3} rows=3 loops=1\)", lines[0]), lines
    assert len(lines) == 3


@pytest.mark.duckdb
def test_ducklake_catalog_plans(new_lake):
    """the plans of catalog queries DuckLake sends, over the catalog DuckDB made"""
    lake = new_lake("rocklake")
    with lake.session() as s:
        s.sql("CREATE TABLE lake.items (k INTEGER, v VARCHAR)")
        s.sql("INSERT INTO lake.items VALUES (1, 'one')")
    with lake.server.connect(lake.dbname, autocommit=True) as conn:
        snapshot = plan(conn, "EXPLAIN SELECT snapshot_id, schema_version, next_catalog_id, next_file_id"
                              " FROM ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM ducklake_snapshot)")
        assert snapshot == [
            "Index Scan using ducklake_snapshot_pkey on ducklake_snapshot",
            "  Index Cond: (snapshot_id = ?)",
            "  InitPlan 1",
            "    ->  Index Only Scan using ducklake_snapshot_pkey on ducklake_snapshot"], snapshot
        tables = plan(conn, "EXPLAIN SELECT table_id, table_name FROM ducklake_table"
                            " WHERE schema_id = 0 AND 1 >= begin_snapshot AND (1 < end_snapshot OR end_snapshot IS NULL)")
        # the cache's own index of the table's columns, which its key layout keeps
        assert tables == ["Index Scan using rl_cache_ducklake_table on ducklake_table",
                          "  Index Cond: (schema_id = ?)"], tables


def test_slow_plans_logged(rocklake_server):
    """rocklake.log_slow_plans: a statement log_min_duration_statement logs has its plan
    logged after its duration line, as auto_explain words it, for a simple Query and
    for Execute; off (the default), no plan"""
    log_path = rocklake_server.workdir / "data.log"
    with rocklake_server.connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS ex_slow")
        conn.execute("CREATE TABLE ex_slow (k integer PRIMARY KEY, v text)")
        conn.execute("SET log_min_duration_statement = 0")
        conn.execute("SELECT v FROM ex_slow WHERE k = 7 -- no plan", prepare=False)
        conn.execute("SET rocklake.log_slow_plans = on")
        assert conn.execute("SHOW rocklake.log_slow_plans").fetchone() == ("on",)
        with conn.cursor() as cur:
            cur.execute("SELECT v FROM ex_slow WHERE k = 8 -- simple query", prepare=False)
            cur.execute("SELECT v FROM ex_slow WHERE k = %s -- extended", (9,))
            with cur.copy("COPY (SELECT v FROM ex_slow e WHERE k = 10) TO STDOUT") as copy:
                assert list(copy) == []
        conn.execute("SET rocklake.log_slow_plans = off")
        conn.execute("DROP TABLE ex_slow")
    log = log_path.read_text()
    plan_lines = "Index Scan using ex_slow_pkey on ex_slow\n  Index Cond: (k = ?)"
    assert re.search(r"LOG:  duration: \d+\.\d{3} ms  statement: SELECT v FROM ex_slow WHERE k = 8 -- simple query\n"
                     r".*LOG:  duration: \d+\.\d{3} ms  plan:\n" + re.escape(plan_lines), log), log[-3000:]
    assert re.search(r"execute <unnamed>: SELECT v FROM ex_slow WHERE k = \$1 -- extended\n"
                     r".*LOG:  duration: \d+\.\d{3} ms  plan:\n" + re.escape(plan_lines), log), log[-3000:]
    assert re.search(r"COPY \(SELECT v FROM ex_slow e WHERE k = 10\) TO STDOUT\n"
                     r".*LOG:  duration: \d+\.\d{3} ms  plan:\n"
                     r"Index Scan using ex_slow_pkey on ex_slow e\n  Index Cond: \(k = \?\)", log), log[-3000:]
    no_plan = log[log.index("-- no plan"):log.index("SET rocklake.log_slow_plans = on")]
    assert "plan:" not in no_plan
