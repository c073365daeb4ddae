#!/usr/bin/env python3
"""Where a server's share goes, statement by statement.

The DuckLake benchmark sums every "duration:" line of a phase into one figure. To find what
to make faster, this groups the lines of a kept run's logs (run-ducklake-bench.sh --keep) by
statement shape (numbers and string literals replaced by ?) and prints, for each log, the
shapes that took the most time: count, total and mean milliseconds. A statement that spans
lines (DuckLake's batched commit) is grouped by its first line.

usage: statement_shares.py [--top N] [--database NAME] LOG [LOG...]
"""
import argparse
import re
from collections import defaultdict

LINE = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  duration: ([0-9.]+) ms  (.*)$")
CONNECTION = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  connection authorized: .*database=(\S+)")
LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")


def shape(text):
    return LITERAL.sub("?", text)[:140]


def shares(path, database):
    """(shape -> [count, total ms]) of the statements of one log, optionally of one database."""
    sums = defaultdict(lambda: [0, 0.0])
    database_of = {}
    with open(path, errors="replace") as log:
        for line in log:
            connected = CONNECTION.match(line)
            if connected:
                database_of[connected.group(1)] = connected.group(2).rstrip(",")
                continue
            logged = LINE.match(line)
            if not logged:
                continue
            pid, ms, text = logged.groups()
            if database and database_of.get(pid) != database:
                continue
            entry = sums[shape(text)]
            entry[0] += 1
            entry[1] += float(ms)
    return sums


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--database", help="only the sessions connected to this database")
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    for path in args.logs:
        sums = shares(path, args.database)
        total = sum(entry[1] for entry in sums.values())
        print(f"== {path}: {total:.1f} ms in {sum(e[0] for e in sums.values())} statements")
        ranked = sorted(sums.items(), key=lambda item: -item[1][1])
        for text, (count, ms) in ranked[: args.top]:
            print(f"{count:7d} {ms:10.1f} ms {ms / count:8.3f} ms  {text}")


if __name__ == "__main__":
    main()
