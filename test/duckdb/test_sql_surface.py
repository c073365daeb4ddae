"""SQL that psql, drivers and people inspecting a DuckLake catalog send, answered by
RockLake as PostgreSQL 15 answers it in the same run (rows and their types, or every
field of the error): format(), length and octet_length of bytea, and the statements
RockLake does not run yet, which must be refused cleanly rather than answered wrongly.
"""

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)


def test_format(both):
    """format(): %s %I %L %%, positions, widths (given, * and *n$, negative), NULLs, the
    keyword list %I quotes by, and each malformed specifier's error"""
    same_answers(both, [
        "SELECT format('%s-%I-%L-%%', 'a', 'B c', 'it''s')",
        "SELECT format('%2$s %1$s %s', 'x', 'y')",
        "SELECT format('|%5s|%-5s|%*s|%-*s|%*2$s|', 'ab', 3, 4, 'x', 'é')",
        "SELECT format('|%*s|', -4, 'l')",
        "SELECT format('%s|%L|%5s|', NULL, NULL, NULL)",
        "SELECT format(NULL, 1), format('plain'), format('%s', 1.50), format('%s %s', true, 7)",
        "SELECT format('%I %I %I %I %I %I', 'select', 'name', 'a$b', 'Tab', 'x\"y', 'abc_1')",
        "SELECT format('%L %L', 'back\\slash', 12)",
        "SELECT format('%I', NULL)",
        "SELECT format('%s %s', 1)",
        "SELECT format('%0$s', 1)",
        "SELECT format('%x', 1)",
        "SELECT format('abc%', 1)",
        "SELECT format('%*1s', 1)",
        "SELECT format('%$s', 1)",
        "SELECT format(1, 2)",
        "SELECT format()",
    ])


def test_bytea_lengths(both):
    """length and octet_length of bytea count bytes"""
    same_answers(both, [
        "DROP TABLE IF EXISTS ss_b",
        "CREATE TABLE ss_b (k integer, b bytea)",
        "INSERT INTO ss_b VALUES (1, '\\x0102'), (2, '\\x'), (3, NULL), (4, '\\xc3a9')",
        "SELECT k, length(b), octet_length(b) FROM ss_b ORDER BY k",
        "DROP TABLE ss_b",
    ])


def test_with_recursive(both):
    """WITH RECURSIVE: UNION ALL and UNION (which stops a cycle), column lists, a walk
    of a table, several WITH queries, parameters of hoisted subqueries beside it, and
    PostgreSQL's errors for a recursive term of another type"""
    same_answers(both, [
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
        "WITH RECURSIVE r AS (SELECT 1 AS n, 'a'::text AS s UNION ALL SELECT n + 1, s || 'a' FROM r"
        " WHERE n < 4) SELECT n, s FROM r ORDER BY n DESC",
        "WITH RECURSIVE r(n) AS (SELECT 0 UNION SELECT (n + 1) % 3 FROM r) SELECT count(*), sum(n) FROM r",
        "CREATE TABLE wr_edge (a integer, b integer)",
        "INSERT INTO wr_edge VALUES (1, 2), (2, 3), (3, 4), (4, 2), (5, 6)",
        "WITH RECURSIVE reach(node) AS (SELECT 1 UNION SELECT e.b FROM wr_edge e JOIN reach ON e.a = reach.node)"
        " SELECT node FROM reach ORDER BY node",
        "WITH RECURSIVE w AS (SELECT 2 AS k), r(n) AS (SELECT k FROM w UNION ALL SELECT n * 2 FROM r WHERE n < 64)"
        " SELECT array_agg(n ORDER BY n) FROM r",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT (SELECT (SELECT (SELECT 4)))))"
        " SELECT max(n) FROM r",
        "WITH RECURSIVE t AS (SELECT 1 AS x) SELECT x FROM t",
        "WITH RECURSIVE r(a, b) AS (SELECT 1 UNION ALL SELECT a + 1 FROM r WHERE a < 3) SELECT * FROM r",
        "WITH w(a, b) AS (SELECT 1) SELECT * FROM w",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1.5 FROM r WHERE n < 3) SELECT * FROM r",
        "WITH RECURSIVE r(n) AS (SELECT 1::int8 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT pg_typeof(n), n FROM r",
        "DROP TABLE wr_edge",
    ])


def test_distinct_on(both):
    """SELECT DISTINCT ON: the first row of each group in ORDER BY's order, by names,
    positions and expressions, NULLs as one group, with LIMIT/OFFSET, joins, aggregates
    and parameters, and PostgreSQL's 42P10 when ORDER BY does not start with them"""
    same_answers(both, [
        "CREATE TABLE don_t (g text, k integer, v numeric(6,2), ts timestamp)",
        "INSERT INTO don_t VALUES ('a', 1, 1.50, '2026-01-02'), ('a', 2, 0.25, '2026-01-01'), ('b', 3, 9.00, NULL),"
        " ('b', 4, NULL, '2026-03-01'), (NULL, 5, 2.00, '2026-01-05'), (NULL, 6, 3.00, '2026-01-04'), ('c', 7, 7.00, NULL)",
        "SELECT DISTINCT ON (g) g, k, v FROM don_t ORDER BY g, k DESC",
        "SELECT DISTINCT ON (g) g, k FROM don_t ORDER BY g NULLS FIRST, ts DESC NULLS LAST",
        "SELECT DISTINCT ON (1) g, v FROM don_t ORDER BY 1, 2",
        "SELECT DISTINCT ON (g, k % 2) g, k % 2 AS parity, k FROM don_t ORDER BY g, k % 2, k",
        "SELECT DISTINCT ON (k % 2, g) g, k FROM don_t ORDER BY g, k % 2, v DESC",
        "SELECT DISTINCT ON (upper(g)) upper(g) AS u, k FROM don_t ORDER BY upper(g), k LIMIT 2 OFFSET 1",
        "SELECT count(*) FROM (SELECT DISTINCT ON (g) g FROM don_t) s",
        "SELECT DISTINCT ON (g) g, count(*) FROM don_t GROUP BY g, k ORDER BY g, count(*) DESC, k",
        "SELECT DISTINCT ON (a.g) a.g, b.k FROM don_t a JOIN don_t b ON a.g = b.g AND b.k > a.k ORDER BY a.g, b.k",
        "SELECT DISTINCT ON (g) g FROM don_t",
        "SELECT DISTINCT ON (g, k % 2) g, k % 2 FROM don_t ORDER BY g DESC",
        "SELECT DISTINCT ON (9) g FROM don_t",
        "SELECT g, count(*) FROM don_t GROUP BY 3",
        "SELECT DISTINCT ON (g) g, k FROM don_t ORDER BY k",
        "SELECT DISTINCT ON (g, k) g FROM don_t ORDER BY g, v, k",
        "DROP TABLE don_t",
    ])


