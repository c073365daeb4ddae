"""Role membership against PostgreSQL 15 in the same run: GRANT and REVOKE of roles
(WITH ADMIN OPTION, ADMIN OPTION FOR, GRANTED BY), the IN ROLE, ROLE and ADMIN clauses of
CREATE ROLE, ALTER GROUP, INHERIT / NOINHERIT, pg_auth_members, pg_has_role, SET ROLE,
SET SESSION AUTHORIZATION and what they change (current_user, session_user,
is_superuser, the privileges checked), DROP ROLE taking memberships with it, psql's
\\du and \\dg, and the memberships kept across a restart and a rebuild of the caches.

The roles log in under the fixtures' trust lines; the superuser's name differs between
the servers, so no answer compared shows it.
"""

import os
import shutil
import subprocess

import psycopg
import pytest

from test_roles import connect_as
from test_schemas import Recorder, recorders, same_answers

ROLES = ["mem_a", "mem_b", "mem_c", "mem_d", "mem_e", "mem_f"]

# a membership's row, the superuser shown as SU
MEMBERS = ("SELECT pg_get_userbyid(roleid), CASE WHEN member = 10 THEN 'SU' ELSE pg_get_userbyid(member) END,"
           " CASE WHEN grantor = 10 THEN 'SU' ELSE pg_get_userbyid(grantor) END, admin_option FROM pg_auth_members"
           " WHERE pg_get_userbyid(member) LIKE 'mem\\_%' OR pg_get_userbyid(roleid) LIKE 'mem\\_%'"
           " ORDER BY 1, 2")

# as the superuser
STATEMENTS = [
    "CREATE ROLE mem_a",
    "CREATE ROLE mem_b LOGIN",
    "CREATE ROLE mem_c LOGIN",
    "GRANT mem_a TO mem_b",
    "GRANT mem_a TO mem_b",
    "GRANT mem_a TO mem_a",
    "GRANT mem_b TO mem_a",
    "REVOKE mem_c FROM mem_b",
    "GRANT mem_a TO mem_b WITH ADMIN OPTION",
    "GRANT mem_nosuch TO mem_a",
    "GRANT mem_a TO mem_nosuch",
    "GRANT mem_a TO PUBLIC",
    "GRANT mem_a(x) TO mem_b",
    MEMBERS,
    "CREATE ROLE mem_d IN ROLE mem_a, mem_b ROLE mem_c ADMIN CURRENT_USER",
    "CREATE ROLE mem_e IN ROLE mem_nosuch",
    MEMBERS,
    "SELECT pg_get_userbyid(roleid), pg_get_userbyid(member), grantor, admin_option FROM pg_auth_members"
    " WHERE roleid < 16384 ORDER BY 1, 2",
    "SET ROLE mem_b",
    "SELECT current_user, session_user = current_user, current_role, user",
    "SHOW role",
    "SHOW is_superuser",
    "SET log_statement = 'all'",
    "CREATE ROLE mem_x",
    "SET ROLE mem_c",
    "RESET ROLE",
    "SHOW role",
    "SET SESSION AUTHORIZATION mem_b",
    "SELECT current_user, session_user",
    "SET ROLE mem_a",
    "SELECT current_user, session_user",
    "SET ROLE mem_c",
    "SET SESSION AUTHORIZATION mem_c",
    "SHOW role",
    "SET SESSION AUTHORIZATION DEFAULT",
    "SELECT session_user = current_user, current_user LIKE 'mem%'",
    "SET ROLE mem_nosuch",
    "SET ROLE NONE",
    "SELECT pg_has_role('mem_b', 'mem_a', 'MEMBER'), pg_has_role('mem_b', 'mem_a', 'usage'),"
    " pg_has_role('mem_a', 'member'), pg_has_role('mem_d', 'mem_b', 'USAGE WITH GRANT OPTION, member'),"
    " pg_has_role('mem_b', 'mem_a', 'MEMBER WITH ADMIN OPTION'), pg_has_role('mem_d', 'mem_a', 'member with admin option'),"
    " pg_has_role(current_user, 'pg_database_owner', 'MEMBER'), pg_has_role('public', 'mem_a', 'member')",
    "SELECT pg_has_role((SELECT oid FROM pg_roles WHERE rolname = 'mem_d'), 'mem_a', 'usage'),"
    " pg_has_role('mem_d', (SELECT oid FROM pg_roles WHERE rolname = 'mem_a'), 'usage'),"
    " pg_has_role((SELECT oid FROM pg_roles WHERE rolname = 'mem_a'), 'usage')",
    "SELECT pg_has_role('mem_nosuch', 'mem_a', 'member')",
    "SELECT pg_has_role('mem_b', 'mem_a', 'foo')",
    "SELECT pg_has_role('mem_b', 'mem_nosuch', 'bar')",
    # INHERIT decides the privileges, not the membership
    "CREATE ROLE mem_e NOINHERIT IN ROLE mem_a",
    "SELECT rolname, rolinherit FROM pg_roles WHERE rolname LIKE 'mem\\_%' ORDER BY 1",
    "SELECT pg_has_role('mem_e', 'mem_a', 'usage'), pg_has_role('mem_e', 'mem_a', 'member')",
    "ALTER ROLE mem_e INHERIT",
    "SELECT pg_has_role('mem_e', 'mem_a', 'usage')",
    "ALTER ROLE mem_e NOINHERIT",
    "ALTER ROLE mem_e NOINHERIT",
    "SELECT pg_has_role('mem_e', 'mem_a', 'usage')",
    "REVOKE mem_a FROM mem_e",
    "REVOKE mem_a FROM mem_e",
    "REVOKE ADMIN OPTION FOR mem_a FROM mem_b",
    "GRANT mem_c TO mem_a, mem_b",
    "REVOKE mem_c FROM mem_a, mem_b CASCADE",
    "GRANT mem_a, mem_c TO mem_d",
    "ALTER GROUP mem_a ADD USER mem_c, mem_e",
    "ALTER GROUP mem_a DROP USER mem_e",
    "ALTER GROUP mem_a ADD USER mem_c",
    "GRANT pg_monitor TO mem_e",
    "SELECT pg_has_role('mem_e', 'pg_read_all_stats', 'usage'), pg_has_role('mem_e', 'pg_read_all_stats', 'member')",
    MEMBERS,
    # a role dropped goes with its memberships, both ways
    "CREATE ROLE mem_f ADMIN mem_e ROLE mem_d",
    "DROP ROLE mem_e",
    MEMBERS,
    "SELECT rolname, rolinherit FROM pg_roles WHERE rolname LIKE 'mem\\_%' ORDER BY 1",
    # transactions take SET ROLE back; SET LOCAL lasts until the end of one
    "BEGIN",
    "SET ROLE mem_b",
    "SELECT current_user",
    "ROLLBACK",
    "SELECT current_user LIKE 'mem%'",
    "BEGIN",
    "SET LOCAL ROLE mem_b",
    "SELECT current_user",
    "COMMIT",
    "SELECT current_user LIKE 'mem%'",
    "SET ROLE mem_b",
    "RESET ALL",
    "SELECT current_user",
    "DISCARD ALL",
    "SELECT current_user LIKE 'mem%'",
    "SET ROLE mem_b",
    "BEGIN",
    "SET SESSION AUTHORIZATION mem_c",
    "SELECT current_user, session_user",
    "ROLLBACK",
    "SELECT current_user, session_user = current_user",
    "RESET ROLE",
    "SET ROLE mem_c",
    "DROP ROLE mem_c",
    "SET SESSION AUTHORIZATION mem_c",
    "DROP ROLE mem_c",
    "RESET SESSION AUTHORIZATION",
]

