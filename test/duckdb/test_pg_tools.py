"""What PostgreSQL tools send beyond DuckLake's own statements, on RockLake and on
PostgreSQL 15 in the same run: ARRAY[...] constructors and op ANY / ALL (array), LIKE
... ESCAPE, the regproc types, pg_extension / pg_sequence / pg_proc, and SQLAlchemy's
PostgreSQL inspector reflecting a DuckLake catalog. Every answer (rows as text, or the
error's SQLSTATE and message) must be PostgreSQL's.
"""

import pytest

from answers import answer

ARRAYS = [
    "SELECT ARRAY[1,2,3]",
    "SELECT 1 = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,2]), 1 = ANY(ARRAY[2,NULL]), 2 = ANY(ARRAY[2,NULL])",
    "SELECT 3 <> ALL(ARRAY[1,2]), 2 <> ALL(ARRAY[1,2]), NULL = ANY(ARRAY[]::int[]), NULL <> ALL('{}'::int[])",
    "SELECT 1 < ANY(ARRAY[0, 2]), 5 > ALL(ARRAY[1,2,3]), 'ab' LIKE ANY(ARRAY['a%', 'x']), 'ab' LIKE ALL(ARRAY['a%', 'x'])",
    "SELECT ARRAY[1, 2.5], ARRAY[1::int2, 2], ARRAY[1, 2::int8], pg_typeof(ARRAY[1, 2.5])",
    "SELECT ARRAY['a', 'b c', NULL, 'd,\"e', ''], ARRAY[true, false], ARRAY['2024-01-01'::date]",
    "SELECT ARRAY[]::int[], ARRAY[]::text[], ARRAY['1','2']::int[], ARRAY[1.7, 2.2]::int[], ARRAY[1]::text[]",
    "SELECT ARRAY[1,2,3][2], array_upper(ARRAY[1,2], 1), array_length(ARRAY[1,2], 1), array_length('{}'::int[], 1),"
    " cardinality(ARRAY[4,5,6]), ARRAY[1,2] || ARRAY[3]",
    "SELECT x FROM unnest(ARRAY[3,1,2]) x",
    "SELECT '{1,2}'::int2[]::int4[], ARRAY[1,2]::text[]::int8[]",
    # what PostgreSQL refuses
    "SELECT ARRAY[]",
    "SELECT ARRAY[1, 'x']",
    "SELECT ARRAY[1, true]",
    "SELECT ARRAY['x']::int[]",
    "SELECT 1 = ANY(1)",
    "SELECT 1 + ANY(ARRAY[1])",
]

LIKES = [
    r"SELECT 'a_b' LIKE 'a\_b' ESCAPE '\', 'axb' LIKE 'a\_b' ESCAPE '\'",
    "SELECT 'a_b' LIKE 'a#_b' ESCAPE '#', 'axb' LIKE 'a#_b' ESCAPE '#', 'a%' LIKE 'a#%' ESCAPE '#', 'a#' LIKE 'a##' ESCAPE '#'",
    r"SELECT 'a\b' LIKE 'a\b' ESCAPE '#', 'a\b' LIKE 'a\\b' ESCAPE '', 'a_b' LIKE 'a\_b' ESCAPE '', 'a\xb' LIKE 'a\_b' ESCAPE ''",
    "SELECT 'a_b' NOT LIKE 'a#_b' ESCAPE '#', 'A_B' ILIKE 'a#_b' ESCAPE '#', 'A_B' NOT ILIKE 'a#_b' ESCAPE '#'",
    "SELECT 'aéb' LIKE 'aé%' ESCAPE 'é', 'a%b' LIKE 'aé%b' ESCAPE 'é'",
    r"SELECT like_escape('a#_b%', '#'), like_escape('a\b', ''), like_escape('a\#b', '#'), like_escape('a#\b', '#')",
    "SELECT NULL LIKE 'a' ESCAPE '#', 'a' LIKE NULL ESCAPE '#', 'a' LIKE 'a' ESCAPE NULL",
    # PostgreSQL's errors (22025)
    "SELECT 'ab' LIKE 'a#' ESCAPE '#'",
    "SELECT 'ab' LIKE 'a' ESCAPE '##'",
    r"SELECT 'ab' LIKE '%\'",
    r"SELECT 'ab' LIKE 'a\'",
    r"SELECT 'a' LIKE 'a\'",
    r"SELECT '' LIKE '%\', 'a' LIKE 'a%\'",
]

