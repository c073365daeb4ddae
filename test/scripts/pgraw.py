"""pgraw.py: raw PostgreSQL v3 protocol for the server tests (stdlib only).

Used where psql and libpq cannot go: sessions held open while the server is
signalled, malformed first packets, cancel requests with chosen keys; and, as a
module, by raw_extended.py for extended-protocol sequences libpq never sends.

  python3 pgraw.py hold HOST PORT SECONDS  -- start a session, print the backend
                                              PID, then report what arrives
  python3 pgraw.py garbage HOST PORT       -- malformed first packets, random bytes
  python3 pgraw.py cancel HOST PORT PID KEY
  python3 pgraw.py connect HOST PORT N     -- N sessions opened and closed
  python3 pgraw.py flood HOST PORT N       -- N connections that never send a byte,
                                              then a session must still start at once
"""
import os
import random
import socket
import struct
import sys
import time

SSL_REQUEST = 80877103
CANCEL_REQUEST = 80877102


def msg(t, body=b""):
    """A typed protocol message: type byte, Int32 length, body."""
    return t + struct.pack("!i", len(body) + 4) + body


def cstr(s):
    return s.encode() + b"\0"


def startup_packet(user="rocklake", database="postgres", version=196608, options=()):
    body = struct.pack("!I", version) + cstr("user") + cstr(user)
    if database is not None:
        body += cstr("database") + cstr(database)
    for k, v in options:
        body += cstr(k) + cstr(v)
    body += b"\0"
    return struct.pack("!I", len(body) + 4) + body


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_message(sock):
    t = read_exact(sock, 1)
    (length,) = struct.unpack("!I", read_exact(sock, 4))
    return t, read_exact(sock, length - 4)


def fields(body):
    """ErrorResponse/NoticeResponse fields as a dict."""
    out = {}
    for part in body.split(b"\0"):
        if part:
            out[chr(part[0])] = part[1:].decode()
    return out


def read_until(sock, last):
    """Messages up to and including the first of type last (or until EOF)."""
    out = []
    while True:
        try:
            t, body = read_message(sock)
        except EOFError:
            return out
        out.append((t, body))
        if t == last:
            return out


def session(host, port):
    """Connect and read up to ReadyForQuery; returns (socket, pid, key)."""
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(startup_packet())
    pid = key = None
    while True:
        t, body = read_message(s)
        if t == b"K":
            pid, key = struct.unpack("!ii", body)
        elif t == b"E":
            raise RuntimeError("startup refused: %s" % fields(body))
        elif t == b"Z":
            return s, pid, key


def cmd_hold(host, port, seconds):
    s, pid, key = session(host, port)
    print("PID %d KEY %d" % (pid, key), flush=True)
    s.settimeout(float(seconds))
    try:
        while True:
            t, body = read_message(s)
            if t in (b"E", b"N"):
                f = fields(body)
                print("%s %s %s" % (f.get("S"), f.get("C"), f.get("M")), flush=True)
    except EOFError:
        print("EOF", flush=True)
    except socket.timeout:
        print("TIMEOUT", flush=True)


def expect_closed_or_error(s, what):
    """After bad input the server must answer with an ErrorResponse or just close."""
    s.settimeout(10)
    try:
        data = s.recv(65536)
    except ConnectionResetError:
        data = b""
    if data and data[:1] not in (b"E", b"N"):
        raise SystemExit("%s: unexpected answer %r" % (what, data[:20]))
    print("%s: %s" % (what, "error response" if data else "closed"))


def cmd_garbage(host, port):
    rng = random.Random(42)
    cases = [
        ("short length", struct.pack("!I", 4) + b"\0" * 4),
        ("huge length", struct.pack("!I", 1 << 30) + b"\0" * 8),
        ("truncated", struct.pack("!I", 100) + b"\0\3\0\0user"),
        ("bad version", startup_packet(version=(4 << 16))),
        ("cancel too long", struct.pack("!III", 20, CANCEL_REQUEST, 1) + b"\0" * 8),
        ("http", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("tls hello", bytes([0x16, 3, 1, 0, 200]) + os.urandom(200)),
    ]
    for i in range(20):
        cases.append(("random %d" % i, bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 300)))))
    for what, payload in cases:
        s = socket.create_connection((host, port), timeout=10)
        try:
            s.sendall(payload)
            if what == "truncated":
                s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        expect_closed_or_error(s, what)
        s.close()
    # SSLRequest followed by garbage instead of a startup packet
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(struct.pack("!II", 8, SSL_REQUEST))
    answer = read_exact(s, 1)
    if answer != b"N":
        raise SystemExit("SSLRequest answered %r" % answer)
    s.sendall(b"\xff" * 16)
    expect_closed_or_error(s, "ssl then garbage")
    s.close()
    # a client that connects and says nothing must not block anyone else
    idle = socket.create_connection((host, port), timeout=10)
    s2, pid, key = session(host, port)
    s2.close()
    idle.close()
    print("silent client did not block a session")


def cmd_cancel(host, port, pid, key):
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(struct.pack("!IIii", 16, CANCEL_REQUEST, int(pid), int(key)))
    s.settimeout(10)
    if s.recv(100) != b"":
        raise SystemExit("cancel request got an answer")
    s.close()


def cmd_connect(host, port, n):
    for _ in range(int(n)):
        s, pid, key = session(host, port)
        s.sendall(b"X" + struct.pack("!I", 4))
        s.close()
    print("%s sessions" % n)


def cmd_flood(host, port, n):
    silent = [socket.create_connection((host, port), timeout=10) for _ in range(int(n))]
    start = time.monotonic()
    s, pid, key = session(host, port)
    took = time.monotonic() - start
    s.close()
    # the oldest silent ones were closed to make room for the newer connections
    closed = 0
    for c in silent:
        c.setblocking(False)
        try:
            closed += c.recv(1) == b""
        except BlockingIOError:
            pass
        except ConnectionResetError:
            closed += 1
        c.close()
    print("session after %s silent connections in %.1f s; %d of them closed" % (n, took, closed))


if __name__ == "__main__":
    cmd = sys.argv[1]
    args = sys.argv[2:]
    {"hold": cmd_hold, "garbage": cmd_garbage, "cancel": cmd_cancel,
     "connect": cmd_connect, "flood": cmd_flood}[cmd](*args)
