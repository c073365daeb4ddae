"""column_lookup_bench.py: the column lookup DuckDB 1.5's postgres extension sends on a
session's first read of a catalog table, on RockLake and on PostgreSQL 15 started in the
same run (doc/performance.md, "The column lookup").

Each server gets TABLES tables of COLUMNS columns and a primary key (a DuckLake
inlined-data table's shape), made with plain CREATE TABLE. Then REPEAT times, each time on
a new connection (as a DuckDB session's first read does) and for another table, and again
REPEAT times on one connection, the lookup as DuckDB 1.5.5 sends it: pg_class joined with
pg_namespace, pg_attribute, pg_type and pg_description for one relname, UNION ALL that
relation's keys from pg_constraint. The median and p95 of each server are printed with
the ratio RockLake / PostgreSQL; --tables 10 and --tables 100 show whether RockLake's cost
grows with the number of relations.

usage: column_lookup_bench.py [--tables N] [--columns N] [--repeat N]
Run with top_srcdir and top_builddir in the environment (test/duckdb/servers.py), e.g.
  top_srcdir=$PWD top_builddir=$PWD/build/dev .venv/bin/python bench/column_lookup_bench.py
"""

import argparse
import pathlib
import re
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "duckdb"))

from servers import Server  # noqa: E402
from catalog_scan_bench import both_servers, print_header, print_ratios  # noqa: E402



def duckdb_lookup() -> str:
    """DuckDB 1.5.5's lookup of one table as test/duckdb's capture has it, the table's
    name a {table} placeholder"""
    captured = (HERE.parent / "test" / "duckdb" / "data" / "ducklake_1_0_statements.sql").read_text()
    entry = next(e for e in captured.split("\n-- ---\n")
                 if e.lstrip().startswith("SELECT pg_namespace.oid AS namespace_id, relname, relpages")
                 and "AND relname='" in e)
    return re.sub(r"relname='[^']*'", "relname='{table}'", entry.replace("{", "{{").replace("}", "}}"))


LOOKUP = duckdb_lookup()

TYPES = ("BIGINT", "VARCHAR", "DOUBLE PRECISION", "BOOLEAN", "TIMESTAMP WITH TIME ZONE", "INTEGER", "DATE",
         "NUMERIC(18,3)")


def populate(server: Server, dbname: str, args) -> None:
    with server.connect(dbname) as conn:
        for t in range(args.tables):
            columns = ", ".join(f"c{c} {TYPES[c % len(TYPES)]}" for c in range(args.columns))
            conn.execute(f"CREATE TABLE ducklake_inlined_data_{t}_1 (row_id BIGINT PRIMARY KEY, {columns})")


def lookup(conn, table: str) -> tuple[float, list]:
    start = time.perf_counter()
    rows = conn.execute(LOOKUP.format(table=table)).fetchall()
    return time.perf_counter() - start, rows


def timed_lookups(server: Server, dbname: str, args, rounds: int, same: bool) -> tuple[list[float], list]:
    """Seconds per lookup, each on a new connection (or all on one), tables taken in
    turn; the answers."""
    times, answers = [], []
    conn = server.connect(dbname, autocommit=True) if same else None
    for i in range(rounds):
        table = f"ducklake_inlined_data_{(i * 37) % args.tables}_1"
        if same:
            seconds, rows = lookup(conn, table)
        else:
            with server.connect(dbname, autocommit=True) as new:
                seconds, rows = lookup(new, table)
        times.append(seconds)
        # not the OIDs of schema and key; conkey as text (RockLake sends it as text)
        answers.append([tuple("{%s}" % ",".join(map(str, v)) if isinstance(v, list) else v
                              for v in row[1:9] + row[10:]) for row in rows])
    if conn is not None:
        conn.close()
    return times, answers


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--columns", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    with both_servers("rl-lookupbench.") as (work, servers):
        dbnames = {kind: server.create_database("lookupbench") for kind, server in servers.items()}
        for kind, server in servers.items():
            populate(server, dbnames[kind], args)
        print(f"catalog: {args.tables} tables x {args.columns} columns and a key each; "
              f"{args.repeat} lookups per server")
        print_header("lookups", 16)
        for name, same in (("new connection", False), ("one connection", True)):
            # alternate the servers in rounds, so a slow spell of the machine hits both
            runs = {kind: [] for kind in servers}
            answers = {kind: [] for kind in servers}
            for _ in range(4):
                for kind, server in servers.items():
                    t, a = timed_lookups(server, dbnames[kind], args, args.repeat // 4, same)
                    runs[kind] += t
                    answers[kind] += a
            if answers["rocklake"] != answers["postgres"]:
                print("the answers differ", file=sys.stderr)
                sys.exit(1)
            print_ratios(name, 16, runs["rocklake"], runs["postgres"])

if __name__ == "__main__":
    main()