CATALOG = [
    # regproc and regprocedure of the builtin functions
    "SELECT 'now'::regproc, 'now'::regproc::oid, 1397::regproc, 1397::regprocedure, 745::regproc,"
    " 'substr(text,integer)'::regprocedure, 'pg_catalog.now'::regproc::oid, 'now()'::regprocedure::int",
    "SELECT 'abs( integer )'::regprocedure, 'abs(int4)'::regprocedure::oid, '\"current_user\"'::regproc",
    "SELECT 99999::regproc, 0::regproc, '-'::regproc, pg_typeof('now'::regproc), pg_typeof('now()'::regprocedure)",
    "SELECT to_regproc('abs'), to_regproc('now'), to_regproc('nosuch'), to_regprocedure('abs(bigint)')",
    "SELECT 'abs'::regproc",
    "SELECT 'nosuch'::regproc",
    "SELECT 'abs(foo)'::regprocedure",
    "SELECT 'abs(text)'::regprocedure",
    "SELECT 'now'::regprocedure",
    "SELECT 'array_to_string(anyarray,text)'::regprocedure, 'abs(double precision)'::regprocedure,"
    " 'date_trunc(text, timestamp with time zone)'::regprocedure",
    "SELECT 'abs(int[])'::regprocedure",
    "SELECT 'abs(integer'::regprocedure",
    "SELECT proname, pronargs, prorettype, proargtypes, proretset, proisstrict, provolatile, proparallel, prosrc"
    " FROM pg_proc WHERE oid = ANY('{1299,1397,877,883,1066,1067,2331}'::oid[]) ORDER BY oid",
    "SELECT pg_get_functiondef('now'::regproc), pg_get_function_result(1299),"
    " pg_get_function_arguments('substr(text,integer)'::regprocedure)",
    "SELECT obj_description('now'::regproc, 'pg_proc'), obj_description(13559, 'pg_extension')",
    # extensions and sequences
    "SELECT * FROM pg_extension",
    "SELECT * FROM pg_sequence",
    "SELECT * FROM pg_sequences",
    # what SQLAlchemy reads
    "SELECT 'pg_class'::regclass::oid, 'pg_catalog.pg_constraint'::regclass, 2606::regclass",
    "SELECT json_build_object('a', 1, 'b', 'x', 'c', true, 'd', NULL, 'e', 1.5, 'f', '{\"x\":1}'::json)",
    "SELECT json_build_object('a')",
    "SELECT typname, typdelim, typbasetype, typtypmod, typnotnull, typdefault FROM pg_type WHERE oid IN (23, 25, 1007)",
    "SELECT array_agg(x ORDER BY x), array_agg(x) FILTER (WHERE x > 1) FROM (VALUES (3), (1), (2)) v(x)",
    "SELECT array_agg(b ORDER BY n) FROM (VALUES (2, true), (1, false), (3, NULL)) v(n, b)",
    "SELECT array_agg(x ORDER BY x DESC), array_agg(x ORDER BY x ASC), array_agg(x::text ORDER BY -x)"
    " FROM (VALUES (1), (2), (NULL)) v(x)",
    "SELECT unnest(ARRAY[1,2,3]) a, unnest(ARRAY['x','y']) b, generate_subscripts(ARRAY[5,6], 1) s FROM pg_namespace"
    " WHERE nspname = 'public'",
    "SELECT generate_subscripts('1 2'::int2vector, 1), ('3 4'::int2vector)[0], '5 6'::oidvector, 1 = ANY('1 2'::int2vector)"
    " FROM pg_namespace WHERE nspname = 'public'",
]


@pytest.fixture
def both(rocklake_server, postgres_server):
    with rocklake_server.connect(autocommit=True) as rl, postgres_server.connect(autocommit=True) as pg:
        for conn in (rl, pg):
            conn.execute("SET TimeZone = 'UTC'")
        yield rl, pg


def same_answers(rl, pg, queries):
    for sql in queries:
        assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql


@pytest.mark.parametrize("queries", [ARRAYS, LIKES, CATALOG], ids=["arrays", "like_escape", "catalog"])
def test_same_answers(both, queries):
    same_answers(*both, queries)


