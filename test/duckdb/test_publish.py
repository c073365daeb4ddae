"""rocklake-admin publish (doc/publishing.md): frozen versions of a live lake (FDL 0.1).

A lake with inlined rows, Parquet files, deletes and schema changes (a column added,
renamed, dropped; a table added) is published three times, to a local directory and to
versitygw (a real S3 server), and each version is checked as a reader would:
- version.json has every field FDL 0.1 requires, and every size and sha256 it gives is
  the file's; its seq, parents and changes follow the versions before it;
- stock DuckDB opens the version's catalog read-only with its data path overridden to
  the published data folder, and every table's rows equal the live lake's read through
  RockLake AT (VERSION => the version's snapshot); the catalog has no inlined row, and
  every file it refers to is under the data folder with the catalog's size;
- files.json lists each table's files at the snapshot.
A DuckLake 0.3 lake (DuckDB 1.4.4, inlining on) gets a 0.3 catalog that 1.4.4 reads and
a 1.0 one (migrated by 1.5.5) that 1.5.5 reads. The server refuses to expire a published
snapshot (55000, naming the version) until the version is unpinned, and then expires as
PostgreSQL 15 does. A publisher killed (SIGKILL) at random points never leaves a folder a
reader takes for a version; one killed just after it pinned its snapshot blocks the
snapshot's expiry until `rocklake-admin withdraw --server` of its incomplete version,
which `rocklake-admin versions --server` lists. The versions on S3 are read in place by
stock DuckDB (its httpfs extension and an S3 secret), 1.5.5 and, for a 0.3 lake, 1.4.4.

Each DuckDB release runs in a process of its own virtualenv (lake_client.py), so the
test runs once, in the run of either client (it is not marked "duckdb").
"""

import hashlib
import json
import os
import pathlib
import random
import re
import signal
import socket
import subprocess
import time

import psycopg
import pytest

from servers import HERE, TOP_BUILDDIR, TOP_SRCDIR

PYTHON = {"1.4.4": TOP_SRCDIR / ".venv" / "bin" / "python",
          "1.5.5": TOP_SRCDIR / ".venv-duckdb15" / "bin" / "python"}
ADMIN = TOP_BUILDDIR / "rocklake-admin"
VERSITYGW = TOP_SRCDIR / ".cache" / "bin" / "versitygw"
UUID7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def duckdb_dir_ready() -> bool:
    root = pathlib.Path(os.environ.get("ROCKLAKE_DUCKDB_DIR", "/usr/local/lib/rocklake/duckdb"))
    return all((root / release / "libduckdb.so").exists() for release in ("v1.4.4", "v1.5.5"))


pytestmark = pytest.mark.skipif(not duckdb_dir_ready() and not os.environ.get("CI"),
                                reason="DuckDB for publishing not installed (contrib/install-deps.sh)")


def client(release: str, attach: str, statements: list[str]) -> list:
    """Run statements in DuckDB release after attach; the rows (repr'd) or error of each."""
    out = subprocess.run([str(PYTHON[release]), str(HERE / "lake_client.py")],
                         input=json.dumps({"attach": attach, "statements": statements}),
                         capture_output=True, text=True, timeout=600, check=True)
    results = json.loads(out.stdout)
    assert not isinstance(results[0][1], str), results[0]
    return [r[1] for r in results[1:]]


def new_lake(server, tmp_path: pathlib.Path, name: str, **options) -> tuple[str, pathlib.Path, str]:
    """A new database of server for a lake: its DSN, its data folder, DuckDB's ATTACH of it."""
    dsn = server.dsn(server.create_database(name))
    data = tmp_path / f"live_{server.kind}"
    data.mkdir()
    extra = "".join(f", {k} {v}" for k, v in options.items())
    return dsn, data, f"ATTACH 'ducklake:postgres:{dsn}' AS lake (DATA_PATH '{data}/'{extra})"


