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
    # a subquery of at most one row (no FROM, or aggregates and no GROUP BY) is read
    # without rl_scalar's check, so correlated ones nest twice as deep
    "SELECT " + "(SELECT " * 15 + "v.x + 1" + ")" * 15 + " FROM (VALUES (1), (2)) v(x) ORDER BY 1",
    "SELECT (SELECT count(*) FROM generate_series(1, v.x) HAVING count(*) > 1), (SELECT 1 WHERE v.x = 2),"
    " (SELECT max(g) + v.x FROM generate_series(1, 3) g), (SELECT count(*) WHERE false)"
    " FROM (VALUES (1), (2)) v(x) ORDER BY 1",
    "SELECT (SELECT g FROM generate_series(1, 2) g)",
    "SELECT (SELECT generate_series(1, 2))",
    "SELECT (SELECT max(g) FROM generate_series(1, 3) g GROUP BY g % 2)",
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
    " UNION ALL ".join(f"SELECT {i}" for i in range(2_000)),
    # PostgreSQL takes about 4 090 terms of a chain (its 2 MB stack); at twice that both refuse
    "SELECT " + "+".join(["1"] * 4_090),
    "SELECT length(" + "||".join(["'a'"] * 4_090) + ")",
    "SELECT " + "+".join(["1"] * 8_190),
    "SELECT " + "- " * 4_090 + "1",
    "SELECT " + "CASE WHEN true THEN " * 500 + "1" + " END" * 500,
]


@pytest.mark.parametrize("sql", LONG, ids=range(len(LONG)))
def test_long_lists(both, sql):
    rl, pg = both
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


def chain(n, op, first=0):
    """n arms joined by one set operation; int4, int8 and NULL, so the result is int8"""
    return f" {op} ".join("SELECT NULL" if i % 101 == 100 else f"SELECT {i % 997}" + ("::int8" if i % 3 == 0 else "")
                          for i in range(first, first + n))


def largest(conn, make, lo, hi):
    """about the largest n in [lo, hi) of make(n) that conn takes (to 1 %): lo is taken"""
    while hi - lo > lo // 100:
        mid = (lo + hi) // 2
        if answer(conn, make(mid))[0] == "rows":
            lo = mid
        else:
            hi = mid
    return lo


SET_CHAINS = {
    "UNION": lambda n: "SELECT count(*), sum(x), max(x) FROM (" + chain(n, "UNION") + ") s(x)",
    "ORDER BY": lambda n: chain(n, "UNION") + " ORDER BY 1 DESC LIMIT 3 OFFSET 1",
    "INTERSECT": lambda n: "SELECT 5 INTERSECT " + chain(n, "INTERSECT").replace("SELECT 997", "SELECT 5"),
    "EXCEPT": lambda n: "SELECT x FROM generate_series(1, 1200) x EXCEPT " + chain(n, "EXCEPT") + " ORDER BY 1",
}


@pytest.mark.parametrize("kind", SET_CHAINS)
def test_set_operation_chains(both, kind):
    """A chain of one set operation is one tree of compounds SQLite's parser takes at
    any length: at the longest PostgreSQL takes both answer alike."""
    rl, pg = both
    make = SET_CHAINS[kind]
    n = largest(pg, make, 1_000, 20_000)
    assert answer(rl, make(n), with_message=True) == answer(pg, make(n), with_message=True), kind


def test_long_set_operation_chains(both):
    """10 000 arms, more than PostgreSQL's stack takes (refused there); and UNION ALL,
    whose planning in PostgreSQL takes seconds for thousands of arms."""
    rl, pg = both
    values = ["None" if i % 101 == 100 else str(i % 997) for i in range(10_000)]
    assert answer(rl, "SELECT count(*) FROM (" + chain(10_000, "UNION ALL") + ") s") == ("rows", [("10000",)])
    assert answer(rl, "SELECT x FROM (" + chain(10_000, "UNION ALL") + ") s(x) LIMIT 1 OFFSET 9999") == \
        ("rows", [(values[-1],)])
    assert answer(rl, "SELECT count(*) FROM (" + chain(10_000, "UNION") + ") s") == \
        ("rows", [(str(len(set(values))),)])
    assert answer(rl, "SELECT 997 EXCEPT " + chain(10_000, "EXCEPT", 1)) == ("rows", [("997",)])
    # UNION ALL after UNION: the UNION takes away the duplicates of all before it only
    for sql in ["SELECT count(*) FROM (" + chain(1_000, "UNION ALL") + " UNION " + chain(1_000, "UNION ALL") + ") s",
                "SELECT count(*) FROM (" + chain(700, "UNION") + " UNION ALL " + chain(700, "UNION") + ") s"]:
        assert answer(rl, sql) == answer(pg, sql)