def test_pg_proc_is_postgresqls(both):
    """every function RockLake's pg_proc lists is PostgreSQL's function of that OID, as
    pg_proc, regproc, regprocedure and psql's functions describe it"""
    rl, pg = both
    oids = [row[0] for row in rl.execute("SELECT oid FROM pg_proc ORDER BY oid").fetchall()]
    assert len(oids) > 100
    sql = ("SELECT oid, proname, pronamespace, prolang, prokind, provolatile, proparallel, prosrc, pronargs,"
           " prorettype, proargtypes::text, proretset, proisstrict, oid::regproc::text, oid::regprocedure::text,"
           " pg_get_function_result(oid), pg_get_function_arguments(oid), pg_get_functiondef(oid),"
           " obj_description(oid, 'pg_proc') FROM pg_proc WHERE oid = ANY(%s::oid[]) ORDER BY 1")
    assert rl.execute(sql, (oids,)).fetchall() == pg.execute(sql, (oids,)).fetchall()


def test_multidimensional_arrays_refused(both):
    """arrays have one dimension here: a nested ARRAY[...] is a clean 0A000"""
    rl, _ = both
    for sql in ("SELECT ARRAY[ARRAY[1,2], ARRAY[3,4]]", "SELECT ARRAY[ARRAY[1]]::int[]",
                "SELECT ARRAY['{1}'::int[]]"):
        assert answer(rl, sql) == ("error", "0A000"), sql


def test_arrays_of_columns_and_parameters(both):
    """ARRAY[...] of columns, = ANY of an array column, and = ANY($1) / <> ALL($1) with
    the lists psycopg sends as arrays (int2[] for small integers, text[] for strings), in
    text and in binary, and the results in either format"""
    results = []
    for conn in both:
        conn.execute("DROP TABLE IF EXISTS arr")
        conn.execute("CREATE TABLE arr (id int PRIMARY KEY, tags text[], n int[])")
        conn.execute("INSERT INTO arr VALUES (1, '{a,b}', '{1,2}'), (2, '{c}', '{3}'), (3, NULL, '{}')")
        got = []
        for sql, params in [
                ("SELECT id FROM arr WHERE id = ANY(%s) ORDER BY id", ([1, 3],)),
                ("SELECT id FROM arr WHERE id <> ALL(%s) ORDER BY id", ([1],)),
                ("SELECT id FROM arr WHERE id = ANY(%s) ORDER BY id", ([2, 100000, 10000000000],)),
                ("SELECT id FROM arr WHERE tags[1] = ANY(%s) ORDER BY id", (["a", "c"],)),
                ("SELECT id FROM arr WHERE 'a' = ANY(tags) ORDER BY id", None),
                ("SELECT id FROM arr WHERE 3 <> ALL(n) ORDER BY id", None),
                ("SELECT id, ARRAY[id, id * 2], ARRAY[tags[1], 'z'], array_length(n, 1) FROM arr ORDER BY id", None),
                ("SELECT id FROM arr WHERE id = ANY(ARRAY[1, 2]) AND tags[1] LIKE 'a%%' ESCAPE '#'", None),
                ("SELECT %s::text[] = ARRAY['x', 'y'], x FROM unnest(%s::int[]) x", (["x", "y"], [5, 6])),
        ]:
            for binary in (False, True):
                # psycopg sends the lists as text arrays, or (binary) as PostgreSQL's binary arrays
                with conn.cursor(binary=binary) as cur:
                    cur.execute(sql.replace("%s", "%b") if binary else sql, params)
                    got.append(cur.fetchall())
        conn.execute("DROP TABLE arr")
        results.append(got)
    assert results[0] == results[1]


# tables created over the wire beside DuckLake's, with what the inspector reports on
TOOLS_TABLES_SQL = (
    "CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2),"
    " code varchar(8) UNIQUE, flag boolean DEFAULT true, created date DEFAULT '2024-01-01',"
    " note character(4) DEFAULT 'n', tags text[])",
    "CREATE TABLE pairs (a integer, b bigint, label text, PRIMARY KEY (a, b), UNIQUE (label, a))",
)


