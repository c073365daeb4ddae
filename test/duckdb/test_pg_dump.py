"""Moving a lake with PostgreSQL's own tools, both ways, compared through DuckDB.

PostgreSQL -> RockLake: a DuckLake catalog that DuckDB made on PostgreSQL 15, dumped
there with pg_dump 15 (plain format), loads into an empty RockLake database with
`psql -v ON_ERROR_STOP=1 -f dump.sql`. RockLake -> PostgreSQL: pg_dump against
RockLake (plain, and custom format restored with pg_restore) loads into an empty
PostgreSQL 15 database. Each time DuckDB reads the copy (the same DATA_PATH) exactly
as it reads the original: every table, every snapshot (AT VERSION), the views and the
catalog's own metadata; and a dump of the copy is the dump of the original, line for
line but the server's version (so every value came back bit for bit).

The lakes have inlined rows, Parquet files, several snapshots, a deleted row, a
dropped column and a view; one keeps its catalog in a schema of its own
(METADATA_SCHEMA), which the dump makes with CREATE SCHEMA. The dumps are made with
--no-owner: the lake's owner on one server is not a role of the other.
`ALTER TABLE ... OWNER TO` the session's user, which a dump made by that user has, and
the other statements and catalog queries a dump needs are compared with PostgreSQL's
answers on their own.
"""

import subprocess

import pytest

import duckdb_offline
from answers import answer
from lakes import Lake

pytestmark = pytest.mark.duckdb

BUILD = [
    "CREATE TABLE lake.t (id INTEGER, name VARCHAR, extra VARCHAR)",
    "INSERT INTO lake.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', NULL)",
    "DELETE FROM lake.t WHERE id = 2",
    "ALTER TABLE lake.t DROP COLUMN extra",
    "INSERT INTO lake.t VALUES (4, 'd')",
    "CREATE TABLE lake.big AS SELECT range AS id, 'v' || range AS v FROM range(1000)",
    "DELETE FROM lake.big WHERE id % 7 = 0",
    "CREATE VIEW lake.v AS SELECT id, name FROM lake.t WHERE id > 1",
    "COMMENT ON TABLE lake.t IS 'the table'",
]


def lake_reads(con, max_version: int) -> list:
    """What DuckDB reads of the lake attached as "lake": tables, views, every snapshot."""
    queries = [
        "SELECT * FROM lake.t ORDER BY id",
        "SELECT count(*), sum(id), min(v), max(v) FROM lake.big",
        "SELECT * FROM lake.v ORDER BY id",
        "SELECT snapshot_id, schema_version, changes FROM ducklake_snapshots('lake') ORDER BY snapshot_id",
        "SELECT table_name, comment FROM duckdb_tables() WHERE database_name = 'lake' ORDER BY ALL",
        "SELECT table_name, column_name, data_type FROM duckdb_columns() "
        "WHERE database_name = 'lake' ORDER BY table_name, column_index",
        "SELECT view_name, sql FROM duckdb_views() WHERE database_name = 'lake' AND NOT internal ORDER BY ALL",
        "SELECT table_name, file_count, delete_file_count FROM ducklake_table_info('lake') ORDER BY ALL",
    ]
    for version in range(max_version + 1):
        queries.append(f"SELECT * FROM lake.t AT (VERSION => {version}) ORDER BY id")
        queries.append(f"SELECT count(*), sum(id) FROM lake.big AT (VERSION => {version})")
    out = []
    for q in queries:
        try:
            out.append((q, con.execute(q).fetchall()))
        except Exception as e:  # a table that did not exist at that snapshot
            out.append((q, f"{type(e).__name__}: {str(e).splitlines()[0]}"))
    return out


def read_lake(lake: Lake, **options) -> list:
    con = duckdb_offline.connect()
    try:
        con.execute(lake.attach_sql(**options))
        version = con.execute("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").fetchone()[0]
        return [lake.normalise(step) for step in lake_reads(con, version)]
    finally:
        con.close()


