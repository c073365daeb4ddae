"""Statements whose SQLite translation once failed inside SQLite, and came back as an
internal error (XX000) with SQLite's text: each is sent to RockLake and to PostgreSQL 15
in the same run, and RockLake must give PostgreSQL's answer, or PostgreSQL's SQLSTATE and
primary message. Where SQLite has a limit PostgreSQL has not (nesting depth), RockLake may
instead say what PostgreSQL says at its own limit: 54001 "stack depth limit exceeded".
A seeded generator then sends a few hundred odd statements over a small table (aggregates
in every clause, deep and wide expressions, subqueries everywhere) and checks that
RockLake never answers XX000, nor fails where PostgreSQL runs the statement.
"""

import random

import psycopg
import pytest

import answers

SETUP = [
    "CREATE TABLE t (x int, y text, z int)",
    "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (NULL, NULL, 30), (2, 'c', NULL)",
    "CREATE TABLE tk (id int PRIMARY KEY, a int, b text)",
    "INSERT INTO tk VALUES (1, 10, 'x'), (2, 20, 'y')",
]


def nest(open_, inner, close, depth):
    return open_ * depth + inner + close * depth


# the same answer, or the same SQLSTATE and primary message
SAME_ANSWER = [
    # aggregates where PostgreSQL allows none (SQLite: "misuse of aggregate")
    "SELECT x FROM t WHERE sum(x) > 1",
    "SELECT sum(count(*)) FROM t",
    "SELECT max(min(x)) FROM t GROUP BY y",
    "SELECT count(*) FROM t GROUP BY sum(x)",
    "SELECT count(*) FROM t a JOIN t b ON sum(a.x) > 0",
    "SELECT x FROM t WHERE x IN (SELECT sum(x) FROM t)",
    "SELECT x FROM t WHERE EXISTS (SELECT count(*) FROM t HAVING count(*) > 1)",
    "SELECT sum(x) FROM t HAVING sum(x) > 1",
    "SELECT (SELECT sum(x) FROM t) FROM t",
    "SELECT count(*) FROM t GROUP BY 1",
    "UPDATE t SET z = sum(z)",
    "INSERT INTO t VALUES (sum(1), 'x', 1)",
    "SELECT * FROM (VALUES (count(*))) v",
    # columns of a grouped query outside aggregates and GROUP BY (SQLite takes any row's)
    "SELECT x FROM t ORDER BY avg(x)",
    "SELECT x, count(*) FROM t",
    "SELECT x FROM t GROUP BY y",
    "SELECT x FROM t HAVING count(*) > 0",
    "SELECT x FROM t GROUP BY x HAVING z > 1",
    "SELECT x FROM t GROUP BY x ORDER BY z",
    "SELECT sum(x) FROM t ORDER BY y",
    "SELECT x + 1, count(*) FROM t GROUP BY x",
    "SELECT ctid, count(*) FROM t",
    "SELECT a FROM tk GROUP BY b",
    # ... and what PostgreSQL allows: GROUP BY's expressions, a primary key's table
    "SELECT x + 1, count(*) FROM t GROUP BY x + 1",
    "SELECT x * 2 FROM t GROUP BY x ORDER BY x",
    "SELECT coalesce(x, 0), count(*) FROM t GROUP BY coalesce(x, 0)",
    "SELECT CASE WHEN x > 1 THEN 'a' ELSE 'b' END, count(*) FROM t GROUP BY CASE WHEN x > 1 THEN 'a' ELSE 'b' END",
    "SELECT a, b, count(*) FROM tk GROUP BY id",
    "SELECT g.a FROM tk g GROUP BY g.id",
    "SELECT count(*) FROM t ORDER BY count(*)",
    "SELECT DISTINCT x, count(*) FROM t GROUP BY x",
    "SELECT (SELECT z FROM t LIMIT 1), count(*) FROM t",
    # FILTER (WHERE ...) of aggregates
    "SELECT x, count(*) FILTER (WHERE z > 1) FROM t GROUP BY x",
    "SELECT count(*) FILTER (WHERE z > 10), sum(z) FILTER (WHERE x = 1),"
    " string_agg(y, ',') FILTER (WHERE y <> 'a') FROM t",
    "SELECT count(*) FILTER (WHERE count(*) > 1) FROM t",
    "SELECT count(*) FILTER (WHERE 1) FROM t",
    # GROUP BY a bare name: an input column's, else a result column's
    "SELECT x AS a, count(*) FROM t GROUP BY a",
    "SELECT z + 1 AS q, count(*) FROM t GROUP BY q",
    "SELECT x AS y, count(*) FROM t GROUP BY y",
    "SELECT count(*) AS q FROM t GROUP BY q",
    # grouped without GROUP BY by HAVING or ORDER BY alone (SQLite: not an aggregate query)
    "SELECT 1 FROM t HAVING count(*) > 0",
    "SELECT 1 FROM t HAVING true",
    "SELECT 1 FROM t HAVING count(*) > 5",
    "SELECT 1 FROM t ORDER BY min(z)",
    "SELECT count(*) FROM t WHERE false HAVING count(*) >= 0",
    "SELECT 'k' FROM t WHERE false HAVING count(*) >= 0",
    # a scalar subquery's column is named after the subquery's
    "SELECT (SELECT z AS q FROM t LIMIT 1), (SELECT 1 UNION SELECT 2 LIMIT 1), (SELECT count(*) FROM t)",
    # integers of two widths compared by IN (subquery)
    "SELECT count(*) IN (SELECT z FROM t) FROM t",
    "SELECT x FROM t WHERE x IN (SELECT count(*) FROM t)",
    # ... and of types one casts to the other's: the subquery's column is cast
    "SELECT 1.5::numeric IN (SELECT 1), 1::numeric IN (SELECT 1), 2.0::float8 IN (SELECT 2::int8)",
    "SELECT x FROM t WHERE x::numeric IN (SELECT z / 10 FROM t)",
    "SELECT 'a'::text IN (SELECT 1)",
    # PostgreSQL's limits on columns (SQLite's are 2000)
    "SELECT " + ", ".join(["1"] * 1665),
    "SELECT " + ", ".join(["x"] * 1665) + " FROM t",
    "SELECT " + ", ".join(["x"] * 2001) + " FROM t",
    "SELECT " + ", ".join(["x"] * 1664) + " FROM t LIMIT 1",
    "CREATE TABLE wide1601 (" + ", ".join(f"c{i} int" for i in range(1601)) + ")",
    "CREATE TABLE wide2001 (" + ", ".join(f"c{i} int" for i in range(2001)) + ")",
    # long boolean chains: SQLite's expression depth is 1000
    "SELECT x FROM t WHERE " + " OR ".join(f"x + 0 = {i}" for i in range(3000)),
    "SELECT x FROM t WHERE " + " AND ".join(f"x + 0 <> {i}" for i in range(3, 3000)),
    # CASE in ELSE, as an IF ... ELSIF chain is written
    "SELECT " + nest("CASE WHEN x = -1 THEN 0 ELSE ", "x", " END", 300) + " FROM t",
    # VALUES in FROM and in IN (subquery): SQLite names its columns column1, ...
    "SELECT * FROM (VALUES (1), (2)) v(a) WHERE a IN (SELECT x FROM t)",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'q')) v(a, b), t WHERE a = x AND b = y",
    "SELECT x FROM t WHERE x IN (VALUES (1), (2))",
    "SELECT (VALUES (7)) FROM t",
    # chains of one set operation, longer than SQLite's 500 terms of a compound SELECT,
    # and arms whose columns are of other types than the result's
    "SELECT count(*), sum(x) FROM (" + " UNION ALL ".join(["SELECT x FROM t"] * 2000) + ") s",
    "SELECT count(*) FROM (" + " UNION ".join(["SELECT x FROM t"] * 1200) + ") s",
    "SELECT 1 AS a UNION ALL SELECT 2.5 UNION ALL SELECT 3 ORDER BY 1",
    "SELECT NULL UNION ALL SELECT 2 UNION ALL SELECT NULL ORDER BY 1",
    "SELECT 1 UNION SELECT 2 UNION ALL SELECT 1 ORDER BY 1",
    "SELECT 1 UNION ALL (SELECT 2 UNION SELECT 2) ORDER BY 1",
    "(SELECT 1 ORDER BY 1 LIMIT 1) UNION ALL SELECT 2 UNION ALL SELECT 3 ORDER BY 1",
    "SELECT 3 UNION SELECT 1 INTERSECT SELECT 1 ORDER BY 1",
    "SELECT 1 EXCEPT SELECT 2 EXCEPT SELECT 1",
    "SELECT 1 AS a UNION ALL SELECT 2.5 UNION ALL SELECT 'x'::text",
    "SELECT 1, 2 UNION ALL SELECT 1 UNION ALL SELECT 3",
    # parentheses the parse tree does not keep
    "SELECT " + nest("(", "x", ")", 1000) + " FROM t",
]


