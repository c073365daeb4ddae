"""Roles and passwords against PostgreSQL 15 in the same run: CREATE / ALTER / DROP ROLE
and USER with their options, errors and notices; the verifiers kept (SCRAM-SHA-256 or
md5 per password_encryption, a verifier given as one stored as it is, md5 cleared by a
rename); pg_roles, pg_authid, pg_user and pg_shadow and psql's \\du; logging in as such
roles (passwords, NOLOGIN, VALID UNTIL, unknown roles under trust); what a role without
privileges may not do; and a DuckLake attached by a role with a password.

Both servers get one hba line for the password roles (md5: SCRAM for a SCRAM verifier);
every other connection is trusted, as the fixtures' servers are.
"""

import base64
import hashlib
import hmac
import os
import pathlib
import shutil
import subprocess
import time

import psycopg
import pytest

import duckdb_offline
from lakes import Lake, Session
from test_schemas import Recorder, recorders, same_answers

# every role and database the tests make, dropped before and after them
ROLES = ["role_cr_renamed", "role_z", "role_lim", "role_kept", "role_m1", "role_a", "role_u", "role_pw",
         "role_md5", "role_scram", "role_empty", "role_old", "role_older", "role_nologin", "role_exp", "role_cr",
         "role_made", "role_su", "role_db", "role_duck"]
# the roles that log in with passwords: an hba line of their own on both servers
PASSWORD_ROLES = ["role_pw", "role_md5", "role_scram", "role_nologin", "role_exp", "role_cr", "role_db",
                  "role_kept", "role_lim", "role_duck"]


def scram_verifier(password: str, salt: bytes = b"0123456789abcdef", iterations: int = 4096) -> str:
    """A SCRAM-SHA-256 verifier with a fixed salt, as psql's \\password makes one."""
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", "sha256").digest()
    server_key = hmac.new(salted, b"Server Key", "sha256").digest()
    b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(hashlib.sha256(client_key).digest())}:{b64(server_key)}"


SCRAM_VERIFIER = scram_verifier("scrampw")
MD5_VERIFIER = "md5" + hashlib.md5(b"md5pwrole_md5").hexdigest()

