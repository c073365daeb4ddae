"""failover.py: kill -9 the writing server (all of its processes, as if its machine died)
under load, promote a standby, and check that no acknowledged commit is lost.

    failover.py ROCKLAKE_BINARY WORKDIR [--rounds N] [--seed S] [--duckdb-writers D]
                [--psycopg-writers W] [--readers R] [--standbys K] [--duration S]

Servers on one store (a directory in WORKDIR, or the S3 server AWS_ENDPOINT_URL names
when the environment gives one, with --store s3://...): the writer and K standbys
(standby.signal; 2 by default). While they run:
  - W psycopg writers insert rows of their own (one row per commit) and one inserts
    transactions of five rows, into tables of one database; D DuckDB writers insert
    into a DuckLake table each (rows inlined into the catalog), one row per commit;
    every writer that loses its server connects again to whichever server writes now;
  - R readers read the standbys and check that what they see is never torn (the
    five-row transactions are there whole or not at all);
  - each round, after a random pause, every process of the writing server is killed
    with SIGKILL; a standby is promoted (the promote file and SIGUSR1, as pg_ctl
    promote does); the time until it leaves recovery and until a write succeeds on it
    is measured; the killed server is started again as a standby.
With --rounds 0 the load runs for --duration seconds with no failover, and a stamp
writer's rows (one every 50 ms) are timed from their acknowledgement on the writer to
their first sight on each standby: the standbys' lag, p50 and p99.
At the end every acknowledged row must be on the last writer, no row that was never
sent may be, and every standby must converge to it: the same rows in every table of
both databases, DuckLake's catalog included. Prints one summary line with the times to
promote and to the first write (median, max) or the lag; exits 1 on any violation.
"""

import argparse
import itertools
import logging
import multiprocessing
import os
import pathlib
import random
import signal
import subprocess
import sys
import threading
import time

import psycopg

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from torture import (Ledger, check_rows, duckdb_attach, duckdb_writer, free_port, pids_alive,  # noqa: E402
                     psycopg_writer, report)

BOUND_S = 60


class Node:
    """One server of the three; its processes are one process group (one machine)."""

    def __init__(self, binary: str, workdir: pathlib.Path, name: str, store: str, standby: bool):
        self.binary, self.name, self.store = binary, name, store
        self.datadir = workdir / name
        self.log = open(workdir / f"{name}.log", "ab")
        self.port = free_port()
        subprocess.run([binary, "--init", "-D", str(self.datadir), "-U", "rocklake"], check=True,
                       stdout=self.log, stderr=self.log)
        self.proc = None
        self.start(standby)

    def start(self, standby: bool) -> None:
        if standby:
            (self.datadir / "standby.signal").touch()
        self.proc = subprocess.Popen(
            [self.binary, "-D", str(self.datadir), "-p", str(self.port), "-h", "127.0.0.1",
             "-k", str(self.datadir), "-c", f"store={self.store}", "-c", "standby_poll_interval=50",
             "-c", "standby_poll_max_interval=200"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, start_new_session=True)

    def dsn(self, dbname: str) -> str:
        return f"host=127.0.0.1 port={self.port} dbname={dbname} user=rocklake connect_timeout=5"

    def query(self, dbname: str, sql: str):
        with psycopg.connect(self.dsn(dbname), autocommit=True) as conn:
            return conn.execute(sql).fetchall()

    def wait(self, what, dbname: str = "postgres") -> float:
        """Seconds until what(self, dbname) is true; RuntimeError past BOUND_S."""
        start = time.monotonic()
        while time.monotonic() - start < BOUND_S:
            try:
                if what(self, dbname):
                    return time.monotonic() - start
            except psycopg.Error:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"{self.name}: {what.__name__} did not happen within {BOUND_S} s")

    def kill9(self) -> None:
        """SIGKILL every process of the server at once, as a machine that dies."""
        group = [self.proc.pid] + [int(p) for p in subprocess.run(
            ["pgrep", "-g", str(self.proc.pid)], capture_output=True, text=True).stdout.split()]
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        deadline = time.monotonic() + 10
        while pids_alive(group) and time.monotonic() < deadline:
            time.sleep(0.05)

    def promote(self) -> None:
        (self.datadir / "promote").touch()
        os.kill(self.proc.pid, signal.SIGUSR1)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=120)


def serving(node: Node, dbname: str) -> bool:
    return node.query(dbname, "SELECT 1") == [(1,)]


def promoted(node: Node, dbname: str) -> bool:
    return node.query(dbname, "SELECT pg_is_in_recovery()") == [(False,)]


PROBES = itertools.count(1)


def writable(node: Node, dbname: str) -> bool:
    node.query(dbname, f"INSERT INTO probe VALUES ({next(PROBES)}) RETURNING 1")
    return True


