"""Statements of PostgreSQL's sizes: deeply nested subqueries, long lists and chains.
RockLake translates each statement to SQLite SQL, whose parser stack (100 entries) and
expression depth (1000) are far below what PostgreSQL takes; each statement here is
sent to RockLake and to PostgreSQL 15 and both must answer alike (doc/design.md,
"Statement sizes").
"""

import pytest

from answers import answer
from test_robustness import both, same_answers  # noqa: F401  (the fixture)


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


V = " FROM (VALUES (1), (2), (NULL)) v(x) ORDER BY 1"


def correlated(n, link):
    """n EXISTS or IN subqueries nested, each reading the outermost query's column"""
    sql = "SELECT v.x WHERE v.x = 2"
    for _ in range(n - 1):
        sql = f"SELECT v.x WHERE v.x > 0 AND {'EXISTS' if link == 'EXISTS' else 'v.x IN'} ({sql})"
    return f"SELECT x, {'EXISTS' if link == 'EXISTS' else '2 IN'} ({sql})" + V


def correlated_scalar(n, from_clause=""):
    """n scalar subqueries nested, the innermost reading the outermost query's column"""
    return "SELECT x, " + "(SELECT " * n + "v.x + 1" + from_clause + ")" * n + V


def parses(conn, sql):
    """whether conn's grammar and analysis take sql: PREPARE plans and runs nothing"""
    if answer(conn, "PREPARE sz_p AS " + sql)[0] == "error":
        return False
    conn.execute("DEALLOCATE sz_p")
    return True


GRAMMAR_DEPTHS = {
    "EXISTS": lambda n: nested(n, "EXISTS"),
    "IN": lambda n: nested(n, "1 IN"),
    "correlated EXISTS": lambda n: correlated(n, "EXISTS"),
    "correlated IN": lambda n: correlated(n, "IN"),
}


@pytest.mark.parametrize("kind", GRAMMAR_DEPTHS)
def test_nested_subquery_depths(both, kind):
    """EXISTS and IN subqueries nested as deep as PostgreSQL's grammar takes them (its
    parser's stack, found by PREPARE, which runs nothing): PostgreSQL runs them, and
    RockLake, whose deeper subqueries are statements of their own (SubPlans), answers
    alike; one level deeper both refuse alike."""
    rl, pg = both
    make = GRAMMAR_DEPTHS[kind]
    n = largest(pg, make, 10, 10_000, takes=parses, within=10**9)
    assert answer(pg, make(n))[0] == "rows"
    for depth in (n, n + 1):
        assert answer(rl, make(depth), with_message=True) == answer(pg, make(depth), with_message=True), depth


STACK_DEPTHS = {
    "scalar": scalar,
    "correlated scalar": correlated_scalar,
}


@pytest.mark.parametrize("kind", STACK_DEPTHS)
def test_scalar_subquery_depths(both, kind):
    """Scalar subqueries: PostgreSQL's planner runs out of its 2 MB stack at about half
    the depth its grammar takes; at the deepest it runs (found to 10 %) both answer
    alike."""
    rl, pg = both
    make = STACK_DEPTHS[kind]
    grammar = largest(pg, make, 10, 10_000, takes=parses, within=10**9)
    n = largest(pg, make, 10, grammar + 1, within=10)
    assert answer(rl, make(n), with_message=True) == answer(pg, make(n), with_message=True), n


def deep(n, expr):
    """expr inside n scalar subqueries with no FROM"""
    return "(SELECT " * n + expr + ")" * n


def levels(n):
    """n nested scalar subqueries, each with a FROM of its own, the innermost reading
    the columns of the one around it, of one halfway out and of the outermost"""
    sql = f"SELECT l0.c + l{n - 1}.c * 10 + l{n // 2}.c * 100"
    for i in range(n - 1, 0, -1):
        sql = f"SELECT ({sql}) + l{i}.c FROM (VALUES ({i}), ({i + 100})) l{i}(c) WHERE l{i}.c = {i} OR l{i}.c = l0.c"
    return f"SELECT l0.c, ({sql}) FROM (VALUES (1), (2), (NULL)) l0(c) ORDER BY 1"


