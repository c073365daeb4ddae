"""What the server is doing, seen as on PostgreSQL 15 in the same run: pg_stat_activity
(two sessions, one idle in a transaction, the other looking at it), pg_stat_database's
counters moving with commits and rollbacks, pg_stat_user_tables, the size functions and
the connection's functions, the process titles ps shows, and psql's \\l+ and \\dt+.

Values that are the server's own (pids, ports, times, sizes) are compared by what they
must satisfy; names, types and states must be PostgreSQL's.
"""

import os
import pathlib
import shutil
import subprocess
import threading
import time

import psycopg
import pytest

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)

PSQL = shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql"
VIEWS = ("pg_stat_activity", "pg_stat_database", "pg_stat_user_tables")


@pytest.fixture(params=["rocklake", "postgres"])
def server(request):
    return request.getfixturevalue(f"{request.param}_server")


def test_view_columns(both):
    """the views' columns: PostgreSQL 15's names and types, in its order"""
    same_answers(both, [f"SELECT * FROM pg_catalog.{view} LIMIT 0" for view in VIEWS]
                 + [f"SELECT * FROM {view} WHERE false" for view in VIEWS])


def test_functions(both):
    """the connection's ends, the postmaster's start, database sizes, pg_backend_pid: types
    as PostgreSQL's, values by what they must be"""
    same_answers(both, [
        "SELECT inet_client_addr(), inet_client_port() > 0, inet_server_addr(), inet_server_port() > 0",
        "SELECT inet_server_port() = current_setting('port')::integer",
        "SELECT pg_postmaster_start_time() <= now(), pg_postmaster_start_time() > now() - interval '1 day'",
        "SELECT pg_database_size(current_database()) > 0, pg_database_size('postgres') > 0",
        "SELECT pg_database_size(oid) = pg_database_size(datname) FROM pg_database WHERE datname = 'postgres'",
        "SELECT pg_database_size('nosuch_db')",
        "SELECT pg_database_size(4000000000::oid)",
        "SELECT pg_size_pretty(pg_database_size(current_database())) LIKE '% %'",
        "SELECT pg_backend_pid() = (SELECT pid FROM pg_stat_activity WHERE pid = pg_backend_pid())",
        "SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid() AND state = 'active'",
        "SELECT '192.168.0.1/24'::inet, '::1'::inet, '10.0.0.1/32'::inet",
        "SELECT 'nonsense'::inet",
        "SELECT '5'::xid",
    ])


def test_long_query_text(both):
    """the query text is cut at 1023 bytes, at a character's start, as with PostgreSQL's
    track_activity_query_size of 1024"""
    same_answers(both, [
        "SELECT octet_length(query), right(query, 2) FROM pg_stat_activity WHERE pid = pg_backend_pid()"
        f" AND '{filler}' <> ''" for filler in ("x" * 1100, "é" * 600, "x" + "é" * 600, "€" * 400)])


def test_relation_sizes(both):
    """a table's sizes: its rows take room, its key's index too, and the total is their sum;
    the index's own sizes"""
    same_answers(both, [
        "DROP TABLE IF EXISTS ob_t",
        "CREATE TABLE ob_t (k integer PRIMARY KEY, v text)",
        "INSERT INTO ob_t SELECT g, repeat('x', 200) FROM generate_series(1, 200) AS g",
        "SELECT pg_relation_size('ob_t') > 0, pg_table_size('ob_t') >= pg_relation_size('ob_t'),"
        " pg_indexes_size('ob_t') > 0,"
        " pg_total_relation_size('ob_t') = pg_table_size('ob_t') + pg_indexes_size('ob_t')",
        "SELECT pg_relation_size('ob_t_pkey') > 0, pg_indexes_size('ob_t_pkey'),"
        " pg_total_relation_size('ob_t_pkey') = pg_relation_size('ob_t_pkey')",
        "SELECT pg_relation_size('ob_nosuch')",
        "SELECT relname, schemaname, n_live_tup >= 0, seq_tup_read >= 0, last_vacuum IS NULL"
        " FROM pg_stat_user_tables WHERE relname = 'ob_t'",
    ])
    rl, pg = both
    # the rows the cache holds; PostgreSQL's count waits for its statistics to be flushed
    assert rl.conn.execute("SELECT n_live_tup FROM pg_stat_user_tables WHERE relname = 'ob_t'").fetchone() == (200,)
    same_answers(both, ["DROP TABLE ob_t"])


