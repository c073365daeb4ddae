"""DuckLake end to end with DuckDB 1.4.4 (DuckLake 0.3) and 1.5.5 (DuckLake 1.0), whichever
this run's virtualenv holds: every scenario runs on RockLake and on PostgreSQL 15, each on
a new lake (a new database and DATA_PATH), and RockLake's transcript (statements and their
results, see lakes.py) must equal PostgreSQL's.

A scenario is a function of a Lake listed in SCENARIOS; one marked @since("1.5") uses
what DuckDB 1.4.4 lacks (VARIANT, macros, SORTED BY, ducklake_settings) and runs only
with 1.5 and later.
"""

import multiprocessing

import pytest

import duckdb_offline
from lakes import Lake, Session, insert_in_commits

pytestmark = pytest.mark.duckdb


def since(version: str):
    """The scenario needs DuckDB version or later."""
    def mark(scenario):
        scenario.since = version
        return scenario
    return mark


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


def inlined_decimals(lake: Lake) -> None:
    """DECIMAL columns inlined in the catalog's numeric columns, read back exactly (a
    numeric that lost digits failed DuckDB's read with "numeric field overflow")"""
    edges = ("(1, 12345678901234567890123456789012.345678, 123456789012345.678, 999.9), "
             "(2, -12345678901234567890123456789012.345678, -123456789012345.678, -999.9), "
             "(3, 0, 0, 0), (4, 0.000001, 0.001, 0.1), (5, -0.000001, -0.001, -0.1), "
             "(6, 99999999999999999999999999999999.999999, 999999999999999.999, 123.4), "
             "(7, 123456789012.345678, 1.5, 1.5), (8, NULL, NULL, NULL)")
    with lake.session(DATA_INLINING_ROW_LIMIT=100) as s:
        s.sql("CREATE TABLE lake.d (id INTEGER, a DECIMAL(38,6), b DECIMAL(18,3), c DECIMAL(4,1))")
        s.sql(f"INSERT INTO lake.d VALUES {edges}")
        assert not lake.parquet_files(), "a small insert is inlined into the catalog"
        s.sql("SELECT * FROM lake.d ORDER BY id")
        s.sql("SELECT id FROM lake.d WHERE a = 123456789012.345678 OR b < -1 OR c = 1.5 ORDER BY id")
        s.sql("SELECT sum(a), sum(b), sum(c), min(a), max(a), count(DISTINCT b) FROM lake.d")
        s.sql("UPDATE lake.d SET a = a / 2, b = b - 0.001 WHERE id IN (1, 6)")
        s.sql("SELECT * FROM lake.d ORDER BY id")
    with lake.session() as s:
        s.sql("SELECT * FROM lake.d ORDER BY id")
        s.note("Parquet files", len(lake.parquet_files()))


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


def add_data_files_partitioned(lake: Lake) -> None:
    """ducklake_add_data_files of a hive-partitioned Parquet file into a table partitioned
    by year and month: DuckDB 1.4.4 writes its two partition values under one
    partition_key_index, two ducklake_file_partition_value rows with the same data file
    and key index, which no key of DuckLake's DDL forbids. RockLake refused the second
    (its store's key for the table was those columns) and DuckLake gave up after ten
    retries."""
    extra = lake.data_path / "year=2024" / "month=1" / "extra.parquet"
    extra.parent.mkdir(parents=True)
    with lake.session() as s:
        s.sql("CREATE TABLE lake.p (d DATE, v VARCHAR)")
        s.sql("ALTER TABLE lake.p SET PARTITIONED BY (year(d), month(d))")
        s.sql("INSERT INTO lake.p VALUES (DATE '2024-02-01', 'inserted')")
        s.quiet(f"COPY (SELECT DATE '2024-01-01' + range::INTEGER AS d, 'added ' || range AS v "
                f"FROM range(3)) TO '{extra}' (FORMAT parquet)")
        s.sql(f"CALL ducklake_add_data_files('lake', 'p', '{extra}')")
        s.sql("SELECT * FROM lake.p ORDER BY ALL")
        s.sql("SELECT * FROM lake.p WHERE d < DATE '2024-02-01' ORDER BY ALL")
        s.sql(f"SELECT * FROM read_parquet('{extra}') ORDER BY ALL")
        s.sql("SELECT data_file_id, table_id, partition_key_index, partition_value "
              "FROM __ducklake_metadata_lake.public.ducklake_file_partition_value")
    with lake.session() as s:
        s.sql("SELECT * FROM lake.p ORDER BY ALL")
        s.sql("SELECT * FROM __ducklake_metadata_lake.public.ducklake_file_partition_value")


