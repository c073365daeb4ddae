"""NUMERIC exact, as PostgreSQL 15 has it: values of any precision stored and read back
digit for digit (text and binary, INSERT, UPDATE and COPY, after a restart and after the
caches are rebuilt from the store), type modifiers, comparison, order, arithmetic and
aggregates; each answer compared with PostgreSQL's in the same run.
"""

import decimal
import random

import psycopg
import pytest
from psycopg.types.numeric import Decimal
from psycopg.types.string import TextLoader

from test_robustness import after_rebuild, both  # noqa: F401 (fixtures)


def outcome(conn, sql, params=None, binary=False):
    """rows as text, or the error's SQLSTATE, message and (for a data exception) DETAIL"""
    try:
        with conn.cursor(binary=binary) as cur:
            cur.execute(sql, params)
            if cur.description is None:
                return ("status", cur.statusmessage)
            return ("rows", [tuple(None if v is None else str(v) for v in row) for row in cur.fetchall()])
    except psycopg.Error as e:
        assert not conn.closed, f"{sql[:80]}: connection lost: {e}"
        detail = e.diag.message_detail if e.sqlstate.startswith("22") else None
        return ("error", e.sqlstate, e.diag.message_primary, detail)


def same(rl, pg, sql, params=None, binary=False):
    got, want = outcome(rl, sql, params, binary), outcome(pg, sql, params, binary)
    assert got == want, f"{sql}\n  rocklake: {got}\n  postgres: {want}"
    return got


EDGES = [
    "0", "-0", "0.000001", "-0.000001", "123456789012.345678", "-123456789012.345678",
    "99999999999999999999999999999999.999999", "-99999999999999999999999999999999.999999",
    "1.0000005", "2.5e3", "-7", "0.1", "1e-6", "12345678901234567890123456789012", "99999999999999999999.5",
]

TABLE = ("CREATE TABLE nm (id int PRIMARY KEY, a numeric(38,6), b numeric(18,3), c numeric(4,1),"
         " u numeric, z numeric(1000,500))")


def fresh(conns, ddl=TABLE):
    for conn in conns:
        conn.execute("DROP TABLE IF EXISTS nm")
        conn.execute(ddl)


def test_storage_and_typmod(rocklake_server, both):  # noqa: F811
    rl, pg = both
    fresh(both)
    for i, v in enumerate(EDGES):
        same(rl, pg, f"INSERT INTO nm VALUES ({i}, '{v}', NULL, NULL, '{v}', '{v}')")
    rows = same(rl, pg, "SELECT * FROM nm ORDER BY id")
    assert ("4", "123456789012.345678") == rows[1][4][:2]
    big = "9" * 500 + "." + "1" * 499 + "5"
    same(rl, pg, f"INSERT INTO nm (id, z, u) VALUES (100, '{big}', '-{big}')")
    same(rl, pg, "INSERT INTO nm (id, u) VALUES (101, 'NaN'), (102, 'Infinity'), (103, '-Infinity')")
    # rounding to the scale and the precision's overflow, with PostgreSQL's DETAIL
    for v in ["999.95", "999.94", "-999.95", "0.05", "-0.05", "12345", "Infinity", "-Infinity", "NaN"]:
        same(rl, pg, f"INSERT INTO nm (id, c) VALUES (200, '{v}')")
        same(rl, pg, "DELETE FROM nm WHERE id = 200")
    for v in ["1e20", "99999999999999999999999999999999.9999995", "1e32", "-1e32"]:
        same(rl, pg, f"INSERT INTO nm (id, a) VALUES (201, '{v}')")
        same(rl, pg, "DELETE FROM nm WHERE id = 201")
    same(rl, pg, "INSERT INTO nm (id, b) VALUES (202, 123456789012345.6785)")
    same(rl, pg, "UPDATE nm SET b = b * 2, c = 1.25 WHERE id = 202")
    same(rl, pg, "UPDATE nm SET b = b * 10 WHERE id = 202")
    same(rl, pg, "SELECT '1.005'::numeric(4,2), 1.005::numeric(4,2), '-0.5'::numeric(1,0), 12.5::numeric(3,1)")
    same(rl, pg, "SELECT 99.995::numeric(4,2)")
    same(rl, pg, "SELECT 'Infinity'::numeric(10,2)")
    # binary parameters and results
    for v in ["123456789012.345678", "-0.000001", "NaN", big]:
        same(rl, pg, "INSERT INTO nm (id, u) VALUES (300, %s)", (Decimal(v),), binary=True)
        same(rl, pg, "SELECT u, u::text FROM nm WHERE id = 300", binary=True)
        same(rl, pg, "DELETE FROM nm WHERE id = 300")
    same(rl, pg, "SELECT * FROM nm ORDER BY id", binary=True)
    # the catalog describes the columns as PostgreSQL does; a column added later is numeric too
    for conn in both:
        conn.execute("ALTER TABLE nm ADD COLUMN w numeric(5,2) DEFAULT 1.255")
    same(rl, pg, "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
                 " WHERE attrelid = 'nm'::regclass AND attnum > 0 ORDER BY attnum")
    same(rl, pg, "SELECT column_name, data_type, numeric_precision, numeric_scale FROM information_schema.columns"
                 " WHERE table_name = 'nm' ORDER BY ordinal_position")
    same(rl, pg, "UPDATE nm SET w = w + 998.745 WHERE id = 3")
    same(rl, pg, "UPDATE nm SET w = w * 100 WHERE id = 4")
    same(rl, pg, "SELECT id, w FROM nm WHERE w > 1.26 ORDER BY id")
    before = same(rl, pg, "SELECT * FROM nm ORDER BY id")
    rocklake_server.restart()
    with rocklake_server.connect(autocommit=True) as again:
        again.adapters.register_loader("numeric", TextLoader)
        assert outcome(again, "SELECT * FROM nm ORDER BY id") == before
    with after_rebuild(rocklake_server) as again:
        assert outcome(again, "SELECT * FROM nm ORDER BY id") == before
        assert outcome(again, "SELECT id FROM nm WHERE a = 123456789012.345678") == ("rows", [("4",)])