def dump(lake: Lake, *args: str) -> str:
    done = subprocess.run(["pg_dump", "-d", lake.dsn, "--no-owner", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def load(lake: Lake, script: str, tmp_path) -> None:
    path = tmp_path / "dump.sql"
    path.write_text(script)
    done = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", lake.dsn, "-f", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def build(lake: Lake, options: dict) -> list:
    """Make the lake's objects with DuckDB; what DuckDB then reads of it."""
    con = duckdb_offline.connect()
    con.execute(lake.attach_sql(**options))
    for sql in BUILD:
        con.execute(sql)
    con.close()
    return read_lake(lake, **options)


def lines(script: str) -> list[str]:
    """A dump's lines but those that name the server or hold pg_dump's random key."""
    return [line for line in script.splitlines()
            if not line.startswith(("-- Dumped from database version", "\\restrict", "\\unrestrict"))]


def start(new_lake, source: str, target: str, metadata_schema) -> tuple:
    """A lake built on source and dumped there, and an empty database on target."""
    options = {"DATA_INLINING_ROW_LIMIT": 10}
    if metadata_schema:
        options["METADATA_SCHEMA"] = metadata_schema
    original = new_lake(source)
    expected = build(original, options)
    return original, new_lake(target), options, expected, dump(original)


def assert_same_lake(original: Lake, copy: Lake, options: dict, expected: list, script: str) -> None:
    """The copy, over the original's Parquet files, reads and dumps as the original."""
    copy.data_path = original.data_path
    got = [copy.normalise(step) for step in read_lake(copy, **options)]
    assert got == expected, f"the copy on {copy.server.kind} reads differently"
    assert lines(dump(copy)) == lines(script), f"the copy on {copy.server.kind} dumps differently"


@pytest.mark.parametrize("metadata_schema,split", [(None, False), ("meta", False), (None, True)],
                         ids=["plain", "metadata_schema", "schema_then_data"])
def test_postgres_lake_to_rocklake(new_lake, tmp_path, metadata_schema, split):
    original, copy, options, expected, script = start(new_lake, "postgres", "rocklake", metadata_schema)
    if metadata_schema:
        assert f"CREATE SCHEMA {metadata_schema};" in script
    if split:  # --schema-only, then --data-only into the tables it made
        load(copy, dump(original, "--schema-only"), tmp_path)
        load(copy, dump(original, "--data-only"), tmp_path)
    else:
        load(copy, script, tmp_path)
    assert_same_lake(original, copy, options, expected, script)
    # what the load committed is in the store: the caches made again from it read alike
    copy.server.restart(rebuild=True)
    got = [copy.normalise(step) for step in read_lake(copy, **options)]
    assert got == expected, "RockLake's copy reads differently after its cache was rebuilt"

    # and DuckDB writes on
    con = duckdb_offline.connect()
    con.execute(copy.attach_sql(**options))
    con.execute("INSERT INTO lake.t VALUES (5, 'e')")
    assert con.execute("SELECT count(*) FROM lake.t").fetchone()[0] == 4
    con.close()


@pytest.mark.parametrize("metadata_schema,custom", [(None, False), ("meta", False), (None, True)],
                         ids=["plain", "metadata_schema", "custom_format"])
def test_rocklake_lake_to_postgres(new_lake, tmp_path, metadata_schema, custom):
    original, copy, options, expected, script = start(new_lake, "rocklake", "postgres", metadata_schema)
    if custom:
        archive = tmp_path / "dump.custom"
        dump(original, "-Fc", "-f", str(archive))
        done = subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", copy.dsn, str(archive)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    else:
        load(copy, script, tmp_path)
    assert_same_lake(original, copy, options, expected, script)


@pytest.fixture
def both(rocklake_server, postgres_server):
    """A connection to a new database on each server."""
    with rocklake_server.connect(rocklake_server.create_database("dump"), autocommit=True) as rl, \
            postgres_server.connect(postgres_server.create_database("dump"), autocommit=True) as pg:
        yield rl, pg


def test_dump_statements(both):
    """What a plain dump says besides CREATE TABLE and COPY, answered as PostgreSQL does."""
    statements = [
        "SET default_tablespace = ''",
        "SET default_table_access_method = heap",
        "SET check_function_bodies = false",
        "SET synchronize_seqscans TO off",
        "SET quote_all_identifiers = off",
        "SET default_table_access_method = nosuch",
        "SET default_tablespace = nosuch",
        "CREATE TABLE dumped (id bigint NOT NULL, v text, n bigint)",
        "ALTER TABLE dumped OWNER TO CURRENT_USER",
        "ALTER TABLE public.dumped OWNER TO nosuch_role",
        "INSERT INTO dumped VALUES (1, 'a', NULL), (2, 'b', NULL)",
        "ALTER TABLE ONLY public.dumped ADD CONSTRAINT dumped_pkey PRIMARY KEY (id)",
        "ALTER TABLE dumped ADD CONSTRAINT second_pkey PRIMARY KEY (id)",
        "ALTER TABLE dumped ADD PRIMARY KEY (nosuch)",
        "INSERT INTO dumped VALUES (1, 'again', NULL)",
        "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = 'dumped'::regclass",
        "SELECT * FROM dumped ORDER BY id",
        "CREATE TABLE twice (id int NOT NULL)",
        "INSERT INTO twice VALUES (1), (1)",
        "ALTER TABLE twice ADD PRIMARY KEY (id)",
        "SELECT count(*) FROM pg_constraint WHERE conrelid = 'twice'::regclass",
        # pg_dump's transaction: one snapshot, its tables locked
        "LOCK TABLE dumped IN ACCESS SHARE MODE",
        "BEGIN",
        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY, DEFERRABLE",
        "LOCK TABLE public.dumped, twice IN ACCESS SHARE MODE",
        "LOCK TABLE nosuch IN ACCESS SHARE MODE",
        "ROLLBACK",
        "BEGIN",
        "LOCK dumped",
        "COMMIT",
        # functions its queries call
        "SELECT quote_ident('a b'), quote_ident('abc'), quote_ident('select'), quote_ident('Ab\"c'),"
        " quote_literal('it''s'), quote_literal(E'back\\\\slash'), quote_literal(NULL::text)",
        "SELECT quote_ident(relname) FROM pg_class WHERE relname = 'dumped'",
        "SELECT k, replace(acldefault(k::\"char\", r.oid)::text, r.rolname, 'u') FROM pg_roles r,"
        " unnest(ARRAY['c', 'r', 's', 'd', 'f', 'l', 'L', 'n', 't', 'F', 'S', 'T', 'p']) AS k"
        " WHERE r.rolname = current_user ORDER BY k",
        "SELECT array_remove(ARRAY['a', 'b', 'a'], 'a'), array_remove(ARRAY['a', NULL], NULL),"
        " array_remove(NULL::text[], 'a')",
        "SELECT option_name, option_value FROM pg_options_to_table(ARRAY['fillfactor=70', 'x=a=b', 'flag'])",
        "SELECT quote_ident(option_name) || ' ' || quote_literal(option_value)"
        " FROM pg_catalog.pg_options_to_table(NULL::text[])",
        "SELECT typname[0], typname[1], typname[0] = '_' FROM pg_type WHERE oid IN (25, 1009) ORDER BY oid",
        "SELECT tableoid::regclass, count(*) FROM pg_init_privs WHERE objoid >= 16384 GROUP BY 1",
        # the catalogs' columns pg_dump reads
        "SELECT typname, typalign, typisdefined FROM pg_type WHERE oid = ANY('{16,17,19,20,21,22,23,25,26,27,30,"
        "114,700,701,1009,1016,1022,1033,1034,1042,1043,1082,1083,1114,1184,1186,1266,1700,2277,2950,3802}')"
        " ORDER BY oid",
        "SELECT attname, attalign, attislocal, attinhcount, atthasmissing, attmissingval, attoptions,"
        " attfdwoptions FROM pg_attribute WHERE attrelid = 'dumped'::regclass AND attnum > 0 ORDER BY attnum",
        "SELECT relname, relispopulated FROM pg_class WHERE relname IN ('dumped', 'dumped_pkey') ORDER BY 1",
        "SELECT amname, amtype FROM pg_am WHERE amname IN ('heap', 'btree') ORDER BY 1",
        "SELECT datcollversion IS NULL FROM pg_database WHERE datname = current_database()",
        "SELECT 'pg_depend'::regclass::oid, 'pg_init_privs'::regclass::oid, 'pg_ts_config'::regclass::oid",
    ]
    rl, pg = both
    for sql in statements:
        assert answer(rl, sql, with_message=True) == answer(pg, sql, with_message=True), sql


# the catalogs pg_dump reads that RockLake has no rows of: PostgreSQL's columns, and
# no rows of users' objects (PostgreSQL lists its built-in ones)
EMPTY_CATALOGS = {
    "pg_init_privs": "objoid", "pg_opfamily": "oid", "pg_amop": "oid", "pg_amproc": "oid",
    "pg_ts_parser": "oid", "pg_ts_template": "oid", "pg_ts_dict": "oid", "pg_ts_config": "oid",
    "pg_default_acl": "oid", "pg_transform": "oid", "pg_range": "rngtypid", "pg_cast": "oid",
    "pg_partitioned_table": "partrelid", "pg_foreign_table": "ftrelid",
    "pg_largeobject_metadata": "oid", "pg_seclabels": "objoid", "pg_shseclabel": "objoid",
    "pg_db_role_setting": "setdatabase", "pg_depend": "objid",
}


@pytest.mark.parametrize("catalog", sorted(EMPTY_CATALOGS))
def test_dump_catalogs(both, catalog):
    rl, pg = both
    got = []
    for conn in (rl, pg):
        with conn.cursor() as cur:
            cur.execute(f"SELECT * FROM pg_catalog.{catalog} WHERE {EMPTY_CATALOGS[catalog]} >= 16384 "
                        f"AND {EMPTY_CATALOGS[catalog]} < 16384")
            got.append(([(d.name, d.type_code) for d in cur.description], cur.fetchall()))
    rl_columns, pg_columns = ([name for name, _ in columns] for columns, _ in got)
    assert rl_columns == pg_columns and got[0][1] == got[1][1] == []


def test_owner_to_session_user(both):
    """A dump made by the lake's owner says OWNER TO that role: RockLake's session user."""
    rl, pg = both
    for conn in (rl, pg):
        user = conn.execute("SELECT current_user").fetchone()[0]
        conn.execute("CREATE TABLE owned (i int)")
        assert answer(conn, f'ALTER TABLE owned OWNER TO "{user}"') == ("status", "ALTER TABLE")


def test_dump_sees_one_snapshot(rocklake_server, postgres_server):
    """pg_dump's transaction reads the tables as they were at its first query, whatever
    commits meanwhile: on RockLake as on PostgreSQL."""
    for server in (rocklake_server, postgres_server):
        dbname = server.create_database("snapshot")
        with server.connect(dbname, autocommit=True) as writer, server.connect(dbname) as dumper:
            writer.execute("CREATE TABLE t (i int NOT NULL)")
            writer.execute("INSERT INTO t VALUES (1)")
            dumper.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY, DEFERRABLE")
            assert dumper.execute("SELECT count(*) FROM pg_class WHERE relname = 't'").fetchone() == (1,)
            writer.execute("INSERT INTO t VALUES (2)")
            writer.execute("CREATE TABLE later (i int)")
            dumper.execute("LOCK TABLE t IN ACCESS SHARE MODE")
            assert dumper.execute("SELECT count(*) FROM pg_class WHERE relname = 'later'").fetchone() == (0,)
            with dumper.cursor().copy("COPY t (i) TO stdout") as copy:
                assert b"".join(copy) == b"1\n", server.kind
            dumper.rollback()