def test_regexp(both):
    """regular expressions: the ~ family, regexp_replace (g, i, none), regexp_match,
    regexp_split_to_array, substring(x FROM pattern), the class escapes, groups and
    back references, empty matches, UTF-8, and PostgreSQL's errors (2201B, 22023)"""
    same_answers(both, [
        "DROP TABLE IF EXISTS rx_t",
        "CREATE TABLE rx_t (k integer, s text)",
        "INSERT INTO rx_t VALUES (1, 'Hello World'), (2, 'foo123bar45'), (3, 'a.b.c'), (4, NULL),"
        " (5, 'été Été'), (6, '')",
        "SELECT k, regexp_replace(s, 'l', 'L'), regexp_replace(s, 'l', 'L', 'g'),"
        " regexp_replace(s, 'h|w', '_', 'gi'), regexp_replace(s, '\\d+', '<\\&>', 'g') FROM rx_t ORDER BY k",
        "SELECT k, regexp_replace(s, '(o)(.)', '[\\2\\1\\\\]', 'g'), regexp_replace(s, 'x*', '-', 'g'),"
        " regexp_replace(s, '^', '>'), regexp_replace(s, '\\.', '', 'g'), regexp_replace(s, 'é', 'E', 'gi')"
        " FROM rx_t ORDER BY k",
        "SELECT k, regexp_match(s, '\\d+'), regexp_match(s, '(\\w+) (\\w+)'), regexp_match(s, '(x)?o'),"
        " regexp_match(s, 'WORLD', 'i'), regexp_match(s, '^.t') FROM rx_t ORDER BY k",
        "SELECT k, regexp_split_to_array(s, '\\s+'), regexp_split_to_array(s, ''), regexp_split_to_array(s, 'x*'),"
        " regexp_split_to_array(s, '[.]'), regexp_split_to_array(s, '\\d') FROM rx_t ORDER BY k",
        "SELECT k, substring(s from '\\d+'), substring(s from 'o(\\d)'), substring(s from '(x)|o'),"
        " substring(s, 'l+') FROM rx_t ORDER BY k",
        "SELECT k, s ~ '^[A-Z]', s ~* '^h', s !~ 'o', s !~* 'WORLD', s ~ '\\mWorld\\M', s ~ '[\\d.]{3}'"
        " FROM rx_t ORDER BY k",
        "SELECT (regexp_match('key=value', '(\\w+)=(\\w+)'))[2], regexp_match('abc', 'z') IS NULL",
        "SELECT regexp_replace('a\nb', '^b', 'B', 'n'), regexp_replace('aXb', 'x', '-', 'ic')",
        "SELECT regexp_replace('aaa', 'a', 'b', 2), regexp_replace('aaa', 'a', 'b', 2, 0),"
        " regexp_replace('aaa', 'a', 'b', 1, 3), regexp_replace('aaa', 'a', 'b', 1, 4), regexp_replace('aaa', 'a', 'b', 5),"
        " regexp_replace('éaéa', 'a', 'b', 3), regexp_replace('éaé', '^', 'b', 2), regexp_replace('abc', 'x*', '-', 2, 0),"
        " regexp_replace('aXa', 'x', 'b', 1, 1, 'i'), regexp_replace('aaa', 'a', 'b', 1, 1, 'g')",
        "SELECT regexp_replace('aaa', 'a', 'b', 0)",
        "SELECT regexp_replace('aaa', 'a', 'b', 1, -1)",
        "SELECT regexp_match('a', '(')",
        "SELECT regexp_match('a', 'a)')",
        "SELECT regexp_match('a', '[a')",
        "SELECT regexp_match('a', 'a{2,1}')",
        "SELECT regexp_match('a', 'a{1,300}')",
        "SELECT regexp_match('a', '*')",
        "SELECT regexp_match('a', 'a\\')",
        "SELECT regexp_match('a', '[z-a]')",
        "SELECT regexp_match('a', '[[:foo:]]')",
        "SELECT 'a' ~ '('",
        "SELECT regexp_replace('abc', 'b', '-', 'z')",
        "SELECT regexp_match('abc', 'b', 'g')",
        "SELECT regexp_split_to_array('abc', 'b', 'g')",
        "DROP TABLE rx_t",
    ])


def test_regexp_matches_and_similar(both):
    """regexp_matches, set-returning (in the select list and in FROM, with and without g
    and i, groups unmatched, empty matches, no match: no row), and SIMILAR TO / NOT
    SIMILAR TO with and without ESCAPE (PostgreSQL's x ~ similar_to_escape(p, e)), over a
    table too, and their errors (an escape of two characters, a flag PostgreSQL refuses)"""
    same_answers(both, [
        "DROP TABLE IF EXISTS rxm_t",
        "CREATE TABLE rxm_t (k integer, s text)",
        "INSERT INTO rxm_t VALUES (1, 'foobarbequebazilbarfbonk'), (2, 'a1b22c333'), (3, NULL), (4, 'ÉtéAété'),"
        " (5, 'a_c'), (6, '')",
        "SELECT regexp_matches('foobarbequebaz', '(bar)(beque)')",
        "SELECT regexp_matches('foobarbequebazilbarfbonk', '(b[^b]+)(b[^b]+)', 'g')",
        "SELECT regexp_matches('abcABC', 'b', 'gi'), 1 AS one",
        "SELECT regexp_matches('abc', 'x')",
        "SELECT regexp_matches('ab', ''), regexp_matches('abc', '(a)(x)?', 'g')",
        "SELECT m, m[1] FROM regexp_matches('a1b2c3', '[0-9]', 'g') AS m",
        "SELECT count(*) FROM regexp_matches('aaa', 'a', 'g')",
        "SELECT k, regexp_matches(s, '\\d+', 'g') FROM rxm_t ORDER BY k, 2",
        "SELECT k, regexp_matches(s, 'é', 'gi') FROM rxm_t ORDER BY k, 2",
        "SELECT regexp_matches('abc', 'b', 'z')",
        "SELECT 'abc' SIMILAR TO 'abc', 'abc' SIMILAR TO 'a', 'abc' SIMILAR TO '%(b|d)%', 'abc' SIMILAR TO '(b|c)%'",
        "SELECT 'abc' NOT SIMILAR TO 'a%', 'a_c' SIMILAR TO 'a#_c' ESCAPE '#', 'abc' SIMILAR TO 'a#_c' ESCAPE '#'",
        "SELECT 'ab%' SIMILAR TO 'ab!%' ESCAPE '!', 'x.y' SIMILAR TO 'x.y', 'xzy' SIMILAR TO 'x.y', 'a+' SIMILAR TO 'a+',"
        " 'aa' SIMILAR TO 'a+', 'a$^' SIMILAR TO 'a$^', 'a%' SIMILAR TO 'a%' ESCAPE ''",
        "SELECT 'aXb' SIMILAR TO 'a[XY]b', 'a.b' SIMILAR TO 'a[.]b', 'Ab' SIMILAR TO 'ab', 'abab' SIMILAR TO '(ab)*',"
        " 'ab\\c' SIMILAR TO 'ab\\c' ESCAPE '#', 'abc' SIMILAR TO NULL, NULL SIMILAR TO 'a', 'a' SIMILAR TO 'a' ESCAPE NULL",
        "SELECT similar_to_escape('a%b_c(d|e)[x.]\\$'), similar_to_escape('a#%', '#'), similar_to_escape('a%', '')",
        "SELECT k, s SIMILAR TO '%[0-9]{2}%', s NOT SIMILAR TO 'a_c', s SIMILAR TO '%é%' FROM rxm_t ORDER BY k",
        "SELECT k FROM rxm_t WHERE s SIMILAR TO '(foo|a)%' ORDER BY k",
        "SELECT 'abc' SIMILAR TO 'abc' ESCAPE 'xy'",
        # non-capturing groups: left out of the results, and back references skip them
        "SELECT regexp_matches('abc', '(?:a)(b)'), regexp_match('abcabc', '(?:a)(b)(?:c)(a)'),"
        " regexp_match('xab', '(?:x|y)(?:a)'), regexp_match('abc', '((?:a)(b))'), regexp_match('aXbX', '(?:x)(b)', 'i')",
        "SELECT 'abb' ~ '(?:a)(b)\\1', 'abc' ~ '^(?:a)(b)\\1', regexp_replace('abab', '(?:a)(b)', '[\\1]', 'g'),"
        " substring('xaby' from '(?:a)(b)'), regexp_split_to_array('a1b2c', '(?:\\d)')",
        "SELECT regexp_match('aa', '(?:a)\\1')",
        "DROP TABLE rxm_t",
    ])


