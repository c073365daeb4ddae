#!/usr/bin/env python3
"""normalise.py: turn a pg_wire_dump.py log into a stable text for diffing.

The differential tests (test/scripts/differential.sh) record the same client
session against a real PostgreSQL 15 and against RockLake; this removes what
legitimately differs between two runs or two servers -- pids, cancel keys, md5
salts, SCRAM nonces and proofs, server_version, the source file/line/routine
fields of errors -- and orders the messages per connection and direction (the
proxy logs each direction from its own thread, so their interleaving is not
deterministic; each direction on its own is). Connections are renumbered in
order of appearance.

  normalise.py LOGFILE        print the normalised log; waits (up to 10 s) until
                              every connection in it has closed in both directions
"""
import re
import sys
import time

RULES = [
    (re.compile(r"(BackendKeyData|CancelRequest) pid=-?\d+ key=-?\d+"), r"\1 pid=? key=?"),
    (re.compile(r"salt=[0-9a-f]+"), "salt=?"),
    (re.compile(r"data='[^']*'"), "data=?"),
    (re.compile(r"\['server_version', '[^']*'\]"), "['server_version', '15.x']"),
    (re.compile(r" [FLR]='[^']*'"), ""),
    (re.compile(r"<eof \w+>"), "<eof>"),
]
LINE = re.compile(r"^\[c(\d+)\] ([FB]) (.*)$")


def parse(path):
    conns = {}
    with open(path, encoding="utf8", errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                conns.setdefault(int(m.group(1)), {"F": [], "B": []})[m.group(2)].append(m.group(3))
    return conns


def closed(conns):
    return all(any(x.startswith("<eof") for x in c[d]) for c in conns.values() for d in "FB")


def main():
    deadline = time.time() + 10
    conns = parse(sys.argv[1])
    while not closed(conns) and time.time() < deadline:
        time.sleep(0.1)
        conns = parse(sys.argv[1])
    for n, cid in enumerate(sorted(conns), 1):
        for d in "FB":
            for text in conns[cid][d]:
                for pattern, repl in RULES:
                    text = pattern.sub(repl, text)
                print("[c%d] %s %s" % (n, d, text))


if __name__ == "__main__":
    main()
