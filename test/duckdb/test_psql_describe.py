"""psql 15's describe commands against RockLake and PostgreSQL 15 holding the same catalog.
(And a look at the same tables through information_schema.)

Both servers get a lake (DuckDB attaches it, so the ducklake_* tables exist, and writes
to it) and the same two tables created over the wire. Every command then runs through
psql (-X, unaligned output, so that a column's width follows from its cells) on each
server, and RockLake's output must equal PostgreSQL's once the differences that are
inherent to being another server are normalised (normalise(), which says why for each):

- owner and role names: PostgreSQL's bootstrap superuser is "postgres", RockLake reports
  the session's user as the owner of everything (pg_roles OID 10);
- sizes (\\l+, \\dt+, \\di+, \\db+): PostgreSQL measures heap files, RockLake the pages its
  catalog cache gives a table or an index (its tablespaces 0 bytes);
- \\l: PostgreSQL has template0 and ACLs on its templates, RockLake neither; both servers
  also hold the databases of the other tests of this session, so only postgres, template1
  and this test's database are compared;
- \\conninfo: the port;
- \\dt *.*: PostgreSQL also lists its system catalogs (pg_catalog's tables,
  information_schema's sql_* tables, pg_toast's TOAST tables), which are not relations of
  RockLake's pg_class; only the other schemas' rows are compared, and not the row count;
- \\dC: RockLake's pg_cast has PostgreSQL's casts between the types RockLake has; of
  PostgreSQL's rows only those are compared (source and target among RockLake's types),
  and not the row count.
"""

import csv
import io
import os
import re
import shutil
import subprocess

import pytest

from lakes import Lake

pytestmark = pytest.mark.duckdb

PSQL = shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql"

TABLES_SQL = (
    "CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2),"
    " code varchar(8) UNIQUE, flag boolean DEFAULT true, created date DEFAULT '2024-01-01',"
    " note character(4) DEFAULT 'n')",
    "CREATE TABLE pairs (a integer, b bigint, label text, PRIMARY KEY (a, b), UNIQUE (label))",
    # a schema of its own, with a table named as one of public's
    "CREATE SCHEMA sales",
    "CREATE TABLE sales.orders (id integer PRIMARY KEY, item_id integer NOT NULL, qty integer DEFAULT 1)",
    "CREATE TABLE sales.items (sku varchar(12) UNIQUE, name text)",
)

COMMANDS = (
    r"\l", r"\l+", r"\dn", r"\dn+", r"\dt", r"\dt+", r"\d", r"\dv", r"\du", r"\dg",
    r"\d items", r"\d+ items", r"\d pairs", r"\d+ pairs", r"\d ducklake_snapshot",
    r"\d+ ducklake_table", r"\d ducklake_data_file", r"\dt ducklake_s*", r"\d+ ducklake_metadata",
    r"\di", r"\di+", r"\d items_pkey", r"\d+ pairs_pkey", r"\d items_code_key", r"\d ducklake_schema_pkey",
    r"\df", r"\df+", r"\dp", r"\db", r"\db+",
    r"\d nosuch", r"\dt app.*", r"\conninfo",
    r"\dt sales.*", r"\d sales.orders", r"\d+ sales.items", r"\di sales.*", r"\d sales.*", r"\dt *.items",
    r"\dt *.*",
    # extensions, types and the builtin functions
    r"\dx", r"\dT", r"\dT+", r"\df now", r"\df+ now", r"\df+ abs", r"\df round", r"\sf now", r"\sf abs",
    r"\sf abs(integer)", r"\sf+ substr(text, integer)", r'\sf "current_user"', r"\sf nosuch", r"\sf date_part(text, date)",
    # what a DuckLake catalog has none of: conversions, operators, event triggers, extended
    # statistics, domains, foreign tables and servers, materialized views, publications, ...
    r"\dc", r"\do", r"\dy", r"\dy+", r"\dX", r"\dX+", r"\dD", r"\dE", r"\dE+", r"\dm", r"\dm+",
    r"\des", r"\dew", r"\dRp", r"\dRs", r"\dO", r"\dO+", r"\dc+", r"\dD+",
    r"\dL", r"\dLS", r"\dL+",
    # casts: PostgreSQL's between the types RockLake has
    r"\dC", r"\dC+", r"\dC int*", r"\dC+ *time*",
    # information_schema, which psql does not read but other tools do
    "SELECT table_name, table_type, is_insertable_into FROM information_schema.tables"
    " WHERE table_schema = 'public' ORDER BY 1",
    "SELECT table_name, column_name, ordinal_position, column_default, is_nullable, data_type,"
    " character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix,"
    " numeric_scale, datetime_precision, udt_name FROM information_schema.columns"
    " WHERE table_schema = 'public' ORDER BY 1, 3",
)