def test_aggregates_over_no_rows(both):
    """over no rows array_agg, string_agg and the other aggregates are NULL (count 0),
    with FILTER, ORDER BY, DISTINCT and GROUP BY () too, while ARRAY(subquery) is the
    empty array"""
    same_answers(both, [
        "SELECT array_agg(x), string_agg(x::text, ','), sum(x), count(x), bool_and(x > 0), max(x), avg(x)"
        " FROM (SELECT 1 AS x WHERE false) s",
        "SELECT array_agg(x ORDER BY x DESC), array_agg(DISTINCT x), string_agg(DISTINCT x::text, ',')"
        " FROM (SELECT 1 AS x WHERE false) s",
        "SELECT array_agg(x) FILTER (WHERE x > 5), array_agg(x) FROM generate_series(1, 3) x",
        "SELECT array_agg(x) FROM generate_series(1, 0) x GROUP BY ()",
        "SELECT ARRAY(SELECT 1 WHERE false), ARRAY(SELECT x FROM generate_series(1, 2) x)",
    ])


def test_quantified_subqueries(both):
    """x op ANY / SOME / ALL (subquery) for every comparison and LIKE: ALL over no rows
    is true and ANY false, NULLs on either side make the answer NULL unless a comparison
    decides it, correlated, typed as the comparison would be, and the errors"""
    same_answers(both, [
        "CREATE TABLE qs_t (k integer, v integer, s text)",
        "INSERT INTO qs_t VALUES (1, 10, 'ab'), (2, 20, 'b'), (3, NULL, NULL), (4, 5, 'abc')",
        "SELECT k, v < ALL (SELECT v FROM qs_t WHERE k <> 3), v >= ANY (SELECT v FROM qs_t WHERE k <> 3),"
        " v <> ALL (SELECT v FROM qs_t WHERE k <> 3), v = ALL (SELECT 10), v > SOME (SELECT v FROM qs_t),"
        " v <= ALL (SELECT v FROM qs_t), v > ANY (SELECT v FROM qs_t WHERE false),"
        " v > ALL (SELECT v FROM qs_t WHERE false), v <> ANY (SELECT 10 UNION ALL SELECT NULL)"
        " FROM qs_t ORDER BY k",
        "SELECT k FROM qs_t o WHERE v > ALL (SELECT v FROM qs_t i WHERE i.k > o.k AND i.v IS NOT NULL) ORDER BY k",
        "SELECT k FROM qs_t WHERE s LIKE ANY (SELECT 'a%' UNION ALL SELECT '%c') ORDER BY k",
        "SELECT k FROM qs_t WHERE s NOT LIKE ALL (SELECT 'a%') ORDER BY k",
        "SELECT 2.5 < ALL (SELECT v FROM qs_t WHERE v IS NOT NULL), 1 = ANY (SELECT 1.0), 'b' > ANY (SELECT s FROM qs_t)",
        "SELECT NULL::int < ALL (SELECT 1 WHERE false), NULL::int < ANY (SELECT 1), 3 <> ALL (SELECT NULL::int)",
        "SELECT v FROM qs_t GROUP BY v HAVING sum(k) >= ALL (SELECT k FROM qs_t) ",
        "SELECT 1 < ALL (SELECT 1, 2)",
        "SELECT 1 < ANY (SELECT 'x'::text)",
        "SELECT 1 < ALL (SELECT true)",
    ])
    answers = []
    for server in both:
        with server.conn.cursor() as cur:
            cur.execute("SELECT k FROM qs_t WHERE v > ALL (SELECT v FROM qs_t WHERE v < %s) AND s LIKE ANY (%s)"
                        " ORDER BY k", (15, ["a%", "b"]))
            answers.append(cur.fetchall())
            cur.execute("DROP TABLE qs_t")
    assert answers[0] == answers[1] == [(2,)], answers