# as mem_b, not a superuser, with the ADMIN OPTION on mem_a (given back first)
ADMIN = [
    "GRANT mem_a TO mem_c",
    "GRANT mem_c TO mem_d",
    "GRANT mem_a TO mem_d GRANTED BY mem_c",
    "SET ROLE mem_a",
    "SELECT current_user, session_user, current_setting('is_superuser')",
    "SET ROLE mem_c",
    "SET ROLE NONE",
    "SHOW role",
    "SET SESSION AUTHORIZATION mem_a",
    "SET SESSION AUTHORIZATION mem_b",
    "SET SESSION AUTHORIZATION DEFAULT",
    "REVOKE mem_a FROM mem_c",
    "REVOKE ADMIN OPTION FOR mem_a FROM mem_b",
    "SELECT pg_has_role('mem_a', 'member'), pg_has_role('mem_a', 'MEMBER WITH ADMIN OPTION')",
    "GRANT mem_a TO mem_c",
    "ALTER GROUP mem_a ADD USER mem_c",
    "CREATE ROLE mem_x IN ROLE mem_a",
    "DROP ROLE mem_a",
]


def drop_roles(rl: Recorder, pg: Recorder) -> None:
    for sql in ["RESET SESSION AUTHORIZATION", "RESET ROLE"] + [f"DROP ROLE IF EXISTS {r}" for r in ROLES]:
        rl.answer(sql)
        pg.answer(sql)


@pytest.fixture(scope="module")
def servers(rocklake_server, postgres_server):
    yield rocklake_server, postgres_server
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        drop_roles(rl, pg)


def test_membership_commands(servers):
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, STATEMENTS)


