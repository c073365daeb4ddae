"""Table and schema privileges against PostgreSQL 15 in the same run: GRANT and REVOKE
ON TABLE, ON ALL TABLES IN SCHEMA and ON SCHEMA, stored as relacl and nspacl and shown
by psql's \\dp and \\dn+; what roles without them may not do (42501 "permission denied
for table t", "permission denied for schema s", "must be owner of table t"); public's
PostgreSQL 15 default (PUBLIC may use it, not create in it); privileges through role
membership; has_table_privilege and has_schema_privilege; a GRANT rolled back; and
DuckDB attaching a lake as a role that may only read it.

The roles log in under the fixtures' trust lines; the superuser's name differs between
the servers, so answers compared show it as SU.
"""

import os
import shutil
import subprocess
import time

import duckdb
import pytest

import duckdb_offline
from lakes import Lake, Session
from test_roles import RoleServer, connect_as
from test_schemas import Recorder, recorders, same_answers

ROLES = ["priv_r", "priv_w", "priv_g", "priv_m", "priv_n", "priv_duck"]

# ACLs with the superuser's name as SU
RELACL = ("SELECT relname, replace(relacl::text, (SELECT rolname FROM pg_roles WHERE oid = 10), 'SU')"
          " FROM pg_class WHERE relname LIKE 'priv\\_%' ORDER BY 1")
NSPACL = ("SELECT nspname, replace(nspacl::text, (SELECT rolname FROM pg_roles WHERE oid = 10), 'SU')"
          " FROM pg_namespace WHERE nspname IN ('public', 'priv_s') ORDER BY 1")

SETUP = [
    "CREATE ROLE priv_r LOGIN",
    "CREATE ROLE priv_w LOGIN",
    "CREATE ROLE priv_g",
    "CREATE ROLE priv_m LOGIN IN ROLE priv_g",
    "CREATE ROLE priv_n LOGIN NOINHERIT IN ROLE priv_g",
    "CREATE TABLE priv_t1 (id int, v text)",
    "INSERT INTO priv_t1 VALUES (1, 'one')",
    "CREATE TABLE priv_t2 (id int)",
    "CREATE SCHEMA priv_s",
    "CREATE TABLE priv_s.priv_t3 (x int)",
    "INSERT INTO priv_s.priv_t3 VALUES (3)",
    RELACL,
    "GRANT SELECT ON priv_t1 TO priv_r",
    "GRANT INSERT, UPDATE ON priv_t1, priv_t2 TO priv_w",
    "GRANT ALL ON TABLE priv_t2 TO priv_r",
    "REVOKE UPDATE ON priv_t2 FROM priv_r",
    "GRANT SELECT ON ALL TABLES IN SCHEMA priv_s TO priv_r, priv_g",
    "GRANT USAGE ON SCHEMA priv_s TO priv_w, priv_g",
    "GRANT CREATE ON SCHEMA public TO priv_w",
    "GRANT SELECT ON priv_t2 TO PUBLIC",
    "GRANT USAGE ON priv_t1 TO priv_r",
    "GRANT CONNECT ON TABLE priv_t1 TO priv_r",
    "GRANT SELECT ON priv_nosuch TO priv_r",
    "GRANT SELECT ON ALL TABLES IN SCHEMA priv_nosuch TO priv_r",
    "GRANT SELECT ON priv_t1 TO priv_nosuch",
    "GRANT SELECT ON SCHEMA priv_s TO priv_r",
    "GRANT USAGE ON SCHEMA priv_nosuch TO priv_r",
    RELACL,
    NSPACL,
    "SELECT has_table_privilege('priv_r', 'priv_t1', 'SELECT'), has_table_privilege('priv_r', 'priv_t1', 'insert'),"
    " has_table_privilege('priv_w', 'priv_t2', 'select, update'), has_table_privilege('priv_r', 'priv_t1',"
    " 'SELECT WITH GRANT OPTION'), has_table_privilege('priv_t1', 'delete'),"
    " has_table_privilege('priv_m', 'priv_s.priv_t3', 'select'), has_table_privilege('priv_n', 'priv_s.priv_t3', 'select'),"
    " has_table_privilege('priv_r', 'pg_class', 'select')",
    "SELECT has_table_privilege('priv_r', 'priv_t1', 'foo')",
    "SELECT has_table_privilege('priv_r', 'priv_nosuch', 'select')",
    "SELECT has_table_privilege('priv_r', 1, 'select')",
    "SELECT has_schema_privilege('priv_r', 'priv_s', 'USAGE'), has_schema_privilege('priv_w', 'priv_s', 'usage'),"
    " has_schema_privilege('priv_r', 'public', 'CREATE'), has_schema_privilege('priv_w', 'public', 'create'),"
    " has_schema_privilege('priv_m', 'priv_s', 'usage'), has_schema_privilege('priv_r', 'pg_catalog', 'usage'),"
    " has_schema_privilege('priv_s', 'create')",
    "SELECT has_schema_privilege('priv_r', 'priv_nosuch', 'usage')",
]