def make_catalog(lake: Lake) -> None:
    with lake.session() as s:
        s.sql("CREATE TABLE lake.t (id INTEGER, name VARCHAR)")
        s.sql("INSERT INTO lake.t VALUES (1, 'a'), (2, 'b')")
    with lake.server.connect(lake.dbname, autocommit=True) as conn:
        for sql in TABLES_SQL:
            conn.execute(sql)


def psql(lake: Lake, command: str) -> str:
    """command's output; \\l's as CSV, whose cells may hold line breaks (ACLs)"""
    server = lake.server
    env = dict(os.environ, PGSSLMODE="disable", PGCONNECT_TIMEOUT="10")
    result = subprocess.run(
        [PSQL, "-X", "--csv" if command.startswith(r"\l") else "-A", "-h", server.host,
         "-p", str(server.port), "-U", server.user, "-d", lake.dbname, "-c", command],
        capture_output=True, text=True, env=env, timeout=60)
    return result.stdout + result.stderr


def normalise(output: str, lake: Lake, command: str) -> str:
    user = lake.server.user
    if command.startswith(r"\l"):
        # only the databases both servers have for this test; not PostgreSQL's ACLs and sizes
        rows = list(csv.reader(io.StringIO(output)))
        rows = rows[:1] + [row[:7] + ["<acl>"] + (["<size>"] + row[9:] if len(row) > 8 else [])
                           for row in rows[1:] if row[0] in ("postgres", "template1", lake.dbname)]
        lines = ["|".join(row) for row in rows]
    else:
        lines = output.splitlines()
    if command.startswith((r"\dt+", r"\di+", r"\db+")):
        lines = [re.sub(r"\|(\d+ (bytes|kB|MB))\|", "|<size>|", line) for line in lines]
    # a cell that is the user's name (in \l the first cell is a database's name)
    first = 1 if command.startswith(r"\l") else 0
    lines = ["|".join("<user>" if i >= first and cell == user else cell
                      for i, cell in enumerate(line.split("|"))) for line in lines]
    if command == r"\dt *.*":
        lines = [line for line in lines if not line.startswith(("pg_catalog|", "pg_toast|", "information_schema|"))
                 and not re.fullmatch(r"\(\d+ rows\)", line)]
    text = "\n".join(lines)
    if command == r"\conninfo":
        text = re.sub(rf'as user "{re.escape(user)}"', 'as user "<user>"', text)
        text = re.sub(r'at port "\d+"', 'at port "<port>"', text)
    return text


@pytest.fixture(scope="module")
def lakes(rocklake_server, postgres_server, tmp_path_factory):
    """The same catalog on both servers, in databases of the same name."""
    made = {}
    for kind, server in (("postgres", postgres_server), ("rocklake", rocklake_server)):
        with server.connect(autocommit=True) as conn:
            conn.execute('CREATE DATABASE "psql_describe"')
        lake = Lake(server, "psql_describe", tmp_path_factory.mktemp(f"psql-{kind}"))
        make_catalog(lake)
        made[kind] = lake
    return made


def test_psql_installed():
    assert os.access(PSQL, os.X_OK), f"psql 15 not found ({PSQL})"


@pytest.fixture(scope="module")
def rocklake_types(lakes) -> set:
    """the names of the types RockLake's pg_type has, as format_type writes them"""
    with lakes["rocklake"].server.connect(lakes["rocklake"].dbname) as conn:
        return {row[0] for row in conn.execute("SELECT format_type(oid, NULL) FROM pg_type").fetchall()}


def casts_of(output: str, types: set) -> str:
    """\\dC's title, header and the casts between types, without the row count"""
    lines = output.splitlines()
    return "\n".join(lines[:2] + [line for line in lines[2:]
                                   if line.split("|")[:2] and set(line.split("|")[:2]) <= types])


@pytest.mark.parametrize("command", COMMANDS)
def test_describe(lakes, rocklake_types, command):
    expected = normalise(psql(lakes["postgres"], command), lakes["postgres"], command)
    got = normalise(psql(lakes["rocklake"], command), lakes["rocklake"], command)
    if command.startswith(r"\dC"):
        expected, got = casts_of(expected, rocklake_types), casts_of(got, rocklake_types)
        assert got.count("\n") > 5, got
    assert "ERROR" not in got or "ERROR" in expected, got
    assert got == expected, f"{command}\n--- rocklake\n{got}\n--- postgres\n{expected}"