# PostgreSQL runs these; RockLake runs them too or stops at SQLite's depth with 54001
DEEP = [
    "SELECT " + nest("(SELECT ", "1", ")", 200),
    "SELECT " + nest("(SELECT ", "x", ")", 200) + " FROM t",
    "SELECT " + nest("CASE WHEN true THEN ", "x", " END", 300) + " FROM t",
    " UNION ALL ".join(["SELECT x FROM t"] * 600),
]


def answer(conn: psycopg.Connection, sql: str):
    return answers.answer(conn, sql, sort_rows=True, with_message=True)


@pytest.fixture(scope="module")
def both(rocklake_server, postgres_server):
    with rocklake_server.connect(autocommit=True) as rl, postgres_server.connect(autocommit=True) as pg:
        for conn in (rl, pg):
            conn.execute("DROP TABLE IF EXISTS t, tk")
            for sql in SETUP:
                conn.execute(sql)
        yield rl, pg
        for conn in (rl, pg):
            conn.execute("DROP TABLE t, tk")


@pytest.mark.parametrize("sql", SAME_ANSWER, ids=lambda s: s[:40])
def test_same_answer(both, sql):
    rl, pg = both
    assert answer(rl, sql) == answer(pg, sql), sql[:100]


@pytest.mark.parametrize("sql", DEEP, ids=lambda s: s[:40])
def test_deep_statement(both, sql):
    rl, pg = both
    expected = answer(pg, sql)
    got = answer(rl, sql)
    assert got == expected or got == ("error", "54001", "stack depth limit exceeded"), (sql[:100], got)


