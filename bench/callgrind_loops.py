#!/usr/bin/env python3
"""Instruction counts of RockLake's backend and writer for DuckLake's own statements.

Wall-clock ratios on a small shared machine move by 10 to 20 % between runs of the same
tree; instruction counts do not depend on the load. This starts RockLake on a copy of a
lake the DuckLake harness kept (`bench/run-ducklake-bench.sh --phases P2 --keep`: its
`rl/data`), under `valgrind --tool=callgrind --trace-children=yes`, and runs loops of
statements DuckDB sends there through psycopg. Around each loop the counts of the backend
(or the writer) are zeroed and dumped with `callgrind_control`; the script prints millions
of instructions per iteration. The dumps stay in the work directory for
`callgrind_annotate`.

Loops:
  copy    the full COPY of ducklake_column in binary, which DuckLake runs before every
          CREATE TABLE (a tenth as many iterations as the others)
  batch   BEGIN, DuckLake's commit batch for a CREATE TABLE of 40 columns, ROLLBACK
  commit  the same batch with new ids, and COMMIT (counted in the backend)
  writer  the same as commit, counted in the writer
  inlined-commit, inlined-writer
          P1's commit of one inlined row (table and column stats updated, the row, the
          snapshot and its changes), on a lake kept by --phases P1 (database p1_1)

usage: bench/callgrind_loops.py --rocklake BUILD/rocklake --data KEPT/rl/data
           [--database p2_1] [--loops copy,batch,commit,writer] [--iterations 30]
"""
import argparse
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import psycopg

COPY_COLUMNS = ('COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "column_id", "column_name", '
                '"column_type", "initial_default", "default_value", "nulls_allowed", "parent_column", '
                '"column_order" FROM "public"."ducklake_column" ) TO STDOUT (FORMAT "binary")')


def create_table_batch(table_id: int) -> str:
    """DuckLake 0.3's commit batch for a CREATE TABLE of 40 columns, as in the P2 log."""
    columns = ",".join(
        f"({c + 1}, {table_id}, NULL, {table_id}, {c + 1}, 'c{c}', '{'int64' if c % 2 == 0 else 'varchar'}', "
        "NULL, NULL, true, NULL)" for c in range(40))
    return (f"INSERT INTO \"public\".ducklake_table VALUES ({table_id}, '01a22a7c-3dea-7ab4-954d-f7e431298321', "
            f"{table_id}, NULL, 0, 't{table_id}', 't{table_id}/', true);"
            f"INSERT INTO \"public\".ducklake_column VALUES {columns};"
            f"INSERT INTO \"public\".ducklake_snapshot VALUES ({table_id}, NOW(), {table_id}, {table_id + 1}, 0);"
            f"INSERT INTO \"public\".ducklake_snapshot_changes VALUES ({table_id}, "
            f"'created_table:\"main\".\"t{table_id}\"', NULL, NULL, NULL);"
            f"INSERT INTO \"public\".ducklake_schema_versions VALUES ({table_id},{table_id});")


def inlined_insert_batch(snapshot_id: int) -> str:
    """DuckLake 0.3's commit batch for one inlined row of P1's table, as in the P1 log."""
    return (f"UPDATE \"public\".ducklake_table_stats SET record_count={snapshot_id}, file_size_bytes=0, "
            f"next_row_id={snapshot_id} WHERE table_id=1;"
            "WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS ("
            f"VALUES (1, 1, false, NULL, '0', '{snapshot_id}', NULL),(1, 2, false, NULL, 'x', 'x', NULL)) "
            "UPDATE \"public\".ducklake_table_column_stats SET contains_null=new_contains_null::boolean, "
            "contains_nan=new_contains_nan::boolean, min_value=new_min, max_value=new_max, "
            "extra_stats=new_extra_stats FROM new_values WHERE table_id=tid AND column_id=cid;"
            f"INSERT INTO \"public\".ducklake_inlined_data_1_1 VALUES ({snapshot_id}, {snapshot_id}, NULL, "
            f"{snapshot_id}, 'x');"
            f"INSERT INTO \"public\".ducklake_snapshot VALUES ({snapshot_id}, NOW(), 2, 3, {snapshot_id});"
            f"INSERT INTO \"public\".ducklake_snapshot_changes VALUES ({snapshot_id}, 'inlined_insert:1', "
            "NULL, NULL, NULL);")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[1] == str(pid):
                        found.append(int(entry))
            except OSError:
                pass
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rocklake", required=True)
    ap.add_argument("--data", required=True, help="a kept lake's rl/data directory")
    ap.add_argument("--database", default="p2_1")
    ap.add_argument("--loops", default="copy,batch,commit,writer")
    ap.add_argument("--iterations", type=int, default=30)
    args = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("needs valgrind (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1

    work = tempfile.mkdtemp(prefix="rl-callgrind.")
    data = os.path.join(work, "data")
    shutil.copytree(args.data, data)
    port = free_port()
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={work}/callgrind.%p",
         args.rocklake, "-D", data, "-p", str(port), "-h", "127.0.0.1", "-c", f"unix_socket_directories={work}",
         "-c", "authentication_timeout=10min"], stdout=log, stderr=log)
    try:
        conn = None
        for _ in range(600):
            try:
                conn = psycopg.connect(f"host=127.0.0.1 port={port} dbname={args.database} user=rocklake",
                                       autocommit=True, connect_timeout=60)
                break
            except psycopg.OperationalError:
                time.sleep(0.2)
        if conn is None:
            print(f"RockLake did not start; see {work}/server.log", file=sys.stderr)
            return 1
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        writer = min(children(server.pid))  # the postmaster starts its writer first
        next_id = iter(range(1_000_000, 2_000_000))

        def copy_once():
            with conn.cursor() as cur:
                with cur.copy(COPY_COLUMNS) as copy:
                    for _ in copy:
                        pass

        def batch_once():
            conn.execute("BEGIN")
            conn.execute(create_table_batch(999_999))
            conn.execute("ROLLBACK")

        def commit_once():
            conn.execute("BEGIN")
            conn.execute(create_table_batch(next(next_id)))
            conn.execute("COMMIT")

        def inlined_commit_once():
            conn.execute("BEGIN")
            conn.execute(inlined_insert_batch(next(next_id)))
            conn.execute("COMMIT")

        loops = {"copy": (copy_once, backend, max(2, args.iterations // 10)),
                 "batch": (batch_once, backend, args.iterations),
                 "commit": (commit_once, backend, args.iterations),
                 "writer": (commit_once, writer, args.iterations),
                 "inlined-commit": (inlined_commit_once, backend, args.iterations),
                 "inlined-writer": (inlined_commit_once, writer, args.iterations)}
        for name in args.loops.split(","):
            run, pid, n = loops[name]
            run()  # statements compiled, caches warm
            subprocess.run(["callgrind_control", "-z", str(pid)], check=True, capture_output=True)
            for _ in range(n):
                run()
            subprocess.run(["callgrind_control", "-d", name, str(pid)], check=True, capture_output=True)
            time.sleep(0.5)
            dump = max(glob.glob(f"{work}/callgrind.{pid}.*"), key=os.path.getmtime)
            with open(dump) as f:
                total = next(int(line.split()[1]) for line in f if line.startswith(("summary:", "totals:")))
            print(f"{name}: {total / n / 1e6:.3f} M instructions per iteration ({dump})", flush=True)
        conn.close()
    finally:
        server.terminate()
        server.wait()
    print(f"work directory: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