class Cluster:
    """Which node writes now; writers connect to it."""

    def __init__(self, primary: Node):
        self.lock = threading.Lock()
        self.primary = primary

    def writer(self) -> Node:
        with self.lock:
            return self.primary


def reader(nodes, torn: list, stop: threading.Event, rng: random.Random) -> None:
    """Reads any of the servers, standbys mostly: a five-row transaction is never seen in part."""
    while not stop.is_set():
        node = rng.choice(nodes)
        try:
            n = node.query("failover", "SELECT count(*) FROM t_txn")[0][0]
            if n % 5:
                torn.append(f"{node.name} showed {n} rows of t_txn")
        except psycopg.Error:
            pass
        time.sleep(0.02)


def stamp_writer(dsn: str, acked: dict, stop: threading.Event) -> None:
    """One row every 50 ms, its acknowledgement time noted"""
    ids = itertools.count(1)
    conn = None
    while not stop.is_set():
        try:
            conn = conn or psycopg.connect(dsn, autocommit=True)
            i = next(ids)
            conn.execute("INSERT INTO stamps VALUES (%s)", (i,))
            acked[i] = time.monotonic()
        except psycopg.Error:
            conn = None
        time.sleep(0.05)


def lag_watcher(dsn: str, acked: dict, lags: list, stop: threading.Event) -> None:
    """When each stamp first shows on a standby, after its acknowledgement"""
    seen = 0
    conn = None
    while not stop.is_set():
        try:
            conn = conn or psycopg.connect(dsn, autocommit=True)
            newest = conn.execute("SELECT coalesce(max(id), 0) FROM stamps").fetchone()[0]
        except psycopg.Error:
            conn, newest = None, seen
        now = time.monotonic()
        for i in range(seen + 1, newest + 1):
            if i in acked:
                lags.append(now - acked[i])
        seen = max(seen, newest)
        time.sleep(0.005)


def lag_probe(writer_dsn: str, standby_dsns: list, duration: float, out) -> None:
    """The stamp writer and a watcher per standby, in a process of their own: among
    the DuckDB writers' threads they would wait for the interpreter's lock, and that
    wait, not the standbys', would be measured (time.monotonic is the system's clock,
    the same in every process)"""
    acked: dict[int, float] = {}
    lags: list[float] = []
    stop = threading.Event()
    threads = [threading.Thread(target=stamp_writer, daemon=True, args=(writer_dsn, acked, stop))]
    threads += [threading.Thread(target=lag_watcher, daemon=True, args=(dsn, acked, lags, stop))
                for dsn in standby_dsns]
    for t in threads:
        t.start()
    time.sleep(duration)
    time.sleep(2)               # the last stamps reach the standbys
    stop.set()
    for t in threads:
        t.join()
    out.send(lags)


