"""raw_extended.py: extended-protocol sequences libpq never sends, checked message by
message against a running server (run by extended.sh): a named portal fetched with a
row limit (PortalSuspended), Close of unknown names, Flush, discard until Sync, the
errors of Bind and Execute, the empty query, an unknown message type, and the startup
edge cases (NegotiateProtocolVersion, protocol 4.0).
"""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgraw import cstr, fields, msg, read_message, read_until, startup_packet  # noqa: E402


def connect():
    s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
    s.sendall(startup_packet(user="rocklake", database="postgres"))
    read_until(s, b"Z")
    return s


def parse(name, query):
    return msg(b"P", cstr(name) + cstr(query) + struct.pack("!h", 0))

def bind(portal, stmt, params=()):
    body = cstr(portal) + cstr(stmt) + struct.pack("!hh", 0, len(params))
    for p in params:
        body += struct.pack("!i", len(p)) + p
    return msg(b"B", body + struct.pack("!h", 0))

def execute(portal, maxrows=0):
    return msg(b"E", cstr(portal) + struct.pack("!i", maxrows))

def types(out):
    return "".join(t.decode() for t, _ in out)

def check(name, got, want):
    if got != want:
        sys.exit("FAIL %s: got %r, want %r" % (name, got, want))

s = connect()
# a named portal fetched three rows at a time inside a transaction block
s.sendall(parse("", "begin") + bind("", "") + execute("") +
          parse("", "select generate_series(1,10)") + bind("C_2", "") +
          msg(b"D", b"P" + cstr("C_2")) + execute("C_2", 3) + msg(b"S"))
out = read_until(s, b"Z")
check("first fetch", types(out), "12C12TDDDsZ")
check("in block", out[-1][1], b"T")
for want in ("DDDsZ", "DDDsZ", "DCZ"):
    s.sendall(execute("C_2", 3) + msg(b"S"))
    out = read_until(s, b"Z")
    check("fetch", types(out), want)
check("last tag", out[-2][1], b"SELECT 1\0")
# Close of an unknown statement or portal is not an error; Flush sends without Sync
s.sendall(msg(b"C", b"P" + cstr("C_2")) + msg(b"C", b"S" + cstr("nope")) +
          msg(b"C", b"P" + cstr("nope")) + msg(b"H"))
check("close", types([read_message(s) for _ in range(3)]), "333")
s.sendall(parse("", "commit") + bind("", "") + execute("") + msg(b"S"))
check("commit", types(read_until(s, b"Z")), "12CZ")
# after an error everything up to Sync is skipped
s.sendall(parse("", "select 1") + bind("", "") + execute("") +
          parse("", "select 1/0") + bind("", "") + execute("") +
          parse("", "select 3") + bind("", "") + execute("") + msg(b"S"))
out = read_until(s, b"Z")
check("error until sync", types(out), "12DC12EZ")  # PostgreSQL fails at Bind (constant folding), we at Execute
check("sqlstate", fields(out[-2][1])["C"], "22012")
# bind count mismatch, unknown statement, duplicate name, unknown portal
s.sendall(parse("", "select $1::int, $2::text") + bind("", "", [b"2"]) + msg(b"S"))
out = read_until(s, b"Z")
check("bind count", fields(out[1][1])["M"],
      'bind message supplies 1 parameters, but prepared statement "" requires 2')
s.sendall(bind("", "nope") + msg(b"S") + parse("s1", "select 1") + parse("s1", "select 1") + msg(b"S") +
          execute("nope") + msg(b"S"))
out = read_until(s, b"Z") + read_until(s, b"Z") + read_until(s, b"Z")
check("errors", [fields(b)["C"] for t, b in out if t == b"E"], ["26000", "42P05", "34000"])
# an empty query: NoData, then EmptyQueryResponse
s.sendall(parse("", "") + bind("", "") + msg(b"D", b"P" + cstr("")) + execute("") + msg(b"S"))
check("empty", types(read_until(s, b"Z")), "12nIZ")
# an unknown message type ends the session with FATAL 08P01
s.sendall(msg(b"Y"))
out = read_until(s, b"Z")
check("bad type", (types(out), fields(out[0][1])["S"], fields(out[0][1])["C"]), ("E", "FATAL", "08P01"))
s.close()

# startup edge cases: protocol 3.1 and _pq_ options get NegotiateProtocolVersion
for version, options in ((196609, ()), (196608, (("_pq_.foo", "bar"),))):
    s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
    s.sendall(startup_packet(user="rocklake", database=None, version=version, options=options))
    out = read_until(s, b"Z")
    check("negotiate", (out[0][0], out[1][0]), (b"v", b"R"))
    check("newest", struct.unpack("!i", out[0][1][:4])[0], 196608)
    s.close()
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(startup_packet(user="rocklake", database=None, version=4 << 16))
out = read_until(s, b"Z")
check("protocol 4", fields(out[0][1])["M"], "unsupported frontend protocol 4.0: server supports 3.0 to 3.0")
print("PASS: raw protocol")
