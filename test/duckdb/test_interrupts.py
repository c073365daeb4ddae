"""Every statement can be stopped: by a cancel request, by statement_timeout, by its
client going away, by a fast shutdown and by the death of the postmaster. Cancels and
timeouts run on RockLake and on PostgreSQL 15 and must end with the same SQLSTATE; the
session must be usable afterwards; so must a cancel of a COPY FROM STDIN whose client
stalls, and of a wait for the writer's answer. What only RockLake can show here (a backend noticing
a gone client or postmaster, a server of its own shut down or killed, a writer that does
not answer) runs on a server started by the test, so the session's servers are not
disturbed.

The bounds are generous (seconds for what takes milliseconds): the machine may be slow
and the server built with ASan; they only prove that the statement stopped.
"""

import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import psycopg
import pytest
from psycopg import pq

from servers import TOP_BUILDDIR

SERVERS = ["rocklake", "postgres"]
STOP_BOUND = 5.0		# seconds a stopped statement may take to end
CANCEL_AFTER = 0.3
LIKE_SUBJECT = "a" * 30_000
LIKE_PATTERN = "%a%a%a%a%a%a%a%a%a%a%b"

# statements that run for minutes unless stopped, with their parameters
LONG = {
    "generate_series": ("SELECT count(*) FROM generate_series(1, 100000000)", None),
    # the subject varies by row, or PostgreSQL would evaluate the LIKE once
    "like": ("SELECT count(*) FROM generate_series(1, 10000000) g WHERE %s || g LIKE %s",
             (LIKE_SUBJECT, LIKE_PATTERN)),
    "cross_join": ("SELECT count(*) FROM intr_t a, intr_t b, intr_t c", None),
}
NESTED = 400_000 // 6		# "/* " and "*/ " pairs in 400 KB


@pytest.fixture(params=SERVERS)
def kind(request):
    return request.param


@pytest.fixture
def conn(request, kind):
    server = request.getfixturevalue(f"{kind}_server")
    with server.connect(autocommit=True) as c:
        c.execute("CREATE TEMP TABLE intr_t (i int8)")
        c.execute("INSERT INTO intr_t SELECT g FROM generate_series(1, 3000) g")
        yield c


def outcome(conn, sql, params=None, cancel_after=None):
    """Run sql; ("rows", rows) or ("error", sqlstate, message), and the seconds it took.
    With cancel_after, conn.cancel() is sent from a thread after that many seconds."""
    timer = threading.Timer(cancel_after, conn.cancel) if cancel_after is not None else None
    start = time.monotonic()
    if timer:
        timer.start()
    try:
        result = ("rows", conn.execute(sql, params).fetchall())
    except psycopg.Error as e:
        assert e.sqlstate is not None and not conn.closed, f"{sql[:80]}: connection lost: {e}"
        result = ("error", e.sqlstate, e.diag.message_primary)
    finally:
        if timer:
            timer.cancel()
    return result, time.monotonic() - start


def assert_usable(conn):
    assert conn.execute("SELECT 42").fetchone() == (42,)


@pytest.mark.parametrize("name", LONG)
def test_cancel(conn, name):
    sql, params = LONG[name]
    result, took = outcome(conn, sql, params, cancel_after=CANCEL_AFTER)
    assert result == ("error", "57014", "canceling statement due to user request")
    assert took < STOP_BOUND
    assert_usable(conn)


@pytest.mark.parametrize("name", LONG)
def test_statement_timeout(conn, name):
    sql, params = LONG[name]
    conn.execute("SET statement_timeout = 200")
    result, took = outcome(conn, sql, params)
    assert result == ("error", "57014", "canceling statement due to statement timeout")
    assert took < STOP_BOUND
    assert_usable(conn)
    conn.execute("SET statement_timeout = 0")
    assert outcome(conn, "SELECT pg_sleep(0.5)")[0][0] == "rows"