def test_copy_text_and_binary(both):  # noqa: F811
    rl, pg = both
    fresh(both)
    rows = [(i, v, None, None, v, v) for i, v in enumerate(EDGES)]
    for conn in both:
        with conn.cursor() as cur:
            with cur.copy("COPY nm FROM STDIN") as copy:
                for r in rows:
                    copy.write_row(r)
    want = same(rl, pg, "SELECT * FROM nm ORDER BY id")
    outs = []
    for conn in both:
        got = {}
        for fmt in ("text", "binary"):
            with conn.cursor() as cur:
                with cur.copy(f"COPY (SELECT * FROM nm ORDER BY id) TO STDOUT (FORMAT {fmt})") as copy:
                    got[fmt] = b"".join(bytes(b) for b in copy)
        outs.append(got)
    assert outs[0] == outs[1]
    # binary COPY in, from what PostgreSQL sent
    fresh(both)
    for conn in both:
        with conn.cursor() as cur:
            with cur.copy("COPY nm FROM STDIN (FORMAT binary)") as copy:
                copy.write(outs[1]["binary"])
    assert same(rl, pg, "SELECT * FROM nm ORDER BY id") == want


COMPARISONS = [
    "SELECT id FROM nm WHERE a = 123456789012.345678 ORDER BY id",
    "SELECT id FROM nm WHERE a = '123456789012.3456780' ORDER BY id",
    "SELECT id FROM nm WHERE a < 0 ORDER BY id",
    "SELECT id FROM nm WHERE a > -1 AND a < 1 ORDER BY id",
    "SELECT id FROM nm WHERE a BETWEEN 0.000001 AND 1.0000005 ORDER BY id",
    "SELECT id FROM nm WHERE a IN (0, -7, 2500, 0.1) ORDER BY id",
    "SELECT id FROM nm WHERE a = 2500 OR a = 0.1 OR a = -7 ORDER BY id",
    "SELECT id FROM nm WHERE a = 0.1::float8 ORDER BY id",
    "SELECT id FROM nm WHERE a > 1e5::float8 ORDER BY id",
    "SELECT id FROM nm WHERE a = 7::int2 * -1 ORDER BY id",
    "SELECT id FROM nm WHERE u >= 'Infinity' ORDER BY id",
    "SELECT id FROM nm WHERE u = 'NaN' ORDER BY id",
    "SELECT id FROM nm WHERE a = u ORDER BY id",
    "SELECT id FROM nm WHERE a <> z ORDER BY id",
    "SELECT u FROM nm ORDER BY u, id",
    "SELECT u FROM nm ORDER BY u DESC NULLS LAST, id",
    "SELECT a FROM nm ORDER BY a + 0 DESC, id",
    "SELECT DISTINCT a FROM nm ORDER BY a",
    "SELECT DISTINCT a * 1 FROM nm ORDER BY 1",
    "SELECT count(*) FROM (SELECT DISTINCT u + 0 FROM nm) s",
    "SELECT id FROM (SELECT id, a * 2 AS x FROM nm) s WHERE x > 1 ORDER BY x, id",
    "SELECT a, count(*) FROM nm GROUP BY a ORDER BY a",
    "SELECT u * 0 AS k, count(*) FROM nm WHERE u <> 'NaN' AND u < 'Infinity' AND u > '-Infinity'"
    " GROUP BY u * 0 ORDER BY 1",
    "SELECT min(a), max(a), min(u), max(u), min(z), max(z), count(DISTINCT a), count(DISTINCT u) FROM nm",
    "SELECT min(a * 2), max(-a) FROM nm",
    "SELECT sum(a), avg(a), sum(b), avg(b), sum(z), avg(z) FROM nm",
    "SELECT sum(u), avg(u) FROM nm",
    "SELECT sum(u), avg(u) FROM nm WHERE u <> 'NaN'",
    "SELECT sum(u), avg(u) FROM nm WHERE u <> 'NaN' AND u > '-Infinity'",
    "SELECT sum(u), avg(u) FROM nm WHERE u > 'Infinity'",
    "SELECT sum(DISTINCT c), avg(c), sum(c) FROM nm",
    "SELECT avg(id), avg(id::int2), avg(id::int8), sum(id::int8 + 9000000000000000000), sum(id) FROM nm",
    "SELECT id % 4, avg(id * 7) FROM nm GROUP BY 1 ORDER BY 1",
    "SELECT id % 3, sum(a), avg(a) FROM nm GROUP BY id % 3 ORDER BY 1",
    "SELECT a + b, a - z, a * a, a / 7, a % 7, -a, a / 3.000, b * 0.001 FROM nm ORDER BY id",
    "SELECT u + 1, u - u, u * 2, u / 2, u % 2, -u FROM nm ORDER BY id",
    "SELECT u / 0 FROM nm WHERE id = 4",
    "SELECT u % 0 FROM nm WHERE id = 4",
    "SELECT a / 0.000001, 1 / a FROM nm WHERE a <> 0 ORDER BY id",
    "SELECT z * z, z / 3, z % 0.3, z + 0.5 FROM nm ORDER BY id",
    "SELECT 1::numeric / 3, 2::numeric / 3, 10::numeric / 4, 1e-20 / 3, 123456789.123 / 0.0007,"
    " 9999::numeric / 10000, 1 / 9999.0, 0.5 % 0.3, -7.5 % 2, 7.5 % -2, 1e100 * 1e100",
    "SELECT 'Infinity'::numeric + '-Infinity', 'Infinity'::numeric * 0, 'Infinity'::numeric / 'Infinity',"
    " 'Infinity'::numeric % 3, 3 % 'Infinity'::numeric, 3 / '-Infinity'::numeric, 'NaN'::numeric / 0,"
    " '-Infinity'::numeric - 'Infinity', 'Infinity'::numeric / -2, -('-Infinity'::numeric)",
    "SELECT 'Infinity'::numeric / 0",
    "SELECT mod(7.5, 2), mod(-7, 2.25), mod(7, 3), pg_typeof(mod(7, 3)), mod(a, 0.7) FROM nm WHERE id = 4",
    "SELECT abs(a), round(a, 2), trunc(a, -1), floor(u), ceil(u) FROM nm ORDER BY id",
    "SELECT 1.5 = 1.50, 1.5 < 1.51, 'NaN'::numeric > 'Infinity', 'NaN'::numeric = 'NaN', -0.0 = 0",
    "SELECT 0.1::float8::numeric, (0.1::float8 + 0.2)::numeric, 1e-7::float8::numeric, 0.1::float4::numeric,"
    " 123456789.123456789::float8::numeric(20,5), 'Infinity'::float8::numeric, 'NaN'::float4::numeric",
    "SELECT a::float8, a::int8, u::float8 FROM nm WHERE id < 8 ORDER BY id",
    "SELECT 9007199254740993::numeric::int8, '9223372036854775807.4'::numeric::int8, 2147483646.5::int4,"
    " -32768.4::int2, 2.5::int4, -2.5::int8",
    "SELECT '-9223372036854775808.5'::numeric::int8",
    "SELECT 2147483647.5::numeric::int4",
    "SELECT 'Infinity'::numeric::int4",
    "SELECT '-Infinity'::numeric::int8",
    "SELECT 'NaN'::numeric::int2",
    "SELECT u::int8 FROM nm ORDER BY id",
    "SELECT id, a::numeric(10,2) FROM nm ORDER BY id",
]


