"""Moving a lake with PostgreSQL's own tools: a DuckLake catalog that DuckDB made on
PostgreSQL 15, dumped there with pg_dump 15 (plain format), loads into an empty
RockLake database with `psql -v ON_ERROR_STOP=1 -f dump.sql`, and DuckDB reads the
copy (the same DATA_PATH) exactly as it reads the original: every table, every
snapshot, the views and the catalog's own metadata.

The lakes have inlined rows, Parquet files, several snapshots, a deleted row, a
dropped column and a view; one keeps its catalog in a schema of its own
(METADATA_SCHEMA), which the dump makes with CREATE SCHEMA. The dumps are made with
--no-owner: the lake's owner on PostgreSQL (postgres) is not a role of RockLake.
`ALTER TABLE ... OWNER TO` the session's user, which a dump made by that user has, is
compared with PostgreSQL's answer on its own.

Not here yet: the other direction (pg_dump against RockLake), which needs more of
pg_catalog than RockLake has (doc/design.md, "Moving a lake").
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


@pytest.mark.parametrize("metadata_schema", [None, "meta"])
def test_postgres_lake_to_rocklake(new_lake, tmp_path, metadata_schema):
    options = {"DATA_INLINING_ROW_LIMIT": 10}
    if metadata_schema:
        options["METADATA_SCHEMA"] = metadata_schema
    original = new_lake("postgres")
    con = duckdb_offline.connect()
    con.execute(original.attach_sql(**options))
    for sql in BUILD:
        con.execute(sql)
    con.close()
    expected = read_lake(original, **options)

    script = dump(original)
    if metadata_schema:
        assert f"CREATE SCHEMA {metadata_schema};" in script
    copy = new_lake("rocklake")
    load(copy, script, tmp_path)
    copy.data_path = original.data_path  # the same Parquet files
    got = [copy.normalise(step) for step in read_lake(copy, **options)]
    assert got == expected, "RockLake's copy reads differently"
    # what the load committed is in the store: the caches made again from it read alike
    copy.server.restart(rebuild=True)
    got = [copy.normalise(step) for step in read_lake(copy, **options)]
    assert got == expected, "RockLake's copy reads differently after its cache was rebuilt"

    # and DuckDB writes on: the keys came with the dump (a second commit from the same
    # snapshot would conflict on the snapshot's primary key)
    con = duckdb_offline.connect()
    con.execute(copy.attach_sql(**options))
    con.execute("INSERT INTO lake.t VALUES (5, 'e')")
    assert con.execute("SELECT count(*) FROM lake.t").fetchone()[0] == 4
    con.close()


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
    ]
    rl, pg = both
    for sql in statements:
        assert answer(rl, sql) == answer(pg, sql), sql


def test_owner_to_session_user(both):
    """A dump made by the lake's owner says OWNER TO that role: RockLake's session user."""
    rl, pg = both
    for conn in (rl, pg):
        user = conn.execute("SELECT current_user").fetchone()[0]
        conn.execute("CREATE TABLE owned (i int)")
        assert answer(conn, f'ALTER TABLE owned OWNER TO "{user}"') == ("status", "ALTER TABLE")