def test_pathological_like_answers(rocklake_server, postgres_server):
    """Once exponential in RockLake: now answered at once, as PostgreSQL answers it."""
    sql = "SELECT %s LIKE %s"
    with rocklake_server.connect() as rl, postgres_server.connect() as pg:
        got, took = outcome(rl, sql, (LIKE_SUBJECT, LIKE_PATTERN))
        assert got == outcome(pg, sql, (LIKE_SUBJECT, LIKE_PATTERN))[0] == ("rows", [(False,)])
        assert took < STOP_BOUND


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "unterminated"])
def test_nested_comments(rocklake_server, postgres_server, closed):
    """400 KB of nested comments (once quadratic in RockLake's lexer): PostgreSQL's answer,
    in bounded time with a cancel on its way (that may find the answer sent)."""
    sql = "SELECT 1 " + "/* " * NESTED + ("*/ " * NESTED if closed else "")
    expected = ("rows", [(1,)]) if closed else ("error", "42601")
    answers = []
    for server in (rocklake_server, postgres_server):
        with server.connect(autocommit=True) as c:
            answers.append(outcome(c, sql)[0][:2])
            got, took = outcome(c, sql, cancel_after=CANCEL_AFTER)
            assert got[:2] in (answers[-1], ("error", "57014")) and took < STOP_BOUND
            assert_usable(c)
    assert answers == [expected, expected]


def error_of(conn, sql):
    with pytest.raises(psycopg.Error) as err:
        conn.execute(sql)
    e = err.value
    return e.sqlstate, e.diag.message_primary, e.diag.statement_position


def test_unbroken_nested_comments(rocklake_server, postgres_server):
    """/*/*/*... with no space: PostgreSQL's lexer is quadratic in such a run (minutes
    for 400 KB, and nothing interrupts it), RockLake's answer comes at once, closed or
    unterminated; the error quotes the text from the comment on, as PostgreSQL's does
    (compared on 4 KB, which PostgreSQL lexes in milliseconds)."""
    with rocklake_server.connect(autocommit=True) as rl, postgres_server.connect(autocommit=True) as pg:
        for sql in ["SELECT 1 /* a\n */ " + "/*" * 2000, "SELECT 1 /* x */ , /* y"]:
            assert error_of(rl, sql) == error_of(pg, sql)
        for closed in (True, False):
            sql = "SELECT 1 " + "/*" * (NESTED * 3) + ("*/" * (NESTED * 3) if closed else "")
            got, took = outcome(rl, sql)
            assert got[:2] == (("rows", [(1,)]) if closed else ("error", "42601"))
            assert took < STOP_BOUND


def process_gone(pid):
    """Not running any more: no such process, or a zombie waiting for its parent."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pids, seconds):
    """The pids still running after seconds (an empty set once all have gone)."""
    deadline = time.monotonic() + seconds
    left = set(pids)
    while left and time.monotonic() < deadline:
        left = {p for p in left if not process_gone(p)}
        time.sleep(0.05)
    return left


CLIENT = """
import sys, psycopg
conn = psycopg.connect(sys.argv[1], sslmode="disable", autocommit=True)
print(conn.execute("SELECT pg_backend_pid()").fetchone()[0], flush=True)
conn.execute("SELECT count(*) FROM generate_series(1, 100000000)")
"""


def test_client_gone(rocklake_server):
    """A client killed in the middle of a statement: its backend notices and exits."""
    client = subprocess.Popen([sys.executable, "-c", CLIENT, rocklake_server.dsn("postgres")],
                              stdout=subprocess.PIPE, text=True)
    try:
        pid = int(client.stdout.readline())
        time.sleep(0.5)			# the statement is running
        assert not process_gone(pid)
    finally:
        client.kill()
        client.wait()
    assert not wait_gone([pid], STOP_BOUND), f"backend {pid} still runs for a client that is gone"
    with rocklake_server.connect() as c:
        assert_usable(c)


# ---------- a server of the test's own ----------

def children(pid):
    """The pids whose parent is pid."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return found