# DuckLake's metadata tables as DuckDB reads them without ORDER BY (the columns no run
# changes: no times, uuids or file sizes)
METADATA_SCANS = {
    "ducklake_snapshot": "snapshot_id, schema_version, next_catalog_id, next_file_id",
    "ducklake_snapshot_changes": "snapshot_id, changes_made",
    "ducklake_schema": "schema_id, begin_snapshot, end_snapshot, schema_name",
    "ducklake_table": "table_id, begin_snapshot, end_snapshot, schema_id, table_name",
    "ducklake_column": "column_id, begin_snapshot, end_snapshot, table_id, column_order, column_name, "
                       "column_type, nulls_allowed",
    "ducklake_data_file": "data_file_id, table_id, begin_snapshot, end_snapshot, record_count, row_id_start",
    # not delete_file_id: DuckDB numbers the delete files of one DELETE or UPDATE in the
    # order of a hash map keyed by their data files' paths (random UUIDs), so on any server
    # the ids of one commit's delete files come in a different order from run to run
    "ducklake_delete_file": "table_id, begin_snapshot, end_snapshot, data_file_id, delete_count",
    "ducklake_file_column_stats": "data_file_id, table_id, column_id, value_count, null_count, min_value, "
                                  "max_value",
    "ducklake_table_stats": "table_id, record_count, next_row_id",
    "ducklake_table_column_stats": "*",
    "ducklake_schema_versions": "*",
    "ducklake_metadata": "*",
    "ducklake_inlined_data_tables": "*",
}


def metadata_scan_order(lake: Lake) -> None:
    """DuckLake's own tests read its metadata tables without ORDER BY and compare in
    order: the rows come in PostgreSQL's order (insertion order, an updated row last),
    after a restart and after the cache is rebuilt from the store too."""
    def read_metadata(s):
        for table, columns in METADATA_SCANS.items():
            s.sql(f"SELECT {columns} FROM __ducklake_metadata_lake.public.{table}")

    with lake.session(DATA_INLINING_ROW_LIMIT=5) as s:
        s.quiet("SET threads = 1")  # files written in one order, their ids given in it
        s.sql("CREATE TABLE lake.a (id INTEGER, v VARCHAR)")
        s.sql("CREATE TABLE lake.b (x DOUBLE)")
        for i in range(3):
            s.sql(f"INSERT INTO lake.a SELECT range + {i * 100}, 'v' || range FROM range(20)")
        s.sql("INSERT INTO lake.b VALUES (1.5), (2.5)")
        s.sql("UPDATE lake.a SET v = 'updated' WHERE id % 7 = 0")
        s.sql("DELETE FROM lake.a WHERE id < 5")
        s.sql("ALTER TABLE lake.a ADD COLUMN w INTEGER")
        s.sql("INSERT INTO lake.b VALUES (3.5)")
        s.sql("CALL ducklake_set_option('lake', 'parquet_compression', 'zstd')")
        s.sql("DROP TABLE lake.b")
        s.sql("CREATE TABLE lake.c (k INTEGER)")
        s.sql("INSERT INTO lake.c VALUES (1)")
        read_metadata(s)
        s.detach()
        for rebuild in (False, True):
            lake.server.restart(rebuild=rebuild and lake.server.kind == "rocklake")
            s.attach()
            read_metadata(s)
            s.detach()


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


