"""rocklake-admin publish: the DuckLake 0.3 catalog of a DuckLake 1.0 lake (doc/publishing.md).

A lake made by DuckDB 1.5.5 (DuckLake 1.0) on RockLake, with inlined rows, Parquet
files, deletes of both kinds spread over snapshots, a column renamed and one added and
a view, is published twice to a local directory. Each version has catalogs/0.3.duckdb
beside its 1.0 catalog, and DuckDB 1.4.4 opens it read-only with the data path
overridden: every table, and the view, equal the live lake's at the version's snapshot
read by DuckDB 1.5.5, and time travel in the 0.3 copy to every earlier snapshot reads
what the 1.0 copy reads there with 1.5.5. Its schema versions are those DuckDB 1.4.4
writes for the same statements on a 0.3 lake. A lake that uses a macro, a sort order, a
VARIANT column or a default that is an expression gets no 0.3 catalog, and its 1.0 version still reads as the live lake.

As test_publish.py (whose helpers it uses), it runs once, in the run of either client.
"""

from test_publish import (LocalRepo, check_rows, check_version, client, frozen_attach, live_snapshot, new_lake,
                          publish, pytestmark)  # noqa: F401 (pytestmark: the same skip)

STEPS = [
    ["CREATE TABLE lake.t (a INTEGER, b VARCHAR)",
     "INSERT INTO lake.t VALUES (1, 'one'), (2, 'two')",
     "INSERT INTO lake.t SELECT i, 'big' || i FROM range(100, 400) r(i)",
     "CREATE VIEW lake.w AS SELECT a FROM lake.t WHERE a < 10",
     "CREATE TABLE lake.keep (k INTEGER)",
     "INSERT INTO lake.keep VALUES (7)"],
    # deletes of the same file and of inlined rows at several snapshots
    ["DELETE FROM lake.t WHERE a IN (2, 150)",
     "ALTER TABLE lake.t RENAME COLUMN b TO label",
     # a literal default: older rows read it as their value
     "ALTER TABLE lake.t ADD COLUMN c DOUBLE DEFAULT 0.5",
     "INSERT INTO lake.t VALUES (3, 'three', 3.5)",
     "DELETE FROM lake.t WHERE a IN (1, 151)",
     "INSERT INTO lake.t VALUES (4, 'four', NULL)",
     "DELETE FROM lake.t WHERE a IN (3, 152)"],
]
TABLES = ["t", "keep"]


def read(release: str, attach: str, queries: list[str]) -> list:
    out = client(release, attach, queries)
    assert not any(isinstance(r, str) for r in out), out
    return out


