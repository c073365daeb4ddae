"""Kept copies of table scans (keptscan.h): DuckLake reads its catalog tables with
COPY (SELECT columns FROM table [WHERE filter]) TO STDOUT (FORMAT binary), and a backend
answers a repeated one from a copy brought up to date by the rows added since. Whatever
happens to the table in between (rows appended, updated, deleted, the table altered,
dropped and made again, the reader's own uncommitted rows, a snapshot held while others
commit, a copy too big to keep), the answer must be the one the same query gives when
it cannot be kept: with coalesce(true, true) in its WHERE, which is not a filter of
columns and constants alone.
"""

import time

import psycopg
import pytest

COLUMNS = "id, name"


# quoted constants, as DuckDB sends them (typed by the column they meet); results over
# KEPT_SCAN_MIN_BYTES (16 KiB), which smaller ones are not kept for
FILTERS = [None, "id > '5' OR name IS NULL", "id <= '300'", "id <= '301'"]
LONG = "x" * 100


def tuples(data: bytes) -> list:
    """The tuples of a binary COPY stream, sorted: a scan without ORDER BY has no order."""
    at, rows = 19, []   # signature, flags, header extension length
    while int.from_bytes(data[at:at + 2], "big", signed=True) != -1:
        start, fields = at, int.from_bytes(data[at:at + 2], "big")
        at += 2
        for _ in range(fields):
            length = int.from_bytes(data[at:at + 4], "big", signed=True)
            at += 4 + max(length, 0)
        rows.append(data[start:at])
    assert at + 2 == len(data)
    return sorted(rows)


def scan(conn: psycopg.Connection, table: str, where: str | None, kept: bool = True) -> list:
    """A scan of table in the schema current_schema() names, qualified as DuckDB qualifies it."""
    conditions = ([where] if where else []) + ([] if kept else ["coalesce(true, true)"])
    where_clause = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    schema = conn.execute("SELECT current_schema()").fetchone()[0]
    with conn.cursor().copy(f'COPY (SELECT {COLUMNS} FROM "{schema}".{table} {where_clause}) '
                            'TO STDOUT (FORMAT "binary")') as copy:
        return tuples(b"".join(bytes(block) for block in copy))


def same_as_unkept(conn: psycopg.Connection, table: str, rows: int) -> None:
    for where in FILTERS:
        kept = scan(conn, table, where)
        assert kept == scan(conn, table, where, kept=False), where
        assert kept == scan(conn, table, where), where   # served from the copy this time
    count = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    assert count == rows


# statements of another session, each followed by the number of rows the table then has
FILL = "INSERT INTO ducklake_kept SELECT i, %s::varchar || i, 0 FROM generate_series(1, 400) i"
CHANGES = [
    ("INSERT INTO ducklake_kept VALUES (401, 'appended', 0), (402, NULL, 0)", 402),
    ("UPDATE ducklake_kept SET name = 'changed' WHERE id = 7", 402),
    ("DELETE FROM ducklake_kept WHERE id IN (3, 402)", 400),
    # the largest row deleted: the next insert may take its row id again
    ("DELETE FROM ducklake_kept WHERE id = 401", 399),
    ("INSERT INTO ducklake_kept VALUES (501, 'after the delete', 0)", 400),
    ("ALTER TABLE ducklake_kept ADD COLUMN more int DEFAULT 5", 400),
    ("DROP TABLE ducklake_kept", None),
    ("CREATE TABLE ducklake_kept (id bigint, name varchar, extra int)", 0),
    (FILL, 400),
]


def in_schema(schema: str, *conns: psycopg.Connection) -> None:
    """Make schema the connections' first (a lake of DuckLake's METADATA_SCHEMA lives there)."""
    if schema != "public":
        conns[0].execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    for conn in conns:
        conn.execute(f"SET search_path TO {schema}")