def two_lakes_in_one_database(lake: Lake) -> None:
    """Lakes a and b in schemas meta_a and meta_b of one database, beside one in public,
    each with a table t of its own: written, read and time-travelled independently,
    and again after the server restarts."""
    def attach_all(s: Session) -> None:
        s.attach(DATA_INLINING_ROW_LIMIT=10)
        for alias in ("a", "b"):
            s.con.execute(lake.attach_sql(alias, DATA_PATH=f"{lake.data_path}/{alias}/",
                                          METADATA_SCHEMA=f"meta_{alias}", DATA_INLINING_ROW_LIMIT=10))
            s.note("ATTACH", alias)

    def read_all(s: Session) -> None:
        for alias in ("lake", "a", "b"):
            s.sql(f"SELECT count(*), sum(id), min(v), max(v) FROM {alias}.t")
            s.sql(f"SELECT * FROM {alias}.t WHERE id < 100 ORDER BY id")
            s.sql(f"SELECT snapshot_id, schema_version, changes FROM ducklake_snapshots('{alias}') ORDER BY ALL")
            for (version,) in s.quiet(f"SELECT snapshot_id FROM ducklake_snapshots('{alias}') "
                                      "WHERE snapshot_id > 0 ORDER BY ALL"):
                s.sql(f"SELECT count(*), sum(id) FROM {alias}.t AT (VERSION => {version})")
            s.sql(f"SELECT table_name, file_count > 0 FROM ducklake_table_info('{alias}')")

    session = Session(lake, duckdb_offline.connect())
    with session as s:
        attach_all(s)
        s.sql("CREATE TABLE lake.t (id INTEGER, v VARCHAR)")
        s.sql("CREATE TABLE a.t (id INTEGER, v VARCHAR, x DOUBLE)")
        s.sql("CREATE TABLE b.t (id BIGINT, v VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 'public')")
        s.sql("INSERT INTO a.t VALUES (1, 'a1', 0.5), (2, 'a2', NULL)")
        s.sql("INSERT INTO b.t VALUES (1, 'b1')")
        s.sql("INSERT INTO a.t SELECT range, 'af' || range, range / 2 FROM range(100, 1100)")
        s.sql("INSERT INTO b.t SELECT range, 'bf' || range FROM range(100, 3100)")
        s.sql("UPDATE a.t SET v = 'a1 updated' WHERE id = 1")
        s.sql("DELETE FROM b.t WHERE id = 1 OR id >= 3000")
        s.sql("CREATE TABLE b.only_b (k INTEGER)")
        s.sql("SELECT database_name, schema_name, table_name FROM duckdb_tables() "
              "WHERE database_name IN ('lake', 'a', 'b') ORDER BY ALL")
        assert {p.relative_to(lake.data_path).parts[0] for p in lake.parquet_files()} >= {"a", "b"}, \
            "both lakes wrote Parquet files"
        read_all(s)
        for alias in ("lake", "a", "b"):
            s.sql(f"DETACH {alias}")
    with lake.server.connect(lake.dbname, autocommit=True) as conn:
        s.note("schemas", conn.execute(
            "SELECT table_schema, count(*) FROM information_schema.tables "
            "WHERE table_name LIKE 'ducklake%' GROUP BY 1 ORDER BY 1").fetchall())
    lake.server.restart()
    with Session(lake, duckdb_offline.connect()) as s:
        attach_all(s)
        read_all(s)
        s.sql("INSERT INTO b.t VALUES (2, 'after restart')")
        s.sql("SELECT * FROM b.t WHERE id < 100 ORDER BY id")
        s.sql("SELECT * FROM a.t WHERE id < 100 ORDER BY id")
    # RockLake's catalog cache made again from the store alone (PostgreSQL just restarts)
    lake.server.restart(rebuild=lake.server.kind == "rocklake")
    with Session(lake, duckdb_offline.connect()) as s:
        attach_all(s)
        read_all(s)
        for alias in ("lake", "a", "b"):
            s.sql(f"DETACH {alias}")
    # lake b's catalog dropped with its schema; attaching it again makes a new, empty one
    with lake.server.connect(lake.dbname, autocommit=True) as conn:
        notices = []
        conn.add_notice_handler(lambda d: notices.append((d.message_primary, d.message_detail)))
        conn.execute("DROP SCHEMA meta_b CASCADE")
        s.note("DROP SCHEMA meta_b CASCADE", notices)
    with Session(lake, duckdb_offline.connect()) as s:
        attach_all(s)
        s.sql("SELECT count(*) FROM duckdb_tables() WHERE database_name = 'b'")
        s.sql("SELECT snapshot_id, changes FROM ducklake_snapshots('b') ORDER BY ALL")
        s.sql("SELECT count(*), sum(id) FROM a.t")