def test_json_functions(both):
    """the json functions and operators tools and users send, every text as PostgreSQL
    writes it (its spacing differs between json and jsonb and between functions)"""
    same_answers(both, [
        "CREATE TABLE js_t (k integer, v numeric(6,2), s text, d date, ts timestamp, tz timestamptz,"
        " a integer[], j json, b jsonb, f float8)",
        "INSERT INTO js_t VALUES (1, 1.50, 'a\"b\\c', '2026-01-02', '2026-01-02 03:04:05.5', '2026-01-02 03:04:05+00',"
        " '{1,NULL,3}', '{\"x\": [1, {\"y\": \"z\"}], \"x\": 2, \"n\": null}', '{\"b\": 1, \"a\": [true, null]}', 'NaN'),"
        " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (3, -2, 'é\n', '2026-12-31', NULL, NULL, '{}',"
        " '[1, \"two\", [3]]', '[]', 1e100)",
        "SET TimeZone = 'Asia/Kolkata'",
        "SELECT k, to_json(k), to_json(v), to_json(s), to_json(d), to_json(ts), to_json(tz), to_json(a), to_json(j),"
        " to_json(b), to_json(f) FROM js_t ORDER BY k",
        "SELECT k, to_jsonb(v), to_jsonb(s), to_jsonb(a), to_jsonb(j), to_jsonb(f), to_jsonb(true) FROM js_t ORDER BY k",
        "RESET TimeZone",
        "SELECT json_agg(k ORDER BY k), jsonb_agg(v ORDER BY k DESC), json_agg(s ORDER BY k), json_agg(a ORDER BY k),"
        " json_agg(j ORDER BY k), jsonb_agg(b ORDER BY k) FROM js_t",
        "SELECT json_agg(k), jsonb_agg(k), json_object_agg(k, v) FROM js_t WHERE false",
        "SELECT json_object_agg(k, s ORDER BY k), json_object_agg(s, k ORDER BY k) FILTER (WHERE s IS NOT NULL)"
        " FROM js_t",
        "SELECT k % 2, json_agg(k ORDER BY k) FROM js_t GROUP BY 1 ORDER BY 1",
        "SELECT json_build_array(1, 'a', NULL, true, 1.5, '{\"x\":1}'::json), json_build_array(),"
        " jsonb_build_array(1, 'a', NULL, '{\"b\":1, \"a\":2}'::jsonb), jsonb_build_object('b', 1, 'a', ARRAY[1, 2]),"
        " jsonb_build_object(), json_build_object('k', ARRAY['x', NULL]), json_build_object('d', '2026-01-02'::date)",
        "SELECT jsonb_build_object('a')",
        "SELECT k, j -> 'x', j -> 'n', j ->> 'n', j -> 1, j ->> 1, j -> -1, j ->> 'x', b -> 'a', b ->> 'b', b -> 'a' -> 0,"
        " b -> 'a' ->> 1, j #> '{x}', j #>> '{x}', b #> '{a,0}', b #>> '{a,1}', j #>> '{2,0}', j #>> '{}',"
        " j -> 'nosuch', j -> 9, b #>> '{a,x}', s FROM js_t ORDER BY k",
        "SELECT '{\"a\": \"x\\u00e9\\n\"}'::json ->> 'a', '{\"a\":{\"b\": [1,2]}}'::json -> 'a',"
        " '[1,2,3]'::jsonb -> -3, '[1,2,3]'::jsonb -> -4, '\"s\"'::json ->> 0, '{\"a\":1}'::json -> 'a'::varchar",
        "SELECT json_array_length('[1, [2, 3], {}]'), jsonb_array_length('[]'), json_array_length(j) FROM js_t WHERE k = 3",
        "SELECT json_array_length('{}')",
        "SELECT jsonb_array_length('1')",
        "SELECT to_json('x')",
        "SELECT 1 -> 'a'",
        "SELECT '{}'::json -> 1.5",
        "DROP TABLE js_t",
    ])


def test_settings_units(both):
    """pg_settings shows an integer setting with a unit in that unit (statement_timeout
    5s is '5000' ms), SHOW and current_setting in the largest unit that divides it"""
    same_answers(both, [
        "SET statement_timeout = '5s'",
        "SET idle_in_transaction_session_timeout = '2min'",
        "SET work_mem = '8MB'",
        "SET lock_timeout = 1500",
        "SELECT name, setting, unit, boot_val, reset_val, vartype FROM pg_settings WHERE name IN ('statement_timeout',"
        " 'idle_in_transaction_session_timeout', 'work_mem', 'lock_timeout',"
        " 'extra_float_digits', 'DateStyle') ORDER BY name",
        "SHOW statement_timeout",
        "SHOW idle_in_transaction_session_timeout",
        "SHOW work_mem",
        "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')",
        "RESET statement_timeout",
        "RESET idle_in_transaction_session_timeout",
        "RESET work_mem",
        "RESET lock_timeout",
        "SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'work_mem') ORDER BY name",
    ])


def test_aggregates_of_no_such_type(both):
    """min and max of the types PostgreSQL has no order for, sum and avg of non-numbers,
    string_agg and bool_and of what does not become text or boolean: PostgreSQL's 42883
    naming the argument types given (unknown for a bare literal)"""
    same_answers(both, [
        "SELECT min(true)",
        "SELECT max('\\x01'::bytea)",
        "SELECT max('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)",
        "SELECT max('{}'::json)",
        "SELECT min('{}'::jsonb)",
        "SELECT max('1 day'::interval), max('a'::char(2)), max(1::oid), max(ARRAY[1, 2]), min('b'::text)",
        "SELECT avg('a'::text)",
        "SELECT sum(true)",
        "SELECT bool_and(1)",
        "SELECT every('x'::text)",
        "SELECT string_agg(1, ',')",
        "SELECT string_agg('a', 2)",
        "SELECT string_agg('\\x01'::bytea, 'x'::text)",
    ])


def test_interval_scaling_and_aggregates(both):
    """interval * number, number * interval and interval / number as PostgreSQL's
    interval_mul and interval_div (fractions of months and days cascading down), their
    errors, and sum() and avg() of intervals, grouped, over a window and over no rows"""
    same_answers(both, [
        "DROP TABLE IF EXISTS iv_t",
        "CREATE TABLE iv_t (k integer, x interval)",
        "INSERT INTO iv_t VALUES (1, '1 month'), (1, '1 day 2 hours'), (1, NULL), (2, '-3 seconds'),"
        " (2, '1 mon 2 days 03:04:05.678'), (3, '3 mons')",
        "SELECT ('1 mon 2 days 03:04:05.678'::interval * 3.3)::text, ('1 mon 2 days 03:04:05.678'::interval / 3.3)::text,"
        " ('-7 months 3 days'::interval * -0.3)::text, ('1 month 3 days'::interval / 7)::text,"
        " (2 * '1 day 1 hour'::interval)::text, ('1 hour'::interval * 1.5::real)::text, ('1 year'::interval * 0.001)::text",
        "SELECT k, (x * 2)::text, (x / 4)::text, (x * 0.5::numeric)::text, pg_typeof(x * 2) FROM iv_t ORDER BY k, x",
        "SELECT '1 day'::interval / 0",
        "SELECT '1 day'::interval * 'nan'::float8",
        "SELECT '100000000 days'::interval * 1000",
        "SELECT '1 day'::interval * 1::oid",
        "SELECT 3 / '1 day'::interval",
        "SELECT sum(x)::text, avg(x)::text, count(x), pg_typeof(sum(x)), pg_typeof(avg(x)) FROM iv_t",
        "SELECT k, sum(x)::text, avg(x)::text FROM iv_t GROUP BY k ORDER BY k",
        "SELECT sum(x), avg(x) FROM iv_t WHERE k > 5",
        "SELECT k, sum(x) OVER (ORDER BY k)::text, avg(x) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)::text"
        " FROM (VALUES (1, '1 month'::interval), (2, '10 days'), (3, '-5 hours')) v(k, x) ORDER BY k",
        "SELECT sum(x) FROM (VALUES ('178000000 years'::interval), ('178000000 years')) v(x)",
        "DROP TABLE iv_t",
    ])