STATEMENTS = [
    "CREATE ROLE role_a",
    "CREATE ROLE role_a",
    "CREATE USER role_u CREATEDB CONNECTION LIMIT 3 VALID UNTIL '2099-01-01 00:00:00+00'",
    "CREATE ROLE pg_bad",
    "CREATE ROLE role_x CONNECTION LIMIT -2",
    "CREATE ROLE role_x LOGIN NOLOGIN",
    "CREATE ROLE role_pw LOGIN PASSWORD 'secret'",
    f"CREATE ROLE role_md5 LOGIN PASSWORD '{MD5_VERIFIER}'",
    f"CREATE ROLE role_scram LOGIN ENCRYPTED PASSWORD '{SCRAM_VERIFIER}'",
    "CREATE ROLE role_empty PASSWORD ''",
    "SET password_encryption = md5",
    "CREATE ROLE role_old LOGIN PASSWORD 'pw'",
    "RESET password_encryption",
    "CREATE ROLE role_nologin NOLOGIN PASSWORD 'secret'",
    "CREATE ROLE role_exp LOGIN PASSWORD 'secret' VALID UNTIL '2001-01-01'",
    "CREATE ROLE role_cr LOGIN CREATEROLE PASSWORD 'secret'",
    "CREATE ROLE role_su SUPERUSER",
    "CREATE ROLE role_db LOGIN CREATEDB PASSWORD 'secret'",
    "SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication,"
    " rolconnlimit, rolpassword, rolvaliduntil, rolbypassrls, rolconfig FROM pg_roles"
    " WHERE rolname LIKE 'role\\_%' ORDER BY 1",
    "SELECT rolname, rolpassword FROM pg_authid WHERE rolname IN ('role_md5', 'role_scram', 'role_old',"
    " 'role_empty', 'role_a') ORDER BY 1",
    "SELECT rolname, left(rolpassword, 14) FROM pg_authid WHERE rolname LIKE 'role\\_%' ORDER BY 1",
    "SELECT usename, usecreatedb, usesuper, userepl, usebypassrls, passwd, valuntil, useconfig FROM pg_user"
    " WHERE usename LIKE 'role\\_%' ORDER BY 1",
    "SELECT usename, left(passwd, 3) FROM pg_shadow WHERE usename LIKE 'role\\_%' ORDER BY 1",
    "SELECT rolname FROM pg_roles WHERE rolname LIKE 'pg\\_%' ORDER BY 1",
    "SELECT r.rolname, pg_get_userbyid(r.oid) = r.rolname FROM pg_roles r WHERE r.rolname LIKE 'role\\_%'"
    " ORDER BY 1",
    "CREATE SCHEMA role_sch AUTHORIZATION role_pw",
    "SELECT schema_name, schema_owner FROM information_schema.schemata WHERE schema_name = 'role_sch'",
    "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'role_sch'",
    "DROP SCHEMA role_sch",
    "ALTER ROLE role_a CREATEROLE LOGIN CONNECTION LIMIT 7",
    "ALTER ROLE role_nosuch LOGIN",
    "ALTER USER role_u NOCREATEDB CONNECTION LIMIT -1 VALID UNTIL 'infinity'",
    "ALTER ROLE role_a PASSWORD 'x'",
    "ALTER ROLE role_a PASSWORD NULL",
    "ALTER ROLE role_a CONNECTION LIMIT -5",
    "ALTER ROLE role_old RENAME TO role_older",
    "ALTER ROLE role_pw RENAME TO role_pw2",
    "ALTER ROLE role_pw2 RENAME TO role_pw",
    "ALTER ROLE role_a RENAME TO role_u",
    "ALTER ROLE role_a RENAME TO pg_x",
    "ALTER ROLE role_nosuch RENAME TO role_y",
    "SELECT rolname, rolcreaterole, rolcanlogin, rolconnlimit, rolvaliduntil::text, rolcreatedb,"
    " rolpassword IS NULL FROM pg_authid WHERE rolname IN ('role_a', 'role_u', 'role_older', 'role_pw')"
    " ORDER BY 1",
    "DROP ROLE role_nosuch",
    "CREATE ROLE role_m1 SYSID 42",
    "DROP ROLE role_m1, role_nosuch",
    "SELECT count(*) FROM pg_roles WHERE rolname = 'role_m1'",
    "DROP ROLE role_m1, role_empty",
    "DROP ROLE IF EXISTS role_nosuch, role_a",
    "DROP ROLE CURRENT_USER",
    "SELECT count(*) FROM pg_roles WHERE rolname IN ('role_a', 'role_nosuch')",
]

# as role_pw: no CREATEDB, no CREATEROLE, not a superuser
UNPRIVILEGED = [
    "SELECT current_user, session_user",
    "SHOW is_superuser",
    "CREATE DATABASE role_pw_db",
    "CREATE ROLE role_y",
    "SELECT rolname FROM pg_authid",
    "SELECT usename FROM pg_shadow",
    "SELECT rolname, rolpassword FROM pg_roles WHERE rolname = 'role_pw'",
    "SELECT usename, passwd FROM pg_user WHERE usename = 'role_pw'",
    "ALTER ROLE role_pw CREATEDB",
    "ALTER ROLE role_u PASSWORD 'x'",
    "ALTER ROLE role_su NOSUPERUSER",
    "DROP ROLE role_u",
    "ALTER ROLE role_u RENAME TO role_v",
    "ALTER ROLE role_pw PASSWORD 'secret'",
    "SET log_statement = 'all'",
    "SET log_min_duration_statement = 0",
    "SELECT set_config('session_replication_role', 'replica', false)",
    "RESET log_statement",
    "SET statement_timeout = 1000",
    "SELECT name, context FROM pg_settings WHERE name IN ('log_statement', 'lc_messages',"
    " 'log_min_duration_statement', 'session_replication_role', 'work_mem') ORDER BY 1",
]

# as role_cr: CREATEROLE, not a superuser
CREATEROLE = [
    "CREATE ROLE role_made LOGIN",
    "CREATE ROLE role_y SUPERUSER",
    "ALTER ROLE role_made CREATEDB",
    "ALTER ROLE role_su LOGIN",
    "ALTER ROLE role_made RENAME TO role_made2",
    "ALTER ROLE role_made2 RENAME TO role_made",
    "DROP ROLE role_su",
    "DROP ROLE role_made",
    "DROP ROLE role_cr",
    "CREATE DATABASE role_cr_db",
]


def hba_file(server, conn) -> pathlib.Path:
    if server.kind == "rocklake":
        return server.workdir / "data" / "rocklake_hba.conf"
    return pathlib.Path(conn.execute("SHOW hba_file").fetchone()[0])


