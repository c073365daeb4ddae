"""Statements of PostgreSQL's sizes: deeply nested subqueries, long lists and chains.
RockLake translates each statement to SQLite SQL, whose parser stack (100 entries) and
expression depth (1000) are far below what PostgreSQL takes; each statement here is
sent to RockLake and to PostgreSQL 15 and both must answer alike (doc/design.md,
"Statement sizes").
"""

import pytest

from answers import answer
from test_robustness import both  # noqa: F401  (the fixture)


def scalar(n):
    return "SELECT " + "(SELECT " * n + "1" + ")" * n


def derived(n):
    return "SELECT * FROM " + "(SELECT * FROM " * n + "(SELECT 1 AS a) t" + ") t" * n


def nested(n, link):
    sql = "SELECT 1"
    for _ in range(n):
        sql = f"SELECT 1 WHERE {link} ({sql})"
    return sql


def cte_chain(n):
    ctes = ["c0 AS (SELECT 1 AS a)"] + [f"c{i} AS (SELECT a + 1 AS a FROM c{i - 1})" for i in range(1, n)]
    return "WITH " + ", ".join(ctes) + f" SELECT a FROM c{n - 1}"


NESTED = [
    # scalar, EXISTS and IN subqueries: SQLite's expression depth counts through them
    scalar(9), scalar(50), scalar(300),
    nested(9, "EXISTS"), nested(300, "EXISTS"), nested(9, "1 IN"), nested(300, "1 IN"),
    derived(9), derived(500),
    cte_chain(200),
    # hoisted subqueries beside the statement's own WITH, binds and aggregates
    "WITH w AS (SELECT 2 AS a) SELECT " + "(SELECT " * 20 + "count(*)" + ")" * 20
    + " + (SELECT a FROM w) FROM w WHERE EXISTS (" + scalar(20) + ")",
    "SELECT ARRAY(" + scalar(12) + "), 1 IN (" + scalar(12) + ")",
    # an inner subquery that refers to an outer query stays where it is
    "SELECT (SELECT (SELECT (SELECT (SELECT (SELECT v.x + 1))))) FROM (VALUES (1), (2)) v(x) ORDER BY 1",
    "SELECT (SELECT (SELECT (SELECT (SELECT (SELECT 1 WHERE v.x = 2))))) FROM (VALUES (1), (2)) v(x) ORDER BY 1",
    # an uncorrelated subquery deep inside one that is correlated
    "SELECT (SELECT v.x + " + scalar(20)[7:] + ") FROM (VALUES (1), (2)) v(x) ORDER BY 1",
]


@pytest.mark.parametrize("sql", NESTED, ids=range(len(NESTED)))
def test_nested_subqueries(both, sql):
    rl, pg = both
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


def test_nested_subqueries_with_parameters(both):
    """Extended protocol: the parameters of hoisted subqueries keep their numbers."""
    rl, pg = both
    sql = "SELECT " + "(SELECT " * 10 + "%s::int + %s::int" + ")" * 10 + " + %s::int"
    assert rl.execute(sql, (1, 2, 3)).fetchone() == pg.execute(sql, (1, 2, 3)).fetchone() == ("6",)


def test_nested_subqueries_in_writes(both):
    rl, pg = both
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_t")
        conn.execute("CREATE TABLE sz_t (a int8, b text)")
    for sql in ["INSERT INTO sz_t SELECT " + "(SELECT " * 30 + "7" + ")" * 30 + ", 'x'",
                "INSERT INTO sz_t VALUES (" + scalar(30)[7:] + ", 'y')",
                "UPDATE sz_t SET a = a + " + scalar(30)[7:] + " WHERE EXISTS (" + scalar(30) + ")",
                "DELETE FROM sz_t WHERE a IN (" + scalar(30) + ") RETURNING a, b",
                "SELECT a, b FROM sz_t ORDER BY a"]:
        assert answer(rl, sql) == answer(pg, sql), sql[:120]
    for conn in (rl, pg):
        conn.execute("DROP TABLE sz_t")


def seq(n):
    return ", ".join(str(i) for i in range(n))


LONG = [
    "SELECT count(*) FROM (VALUES " + ", ".join(f"({i}, 'v{i}')" for i in range(10_000)) + ") v(a, b)",
    "SELECT CASE 5000 " + " ".join(f"WHEN {i} THEN {i}" for i in range(10_000)) + " END",
    "SELECT cardinality(ARRAY[" + seq(10_000) + "])",
    "SELECT 9999 = ANY(ARRAY[" + seq(10_000) + "]), -1 = ANY(ARRAY[" + seq(10_000) + "])",
    "SELECT GREATEST(" + seq(10_000) + "), LEAST(" + seq(10_000) + ")",
    "SELECT COALESCE(" + "NULL, " * 9_999 + "1)",
    "SELECT " + " AND ".join(["true"] * 10_000),
    "SELECT " + "(" * 4_000 + "1" + ")" * 4_000,
    "SELECT " + ", ".join(f"{i} AS c{i}" for i in range(1_600)),
    " UNION ALL ".join(f"SELECT {i}" for i in range(1_500)),
    "SELECT " + "CASE WHEN true THEN " * 500 + "1" + " END" * 500,
]


@pytest.mark.parametrize("sql", LONG, ids=range(len(LONG)))
def test_long_lists(both, sql):
    rl, pg = both
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


def test_long_values_insert(both):
    rl, pg = both
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_v")
        conn.execute("CREATE TABLE sz_v (a int8, b text)")
    sql = "INSERT INTO sz_v VALUES " + ", ".join(f"({i}, 'v{i}')" for i in range(10_000))
    check = "SELECT count(*), sum(a), max(b) FROM sz_v"
    for s in (sql, check):
        assert answer(rl, s) == answer(pg, s)
    for conn in (rl, pg):
        conn.execute("DROP TABLE sz_v")