def test_set_operations_mixing_types(both):
    """UNION, INTERSECT and EXCEPT of integers with numeric, float and wider integers:
    the result's type is PostgreSQL's, and numerics equal in value are one row whatever
    their scale (the first arm's kept), in the first arm too; and x IN (subquery) of
    numerics of other scales or of integers"""
    same_answers(both, [
        "SELECT 1 UNION SELECT 1.5",
        "SELECT 2::int8 UNION SELECT 2.0",
        "SELECT 2.0 UNION SELECT 2::int8",
        "SELECT 1 UNION SELECT 2.5::float8",
        "SELECT 1::int4 UNION SELECT 2::int8 ORDER BY 1",
        "SELECT 1::int2 UNION ALL SELECT 2::int4",
        "SELECT 1 EXCEPT SELECT 1.0",
        "SELECT 1 INTERSECT SELECT 1.0",
        "SELECT 1 INTERSECT ALL SELECT 1.00",
        "SELECT 3 UNION ALL SELECT 3.000",
        "SELECT 1::float4 UNION SELECT 1.5::numeric ORDER BY 1",
        "SELECT x FROM (VALUES (1), (2)) v(x) UNION SELECT 2.50 ORDER BY 1",
        "SELECT x FROM (VALUES (2), (3)) v(x) EXCEPT SELECT 2.000",
        "SELECT 1, 'a' UNION SELECT 1.0, 'a' UNION SELECT 1.00, 'b' ORDER BY 2",
        # IN (subquery) compares numerics by value too
        "SELECT 2.0 IN (SELECT 2), 2 IN (SELECT 2.0), 2.0 IN (SELECT 2.00), 2.0 NOT IN (SELECT 2),"
        " 3.0 IN (SELECT x FROM generate_series(1, 5) x), 2.0 = ANY (SELECT 2)",
        "SELECT x FROM (VALUES (1.0), (2.50), (3)) v(x) WHERE x IN (SELECT 2.5 UNION ALL SELECT 3) ORDER BY 1",
    ])


def test_grouping_sets(both):
    """GROUP BY ROLLUP, CUBE and GROUPING SETS (with (), nested and parenthesised sets,
    duplicates, mixed with plain columns, positions and expressions) and GROUPING(): the
    NULLs of rolled-up columns, HAVING and ORDER BY over them, joins and numerics, and
    PostgreSQL's errors"""
    same_answers(both, [
        "DROP TABLE IF EXISTS gs_t, gs_h",
        "CREATE TABLE gs_t (a integer, b text, c integer)",
        "INSERT INTO gs_t VALUES (1, 'x', 10), (1, 'y', 20), (2, 'x', 30), (NULL, 'z', 40), (2, 'x', 5)",
        "CREATE TABLE gs_h (a integer PRIMARY KEY, n numeric(6,2))",
        "INSERT INTO gs_h VALUES (1, 1.50), (2, 2.25)",
        "SELECT a, b, grouping(a, b), sum(c), count(*) FROM gs_t GROUP BY ROLLUP (a, b) ORDER BY 1, 2, 3",
        "SELECT b, count(*) FROM gs_t GROUP BY CUBE (a, b) ORDER BY 1, 2",
        "SELECT a, b, c, sum(c), grouping(a, c) FROM gs_t GROUP BY GROUPING SETS ((a, b), (c), ()) ORDER BY a, b, c",
        "SELECT a, sum(c) FROM gs_t GROUP BY GROUPING SETS (a, a) ORDER BY 1, 2",
        "SELECT b, count(*) FROM gs_t GROUP BY GROUPING SETS ((), b, ()) ORDER BY 1, 2",
        "SELECT a, b FROM gs_t GROUP BY a, ROLLUP ((a, b)) ORDER BY 1, 2",
        "SELECT a, b, count(*) FROM gs_t GROUP BY ROLLUP (a), CUBE (b) ORDER BY 1, 2, 3",
        "SELECT a, b, count(*) FROM gs_t GROUP BY GROUPING SETS (ROLLUP (a), (b, a), GROUPING SETS ((), (b)))"
        " ORDER BY 1, 2, 3",
        "SELECT a + 1 AS x, count(*) FROM gs_t GROUP BY ROLLUP (a + 1) HAVING count(*) > 1 ORDER BY x NULLS FIRST",
        "SELECT a, max(b) FROM gs_t GROUP BY ROLLUP (1) ORDER BY 1",
        "SELECT coalesce(b, 'all') AS b, sum(c) FROM gs_t GROUP BY ROLLUP (b) ORDER BY grouping(b), b",
        "SELECT a, grouping(a), count(*) FROM gs_t GROUP BY a ORDER BY 1",
        "SELECT a, count(*) FROM gs_t GROUP BY ()",
        "SELECT t.a, h.n, sum(c) FROM gs_t t JOIN gs_h h ON t.a = h.a GROUP BY ROLLUP (t.a, h.n) ORDER BY 1, 2",
        "SELECT n, count(*) FROM gs_h GROUP BY ROLLUP (n) ORDER BY n",
        "SELECT * FROM (SELECT b, count(*) AS n FROM gs_t GROUP BY ROLLUP (b)) s WHERE b IS NULL",
        "SELECT DISTINCT grouping(a) FROM gs_t GROUP BY CUBE (a) ORDER BY 1",
        "SELECT DISTINCT ON (a + 0) a, count(*) FROM gs_t GROUP BY ROLLUP (a), b ORDER BY a + 0, count(*) DESC",
        "SELECT DISTINCT a, grouping(a) FROM gs_t GROUP BY ROLLUP (a), b ORDER BY 1, 2",
        "SELECT a, array_agg(c ORDER BY c), (SELECT count(*) FROM gs_h) FROM gs_t GROUP BY ROLLUP (a) ORDER BY a",
        "SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY b NULLS FIRST),"
        " rank() OVER (PARTITION BY grouping(a, b) ORDER BY a, b) FROM gs_t GROUP BY ROLLUP (a, b) ORDER BY 1, 2",
        "SELECT a, rank() OVER w FROM gs_t GROUP BY ROLLUP (a) WINDOW w AS (ORDER BY grouping(a), a) ORDER BY 2",
        "SELECT a, grouping(a) FROM gs_t GROUP BY ROLLUP (a) HAVING grouping(a) = 1",
        "SELECT a FROM gs_t GROUP BY ROLLUP (a) ORDER BY grouping(b)",
        "SELECT count(*) FROM gs_t GROUP BY CUBE (a, b, c, a, b, c, a, b, c, a, b, c), CUBE (a)",
        "SELECT count(*) FROM gs_t WHERE false GROUP BY ROLLUP (a)",
        "SELECT a, count(*), grouping(a), sum(c) FROM gs_t WHERE c > 100 GROUP BY ROLLUP (a) ORDER BY 1",
        "SELECT a, count(*) FROM gs_t WHERE c > 100 GROUP BY GROUPING SETS ((), (), a) ORDER BY 2",
        "SELECT count(*) FROM gs_t WHERE c > 100 GROUP BY () HAVING count(*) > 0",
        "SELECT DISTINCT count(*) FROM gs_t WHERE false GROUP BY ROLLUP (a)",
        "SELECT count(*) GROUP BY ()",
        "SELECT a, b, count(*) FROM gs_t GROUP BY ROLLUP (a, b) ORDER BY 1, 2, 3 LIMIT 3",
        "SELECT grouping(a) FROM gs_t",
        "SELECT a FROM gs_t WHERE grouping(a) = 0 GROUP BY a",
        "SELECT grouping(c) FROM gs_t GROUP BY a",
        "SELECT a, c FROM gs_t GROUP BY ROLLUP (a)",
        "SELECT a FROM gs_t GROUP BY CUBE (a, b, c, a, b, c, a, b, c, a, b, c, a)",
        "SELECT count(*) FROM gs_t GROUP BY ROLLUP (sum(c))",
        "DROP TABLE gs_t, gs_h",
    ])


