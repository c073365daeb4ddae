#!/usr/bin/env python3
"""Where a server's share goes, statement by statement.

The DuckLake benchmark sums every "duration:" line of a phase into one figure, and breaks
P1's commits and P4's reads down with shares() below, both servers side by side. To find
what to make faster in any phase, this groups the lines of a kept run's logs
(run-ducklake-bench.sh --keep) by statement shape (numbers and string literals replaced by
?) and prints, for each log, the shapes that took the most time: count, total and mean
milliseconds.

usage: statement_shares.py [--top N] [--database NAME] LOG [LOG...]
"""
import argparse
import re
from collections import defaultdict

LINE = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  duration: ([0-9.]+) ms  (.*)$")
CONNECTION = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  connection authorized: .*database=(\S+)")
PREFIX = re.compile(r"^\d{4}-\d\d-\d\d ")  # a log line's own start (log_line_prefix %m)
LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")


SHAPE_CHARS = 160


def shape(text):
    return LITERAL.sub("?", " ".join(text.split()))[:SHAPE_CHARS]


def shares(lines, database=None):
    """(shape -> [count, total ms]) of the statements in a log's lines, optionally of one
    database's sessions (known from the "connection authorized" lines among them). A
    statement's text runs on over the lines that follow it without a log line's prefix
    (PostgreSQL indents them by a tab, RockLake does not); its shape is its first
    SHAPE_CHARS characters with each run of blanks and newlines as one space, so that
    DuckDB's statements that start with a newline, or with BEGIN and go on in one query
    string, are told apart."""
    sums = defaultdict(lambda: [0, 0.0])
    database_of = {}
    pending = None  # [text, ms] of the statement whose continuation lines may follow

    def flush():
        if pending is not None:
            entry = sums[shape(pending[0])]
            entry[0] += 1
            entry[1] += pending[1]

    for line in lines:
        if pending is not None and not PREFIX.match(line):
            if len(pending[0]) < 4 * SHAPE_CHARS:
                pending[0] += " " + line.strip()
            continue
        flush()
        pending = None
        connected = CONNECTION.match(line)
        if connected:
            database_of[connected.group(1)] = connected.group(2).rstrip(",")
            continue
        logged = LINE.match(line.rstrip("\n"))
        if not logged:
            continue
        pid, ms, text = logged.groups()
        if database and database_of.get(pid) != database:
            continue
        pending = [text, float(ms)]
    flush()
    return sums


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--database", help="only the sessions connected to this database")
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    for path in args.logs:
        with open(path, errors="replace") as log:
            sums = shares(log, args.database)
        total = sum(entry[1] for entry in sums.values())
        print(f"== {path}: {total:.1f} ms in {sum(e[0] for e in sums.values())} statements")
        ranked = sorted(sums.items(), key=lambda item: -item[1][1])
        for text, (count, ms) in ranked[: args.top]:
            print(f"{count:7d} {ms:10.1f} ms {ms / count:8.3f} ms  {text}")


if __name__ == "__main__":
    main()