@pytest.fixture(scope="module")
def servers(rocklake_server, postgres_server):
    """Both servers, with an md5 line for the password roles before their trust lines."""
    line = f"host all {','.join(PASSWORD_ROLES)} 127.0.0.1/32 md5\n"
    for server in (rocklake_server, postgres_server):
        with server.connect(autocommit=True) as conn:
            path = hba_file(server, conn)
            text = path.read_text()
            if line not in text:
                path.write_text(line + text)
            if server.kind == "postgres":
                conn.execute("SELECT pg_reload_conf()")
    yield rocklake_server, postgres_server
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        drop_roles(rl, pg)


def drop_roles(rl: Recorder, pg: Recorder) -> None:
    for sql in ["DROP DATABASE IF EXISTS role_db_made", "DROP DATABASE IF EXISTS rolesduck",
                "DROP DATABASE IF EXISTS role_db_kept",
                "DROP DATABASE IF EXISTS role_db_acl", "DROP DATABASE IF EXISTS role_db_own",
                "DROP DATABASE IF EXISTS role_db_owned"] + \
            [f"DROP ROLE IF EXISTS {r}" for r in ROLES + ["role_pw2", "role_made2", "role_v", "role_y"]]:
        rl.answer(sql)
        pg.answer(sql)


def connect_as(server, user, password=None, dbname="postgres"):
    """A connection as user, or the FATAL message that refused it."""
    try:
        return psycopg.connect(server.dsn(dbname).replace(f"user={server.user}", f"user={user}"),
                               password=password, sslmode="disable", connect_timeout=10, autocommit=True)
    except psycopg.OperationalError as e:
        text = str(e)
        return text[text.index("FATAL:"):].strip() if "FATAL:" in text else text


def as_role(servers, user, password, statements) -> None:
    rl_conn, pg_conn = (connect_as(s, user, password) for s in servers)
    assert not isinstance(rl_conn, str) and not isinstance(pg_conn, str), (rl_conn, pg_conn)
    with rl_conn, pg_conn:
        same_answers(Recorder(rl_conn), Recorder(pg_conn), statements)


def test_role_commands(servers):
    with recorders(*servers) as (rl, pg):
        drop_roles(rl, pg)
        same_answers(rl, pg, STATEMENTS)


def test_pg_dumpall_globals(servers):
    """pg_dumpall --globals-only reads the roles as from PostgreSQL: the same CREATE ROLE
    and ALTER ROLE lines for the roles the tests made (their passwords' verifiers aside,
    which carry random salts)"""
    lines = []
    for server in servers:
        done = subprocess.run(["pg_dumpall", "--globals-only", "-d", server.dsn("postgres")],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        lines.append([line.split(" PASSWORD ")[0] for line in done.stdout.splitlines()
                      if line.startswith(("CREATE ROLE role_", "ALTER ROLE role_"))])
    assert lines[0] == lines[1] and lines[0], lines


def test_du(servers):
    """psql's \\du lists the roles as PostgreSQL's does."""
    assert shutil.which("psql"), "psql not installed (contrib/install-deps.sh)"
    outputs = []
    for server in servers:
        out = subprocess.run(["psql", "-X", server.dsn("postgres"), "-c", r"\du role_*", "-c", r"\du+ role_u"],
                             capture_output=True, text=True, timeout=60, env=dict(os.environ, PGSSLMODE="disable"))
        outputs.append((out.returncode, out.stdout, out.stderr))
    assert outputs[0] == outputs[1]


def test_login(servers):
    """Passwords, NOLOGIN, VALID UNTIL and unknown roles, as PostgreSQL refuses them."""
    cases = [("role_pw", "secret"), ("role_pw", "wrong"), ("role_md5", "md5pw"), ("role_scram", "scrampw"),
             ("role_scram", "wrong"), ("role_nologin", "secret"), ("role_exp", "secret"),
             ("role_nosuch", None), ("role_su", None), ("role_u", None)]
    for user, password in cases:
        answers = []
        for server in servers:
            conn = connect_as(server, user, password)
            if isinstance(conn, str):
                answers.append(conn)
            else:
                with conn:
                    answers.append(conn.execute("SELECT current_user, current_setting('is_superuser')").fetchone())
        assert answers[0] == answers[1], (user, password)


def test_superuser_setting_at_startup(servers):
    """A superuser's setting among a non-superuser's startup options is FATAL 42501."""
    answers = []
    for server in servers:
        for user, password in (("role_pw", "secret"), (server.user, None)):
            try:
                dsn = server.dsn("postgres").replace(f"user={server.user}", f"user={user}")
                with psycopg.connect(dsn, password=password, sslmode="disable", connect_timeout=10,
                                     options="-c log_statement=all") as conn:
                    answers.append(conn.execute("SHOW log_statement").fetchone())
            except psycopg.OperationalError as e:
                answers.append(str(e)[str(e).index("FATAL:"):].strip())
    assert answers[:2] == answers[2:]
    assert answers[1] == ("all",)


def test_connection_limit(servers):
    """CONNECTION LIMIT: one session more than it is FATAL 53300; a superuser has none."""
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["DROP ROLE IF EXISTS role_lim",
                              "CREATE ROLE role_lim LOGIN CONNECTION LIMIT 1 PASSWORD 'secret'"])
    answers = []
    for server in servers:
        first = connect_as(server, "role_lim", "secret")
        assert not isinstance(first, str), first
        answers.append(connect_as(server, "role_lim", "secret"))
        first.close()
        for _ in range(50):  # the first session's backend ends after the client closes it
            again = connect_as(server, "role_lim", "secret")
            if not isinstance(again, str):
                break
            time.sleep(0.1)
        answers.append(again if isinstance(again, str) else again.close())
    assert answers[0] == answers[2] == 'FATAL:  too many connections for role "role_lim"'
    assert answers[1] is None and answers[3] is None