def test_to_char_numbers(both):
    """to_char of integers, bigints, numerics, reals and doubles in PostgreSQL's template
    patterns (9 0 . D , G FM S MI PL SG PR L V, quoted text), each value against each
    template, and the template's errors; to_char of a timestamptz"""
    values = ["0", "5", "-5", "12", "-1234", "12345", "0.5", "-0.5", "1.5", "-1.555", "1234.567",
              "-0.001", "99.995"]
    templates = ["999", "0000", "999D99", "FM9990.00", "FM999.99", "9.9", "S9999", "9999S", "L999",
                 "9G999D9", "MI999", "999MI", "PL999", "SG999", "999PR", "FM999PR", '"Total: "999',
                 "09", "9,999.99", "FM0.00", "99V9", "FM9", "S0.99", "FMS999", "0999.990", "9.99S"]
    statements = ["DROP TABLE IF EXISTS tc_t", "CREATE TABLE tc_t (k integer, n numeric, f double precision,"
                  " r real, b bigint)"]
    statements.append("INSERT INTO tc_t VALUES " + ", ".join(
        f"({k}, {v}, {v}, {v}, round({v}))" for k, v in enumerate(values)))
    for t in templates:
        statements.append(f"SELECT k, to_char(n, '{t}'), to_char(f, '{t}'), to_char(r, '{t}'), to_char(b, '{t}'),"
                          f" to_char(b::integer, '{t}') FROM tc_t ORDER BY k")
    same_answers(both, statements + [
        "SELECT to_char(12345678901234::int8, '99G999G999G999G999'), to_char(1::int2, '09'),"
        " to_char('NaN'::numeric, '999'), to_char(123.456::numeric(6,3), 'FM999.9')",
        "SELECT to_char('2024-01-02 03:04:05.678+00'::timestamptz, 'YYYY-MM-DD HH24:MI:SS.MS')",
        "SELECT to_char(1, '9.9.9')",
        "SELECT to_char(1, 'S9S')",
        "SELECT to_char(1, 'S9MI')",
        "SELECT to_char(1, '9PR9')",
        "SELECT to_char(1, '9V9.9')",
        "DROP TABLE tc_t",
    ])


def test_to_number(both):
    """to_number(text, template): digits by the template's positions, signs before and
    after (S, MI, PL, SG, PR), points and group separators, FM, other characters skipped,
    the decimals read, and the error when nothing was read"""
    cases = [("12,454.8-", "99G999D9S"), ("12345", "99"), ("  -12.5", "999.99"), ("$1,234.5", "L9G999D9"),
             ("<12>", "999PR"), ("1.2.3", "9D9"), ("1 2", "999"), ("12.50", "99.99"), ("12.", "99.9"),
             ("-5", "9999"), ("5-", "9MI"), ("+5", "S9"), ("1,234", "FM9,999"), ("1234", "9,999"),
             ("12x3", "99x9"), ("0012", "0000"), (".5", "9.9"), ("1e5", "999"), ("12345.678", "99999.99"),
             ("-1,234.56", "S9,999.99"), ("1,234.56-", "9,999.99MI"), ("3.14159", "9.99"), ("-.5", "9.9"),
             ("123", '"x"999'), ("1-", "9S"), ("<1", "9PR"), ("12", "")]
    same_answers(both, [
        "SELECT " + ", ".join(f"to_number('{v}', '{t}')" for v, t in cases),
        "SELECT pg_typeof(to_number('1', '9'))",
        "SELECT to_number('abc', '999')",
        "SELECT to_number('-', '9')",
        "SELECT to_number('.', '9.9')",
        "SELECT to_number('1', '9.9.9')",
    ])


def test_string_agg_bytea(both):
    """string_agg(bytea, bytea): bytes as they are (zero bytes too), NULL values and
    delimiters, groups, a window frame rows leave, and the error for another delimiter type"""
    same_answers(both, [
        "DROP TABLE IF EXISTS sab_t",
        "CREATE TABLE sab_t (k integer, g integer, b bytea)",
        "INSERT INTO sab_t VALUES (1, 1, '\\x01'), (2, 1, '\\x'), (3, 1, NULL), (4, 1, '\\x0200'),"
        " (5, 2, NULL), (6, 3, '\\xc3a9')",
        "SELECT g, string_agg(b, '\\x00'::bytea), string_agg(b, NULL), string_agg(b, ', ') FROM sab_t GROUP BY g"
        " ORDER BY g",
        "SELECT k, string_agg(b, '\\xff') OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),"
        " string_agg(b, '\\x2c') OVER (ORDER BY k) FROM sab_t ORDER BY k",
        "SELECT string_agg(b, b), pg_typeof(string_agg(b, b)) FROM sab_t WHERE k = 4",
        "SELECT string_agg(b, 1) FROM sab_t",
        "DROP TABLE sab_t",
    ])