def publish(dsn: str, repo: str, *args: str, env: dict | None = None) -> str:
    """Publish; the new version's id."""
    out = subprocess.run([str(ADMIN), "publish", "--server", dsn, "--repo", repo, *args],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    found = re.match(r"published version (\S+): ", out.stdout)
    assert found, out.stdout
    return found.group(1)


class LocalRepo:
    """A repository in a directory, read as files."""

    def __init__(self, root: pathlib.Path):
        self.root, self.url = root, str(root)

    def read(self, key: str) -> bytes:
        return (self.root / key).read_bytes()

    def names(self, prefix: str) -> list[str]:
        return sorted(p.name for p in (self.root / prefix).iterdir())


class S3Repo:
    """A repository under prefix of versitygw's bucket "repo", read as objects."""

    def __init__(self, s3, prefix: str):
        self.s3, self.prefix, self.url = s3, prefix, f"s3://repo/{prefix}"

    def read(self, key: str) -> bytes:
        return self.s3.get_object(Bucket="repo", Key=f"{self.prefix}/{key}")["Body"].read()

    def names(self, prefix: str) -> list[str]:
        out = self.s3.list_objects_v2(Bucket="repo", Prefix=f"{self.prefix}/{prefix}/")
        return sorted(o["Key"].rsplit("/", 1)[1] for o in out.get("Contents", []))


def s3_secret(env: dict) -> str:
    """DuckDB's secret to read versitygw, as a reader of a repository on S3 writes it."""
    host = env["AWS_ENDPOINT_URL"].removeprefix("http://")
    return (f"CREATE SECRET repo_s3 (TYPE s3, KEY_ID '{env['AWS_ACCESS_KEY_ID']}', "
            f"SECRET '{env['AWS_SECRET_ACCESS_KEY']}', ENDPOINT '{host}', URL_STYLE 'path', "
            f"USE_SSL false, REGION '{env['AWS_REGION']}')")


def complete_versions(repo: pathlib.Path) -> dict:
    """The versions a reader sees: folders of versions/ that have version.json."""
    folders = sorted((repo / "versions").iterdir()) if (repo / "versions").exists() else []
    return {f.name: json.loads((f / "version.json").read_text()) for f in folders if (f / "version.json").exists()}


def check_version(repo: LocalRepo | S3Repo, vid: str, data_dir: str = "data") -> dict:
    """Every must field, every size and sha256, every file of files.json; version.json."""
    folder = f"versions/{vid}"
    v = json.loads(repo.read(f"{folder}/version.json"))
    assert v["fdl"] == "0.1" and v["id"] == vid and UUID7.match(vid)
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", v["created_at"])
    assert v["author"]["name"] and v["message"]
    assert v["catalog"]["storage"].startswith("duckdb-v")
    for field in ("catalog", "dataset", "files"):
        data = repo.read(f"{folder}/{v[field]['path']}")
        assert len(data) == v[field]["bytes"], field
        assert hashlib.sha256(data).hexdigest() == v[field]["sha256"], field
    assert v["ducklake"]["format"] in ("0.3", "1.0")
    first, last = v["ducklake"]["snapshots"]
    assert first <= last == v["ducklake"]["snapshot_id"]
    catalogs = repo.names(f"{folder}/catalogs")
    assert "1.0.duckdb" in catalogs
    # a 1.0 lake's version has a 0.3 catalog too where 0.3 can hold it (test_publish_03.py)
    assert v["ducklake"]["format"] == "1.0" or "0.3.duckdb" in catalogs
    dataset = json.loads(repo.read(f"{folder}/dataset.json"))
    assert dataset["name"] and dataset["title"]
    files = json.loads(repo.read(f"{folder}/files.json"))
    for table, entry in files["tables"].items():
        assert re.match(r"^\w+\.\w+$", table)
        for f in entry["files"]:
            for part in (f, f.get("deletes")):
                if part:
                    assert len(repo.read(f"{data_dir}/{part['path']}")) == part["bytes"], part["path"]
    return v


def frozen_attach(repo: str, vid: str, catalog: str, data_dir: str = "data") -> str:
    """A reader's ATTACH of a version at repo, a directory or s3:// URL."""
    return (f"ATTACH 'ducklake:{repo}/versions/{vid}/{catalog}' AS v "
            f"(READ_ONLY, DATA_PATH '{repo}/{data_dir}/', OVERRIDE_DATA_PATH true)")


def check_rows(release: str, live_attach: str, repo: str, vid: str, catalog: str,
               snapshot: int, tables: list[str], data_dir: str = "data", secret: str | None = None) -> str:
    """Each table of the version equals the live lake's at its snapshot, in release; the
    version's recorded data path. secret: a CREATE SECRET the reader runs first (S3)."""
    statements = ([secret] if secret else []) + [frozen_attach(repo, vid, catalog, data_dir)]
    setup = len(statements)
    for t in tables:
        statements += [f"SELECT * FROM v.{t} ORDER BY ALL",
                       f"SELECT * FROM lake.{t} AT (VERSION => {snapshot}) ORDER BY ALL"]
    # the frozen catalog: no inlined rows, every file relative to the data path
    statements += ["SELECT count(*) FROM __ducklake_metadata_v.ducklake_inlined_data_tables",
                   "SELECT count(*) FROM __ducklake_metadata_v.ducklake_data_file WHERE NOT path_is_relative",
                   "SELECT value FROM __ducklake_metadata_v.ducklake_metadata WHERE key = 'data_path'",
                   "SELECT max(snapshot_id) FROM __ducklake_metadata_v.ducklake_snapshot"]
    out = client(release, live_attach, statements)
    assert not any(isinstance(r, str) for r in out[:setup]), out[:setup]
    for i, t in enumerate(tables):
        frozen, live = out[setup + 2 * i], out[setup + 1 + 2 * i]
        assert not isinstance(frozen, str) and frozen == live, (t, frozen, live)
    inlined, absolute, data_path, newest = out[-4:]
    assert inlined == [["0"]] and absolute == [["0"]]
    assert eval(data_path[0][0]).endswith(f"/{data_dir}/")
    assert newest == [[repr(snapshot)]]
    return eval(data_path[0][0])


def live_snapshot(dsn: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute("SELECT max(snapshot_id) FROM ducklake_snapshot").fetchone()[0]


# the three steps of the 1.0 lake: inlined rows and a file, then a column added and one
# renamed with inlined rows and deletes of both kinds, then a column dropped and a table added
STEPS = [
    ["CREATE TABLE lake.t (a INTEGER, b VARCHAR)",
     "INSERT INTO lake.t VALUES (1, 'one'), (2, 'two')",
     "INSERT INTO lake.t SELECT i, 'big' || i FROM range(100, 400) r(i)",
     "CREATE TABLE lake.keep (k INTEGER)",
     "INSERT INTO lake.keep VALUES (7)"],
    ["ALTER TABLE lake.t ADD COLUMN c DOUBLE",
     "INSERT INTO lake.t VALUES (3, 'three', 3.5)",
     "DELETE FROM lake.t WHERE a IN (2, 150)",
     "ALTER TABLE lake.t RENAME COLUMN b TO label",
     "INSERT INTO lake.t VALUES (4, 'four', NULL)"],
    ["ALTER TABLE lake.t DROP COLUMN c",
     "CREATE TABLE lake.extra AS SELECT 1 AS x, 'y' AS y",
     "INSERT INTO lake.t VALUES (5, 'five')",
     "UPDATE lake.t SET label = 'ONE' WHERE a = 1"],
]
EXPECTED_CHANGES = [
    None,
    [{"table": "main.t", "kind": "rename_column", "column": "label", "from": "b", "breaking": True},
     {"table": "main.t", "kind": "add_column", "column": "c", "breaking": False}],
    [{"table": "main.t", "kind": "drop_column", "column": "c", "breaking": True},
     {"table": "main.extra", "kind": "add_table", "breaking": False}],
]


@pytest.fixture
def versitygw(tmp_path):
    """A versitygw on a free port with a bucket "repo"; the environment to reach it."""
    if not VERSITYGW.exists():
        pytest.fail(f"{VERSITYGW} not found (run contrib/install-deps.sh --test)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = tmp_path / "s3root"
    root.mkdir()
    env = dict(os.environ, AWS_ACCESS_KEY_ID="publishkey", AWS_SECRET_ACCESS_KEY="publishsecret",
               AWS_REGION="us-east-1", AWS_ENDPOINT_URL=f"http://127.0.0.1:{port}", ROCKLAKE_S3_PATH_STYLE="1")
    proc = subprocess.Popen([str(VERSITYGW), "--access", "publishkey", "--secret", "publishsecret",
                             "--port", f"127.0.0.1:{port}", "--quiet", "posix", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import boto3
    s3 = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id="publishkey",
                      aws_secret_access_key="publishsecret", region_name="us-east-1")
    for _ in range(100):
        try:
            s3.create_bucket(Bucket="repo")
            break
        except Exception:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("versitygw did not start")
    yield env, s3
    proc.kill()
    proc.wait()


def test_publish_three_versions(rocklake_server, tmp_path, versitygw):
    env, s3 = versitygw
    dsn, data, attach = new_lake(rocklake_server, tmp_path, "publish10")
    repo = tmp_path / "repo"
    local_ids, s3_ids, snapshots = [], [], []
    for step, statements in enumerate(STEPS):
        out = client("1.5.5", attach, statements)
        assert not any(isinstance(r, str) for r in out), out
        snapshots.append(live_snapshot(dsn))
        local_ids.append(publish(dsn, str(repo), "--author", "tester", "--message", f"step {step}"))
        s3_ids.append(publish(dsn, "s3://repo/lake", "--message", f"step {step}", env=env))
    # the live lake still has no more snapshots than its own commits made
    assert live_snapshot(dsn) == snapshots[-1]
    versions = complete_versions(repo)
    assert sorted(versions) == sorted(local_ids)
    tables = [["main.keep", "main.t"], ["main.keep", "main.t"], ["main.extra", "main.keep", "main.t"]]
    for i, vid in enumerate(local_ids):
        v = check_version(LocalRepo(repo), vid)
        assert v["seq"] == i + 1 and v["parents"] == ([] if i == 0 else [local_ids[i - 1]])
        assert v["author"] == {"name": "tester"} and v["message"] == f"step {i}"
        assert v["ducklake"]["format"] == "1.0" and v["ducklake"]["snapshot_id"] == snapshots[i]
        assert v["ducklake"]["snapshots"][0] == (0 if i == 0 else snapshots[i - 1] + 1)
        assert v.get("changes") == EXPECTED_CHANGES[i], v.get("changes")
        files = json.loads((repo / "versions" / vid / "files.json").read_text())
        assert sorted(files["tables"]) == tables[i]
        assert files["tables"]["main.t"].get("renamed_columns", False) == (i > 0)
        assert any("deletes" in f for f in files["tables"]["main.t"]["files"]) == (i > 0)
        for catalog in ("ducklake.duckdb", "catalogs/1.0.duckdb"):
            check_rows("1.5.5", attach, str(repo), vid, catalog, snapshots[i], tables[i])
        # DuckDB 1.4.4 knows DuckLake 0.3 only: a 1.0 version has no catalog it opens
        out = client("1.4.4", "SELECT 1", [frozen_attach(str(repo), vid, "catalogs/1.0.duckdb")])
        assert isinstance(out[0], str), out
    # the same versions on S3, read there by DuckDB
    s3repo = S3Repo(s3, "lake")
    for i, vid in enumerate(s3_ids):
        v = check_version(s3repo, vid)
        assert v["seq"] == i + 1 and v.get("changes") == EXPECTED_CHANGES[i]
        for catalog in ("ducklake.duckdb", "catalogs/1.0.duckdb"):
            data_path = check_rows("1.5.5", attach, s3repo.url, vid, catalog, snapshots[i], tables[i],
                                   secret=s3_secret(env))
            assert data_path == "s3://repo/lake/data/"
    # republishing copies no file of the live lake again: only the flush's new files of
    # the inlined rows, which each version writes anew
    before = {p.relative_to(repo / "data") for p in (repo / "data").rglob("*.parquet")}
    vid = publish(dsn, str(repo))
    added = {p.relative_to(repo / "data") for p in (repo / "data").rglob("*.parquet")} - before
    live_files = {p.relative_to(data) for p in data.rglob("*.parquet")}
    assert added and not added & live_files
    assert check_version(LocalRepo(repo), vid)["changes"] == []


def test_publish_ducklake_0_3(rocklake_server, tmp_path, versitygw):
    """A 0.3 lake: ducklake.duckdb and catalogs/0.3.duckdb by 1.4.4, catalogs/1.0.duckdb by 1.5.5,
    in a directory and on S3."""
    env, s3 = versitygw
    dsn, data, attach = new_lake(rocklake_server, tmp_path, "publish03", DATA_INLINING_ROW_LIMIT=10)
    repo = tmp_path / "repo"
    out = client("1.4.4", attach, [
        # (the view first: DuckDB 1.4.4's own flush of inlined rows fails, on any server, on
        # a table whose inlined rows precede a schema change of another object, such as
        # this view's: doc/publishing.md, "Limits")
        "CREATE TABLE lake.t (a INTEGER, b VARCHAR)",
        "CREATE VIEW lake.w AS SELECT a FROM lake.t WHERE a < 10",
        "INSERT INTO lake.t VALUES (1, 'one'), (2, 'two')",
        "INSERT INTO lake.t SELECT i, 'big' || i FROM range(100, 300) r(i)",
        "DELETE FROM lake.t WHERE a IN (2, 150)",
        "ALTER TABLE lake.t RENAME COLUMN b TO label",
        "INSERT INTO lake.t VALUES (3, 'three')"])
    assert not any(isinstance(r, str) for r in out), out
    snapshot = live_snapshot(dsn)
    # 1.5.5 reads the migrated catalog; the live 0.3 lake it would migrate is read by 1.4.4
    live = client("1.4.4", attach, [f"SELECT * FROM lake.t AT (VERSION => {snapshot}) ORDER BY ALL"])[0]
    for reader, vid, secret in ((LocalRepo(repo), publish(dsn, str(repo)), None),
                                (S3Repo(s3, "lake03"), publish(dsn, "s3://repo/lake03", env=env), s3_secret(env))):
        v = check_version(reader, vid)
        assert v["ducklake"]["format"] == "0.3" and v["seq"] == 1 and v["parents"] == []
        for catalog in ("ducklake.duckdb", "catalogs/0.3.duckdb"):
            check_rows("1.4.4", attach, reader.url, vid, catalog, snapshot, ["main.t"], secret=secret)
        out = client("1.5.5", secret or "SELECT 1", [
            frozen_attach(reader.url, vid, "catalogs/1.0.duckdb"), "SELECT * FROM v.t ORDER BY ALL",
            "SELECT view_name FROM duckdb_views() WHERE database_name = 'v' AND NOT internal",
            "SELECT value FROM __ducklake_metadata_v.ducklake_metadata WHERE key = 'version'"])
        assert out[0] == [] and out[1] == live and out[2] == [["'w'"]] and out[3] == [["'1.0'"]], out


def test_expiry_guard(rocklake_server, postgres_server, tmp_path):
    """A published snapshot cannot be expired until unpinned; then expiry is PostgreSQL's."""
    results = {}
    for server in (postgres_server, rocklake_server):
        dsn, data, attach = new_lake(server, tmp_path, "publishguard")
        client("1.5.5", attach, ["CREATE TABLE lake.t (a INTEGER)", "INSERT INTO lake.t VALUES (1)",
                                 "INSERT INTO lake.t VALUES (2)"])
        pinned = live_snapshot(dsn)
        statements = ["INSERT INTO lake.t VALUES (3)",
                      f"CALL ducklake_expire_snapshots('lake', versions => [{pinned}])"]
        if server.kind == "rocklake":
            vid = publish(dsn, str(tmp_path / "repo"))
            out = client("1.5.5", attach, statements)
            assert isinstance(out[1], str) and f"cannot expire snapshot {pinned}" in out[1] and vid in out[1], out
            with psycopg.connect(dsn, autocommit=True) as conn:
                with pytest.raises(psycopg.Error) as e:
                    conn.execute("DELETE FROM ducklake_snapshot WHERE snapshot_id = %s", (pinned,))
                assert e.value.sqlstate == "55000" and vid in str(e.value)
                # not inside a transaction block; a version id is a UUID; superusers only
                with pytest.raises(psycopg.Error) as e:
                    conn.execute("SELECT rocklake_publish_unpin('not-a-version')")
                assert e.value.sqlstate == "22P02"
                conn.execute("BEGIN")
                with pytest.raises(psycopg.Error) as e:
                    conn.execute("SELECT rocklake_publish_unpin(%s)", (vid,))
                assert e.value.sqlstate == "25001"
                conn.execute("ROLLBACK")
                assert conn.execute("SELECT rocklake_publish_unpin(%s)", (vid,)).fetchone() == (True,)
                assert conn.execute("SELECT rocklake_publish_unpin(%s)", (vid,)).fetchone() == (False,)
            statements = statements[1:]
        out = client("1.5.5", attach, statements + [
            "SELECT snapshot_id FROM lake.snapshots() ORDER BY ALL", "SELECT * FROM lake.t ORDER BY ALL"])
        # the expired snapshots' times differ between the servers
        results[server.kind] = [r if isinstance(r, str) else [[c for c in row if "datetime" not in c] for row in r]
                                for r in out[-3:]]
    assert results["rocklake"] == results["postgres"]


def admin(*args: str, code: int = 0) -> str:
    """rocklake-admin with args, which must exit with code; what it printed."""
    out = subprocess.run([str(ADMIN), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == code, out
    return out.stdout + out.stderr


def server_pins(dsn: str) -> dict:
    """The pins of dsn's database: {version id: snapshot}."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return {p["version_id"]: p["snapshot_id"]
                for p in conn.execute("SELECT rocklake_publish_pins()").fetchone()[0]}


def test_publisher_killed(rocklake_server, tmp_path):
    """kill -9 at random points: a reader only ever sees whole versions, and seq goes on;
    a pin left by a killed publisher is listed, withdrawn, and then expiry goes on."""
    dsn, data, attach = new_lake(rocklake_server, tmp_path, "publishkill")
    repo = tmp_path / "repo"
    client("1.5.5", attach, ["CREATE TABLE lake.t AS SELECT i, 'v' || i AS v FROM range(1000) r(i)",
                             "INSERT INTO lake.t VALUES (-1, 'inlined')"])
    rng = random.Random(int(os.environ.get("RL_PUBLISH_SEED", time.time())))
    # how long a whole publish takes, to kill within it
    start = time.monotonic()
    publish(dsn, str(repo))
    whole = time.monotonic() - start
    kills = 0
    # a killed publisher leaves its work directory: in the test's own folder
    work = tmp_path / "work"
    work.mkdir()
    for _ in range(6):
        proc = subprocess.Popen([str(ADMIN), "publish", "--server", dsn, "--repo", str(repo)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TMPDIR=str(work)))
        time.sleep(rng.uniform(0, whole))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.communicate()
        versions = complete_versions(repo)
        for vid in versions:
            check_version(LocalRepo(repo), vid)
        assert sorted(v["seq"] for v in versions.values()) == list(range(1, len(versions) + 1))
    assert kills > 0
    # one killed just after it pinned the snapshot it publishes (seen in the server's
    # pins): its version never completes, and its pin blocks the snapshot's expiry
    client("1.5.5", attach, ["INSERT INTO lake.t VALUES (-2, 'pinned')"])
    pinned = live_snapshot(dsn)
    known = server_pins(dsn)
    proc = subprocess.Popen([str(ADMIN), "publish", "--server", dsn, "--repo", str(repo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TMPDIR=str(work)))
    new = {}
    while not new and proc.poll() is None:
        new = {v: snap for v, snap in server_pins(dsn).items() if v not in known}
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert new, "the publisher finished before its pin was seen"
    [(stale, snap)] = new.items()
    assert snap == pinned and stale not in complete_versions(repo)
    # its work directory is named by its version
    assert list(work.glob(f"rocklake-publish-{stale}.*"))
    client("1.5.5", attach, ["INSERT INTO lake.t VALUES (-3, 'later')"])
    expire = f"CALL ducklake_expire_snapshots('lake', versions => [{pinned}])"
    out = client("1.5.5", attach, [expire])
    assert isinstance(out[0], str) and f"cannot expire snapshot {pinned}" in out[0] and stale in out[0], out
    # versions --server: each version's pin, then the pins of no complete version
    listing = admin("versions", str(repo), "--server", dsn)
    for vid, v in complete_versions(repo).items():
        assert re.search(rf"^{vid} .* published +{v['ducklake']['snapshot_id']}$", listing, re.M), listing
    assert f"pin of snapshot {pinned} by {stale}: no complete version here" in listing, listing
    left = re.findall(r"^pin of snapshot \d+ by (\S+): no complete version here", listing, re.M)
    assert stale in left and not set(left) & set(complete_versions(repo))
    # withdrawing each: its pin goes, and its folder keeps only expired.json; again: nothing to do
    for vid in left:
        out = admin("withdraw", str(repo), vid, "--server", dsn)
        assert "removed the server's pin of snapshot" in out, out
        folder = repo / "versions" / vid
        assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == ["expired.json"], out
        assert json.loads((folder / "expired.json").read_text())["reason"] == "withdrawn"
        assert "the server holds no pin of version" in admin("withdraw", str(repo), vid, "--server", dsn)
    assert set(server_pins(dsn)) <= set(complete_versions(repo))
    out = admin("withdraw", str(repo), "019a7000-0000-7000-8000-000000000000", "--server", dsn, code=1)
    assert "is not in the repository (nothing under versions/" in out, out
    # the expiry the pin blocked now succeeds
    out = client("1.5.5", attach, [expire, f"SELECT count(*) FROM lake.snapshots() WHERE snapshot_id = {pinned}"])
    assert not isinstance(out[0], str) and out[1] == [["0"]], out
    before = complete_versions(repo)
    vid = publish(dsn, str(repo))
    assert complete_versions(repo)[vid]["seq"] == len(before) + 1
    # expire --server unpins a complete version; a server it cannot reach changes nothing
    assert server_pins(dsn)[vid] == live_snapshot(dsn)
    out = admin("expire", str(repo), vid, "--server", "host=127.0.0.1 port=1 dbname=x", code=1)
    assert "could not connect to the server" in out and not (repo / "versions" / vid / "expired.json").exists()
    out = admin("expire", str(repo), vid, "--server", dsn)
    assert f"removed the server's pin of snapshot {live_snapshot(dsn)}" in out, out
    assert vid not in server_pins(dsn)


def test_publish_refusals(rocklake_server, tmp_path):
    """Clean messages, exit 1 (2 for usage), and nothing published."""
    dsn, data, attach = new_lake(rocklake_server, tmp_path, "publishbad")
    repo = str(tmp_path / "repo")
    cases = [
        ([], 2, "Usage: rocklake-admin publish"),
        (["--server", rocklake_server.dsn("postgres"), "--repo", repo], 1,
         'database "postgres" holds no DuckLake catalog in schema "public"'),
        (["--server", "host=127.0.0.1 port=1 dbname=x", "--repo", repo], 1, "could not connect to the server"),
        (["--server", dsn, "--repo", repo, "--snapshot", "x"], 2, '--snapshot takes a snapshot id, not "x"'),
        (["--server", dsn, "--repo", repo, "--data-dir", "versions"], 2, "--data-dir names one folder"),
    ]
    client("1.5.5", attach, ["CREATE TABLE lake.t (a INTEGER)"])
    cases += [
        (["--server", dsn, "--repo", repo, "--snapshot", "999"], 1, "the lake has no snapshot 999"),
        (["--server", dsn, "--repo", repo, "--duckdb-dir", str(tmp_path / "none")], 1, "could not load DuckDB from"),
    ]
    for args, code, message in cases:
        out = subprocess.run([str(ADMIN), "publish", *args], capture_output=True, text=True, timeout=120)
        assert out.returncode == code and message in out.stderr, (args, out)
    assert not complete_versions(pathlib.Path(repo))
    # a version.json whose id is not its folder's is not a version: not a parent
    bogus = pathlib.Path(repo) / "versions" / "bogus"
    bogus.mkdir(parents=True)
    (bogus / "version.json").write_text('{"fdl": "0.1", "id": "other", "seq": 9}')
    vid = publish(dsn, repo)
    assert json.loads((pathlib.Path(repo) / "versions" / vid / "version.json").read_text())["seq"] == 1
    # with that version unpinned, nothing pins the newest snapshot: the failed publishes
    # took theirs back, so it can be deleted
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT rocklake_publish_unpin(%s)", (vid,)).fetchone() == (True,)
        conn.execute("DELETE FROM ducklake_snapshot WHERE snapshot_id = (SELECT max(snapshot_id) FROM ducklake_snapshot)")