# past SUBPLAN_NESTING (6) nested subqueries the deeper ones are statements of their
# own, run per call with the outer values they read bound (src/executor/subplan.c)
SUBPLANS = [
    correlated(5, "EXISTS"), correlated(6, "EXISTS"), correlated(7, "IN"), correlated(40, "EXISTS"),
    correlated_scalar(40), correlated_scalar(30, " FROM generate_series(1, 1)"), levels(20),
    # IN's three values: NULL on the left, NULL among the subquery's rows, NOT IN
    "SELECT x, " + deep(7, "v.x IN (SELECT y FROM (VALUES (1), (NULL)) w(y))") + ", "
    + deep(7, "v.x NOT IN (SELECT y FROM (VALUES (1), (NULL)) w(y))") + ", "
    + deep(7, "v.x IN (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y > v.x - 2)") + V,
    "SELECT " + deep(7, "NULL::int IN (SELECT 1)") + ", " + deep(7, "2 NOT IN (SELECT 1)") + ", "
    + deep(7, "1 IN (SELECT 1.0)"),
    # a second row is 21000, in a correlated one only for the rows that give two
    "SELECT " + deep(7, "g FROM generate_series(1, 2) g"),
    "SELECT x, " + deep(7, "g FROM generate_series(1, v.x) g") + V,
    "SELECT x, " + deep(7, "g FROM generate_series(1, v.x) g") + " FROM (VALUES (1), (NULL)) v(x)",
    # an error inside keeps its SQLSTATE
    "SELECT x, " + deep(8, "10 / (v.x - 1)") + V,
    "SELECT x, " + deep(8, "(v.x + 2147483647)::int4") + V,
    # values come back as the subquery's column gives them
    "SELECT " + ", ".join(deep(8, v) for v in [
        "1.50::numeric(5,2)", "'a''b'::text", "true", "'\\x00ff'::bytea", "1.5::float8", "'NaN'::float8",
        "'2024-01-02'::date", "ARRAY[1, 2]", "NULL::int4", "9223372036854775807::int8", "'x'::char(3)",
        "'{\"a\": 1}'::jsonb", "interval '1 day'", "12345678901234567890.5::numeric"]),
    "SELECT x, " + ", ".join(deep(8, v) for v in [
        "v.x * 1.5", "(v.x * 1.5)::float4", "v.x::text || 'a'", "v.x > 1", "v.x::numeric / 3", "ARRAY[v.x]"]) + V,
    # aggregates, ARRAY(), and an uncorrelated subquery deep inside a correlated one
    "SELECT x, " + deep(7, "count(*) FROM generate_series(1, v.x) g WHERE g % 2 = 0") + V,
    "SELECT x, " + deep(7, "ARRAY(SELECT v.x + g FROM generate_series(1, 2) g)") + V,
    "SELECT x, " + deep(7, "v.x + " + scalar(20)[7:]) + V,
    # WITH queries in scope: a subplan's statement repeats them (and what was hoisted
    # out of them), in a WITH query's body too, a recursive one, one read by another
    "WITH w AS (SELECT 2 AS a) SELECT x, " + deep(40, "v.x + (SELECT a FROM w)") + V,
    "WITH w AS (SELECT " + deep(40, "1") + " AS a) SELECT a FROM w",
    "WITH w AS (SELECT " + scalar(20)[7:] + " AS a), u AS (SELECT a + " + deep(30, "(SELECT a FROM w)")
    + " AS b FROM w) SELECT x, " + deep(30, "(SELECT b FROM u) + v.x") + V,
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4) SELECT n, "
    + deep(30, "(SELECT count(*) FROM r WHERE r.n <= q.n)") + " FROM r q ORDER BY 1",
    "WITH w(x) AS (VALUES (1), (2), (NULL)) SELECT x, " + deep(30, "EXISTS (SELECT 1 FROM w WHERE w.x = v.x)")
    + ", " + deep(30, "v.x IN (SELECT x + 1 FROM w)") + " FROM w v ORDER BY 1",
    "SELECT (WITH w AS (SELECT 3 AS a) SELECT " + deep(30, "(SELECT a FROM w)") + " FROM w)",
    "WITH w AS (SELECT 1 AS a) SELECT (WITH w AS (SELECT 2 AS a) SELECT " + deep(10, "(SELECT a FROM w)") + ")",
]


@pytest.mark.parametrize("sql", SUBPLANS, ids=range(len(SUBPLANS)))
def test_subplans(both, sql):
    same_answers(*both, [sql])


def test_subplans_with_parameters(both):
    """Extended protocol: a parameter read in a subplan is an argument of its call."""
    rl, pg = both
    sql = "SELECT x, " + deep(8, "%s::int + v.x") + " + " + deep(14, "%s::int * v.x") + ", " \
        + deep(9, "%s::text || %s::text") + ", " + deep(7, "v.x IN (SELECT %s::int)") + V
    params = (1, 2, "a", "b", 2)
    assert rl.execute(sql, params).fetchall() == pg.execute(sql, params).fetchall()


def test_subplans_reading_with_queries_with_parameters(both):
    """A WITH query's parameters and constants keep their numbers in the subplans that
    repeat it."""
    rl, pg = both
    sql = "WITH w AS (SELECT %s::int AS a, 'k'::text AS t) SELECT x, " + deep(12, "(SELECT a FROM w) + %s::int + v.x") \
        + ", " + deep(9, "(SELECT t FROM w) || %s::text") + V
    params = (5, 2, "b")
    assert rl.execute(sql, params).fetchall() == pg.execute(sql, params).fetchall()