def test_unsupported_refused(both):
    """what RockLake does not run yet is refused with 0A000 or 42883, never answered
    wrongly; PostgreSQL's answer is not compared, only that RockLake's is a clean error"""
    rl, _ = both
    for sql in ["SELECT regexp_match('aaa', 'a+?')",
                "SELECT regexp_match('abc', '(?=a)b')",
                "SELECT regexp_replace('abc', 'b', 'x', 'x')",
                "SELECT to_char(1, '9EEEE')",
                "SELECT to_char(1, 'RN')",
                "SELECT string_agg(b, '\\x00'::bytea ORDER BY b) FROM (VALUES ('\\x01'::bytea)) AS v(b)",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3 ORDER BY 1) SELECT * FROM r",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM (SELECT n + 1 AS n FROM r) s WHERE n < 3)"
                " SELECT * FROM r",
                "SELECT a, (SELECT a + 1) FROM (VALUES (1)) AS v(a) GROUP BY ROLLUP (a)",
                "SELECT 'abc' SIMILAR TO 'a#\"b#\"c' ESCAPE '#'",
                "SELECT 'a]' ~ '[\\]]'"]:
        answer, _ = rl.answer(sql)
        assert answer[0] == "error" and answer[2] in ("0A000", "42883", "42804"), (sql, answer)


def test_encoding_functions(both):
    """what psql's \\dO asks of the database's encoding"""
    same_answers(both, [
        "SELECT getdatabaseencoding(), pg_char_to_encoding('UTF8'), pg_char_to_encoding('utf-8'),"
        " pg_char_to_encoding('Unicode'), pg_char_to_encoding('nosuch'), pg_char_to_encoding(getdatabaseencoding())",
        "SELECT collname, collisdeterministic, collencoding, collcollate, collctype"
        " FROM pg_collation WHERE collname IN ('default', 'C') ORDER BY 1",
    ])


def test_catalog_oids(both):
    """the catalogs psql reads have PostgreSQL's OIDs, which their rows' tableoid gives (a
    system column: not in *)"""
    same_answers(both, [
        "SELECT 'pg_conversion'::regclass::oid, 'pg_operator'::regclass::oid, 'pg_event_trigger'::regclass::oid,"
        " 'pg_foreign_data_wrapper'::regclass::oid, 'pg_foreign_server'::regclass::oid,"
        " 'pg_subscription'::regclass::oid, 'pg_collation'::regclass::oid",
        "SELECT n.tableoid, n.tableoid::regclass, nspname FROM pg_namespace n WHERE nspname = 'public'",
        "SELECT tableoid, collname FROM pg_collation WHERE collname = 'C'",
        "SELECT * FROM pg_namespace WHERE nspname = 'public'",
    ])


def test_to_char_timestamp(both):
    """to_char(timestamp, text) in the common patterns; the others refused (0A000)"""
    same_answers(both, [
        "DROP TABLE IF EXISTS ss_ts",
        "CREATE TABLE ss_ts (k integer, ts timestamp)",
        "INSERT INTO ss_ts VALUES (1, '2024-01-02 03:04:05.123456'), (2, '2024-12-31 23:59:59'),"
        " (3, '2020-02-29 12:00:00.5'), (4, 'infinity'), (5, NULL), (6, '12345-06-07 00:30:00')",
        "SELECT k, to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US'), to_char(ts, 'DD/MM/YYYY HH12:MI AM'),"
        " to_char(ts, 'HH:MI:SS.MS PM'), to_char(ts, 'YYYY\"T\"HH24') FROM ss_ts ORDER BY k",
        "DROP TABLE ss_ts",
    ])
    rl, _ = both
    for pattern in ("Day", "YYYY-Mon", "yyyy", "SSSS", "FMDD", "DDD", "TZ", "YY", "a\\\\b"):
        answer, _ = rl.answer(f"SELECT to_char('2024-01-02 03:04:05'::timestamp, '{pattern}')")
        assert answer[0] == "error" and answer[2] == "0A000", (pattern, answer)
    answer, _ = rl.answer("SELECT to_char('0001-01-01 BC'::timestamp, 'YYYY')")
    assert answer[0] == "error" and answer[2] == "0A000", answer