# as each role: what it may and may not do
AS_ROLE = [
    "SELECT * FROM priv_t1",
    "INSERT INTO priv_t1 VALUES (2, 'two')",
    "UPDATE priv_t1 SET v = 'x' WHERE id = 1",
    "UPDATE priv_t1 SET v = 'y'",
    "DELETE FROM priv_t1",
    "SELECT * FROM priv_t2",
    "INSERT INTO priv_t2 VALUES (1)",
    "UPDATE priv_t2 SET id = 2",
    "DELETE FROM priv_t2 WHERE id = 1",
    "TRUNCATE priv_t2",
    "SELECT * FROM priv_s.priv_t3",
    "INSERT INTO priv_s.priv_t3 VALUES (4)",
    "CREATE TABLE priv_made (x int)",
    "CREATE TABLE priv_s.priv_made (x int)",
    "DROP TABLE priv_t1",
    "ALTER TABLE priv_t1 ADD COLUMN z int",
    "GRANT SELECT ON priv_t1 TO priv_g",
    "GRANT USAGE ON SCHEMA priv_s TO priv_r",
    "SELECT id FROM priv_t1 WHERE id IN (SELECT id FROM priv_t2)",
    "SELECT has_table_privilege('priv_t1', 'select'), has_schema_privilege('priv_s', 'usage')",
]

# what a role made is its own: it may grant, alter and drop it
OWNED = [
    "GRANT SELECT ON priv_made TO priv_r",
    "ALTER TABLE priv_made ADD COLUMN y int",
    "SELECT relname, pg_get_userbyid(relowner), relacl FROM pg_class WHERE relname = 'priv_made'",
    "DROP TABLE priv_made",
]


def drop_all(rl: Recorder, pg: Recorder) -> None:
    for recorder in (rl, pg):
        # DuckDB's sessions may still be ending on the server
        for _ in range(50):
            if recorder.answer("DROP DATABASE IF EXISTS priv_lake")[0][0] != "error":
                break
            time.sleep(0.1)
        else:
            recorder.answer("DROP DATABASE IF EXISTS priv_lake WITH (FORCE)")
    for sql in ["DROP TABLE IF EXISTS priv_t1, priv_t2, priv_made", "DROP SCHEMA IF EXISTS priv_s CASCADE",
                "REVOKE ALL ON SCHEMA public FROM priv_w"] + [f"DROP ROLE IF EXISTS {r}" for r in ROLES]:
        rl.answer(sql)
        pg.answer(sql)


@pytest.fixture(scope="module")
def servers(rocklake_server, postgres_server):
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        drop_all(rl, pg)
        same_answers(rl, pg, SETUP)
    yield rocklake_server, postgres_server
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        drop_all(rl, pg)


def as_role(servers, user, statements) -> None:
    sessions = [connect_as(s, user) for s in servers]
    assert not any(isinstance(c, str) for c in sessions), sessions
    with sessions[0], sessions[1]:
        same_answers(Recorder(sessions[0]), Recorder(sessions[1]), statements)


@pytest.mark.parametrize("user", ["priv_r", "priv_w", "priv_m", "priv_n"])
def test_what_roles_may_do(servers, user):
    as_role(servers, user, AS_ROLE)


def test_owner_of_what_it_made(servers):
    as_role(servers, "priv_w", ["CREATE TABLE priv_made (x int)"] + OWNED)