def test_unprivileged(servers):
    as_role(servers, "role_pw", "secret", UNPRIVILEGED)


def test_createrole(servers):
    as_role(servers, "role_cr", "secret", CREATEROLE)


DATABASE_PRIVILEGES = [
    "CREATE DATABASE role_db_acl",
    "SELECT datname, datdba = (SELECT oid FROM pg_roles WHERE rolname = current_user), datacl FROM pg_database"
    " WHERE datname = 'role_db_acl'",
    "REVOKE CONNECT ON DATABASE role_db_acl FROM PUBLIC",
    "GRANT CONNECT ON DATABASE role_db_acl TO role_pw",
    "GRANT ALL ON DATABASE role_db_acl TO role_scram",
    "REVOKE TEMPORARY ON DATABASE role_db_acl FROM role_scram",
    "GRANT USAGE ON DATABASE role_db_acl TO role_pw",
    "GRANT CONNECT ON DATABASE role_nosuchdb TO role_pw",
    "GRANT CONNECT ON DATABASE role_db_acl TO role_nosuch",
    "SELECT replace(datacl::text, current_user, 'OWNER') FROM pg_database WHERE datname = 'role_db_acl'",
    "DROP ROLE role_scram",
    "CREATE DATABASE role_db_owned OWNER role_pw",
    "CREATE DATABASE role_db_x OWNER role_nosuch",
    "SELECT datname, pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'role_db_owned'",
]


def test_database_privileges(servers):
    """Owners, GRANT / REVOKE CONNECT and what they decide: who connects, who drops."""
    with recorders(*servers) as (rl, pg):
        for sql in ["DROP DATABASE IF EXISTS role_db_acl", "DROP DATABASE IF EXISTS role_db_own",
                    "DROP DATABASE IF EXISTS role_db_owned"]:
            rl.answer(sql)
            pg.answer(sql)
        same_answers(rl, pg, DATABASE_PRIVILEGES)
    logins = []
    for server in servers:
        for user in ("role_pw", "role_cr"):
            conn = connect_as(server, user, "secret", dbname="role_db_acl")
            logins.append(conn if isinstance(conn, str) else conn.close())
    assert logins[:2] == logins[2:]
    assert logins[0] is None and "permission denied" in logins[1]
    as_role(servers, "role_pw", "secret", ["DROP DATABASE role_db_acl",
                                             "GRANT CONNECT ON DATABASE role_db_acl TO role_cr",
                                             "GRANT CONNECT ON DATABASE template1 TO role_cr"])
    as_role(servers, "role_db", "secret", ["CREATE DATABASE role_db_own", "CREATE DATABASE role_db_x OWNER role_pw"])
    as_role(servers, "role_pw", "secret", ["DROP DATABASE role_db_owned"])
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["DROP ROLE role_db", "DROP DATABASE role_db_acl", "DROP ROLE role_scram"])
    as_role(servers, "role_db", "secret", ["DROP DATABASE role_db_own"])