def test_comparison_arithmetic_aggregates(both):  # noqa: F811
    rl, pg = both
    fresh(both)
    for i, v in enumerate(EDGES):
        same(rl, pg, f"INSERT INTO nm VALUES ({i}, '{v}', '{v}'::numeric / 1e15, {i}.25, '{v}', '{v}')")
    same(rl, pg, "INSERT INTO nm (id, u) VALUES (101, 'NaN'), (102, 'Infinity'), (103, '-Infinity')")
    for sql in COMPARISONS:
        same(rl, pg, sql)
    # a unique numeric key: its index compares by value (1.5 and 1.50 are one key)
    for conn in both:
        conn.execute("DROP TABLE IF EXISTS nm2")
        conn.execute("CREATE TABLE nm2 (k numeric UNIQUE, v int)")
    same(rl, pg, "INSERT INTO nm2 VALUES (1.5, 1), (-2, 2), (1e30, 3), (0.000, 4), ('NaN', 5), ('Infinity', 6)")
    for dup in ["1.50", "-2.0", "1000000000000000000000000000000.0", "0", "'NaN'"]:
        same(rl, pg, f"INSERT INTO nm2 VALUES ({dup}, 9)")
    for sql in ["SELECT v FROM nm2 WHERE k = 1.500", "SELECT v FROM nm2 WHERE k IN (0.0, -2.00) ORDER BY v",
                "SELECT v FROM nm2 WHERE k > 1 ORDER BY k", "SELECT k FROM nm2 ORDER BY k DESC",
                "SELECT v FROM nm2 WHERE k = 'NaN'", "SELECT v FROM nm2 WHERE k = 1"]:
        same(rl, pg, sql)