class OwnServer:
    """rocklake on a data directory of its own, on a free port."""

    def __init__(self, workdir):
        self.datadir = workdir / "data"
        self.log_path = workdir / "server.log"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                [str(TOP_BUILDDIR / "rocklake"), "-D", str(self.datadir), "-p", str(self.port),
                 "-h", "127.0.0.1", "-k", str(workdir), "-U", "rocklake"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 60
        while not self._ready():
            assert self.proc.poll() is None and time.monotonic() < deadline, \
                f"rocklake did not start:\n{self.log_path.read_text()}"
            time.sleep(0.1)
        self.children = children(self.pid)

    def _ready(self):
        try:
            lines = (self.datadir / "postmaster.pid").read_text().splitlines()
        except FileNotFoundError:
            return False
        return len(lines) >= 8 and lines[7].startswith("ready")

    def connect(self, **kwargs):
        return psycopg.connect(host="127.0.0.1", port=self.port, dbname="postgres",
                               user="rocklake", sslmode="disable", connect_timeout=10, **kwargs)

    def writer_pid(self):
        return int(re.search(r"\[(\d+)\] LOG:  writer ready", self.log_path.read_text()).group(1))

    def kill_all(self):
        """SIGKILL whatever is left of it, children first (they are listed by now)."""
        for pid in self.children + children(self.pid) + [self.pid]:
            if not process_gone(pid):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@pytest.fixture
def own_server(tmp_path):
    server = OwnServer(tmp_path)
    yield server
    server.kill_all()


class Running:
    """A statement running in a thread on its own connection; .error once it ended."""

    def __init__(self, conn, sql):
        self.conn, self.error = conn, None
        self.pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        self.thread = threading.Thread(target=self._run, args=(sql,))
        self.thread.start()
        time.sleep(0.5)			# it runs

    def _run(self, sql):
        try:
            self.conn.execute(sql)
        except psycopg.Error as e:
            self.error = e

    def join(self, seconds):
        self.thread.join(seconds)
        assert not self.thread.is_alive(), "the statement still runs"


def test_fast_shutdown(own_server):
    conn = own_server.connect(autocommit=True)
    running = Running(conn, LONG["generate_series"][0])
    start = time.monotonic()
    os.kill(own_server.pid, signal.SIGINT)
    running.join(STOP_BOUND)
    assert running.error is not None
    assert running.error.sqlstate == "57P01"
    assert running.error.diag.message_primary == "terminating connection due to administrator command"
    own_server.proc.wait(timeout=max(1.0, 2 * STOP_BOUND - (time.monotonic() - start)))
    assert not wait_gone(own_server.children, STOP_BOUND)
    conn.close()


def test_postmaster_killed(own_server):
    """SIGKILL of the postmaster: the backends (a busy one, an idle one, those not yet
    serving anyone) and the writer follow."""
    conn = own_server.connect(autocommit=True)
    idle = own_server.connect(autocommit=True)
    idle_pid = idle.execute("SELECT pg_backend_pid()").fetchone()[0]
    running = Running(conn, LONG["generate_series"][0])
    pids = children(own_server.pid)
    assert {running.pid, idle_pid, own_server.writer_pid()} <= set(pids)
    os.kill(own_server.pid, signal.SIGKILL)
    own_server.proc.wait()
    left = wait_gone(pids, STOP_BOUND)
    assert not left, f"children still running after the postmaster died: {sorted(left)}"
    running.join(STOP_BOUND)
    conn.close()
    idle.close()


# ---------- waits for the client and for the writer ----------

def copy_stalled(conn, mid_message):
    """COPY FROM STDIN, part of its data, a cancel while the client sends nothing
    (between two CopyData messages, or in the middle of one), then the rest. Returns
    whether the server answered during a stall between messages, and the SQLSTATE."""
    pgconn = conn.pgconn
    pgconn.send_query(b"COPY intr_copy FROM STDIN")
    assert pgconn.get_result().status == pq.ExecStatus.COPY_IN
    assert pgconn.put_copy_data(b"1\n2\n") == 1
    while pgconn.flush():
        pass
    half = b"3\n4\n"
    if mid_message:			# written past libpq, whose buffer is empty now
        os.write(pgconn.socket, b"d" + struct.pack("!I", 4 + len(half)) + half[:2])
    time.sleep(CANCEL_AFTER)
    conn.cancel()
    answered = False
    if mid_message:
        time.sleep(CANCEL_AFTER)
        os.write(pgconn.socket, half[2:])
    else:
        answered = bool(select.select([pgconn.socket], [], [], STOP_BOUND)[0])
    assert pgconn.put_copy_data(b"5\n") == 1 and pgconn.put_copy_end() == 1
    while pgconn.flush():
        pass
    result = pgconn.get_result()
    while pgconn.get_result() is not None:
        pass
    sqlstate = result.error_field(pq.DiagnosticField.SQLSTATE)
    return answered, sqlstate and sqlstate.decode()


@pytest.mark.parametrize("mid_message", [False, True], ids=["between_messages", "mid_message"])
def test_copy_from_stdin_stalled(conn, kind, mid_message):
    """PostgreSQL 15 acts on the cancel only once the client sends again; RockLake ends
    the COPY while the client stalls between two messages, and reads a message begun to
    its end first. Both fail the COPY with 57014, store nothing and go on serving."""
    conn.execute("CREATE TEMP TABLE intr_copy (i int8)")
    answered, sqlstate = copy_stalled(conn, mid_message)
    assert sqlstate == "57014"
    if kind == "rocklake" and not mid_message:
        assert answered, "the COPY went on waiting for its data after the cancel"
    assert conn.execute("SELECT count(*) FROM intr_copy").fetchone() == (0,)
    assert_usable(conn)


def test_row_lock_wait_postgres(postgres_server):
    """PostgreSQL's writer waiting for the holder of a row: a cancel ends the wait, 57014."""
    with postgres_server.connect(autocommit=True) as a, postgres_server.connect(autocommit=True) as b:
        a.execute("DROP TABLE IF EXISTS intr_w")
        a.execute("CREATE TABLE intr_w (i int8 PRIMARY KEY)")
        a.execute("BEGIN")
        a.execute("INSERT INTO intr_w VALUES (1)")
        b.execute("BEGIN")
        result, took = outcome(b, "INSERT INTO intr_w VALUES (1)", cancel_after=CANCEL_AFTER)
        assert result == ("error", "57014", "canceling statement due to user request")
        assert took < STOP_BOUND
        b.execute("ROLLBACK")
        a.execute("ROLLBACK")
        a.execute("DROP TABLE intr_w")


class Stopped:
    """The writer stopped (SIGSTOP) for the with block: it answers nobody meanwhile,
    like a writer stuck in a store write."""

    def __init__(self, pid):
        self.pid = pid

    def __enter__(self):
        os.kill(self.pid, signal.SIGSTOP)

    def __exit__(self, *exc):
        os.kill(self.pid, signal.SIGCONT)


def retried(conn, sql):
    """Run sql again after a 40001, as DuckLake does: a commit the writer finished after
    it came back may land after this statement's write intent was answered."""
    for _ in range(5):
        try:
            return conn.execute(sql)
        except psycopg.errors.SerializationFailure:
            pass
    return conn.execute(sql)


def test_writer_wait_cancelled(own_server):
    """A backend waiting for the writer's answer (to a write intent, to a commit) stops
    on a cancel or statement_timeout with 57014, as PostgreSQL's does waiting for a row
    lock; a commit given up says that it may or may not have been committed."""
    with own_server.connect(autocommit=True) as a, own_server.connect(autocommit=True) as b:
        notices = []
        b.add_notice_handler(lambda d: notices.append((d.severity_nonlocalized, d.sqlstate, d.message_detail)))
        a.execute("CREATE TABLE intr_w (i int8 PRIMARY KEY)")
        with Stopped(own_server.writer_pid()):
            for timeout, message in [(0, "user request"), (200, "statement timeout")]:
                b.execute(f"SET statement_timeout = {timeout}")
                b.execute("BEGIN")
                result, took = outcome(b, "INSERT INTO intr_w VALUES (1)",
                                       cancel_after=None if timeout else CANCEL_AFTER)
                assert result == ("error", "57014", f"canceling statement due to {message}")
                assert took < STOP_BOUND
                b.execute("ROLLBACK")
                assert_usable(b)
            b.execute("SET statement_timeout = 0")
        assert notices == []
        b.execute("BEGIN")
        b.execute("INSERT INTO intr_w VALUES (2)")
        with Stopped(own_server.writer_pid()):
            result, took = outcome(b, "COMMIT", cancel_after=CANCEL_AFTER)
            assert result == ("error", "57014", "canceling statement due to user request")
            assert took < STOP_BOUND
            assert notices == [("WARNING", "08007", "The transaction may or may not have been committed.")]
            assert_usable(b)
        # the writer, back, may commit what it read before the cancel: the server goes on
        assert a.execute("SELECT count(*) FROM intr_w WHERE i = 1").fetchone() == (0,)
        retried(a, "INSERT INTO intr_w VALUES (3)")
        assert b.execute("SELECT count(*) FROM intr_w WHERE i = 3").fetchone() == (1,)
