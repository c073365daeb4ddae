"""One DuckDB session run as a program, for a test that needs another DuckDB release than
its own process loads (test_migration.py runs 1.4.4 and 1.5.5 one after the other on
one lake): the python of the release's virtualenv runs this file.

Reads a JSON object on stdin, {"attach": ATTACH statement, "statements": [SQL, ...]},
attaches (an attachment that fails is recorded like a statement), runs the statements in
order and prints a JSON list with one [SQL, rows] for each, rows as lists of the values'
repr(), or [SQL, "error: KIND: first line"] for a statement that failed.
"""

import json
import sys

import duckdb

import duckdb_offline


def run(con: duckdb.DuckDBPyConnection, sql: str) -> list:
    try:
        con.execute(sql)
        rows = con.fetchall() if con.description else []
        return [sql, [[repr(v) for v in row] for row in rows]]
    except duckdb.Error as e:
        return [sql, f"error: {type(e).__name__}: {str(e).splitlines()[0]}"]


def main() -> None:
    job = json.load(sys.stdin)
    con = duckdb_offline.connect()
    out = [run(con, job["attach"])]
    if not isinstance(out[0][1], str):
        out += [run(con, sql) for sql in job["statements"]]
    con.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