def test_set_role_uses_its_privileges(servers):
    """A NOINHERIT member reads through its group only once it has SET ROLE to it."""
    as_role(servers, "priv_n", ["SELECT * FROM priv_s.priv_t3", "SET ROLE priv_g", "SELECT * FROM priv_s.priv_t3",
                                "SELECT current_user", "RESET ROLE", "SELECT * FROM priv_s.priv_t3"])


def test_grant_rolls_back(servers):
    with recorders(*servers) as (rl, pg):
        same_answers(rl, pg, ["BEGIN", "GRANT DELETE ON priv_t1 TO priv_r", "REVOKE SELECT ON priv_t2 FROM PUBLIC",
                              RELACL, "ROLLBACK", RELACL,
                              "BEGIN", "GRANT TRUNCATE ON priv_t1 TO priv_r", "GRANT TRIGGER ON priv_t1 TO priv_r",
                              "COMMIT", RELACL, "REVOKE TRUNCATE, TRIGGER ON priv_t1 FROM priv_r", RELACL])


def test_psql_dp_dn(servers):
    """psql's \\dp and \\dn+ show the ACLs as PostgreSQL's do."""
    assert shutil.which("psql"), "psql not installed (contrib/install-deps.sh)"
    outputs = []
    for server in servers:
        out = subprocess.run(["psql", "-X", server.dsn("postgres"), "-c", r"\dp priv_*", "-c", r"\dp priv_s.*",
                              "-c", r"\dn+ priv_s"],
                             capture_output=True, text=True, timeout=60, env=dict(os.environ, PGSSLMODE="disable"))
        outputs.append((out.returncode, out.stdout.replace(server.user, "SU"), out.stderr))
    assert outputs[0] == outputs[1]
    assert "priv_r=r/SU" in outputs[0][1]


@pytest.mark.parametrize("how", ["restart", "rebuild"])
def test_privileges_survive(servers, how):
    """relacl, nspacl and owners come back after a restart, and from the store alone."""
    rocklake_server, postgres_server = servers
    rocklake_server.restart(rebuild=how == "rebuild")
    with recorders(rocklake_server, postgres_server) as (rl, pg):
        same_answers(rl, pg, [RELACL, NSPACL])
    as_role(servers, "priv_r", ["SELECT * FROM priv_t1", "INSERT INTO priv_t1 VALUES (5, 'five')"])


@pytest.mark.duckdb
def test_ducklake_read_only_role(servers, tmp_path_factory):
    """A role with SELECT only on a lake's tables attaches it READ_ONLY and reads; a write
    through a read-write attach fails with PostgreSQL's 42501, on both servers."""
    transcripts = []
    for server in servers:
        with server.connect(autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS priv_lake")
            conn.execute("DROP ROLE IF EXISTS priv_duck")
            conn.execute("CREATE ROLE priv_duck LOGIN")
            conn.execute("CREATE DATABASE priv_lake")
        data = tmp_path_factory.mktemp("data")
        owner = Lake(server, "priv_lake", data)
        with Session(owner, duckdb_offline.connect()) as s:
            s.attach()
            s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
            s.sql("INSERT INTO lake.t VALUES (1, 'one'), (2, 'two')")
        with server.connect("priv_lake", autocommit=True) as conn:
            conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO priv_duck")
        reader = Lake(RoleServer(server, "priv_duck"), "priv_lake", data)
        with Session(reader, duckdb_offline.connect()) as s:
            s.attach(READ_ONLY=True)
            s.sql("SELECT * FROM lake.t ORDER BY id")
            s.error("INSERT INTO lake.t VALUES (3, 'three')")
        with Session(reader, duckdb_offline.connect()) as s:
            s.attach()
            s.sql("SELECT count(*) FROM lake.t")
            try:
                s.quiet("INSERT INTO lake.t VALUES (3, 'three')")
                s.note("INSERT", "no error")
            except duckdb.Error as e:
                # the server's own message, which DuckDB puts after the failed query
                s.note("INSERT", str(e)[str(e).rindex("ERROR:"):].strip())
            s.sql("SELECT count(*) FROM lake.t")
        transcripts.append(owner.transcript + reader.transcript)
    assert transcripts[0] == transcripts[1]
    # the first catalog table the commit writes (which one depends on the DuckLake release)
    assert any(label == "INSERT" and str(value).startswith("ERROR:  permission denied for table ducklake_")
               for label, value in transcripts[0]), transcripts[0]
