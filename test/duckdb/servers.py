"""RockLake and PostgreSQL 15 servers for the DuckDB tests, run through server_ctl.sh.

server_ctl.sh drives the shell helpers the other script tests use (server.sh,
postgres.sh); this module only keeps its stdin open, reads its "ready" lines and asks it
to restart. Closing stdin stops the server.
"""

import os
import pathlib
import subprocess

import psycopg

HERE = pathlib.Path(__file__).resolve().parent
TOP_SRCDIR = pathlib.Path(os.environ.get("top_srcdir", HERE.parent.parent))
TOP_BUILDDIR = pathlib.Path(os.environ.get("top_builddir", TOP_SRCDIR))


class Server:
    """One running server of kind "rocklake" or "postgres" with its work files in workdir."""

    def __init__(self, kind: str, workdir: pathlib.Path):
        self.kind = kind
        self.workdir = workdir
        self.stderr_path = workdir / "server_ctl.stderr"
        env = dict(os.environ, top_srcdir=str(TOP_SRCDIR), top_builddir=str(TOP_BUILDDIR))
        with open(self.stderr_path, "w") as stderr:
            self._proc = subprocess.Popen(
                ["sh", str(HERE / "server_ctl.sh"), kind, str(workdir)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                text=True, env=env)
        self._await_ready()
        self._databases = 0

    def _await_ready(self) -> None:
        line = self._proc.stdout.readline().split()
        if not line or line[0] != "ready":
            self._proc.wait(timeout=60)
            raise RuntimeError(f"{self.kind} did not start:\n{self.stderr_path.read_text()}")
        self.host, port, self.user, pid = line[1:]
        self.port, self.pid = int(port), int(pid)

    def restart(self, rebuild: bool = False) -> None:
        """Fast shutdown and start on the same data; the port may change. With
        rebuild (RockLake only), the catalog caches are removed in between."""
        self._proc.stdin.write("rebuild\n" if rebuild else "restart\n")
        self._proc.stdin.flush()
        self._await_ready()

    def stop(self) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=120)

    def dsn(self, dbname: str) -> str:
        return f"host={self.host} port={self.port} dbname={dbname} user={self.user}"

    def connect(self, dbname: str = "postgres", **kwargs) -> psycopg.Connection:
        # a bound on a hang, not a timing: in CI's sanitizer build, after statements that
        # grew backends to hundreds of MB, LeakSanitizer's scan as each one exits takes the
        # cores for seconds and a connection waits for them
        return psycopg.connect(self.dsn(dbname), sslmode="disable", connect_timeout=60, **kwargs)

    def create_database(self, prefix: str) -> str:
        """A new empty database for one lake."""
        self._databases += 1
        name = f"{prefix}_{self._databases}"
        with self.connect(autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def alive(self) -> bool:
        try:
            os.kill(self.pid, 0)
            return True
        except ProcessLookupError:
            return False
