"""A DuckLake 0.3 catalog written by DuckDB 1.4.4 and migrated to DuckLake 1.0 by DuckDB
1.5.5 (ATTACH ... AUTOMATIC_MIGRATION TRUE), on RockLake and on PostgreSQL 15: the same
statements, the same answers (test_scenarios' transcripts), before the migration, after
it, and after the server is restarted (RockLake with its catalog caches removed, so
they are rebuilt from the store). The migration alters the catalog's tables (ADD and
DROP COLUMN, new tables), so the catalog's own tables are compared too: their columns
and row counts, through psycopg.

Each DuckDB release runs in a process of its own virtualenv (lake_client.py): one
Python process loads one duckdb module. The test drives both, so it runs once, in the
run of either client (it is not marked "duckdb").
"""

import json
import subprocess

import pytest

from answers import answer
from lakes import Lake
from servers import HERE, TOP_SRCDIR

PYTHON = {"1.4.4": TOP_SRCDIR / ".venv" / "bin" / "python",
          "1.5.5": TOP_SRCDIR / ".venv-duckdb15" / "bin" / "python"}

# DuckDB 1.4.4 writes every kind of object DuckLake 0.3 has: schemas, tables (inlined
# rows, Parquet files, deletes of both, a partitioned one, nested types), views,
# comments (tags), renamed and added columns, a dropped table, an option
BUILD = [
    "CREATE SCHEMA lake.s1",
    "CREATE TABLE lake.t (id INTEGER, name VARCHAR, ts TIMESTAMP, amount DOUBLE)",
    "INSERT INTO lake.t VALUES (1, 'a', TIMESTAMP '2024-01-01 10:00:00', 1.5), (2, 'b', NULL, 2.5), "
    "(3, 'c', NULL, NULL)",
    "DELETE FROM lake.t WHERE id = 3",
    "UPDATE lake.t SET name = 'B' WHERE id = 2",
    "CREATE TABLE lake.s1.big AS SELECT range AS id, 'v' || range AS v, range % 4 AS g FROM range(5000)",
    "DELETE FROM lake.s1.big WHERE id % 10 = 0",
    "CREATE TABLE lake.s1.p (k INTEGER, d DATE, v VARCHAR)",
    "ALTER TABLE lake.s1.p SET PARTITIONED BY (k)",
    "INSERT INTO lake.s1.p SELECT range % 3, DATE '2024-01-01' + range::INTEGER, 'p' || range FROM range(30)",
    "CREATE TABLE lake.n (id INTEGER, l INTEGER[], s STRUCT(a INTEGER, b VARCHAR), m MAP(VARCHAR, INTEGER))",
    "INSERT INTO lake.n VALUES (1, [1, 2], {'a': 1, 'b': 'x'}, MAP {'k': 1}), (2, NULL, NULL, NULL)",
    "ALTER TABLE lake.t RENAME COLUMN name TO label",
    "CREATE VIEW lake.v AS SELECT id, label FROM lake.t WHERE amount > 1",
    "CREATE VIEW lake.s1.bv AS SELECT g, count(*) AS n FROM lake.s1.big GROUP BY g",
    "COMMENT ON TABLE lake.t IS 'the table'",
    "COMMENT ON COLUMN lake.t.id IS 'the key'",
    "COMMENT ON VIEW lake.v IS 'the view'",
    "ALTER TABLE lake.t ADD COLUMN extra VARCHAR DEFAULT 'x'",
    "CREATE TABLE lake.gone (i INTEGER)",
    "DROP TABLE lake.gone",
    "CALL ducklake_set_option('lake', 'parquet_compression', 'zstd')",
]