MULTISET = "SELECT x % 4 AS a, CASE WHEN x % 3 = 0 THEN NULL ELSE 'v' END AS b FROM generate_series(1, {n}) x"

# SQLite has no INTERSECT ALL or EXCEPT ALL: copies of a row are numbered, then compared
SET_ALL = [
    "SELECT 1 INTERSECT ALL SELECT 1", "SELECT 1 EXCEPT ALL SELECT 2", "SELECT 1.0 INTERSECT ALL SELECT 1",
    MULTISET.format(n=20) + " INTERSECT ALL " + MULTISET.format(n=9) + " ORDER BY 1, 2",
    MULTISET.format(n=30) + " EXCEPT ALL " + MULTISET.format(n=9) + " EXCEPT ALL " + MULTISET.format(n=7)
    + " ORDER BY 1, 2",
    MULTISET.format(n=30) + " INTERSECT ALL " + MULTISET.format(n=19) + " INTERSECT ALL " + MULTISET.format(n=12)
    + " ORDER BY 1 DESC, 2 LIMIT 5",
    "SELECT a FROM (SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 2) s(a) INTERSECT ALL SELECT 1 UNION ALL SELECT 1",
    "SELECT (SELECT 2 INTERSECT ALL SELECT 2), (SELECT 3 EXCEPT ALL SELECT 2)",
    # chains longer than one compound
    "SELECT count(*), sum(x) FROM (SELECT x % 997 FROM generate_series(1, 3000) x EXCEPT ALL "
    + chain(1_200, "EXCEPT ALL") + ") s(x)",
    "SELECT a, count(*) FROM (" + " INTERSECT ALL ".join(MULTISET.format(n=20 + i % 7) for i in range(600))
    + ") s GROUP BY a ORDER BY 1",
]


@pytest.mark.parametrize("sql", SET_ALL, ids=range(len(SET_ALL)))
def test_set_operations_all(both, sql):
    rl, pg = both
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


def balanced(leaves, op):
    """leaves joined by op as a balanced tree, in parentheses"""
    if len(leaves) == 1:
        return leaves[0]
    half = len(leaves) // 2
    return f"({balanced(leaves[:half], op)} {op} {balanced(leaves[half:], op)})"


# expressions over a column, which the executor evaluates in one call a tree; PostgreSQL
# takes about 4 090 terms of a chain, so the larger sizes check that both refuse alike
COLUMN_EXPRS = [
    "SELECT " + "+".join(["x"] * 20) + " FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(["x"] * 4_090) + " FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(["x"] * 8_190) + " FROM sz_c ORDER BY 1",
    "SELECT length(" + "||".join(["s"] * 4_090) + ") FROM sz_c ORDER BY 1",
    "SELECT " + "abs(" * 1_000 + "x" + ")" * 1_000 + " FROM sz_c ORDER BY 1",
    "SELECT " + "abs(" * 4_000 + "x" + ")" * 4_000 + " FROM sz_c ORDER BY 1",
    "SELECT " + "- " * 4_090 + "x FROM sz_c ORDER BY 1",
    "SELECT " + " AND ".join(f"x + {i} > 0" for i in range(2_000)) + " FROM sz_c ORDER BY 1",
    # past the first 1 000 variables constants are SQL literals, which SQLite compiles fast
    "SELECT " + " AND ".join(f"x + {i} > {i % 3}" for i in range(10_000)) + " FROM sz_c ORDER BY 1",
    "SELECT " + " OR ".join(f"x * {i} = 3" for i in range(2_000)) + " FROM sz_c ORDER BY 1",
    "SELECT CASE " + " ".join(f"WHEN x + {i} = 2 THEN x * {i}" for i in range(2_000))
    + " END FROM sz_c ORDER BY 1",
    # a huge overflow in the middle of a chain is PostgreSQL's error
    "SELECT " + "+".join(["x"] * 1_000) + " + 9223372036854775807 FROM sz_c",
    # more distinct leaves than SQLite passes one function: they go in packs of 126
    "SELECT " + balanced([f"coalesce(x, {i})" for i in range(256)], "+") + " FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(["coalesce(x, 0)", "x"] * 50) + " FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(f"coalesce(x, {i})" for i in range(200)) + " FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(f"coalesce(x, {i})" for i in range(2_000)) + " FROM sz_c ORDER BY 1",
    "SELECT length(" + "||".join(f"coalesce(s, '{i}')" for i in range(1_000)) + ") FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(f"abs(x - {i}) * coalesce(x, {i})" for i in range(500)) + " FROM sz_c ORDER BY 1",
    "SELECT greatest(" + ", ".join(f"x + coalesce(x, {i})" for i in range(3_000)) + ") FROM sz_c ORDER BY 1",
    "SELECT " + "+".join(f"coalesce(x, {i})" for i in range(8_190)) + " FROM sz_c ORDER BY 1",
]