def test_renamed_while_connected(servers):
    """A session keeps its role's privileges when another session renames the role."""
    sessions = [connect_as(s, "role_cr", "secret") for s in servers]
    assert not any(isinstance(c, str) for c in sessions), sessions
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["ALTER ROLE role_cr RENAME TO role_cr_renamed"])
    with sessions[0], sessions[1]:
        same_answers(Recorder(sessions[0]), Recorder(sessions[1]),
                     ["CREATE ROLE role_y", "DROP ROLE role_y", "ALTER ROLE role_cr_renamed RENAME TO role_z"])
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["ALTER ROLE role_cr_renamed RENAME TO role_cr"])


def test_createdb(servers):
    as_role(servers, "role_db", "secret", ["CREATE DATABASE role_db_made", "DROP DATABASE role_db_made"])


def test_password_command(servers):
    """psql's \\password: ALTER USER with a SCRAM verifier made by the client, then log in with it."""
    assert shutil.which("psql"), "psql not installed (contrib/install-deps.sh)"
    answers = []
    for server in servers:
        out = subprocess.run(["psql", "-X", server.dsn("postgres").replace(f"user={server.user}", "user=role_pw"),
                              "-c", r"\password"], input="newsecret\nnewsecret\n", capture_output=True, text=True,
                             timeout=60, env=dict(os.environ, PGPASSWORD="secret", PGSSLMODE="disable"))
        conn = connect_as(server, "role_pw", "newsecret")
        ok = not isinstance(conn, str)
        if ok:
            conn.execute("ALTER ROLE role_pw PASSWORD 'secret'")
            conn.close()
        answers.append((out.returncode, out.stderr, ok, connect_as(server, "role_pw", "newsecret")))
    assert answers[0] == answers[1]
    assert answers[0][2]


class RoleServer:
    """A server's DSN as another role (with a password, or under trust), for Lake."""

    def __init__(self, server, user, password=None):
        self.server, self.user, self.password = server, user, password

    def dsn(self, dbname: str) -> str:
        return (self.server.dsn(dbname).replace(f"user={self.server.user}", f"user={self.user}")
                + (f" password={self.password}" if self.password else ""))


def test_ducklake_as_password_role(servers, tmp_path_factory):
    """DuckDB attaches a lake in a database a role with a password made, on both servers."""
    transcripts = []
    for server in servers:
        with server.connect(autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS rolesduck")
            conn.execute("DROP ROLE IF EXISTS role_duck")
            conn.execute("CREATE ROLE role_duck LOGIN CREATEDB PASSWORD 'duckpw'")
        owner = connect_as(server, "role_duck", "duckpw")
        assert not isinstance(owner, str), owner
        with owner:
            owner.execute("CREATE DATABASE rolesduck")
        lake = Lake(RoleServer(server, "role_duck", "duckpw"), "rolesduck", tmp_path_factory.mktemp("data"))
        with Session(lake, duckdb_offline.connect()) as s:
            s.attach()
            s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
            s.sql("INSERT INTO lake.t VALUES (1, 'one'), (2, 'two')")
            s.sql("SELECT * FROM lake.t ORDER BY id")
        transcripts.append(lake.transcript)
    assert transcripts[0] == transcripts[1]


@pytest.mark.parametrize("how", ["restart", "rebuild"])
def test_roles_survive(servers, how):
    """Roles, their passwords and a database's ACL come back after a restart, and from the store alone."""
    rocklake_server, postgres_server = servers
    setup = ["DROP DATABASE IF EXISTS role_db_kept", "DROP ROLE IF EXISTS role_kept",
             "CREATE ROLE role_kept LOGIN CREATEDB VALID UNTIL '2099-01-01 00:00:00+00' PASSWORD 'secret'",
             "CREATE DATABASE role_db_kept", "REVOKE CONNECT ON DATABASE role_db_kept FROM PUBLIC",
             "GRANT CONNECT ON DATABASE role_db_kept TO role_kept"]
    check = ["SELECT rolname, rolcreatedb, rolcanlogin, rolvaliduntil, left(rolpassword, 14) FROM pg_authid"
             " WHERE rolname = 'role_kept'",
             "SELECT replace(datacl::text, current_user, 'OWNER') FROM pg_database WHERE datname = 'role_db_kept'"]
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, setup)
    rocklake_server.restart(rebuild=how == "rebuild")
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, check)
    logins = []
    for server in servers:
        conn = connect_as(server, "role_kept", "secret", dbname="role_db_kept")
        if isinstance(conn, str):
            logins.append(conn)
            continue
        with conn:
            logins.append(conn.execute("SELECT current_user").fetchone())
    assert logins[0] == logins[1] == ("role_kept",)
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, ["DROP DATABASE role_db_kept", "DROP ROLE role_kept"])