@pytest.fixture(scope="module")
def lakes(rocklake_server, postgres_server, tmp_path_factory):
    """a DuckLake catalog (made by DuckDB 1.4.4) and two tables, on each server"""
    from lakes import Lake
    made = {}
    for kind, server in (("postgres", postgres_server), ("rocklake", rocklake_server)):
        with server.connect(autocommit=True) as conn:
            conn.execute('CREATE DATABASE "pg_tools"')
        lake = Lake(server, "pg_tools", tmp_path_factory.mktemp(f"tools-{kind}"))
        with lake.session() as s:
            s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
            s.sql("INSERT INTO lake.t VALUES (1, 'a')")
        with server.connect("pg_tools", autocommit=True) as conn:
            for sql in TOOLS_TABLES_SQL:
                conn.execute(sql)
        made[kind] = lake
    return made


def inspection(lake) -> dict:
    """everything SQLAlchemy's PostgreSQL inspector (psycopg 3) says about the catalog"""
    import sqlalchemy as sa
    server = lake.server
    engine = sa.create_engine(
        f"postgresql+psycopg://{server.user}@{server.host}:{server.port}/{lake.dbname}",
        connect_args={"sslmode": "disable"})
    try:
        insp = sa.inspect(engine)
        tables = sorted(insp.get_table_names())
        got = {"schemas": insp.get_schema_names(), "tables": tables,
               "views": insp.get_view_names()}
        for t in tables:
            for method in ("get_columns", "get_pk_constraint", "get_foreign_keys", "get_indexes",
                           "get_unique_constraints", "get_table_comment"):
                got[(t, method)] = repr(getattr(insp, method)(t))
        metadata = sa.MetaData()
        metadata.reflect(engine)
        for name, table in sorted(metadata.tables.items()):
            got[("reflected", name)] = (
                [(c.name, repr(c.type), c.nullable, c.primary_key,
                  None if c.server_default is None else str(c.server_default.arg)) for c in table.columns],
                sorted(repr(sorted(c.name for c in con.columns)) + type(con).__name__ for con in table.constraints),
                sorted(repr((i.name, i.unique, [c.name for c in i.columns])) for i in table.indexes))
        return got
    finally:
        engine.dispose()


def test_sqlalchemy_inspector(lakes):
    expected = inspection(lakes["postgres"])
    got = inspection(lakes["rocklake"])
    assert expected["tables"] == got["tables"]
    for key in expected:
        assert got.get(key) == expected[key], key
    assert got.keys() == expected.keys()


def each_lake(lakes, run) -> dict:
    """run(conn) on each server's catalog database: {kind: what it returned}"""
    got = {}
    for kind, lake in lakes.items():
        with lake.server.connect(lake.dbname, autocommit=True) as conn:
            got[kind] = run(conn)
    return got


def test_index_vectors(lakes):
    """pg_index's int2vector and oidvector columns, as text and through unnest"""
    sql = ("SELECT c.relname, i.indkey, i.indclass, i.indoption, i.indkey[0], array_length(i.indkey::int2[], 1),"
           " (SELECT array_agg(o.opcname::text ORDER BY o.opcname) FROM pg_opclass o WHERE o.oid = ANY(i.indclass))"
           " FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
           " WHERE c.relname LIKE 'pairs%' OR c.relname LIKE 'items%' OR c.relname LIKE 'ducklake_s%' ORDER BY 1")
    got = each_lake(lakes, lambda conn: answer(conn, sql, with_message=True))
    assert got["rocklake"] == got["postgres"]


def test_constraint_key_arrays(lakes):
    """pg_constraint's conkey and confkey are int2[] (their type OID in the row
    description too), read whole, by subscript, through unnest and with = ANY, as the
    drivers' reflection queries read them"""
    sql = ("SELECT c.conname, c.contype::text, c.conkey, c.confkey, pg_typeof(c.conkey), pg_typeof(c.confkey),"
           " c.conkey[1], array_length(c.conkey, 1),"
           " (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a"
           "  WHERE a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)),"
           " (SELECT array_agg(k ORDER BY k) FROM unnest(c.conkey) AS k)"
           " FROM pg_constraint c WHERE c.conrelid IN ('items'::regclass, 'pairs'::regclass) ORDER BY 1")

    def described(conn):
        cur = conn.execute(sql)
        return [(d.name, d.type_code) for d in cur.description], cur.fetchall()
    got = each_lake(lakes, described)
    assert got["rocklake"] == got["postgres"]
    assert got["rocklake"][0][2] == ("conkey", 1005)
