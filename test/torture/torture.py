"""torture.py: kill -9 RockLake's processes at random points under load, and check that
it always comes back by itself and loses no acknowledged commit.

    torture.py ROCKLAKE_BINARY WORKDIR [--kills N] [--seed S] [--psycopg-writers W]

One server on a local store in WORKDIR. While it runs:
  - W psycopg writers insert rows of their own (autocommit, one row per commit) into
    a table, and one into a table in explicit transactions of several rows;
  - one DuckDB writer (DuckDB 1.4.4, ducklake + postgres extensions from the wheels,
    offline) inserts into a DuckLake table, one row per DuckLake commit, inlined
    into the catalog;
  - a killer sends SIGKILL, after a random pause, to a random process: a backend
    (busy or spare), the writer, or the postmaster, and waits until a new session
    can run a query again. Backends and the writer are brought back by the
    postmaster alone; after a killed postmaster the others must exit on their own
    and the test starts the server again, as systemd would.
A commit counts as acknowledged when the client was told it succeeded; one that
failed may or may not be there. At the end every acknowledged row must be there,
no row that was never sent may be, and the server must never have needed more than
RECOVERY_BOUND_S to come back. Prints one summary line; exits 1 on any violation.
"""

import argparse
import logging
import os
import pathlib
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import duckdb
import psycopg

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "duckdb"))
import duckdb_offline  # noqa: E402

RECOVERY_BOUND_S = 90
CHILDREN_EXIT_BOUND_S = 15


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, binary: str, workdir: pathlib.Path):
        self.binary = binary
        self.datadir = workdir / "data"
        self.log = open(workdir / "server.log", "ab")
        self.port = free_port()
        subprocess.run([binary, "--init", "-D", str(self.datadir), "-U", "rocklake"], check=True,
                       stdout=self.log, stderr=self.log)
        self.proc = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "-D", str(self.datadir), "-p", str(self.port), "-h", "127.0.0.1",
             "-k", str(self.datadir)], stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)

    def dsn(self, dbname: str) -> str:
        return f"host=127.0.0.1 port={self.port} dbname={dbname} user=rocklake connect_timeout=5"

    def children(self) -> list[int]:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)],
                             capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    def writer_pid(self) -> int | None:
        """The writer logs "[PID] LOG:  writer ready" each time it starts."""
        self.log.flush()
        text = (self.datadir.parent / "server.log").read_text(errors="replace")
        children = self.children()
        for pid in reversed(re.findall(r"\[(\d+)\] LOG:  writer ready", text)):
            if int(pid) in children:
                return int(pid)
        return None

    def wait_serving(self, dbname: str) -> float:
        """Seconds until a new session runs a query; RuntimeError past the bound."""
        start = time.monotonic()
        while time.monotonic() - start < RECOVERY_BOUND_S:
            try:
                with psycopg.connect(self.dsn(dbname), autocommit=True) as conn:
                    conn.execute("SELECT 1")
                    return time.monotonic() - start
            except psycopg.Error:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not come back within {RECOVERY_BOUND_S} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=120)


