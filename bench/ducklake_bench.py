"""The DuckLake workload benchmark of doc/performance.md ("DuckLake workload (issue 5)").

Run by bench/run-ducklake-bench.sh, which builds RockLake, starts PostgreSQL 15 (with
log_min_duration_statement=0) and moto, and passes their addresses here. This driver
starts RockLake itself (a local store, and an S3 store on moto for P5), because P6
restarts it. Every phase runs the same DuckDB workload against both servers, with the
client of the python that runs this (DuckDB 1.4.4 in .venv, 1.5.5 in .venv-duckdb15:
run-ducklake-bench.sh --client), whose own ducklake and postgres extensions
duckdb_offline loads; each lake in a fresh database, in interleaved rounds so that the
noise of the shared machine hits both alike. It prints per measurement RockLake's
figure, PostgreSQL's, the ratio and the issue's target. Next to end-to-end times it
prints the server's share: the "duration:" lines both servers write with
log_min_duration_statement=0, summed over the phase's window of each log; for P1's
commits, P2's re-ATTACH and P4's reads also by statement (statement_rows).

Large catalogs (P4's 10k/100k data files, P6's rows) are not made by DuckDB commits:
the data-file and statistics rows are cloned from one real file with COPY through
psycopg into each server's DuckLake tables.
"""

import argparse
import http.client
import itertools
import json
import os
import pathlib
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time


HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "duckdb"))
import duckdb_offline  # noqa: E402
import lakes  # noqa: E402
import servers  # noqa: E402
import statement_shares  # noqa: E402

# the errors DuckLake retries a commit on: a lost race for the next snapshot id
LOST_RACE = re.compile(r"^\S+ \S+ \S+ \[\d+\] ERROR:  (could not serialize access|duplicate key value)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values, q):
    """The q-quantile (0..1) of values, nearest rank."""
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q * len(v) + 0.5)) - 1))] if v else float("nan")


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def total_memory_kib() -> int:
    with open("/proc/meminfo") as f:
        return int(f.readline().split()[1])


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


class Server(servers.Server):
    """A catalog server with a log that has "duration:" lines. The test suite's Server
    (dsn, connect, create_database) on a server this benchmark started, not server_ctl.sh."""

    kind = ""
    user = ""

    def __init__(self, port: int, log: pathlib.Path):  # pylint: disable=super-init-not-called
        self.host, self.port, self.log = "127.0.0.1", port, log
        self._databases = 0

    def log_offset(self) -> int:
        return self.log.stat().st_size

    def server_ms(self, start: int, end: int | None = None) -> tuple[dict, int]:
        """The logged statement durations between two offsets by statement shape
        (statement_shares.shares: shape -> [count, total ms]), and the number of lost
        races (LOST_RACE) logged there."""
        with open(self.log, "rb") as f:
            f.seek(start)
            data = f.read((end - start) if end is not None else -1)
        lines = data.decode("utf-8", "replace").splitlines()
        return statement_shares.shares(lines), sum(1 for line in lines if LOST_RACE.match(line))


class Postgres(Server):
    kind, user = "postgres", "postgres"

    def postmaster_pid(self, datadir: str) -> int:
        with open(pathlib.Path(datadir) / "postmaster.pid") as f:
            return int(f.readline())