def test_superuser_only_controls(servers):
    """what PostgreSQL keeps to superusers by default: other roles' activity, ALTER SYSTEM, CHECKPOINT,
    pg_reload_conf(), rocklake's maintenance functions (on RockLake only), and signals to
    a superuser's sessions (the fixture's own connections are the superuser's)"""
    with servers[0].connect(autocommit=True), servers[1].connect(autocommit=True):
        as_role(servers, "role_pw", "secret", [
            "SELECT count(*) > 0, bool_and(query = '<insufficient privilege>'),"
            " bool_and(state IS NULL AND backend_type IS NULL AND backend_start IS NULL)"
            " FROM pg_stat_activity WHERE usename IS DISTINCT FROM current_user",
            "ALTER SYSTEM SET work_mem = '8MB'",
            "CHECKPOINT",
            "SELECT pg_reload_conf()",
            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename = current_user"
            " AND pid <> pg_backend_pid()",
            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
            " AND backend_type = 'client backend' AND usename <> 'role_pw' LIMIT 1",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
            " AND backend_type = 'client backend' AND usename <> 'role_pw' LIMIT 1",
        ])
    conn = connect_as(servers[0], "role_pw", "secret")
    with conn:
        for function in ("rocklake_compact", "rocklake_gc"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT {function}()")


def test_drop_role_with_dependencies(servers):
    """DROP ROLE of a role that owns schemas, tables or a database or holds privileges
    on them: 2BP01 with PostgreSQL's DETAIL (this database's objects, the databases, a
    count per other database); once they are gone it is dropped"""
    with recorders(*servers) as (rl, pg):
        for sql in ["DROP DATABASE IF EXISTS role_dep_db", "DROP TABLE IF EXISTS role_dep_s.t3, role_dep_t1, role_dep_t2",
                    "DROP SCHEMA IF EXISTS role_dep_s", "DROP SCHEMA IF EXISTS role_dep_s2",
                    "DROP ROLE IF EXISTS role_dep"]:
            rl.answer(sql)
            pg.answer(sql)
        same_answers(rl, pg, [
            "CREATE ROLE role_dep LOGIN",
            "CREATE SCHEMA role_dep_s2",
            "GRANT CREATE ON SCHEMA public TO role_dep",
            "GRANT USAGE ON SCHEMA role_dep_s2 TO role_dep",
            "DROP ROLE role_dep",
            "CREATE SCHEMA role_dep_s AUTHORIZATION role_dep",
        ])
    as_role(servers, "role_dep", None, ["CREATE TABLE role_dep_t1 (a int)"])
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, [
            "CREATE TABLE role_dep_t2 (a int)",
            "GRANT SELECT ON role_dep_t2 TO role_dep",
        ])
    as_role(servers, "role_dep", None, ["CREATE TABLE role_dep_s.t3 (a int)"])
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["DROP ROLE role_dep", "CREATE DATABASE role_dep_db OWNER role_dep", "DROP ROLE role_dep"])
    for server in servers:
        conn = connect_as(server, "role_dep", dbname="role_dep_db")
        with conn:
            conn.execute("CREATE TABLE role_dep_x (a int)")
            conn.execute("CREATE TABLE role_dep_y (a int)")
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, [
            "DROP ROLE IF EXISTS role_dep",
            "DROP DATABASE role_dep_db",
            "DROP TABLE role_dep_s.t3, role_dep_t1",
            "DROP SCHEMA role_dep_s",
            "REVOKE USAGE ON SCHEMA role_dep_s2 FROM role_dep",
            "REVOKE CREATE ON SCHEMA public FROM role_dep",
            "DROP ROLE role_dep",
            "REVOKE SELECT ON role_dep_t2 FROM role_dep",
            "DROP ROLE role_dep",
            "DROP TABLE role_dep_t2",
            "DROP SCHEMA role_dep_s2",
        ])