def test_pg_attribute_lookups(both):
    """pg_attribute looked up by attrelid (=, IN, a subquery, an index's OID, a join from
    pg_class filtered by relname, DuckDB 1.5's column lookup) and scanned whole gives
    PostgreSQL's rows, in the transaction's snapshot; the lookup reads one relation's
    columns (pg_attribute.c), the scan every relation's"""
    cols = "attname, atttypid::regtype, atttypmod, attnum, attnotnull, atthasdef, attndims, attlen"
    same_answers(both, [
        "DROP TABLE IF EXISTS pat_t, \"Pat_Mixed\"",
        "DROP SCHEMA IF EXISTS pat_s CASCADE",
        "CREATE TABLE pat_t (\"Mixed\" integer, b varchar(10) NOT NULL DEFAULT 'x', c numeric(10,2),"
        " d timestamptz, PRIMARY KEY (b, c))",
        "CREATE TABLE \"Pat_Mixed\" (k bigint UNIQUE, v text)",
        "CREATE SCHEMA pat_s",
        "CREATE TABLE pat_s.pat_t (z text UNIQUE, y boolean)",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_t'::regclass AND attnum > 0 ORDER BY attnum",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_s.pat_t'::regclass AND attnum > 0 ORDER BY attnum",
        f"SELECT attrelid::regclass, {cols} FROM pg_attribute WHERE attrelid IN ('pat_t'::regclass,"
        " '\"Pat_Mixed\"'::regclass, 'pat_s.pat_t'::regclass) AND attnum > 0 ORDER BY attrelid::regclass::text, attnum",
        # OR of lookups: SQLite reads each branch and keeps a row found by both once
        "SELECT attrelid::regclass, attname FROM pg_attribute WHERE (attrelid = 'pat_t'::regclass"
        " OR attrelid = '\"Pat_Mixed\"'::regclass) AND attnum > 0 ORDER BY attrelid::regclass::text, attnum",
        "SELECT attrelid::regclass, attname FROM pg_attribute WHERE (attrelid = 'pat_t'::regclass AND attnum = 1)"
        " OR (attrelid = '\"Pat_Mixed\"'::regclass AND attnum = 2)"
        " OR (attrelid = 'pat_t'::regclass AND attnum BETWEEN 1 AND 2)"
        " ORDER BY attrelid::regclass::text, attnum",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_t_pkey'::regclass ORDER BY attnum",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_s.pat_t_z_key'::regclass ORDER BY attnum",
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 0",
        "SELECT attname FROM pg_attribute WHERE attrelid = (SELECT oid FROM pg_class WHERE relname = 'Pat_Mixed')"
        " AND attnum > 0 ORDER BY attnum",
        "SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid"
        " WHERE c.relname = 'pat_t' AND a.attnum > 0 ORDER BY 1, a.attnum",
        "SELECT c.relname, a.attname FROM pg_attribute a LEFT JOIN pg_class c ON c.oid = a.attrelid"
        " WHERE a.attname IN ('Mixed', 'z', 'y', 'v') AND a.attnum > 0 ORDER BY 1, 2",
        "SELECT a.attname, i.indisprimary FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = 'pat_t'::regclass ORDER BY a.attnum",
        # DuckDB 1.5's column lookup of one table
        "SELECT relname, relpages, attname, pg_type.typname type_name, atttypmod type_modifier,"
        " pg_attribute.attndims ndim, attnum, pg_attribute.attnotnull AS notnull, type_ns.nspname AS type_schema,"
        " col_desc.description AS column_comment, tbl_desc.description AS table_comment FROM pg_class"
        " JOIN pg_namespace ON relnamespace = pg_namespace.oid"
        " JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid JOIN pg_type ON atttypid=pg_type.oid"
        " JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid"
        " LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum"
        " LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0"
        " WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('pat_s')"
        " AND relname='pat_t' ORDER BY attnum",
        # a column added in the transaction is there until it rolls back
        "BEGIN",
        "ALTER TABLE pat_t ADD COLUMN e date",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_t'::regclass AND attnum > 0 ORDER BY attnum",
        "ROLLBACK",
        f"SELECT {cols} FROM pg_attribute WHERE attrelid = 'pat_t'::regclass AND attnum > 0 ORDER BY attnum",
        "DROP TABLE pat_t, \"Pat_Mixed\"",
        "DROP SCHEMA pat_s CASCADE",
    ])


CATALOGS = ["pg_am", "pg_amop", "pg_amproc", "pg_attrdef", "pg_attribute", "pg_auth_members", "pg_authid",
            "pg_cast", "pg_class", "pg_collation", "pg_constraint", "pg_conversion", "pg_database",
            "pg_db_role_setting", "pg_default_acl", "pg_depend", "pg_description", "pg_enum",
            "pg_event_trigger", "pg_extension", "pg_foreign_data_wrapper", "pg_foreign_server",
            "pg_foreign_table", "pg_index", "pg_indexes", "pg_inherits", "pg_init_privs", "pg_language",
            "pg_largeobject_metadata", "pg_namespace", "pg_opclass", "pg_operator", "pg_opfamily",
            "pg_parameter_acl", "pg_partitioned_table", "pg_policy", "pg_proc", "pg_publication",
            "pg_publication_namespace", "pg_publication_rel", "pg_range", "pg_rewrite", "pg_roles",
            "pg_sequence", "pg_sequences", "pg_settings", "pg_shadow", "pg_shdescription", "pg_shseclabel",
            "pg_statistic_ext", "pg_subscription", "pg_tablespace", "pg_transform", "pg_trigger", "pg_ts_config",
            "pg_ts_dict", "pg_ts_parser", "pg_ts_template", "pg_type", "pg_user", "pg_seclabels",
            "pg_stat_activity", "pg_stat_database", "pg_stat_user_tables"]

# where RockLake has no such type: the frozen transaction ids are oid (it has no
# transaction ids), a column's missing value (always NULL) is text, not anyarray
TYPE_DIFFERENCES = {("pg_class", "relfrozenxid"), ("pg_class", "relminmxid"), ("pg_database", "datfrozenxid"),
                    ("pg_database", "datminmxid"), ("pg_attribute", "attmissingval")}


def test_catalog_column_types(both):
    """each column of the system catalogs RockLake has is of PostgreSQL's type (the
    RowDescription's type OID): "char" for relkind, contype and the other one-letter
    codes, name, oid, arrays ..."""
    rl, pg = both
    differences = []
    for catalog in CATALOGS:
        types = []
        for server in (rl, pg):
            with server.conn.cursor() as cur:
                cur.execute(f"SELECT * FROM pg_catalog.{catalog} LIMIT 0")
                types.append({d.name: d.type_code for d in cur.description})
        for column, oid in types[0].items():
            if column in types[1] and types[1][column] != oid and (catalog, column) not in TYPE_DIFFERENCES:
                differences.append(f"{catalog}.{column}: {oid}, PostgreSQL {types[1][column]}")
    assert not differences, "\n".join(differences)
    same_answers(both, [
        "CREATE TABLE cct_t (k integer PRIMARY KEY)",
        "SELECT c.relkind, c.relpersistence, k.contype, k.contype = 'p', c.relkind IN ('r', 'p'), c.relkind::text,"
        " pg_typeof(k.contype), 'ab'::\"char\", ''::\"char\" = '', format_type(18, -1), format_type(1002, -1)"
        " FROM pg_class c JOIN pg_constraint k ON k.conrelid = c.oid WHERE c.relname = 'cct_t'",
        "SELECT typname, typlen, typtype, typcollation, typalign, typstorage FROM pg_type"
        " WHERE oid IN (18, 1002) ORDER BY oid",
        "DROP TABLE cct_t",
    ])


def test_regtype_input(both):
    """regtype's input reads a type as SQL names it: keywords (char is bpchar, "char"
    quoted the one-byte type), modifiers ignored, arrays, a pg_catalog qualifier; and
    to_regtype's NULL for a name that is none"""
    same_answers(both, [
        "SELECT 'char'::regtype, '\"char\"'::regtype, 'character'::regtype, 'char(3)'::regtype",
        "SELECT 'character varying(10)'::regtype, 'varchar'::regtype, 'double precision'::regtype",
        "SELECT 'int[]'::regtype, 'integer [ ] '::regtype, 'pg_catalog.int4'::regtype, 'INTEGER'::regtype",
        "SELECT 'timestamp(3) with time zone'::regtype, 'numeric(10,2)'::regtype, '\"char\"[]'::regtype",
        "SELECT '\"Int4\"'::regtype",
        "SELECT 'No_Such'::regtype",
        "SELECT 'no_such_type'::regtype",
        "SELECT to_regtype('char'), to_regtype('nope'), to_regtype('text[]')",
    ])