def digest(node: Node) -> dict:
    """Every table of both databases, its rows sorted"""
    out = {}
    for dbname in ("failover", "lake"):
        with psycopg.connect(node.dsn(dbname), autocommit=True) as conn:
            names = [r[0] for r in conn.execute(
                "SELECT relname FROM pg_class JOIN pg_namespace n ON n.oid = relnamespace "
                "WHERE relkind = 'r' AND nspname = 'public' ORDER BY 1")]
            for name in names:
                out[f"{dbname}.{name}"] = sorted(repr(r) for r in conn.execute(f'SELECT * FROM "{name}"'))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("workdir", type=pathlib.Path)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--store", default=None, help="the store (default: WORKDIR/store)")
    ap.add_argument("--psycopg-writers", type=int, default=3)
    ap.add_argument("--duckdb-writers", type=int, default=16)
    ap.add_argument("--readers", type=int, default=4)
    ap.add_argument("--standbys", type=int, default=2)
    ap.add_argument("--duration", type=float, default=20)
    args = ap.parse_args()
    logging.getLogger("psycopg").setLevel(logging.CRITICAL)
    rng = random.Random(args.seed)
    store = args.store or str(args.workdir / "store")
    nodes = [Node(args.binary, args.workdir, "a", store, False)]
    nodes[0].wait(serving)
    nodes += [Node(args.binary, args.workdir, chr(ord("b") + k), store, True) for k in range(args.standbys)]
    cluster = Cluster(nodes[0])
    data_path = args.workdir / "lake_data"
    data_path.mkdir()
    with psycopg.connect(nodes[0].dsn("postgres"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE failover")
        conn.execute("CREATE DATABASE lake")
    with psycopg.connect(nodes[0].dsn("failover"), autocommit=True) as conn:
        for table in ("t_auto", "t_txn", "probe", "stamps"):
            conn.execute(f"CREATE TABLE {table} (id bigint PRIMARY KEY)")
    tables = [f"t{i}" for i in range(args.duckdb_writers)]
    con = duckdb_attach(nodes[0], data_path)
    for table in tables:
        con.execute(f"CREATE TABLE lake.{table} (id BIGINT)")
    con.close()
    for node in nodes[1:]:
        node.wait(serving, "failover")

    ledger = Ledger()
    stop = threading.Event()
    torn: list[str] = []
    dsn = lambda: cluster.writer().dsn("failover")  # noqa: E731
    threads = [threading.Thread(target=psycopg_writer, daemon=True,
                                args=(dsn, ledger, "t_auto", (w + 1) * 10**9, 1, stop))
               for w in range(args.psycopg_writers)]
    threads.append(threading.Thread(target=psycopg_writer, daemon=True,
                                    args=(dsn, ledger, "t_txn", 1, 5, stop)))
    threads += [threading.Thread(target=duckdb_writer, daemon=True,
                                 args=(lambda: duckdb_attach(cluster.writer(), data_path), ledger, f"lake.{t}", stop))
                for t in tables]
    threads += [threading.Thread(target=reader, daemon=True,
                                 args=(nodes, torn, stop, random.Random(args.seed + r)))
                for r in range(args.readers)]
    lags: list[float] = []
    if args.rounds == 0:
        context = multiprocessing.get_context("spawn")
        lags_in, lags_out = context.Pipe(duplex=False)
        probe = context.Process(target=lag_probe, daemon=True,
                                args=(nodes[0].dsn("failover"), [n.dsn("failover") for n in nodes[1:]],
                                      args.duration, lags_out))
        probe.start()
        # the clients yield the cores to the servers and the probe, as clients on
        # machines of their own would: the lag measured is the standbys'
        os.nice(10)
    for t in threads:
        t.start()
    to_promote, to_write, problems = [], [], []
    started = time.monotonic()
    if args.rounds == 0:
        lags = lags_in.recv()
        probe.join()
    try:
        for _ in range(args.rounds):
            time.sleep(rng.uniform(0.5, 2.0))
            old = cluster.writer()
            old.kill9()
            t0 = time.monotonic()
            new = rng.choice([n for n in nodes if n is not old])
            new.promote()
            new.wait(promoted)
            to_promote.append(time.monotonic() - t0)
            with cluster.lock:
                cluster.primary = new
            new.wait(writable, "failover")
            to_write.append(time.monotonic() - t0)
            old.start(True)
            old.wait(serving)
    except RuntimeError as e:
        problems.append(str(e))
    stop.set()
    deadline = time.monotonic() + 120
    for t in threads:
        t.join(timeout=max(0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        problems.append("a client was still waiting 120 s after the last round")
    primary = cluster.writer()
    if not problems:
        found = {}
        with psycopg.connect(primary.dsn("failover"), autocommit=True) as conn:
            for table in ("t_auto", "t_txn"):
                found[table] = [r[0] for r in conn.execute(f"SELECT id FROM {table}")]
            if len(found["t_txn"]) % 5:
                problems.append(f"t_txn holds {len(found['t_txn'])} rows: a transaction was split")
        con = duckdb_attach(primary, data_path)
        for table in tables:
            found[f"lake.{table}"] = [r[0] for r in con.execute(f"SELECT id FROM lake.{table}").fetchall()]
        con.close()
        problems += check_rows(ledger, found)
        # the standbys converge to the writer, table by table
        want = digest(primary)
        for node in nodes:
            if node is not primary:
                try:
                    node.wait(lambda n, d: digest(n) == want)
                except RuntimeError as e:
                    differ = [t for t, v in digest(node).items() if want.get(t) != v]
                    problems.append(f"{e}: {', '.join(differ[:5])} differ")
    problems += torn[:5]
    for node in nodes:
        node.stop()
    acked = sum(len(v) for v in ledger.acked.values())

    def pct(v, q):
        return sorted(v)[min(len(v) - 1, int(q * len(v)))] if v else 0

    times = (f"promoted in {pct(to_promote, 0.5):.2f} s median, {max(to_promote, default=0):.2f} s max; "
             f"writes again after {pct(to_write, 0.5):.2f} s median, {max(to_write, default=0):.2f} s max"
             if args.rounds else
             f"standbys' lag over {len(lags)} commits: p50 {pct(lags, 0.5) * 1000:.0f} ms, "
             f"p99 {pct(lags, 0.99) * 1000:.0f} ms, max {max(lags, default=0) * 1000:.0f} ms")
    print(f"failover: {len(to_promote)} rounds in {time.monotonic() - started:.0f} s, {args.standbys} standbys, "
          f"{args.psycopg_writers + 1} psycopg and {args.duckdb_writers} DuckDB writers, {args.readers} readers; "
          f"{acked} acknowledged rows, {ledger.failures} failed commits; {times}; "
          f"{'OK' if not problems else 'FAILED'}")
    return report(problems)


if __name__ == "__main__":
    sys.exit(main())