def nested_types(lake: Lake) -> None:
    rows = "SELECT * FROM lake.n WHERE id < 100 ORDER BY id"
    with lake.session(DATA_INLINING_ROW_LIMIT=10) as s:
        s.sql("CREATE TABLE lake.n (id INTEGER, l INTEGER[], s STRUCT(a INTEGER, b VARCHAR), "
              "m MAP(VARCHAR, INTEGER), ls STRUCT(x DOUBLE, tags VARCHAR[])[])")
        s.sql("INSERT INTO lake.n VALUES "
              "(1, [1, 2, NULL], {'a': 1, 'b': 'x'}, MAP {'k': 1, 'j': NULL}, [{'x': 1.5, 'tags': ['p', 'q']}]), "
              "(2, [], NULL, MAP {}, NULL), (3, NULL, {'a': NULL, 'b': 'it''s'}, NULL, [])")
        s.sql("INSERT INTO lake.n SELECT range, [range, range + 1], {'a': range, 'b': 'v' || range}, "
              "MAP {'k': range}, [{'x': range / 2, 'tags': ['t', NULL]}] FROM range(100, 1100)")
        s.sql(rows)
        s.sql("SELECT count(*), sum(l[2]), max(s.b), sum(m['k']), sum(ls[1].x), "
              "count(*) FILTER (len(l) = 0) FROM lake.n")
        s.sql("SELECT id, s.a, l FROM lake.n WHERE s.a BETWEEN 500 AND 502 ORDER BY id")
        s.sql("UPDATE lake.n SET l = [9], s = {'a': -1, 'b': 'u'} WHERE id IN (2, 1000)")
        s.sql("DELETE FROM lake.n WHERE id = 3 OR id % 100 = 1")
        s.sql("ALTER TABLE lake.n ADD COLUMN s.c DOUBLE")
        s.sql("INSERT INTO lake.n (id, s) VALUES (4, {'a': 4, 'b': 'four', 'c': 0.25})")
        s.sql("SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'lake' "
              "ORDER BY column_index")
    with lake.session() as s:
        s.sql(rows)
        s.sql("SELECT count(*), sum(l[1]), min(s.b), count(s.c) FROM lake.n")
        s.sql("SELECT id, s FROM lake.n AT (VERSION => 3) WHERE id IN (2, 1000) ORDER BY id")


def inlined_types(lake: Lake) -> None:
    rows = "SELECT * FROM lake.t ORDER BY id"
    with lake.session(DATA_INLINING_ROW_LIMIT=100) as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, d DECIMAL(18, 3), h HUGEINT, u UBIGINT, t TINYINT, "
              "f FLOAT, g UUID, b BLOB, tt TIME, tz TIMETZ, ts TIMESTAMP, tstz TIMESTAMPTZ, "
              "tns TIMESTAMP_NS, dt DATE, iv INTERVAL, j JSON, v VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 12345.678, 1180591620717411303424, "
              "18446744073709551615, -128, 1.25, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'ab'::BLOB, "
              "TIME '23:59:59.999999', TIMETZ '10:00:00+05:30', TIMESTAMP '2024-02-29 12:34:56.789', "
              "TIMESTAMPTZ '2024-01-01 00:00:00+00', TIMESTAMP_NS '2024-01-01 00:00:00.123456789', "
              "DATE '1970-01-01', INTERVAL '1 year 2 months 3 days 04:05:06.007', '{\"k\": [1, null]}', "
              "'multi\nline ''quoted'' ünïcode'), "
              "(2, -0.001, -1180591620717411303424, 0, 127, 'NaN', NULL, ''::BLOB, "
              "TIME '00:00:00', TIMETZ '00:00:00-12:00', TIMESTAMP 'infinity', TIMESTAMPTZ '-infinity', NULL, "
              "DATE '0001-01-01', INTERVAL '36 hours', 'null', ''), "
              "(3, NULL, NULL, NULL, NULL, '-inf', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
        assert not lake.parquet_files(), "the rows are inlined into the catalog"
        s.sql("SET TimeZone = 'UTC'")
        s.sql(rows)
        s.sql("SELECT id FROM lake.t WHERE d > 0 OR h < 0 OR tz > TIMETZ '09:00:00+00' ORDER BY id")
        s.sql("UPDATE lake.t SET v = v || '!', d = d * 2 WHERE id < 3")
        s.sql("DELETE FROM lake.t WHERE id = 3")
    with lake.session() as s:
        s.sql("SET TimeZone = 'UTC'")
        s.sql(rows)
        s.sql("CALL ducklake_flush_inlined_data('lake')")
        s.sql(rows)


