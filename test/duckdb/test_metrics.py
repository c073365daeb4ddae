"""The Prometheus endpoint (metrics_listen_address): off by default, a bad address stops
the start with FATAL, and with it set, GET /metrics answers the text format 0.0.4 that
Prometheus' own client library parses, with the families, types and labels the server
documents and counters that move with commits, refused commits and maintenance. There is
nothing to compare with PostgreSQL here: it has no such endpoint, so the counters are
checked by how they must move.
"""

import http.client
import os
import pathlib
import signal
import socket
import subprocess
import time

import psycopg
import pytest

from servers import TOP_BUILDDIR

ROCKLAKE = TOP_BUILDDIR / "rocklake"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Rocklake:
    """A RockLake of this test's own, started with extra settings."""

    def __init__(self, datadir: pathlib.Path, *settings: str):
        self.datadir = datadir
        self.port = free_port()
        self.log = datadir.parent / (datadir.name + ".log")
        args = [str(ROCKLAKE), "-D", str(datadir), "-p", str(self.port), "-h", "127.0.0.1",
                "-k", str(datadir), "-U", "rocklake"]
        for setting in settings:
            args += ["-c", setting]
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if (self.datadir / "postmaster.pid").read_text().split("\n")[7].startswith("ready"):
                    return
            except (FileNotFoundError, IndexError):
                pass
            time.sleep(0.1)
        raise AssertionError("not ready:\n" + self.log.read_text())

    def connect(self, **kwargs) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user="rocklake", dbname="postgres",
                               sslmode="disable", connect_timeout=10, **kwargs)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)

    def children(self) -> list:
        ps = subprocess.run(["ps", "-o", "args=", "--ppid", str(self.proc.pid)], capture_output=True, text=True)
        return [line.strip() for line in ps.stdout.splitlines()]