@pytest.mark.parametrize("schema", ["public", "meta_k"])
def test_kept_scan_follows_every_change(rocklake_server, schema):
    dbname = rocklake_server.create_database("kept_scans")
    with rocklake_server.connect(dbname, autocommit=True) as reader, \
            rocklake_server.connect(dbname, autocommit=True) as writer:
        in_schema(schema, writer, reader)
        writer.execute("CREATE TABLE ducklake_kept (id bigint PRIMARY KEY, name varchar, extra int)")
        writer.execute(FILL, (LONG,))
        same_as_unkept(reader, "ducklake_kept", 400)
        for statement, rows in CHANGES:
            writer.execute(statement, (LONG,) if statement == FILL else None)
            if rows is not None:
                same_as_unkept(reader, "ducklake_kept", rows)

        # the reader's own uncommitted rows are its transaction's alone
        reader.execute("BEGIN")
        reader.execute("INSERT INTO ducklake_kept VALUES (1001, 'mine', 0)")
        same_as_unkept(reader, "ducklake_kept", 401)
        reader.execute("ROLLBACK")
        same_as_unkept(reader, "ducklake_kept", 400)

        # a snapshot held while another session commits
        reader.execute("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        before = scan(reader, "ducklake_kept", None)
        writer.execute("INSERT INTO ducklake_kept VALUES (1002, 'later', 0)")
        assert scan(reader, "ducklake_kept", None) == before
        same_as_unkept(reader, "ducklake_kept", 400)
        reader.execute("COMMIT")
        same_as_unkept(reader, "ducklake_kept", 401)

        # another session appends between two scans of a third
        with rocklake_server.connect(dbname, autocommit=True) as other:
            in_schema(schema, other)
            same_as_unkept(other, "ducklake_kept", 401)
            for i in range(5):
                writer.execute(f"INSERT INTO ducklake_kept VALUES ({2000 + i}, 'x', 0)")
                same_as_unkept(other, "ducklake_kept", 402 + i)
                same_as_unkept(reader, "ducklake_kept", 402 + i)


def test_copy_taken_over_by_new_constants(rocklake_server):
    """DuckDB filters its catalog scans on the newest snapshot id, a new scan at every
    snapshot. One that differs from a kept copy's only in its constants takes the copy
    over when the rows the copy holds pass both filters alike (a copy a scan went on from,
    it is published after that first scan, as the copy it took over never was), and reads
    the table again when they do not: a row below the copy's end that one filter takes and the other does not, or
    a row changed in place."""
    dbname = rocklake_server.create_database("kept_takeover")
    table = "ducklake_kept"
    with rocklake_server.connect(dbname, autocommit=True) as reader, \
            rocklake_server.connect(dbname, autocommit=True) as writer:
        writer.execute("CREATE TABLE ducklake_kept (id bigint PRIMARY KEY, name varchar, extra int)")
        writer.execute(FILL, (LONG,))   # extra 0 in every row
        assert scan(reader, table, "extra <= '0'") == scan(reader, table, "extra <= '0'", kept=False)
        writer.execute("INSERT INTO ducklake_kept VALUES (401, 'the next snapshot', 1)")
        before = set(published(rocklake_server))
        taken = scan(reader, table, "extra <= '1'")
        assert taken == scan(reader, table, "extra <= '1'", kept=False)   # after the publishing
        assert len(taken) == 401
        assert wait_published(rocklake_server, before, 1), "the copy was not taken over"
        # row 401 is below the copy's end now, and the old constants leave it out
        assert scan(reader, table, "extra <= '0'") == scan(reader, table, "extra <= '0'", kept=False)
        writer.execute("UPDATE ducklake_kept SET name = 'changed' WHERE id = 5")
        assert scan(reader, table, "extra <= '2'") == scan(reader, table, "extra <= '2'", kept=False)
        writer.execute("""INSERT INTO ducklake_kept VALUES (402, 'quoted "?1"', 2)""")
        assert scan(reader, table, "extra <= '3' AND name <> '?2'") == \
            scan(reader, table, "extra <= '3' AND name <> '?2'", kept=False)
        assert scan(reader, table, "extra <= '4' AND name <> '?2'") == \
            scan(reader, table, "extra <= '4' AND name <> '?2'", kept=False)


def test_kept_scan_too_big_to_keep(rocklake_server):
    """Over KEPT_SCAN_MAX_BYTES (16 MiB) the scan streams as any other and keeps nothing."""
    dbname = rocklake_server.create_database("kept_scans_big")
    with rocklake_server.connect(dbname, autocommit=True) as conn:
        conn.execute("CREATE TABLE ducklake_big (id bigint, name varchar)")
        conn.execute("INSERT INTO ducklake_big SELECT i, %s::varchar FROM generate_series(1, 1700) i",
                     ("x" * 10000,))
        same_as_unkept(conn, "ducklake_big", 1700)
        conn.execute("INSERT INTO ducklake_big VALUES (1701, 'one more')")
        same_as_unkept(conn, "ducklake_big", 1701)


# ---- copies published for other sessions (keptscan.c, PUBLISHED_DIR)

def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


HEADER = 8 + 8 * 5 + 4 + 4   # magic, seq, rowid, nrows, key length, messages length, crc, unused
CRC = 8 + 8 * 5


def published(server) -> dict:
    """The published copies: file name -> contents. A backend publishes after its
    ReadyForQuery, under a temporary name (a fourth part, its pid) then renamed:
    those are left out, and so is one renamed away while this lists them."""
    directory = server.workdir / "data" / "kept_scans"
    copies = {}
    for p in directory.iterdir() if directory.exists() else []:
        try:
            if p.name.count(".") == 2:
                copies[p.name] = p.read_bytes()
        except FileNotFoundError:
            pass
    return copies


def publishing(server) -> set:
    """The copies published or being published: every name, a temporary one's pid left out."""
    directory = server.workdir / "data" / "kept_scans"
    return {".".join(p.name.split(".")[:3]) for p in directory.iterdir()} if directory.exists() else set()


def wait_published(server, before: set, n: int) -> set:
    """The names of the n copies published since before, once they all are."""
    deadline = time.monotonic() + 30
    while len(new := set(published(server)) - before) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    return new


def rewrite(server, name: str, old: bytes, new: bytes, fix_crc: bool) -> None:
    """Replace old by new in a published copy's messages, with its CRC made right again or not."""
    path = server.workdir / "data" / "kept_scans" / name
    data = bytearray(path.read_bytes())
    at = data.index(old, HEADER)
    data[at:at + len(old)] = new
    if fix_crc:
        data[CRC:CRC + 4] = bytes(4)
        data[CRC:CRC + 4] = crc32c(bytes(data)).to_bytes(4, "little")
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("schema", ["public", "meta_k"])
def test_published_copy_follows_every_change(rocklake_server, schema):
    """A new session starts from the copies others published, whatever changed since."""
    dbname = rocklake_server.create_database("kept_published")
    with rocklake_server.connect(dbname, autocommit=True) as writer:
        in_schema(schema, writer)
        writer.execute("CREATE TABLE ducklake_kept (id bigint PRIMARY KEY, name varchar, extra int)")
        writer.execute(FILL, (LONG,))
        before = set(published(rocklake_server))
        with rocklake_server.connect(dbname, autocommit=True) as reader:
            in_schema(schema, reader)
            same_as_unkept(reader, "ducklake_kept", 400)
        assert wait_published(rocklake_server, before, 1), "no copy was published"
        for statement, rows in CHANGES:
            writer.execute(statement, (LONG,) if statement == FILL else None)
            if rows is not None:
                with rocklake_server.connect(dbname, autocommit=True) as reader:
                    in_schema(schema, reader)
                    same_as_unkept(reader, "ducklake_kept", rows)


def test_published_copy_is_checked(rocklake_server):
    """A new session sends a sound published copy as it is, and ignores a damaged one."""
    dbname = rocklake_server.create_database("kept_checked")
    with rocklake_server.connect(dbname, autocommit=True) as writer:
        writer.execute("CREATE TABLE ducklake_kept (id bigint, name varchar)")
        writer.execute("INSERT INTO ducklake_kept SELECT i, 'a' || %s::varchar FROM generate_series(1, 400) i",
                       (LONG,))
    before = set(published(rocklake_server))
    with rocklake_server.connect(dbname, autocommit=True) as reader:
        expected = scan(reader, "ducklake_kept", None)
        assert not publishing(rocklake_server) - before, "a copy used once was published"
        assert scan(reader, "ducklake_kept", None) == expected   # from the copy: now worth publishing
    (name,) = wait_published(rocklake_server, before, 1)

    # a copy that checks out is what the next session sends: here one changed on purpose
    rewrite(rocklake_server, name, b"a" + LONG.encode(), b"b" + LONG.encode(), fix_crc=True)
    with rocklake_server.connect(dbname, autocommit=True) as reader:
        changed = scan(reader, "ducklake_kept", None)
    assert changed != expected and len(changed) == len(expected)

    # one whose CRC does not match is read again from the table
    rewrite(rocklake_server, name, b"b" + LONG.encode(), b"c" + LONG.encode(), fix_crc=False)
    with rocklake_server.connect(dbname, autocommit=True) as reader:
        assert scan(reader, "ducklake_kept", None) == expected


def test_published_copy_of_a_dropped_database(rocklake_server):
    """A database made again under the same name (and datid) does not take the old one's copies."""
    with rocklake_server.connect(autocommit=True) as admin:
        for letter in "ab":
            admin.execute('DROP DATABASE IF EXISTS "kept_again"')
            admin.execute('CREATE DATABASE "kept_again"')
            with rocklake_server.connect("kept_again", autocommit=True) as conn:
                conn.execute("CREATE TABLE ducklake_kept (id bigint, name varchar)")
                conn.execute("INSERT INTO ducklake_kept SELECT i, %s::varchar FROM generate_series(1, 400) i",
                             (letter + LONG,))
                for i in range(3):   # the second database's snapshots pass the first's
                    conn.execute(f"CREATE TABLE other_{i} (id int)")
            with rocklake_server.connect("kept_again", autocommit=True) as reader:
                kept = scan(reader, "ducklake_kept", None)
                assert kept == scan(reader, "ducklake_kept", None)   # used again: published
                assert kept == scan(reader, "ducklake_kept", None, kept=False)
                assert (letter + LONG).encode() in kept[0]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def test_published_copies_stay_in_their_files(rocklake_server):
    """A copy read from its published file is sent from there, not held in memory: a
    backend using copies larger in all than KEPT_SCANS_MAX_BYTES (16 MiB) keeps them
    all and stays small."""
    dbname = rocklake_server.create_database("kept_in_files")
    tables = ["ducklake_kept_a", "ducklake_kept_b"]
    with rocklake_server.connect(dbname, autocommit=True) as writer:
        for table in tables:   # about 10 MB of CopyData each
            writer.execute(f"CREATE TABLE {table} (id bigint, name varchar)")
            writer.execute(f"INSERT INTO {table} SELECT i, %s::varchar FROM generate_series(1, 1000) i",
                           ("x" * 10000,))
    before = set(published(rocklake_server))
    with rocklake_server.connect(dbname, autocommit=True) as reader:
        for table in tables:
            scan(reader, table, None)
            scan(reader, table, None)   # used again: published
    assert len(wait_published(rocklake_server, before, 2)) == 2
    with rocklake_server.connect(dbname, autocommit=True) as reader:
        pid = reader.execute("SELECT pg_backend_pid()").fetchone()[0]
        start = rss_kib(pid)
        kept = [[scan(reader, table, None) for table in tables] for _ in range(3)]
        grown = rss_kib(pid) - start
        assert kept[0] == kept[1] == kept[2]
        assert kept[0] == [scan(reader, table, None, kept=False) for table in tables]
        # a file changed in place under a copy sent from it is not sent unchecked
        for name in set(published(rocklake_server)) - before:
            rewrite(rocklake_server, name, b"x" * 100, b"y" * 100, fix_crc=False)
        assert [scan(reader, table, None) for table in tables] == kept[0]
    assert grown < 8 * 1024, f"the backend grew by {grown} KiB sending two published copies"