def rewrite_and_add_files(lake: Lake) -> None:
    info = "SELECT table_name, file_count, delete_file_count FROM ducklake_table_info('lake')"
    totals = "SELECT count(*), sum(id), count(*) FILTER (v = 'added') FROM lake.t"
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t AS SELECT range AS id, 'v' || range AS v FROM range(3000)")
        s.sql("INSERT INTO lake.t SELECT range, 'w' || range FROM range(3000, 4000)")
        s.sql("DELETE FROM lake.t WHERE id % 3 = 0")
        s.sql(info)
        s.sql("CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0)")
        s.sql(info)
        s.sql(totals)
        extra = lake.data_path / "extra.parquet"
        s.quiet(f"COPY (SELECT (range + 5000)::BIGINT AS id, 'added' AS v FROM range(10)) TO '{extra}'")
        s.sql(f"CALL ducklake_add_data_files('lake', 't', '{extra}')")
        s.sql(totals)
        s.sql("SELECT count(*) FROM ducklake_list_files('lake', 't')")
    with lake.session() as s:
        s.sql(totals)
        s.sql("SELECT * FROM lake.t WHERE id > 5005 ORDER BY id")


def set_data_type(lake: Lake) -> None:
    columns = ("SELECT column_name, data_type FROM duckdb_columns() "
               "WHERE database_name = 'lake' AND table_name = 't' ORDER BY column_index")
    with lake.session(DATA_INLINING_ROW_LIMIT=10) as s:
        s.sql("CREATE TABLE lake.t (i TINYINT, j INTEGER, f FLOAT, v VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 10, 0.5, 'a'), (-2, NULL, NULL, 'b')")
        s.sql("INSERT INTO lake.t SELECT range % 100, range, range / 4, 'f' FROM range(100, 200)")
        s.sql("ALTER TABLE lake.t ALTER COLUMN i SET DATA TYPE INTEGER")
        s.sql("ALTER TABLE lake.t ALTER COLUMN j SET DATA TYPE BIGINT")
        s.sql("ALTER TABLE lake.t ALTER COLUMN f SET DATA TYPE DOUBLE")
        s.error("ALTER TABLE lake.t ALTER COLUMN v SET DATA TYPE INTEGER")
        s.error("ALTER TABLE lake.t ALTER COLUMN j SET DATA TYPE INTEGER")
        s.sql("INSERT INTO lake.t VALUES (100000, 9000000000, 1e300, 'big')")
        s.sql(columns)
        s.sql("SELECT * FROM lake.t WHERE i < 0 OR j < 11 OR v = 'big' ORDER BY i")
    with lake.session() as s:
        s.sql(columns)
        s.sql("SELECT count(*), sum(i), sum(j), sum(f) FROM lake.t")
        s.sql("SELECT count(*), sum(i), sum(j), sum(f) FROM lake.t AT (VERSION => 3)")


def attach_options(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER)")
        s.sql("INSERT INTO lake.t VALUES (1)")
        s.sql("INSERT INTO lake.t VALUES (2)")
        s.sql("SELECT option_name, description, value, scope FROM lake.options() "
              "WHERE option_name <> 'data_path' ORDER BY ALL")
    with lake.session(READ_ONLY=True) as s:
        s.sql("SELECT * FROM lake.t ORDER BY id")
        s.error("INSERT INTO lake.t VALUES (3)")
        s.error("CREATE TABLE lake.u (id INTEGER)")
    with lake.session(SNAPSHOT_VERSION=2) as s:
        s.sql("SELECT * FROM lake.t ORDER BY id")
        s.error("INSERT INTO lake.t VALUES (3)")
    with lake.session() as s:
        s.sql("SELECT * FROM lake.t ORDER BY id")
        s.sql("SELECT count(*) FROM ducklake_snapshots('lake')")


@since("1.5")
def variant_values(lake: Lake) -> None:
    rows = "SELECT id, v::VARCHAR, variant_typeof(v) FROM lake.v WHERE id < 100 ORDER BY id"
    with lake.session(DATA_INLINING_ROW_LIMIT=10) as s:
        s.sql("CREATE TABLE lake.v (id INTEGER, v VARIANT)")
        s.sql("INSERT INTO lake.v VALUES (1, 42::VARIANT), (2, 'text'::VARIANT), (3, [1, 2]::VARIANT), "
              "(4, {'a': 1.5, 'b': [true, NULL]}::VARIANT), (5, NULL), (6, DATE '2024-01-01'::VARIANT)")
        s.sql("INSERT INTO lake.v SELECT range, CASE WHEN range % 2 = 0 THEN range::VARIANT "
              "ELSE {'s': 'x' || range}::VARIANT END FROM range(100, 600)")
        s.sql(rows)
        s.sql("SELECT variant_typeof(v), count(*) FROM lake.v GROUP BY ALL ORDER BY ALL")
        s.sql("SELECT count(*) FROM lake.v WHERE v::VARCHAR LIKE '%x13%'")
        s.sql("DELETE FROM lake.v WHERE id IN (2, 101)")
    with lake.session() as s:
        s.sql(rows)
        s.sql("SELECT count(*), count(v) FROM lake.v")


