"""DuckLake end to end with DuckDB 1.4.4 (DuckLake 0.3) or 1.5.5 (DuckLake 1.0), whichever this
run's virtualenv holds: every scenario runs on RockLake and on PostgreSQL 15,
each on a new lake (a new database and DATA_PATH), and RockLake's transcript (statements
and their results, see lakes.py) must equal PostgreSQL's.

A scenario is a function of a Lake listed in SCENARIOS.
"""

import multiprocessing

import pytest

from lakes import Lake, insert_in_commits

pytestmark = pytest.mark.duckdb

TABLES = ("SELECT schema_name, table_name, comment FROM duckdb_tables() WHERE database_name = 'lake' "
          "ORDER BY ALL")


def attach_new_and_existing(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("SELECT key, value FROM __ducklake_metadata_lake.public.ducklake_metadata "
              "WHERE key IN ('version', 'data_path') ORDER BY key")
        s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 'a'), (2, 'b')")
        s.detach()
        s.attach()
        s.sql("SELECT * FROM lake.t ORDER BY id")
    with lake.session() as s:  # another DuckDB attaches the existing catalog
        assert s.sql("SELECT * FROM lake.t ORDER BY id") == [(1, "a"), (2, "b")]
        s.sql(TABLES)


def schemas_tables_views(lake: Lake) -> None:
    views = ("SELECT schema_name, view_name, sql FROM duckdb_views() "
             "WHERE database_name = 'lake' AND NOT internal ORDER BY ALL")
    schemas = "SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'lake' ORDER BY ALL"
    with lake.session() as s:
        s.sql("CREATE SCHEMA lake.s1")
        s.sql("CREATE TABLE lake.s1.t (k INTEGER, v VARCHAR)")
        s.sql("CREATE TABLE lake.main_t (x DOUBLE)")
        s.sql("INSERT INTO lake.s1.t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
        s.sql("CREATE VIEW lake.s1.v AS SELECT k * 10 AS k10, v FROM lake.s1.t WHERE k > 1")
        assert s.sql("SELECT * FROM lake.s1.v ORDER BY k10") == [(20, "y"), (30, "z")]
        for query in (schemas, TABLES, views):
            s.sql(query)
    with lake.session() as s:
        for query in (schemas, TABLES, views):
            s.sql(query)
        s.sql("SELECT * FROM lake.s1.v ORDER BY k10")
        s.sql("DROP VIEW lake.s1.v")
        s.sql("DROP TABLE lake.s1.t")
        s.sql("DROP SCHEMA lake.s1")
        s.sql("DROP TABLE lake.main_t")
        for query in (schemas, TABLES, views):
            assert s.sql(query) in ([], [("main",)])


def small_inlined_dml(lake: Lake) -> None:
    with lake.session(DATA_INLINING_ROW_LIMIT=100) as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR, ts TIMESTAMP, amount DOUBLE, ok BOOLEAN)")
        s.sql("INSERT INTO lake.t VALUES (1, 'a', TIMESTAMP '2024-01-01 10:00:00', 1.5, true), "
              "(2, 'b', TIMESTAMP '2024-01-02 10:00:00', 2.5, false), (3, 'it''s', NULL, NULL, NULL)")
        assert not lake.parquet_files(), "a small insert is inlined into the catalog"
        for where in ("id = 2", "id > 1 AND amount IS NOT NULL", "name IN ('a', 'it''s')",
                      "ts IS NULL", "name LIKE 'b%'", "ts >= TIMESTAMP '2024-01-02'", "ok"):
            s.sql(f"SELECT * FROM lake.t WHERE {where} ORDER BY id")
        s.sql("UPDATE lake.t SET name = 'z', amount = amount * 2 WHERE id = 2")
        s.sql("DELETE FROM lake.t WHERE id = 1")
        s.sql("BEGIN")
        s.sql("INSERT INTO lake.t VALUES (20, 'tx', NULL, NULL, NULL)")
        s.sql("INSERT INTO lake.t VALUES (21, 'tx', NULL, NULL, NULL)")
        s.sql("COMMIT")
        s.sql("BEGIN")
        s.sql("DELETE FROM lake.t")
        s.sql("ROLLBACK")
        s.sql("SELECT * FROM lake.t ORDER BY id")
    with lake.session() as s:
        assert [r[0] for r in s.sql("SELECT * FROM lake.t ORDER BY id")] == [2, 3, 20, 21]
        s.note("Parquet files", len(lake.parquet_files()))  # DuckDB 1.4.4's UPDATE writes one


