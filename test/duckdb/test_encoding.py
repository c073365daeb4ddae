"""Invalid UTF-8 sent to RockLake and to PostgreSQL 15 (issue 16): through the simple
query text, extended-protocol Parse, Bind parameters in text and binary format (text,
varchar, bpchar, name, json, jsonb) and COPY FROM in text, CSV and binary. Both must
refuse it with 22021 and the same message and store nothing; valid text of every
Unicode plane comes back bit for bit.
"""

import struct

import psycopg
import pytest
from psycopg.adapt import Dumper
from psycopg.pq import Format

BAD = [
    b"\xff", b"a\xc3\x28b", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf",
    b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"ok\x80", b"\xf0\x9f\x98\x80\xff",
]
NUL = b"a\x00b"
GOOD = "A\u00e9\u0800\uffef\U00010348\U0001f600\U00020000\U000e0001\U0010fffd\u00ff".encode()
TYPES = {"text": 25, "varchar": 1043, "bpchar": 1042, "name": 19, "json": 114, "jsonb": 3802}
SERVERS = ["rocklake", "postgres"]


@pytest.fixture(params=SERVERS)
def conn(request):
    server = request.getfixturevalue(f"{request.param}_server")
    with server.connect(autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS enc_t")
        c.execute("CREATE TABLE enc_t (s text, v varchar, j json)")
        yield c
        c.execute("DROP TABLE IF EXISTS enc_t")


def refused(conn, fn):
    with pytest.raises(psycopg.Error) as err:
        fn()
    assert err.value.sqlstate == "22021", err.value
    assert conn.execute("SELECT count(*) FROM enc_t").fetchone()[0] == 0
    return str(err.value.diag.message_primary)


def raw_dumper(oid, binary):
    class D(Dumper):
        format = Format.BINARY if binary else Format.TEXT

        def dump(self, obj):
            return obj.data
    D.oid = oid
    return D


class Raw:
    def __init__(self, data):
        self.data = data


def messages(results):
    assert results["rocklake"] == results["postgres"]
    return results["rocklake"]


@pytest.mark.parametrize("bad", BAD)
def test_query_text(request, bad):
    out = {}
    for kind in SERVERS:
        with request.getfixturevalue(f"{kind}_server").connect(autocommit=True) as c:
            sock = c.pgconn
            for sql in [b"SELECT '" + bad + b"'", b"SELECT 1 AS \"" + bad + b"\"",
                        b"SELECT 1 -- " + bad, b"SELECT E'\\xff'"]:
                sock.send_query(sql)
                res = sock.get_result()
                while sock.get_result() is not None:
                    pass
                out.setdefault(kind, []).append(
                    (res.error_field(psycopg.pq.DiagnosticField.SQLSTATE),
                     res.error_field(psycopg.pq.DiagnosticField.MESSAGE_PRIMARY)))
            sock.send_prepare(b"", b"SELECT '" + bad + b"'")
            res = sock.get_result()
            while sock.get_result() is not None:
                pass
            out[kind].append((res.error_field(psycopg.pq.DiagnosticField.SQLSTATE),
                              res.error_field(psycopg.pq.DiagnosticField.MESSAGE_PRIMARY)))
    for state, _ in messages(out):
        assert state == b"22021"


def test_insert_text_refused(conn):
    pg = conn.pgconn
    pg.send_query(b"INSERT INTO enc_t (s) VALUES ('\xff')")
    res = pg.get_result()
    while pg.get_result() is not None:
        pass
    assert res.error_field(psycopg.pq.DiagnosticField.SQLSTATE) == b"22021"
    assert res.error_field(psycopg.pq.DiagnosticField.MESSAGE_PRIMARY) == \
        b'invalid byte sequence for encoding "UTF8": 0xff'
    assert conn.execute("SELECT count(*) FROM enc_t").fetchone()[0] == 0


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("typ", list(TYPES))
def test_bind_parameters(request, typ, binary):
    out = {}
    for kind in SERVERS:
        with request.getfixturevalue(f"{kind}_server").connect(autocommit=True) as c:
            c.adapters.register_dumper(Raw, raw_dumper(TYPES[typ], binary))
            # libpq sends a text-format parameter up to its first NUL: NUL only in binary
            for bad in BAD + ([NUL] if binary else []):
                value = (b"\x01" if binary and typ == "jsonb" else b"") + \
                    (b'"' + bad + b'"' if typ.startswith("json") else bad)
                with pytest.raises(psycopg.Error) as err:
                    c.execute(f"SELECT %{'b' if binary else 't'}::text", [Raw(value)])
                out.setdefault(kind, []).append((err.value.sqlstate, err.value.diag.message_primary))
    for state, _ in messages(out):
        assert state == "22021"


@pytest.mark.parametrize("binary", [False, True])
def test_insert_parameters_refused(conn, binary):
    conn.adapters.register_dumper(Raw, raw_dumper(25, binary))
    for bad in BAD + ([NUL] if binary else []):
        refused(conn, lambda: conn.execute(f"INSERT INTO enc_t (s) VALUES (%{'b' if binary else 't'})",
                                           [Raw(bad)]))


def copy_text(conn, data, options=""):
    with conn.cursor().copy(f"COPY enc_t (s, v, j) FROM STDIN {options}") as copy:
        copy.write(data)


def binary_copy(row):
    out = b"PGCOPY\n\xff\r\n\0" + struct.pack("!ii", 0, 0)
    out += struct.pack("!h", len(row))
    for f in row:
        out += struct.pack("!i", len(f)) + f
    return out + struct.pack("!h", -1)


@pytest.mark.parametrize("how", ["text", "text-escape", "csv", "csv-header", "binary"])
def test_copy_from(request, how):
    out = {}
    for kind in SERVERS:
        with request.getfixturevalue(f"{kind}_server").connect(autocommit=True) as c:
            c.execute("DROP TABLE IF EXISTS enc_t")
            c.execute("CREATE TABLE enc_t (s text, v varchar, j json)")
            for bad in BAD + [NUL]:
                if how == "text":
                    data, opts = b"x\t" + bad + b"\t{}\n", ""
                elif how == "text-escape":
                    data, opts = b"x\\377\t\\0y\t{}\n" if bad == NUL else b"\\xff\tb\t{}\n", ""
                elif how == "csv":
                    data, opts = b'x,"' + bad + b'",{}\n', "(FORMAT csv)"
                elif how == "csv-header":
                    data, opts = b"s," + bad + b",j\nx,y,{}\n", "(FORMAT csv, HEADER)"
                else:
                    data, opts = binary_copy([b"x", bad, b"{}"]), "(FORMAT binary)"
                with pytest.raises(psycopg.Error) as err:
                    copy_text(c, data, opts)
                out.setdefault(kind, []).append((err.value.sqlstate, err.value.diag.message_primary))
                assert c.execute("SELECT count(*) FROM enc_t").fetchone()[0] == 0
            c.execute("DROP TABLE enc_t")
    for state, _ in messages(out):
        assert state == "22021"


def test_valid_round_trip(conn):
    """Characters of every plane, 1 to 4 bytes, through each path, back bit for bit."""
    pg = conn.pgconn
    pg.send_query(b"INSERT INTO enc_t VALUES ('" + GOOD + b"', '" + GOOD + b"', '\"" + GOOD + b"\"')")
    assert pg.get_result().status == psycopg.pq.ExecStatus.COMMAND_OK
    while pg.get_result() is not None:
        pass
    for binary in (False, True):
        conn.adapters.register_dumper(Raw, raw_dumper(25, binary))
        conn.execute("INSERT INTO enc_t (s) VALUES (%s)", [Raw(GOOD)])
    copy_text(conn, b"\t".join([GOOD, GOOD, b'"' + GOOD + b'"']) + b"\n")
    copy_text(conn, b",".join([GOOD, GOOD, b'"""' + GOOD + b'"""']) + b"\n", "(FORMAT csv)")
    copy_text(conn, binary_copy([GOOD, GOOD, b'"' + GOOD + b'"']), "(FORMAT binary)")
    cur = conn.cursor(binary=True)
    got = cur.execute("SELECT s, v, j FROM enc_t").fetchall()
    assert len(got) == 6
    for s, v, j in got:
        assert s.encode() == GOOD
        assert v is None or v.encode() == GOOD
    pg.send_query(b"SELECT s FROM enc_t")
    res = pg.get_result()
    while pg.get_result() is not None:
        pass
    assert all(res.get_value(i, 0) == GOOD for i in range(res.ntuples))