def backend_pid(conn) -> int:
    return conn.execute("SELECT pg_backend_pid()").fetchone()[0]


def ps_title(pid: int) -> str:
    return subprocess.run(["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()


def activity(watcher, pid: int) -> tuple:
    """what pg_stat_activity says of pid, without the server's own values (PostgreSQL
    shows ClientRead once the idle session is blocked in its read, which may be a moment
    after its client had the answer)"""
    row = watcher.execute(
        "SELECT state, query, backend_type, usename = current_user, datname = current_database(),"
        " CASE WHEN state <> 'active' THEN coalesce(wait_event_type, 'Client') ELSE wait_event_type END,"
        " CASE WHEN state <> 'active' THEN coalesce(wait_event, 'ClientRead') ELSE wait_event END, xact_start IS NOT NULL, query_start IS NOT NULL,"
        " state_change >= backend_start, client_addr, client_port > 0, backend_xid, query_id,"
        " leader_pid FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
    return tuple(str(v) for v in row) if row else None


def sessions_seen(server) -> list:
    """one session idle in a transaction, then in a failed one, then idle, as another
    session and ps see it"""
    seen = []
    with server.connect() as worker, server.connect(autocommit=True) as watcher:
        pid = backend_pid(worker)
        port = worker.execute("SELECT inet_client_port()").fetchone()[0]
        worker.commit()
        seen.append(activity(watcher, pid))
        worker.execute("SELECT 1 AS in_transaction")
        seen.append(activity(watcher, pid))
        title = ps_title(pid)
        assert title.endswith(f"{server.user} postgres 127.0.0.1({port}) idle in transaction"), title
        with pytest.raises(psycopg.errors.DivisionByZero):
            worker.execute("SELECT 1 / 0")
        seen.append(activity(watcher, pid))
        assert ps_title(pid).endswith("idle in transaction (aborted)"), ps_title(pid)
        worker.rollback()
        seen.append(activity(watcher, pid))
        assert ps_title(pid).endswith(f"127.0.0.1({port}) idle"), ps_title(pid)
        # the watcher sees itself running the query it runs
        own = watcher.execute("SELECT state, query, pid = pg_backend_pid() FROM pg_stat_activity"
                              " WHERE pid = pg_backend_pid()").fetchall()
        seen.append([tuple(str(v) for v in row) for row in own])
        # a statement running: active, its text and tag (PostgreSQL's wait event is its
        # sleep's, RockLake has none)
        sleeper = threading.Thread(target=lambda: worker.execute("SELECT pg_sleep(1.5)"))
        sleeper.start()
        deadline = time.monotonic() + 5
        while (activity(watcher, pid) or ("",))[0] != "active" and time.monotonic() < deadline:
            time.sleep(0.05)
        seen.append(activity(watcher, pid)[:5])
        assert ps_title(pid).endswith(f"127.0.0.1({port}) SELECT"), ps_title(pid)
        sleeper.join()
        worker.rollback()
        # a title kept as it was once update_process_title is off
        worker.execute("SET update_process_title = off")
        worker.commit()
        worker.execute("SELECT 2")
        assert ps_title(pid).endswith(f"127.0.0.1({port}) SET"), ps_title(pid)
        worker.rollback()
    return seen


def test_activity(rocklake_server, postgres_server):
    """states, query text, wait events and the client's address of another session, as
    PostgreSQL shows them; ps shows the same process titles"""
    assert sessions_seen(rocklake_server) == sessions_seen(postgres_server)


def test_server_processes(rocklake_server):
    """ps names the writer and the spare backends; pg_stat_activity lists the writer"""
    deadline = time.monotonic() + 10
    while True:
        children = [c.strip() for c in subprocess.run(["ps", "-o", "args=", "--ppid", str(rocklake_server.pid)],
                                                      capture_output=True, text=True).stdout.splitlines()]
        # a spare that took a connection is replaced at once, but not in no time
        if {"rocklake: writer", "rocklake: spare backend"} <= set(children) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert "rocklake: writer" in children, children
    assert "rocklake: spare backend" in children, children
    with rocklake_server.connect(autocommit=True) as conn:
        rows = conn.execute("SELECT datid, state, query, backend_type FROM pg_stat_activity"
                            " WHERE backend_type <> 'client backend'").fetchall()
    assert rows == [(None, None, "", "rocklake writer")]


def database_counters(conn) -> tuple:
    return conn.execute("SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted,"
                        " tup_returned, sessions, numbackends FROM pg_stat_database"
                        " WHERE datname = current_database()").fetchone()


def counters_move(server) -> None:
    with server.connect(autocommit=True) as watcher:
        before = database_counters(watcher)
        with server.connect() as worker:
            worker.execute("DROP TABLE IF EXISTS ob_c")
            worker.execute("CREATE TABLE ob_c (k integer)")
            worker.commit()
            worker.execute("INSERT INTO ob_c VALUES (1), (2), (3)")
            worker.commit()
            worker.execute("UPDATE ob_c SET k = k + 10 WHERE k = 1")
            worker.execute("DELETE FROM ob_c WHERE k = 2")
            worker.commit()
            worker.execute("SELECT * FROM ob_c")
            worker.rollback()
            worker.execute("INSERT INTO ob_c VALUES (4)")
            worker.rollback()
            worker.execute("SELECT pg_stat_force_next_flush()" if server.kind == "postgres" else "SELECT 1")
            worker.commit()
        # PostgreSQL publishes a session's counters at its next idle moment or exit
        deadline = time.monotonic() + 10
        while True:
            watcher.execute("SELECT pg_stat_clear_snapshot()" if server.kind == "postgres" else "SELECT 1")
            after = database_counters(watcher)
            delta = [a - b for a, b in zip(after[:7], before[:7])]
            if (delta[0] >= 4 and delta[1] >= 2 and delta[2] >= 4 and delta[3] >= 1 and delta[4] >= 1
                    and delta[5] >= 2 and delta[6] >= 1) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert delta[0] >= 4 and delta[1] >= 2, (server.kind, delta)
        assert delta[2] >= 4 and delta[3] >= 1 and delta[4] >= 1 and delta[5] >= 2, (server.kind, delta)
        assert delta[6] >= 1 and after[7] >= 1, (server.kind, delta, after)
        # the table's own: the rolled back INSERT's row counts too, as in PostgreSQL
        # (PostgreSQL's n_mod_since_analyze counts committed changes only, RockLake's all)
        changes = "SELECT n_tup_ins, n_tup_upd, n_tup_del, n_mod_since_analyze >= 5 FROM pg_stat_user_tables" \
            " WHERE relname = 'ob_c'"
        while watcher.execute(changes).fetchone() != (4, 1, 1, True) and time.monotonic() < deadline:
            time.sleep(0.2)
            watcher.execute("SELECT pg_stat_clear_snapshot()" if server.kind == "postgres" else "SELECT 1")
        assert watcher.execute(changes).fetchone() == (4, 1, 1, True), server.kind
        # dropped once counted: PostgreSQL forgets the counts of a table dropped before they are published
        watcher.execute("DROP TABLE ob_c")


def test_database_counters(server):
    """commits, rollbacks, rows inserted, updated, deleted and returned, sessions; a
    table's rows inserted, updated and deleted"""
    counters_move(server)


@pytest.mark.parametrize("command", [r"\l+", r"\dt+"])
def test_psql_sizes(server, command):
    """psql's \\l+ and \\dt+ run, with sizes"""
    with server.connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS ob_psql")
        conn.execute("CREATE TABLE ob_psql (k integer)")
        conn.execute("INSERT INTO ob_psql VALUES (1)")
    env = dict(os.environ, PGSSLMODE="disable", PGCONNECT_TIMEOUT="10")
    result = subprocess.run([PSQL, "-X", "-A", "-h", server.host, "-p", str(server.port), "-U", server.user,
                             "-d", "postgres", "-c", command], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0 and "ERROR" not in result.stderr, result.stderr
    line = next((line for line in result.stdout.splitlines()
                 if line.startswith("postgres|" if command == r"\l+" else "public|ob_psql|")), None)
    assert line is not None and any(cell.endswith((" bytes", " kB", " MB")) for cell in line.split("|")), line


def server_log(conn) -> pathlib.Path:
    """the server's log file, as the test scripts start each server"""
    datadir = pathlib.Path(conn.execute("SELECT current_setting('data_directory')").fetchone()[0])
    rocklake = conn.execute("SELECT version()").fetchone()[0].find("RockLake") >= 0
    if rocklake:
        return datadir.with_name(datadir.name + ".log")
    # PostgreSQL writes postgres.log, and restarted.log once a test has restarted it
    logs = [datadir.parent / name for name in ("postgres.log", "restarted.log")]
    return max((log for log in logs if log.exists()), key=lambda log: log.stat().st_mtime)


def statements_logged(server) -> list:
    with server.connect(autocommit=True) as conn:
        log = server_log(conn)
        conn.execute("DROP TABLE IF EXISTS ob_log")
    start = log.stat().st_size
    env = dict(os.environ, PGSSLMODE="disable", PGCONNECT_TIMEOUT="10")
    for setting, sql in (("ddl", "CREATE TABLE ob_log (k integer)"), ("ddl", "INSERT INTO ob_log VALUES (1)"),
                         ("mod", "INSERT INTO ob_log VALUES (2); SELECT 'ob_log_in_mod'"),
                         ("mod", "SELECT 'ob_log_select'"), ("none", "DROP TABLE ob_log"),
                         ("all", "SELECT 'ob_log_all'"), ("all", "SELECT 'ob_log_bad' +")):
        subprocess.run([PSQL, "-X", "-q", "-h", server.host, "-p", str(server.port), "-U", server.user,
                        "-d", "postgres", "-c", sql], env=dict(env, PGOPTIONS=f"-c log_statement={setting}"),
                       capture_output=True, timeout=60)
    with server.connect(autocommit=True) as conn:
        conn.execute("SET log_statement = 'all'")
        conn.execute("SELECT 'ob_log_extended'")
        conn.execute("SELECT %s::text, %s::integer, 'ob_log_params'", ("it's", None))
        conn.execute("SET log_statement = 'mod'")
        conn.execute("SELECT 'ob_log_not'")
    time.sleep(0.5)
    with open(log, "rb") as f:
        f.seek(start)
        lines = f.read().decode().splitlines()
    seen = []
    for i, line in enumerate(lines):
        if "ob_log" in line and "LOG:  " in line:
            seen.append(line[line.index("LOG:  "):])
            if i + 1 < len(lines) and "DETAIL:  " in lines[i + 1]:
                seen.append(lines[i + 1][lines[i + 1].index("DETAIL:  "):])
    return seen


def test_log_statement(rocklake_server, postgres_server):
    """log_statement: none, ddl, mod (a string logged whole if one of its statements is a
    change), all, at Execute in the extended protocol with the parameters; a statement that
    does not parse is not logged"""
    got = statements_logged(rocklake_server)
    assert "DETAIL:  parameters: $1 = 'it''s', $2 = NULL" in got, got
    assert got == statements_logged(postgres_server)


def test_signal_backends(both):
    """pg_cancel_backend and pg_terminate_backend of a pid that is no client backend
    warn and return false"""
    same_answers(both, [
        "SELECT pg_cancel_backend(1), pg_terminate_backend(1)",
        "SELECT pg_terminate_backend(pg_backend_pid(), -1)",
        "SELECT pg_terminate_backend(NULL)",
    ])


def test_cancel_and_terminate(server):
    """pg_cancel_backend ends another session's statement with 57014 and the session
    goes on; pg_terminate_backend with a timeout ends it (57P01) and waits for it; a
    process that is no client backend (the writer, PostgreSQL's checkpointer) is refused"""
    with server.connect(autocommit=True) as victim, server.connect(autocommit=True) as admin:
        assert admin.execute("SELECT pg_cancel_backend(min(pid)) FROM pg_stat_activity"
                             " WHERE backend_type <> 'client backend'").fetchone()[0] is False
        pid = victim.execute("SELECT pg_backend_pid()").fetchone()[0]
        errors = []

        def sleep():
            try:
                victim.execute("SELECT pg_sleep(30)")
            except psycopg.Error as e:
                errors.append(e.sqlstate)

        sleeper = threading.Thread(target=sleep)
        sleeper.start()
        deadline = time.time() + 10
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s AND state = 'active'",
                            (pid,)).fetchone()[0] == 0 and time.time() < deadline:
            time.sleep(0.05)
        assert admin.execute("SELECT pg_cancel_backend(%s)", (pid,)).fetchone()[0] is True
        sleeper.join(10)
        assert errors == ["57014"]
        assert victim.execute("SELECT 1").fetchone()[0] == 1
        assert admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone()[0] is True
        with pytest.raises(psycopg.OperationalError):
            victim.execute("SELECT 1")
        assert admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0] == 0