def test_catalog_ctid(both):
    """PostgreSQL's catalogs are tables, RockLake's are queries: their rows have no ctid,
    which RockLake says it does not support (not an internal error)"""
    rl, pg = both
    sql = "SELECT ctid IS NOT NULL FROM pg_class LIMIT 1"
    assert answer(pg, sql) == ("rows", [("True",)])
    assert answer(rl, sql)[:2] == ("error", "0A000")
    assert answer(rl, "SELECT ctid IS NOT NULL FROM t LIMIT 1") == ("rows", [("True",)])


# ---------- generated statements ----------

AGGREGATES = ["count(*)", "sum(x)", "max(y)", "min(z)", "avg(x)", "count(DISTINCT y)"]
SCALARS = ["x", "z", "x + z", "1", "NULL", "coalesce(x, z)", "length(y)", "x * 2"]


def expression(rnd: random.Random, depth: int, aggregates: bool) -> str:
    """a random expression; aggregates only where the caller allows them"""
    sub = lambda agg=aggregates: expression(rnd, depth - 1, agg)
    kinds = {
        "op": lambda: f"({sub()} {rnd.choice(['+', '-', '*'])} {sub()})",
        "case": lambda: f"CASE WHEN {sub()} > 1 THEN {sub()} ELSE {sub()} END",
        "sub": lambda: f"(SELECT {expression(rnd, depth - 1, rnd.random() < 0.5)} FROM t LIMIT 1)",
        "paren": lambda: "(" * 30 + sub() + ")" * 30,
        "in": lambda: f"(CASE WHEN {sub()} IN (SELECT z FROM t) THEN 1 ELSE 0 END)",
        "exists": lambda: f"(CASE WHEN EXISTS (SELECT 1 FROM t u WHERE u.x = {sub()}) THEN 1 ELSE 0 END)",
    }
    choices = ["scalar"] + list(kinds) + (["agg", "agg"] if aggregates else [])
    kind = rnd.choice(choices) if depth > 0 else "scalar"
    if kind == "scalar":
        return rnd.choice(SCALARS)
    if kind == "agg":
        return rnd.choice(AGGREGATES) if rnd.random() < 0.8 else f"sum({sub(True)})"
    return kinds[kind]()


def generated(seed: int, n: int):
    rnd = random.Random(seed)
    e = lambda agg=False: expression(rnd, rnd.randint(0, 3), agg)

    def chain():
        op = rnd.choice([" OR ", " AND ", " + "])
        return f"SELECT ({op.join(e() for _ in range(rnd.randint(500, 1500)))}) IS NULL FROM t"

    shapes = {
        "select": lambda: f"SELECT {e(True)}, {e()} FROM t",
        "where": lambda: f"SELECT x FROM t WHERE {e(rnd.random() < 0.3)} > 0",
        "group": lambda: f"SELECT {e(True)} FROM t GROUP BY {e(rnd.random() < 0.2)}",
        "having": lambda: f"SELECT count(*) FROM t GROUP BY x HAVING {e(True)} > 0",
        "order": lambda: f"SELECT x FROM t ORDER BY {e(rnd.random() < 0.2)} LIMIT 2",
        "wide": lambda: "SELECT " + ", ".join(e() for _ in range(rnd.randint(100, 1700))) + " FROM t LIMIT 1",
        "chain": chain,
    }
    for _ in range(n):
        yield shapes[rnd.choice(list(shapes))]()


def test_generated_statements(both):
    rl, pg = both
    findings = []
    for sql in generated(20261202, 300):
        expected = answer(pg, sql)
        got = answer(rl, sql)
        if got[0] == "error" and (got[1] == "XX000" or expected[0] != "error"):
            findings.append((sql[:160], got, expected[:2]))
    assert findings == [], "\n".join(map(str, findings))