def test_membership_as_admin(servers):
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a", "CREATE ROLE mem_b LOGIN", "CREATE ROLE mem_c",
                              "CREATE ROLE mem_d", "GRANT mem_a TO mem_b WITH ADMIN OPTION"])
    sessions = [connect_as(s, "mem_b") for s in servers]
    assert not any(isinstance(c, str) for c in sessions), sessions
    with sessions[0], sessions[1]:
        same_answers(Recorder(sessions[0]), Recorder(sessions[1]), ADMIN)


def test_pg_database_owner(servers):
    """pg_database_owner has one implicit member and is a member of none. PostgreSQL 15
    raises both without a SQLSTATE (XX000); RockLake gives them 16's, 0LP01."""
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a"])
        for sql in ["GRANT pg_database_owner TO mem_a", "GRANT mem_a TO pg_database_owner"]:
            mine, theirs = rl.answer(sql), pg.answer(sql)
            assert mine[0][0] == "error" and mine[0][1] == "0LP01", mine
            assert theirs[0][1] == "XX000" and mine[0][2:] == theirs[0][2:] and mine[1] == theirs[1], (mine, theirs)


def test_superuser_status_follows_role(servers):
    """SET ROLE and SET SESSION AUTHORIZATION report is_superuser and session_authorization
    to the client as PostgreSQL does."""
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a LOGIN"])
    reported = []
    for server in servers:
        with server.connect(autocommit=True) as conn:
            seen = []
            for sql in ["SET ROLE mem_a", "RESET ROLE", "SET SESSION AUTHORIZATION mem_a",
                        "RESET SESSION AUTHORIZATION"]:
                conn.execute(sql)
                seen.append((conn.info.parameter_status("is_superuser"),
                             conn.info.parameter_status("session_authorization") == "mem_a"))
            reported.append(seen)
    assert reported[0] == reported[1]


def test_du_member_of(servers):
    """psql's \\du and \\dg show each role's memberships, and NOINHERIT."""
    assert shutil.which("psql"), "psql not installed (contrib/install-deps.sh)"
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a", "CREATE ROLE mem_b LOGIN NOINHERIT IN ROLE mem_a",
                              "CREATE ROLE mem_c ROLE mem_b ADMIN mem_a", "GRANT pg_monitor TO mem_c"])
    outputs = []
    for server in servers:
        out = subprocess.run(["psql", "-X", server.dsn("postgres"), "-c", r"\du mem_*", "-c", r"\dg+ mem_b"],
                             capture_output=True, text=True, timeout=60, env=dict(os.environ, PGSSLMODE="disable"))
        outputs.append((out.returncode, out.stdout, out.stderr))
    assert outputs[0] == outputs[1]
    assert "{mem_a,mem_c}" in outputs[0][1]


@pytest.mark.parametrize("how", ["restart", "rebuild"])
def test_memberships_survive(servers, how):
    """Memberships and NOINHERIT come back after a restart, and from the store alone."""
    rocklake_server, postgres_server = servers
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a", "CREATE ROLE mem_b NOINHERIT LOGIN",
                              "GRANT mem_a TO mem_b WITH ADMIN OPTION", "GRANT pg_monitor TO mem_a"])
    rocklake_server.restart(rebuild=how == "rebuild")
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, [MEMBERS, "SELECT rolname, rolinherit FROM pg_roles WHERE rolname LIKE 'mem\\_%'"
                              " ORDER BY 1", "SET ROLE mem_b", "SELECT pg_has_role('mem_a', 'USAGE')"])


def test_session_user_cannot_be_changed(servers):
    """The session's own role: not renamed, not dropped, whoever asks."""
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a LOGIN CREATEROLE", "CREATE ROLE mem_b LOGIN",
                              "GRANT mem_b TO mem_a"])
    sessions = [connect_as(s, "mem_a") for s in servers]
    assert not any(isinstance(c, str) for c in sessions), sessions
    with sessions[0], sessions[1]:
        same_answers(Recorder(sessions[0]), Recorder(sessions[1]), [
            "ALTER ROLE mem_a RENAME TO mem_c", "DROP ROLE mem_a", "SET ROLE mem_b",
            "ALTER ROLE mem_b RENAME TO mem_c", "DROP ROLE mem_b", "CREATE ROLE mem_c",
            "RESET ROLE", "DROP ROLE mem_b", "SELECT count(*) FROM pg_auth_members"
            " WHERE pg_get_userbyid(member) = 'mem_a'"])


def test_connection_error_is_clean(servers):
    """A startup option naming a role the user may not become is refused as PostgreSQL does."""
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, ["CREATE ROLE mem_a LOGIN", "CREATE ROLE mem_b LOGIN"])
    answers = []
    for server in servers:
        dsn = server.dsn("postgres").replace(f"user={server.user}", "user=mem_a")
        try:
            with psycopg.connect(dsn, sslmode="disable", connect_timeout=10, options="-c role=mem_b") as conn:
                answers.append(conn.execute("SELECT current_user").fetchone())
        except psycopg.OperationalError as e:
            answers.append(str(e)[str(e).index(" failed: ", str(e).index("port")):].strip())
    assert answers[0] == answers[1], answers