def random_numeric(rng):
    kind = rng.random()
    if kind < 0.05:
        return rng.choice(["0", "-0.000", "1", "-1"])
    if kind < 0.1:
        digits = 1000
    else:
        digits = rng.randint(1, 60)
    scale = rng.randint(0, digits)
    body = "".join(rng.choice("0123456789") for _ in range(digits)).lstrip("0") or "0"
    body = body.rjust(scale + 1, "0")
    text = body[:len(body) - scale] + ("." + body[len(body) - scale:] if scale else "")
    return ("-" if rng.random() < 0.4 else "") + text


def test_random_numerics(both):  # noqa: F811
    """a few hundred seeded values of mixed precision and scale, through text and binary
    parameters, read back and aggregated"""
    rl, pg = both
    rng = random.Random(20260315)
    values = [random_numeric(rng) for _ in range(300)]
    fresh(both, "CREATE TABLE nm (id int PRIMARY KEY, u numeric, g int)")
    for conn in both:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO nm VALUES (%s, %t, %s)",
                            [(i, v, i % 7) for i, v in enumerate(values[:150])])
        with conn.cursor(binary=True) as cur:
            cur.executemany("INSERT INTO nm VALUES (%s, %b, %s)",
                            [(i + 150, Decimal(v), i % 7) for i, v in enumerate(values[150:])])
    rows = same(rl, pg, "SELECT id, u FROM nm ORDER BY id")[1]
    with decimal.localcontext() as ctx:
        ctx.prec = 3000
        assert [decimal.Decimal(r[1]) for r in rows] == [decimal.Decimal(v) for v in values]
    same(rl, pg, "SELECT id, u FROM nm ORDER BY id", binary=True)
    same(rl, pg, "SELECT id FROM nm ORDER BY u, id")
    same(rl, pg, "SELECT g, sum(u), avg(u), min(u), max(u), count(DISTINCT u) FROM nm GROUP BY g ORDER BY g")
    same(rl, pg, "SELECT sum(u), avg(u) FROM nm WHERE length(u::text) < 100")
    same(rl, pg, "SELECT a.id, b.id FROM nm a JOIN nm b ON a.u < b.u WHERE a.id < 12 AND b.id < 12"
                 " ORDER BY 1, 2")
    same(rl, pg, "SELECT id, u + 1, u * 3, u / 7, u % 0.7 FROM nm WHERE length(u::text) < 40 ORDER BY id")
    same(rl, pg, "SELECT id, u * u, u / 3 FROM nm WHERE length(u::text) > 900 ORDER BY id")
    same(rl, pg, "SELECT a.id, b.id, a.u + b.u, a.u - b.u, a.u * b.u, a.u / b.u, a.u % b.u, a.u < b.u,"
                 " a.u = b.u FROM nm a, nm b WHERE a.id < 30 AND b.id < 30 AND b.u <> 0 ORDER BY 1, 2")