@pytest.fixture
def sz_c(both):
    """both, each with the table sz_c (x int8, s text) of three rows"""
    for conn in both:
        conn.execute("DROP TABLE IF EXISTS sz_c")
        conn.execute("CREATE TABLE sz_c (x int8, s text)")
        conn.execute("INSERT INTO sz_c VALUES (1, 'a'), (2, 'bc'), (NULL, NULL)")
    yield both
    for conn in both:
        conn.execute("DROP TABLE sz_c")


@pytest.mark.parametrize("sql", COLUMN_EXPRS, ids=range(len(COLUMN_EXPRS)))
def test_column_expressions(sz_c, sql):
    rl, pg = sz_c
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


LEAF_CHAINS = [
    lambda n: "SELECT " + "+".join(f"coalesce(x, {i})" for i in range(n)) + " FROM sz_c ORDER BY 1",
    lambda n: "SELECT length(" + "||".join(f"coalesce(s, '{i}')" for i in range(n)) + ") FROM sz_c ORDER BY 1",
    lambda n: "SELECT " + "+".join(f"abs(x - {i}) * coalesce(x, {i})" for i in range(n // 2)) + " FROM sz_c ORDER BY 1",
]


def test_distinct_leaf_chains(sz_c):
    """Chains of terms SQLite computes, as long as PostgreSQL takes: one rl_eval call
    whose thousands of arguments go in packs of 126."""
    rl, pg = sz_c
    for make in LEAF_CHAINS:
        n = largest(pg, make, 1_000, 10_000)
        assert answer(rl, make(n), with_message=True) == answer(pg, make(n), with_message=True), n
    sql = "SELECT " + " + ".join(["coalesce(x, %s::int8)"] * 3_000) + " FROM sz_c ORDER BY 1"
    assert rl.execute(sql, list(range(3_000))).fetchall() == pg.execute(sql, list(range(3_000))).fetchall()


def test_timeout_of_a_huge_expression(both):
    """statement_timeout reaches a statement of 10 000 terms over a column."""
    rl, pg = both
    sql = "SELECT " + " AND ".join(f"x + {i} > 0" for i in range(10_000)) + " FROM sz_c ORDER BY 1"
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_c")
        conn.execute("CREATE TABLE sz_c (x int8)")
        conn.execute("INSERT INTO sz_c VALUES (1), (2)")
        conn.execute("SET statement_timeout = '50ms'")
    try:
        assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True) == \
            ("error", "57014", "canceling statement due to statement timeout")
    finally:
        for conn in (rl, pg):
            conn.execute("RESET statement_timeout")
            conn.execute("DROP TABLE sz_c")


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


ROWS = [
    "SELECT (1, 'x') = (1, 'x'), ROW(1, 2) < ROW(1, 3), (1, NULL) = (1, NULL), (1, 2) <> (1, 3)",
    "SELECT (1, NULL) < (2, NULL), (NULL, 1) < (2, 1), (2, NULL) < (1, 3), (1, 2, 3) >= (1, 2, 3), (1, 2) > (1, 1)",
    "SELECT (1, 2) IS DISTINCT FROM (1, NULL), (1, NULL) IS NOT DISTINCT FROM (1, NULL), (1, 2) <= (1, 2)",
    "SELECT (1, 'x') IN (" + ", ".join(f"({i}, 'x')" for i in range(5_000)) + ")",
    "SELECT (5, 'y') NOT IN ((1, 'x'), (5, NULL)), (5, 'y') IN ((1, 'x'), (5, NULL)), (5, 'y') NOT IN ((1, 'x'))",
    "SELECT count(*) FROM generate_series(1, 100) g WHERE (g, g % 3) IN (" + ", ".join(f"({i}, {i % 3})" for i in range(0, 200, 7)) + ")",
    "SELECT count(*) FROM generate_series(1, 100) g WHERE (g % 10, g) < (5, 30)",
    "SELECT (1, 2) = (1, 2, 3)",
    "SELECT (1, 2) ~ (1, 2)",
    "SELECT ('a', 'b') ~ ('a', 'b')",
    "SELECT (1, 'x') = (1, 2)",
]


@pytest.mark.parametrize("sql", ROWS, ids=range(len(ROWS)))
def test_row_comparisons(both, sql):
    rl, pg = both
    assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:120]


