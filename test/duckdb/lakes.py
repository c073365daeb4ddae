"""A DuckLake on one server, seen through DuckDB sessions that record a transcript.

Scenarios run the same statements against RockLake and PostgreSQL 15; what they record
(statement, result rows) must be equal on both. Recorded values are normalised: the
lake's DATA_PATH and the server's DSN become placeholders, UUIDs (in file names) are
masked, so only what the catalog decides is compared, and a float NaN becomes "NaN" (one
NaN is not equal to another in Python). Scenarios leave out values that differ between
any two runs (snapshot times, file names) or record something derived from them with
Session.note.
"""

import math
import pathlib
import re
import uuid
from typing import Any

import duckdb

import duckdb_offline
from servers import Server

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


class Lake:
    """A DuckLake catalog in one database of server, with its Parquet files in data_path."""

    def __init__(self, server: Server, dbname: str, data_path: pathlib.Path):
        self.server = server
        self.dbname = dbname
        self.data_path = data_path
        self.transcript: list[tuple[str, Any]] = []

    @property
    def dsn(self) -> str:
        return self.server.dsn(self.dbname)

    def attach_sql(self, alias: str = "lake", **options) -> str:
        opts = {"DATA_PATH": f"{self.data_path}/", **options}
        rendered = ", ".join(f"{k} {_literal(v)}" for k, v in opts.items())
        return f"ATTACH 'ducklake:postgres:{self.dsn}' AS {alias} ({rendered})"

    def session(self, **attach_options) -> "Session":
        """A new DuckDB connection with this lake attached as "lake"."""
        session = Session(self, duckdb_offline.connect())
        session.attach(**attach_options)
        return session

    def parquet_files(self) -> list[pathlib.Path]:
        return sorted(self.data_path.rglob("*.parquet"))

    def note_step(self, label: str, value: Any) -> None:
        """Record a step of the transcript (normalised)."""
        self.transcript.append((self.normalise(label), self.normalise(value)))

    def normalise(self, value: Any) -> Any:
        if isinstance(value, str):
            value = value.replace(f"{self.data_path}/", "<DATA_PATH>/").replace(self.dsn, "<DSN>")
            return UUID.sub("<uuid>", value)
        if isinstance(value, uuid.UUID):
            return "<uuid>"
        if isinstance(value, float) and math.isnan(value):
            return "NaN"  # equal to itself, as the servers' NaN
        if isinstance(value, (list, tuple)):
            return type(value)(self.normalise(v) for v in value)
        if isinstance(value, dict):
            return {self.normalise(k): self.normalise(v) for k, v in value.items()}
        return value


class Session:
    """One DuckDB connection to a lake; sql() records what it runs and returns."""

    def __init__(self, lake: Lake, con: duckdb.DuckDBPyConnection):
        self.lake = lake
        self.con = con

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.con.close()

    def attach(self, **options) -> None:
        self.con.execute(self.lake.attach_sql(**options))
        self.note("ATTACH", options)

    def detach(self) -> None:
        self.sql("DETACH lake")

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        """Run query and record it with its result rows."""
        rows = self.quiet(query, params)
        self.note(query, rows)
        return rows

    def value(self, query: str, params: tuple = ()) -> Any:
        """Run query, record it and return its single value."""
        (row,) = self.sql(query, params)
        return row[0]

    def error(self, query: str) -> str:
        """Run query, which must fail, and record its error (kind and first line)."""
        try:
            self.con.execute(query)
        except duckdb.Error as e:
            message = f"{type(e).__name__}: {str(e).splitlines()[0]}"
            self.note(query, message)
            return message
        raise AssertionError(f"{query} did not fail")

    def quiet(self, query: str, params: tuple = ()) -> list[tuple]:
        """Run query without recording it (results that differ between runs)."""
        self.con.execute(query, params)
        return self.con.fetchall() if self.con.description else []

    def note(self, label: str, value: Any) -> None:
        self.lake.note_step(label, value)


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(value)


def insert_in_commits(attach_sql: str, writer: str, commits: int, start) -> None:
    """One of several DuckDB processes writing into one lake: once all have attached
    (start is a multiprocessing Barrier), insert (writer, n) in separate commits."""
    con = duckdb_offline.connect()
    con.execute(attach_sql)
    con.execute("SET ducklake_max_retry_count = 100")
    start.wait(timeout=120)
    for n in range(commits):
        con.execute("INSERT INTO lake.t VALUES (?, ?)", (writer, n))
    con.close()