def test_0_3_catalog_of_a_1_0_lake(rocklake_server, tmp_path):
    dsn, data, attach = new_lake(rocklake_server, tmp_path, "publish03of10")
    repo = tmp_path / "repo"
    ids, snapshots, statements = [], [], []
    for step in STEPS:
        read("1.5.5", attach, step)
        statements += step
        snapshots.append(live_snapshot(dsn))
        ids.append(publish(dsn, str(repo)))
    # the same statements on a 0.3 lake: its schema versions are what 1.4.4 writes
    (tmp_path / "ref").mkdir()
    attach14 = new_lake(rocklake_server, tmp_path / "ref", "publish03ref")[2]
    read("1.4.4", attach14, statements)
    expected_versions = read("1.4.4", attach14, [
        "SELECT begin_snapshot, schema_version FROM __ducklake_metadata_lake.ducklake_schema_versions ORDER BY ALL"])[0]
    for vid, snapshot in zip(ids, snapshots):
        v = check_version(LocalRepo(repo), vid)
        assert v["ducklake"]["format"] == "1.0"
        # catalog.storage holds: DuckDB 1.4.4 opens the 1.0 catalog file as a database
        assert v["catalog"]["storage"] == "duckdb-v1.4.0"
        for catalog in ("ducklake.duckdb", "catalogs/1.0.duckdb"):
            assert read("1.4.4", f"ATTACH '{repo}/versions/{vid}/{catalog}' AS f (READ_ONLY)", [
                "SELECT value FROM f.ducklake_metadata WHERE key = 'version'"])[0] == [["'1.0'"]], catalog
        assert (repo / "versions" / vid / "catalogs" / "0.3.duckdb").exists()
        queries = [f"SELECT * FROM v.{t} ORDER BY ALL" for t in TABLES] + ["SELECT * FROM v.w ORDER BY ALL"]
        frozen = read("1.4.4", frozen_attach(repo, vid, "catalogs/0.3.duckdb"), queries + [
            "SELECT value FROM __ducklake_metadata_v.ducklake_metadata WHERE key = 'version'",
            "SELECT count(*) FROM __ducklake_metadata_v.ducklake_inlined_data_tables",
            "SELECT begin_snapshot, schema_version FROM __ducklake_metadata_v.ducklake_schema_versions ORDER BY ALL"])
        live = read("1.5.5", attach, [q.replace("v.", "lake.").replace(" ORDER", f" AT (VERSION => {snapshot}) ORDER")
                                      for q in queries])
        assert frozen[:len(queries)] == live
        assert frozen[-3:-1] == [[["'0.3'"]], [["0"]]]
        assert frozen[-1] == [r for r in expected_versions if int(r[0]) <= snapshot]
    # time travel in the last version: the 0.3 copy (1.4.4) reads what the 1.0 copy (1.5.5) does
    vid = ids[-1]
    travel = [f"SELECT * FROM v.t AT (VERSION => {n}) ORDER BY ALL" for n in range(1, snapshots[-1] + 1)]
    old = client("1.4.4", frozen_attach(repo, vid, "catalogs/0.3.duckdb"), travel)
    new = client("1.5.5", frozen_attach(repo, vid, "catalogs/1.0.duckdb"), travel)
    assert not any(isinstance(r, str) for r in new), new
    for n, (a, b) in enumerate(zip(old, new), start=1):
        assert a == b, (n, a, b)
    # every file the 0.3 catalog refers to is in the data folder, with the catalog's size
    files = read("1.4.4", frozen_attach(repo, vid, "catalogs/0.3.duckdb"), [
        "SELECT s.path || t.path || f.path, f.file_size_bytes FROM __ducklake_metadata_v.ducklake_delete_file f "
        "JOIN __ducklake_metadata_v.ducklake_table t USING (table_id) "
        "JOIN __ducklake_metadata_v.ducklake_schema s USING (schema_id)"])[0]
    assert files
    for path, size in files:
        assert (repo / "data" / eval(path)).stat().st_size == int(size), path


def test_no_0_3_catalog(rocklake_server, tmp_path):
    """What DuckLake 0.3 cannot hold: no 0.3 catalog, and the 1.0 one as ever."""
    cases = {
        "macro": ["CREATE MACRO lake.plus_one(x) AS x + 1"],
        "sorted": ["ALTER TABLE lake.t SET SORTED BY (a)"],
        "variant": ["CREATE TABLE lake.doc (id INTEGER, body VARIANT)",
                    "INSERT INTO lake.doc VALUES (1, 42::VARIANT)"],
        # the type alone, with no statistics of it
        "varianttype": ["CREATE TABLE lake.doc (body VARIANT)"],
        # a default 0.3 cannot hold: an expression
        "expression": ["CREATE TABLE lake.stamped (a INTEGER, made TIMESTAMP DEFAULT now())"],
    }
    for name, statements in cases.items():
        (tmp_path / name).mkdir()
        dsn, data, attach = new_lake(rocklake_server, tmp_path / name, f"publish03no{name}")
        read("1.5.5", attach, ["CREATE TABLE lake.t (a INTEGER)", "INSERT INTO lake.t VALUES (2), (1)"] + statements)
        repo = tmp_path / name / "repo"
        vid = publish(dsn, str(repo))
        check_version(LocalRepo(repo), vid)
        assert not (repo / "versions" / vid / "catalogs" / "0.3.duckdb").exists(), name
        check_rows("1.5.5", attach, repo, vid, "catalogs/1.0.duckdb", live_snapshot(dsn), ["main.t"])