def test_most_parameters(both):
    """65 535 parameters, PostgreSQL's most (an unsigned 16-bit count in Parse)."""
    rl, pg = both
    sql = "SELECT 7 IN (" + ", ".join(["%s"] * 65_535) + ")"
    params = list(range(65_535))
    assert rl.execute(sql, params).fetchone() == pg.execute(sql, params).fetchone() == ("t",)


def test_widest_table(both):
    """1 600 columns, PostgreSQL's most: written, updated and deleted through the
    catalog cache, whose changeset apply compares every column of a row."""
    rl, pg = both
    cols = ", ".join(f"c{i} int4" for i in range(1_600))
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_w")
        conn.execute(f"CREATE TABLE sz_w ({cols})")
    for sql in ["INSERT INTO sz_w (c0, c1599) VALUES (1, 2), (3, 4)",
                "UPDATE sz_w SET c5 = 3 WHERE c0 = 1",
                "SELECT c0, c5, c1599 FROM sz_w ORDER BY c0",
                "DELETE FROM sz_w WHERE c0 = 3",
                "SELECT count(*) FROM sz_w",
                "CREATE TABLE sz_w2 (" + ", ".join(f"c{i} int4" for i in range(1_601)) + ")"]:
        assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql[:80]
    for conn in (rl, pg):
        conn.execute("DROP TABLE sz_w")


def test_large_values(both):
    """A 100 MB text literal and a 100 MB bytea parameter (PostgreSQL takes 1 GB)."""
    rl, pg = both
    big = "x" * (100 * 1024 * 1024)
    sql = f"SELECT length('{big}')"
    assert answer(rl, sql) == answer(pg, sql) == ("rows", [(str(len(big)),)])
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_b")
        conn.execute("CREATE TABLE sz_b (b bytea)")
        conn.execute("INSERT INTO sz_b VALUES (%s)", (big.encode(),))
        assert conn.execute("SELECT b FROM sz_b").fetchone()[0] == big.encode()
        conn.execute("DROP TABLE sz_b")


def flush_of_many_inlined_rows(lake):
    """ducklake_flush_inlined_data of 5 000 inlined rows: DuckDB 1.4 deletes them from
    the inlined table in one statement that names each row's ctid."""
    with lake.session() as s:
        s.sql("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10000)")
        s.sql("CREATE TABLE lake.t (id INTEGER, v VARCHAR)")
        s.sql("INSERT INTO lake.t SELECT range, 'v' || range FROM range(5000)")
        s.sql("DELETE FROM lake.t WHERE id % 7 = 0")
        assert not lake.parquet_files()
        s.sql("CALL ducklake_flush_inlined_data('lake')")
        assert lake.parquet_files()
        s.sql("SELECT count(*), sum(id), max(v) FROM lake.t")
    with lake.session() as s:
        s.sql("SELECT count(*), sum(id), min(v) FROM lake.t")


def test_flush_of_many_inlined_rows(run_scenario):
    run_scenario(flush_of_many_inlined_rows, "rocklake")