def large_parquet_dml(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CREATE TABLE lake.big AS SELECT range AS id, 'v' || range AS s, range % 7 AS g "
              "FROM range(100000)")
        s.sql("INSERT INTO lake.big SELECT range, 'w' || range, range % 7 FROM range(100000, 150000)")
        assert lake.parquet_files(), "large inserts write Parquet files into DATA_PATH"
        s.sql("SELECT count(*), sum(id), min(s), max(s) FROM lake.big")
        s.sql("SELECT count(*) FROM lake.big WHERE id BETWEEN 10 AND 20")
        s.sql("SELECT * FROM lake.big WHERE id = 123456")
        s.sql("SELECT g, count(*) FROM lake.big WHERE g IN (1, 3) AND id >= 140000 GROUP BY g ORDER BY g")
        s.sql("DELETE FROM lake.big WHERE id < 50000")
        s.sql("UPDATE lake.big SET s = 'u' WHERE id % 1000 = 0")
        s.sql("SELECT count(*), count(*) FILTER (s = 'u'), sum(id) FROM lake.big")
        s.sql("SELECT table_name, file_count > 0, delete_file_count > 0 FROM ducklake_table_info('lake')")
    with lake.session() as s:
        s.sql("SELECT count(*), count(*) FILTER (s = 'u'), sum(id) FROM lake.big")


def alter_table(lake: Lake) -> None:
    columns = ("SELECT column_name, data_type, column_default FROM duckdb_columns() "
               "WHERE database_name = 'lake' AND table_name = ? ORDER BY column_index")
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR, f FLOAT)")
        s.sql("INSERT INTO lake.t VALUES (1, 'a', 0.5), (2, 'b', NULL)")
        s.sql("ALTER TABLE lake.t ADD COLUMN extra VARCHAR")
        s.sql("ALTER TABLE lake.t ADD COLUMN n INTEGER DEFAULT 7")
        s.sql("INSERT INTO lake.t VALUES (3, 'c', 1.5, 'x', 8)")
        s.sql("SELECT * FROM lake.t ORDER BY id")
        s.sql("ALTER TABLE lake.t RENAME COLUMN name TO label")
        s.sql("ALTER TABLE lake.t DROP COLUMN extra")
        s.sql("ALTER TABLE lake.t ALTER id TYPE BIGINT")
        s.sql("ALTER TABLE lake.t ALTER f TYPE DOUBLE")
        s.sql("INSERT INTO lake.t VALUES (5000000000, 'big', 2.25, 9)")
        s.sql("ALTER TABLE lake.t ALTER label SET DEFAULT 'dflt'")
        s.sql("INSERT INTO lake.t (id) VALUES (4)")
        s.sql("ALTER TABLE lake.t RENAME TO t2")
        s.sql(columns, ("t2",))
        s.sql("SELECT * FROM lake.t2 ORDER BY id")
    with lake.session() as s:
        s.sql(columns, ("t2",))
        s.sql("SELECT * FROM lake.t2 ORDER BY id")
        s.sql("SELECT * FROM lake.t AT (VERSION => 2) ORDER BY id")  # its name then


def comments_and_tags(lake: Lake) -> None:
    columns = ("SELECT table_name, column_name, comment FROM duckdb_columns() "
               "WHERE database_name = 'lake' ORDER BY ALL")
    views = "SELECT view_name, comment FROM duckdb_views() WHERE database_name = 'lake' AND NOT internal"
    tags = ("SELECT key, value FROM __ducklake_metadata_lake.public.ducklake_tag "
            "WHERE end_snapshot IS NULL ORDER BY ALL")
    column_tags = ("SELECT key, value FROM __ducklake_metadata_lake.public.ducklake_column_tag "
                   "WHERE end_snapshot IS NULL ORDER BY ALL")
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
        s.sql("CREATE VIEW lake.v AS SELECT id FROM lake.t")
        s.sql("COMMENT ON TABLE lake.t IS 'a table'")
        s.sql("COMMENT ON COLUMN lake.t.id IS 'the key'")
        s.sql("COMMENT ON VIEW lake.v IS 'a view'")
        s.sql("COMMENT ON TABLE lake.t IS 'it''s changed'")
        for query in (TABLES, columns, views, tags, column_tags):
            s.sql(query)
    with lake.session() as s:
        assert s.sql(TABLES) == [("main", "t", "it's changed")]
        s.sql("COMMENT ON COLUMN lake.t.id IS NULL")
        for query in (columns, views, tags, column_tags):
            s.sql(query)