class RockLake(Server):
    """A RockLake server this driver starts and restarts on one data directory."""

    kind, user = "rocklake", "rocklake"

    def __init__(self, binary: str, datadir: pathlib.Path, settings: dict, env: dict | None = None):
        self.binary, self.datadir, self.settings = binary, datadir, settings
        # A command the server runs under, e.g. "perf record -g -o FILE --" to profile a run.
        self.wrapper = shlex.split(os.environ.get("RL_BENCH_WRAPPER", ""))
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        super().__init__(free_port(), pathlib.Path(str(datadir) + ".log"))
        datadir.parent.mkdir(parents=True, exist_ok=True)
        self.log.touch()

    def start(self) -> float:
        """Start and wait until ready; returns the seconds it took."""
        t0 = time.perf_counter()
        # -U: the bootstrap superuser a new data directory is made with, the user the driver connects as
        args = self.wrapper + [self.binary, "-D", str(self.datadir), "-p", str(self.port), "-h", self.host,
                "-k", str(self.datadir.parent), "-U", self.user]
        for k, v in self.settings.items():
            args += ["-c", f"{k}={v}"]
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=logf, stderr=logf, env=self.env)
        logf.close()
        pidfile = self.datadir / "postmaster.pid"
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rocklake exited; see {self.log}")
            try:
                lines = pidfile.read_text().splitlines()
                if len(lines) >= 8 and lines[7].startswith("ready"):
                    return time.perf_counter() - t0
            except OSError:
                pass
            time.sleep(0.01)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # The postmaster, not a wrapper around it: a fast shutdown, as pg_ctl -m fast.
            os.kill(int((self.datadir / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
            self.proc.wait(timeout=120)
        self.proc = None

    def writer_pid(self) -> int:
        pids = re.findall(r"\[(\d+)\] LOG:  writer ready", self.log.read_text(errors="replace"))
        return int(pids[-1])

    def newest_cache(self) -> int:
        """The database id of the newest database's catalog cache (catalog.ID.sqlite)."""
        return max(int(m.group(1)) for f in self.datadir.glob("catalog.*.sqlite")
                   if (m := re.fullmatch(r"catalog\.(\d+)\.sqlite", f.name)))


# ---------- DuckDB side ----------

class Lake(lakes.Lake):
    """One DuckLake in a new database of server, with its ATTACH options; sessions on it
    are plain DuckDB connections (nothing recorded)."""

    def __init__(self, server: Server, prefix: str, workdir: pathlib.Path, **options):
        dbname = server.create_database(prefix)
        data_path = workdir / f"data_{server.kind}_{dbname}"
        data_path.mkdir(parents=True)
        super().__init__(server, dbname, data_path)
        self.options = options

    def attach_sql(self) -> str:
        return super().attach_sql(**self.options)

    def session(self):
        con = duckdb_offline.connect()
        con.execute(self.attach_sql())
        con.execute("SET ducklake_max_retry_count = 100")
        return con


class Window:
    """Accumulates end-to-end seconds and the server's logged milliseconds, in all and by
    statement shape."""

    def __init__(self, server: Server):
        self.server, self.server_ms, self.statements, self.lost_races = server, 0.0, 0, 0
        self.shapes: dict = {}  # statement shape -> [count, total ms]
        self.latencies: list[float] = []
        self.cpu = 0.0

    def __enter__(self):
        self._off = self.server.log_offset()
        self._cpu = time.process_time()
        return self

    def __exit__(self, *exc):
        self.cpu += time.process_time() - self._cpu
        shapes, lost = self.server.server_ms(self._off)
        for text, (n, ms) in shapes.items():
            mine = self.shapes.setdefault(text, [0, 0.0])
            mine[0] += n
            mine[1] += ms
            self.server_ms += ms
            self.statements += n
        self.lost_races += lost

    def time(self, fn, *args):
        t0 = time.perf_counter()
        fn(*args)
        self.latencies.append(time.perf_counter() - t0)


# ---------- reporting ----------

class Report:
    def __init__(self):
        self.rows: list[dict] = []
        self.notes: dict = {}
        self.samples: dict = {}  # latency distributions for plot_ducklake.py, in the JSON only
        self.statements: list[dict] = []  # statement_rows(), in the JSON

    def keep_samples(self, name: str, wins) -> None:
        """The latencies (ms) of RockLake's and PostgreSQL's windows, for the plots."""
        self.samples[name] = {srv: [x * 1000 for x in w.latencies]
                              for srv, w in zip(("rocklake", "postgres"), wins)}

    def phase(self, title: str) -> None:
        print(f"\n== {title}", flush=True)

    def row(self, phase: str, metric: str, rl, pg, unit: str, target: str = "", met=None,
            ratio: float | None = None, base: str = "PG") -> None:
        """One measurement; base names what the second figure is (PostgreSQL's unless said)."""
        if ratio is None and isinstance(rl, (int, float)) and isinstance(pg, (int, float)) and pg:
            ratio = rl / pg
        self.rows.append({"phase": phase, "metric": metric, "rocklake": rl, "baseline": pg,
                          "baseline_is": "postgres" if base == "PG" else base, "unit": unit,
                          "ratio": ratio, "target": target, "met": met})
        fmt = lambda v: "-" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
        print(f"  {metric:<46} RL {fmt(rl):>10}  {base:<3} {fmt(pg):>10} {unit:<9} ratio {fmt(ratio):>7}"
              + (f"  target {target}: {'met' if met else 'MISSED'}" if target else ""), flush=True)

    def note(self, key: str, value) -> None:
        self.notes[key] = value
        print(f"  {key}: {value}", flush=True)


def statement_rows(rep: Report, phase: str, label: str, rl: Window, pg: Window, per: int, top: int = 10) -> None:
    """The server's share per operation broken down by statement shape (numbers and string
    literals as ?), both servers side by side, the shapes that cost either server the most
    first: statements per op and ms per op on RockLake and on PostgreSQL, and the ratio."""
    print(f"  {label}, by statement (per op: count RL/PG, ms RL, ms PG, ratio):", flush=True)
    per_op = lambda win, text, k: win.shapes.get(text, [0, 0.0])[k] / per
    ranked = sorted(set(rl.shapes) | set(pg.shapes),
                    key=lambda text: -max(per_op(rl, text, 1), per_op(pg, text, 1)))
    for text in ranked[:top]:
        n_rl, n_pg = per_op(rl, text, 0), per_op(pg, text, 0)
        ms_rl, ms_pg = per_op(rl, text, 1), per_op(pg, text, 1)
        ratio = ms_rl / ms_pg if ms_pg else None
        rep.statements.append({"phase": phase, "operation": label, "statement": text, "count_rocklake": n_rl,
                               "count_postgres": n_pg, "ms_rocklake": ms_rl, "ms_postgres": ms_pg, "ratio": ratio})
        print(f"    {n_rl:5.2f}/{n_pg:<5.2f} {ms_rl:8.3f} {ms_pg:8.3f} {'-' if ratio is None else f'{ratio:6.2f}':>6}"
              f"  {text}", flush=True)


def share_rows(rep: Report, phase: str, label: str, rl: Window, pg: Window, per: int,
               target: str = "", goal=None) -> None:
    """End-to-end and server time per operation for both servers."""
    e2e_rl, e2e_pg = sum(rl.latencies) / per * 1000, sum(pg.latencies) / per * 1000
    rep.row(phase, f"{label}: end to end per op", e2e_rl, e2e_pg, "ms")
    s_rl, s_pg = rl.server_ms / per, pg.server_ms / per
    met = None if goal is None else goal(s_rl, s_pg, e2e_rl, e2e_pg)
    rep.row(phase, f"{label}: server's share per op", s_rl, s_pg, "ms", target, met)
    rep.row(phase, f"{label}: statements logged per op", rl.statements / per, pg.statements / per, "")


# ---------- phases ----------

def interleave(rounds: int, pair, fn):
    """Run fn(server_index, round) for both servers, alternating who goes first."""
    for r in range(rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for i in order:
            fn(pair[i], i, r)


def p1(args, rl, pg, rep):
    rep.phase(f"P1 single writer: {args.p1_commits} inlined and {args.p1_commits} file-backed commits")
    lakes = [Lake(s, "p1", args.workdir, DATA_INLINING_ROW_LIMIT=10) for s in (rl, pg)]
    cons = [lk.session() for lk in lakes]
    for con in cons:
        con.execute("CREATE TABLE lake.ti (a INTEGER, b VARCHAR)")
        con.execute("CREATE TABLE lake.tf (a INTEGER, b VARCHAR)")
    for kind, sql in (("inlined", "INSERT INTO lake.ti VALUES (?, 'x')"),
                      ("file-backed", "INSERT INTO lake.tf SELECT range::INTEGER + ?, 'y' FROM range(100)")):
        wins = [Window(rl), Window(pg)]
        per_round = max(1, args.p1_commits // args.rounds)

        def run(srv, i, r):
            with wins[i] as w:
                for n in range(per_round):
                    w.time(cons[i].execute, sql, (r * per_round + n,))
        interleave(args.rounds, (rl, pg), run)
        n = per_round * args.rounds
        cps = [n / sum(w.latencies) for w in wins]
        rep.row("P1", f"{kind}: commits/s", cps[0], cps[1], "1/s", ">= 1.5x", cps[0] / cps[1] >= 1.5)
        rep.row("P1", f"{kind}: commit p50", pct(wins[0].latencies, .5) * 1000, pct(wins[1].latencies, .5) * 1000, "ms")
        rep.row("P1", f"{kind}: commit p95", pct(wins[0].latencies, .95) * 1000, pct(wins[1].latencies, .95) * 1000, "ms")
        rep.keep_samples(f"P1 {kind} commit latency", wins)
        share_rows(rep, "P1", kind, wins[0], wins[1], n)
        statement_rows(rep, "P1", f"{kind} commit", wins[0], wins[1], n)
    for con in cons:
        con.close()


def p2(args, rl, pg, rep):
    n, cols = args.p2_tables, 40
    rep.phase(f"P2 catalog of {n} tables x {cols} columns")
    lakes = [Lake(s, "p2", args.workdir) for s in (rl, pg)]
    cons = [lk.session() for lk in lakes]
    coldefs = ", ".join(f"c{j} {'BIGINT' if j % 2 == 0 else 'VARCHAR'}" for j in range(cols))
    wins = [Window(rl), Window(pg)]
    per_round = max(1, n // args.rounds)

    # DuckDB 1.4.4's client grows with every table of these catalogs, quadratically in
    # one session (24 GB RSS after about 750 tables on each of the two lakes of one
    # process, doc/performance.md). --p2-session-tables N opens a new DuckDB session on
    # each lake every N tables, untimed, which keeps it linear; and whatever the
    # sessions, stop before the machine swaps rather than measure a thrashing client.
    limit_kib = rss_kib(os.getpid(), "VmRSS") + total_memory_kib() // 2

    def create(srv, i, r):
        for k in range(r * per_round, (r + 1) * per_round):
            if args.p2_session_tables and k and k % args.p2_session_tables == 0:
                cons[i].close()
                cons[i] = lakes[i].session()
            with wins[i] as w:
                w.time(cons[i].execute, f"CREATE TABLE lake.t{k} ({coldefs})")
            if k % 10 == 0 and rss_kib(os.getpid()) > limit_kib:
                raise MemoryError(f"the DuckDB client reached {rss_kib(os.getpid()) // 1024} MiB "
                                  f"at table {k} of {n} on {srv.kind}; run with fewer --p2-tables "
                                  "or a --p2-session-tables")
    try:
        interleave(args.rounds, (rl, pg), create)
    except MemoryError as e:
        rep.note("P2 stopped", str(e))
        for con in cons:
            con.close()
        return
    total = per_round * args.rounds
    rep.row("P2", "creation: end to end, all tables", sum(wins[0].latencies), sum(wins[1].latencies), "s",
            "never slower", sum(wins[0].latencies) <= sum(wins[1].latencies))
    rep.row("P2", "creation: DuckDB client CPU, all tables", wins[0].cpu, wins[1].cpu, "s")
    rep.row("P2", "creation: server's share, all tables", wins[0].server_ms / 1000, wins[1].server_ms / 1000, "s",
            "<= 0.5x", wins[0].server_ms <= 0.5 * wins[1].server_ms)
    rep.row("P2", "creation: per table, end to end", sum(wins[0].latencies) / total * 1000,
            sum(wins[1].latencies) / total * 1000, "ms")
    rep.row("P2", "creation: last 10% of tables, per table", statistics.mean(wins[0].latencies[-max(1, total // 10):]) * 1000,
            statistics.mean(wins[1].latencies[-max(1, total // 10):]) * 1000, "ms")
    target = f"t{total // 2}"
    for con in cons:
        con.execute(f"INSERT INTO lake.{target} (c0, c1) SELECT range, 'v' || range FROM range(1000)")
        con.close()
    # re-ATTACH in a new DuckDB instance plus the first filtered read; the instance is
    # opened untimed (loading the two extensions takes about 300 ms of the client's,
    # varying by tens of ms from one instance to the next, whatever the server)
    rwins = [Window(rl), Window(pg)]

    def reattach(srv, i, r):
        con = duckdb_offline.connect()
        with rwins[i] as w:
            def go():
                con.execute(lakes[i].attach_sql())
                rows = con.execute(f"SELECT c1 FROM lake.{target} WHERE c0 = 500").fetchall()
                assert rows == [("v500",)], rows
            w.time(go)
        con.close()
    interleave(args.p2_reattach, (rl, pg), reattach)
    med = [statistics.median(w.latencies) * 1000 for w in rwins]
    rep.row("P2", "re-ATTACH + first filtered read, median", med[0], med[1], "ms",
            "never slower", med[0] <= med[1])
    k = args.p2_reattach
    rep.row("P2", "re-ATTACH + read: server's share, mean", rwins[0].server_ms / k, rwins[1].server_ms / k, "ms",
            "<= 0.5x", rwins[0].server_ms <= 0.5 * rwins[1].server_ms)
    rep.row("P2", "re-ATTACH + read: statements logged", rwins[0].statements / k, rwins[1].statements / k, "")
    statement_rows(rep, "P2", "re-ATTACH + first filtered read", rwins[0], rwins[1], k)


WRITER_ROUNDS = itertools.count()


def concurrent_writers(lake: Lake, writers: int, commits: int, win: Window, errors: dict,
                       at_start=None) -> tuple[float, int]:
    """writers DuckDB instances, each inserting commits single rows into its own table;
    returns (wall seconds, failed commits). Latencies go into win, the first line of
    each error DuckDB gave up with is counted in errors; at_start() runs once the
    tables exist, just before the writers start."""
    cons = [lake.session() for _ in range(writers)]
    tag = f"w{next(WRITER_ROUNDS)}"
    for k, con in enumerate(cons):
        con.execute(f"CREATE TABLE lake.{tag}_{k} (a INTEGER, b VARCHAR)")
    barrier = threading.Barrier(writers + 1)
    failures = [0] * writers
    lat: list[list[float]] = [[] for _ in range(writers)]

    def worker(k):
        con = cons[k]
        barrier.wait()
        for n in range(commits):
            t0 = time.perf_counter()
            try:
                con.execute(f"INSERT INTO lake.{tag}_{k} VALUES (?, 'x')", (n,))
                lat[k].append(time.perf_counter() - t0)
            except Exception as e:  # a commit DuckLake gave up on
                failures[k] += 1
                msg = str(e).splitlines()[0][:200]
                errors[msg] = errors.get(msg, 0) + 1
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(writers)]
    for t in threads:
        t.start()
    if at_start is not None:
        at_start()
    with win:
        barrier.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    for con in cons:
        con.close()
    for lt in lat:
        win.latencies += lt
    return wall, sum(failures)


def p3(args, rl, pg, rep):
    w, c = args.p3_writers, args.p3_commits
    rep.phase(f"P3 {w} DuckDB connections, each {c} commits into its own table")
    lakes = [Lake(s, "p3", args.workdir, DATA_INLINING_ROW_LIMIT=10) for s in (rl, pg)]
    wins = [Window(rl), Window(pg)]
    walls, fails = [0.0, 0.0], [0, 0]
    errors: list[dict] = [{}, {}]

    def run(srv, i, r):
        wall, failed = concurrent_writers(lakes[i], w, max(1, c // args.rounds), wins[i], errors[i])
        walls[i] += wall
        fails[i] += failed
    interleave(args.rounds, (rl, pg), run)
    ok = [len(x.latencies) for x in wins]
    tput = [ok[i] / walls[i] for i in range(2)]
    p95 = [pct(x.latencies, .95) * 1000 for x in wins]
    rep.row("P3", "throughput, commits/s", tput[0], tput[1], "1/s", ">= 1x", tput[0] >= tput[1])
    rep.row("P3", "commit p50", pct(wins[0].latencies, .5) * 1000, pct(wins[1].latencies, .5) * 1000, "ms")
    rep.row("P3", "commit p95", p95[0], p95[1], "ms", "<= PG", p95[0] <= p95[1])
    rep.keep_samples(f"P3 {w} writers commit latency", wins)
    rep.row("P3", "failed commits (DuckLake gave up)", fails[0], fails[1], "", ratio=None)
    for i, srv in enumerate((rl, pg)):
        if errors[i]:
            rep.note(f"P3 errors DuckDB gave up with on {srv.kind}", errors[i])
    rep.row("P3", "server's share per commit", wins[0].server_ms / max(1, ok[0]), wins[1].server_ms / max(1, ok[1]), "ms")
    # both servers make DuckLake retry (40001 / 23505) when two commits take one snapshot id
    rep.row("P3", "lost races per commit (DuckLake retries)", wins[0].lost_races / max(1, ok[0]),
            wins[1].lost_races / max(1, ok[1]), "")


def clone_files(server: Server, dbname: str, table: str, nfiles: int, chunk: int = 20000) -> None:
    """Give table nfiles data files in all: copies of its one real data file's row and
    statistics rows (new ids, column 'a' ranges k*100 .. k*100+99), by COPY."""
    with server.connect(dbname) as conn:
        tid = conn.execute("SELECT table_id FROM ducklake_table WHERE table_name = %s AND end_snapshot IS NULL",
                           (table,)).fetchone()[0]
        cur = conn.execute("SELECT * FROM ducklake_data_file WHERE table_id = %s", (tid,))
        fcols = [d.name for d in cur.description]
        frow = list(cur.fetchone())
        cur = conn.execute("SELECT * FROM ducklake_file_column_stats WHERE table_id = %s ORDER BY column_id", (tid,))
        scols = [d.name for d in cur.description]
        srows = [list(r) for r in cur.fetchall()]
        base = conn.execute("SELECT max(data_file_id) FROM ducklake_data_file").fetchone()[0] + 1
        conn.commit()
        fid_i, ord_i = fcols.index("data_file_id"), fcols.index("file_order") if "file_order" in fcols else None
        sfid_i, smin_i, smax_i, scol_i = (scols.index("data_file_id"), scols.index("min_value"),
                                          scols.index("max_value"), scols.index("column_id"))
        acol = min(r[scol_i] for r in srows)
        done = 1
        while done < nfiles:
            n = min(chunk, nfiles - done)
            with conn.cursor() as cur:
                with cur.copy(f"COPY ducklake_data_file ({', '.join(fcols)}) FROM STDIN") as cp:
                    for k in range(done, done + n):
                        row = list(frow)
                        row[fid_i] = base + k
                        if ord_i is not None:
                            row[ord_i] = k
                        cp.write_row(row)
                with cur.copy(f"COPY ducklake_file_column_stats ({', '.join(scols)}) FROM STDIN") as cp:
                    for k in range(done, done + n):
                        for s in srows:
                            row = list(s)
                            row[sfid_i] = base + k
                            if row[scol_i] == acol:
                                row[smin_i], row[smax_i] = str(k * 100), str(k * 100 + 99)
                            cp.write_row(row)
            conn.commit()
            done += n
        # The table's own statistics cover every file: without them DuckLake finds from
        # the table's max_value alone that no row can match a filter past the one real
        # file's range, and reads neither the file list nor the files' statistics.
        size = frow[fcols.index("file_size_bytes")]
        conn.execute("UPDATE ducklake_table_stats SET record_count = %s, file_size_bytes = %s WHERE table_id = %s",
                     (100 * nfiles, size * nfiles, tid))
        conn.execute("UPDATE ducklake_table_column_stats SET min_value = '0', max_value = %s "
                     "WHERE table_id = %s AND column_id = %s", (str((nfiles - 1) * 100 + 99), tid, acol))
        conn.commit()


def make_file_table(lake: Lake, table: str, nfiles: int, columns: str = "a BIGINT, b BIGINT") -> None:
    con = lake.session()
    con.execute(f"CREATE TABLE lake.{table} ({columns})")
    sel = "range, range" if "," in columns else "range"
    con.execute(f"INSERT INTO lake.{table} SELECT {sel} FROM range(100)")
    con.close()
    clone_files(lake.server, lake.dbname, table, nfiles)


def timed_reads(lakes, sql, rounds, rep, phase, label, check=None):
    wins = [Window(lk.server) for lk in lakes]
    cons = [lk.session() for lk in lakes]

    def run(srv, i, r):
        with wins[i] as w:
            t0 = time.perf_counter()
            rows = cons[i].execute(sql).fetchall()
            w.latencies.append(time.perf_counter() - t0)
            if check:
                check(rows)
    interleave(rounds, [lk.server for lk in lakes], run)
    for con in cons:
        con.close()
    med = [statistics.median(w.latencies) * 1000 for w in wins]
    rep.row(phase, f"{label}, median", med[0], med[1], "ms", "<= 0.5x", med[0] <= 0.5 * med[1])
    rep.row(phase, f"{label}, server's share", wins[0].server_ms / rounds, wins[1].server_ms / rounds, "ms",
            "<= 0.5x", wins[0].server_ms <= 0.5 * wins[1].server_ms)
    statement_rows(rep, phase, label, wins[0], wins[1], rounds)


def p4(args, rl, pg, rep):
    sizes = args.p4_files
    rep.phase(f"P4 catalog reads: file lists of {', '.join(map(str, sizes))} data files; pruning; readers")
    lakes = [Lake(s, "p4", args.workdir) for s in (rl, pg)]
    for nf in sizes:
        for lk in lakes:
            t0 = time.perf_counter()
            make_file_table(lk, f"f{nf}", nf)
            rep.note(f"P4 load {nf} files on {lk.server.kind} (COPY, s)", round(time.perf_counter() - t0, 1))
    for nf in sizes:
        timed_reads(lakes, f"SELECT count(*) FROM ducklake_list_files('lake', 'f{nf}')", args.p4_reads, rep, "P4",
                    f"file list, {nf} files", lambda rows, nf=nf: rows == [(nf,)] or print("  unexpected", rows))
        k = nf // 2
        timed_reads(lakes, f"SELECT count(*) FROM lake.f{nf} WHERE a = {k * 100 + 5}", args.p4_reads, rep, "P4",
                    f"pruned read (a = const), {nf} files")
    nf = sizes[0]
    sql = f"SELECT count(*) FROM lake.f{nf} WHERE a = {nf // 2 * 100 + 5}"
    for readers in args.p4_readers:
        res = []
        for lk in lakes:
            cons = [lk.session() for _ in range(readers)]
            lat: list[float] = []
            stop = time.perf_counter() + args.p4_seconds
            barrier = threading.Barrier(readers)

            def reader(con):
                mine = []
                barrier.wait()
                while time.perf_counter() < stop:
                    t0 = time.perf_counter()
                    con.execute(sql).fetchall()
                    mine.append(time.perf_counter() - t0)
                lat.extend(mine)
            threads = [threading.Thread(target=reader, args=(c,)) for c in cons]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
            for c in cons:
                c.close()
            res.append((len(lat) / wall, pct(lat, .95) * 1000))
        rep.row("P4", f"{readers} readers ({nf} files): reads/s", res[0][0], res[1][0], "1/s")
        rep.row("P4", f"{readers} readers ({nf} files): p95", res[0][1], res[1][1], "ms", "<= 0.5x",
                res[0][1] <= 0.5 * res[1][1])


def bare_put_ms(endpoint: str, bucket: str, n: int) -> list[float]:
    """n conditional PUTs (If-None-Match: *) of new 750-byte keys, one keep-alive connection."""
    host, port = endpoint.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    body = b"x" * 750
    out = []
    stamp = int(time.time() * 1000)
    for k in range(n):
        t0 = time.perf_counter()
        conn.request("PUT", f"/{bucket}/bare-put/{stamp}-{k}", body=body, headers={"If-None-Match": "*"})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200, resp.status
        out.append((time.perf_counter() - t0) * 1000)
    conn.close()
    return out


def count_wal_puts(moto_log: pathlib.Path, start: int, prefix: str) -> int:
    with open(moto_log, "rb") as f:
        f.seek(start)
        data = f.read().decode("utf-8", "replace")
    return len(re.findall(rf'"PUT /[^ ]*{re.escape(prefix)}/(db/\d+/)?wal/', data))


def p5(args, rl_s3: RockLake, pg, rep):
    rep.phase(f"P5 S3 backend on moto: {args.p5_commits} commits vs bare conditional PUTs; {args.p3_writers} writers")
    lake = Lake(rl_s3, "p5", args.workdir, DATA_INLINING_ROW_LIMIT=10)
    con = lake.session()
    con.execute("CREATE TABLE lake.t (a INTEGER, b VARCHAR)")
    commit_ms, put_ms = [], []
    per = max(1, args.p5_commits // args.rounds)
    win = Window(rl_s3)
    for r in range(args.rounds):
        with win:
            for k in range(per):
                t0 = time.perf_counter()
                con.execute("INSERT INTO lake.t VALUES (?, 'x')", (r * per + k,))
                commit_ms.append((time.perf_counter() - t0) * 1000)
        put_ms += bare_put_ms(args.moto_endpoint, args.bucket, per)
    con.close()
    c50, p50 = statistics.median(commit_ms), statistics.median(put_ms)
    rep.row("P5", "commit p50 vs bare conditional PUT p50", c50, p50, "ms", "<= PUT + 5 ms", c50 <= p50 + 5,
            ratio=c50 / p50, base="PUT")
    rep.row("P5", "commit p95 vs bare conditional PUT p95", pct(commit_ms, .95), pct(put_ms, .95), "ms", base="PUT")
    rep.row("P5", "server's share per commit vs PUT p50", win.server_ms / len(commit_ms), p50, "ms", base="PUT")
    # commits per WAL PUT with many writers
    mark = {}
    w2 = Window(rl_s3)
    errors: dict = {}
    wall, failed = concurrent_writers(lake, args.p3_writers, max(1, args.p3_commits // args.rounds), w2, errors,
                                      lambda: mark.setdefault("off", args.moto_log.stat().st_size))
    off = mark["off"]
    puts = count_wal_puts(args.moto_log, off, rl_s3.settings["store"].split("/", 3)[3])
    ok = len(w2.latencies)
    rep.row("P5", f"{args.p3_writers} writers: commits per WAL PUT", ok / max(1, puts), None, "",
            "> 1", ok / max(1, puts) > 1)
    rep.row("P5", f"{args.p3_writers} writers: commits/s (S3)", ok / wall, None, "1/s")
    rep.row("P5", f"{args.p3_writers} writers: commit p95 (S3)", pct(w2.latencies, .95) * 1000, None, "ms")
    rep.row("P5", f"{args.p3_writers} writers: failed commits", failed, None, "")
    rep.row("P5", f"{args.p3_writers} writers: WAL PUTs", puts, None, "")
    if errors:
        rep.note("P5 errors DuckDB gave up with", errors)


def pg_backend_rss(pg_pid: int, dbname: str) -> tuple[int, int]:
    best = (0, 0)
    for pid in children(pg_pid):
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if dbname in cmd:
            best = max(best, (rss_kib(pid), rss_kib(pid, "VmHWM")))
    return best


def p6(args, rl: RockLake, pg: Postgres, rep):
    rep.phase(f"P6 memory: catalogs of {', '.join(f'{n:.0e}' for n in args.p6_rows)} rows; cache rebuild")
    for rows in args.p6_rows:
        nfiles = max(1, rows // 2)  # one data-file row and one statistics row per file
        res = {}
        for srv in (rl, pg):
            lake = Lake(srv, "p6", args.workdir)
            t0 = time.perf_counter()
            make_file_table(lake, "big", nfiles, "a BIGINT")
            rep.note(f"P6 load {rows:.0e} rows on {srv.kind} (COPY, s)", round(time.perf_counter() - t0, 1))
            con = lake.session()
            con.execute("SELECT count(*) FROM ducklake_list_files('lake', 'big')").fetchall()
            con.execute(f"SELECT count(*) FROM lake.big WHERE a = {nfiles // 2 * 100 + 5}").fetchall()
            if srv is rl:
                writer = rl.writer_pid()
                backends = [p for p in children(rl.proc.pid) if p != writer]
                res[srv.kind] = max((rss_kib(p), rss_kib(p, "VmHWM")) for p in backends)
                res["writer"] = (rss_kib(writer), rss_kib(writer, "VmHWM"))
            else:
                res[srv.kind] = pg_backend_rss(args.pg_pid, lake.dbname)
            con.close()
            if srv is rl:
                datid = rl.newest_cache()
                rl.stop()
                restart_warm = rl.start()
                rl.stop()
                for f in rl.datadir.glob(f"catalog.{datid}.sqlite*"):
                    f.unlink()
                restart_cold = rl.start()
                wr = rl.writer_pid()
                res["rebuild"] = (restart_warm, restart_cold, rss_kib(wr, "VmHWM"))
        mib = lambda kib: kib / 1024
        rep.row("P6", f"{rows:.0e} rows: busiest backend RSS", mib(res["rocklake"][0]), mib(res["postgres"][0]), "MiB",
                "<= 32 MiB", res["rocklake"][0] <= 32 * 1024)
        rep.row("P6", f"{rows:.0e} rows: busiest backend peak RSS", mib(res["rocklake"][1]), mib(res["postgres"][1]),
                "MiB", "<= 32 MiB", res["rocklake"][1] <= 32 * 1024)
        rep.row("P6", f"{rows:.0e} rows: writer RSS / peak", f"{mib(res['writer'][0]):.1f}/{mib(res['writer'][1]):.1f}",
                None, "MiB")
        warm, cold, peak = res["rebuild"]
        rep.row("P6", f"{rows:.0e} rows: restart, cache kept / rebuilt", f"{warm:.2f}/{cold:.2f}", None, "s")
        rep.row("P6", f"{rows:.0e} rows: writer peak RSS after rebuild", mib(peak), None, "MiB")


PHASES = {"P1": p1, "P2": p2, "P3": p3, "P4": p4, "P6": p6}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rocklake", required=True)
    ap.add_argument("--workdir", type=pathlib.Path, required=True)
    ap.add_argument("--pg-port", type=int, required=True)
    ap.add_argument("--pg-log", type=pathlib.Path, required=True)
    ap.add_argument("--pg-datadir", required=True)
    ap.add_argument("--moto-endpoint")
    ap.add_argument("--moto-log", type=pathlib.Path)
    ap.add_argument("--bucket", default="rocklake-bench")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--phases", default="P1,P2,P3,P4,P5,P6")
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--p1-commits", type=int)
    ap.add_argument("--p2-tables", type=int)
    ap.add_argument("--p2-reattach", type=int)
    ap.add_argument("--p2-session-tables", type=int, default=0)
    ap.add_argument("--p3-writers", type=int, default=16)
    ap.add_argument("--p3-commits", type=int)
    ap.add_argument("--p4-files", type=lambda s: [int(float(x)) for x in s.split(",")])
    ap.add_argument("--p4-reads", type=int)
    ap.add_argument("--p4-readers", type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--p4-seconds", type=float)
    ap.add_argument("--p5-commits", type=int)
    ap.add_argument("--p6-rows", type=lambda s: [int(float(x)) for x in s.split(",")])
    args = ap.parse_args()
    # The issue asks for 1000 tables, 10k and 100k data files and 1e4 to 1e7 rows: options
    # (--p2-tables 1000 --p2-session-tables 50, --p4-files 10000,100000, --p6-rows
    # 1e4,1e6,1e7), which take about 6, 2 and 7 minutes on this 2-core machine, mostly
    # the DuckDB client and loading the catalogs. The defaults run in about 4 minutes.
    quick = {"rounds": 2, "p1_commits": 100, "p2_tables": 60, "p2_reattach": 4, "p3_commits": 8,
             "p4_files": [300, 1000], "p4_reads": 4, "p4_readers": [1, 4, 16], "p4_seconds": 3.0,
             "p5_commits": 60, "p6_rows": [1000, 3000]}
    full = {"rounds": 4, "p1_commits": 400, "p2_tables": 300, "p2_reattach": 6, "p3_commits": 60,
            "p4_files": [1000, 3000], "p4_reads": 6, "p4_readers": [1, 4, 16], "p4_seconds": 5.0,
            "p5_commits": 200, "p6_rows": [1000, 10000]}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    args.pg_pid = Postgres(args.pg_port, args.pg_log).postmaster_pid(args.pg_datadir)
    settings = {"log_min_duration_statement": 0, "log_connections": "on", "max_connections": 200}
    pg = Postgres(args.pg_port, args.pg_log)
    rl = RockLake(args.rocklake, args.workdir / "rl" / "data", settings)
    rl.start()
    rl_s3 = None
    rep = Report()
    rep.note("sizes", {k: getattr(args, k) for k in [*full, "p2_session_tables"]})
    t_start = time.perf_counter()
    try:
        for name in args.phases.split(","):
            t0 = time.perf_counter()
            if name == "P5":
                if not args.moto_endpoint:
                    rep.note("P5", "skipped: no moto")
                    continue
                store = f"s3://{args.bucket}/p5-{int(time.time())}"
                rl_s3 = RockLake(args.rocklake, args.workdir / "rl_s3" / "data", dict(settings, store=store),
                                 {"AWS_ENDPOINT_URL": args.moto_endpoint, "AWS_REGION": "us-east-1",
                                  "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"})
                rl_s3.start()
                p5(args, rl_s3, pg, rep)
                rl_s3.stop()
            else:
                PHASES[name](args, rl, pg, rep)
            rep.note(f"{name} took (s)", round(time.perf_counter() - t0, 1))
    finally:
        rl.stop()
        if rl_s3 is not None:
            rl_s3.stop()
    rep.note("whole run (s)", round(time.perf_counter() - t_start, 1))
    if args.json:
        args.json.write_text(json.dumps({"rows": rep.rows, "notes": rep.notes, "samples": rep.samples,
                                         "statements": rep.statements},
                                        indent=1, default=str))


if __name__ == "__main__":
    main()