CTE_DEPTHS = {
    "EXISTS in a WITH query": lambda n: "WITH w AS (" + nested(n, "EXISTS") + ") SELECT * FROM w",
    "correlated EXISTS reading a WITH query": lambda n: "WITH w(x) AS (VALUES (1), (2), (NULL)) "
    + correlated(n, "EXISTS").replace("v.x = 2", "v.x = (SELECT max(x) FROM w)").replace(V, " FROM w v ORDER BY 1"),
    "correlated IN reading a WITH query": lambda n: "WITH w(x) AS (VALUES (1), (2), (NULL)) "
    + correlated(n, "IN").replace("v.x = 2", "v.x = (SELECT max(x) FROM w)").replace(V, " FROM w v ORDER BY 1"),
}


@pytest.mark.parametrize("kind", CTE_DEPTHS)
def test_subquery_depths_with_queries(both, kind):
    """Subqueries in a WITH query or reading one nest as deep as the others: to
    PostgreSQL's grammar's limit, alike one level deeper."""
    rl, pg = both
    make = CTE_DEPTHS[kind]
    n = largest(pg, make, 10, 10_000, takes=parses, within=10**9)
    assert answer(pg, make(n))[0] == "rows"
    for depth in (n, n + 1):
        assert answer(rl, make(depth), with_message=True) == answer(pg, make(depth), with_message=True), depth


def test_subplans_in_writes(both):
    rl, pg = both
    for conn in (rl, pg):
        conn.execute("DROP TABLE IF EXISTS sz_s")
        conn.execute("CREATE TABLE sz_s (a int8, b text)")
        conn.execute("INSERT INTO sz_s VALUES (1, 'x'), (2, 'y'), (3, NULL)")
    for sql in ["UPDATE sz_s SET a = a + " + deep(8, "sz_s.a * 10") + " WHERE EXISTS ("
                + deep(8, "1 WHERE sz_s.b IS NOT NULL")[1:-1] + ") RETURNING a, b",
                "INSERT INTO sz_s SELECT " + deep(9, "max(a) + 1 FROM sz_s") + ", 'z'",
                "DELETE FROM sz_s WHERE a IN (" + deep(8, "sz_s.a WHERE sz_s.a > 20")[1:-1] + ") RETURNING a, b",
                "UPDATE sz_s SET b = 'w' WHERE a < 30 RETURNING a, " + deep(8, "b || a"),
                "SELECT a, b FROM sz_s ORDER BY a"]:
        assert answer(rl, sql) == answer(pg, sql), sql[:120]
    for conn in (rl, pg):
        conn.execute("DROP TABLE sz_s")


def test_subplan_under_grouping_sets(both):
    """A subquery reading a column some grouping set leaves out is refused (0A000) as
    deep as shallow: a SubPlan's arguments are read as its SQL is."""
    rl, pg = both
    for n in (1, 7):
        sql = "SELECT x, " + deep(n, "v.x + 1") + " FROM (VALUES (1), (2)) v(x) GROUP BY GROUPING SETS ((x), ())"
        assert answer(rl, sql)[:2] == ("error", "0A000"), n
        assert answer(pg, sql)[0] == "rows"


def test_subplan_aggregate_of_outer_columns(both):
    """An aggregate of an outer query's columns only is that query's (PostgreSQL,
    and SQLite in place); in a SubPlan it is refused (0A000) rather than computed over
    the SubPlan's rows."""
    rl, pg = both
    for n, refused in ((1, False), (7, True)):
        sql = "SELECT " + deep(n, "sum(v.x)") + " FROM (VALUES (1), (2), (NULL)) v(x)"
        assert answer(rl, sql)[:2] == ("error", "0A000") if refused else answer(rl, sql) == answer(pg, sql), n
    sql = "SELECT x, " + deep(7, "sum(v.x + g) FROM generate_series(1, 2) g") + V
    assert answer(rl, sql) == answer(pg, sql)


def times_out(rl, pg, sql, timeout):
    """both cancel sql at statement_timeout = timeout"""
    for conn in (rl, pg):
        conn.execute(f"SET statement_timeout = '{timeout}'")
    try:
        assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True) == \
            ("error", "57014", "canceling statement due to statement timeout")
    finally:
        for conn in (rl, pg):
            conn.execute("RESET statement_timeout")


def test_timeout_in_a_subplan(both):
    """statement_timeout reaches a statement running in a subplan."""
    rl, pg = both
    sql = "SELECT count(*) FROM generate_series(1, 1000000) a WHERE " \
        + deep(8, "EXISTS (SELECT 1 FROM generate_series(1, 1000) b WHERE b = a.a + 1000)")
    times_out(rl, pg, sql, "100ms")


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


def runs(conn, sql):
    return answer(conn, sql)[0] == "rows"


def largest(conn, make, lo, hi, takes=runs, within=100):
    """about the largest n in [lo, hi) of make(n) that conn takes (to 1/within): lo is taken"""
    while hi - lo > max(1, lo // within):
        mid = (lo + hi) // 2
        if takes(conn, make(mid)):
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
    try:
        times_out(rl, pg, sql, "50ms")
    finally:
        for conn in (rl, pg):
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