def partitioned_table(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CREATE TABLE lake.p (k INTEGER, d DATE, v VARCHAR)")
        s.sql("ALTER TABLE lake.p SET PARTITIONED BY (k)")
        s.sql("INSERT INTO lake.p SELECT range % 3, DATE '2024-01-01' + range::INTEGER, 'v' || range "
              "FROM range(30)")
        s.note("partition directories", sorted({f.parent.name for f in lake.parquet_files()}))
        s.sql("SELECT k, count(*), min(v) FROM lake.p WHERE k = 1 GROUP BY k")
        s.sql("ALTER TABLE lake.p SET PARTITIONED BY (year(d), k)")
        s.sql("INSERT INTO lake.p VALUES (5, DATE '2025-06-01', 'new')")
        s.sql("SELECT * FROM lake.p WHERE d >= DATE '2025-01-01'")
        s.sql("SELECT count(*) FROM ducklake_list_files('lake', 'p')")
        s.sql("ALTER TABLE lake.p RESET PARTITIONED BY")
        s.sql("INSERT INTO lake.p VALUES (6, DATE '2026-01-01', 'unpartitioned')")
    with lake.session() as s:
        s.sql("SELECT k, count(*) FROM lake.p GROUP BY k ORDER BY k")
        s.sql("DROP TABLE lake.p")
        s.sql(TABLES)


def time_travel_and_snapshots(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, v VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 'a'), (2, 'b')")
        s.sql("UPDATE lake.t SET v = 'B' WHERE id = 2")
        s.sql("DELETE FROM lake.t WHERE id = 1")
        s.sql("INSERT INTO lake.t VALUES (3, 'c')")
        s.sql("SELECT snapshot_id, schema_version, changes FROM ducklake_snapshots('lake') ORDER BY ALL")
        for version in range(1, 6):
            s.sql(f"SELECT * FROM lake.t AT (VERSION => {version}) ORDER BY id")
        times = s.quiet("SELECT snapshot_id, snapshot_time FROM ducklake_snapshots('lake') "
                        "WHERE snapshot_id > 0 ORDER BY snapshot_id")
        for snapshot, time in times:
            s.note(f"AT TIMESTAMP of snapshot {snapshot}", s.quiet(
                f"SELECT * FROM lake.t AT (TIMESTAMP => TIMESTAMPTZ '{time.isoformat()}') ORDER BY id"))
        assert s.quiet("SELECT * FROM lake.t AT (VERSION => 2) ORDER BY id") == [(1, "a"), (2, "b")]
        s.sql("SELECT * FROM ducklake_table_changes('lake', 'main', 't', 2, 5) ORDER BY ALL")
        s.sql("SELECT * FROM ducklake_table_insertions('lake', 'main', 't', 0, 5) ORDER BY ALL")
        s.sql("SELECT * FROM ducklake_table_deletions('lake', 'main', 't', 0, 5) ORDER BY ALL")
        s.sql("SELECT table_name, schema_id, table_id, file_count, delete_file_count "
              "FROM ducklake_table_info('lake')")
        s.sql("SELECT id FROM ducklake_current_snapshot('lake')")
        s.sql("SELECT id FROM ducklake_last_committed_snapshot('lake')")
    with lake.session(SNAPSHOT_VERSION=3) as s:
        s.sql("SELECT * FROM lake.t ORDER BY id")


def maintenance(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10)")
        s.sql("CALL ducklake_set_option('lake', 'parquet_compression', 'zstd')")
        s.sql("CALL ducklake_set_option('lake', 'parquet_compression', 'snappy')")
        s.sql("SELECT option_name, value, scope FROM ducklake_options('lake') "
              "WHERE option_name <> 'data_path' ORDER BY ALL")
        s.sql("CREATE TABLE lake.t (id INTEGER, v VARCHAR)")
        for i in range(3):
            s.sql(f"INSERT INTO lake.t VALUES ({i}, 'inlined {i}')")
        assert not lake.parquet_files()
        s.sql("CALL ducklake_flush_inlined_data('lake')")
        assert len(lake.parquet_files()) == 1
        s.sql("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0)")
        for i in range(1, 5):
            s.sql(f"INSERT INTO lake.t SELECT range, 'f' || range FROM range({i * 100}, {i * 100 + 50})")
        s.sql("SELECT file_count FROM ducklake_table_info('lake')")
        s.sql("CALL ducklake_merge_adjacent_files('lake')")
        s.sql("SELECT file_count FROM ducklake_table_info('lake')")
        s.sql("SELECT count(*), sum(id) FROM lake.t")
        s.note("expired", [row[0] for row in s.quiet(
            "CALL ducklake_expire_snapshots('lake', versions => [1, 2])")])
        s.note("expired", [row[0] for row in s.quiet(
            "CALL ducklake_expire_snapshots('lake', older_than => now())")])
        before = len(lake.parquet_files())
        s.note("cleaned up", sorted(s.quiet("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)")))
        s.note("files removed", before - len(lake.parquet_files()))
        assert len(lake.parquet_files()) == 1
        s.sql("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY ALL")
    with lake.session() as s:
        s.sql("SELECT count(*), sum(id) FROM lake.t")


def restart_mid_workload(lake: Lake) -> None:
    with lake.session(DATA_INLINING_ROW_LIMIT=10) as s:
        s.sql("CREATE TABLE lake.t (id BIGINT, v VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 'inlined')")
        s.sql("INSERT INTO lake.t SELECT range, 'file' FROM range(100, 5100)")
        s.sql("CREATE VIEW lake.v AS SELECT v, count(*) AS n FROM lake.t GROUP BY v")
        s.detach()
        lake.server.restart()
        s.attach()
        s.sql("SELECT * FROM lake.v ORDER BY v")
        s.sql("SELECT snapshot_id, changes FROM ducklake_snapshots('lake') ORDER BY ALL")
        s.sql("UPDATE lake.t SET v = 'updated' WHERE id = 1")
        s.sql("ALTER TABLE lake.t ADD COLUMN w INTEGER")
        s.sql("INSERT INTO lake.t VALUES (2, 'after restart', 2)")
    with lake.session() as s:
        s.sql("SELECT * FROM lake.v ORDER BY v")
        s.sql("SELECT * FROM lake.t WHERE id < 100 ORDER BY id")


def two_writers(lake: Lake) -> None:
    commits = 15
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (writer VARCHAR, n INTEGER)")
    spawn = multiprocessing.get_context("spawn")
    start = spawn.Barrier(2)
    writers = [spawn.Process(target=insert_in_commits, args=(lake.attach_sql(), name, commits, start))
               for name in ("a", "b")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=180)
    assert [w.exitcode for w in writers] == [0, 0], "both writers finish"
    with lake.session() as s:
        assert s.sql("SELECT writer, count(*), count(DISTINCT n) FROM lake.t GROUP BY writer "
                     "ORDER BY writer") == [("a", commits, commits), ("b", commits, commits)]
        s.sql("SELECT count(*) FROM ducklake_snapshots('lake')")


SCENARIOS = [
    attach_new_and_existing,
    schemas_tables_views,
    small_inlined_dml,
    large_parquet_dml,
    alter_table,
    comments_and_tags,
    partitioned_table,
    time_travel_and_snapshots,
    maintenance,
    restart_mid_workload,
    two_writers,
]


def cases() -> list:
    return [pytest.param(scenario, backend, id=f"{scenario.__name__}-{backend}")
            for scenario in SCENARIOS for backend in ("postgres", "rocklake")]


@pytest.mark.parametrize(("scenario", "backend"), cases())
def test_scenario(scenario, backend, run_scenario):
    run_scenario(scenario, backend)