@since("1.5")
def macros(lake: Lake) -> None:
    functions = ("SELECT function_name, function_type, parameters, macro_definition FROM duckdb_functions() "
                 "WHERE database_name = 'lake' ORDER BY ALL")
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t AS SELECT range AS id FROM range(10)")
        s.sql("CREATE MACRO lake.plus(a, b := 1) AS a + b")
        s.sql("CREATE MACRO lake.evens(n) AS TABLE SELECT id FROM lake.t WHERE id % 2 = 0 AND id < n")
        s.sql("SELECT lake.plus(41), lake.plus(1, b := 2)")
        s.sql("SELECT * FROM lake.evens(7) ORDER BY id")
        s.sql(functions)
    with lake.session() as s:
        s.sql(functions)
        s.sql("SELECT lake.plus(1, 1), (SELECT count(*) FROM lake.evens(100))")
        s.sql("CREATE OR REPLACE MACRO lake.plus(a) AS a * 100")
        s.sql("SELECT lake.plus(3)")
        s.sql("DROP MACRO lake.plus")
        s.error("SELECT lake.plus(3)")
        s.sql(functions)
    with lake.session() as s:
        s.sql(functions)
        s.sql("DROP MACRO TABLE lake.evens")
        s.sql(functions)


@since("1.5")
def sorted_by(lake: Lake) -> None:
    sort = ("SELECT i.table_id, e.sort_key_index, e.expression, e.sort_direction, e.null_order "
            "FROM __ducklake_metadata_lake.public.ducklake_sort_info i "
            "JOIN __ducklake_metadata_lake.public.ducklake_sort_expression e USING (sort_id) "
            "WHERE i.end_snapshot IS NULL ORDER BY ALL")
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, g VARCHAR)")
        s.sql("ALTER TABLE lake.t SET SORTED BY (g ASC, id DESC)")
        s.sql(sort)
        s.sql("INSERT INTO lake.t SELECT range, 'g' || (range % 5) FROM range(1000)")
        (path,) = lake.parquet_files()
        s.note("first rows of the file", s.quiet(f"SELECT * FROM '{path}' LIMIT 3"))
        s.sql("ALTER TABLE lake.t SET SORTED BY (id)")
        s.sql(sort)
        s.sql("ALTER TABLE lake.t RESET SORTED BY")
        s.sql(sort)
    with lake.session() as s:
        s.sql("SELECT g, count(*), min(id), max(id) FROM lake.t GROUP BY g ORDER BY g")


@since("1.5")
def settings(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("SELECT * FROM ducklake_settings('lake')")
        s.sql("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 7)")
        s.sql("SELECT option_name, description, value, scope FROM lake.options() "
              "WHERE option_name <> 'data_path' ORDER BY ALL")
        s.sql("SELECT option_name, value, scope FROM ducklake_options('lake') "
              "WHERE option_name <> 'data_path' ORDER BY ALL")


SCENARIOS = [
    attach_new_and_existing,
    schemas_tables_views,
    small_inlined_dml,
    inlined_decimals,
    large_parquet_dml,
    alter_table,
    comments_and_tags,
    partitioned_table,
    add_data_files_partitioned,
    metadata_scan_order,
    time_travel_and_snapshots,
    maintenance,
    restart_mid_workload,
    two_writers,
    two_lakes_in_one_database,
    nested_types,
    inlined_types,
    rewrite_and_add_files,
    set_data_type,
    attach_options,
    variant_values,
    macros,
    sorted_by,
    settings,
]


def cases() -> list:
    return [pytest.param(scenario, backend, id=f"{scenario.__name__}-{backend}")
            for scenario in SCENARIOS for backend in ("postgres", "rocklake")
            if duckdb_offline.at_least(getattr(scenario, "since", "1.4"))]


@pytest.mark.parametrize(("scenario", "backend"), cases())
def test_scenario(scenario, backend, run_scenario):
    run_scenario(scenario, backend)