def request(port: int, method: str = "GET", path: str = "/metrics"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type"), response.read().decode()
    finally:
        conn.close()


def scrape(port: int) -> dict:
    """family name -> the family, parsed by prometheus_client (in .venv only: imported here,
    so that the DuckDB 1.5.5 run can collect this file)"""
    from prometheus_client.parser import text_string_to_metric_families

    status, content_type, body = request(port)
    assert status == 200
    assert content_type.startswith("text/plain; version=0.0.4")
    return {f.name: f for f in text_string_to_metric_families(body)}


def value(families: dict, family: str, sample: str, **labels) -> float:
    matches = [s.value for s in families[family].samples if s.name == sample and s.labels == labels]
    return matches[0] if matches else 0.0


@pytest.fixture(scope="module")
def metrics_server(tmp_path_factory):
    port = free_port()
    server = Rocklake(tmp_path_factory.mktemp("metrics") / "data", f"metrics_listen_address=127.0.0.1:{port}")
    server.wait_ready()
    server.metrics_port = port
    yield server
    server.stop()


FAMILIES = {
    "rocklake_commits": "counter",
    "rocklake_commit_group_size": "histogram",
    "rocklake_commit_duration_seconds": "histogram",
    "rocklake_store_write_duration_seconds": "histogram",
    "rocklake_cache_lag_seconds": "histogram",
    "rocklake_wal_put_duration_seconds": "histogram",
    "rocklake_commit_conflicts": "counter",
    "rocklake_connections": "gauge",
    "rocklake_objstore_requests": "counter",
    "rocklake_objstore_errors": "counter",
    "rocklake_objstore_retries": "counter",
    "rocklake_store_ssts": "gauge",
    "rocklake_store_sst_bytes": "gauge",
    "rocklake_store_wal_objects": "gauge",
    "rocklake_in_recovery": "gauge",
    "rocklake_standby_last_replay_timestamp_seconds": "gauge",
    "rocklake_store_flushes": "counter",
    "rocklake_store_compactions": "counter",
    "rocklake_store_gc_runs": "counter",
    "rocklake_store_gc_objects_deleted": "counter",
}


def test_families_and_types(metrics_server):
    """every family with its HELP and TYPE; histograms with buckets up to +Inf, _sum, _count"""
    families = scrape(metrics_server.metrics_port)
    assert {name: families[name].type for name in FAMILIES if name in families} == FAMILIES
    for name, family in families.items():
        assert name.startswith("rocklake_") and family.documentation
        if family.type == "counter":
            assert all(s.name == name + "_total" for s in family.samples)
        if family.type == "histogram":
            buckets = [s for s in family.samples if s.name == name + "_bucket"]
            assert buckets[-1].labels == {"le": "+Inf"}
            counts = [s.value for s in buckets]
            assert counts == sorted(counts)
            assert value(families, name, name + "_count") == counts[-1]
            assert {s.name for s in family.samples} == {name + "_bucket", name + "_sum", name + "_count"}
    assert {s.labels["state"] for s in families["rocklake_connections"].samples} == {
        "active", "idle", "idle_in_transaction", "idle_in_transaction_aborted"}
    assert {s.labels["op"] for s in families["rocklake_objstore_requests"].samples} == {
        "get", "head", "put", "delete", "list"}
    assert "rocklake: metrics" in metrics_server.children()


def test_counters_move(metrics_server):
    """commits, group sizes, latencies, WAL PUTs, object-store requests, a refused commit by
    its SQLSTATE, connections by state and GC move as the server works"""
    before = scrape(metrics_server.metrics_port)
    with metrics_server.connect(autocommit=True) as conn:
        conn.execute("CREATE TABLE mt_t (k integer PRIMARY KEY, v text)")
        for i in range(5):
            conn.execute("INSERT INTO mt_t VALUES (%s, 'x')", (i,))
        # two transactions insert the same key: the second commit is refused (23505)
        with metrics_server.connect() as a, metrics_server.connect() as b:
            a.execute("INSERT INTO mt_t VALUES (100, 'a')")
            b.execute("INSERT INTO mt_t VALUES (100, 'b')")
            a.commit()
            with pytest.raises(psycopg.errors.UniqueViolation):
                b.commit()
        written = scrape(metrics_server.metrics_port)
        conn.execute("CHECKPOINT")
        checkpointed = scrape(metrics_server.metrics_port)
        conn.execute("SELECT rocklake_compact()")
        conn.execute("SELECT rocklake_gc()")
        with metrics_server.connect() as idle_in_xact:
            idle_in_xact.execute("SELECT 1")
            during = scrape(metrics_server.metrics_port)
    after = scrape(metrics_server.metrics_port)

    def moved(family, sample, **labels):
        return value(after, family, sample, **labels) - value(before, family, sample, **labels)

    assert moved("rocklake_commits", "rocklake_commits_total") >= 7
    assert moved("rocklake_commit_group_size", "rocklake_commit_group_size_count") >= 1
    assert moved("rocklake_commit_group_size", "rocklake_commit_group_size_sum") >= 7
    for name in ("rocklake_commit_duration_seconds", "rocklake_store_write_duration_seconds",
                 "rocklake_cache_lag_seconds", "rocklake_wal_put_duration_seconds"):
        assert moved(name, name + "_count") >= 1
        assert moved(name, name + "_sum") > 0
    assert moved("rocklake_commit_conflicts", "rocklake_commit_conflicts_total", sqlstate="23505") == 1
    assert moved("rocklake_objstore_requests", "rocklake_objstore_requests_total", op="put") >= 7
    assert moved("rocklake_store_gc_runs", "rocklake_store_gc_runs_total") == 1
    assert moved("rocklake_store_flushes", "rocklake_store_flushes_total") >= 1
    assert moved("rocklake_store_compactions", "rocklake_store_compactions_total") >= 1
    # the commits wait in WAL objects until CHECKPOINT flushes them into an SST
    assert value(written, "rocklake_store_wal_objects", "rocklake_store_wal_objects") >= 7
    assert value(checkpointed, "rocklake_store_wal_objects", "rocklake_store_wal_objects") < \
        value(written, "rocklake_store_wal_objects", "rocklake_store_wal_objects")
    assert value(checkpointed, "rocklake_store_ssts", "rocklake_store_ssts") >= 1
    assert value(checkpointed, "rocklake_store_sst_bytes", "rocklake_store_sst_bytes") > 0
    assert value(during, "rocklake_connections", "rocklake_connections", state="idle_in_transaction") >= 1
    assert value(during, "rocklake_connections", "rocklake_connections", state="idle") >= 1


def test_other_requests(metrics_server):
    """only GET (and HEAD) of /metrics: other paths 404, other methods 405"""
    assert request(metrics_server.metrics_port, path="/")[0] == 404
    assert request(metrics_server.metrics_port, path="/metricsx")[0] == 404
    assert request(metrics_server.metrics_port, method="POST")[0] == 405
    status, content_type, body = request(metrics_server.metrics_port, method="HEAD")
    assert (status, body) == (200, "")


def test_restarted_when_killed(metrics_server):
    """a metrics process that dies is started again; the server itself goes on"""
    ps = subprocess.run(["pgrep", "-P", str(metrics_server.proc.pid), "-f", "rocklake: metrics"],
                        capture_output=True, text=True)
    os.kill(int(ps.stdout.split()[0]), signal.SIGKILL)
    deadline = time.monotonic() + 30
    while True:
        try:
            if scrape(metrics_server.metrics_port):
                break
        except OSError:
            assert time.monotonic() < deadline, metrics_server.log.read_text()
            time.sleep(0.2)
    with metrics_server.connect() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_counts_go_on_across_a_crash_restart(metrics_server):
    """a backend killed makes the postmaster restart every server process but the metrics
    process; the counts go on from where they were"""
    before = scrape(metrics_server.metrics_port)
    metrics_pid = subprocess.run(["pgrep", "-P", str(metrics_server.proc.pid), "-f", "rocklake: metrics"],
                                 capture_output=True, text=True).stdout.split()
    with metrics_server.connect() as victim:
        pid = victim.execute("SELECT pg_backend_pid()").fetchone()[0]
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(psycopg.OperationalError):
            victim.execute("SELECT 1")
    deadline = time.monotonic() + 60
    while True:
        # a backend forked before the postmaster saw the crash may commit, then be
        # stopped by the restart before it answers: the retry must not fail for that
        try:
            with metrics_server.connect(autocommit=True) as conn:
                conn.execute("CREATE TABLE IF NOT EXISTS mt_after_crash (k integer)")
            break
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, metrics_server.log.read_text()
            time.sleep(0.2)
    after = scrape(metrics_server.metrics_port)
    assert value(after, "rocklake_commits", "rocklake_commits_total") > \
        value(before, "rocklake_commits", "rocklake_commits_total")
    assert value(after, "rocklake_objstore_requests", "rocklake_objstore_requests_total", op="put") > \
        value(before, "rocklake_objstore_requests", "rocklake_objstore_requests_total", op="put")
    assert subprocess.run(["pgrep", "-P", str(metrics_server.proc.pid), "-f", "rocklake: metrics"],
                          capture_output=True, text=True).stdout.split() == metrics_pid


def test_off_by_default(rocklake_server):
    """without the setting, no metrics process and the setting is empty"""
    with rocklake_server.connect() as conn:
        assert conn.execute("SHOW metrics_listen_address").fetchone() == ("",)
        assert conn.execute("SELECT context FROM pg_settings WHERE name = 'metrics_listen_address'"
                            ).fetchone() == ("postmaster",)
    ps = subprocess.run(["ps", "-o", "args=", "--ppid", str(rocklake_server.pid)], capture_output=True, text=True)
    assert "rocklake: writer" in ps.stdout and "metrics" not in ps.stdout


@pytest.mark.parametrize("address, message", [
    ("nonsense", 'FATAL:  invalid value for parameter "metrics_listen_address": "nonsense"'),
    ("127.0.0.1:", 'FATAL:  invalid value for parameter "metrics_listen_address": "127.0.0.1:"'),
    ("192.0.2.1:9187", 'FATAL:  could not bind metrics address "192.0.2.1:9187"'),
])
def test_bad_address_fails_the_start(tmp_path, address, message):
    """an address that cannot be parsed or bound stops the start with a clear FATAL"""
    server = Rocklake(tmp_path / "data", f"metrics_listen_address={address}")
    assert server.proc.wait(timeout=60) != 0
    assert message in server.log.read_text()


def test_address_in_use_fails_the_start(tmp_path):
    """a port another socket holds: FATAL naming the address"""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        server = Rocklake(tmp_path / "data", f"metrics_listen_address={address}")
        assert server.proc.wait(timeout=60) != 0
    assert f'FATAL:  could not bind metrics address "{address}": Address already in use' in server.log.read_text()