class Ledger:
    """What each writer sent and what it was told."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked: dict[str, set] = {}
        self.sent: dict[str, set] = {}
        self.failures = 0

    def send(self, table: str, ids) -> None:
        with self.lock:
            self.sent.setdefault(table, set()).update(ids)

    def ack(self, table: str, ids) -> None:
        with self.lock:
            self.acked.setdefault(table, set()).update(ids)

    def failed(self) -> None:
        with self.lock:
            self.failures += 1


def keep_writing(ledger: Ledger, stop: threading.Event, connect, commit, error, pause: float) -> None:
    """commit(conn) until stop, on a connection made again after each failure."""
    conn = None
    while not stop.is_set():
        try:
            if conn is None:
                conn = connect()
            commit(conn)
        except error:
            ledger.failed()
            if conn is not None:
                conn.close()
            conn = None
            time.sleep(pause)
    if conn is not None:
        conn.close()


def psycopg_writer(dsn, ledger: Ledger, table: str, first_id: int, per_txn: int,
                   stop: threading.Event) -> None:
    """per_txn rows a commit into table, on a connection to dsn() (made again after a failure)"""
    ids = iter(range(first_id, 10**18, per_txn))

    def commit(conn):
        start = next(ids)
        batch = list(range(start, start + per_txn))
        ledger.send(table, batch)
        if per_txn == 1:
            conn.execute(f"INSERT INTO {table} VALUES (%s)", (batch[0],))
        else:
            with conn.transaction():
                for i in batch:
                    conn.execute(f"INSERT INTO {table} VALUES (%s)", (i,))
        ledger.ack(table, batch)

    keep_writing(ledger, stop, lambda: psycopg.connect(dsn(), autocommit=per_txn == 1),
                 commit, psycopg.Error, 0.05)


def duckdb_attach(server: Server, data_path: pathlib.Path):
    con = duckdb_offline.connect()
    # rows inlined into the catalog: DuckLake removes the Parquet files of a commit it
    # was told failed, so a commit that landed anyway would name a removed file
    # (PostgreSQL has the same window when a connection drops in COMMIT)
    con.execute(f"ATTACH 'ducklake:postgres:{server.dsn('lake')}' AS lake "
                f"(DATA_PATH '{data_path}', DATA_INLINING_ROW_LIMIT 1000)")
    return con


def duckdb_writer(attach, ledger: Ledger, table: str, stop: threading.Event) -> None:
    """one row a DuckLake commit into table, through the connection attach() makes"""
    ids = iter(range(1, 10**18))

    def commit(con):
        i = next(ids)
        ledger.send(table, [i])
        con.execute(f"INSERT INTO {table} VALUES (?)", [i])
        ledger.ack(table, [i])

    keep_writing(ledger, stop, attach, commit, duckdb.Error, 0.1)


def pids_alive(pids) -> list[int]:
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
            stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
            if stat.split(")")[-1].split()[0] != "Z":
                alive.append(pid)
        except (ProcessLookupError, FileNotFoundError):
            pass
    return alive


def kill_one(server: Server, rng: random.Random, counts: dict) -> int | None:
    """SIGKILL a random process; returns its pid once it is gone (None: nothing killed)."""
    roll = rng.random()
    if roll < 0.15:
        children = server.children()
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait()
        deadline = time.monotonic() + CHILDREN_EXIT_BOUND_S
        while pids_alive(children) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = pids_alive(children)
        if left:
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            raise RuntimeError(f"children {left} outlived their SIGKILLed postmaster")
        counts["postmaster"] += 1
        server.start()
        return None
    writer = server.writer_pid()
    backends = [p for p in server.children() if p != writer]
    victim, kind = (writer, "writer") if roll < 0.5 and writer is not None else \
        (rng.choice(backends) if backends else None, "backend")
    if victim is None:
        return None
    try:
        os.kill(victim, signal.SIGKILL)
    except ProcessLookupError:
        return None
    counts[kind] += 1
    # reaped by the postmaster: from then on it refuses connections until it has reset
    deadline = time.monotonic() + CHILDREN_EXIT_BOUND_S
    while victim in server.children() and time.monotonic() < deadline:
        time.sleep(0.01)
    return victim


def check_rows(ledger: Ledger, found: dict) -> list[str]:
    """found: table -> the ids it holds (a list); every acknowledged one must be
    there, none that was never sent, none twice"""
    problems = []
    for table, ids in found.items():
        rows = set(ids)
        lost = ledger.acked.get(table, set()) - rows
        invented = rows - ledger.sent.get(table, set())
        if len(rows) != len(ids):
            problems.append(f"{table} holds {len(ids) - len(rows)} duplicate rows")
        if lost:
            problems.append(f"{table}: {len(lost)} acknowledged rows lost, e.g. {sorted(lost)[:5]}")
        if invented:
            problems.append(f"{table}: {len(invented)} rows never sent, e.g. {sorted(invented)[:5]}")
    return problems


def verify(server: Server, ledger: Ledger, data_path: pathlib.Path) -> list[str]:
    found = {}
    with psycopg.connect(server.dsn("torture"), autocommit=True) as conn:
        for table in ("t_auto", "t_txn"):
            found[table] = [r[0] for r in conn.execute(f"SELECT id FROM {table}")]
    con = duckdb_attach(server, data_path)
    found["lake.t"] = [r[0] for r in con.execute("SELECT id FROM lake.t").fetchall()]
    con.close()
    problems = check_rows(ledger, found)
    with psycopg.connect(server.dsn("torture"), autocommit=True) as conn:
        n = conn.execute("SELECT count(*) FROM t_txn").fetchone()[0]
        # a transaction of 5 rows is there whole or not at all
        if n % 5:
            problems.append(f"t_txn holds {n} rows: a transaction was split")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("workdir", type=pathlib.Path)
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--psycopg-writers", type=int, default=3)
    args = ap.parse_args()
    logging.getLogger("psycopg").setLevel(logging.CRITICAL)    # rollbacks on dead sessions
    rng = random.Random(args.seed)
    server = Server(args.binary, args.workdir)
    data_path = args.workdir / "lake_data"
    data_path.mkdir()
    server.wait_serving("postgres")
    with psycopg.connect(server.dsn("postgres"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE torture")
        conn.execute("CREATE DATABASE lake")
    with psycopg.connect(server.dsn("torture"), autocommit=True) as conn:
        conn.execute("CREATE TABLE t_auto (id bigint PRIMARY KEY)")
        conn.execute("CREATE TABLE t_txn (id bigint PRIMARY KEY)")
    con = duckdb_attach(server, data_path)
    con.execute("CREATE TABLE lake.t (id BIGINT)")
    con.close()

    ledger = Ledger()
    stop = threading.Event()
    dsn = lambda: server.dsn("torture")  # noqa: E731
    threads = [threading.Thread(target=psycopg_writer, daemon=True,
                                args=(dsn, ledger, "t_auto", (w + 1) * 10**9, 1, stop))
               for w in range(args.psycopg_writers)]
    threads.append(threading.Thread(target=psycopg_writer, daemon=True,
                                    args=(dsn, ledger, "t_txn", 1, 5, stop)))
    threads.append(threading.Thread(target=duckdb_writer, daemon=True,
                                    args=(lambda: duckdb_attach(server, data_path), ledger, "lake.t", stop)))
    for t in threads:
        t.start()
    counts = {"backend": 0, "writer": 0, "postmaster": 0}
    recoveries = []
    started = time.monotonic()
    problems = []
    try:
        while sum(counts.values()) < args.kills:
            time.sleep(rng.uniform(0.05, 0.6))
            kill_one(server, rng, counts)
            recoveries.append(server.wait_serving("torture"))
    except RuntimeError as e:
        problems.append(str(e))
    stop.set()
    deadline = time.monotonic() + 120
    for t in threads:
        t.join(timeout=max(0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        problems.append("a writer was still waiting for the server 120 s after the last kill")
    if not problems:
        server.wait_serving("torture")
        problems = verify(server, ledger, data_path)
    server.stop()
    acked = sum(len(v) for v in ledger.acked.values())
    print(f"torture: {sum(counts.values())} kills ({counts['backend']} backends, {counts['writer']} writers, "
          f"{counts['postmaster']} postmasters) in {time.monotonic() - started:.0f} s; "
          f"{acked} acknowledged rows ({', '.join(f'{k} {len(v)}' for k, v in sorted(ledger.acked.items()))}), "
          f"{ledger.failures} failed commits; back in at most {max(recoveries, default=0):.1f} s "
          f"(median {sorted(recoveries)[len(recoveries) // 2] if recoveries else 0:.1f} s); "
          f"{'OK' if not problems else 'FAILED'}")
    return report(problems)


def report(problems: list[str]) -> int:
    """each problem on a line of its own; the exit status"""
    for p in problems:
        print("  " + p)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