# what every phase reads
READ = [
    "SELECT value FROM __ducklake_metadata_lake.public.ducklake_metadata WHERE key = 'version'",
    "SELECT * FROM lake.t ORDER BY id",
    "SELECT count(*), sum(id), min(v), max(v) FROM lake.s1.big",
    "SELECT * FROM lake.s1.bv ORDER BY g",
    "SELECT k, count(*), min(v), max(d) FROM lake.s1.p GROUP BY k ORDER BY k",
    "SELECT * FROM lake.s1.p WHERE k = 1 ORDER BY d LIMIT 3",
    "SELECT * FROM lake.n ORDER BY id",
    "SELECT * FROM lake.v ORDER BY id",
    "SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'lake' ORDER BY ALL",
    "SELECT schema_name, table_name, comment FROM duckdb_tables() WHERE database_name = 'lake' ORDER BY ALL",
    "SELECT schema_name, view_name, comment, sql FROM duckdb_views() WHERE database_name = 'lake' "
    "AND NOT internal ORDER BY ALL",
    "SELECT table_name, column_name, data_type, column_default, comment FROM duckdb_columns() "
    "WHERE database_name = 'lake' ORDER BY table_name, column_index",
    "SELECT * FROM lake.t AT (VERSION => 3) ORDER BY id",
    "SELECT table_name, file_count, delete_file_count FROM ducklake_table_info('lake') ORDER BY ALL",
    "SELECT count(*) FROM ducklake_list_files('lake', 'p', schema => 's1')",
    "SELECT option_name, value FROM ducklake_options('lake') "
    "WHERE option_name NOT IN ('data_path', 'created_by') ORDER BY ALL",
]

# DuckDB 1.5.5 writes into the migrated lake. Its INSERT into the partitioned table's
# inlined rows, in a table DuckDB 1.4.4 made with a DATE column, sends the date as a
# VARCHAR, which PostgreSQL refuses (42804), so the commit fails on both servers.
WRITE = [
    "INSERT INTO lake.t VALUES (4, 'd', NULL, 4.5, 'y')",
    "DELETE FROM lake.s1.big WHERE id < 100",
    "INSERT INTO lake.s1.p VALUES (1, DATE '2025-01-01', 'new')",
    "UPDATE lake.n SET l = [3] WHERE id = 2",
    "CREATE MACRO lake.twice(x) AS 2 * x",
    "SELECT lake.twice(id) FROM lake.t ORDER BY id",
]


def client(lake: Lake, version: str, statements: list[str], **attach_options) -> None:
    """Run statements in a DuckDB version session attached to lake; record what it answers."""
    job = json.dumps({"attach": lake.attach_sql(**attach_options), "statements": statements})
    done = subprocess.run([str(PYTHON[version]), str(HERE / "lake_client.py")], input=job,
                          capture_output=True, text=True, timeout=300, cwd=HERE)
    assert done.returncode == 0, f"DuckDB {version}: {done.stderr}"
    for sql, result in json.loads(done.stdout):
        lake.note_step(f"{version}: {sql}", result)


def catalog_tables(lake: Lake) -> None:
    """The catalog's own tables as psycopg sees them: columns and row counts."""
    with lake.server.connect(lake.dbname, autocommit=True) as conn:
        columns = ("SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
                   "WHERE table_schema = 'public' AND table_name LIKE 'ducklake\\_%' "
                   "AND table_name NOT LIKE 'ducklake\\_inlined\\_%' ORDER BY table_name, ordinal_position")
        lake.note_step("catalog columns", answer(conn, columns))
        tables = [row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "ORDER BY table_name").fetchall()]
        lake.note_step("catalog tables", tables)
        for table in tables:
            lake.note_step(f"rows of {table}", answer(conn, f'SELECT count(*) FROM "{table}"'))


def migrate_0_3_to_1_0(lake: Lake) -> None:
    client(lake, "1.4.4", BUILD + READ, DATA_INLINING_ROW_LIMIT=10)
    catalog_tables(lake)
    client(lake, "1.5.5", READ[:1])  # refused: the catalog is 0.3
    client(lake, "1.5.5", READ + WRITE + READ, AUTOMATIC_MIGRATION=True)
    catalog_tables(lake)
    lake.server.restart(rebuild=lake.server.kind == "rocklake")
    client(lake, "1.5.5", READ + ["SELECT lake.twice(21)"])
    client(lake, "1.4.4", READ[:1])  # refused: the catalog is 1.0
    catalog_tables(lake)


def test_python_of_each_client():
    for version, python in PYTHON.items():
        assert python.exists(), f"no virtualenv with DuckDB {version} ({python}): run contrib/install-deps.sh --test"


@pytest.mark.parametrize("backend", ["postgres", "rocklake"])
def test_migration(backend, run_scenario):
    run_scenario(migrate_0_3_to_1_0, backend)