# per-role and per-database settings, as the superuser
SETTINGS = [
    "CREATE ROLE mem_a LOGIN",
    "CREATE ROLE mem_b LOGIN",
    "ALTER ROLE mem_a SET work_mem = '8MB'",
    "ALTER ROLE mem_a SET search_path = a, b",
    "ALTER ROLE mem_a IN DATABASE postgres SET work_mem = '16MB'",
    "ALTER ROLE ALL SET statement_timeout = '5s'",
    "ALTER DATABASE postgres SET DateStyle = 'German'",
    "ALTER ROLE mem_a SET work_mem = '9MB'",
    "ALTER ROLE mem_a SET mem_nosuch_param = 1",
    "ALTER ROLE mem_nosuch SET work_mem = '1MB'",
    "ALTER ROLE mem_a IN DATABASE mem_nosuchdb SET work_mem = '1MB'",
    "SELECT pg_get_userbyid(setrole), (SELECT datname FROM pg_database WHERE oid = setdatabase), setconfig"
    " FROM pg_db_role_setting WHERE setrole = 0 OR pg_get_userbyid(setrole) LIKE 'mem\\_%' ORDER BY 1, 2",
    "SELECT rolname, rolconfig FROM pg_roles WHERE rolname LIKE 'mem\\_%' ORDER BY 1",
    "SELECT usename, useconfig FROM pg_user WHERE usename LIKE 'mem\\_%' ORDER BY 1",
]

# as mem_a: what it gets at login, in PostgreSQL's order, and what it may change
SETTINGS_AS_ROLE = [
    "SELECT current_setting('work_mem'), current_setting('search_path'), current_setting('statement_timeout'),"
    " current_setting('DateStyle')",
    "SELECT name, source FROM pg_settings WHERE name IN ('work_mem', 'search_path', 'statement_timeout', 'DateStyle')"
    " ORDER BY 1",
    "RESET work_mem",
    "SHOW work_mem",
    "ALTER ROLE mem_a SET work_mem = '2MB'",
    "ALTER ROLE mem_b SET work_mem = '1MB'",
    "ALTER DATABASE postgres SET work_mem = '1MB'",
    "ALTER ROLE mem_a RESET work_mem",
    "ALTER ROLE mem_a RESET ALL",
]

SETTINGS_RESET = [
    "ALTER ROLE mem_a IN DATABASE postgres RESET work_mem",
    "ALTER ROLE ALL RESET statement_timeout",
    "ALTER DATABASE postgres RESET ALL",
    "SELECT count(*) FROM pg_db_role_setting WHERE setrole = 0 OR pg_get_userbyid(setrole) LIKE 'mem\\_%'",
]


def test_role_settings(servers):
    """ALTER ROLE / ALTER DATABASE ... SET and RESET, pg_db_role_setting, rolconfig, the
    settings a session gets at login and psql's \\drds."""
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, SETTINGS)
    outputs = []
    for server in servers:
        out = subprocess.run(["psql", "-X", server.dsn("postgres"), "-c", r"\drds mem_*"],
                             capture_output=True, text=True, timeout=60, env=dict(os.environ, PGSSLMODE="disable"))
        outputs.append((out.returncode, out.stdout, out.stderr))
    assert outputs[0] == outputs[1]
    assert "search_path=a, b" in outputs[0][1]
    sessions = [connect_as(s, "mem_a") for s in servers]
    assert not any(isinstance(c, str) for c in sessions), sessions
    with sessions[0], sessions[1]:
        same_answers(Recorder(sessions[0]), Recorder(sessions[1]), SETTINGS_AS_ROLE)
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, SETTINGS_RESET)


def test_role_commands_in_transaction_block(rocklake_server):
    """RockLake's one departure here: the cluster's roles are commits to the postgres
    database's catalog, which a session's transaction does not take part in, so the
    role commands refuse a transaction block (25001) where PostgreSQL would roll them
    back; GRANT and REVOKE on tables and schemas are the session's own writes and do
    run in one (test_privileges.py)."""
    with rocklake_server.connect(autocommit=True) as conn:
        recorder = Recorder(conn)
        recorder.answer("CREATE ROLE mem_f")
        for sql in ["CREATE ROLE mem_e", "ALTER ROLE mem_f SET work_mem = '1MB'", "GRANT pg_monitor TO mem_f",
                    "DROP ROLE mem_f"]:
            assert recorder.answer("BEGIN")[0] == ("status", "BEGIN")
            answer = recorder.answer(sql)[0]
            assert answer[:2] == ("error", "25001") and "cannot run inside a transaction block" in answer[2], answer
            recorder.answer("ROLLBACK")
        recorder.answer("DROP ROLE mem_f")
