"""fuzz.py: seeded fuzzing of a running server, for test/scripts/fuzz.sh.

    fuzz.py sql  HOST PORT SECONDS SEED    statements over psycopg
    fuzz.py wire HOST PORT SECONDS SEED    protocol messages over a raw socket

sql: statements made by a small grammar (literals of every type the server knows,
casts, operators, functions, CASE, IN lists, subqueries, aggregates, nesting deep
and wide) and by mutating the statements DuckDB's ducklake extension sends (a token
dropped, doubled or swapped, a literal replaced by an edge value, the text cut
short), run with statement_timeout 2 s on a table the fuzzer fills first.
wire: valid sessions whose messages are then mutated (type byte, length word,
bytes flipped, cut, repeated) or made of random bytes.
Any answer is fine, errors included; what must never happen is a session that
ends without an error of its own (a backend that crashed takes every session
with it), or a server that stops answering. Prints one summary line with the
counts by SQLSTATE class; exits 1 on a lost session or a dead server.
"""

import collections
import pathlib
import random
import re
import socket
import struct
import sys
import time

import psycopg

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
import pgraw  # noqa: E402

STATEMENTS = HERE.parent / "duckdb" / "data" / "ducklake_1_0_statements.sql"

LITERALS = ["0", "1", "-1", "2147483647", "-2147483648", "9223372036854775807",
            "-9223372036854775808", "1e308", "-1e308", "1.5", "'NaN'", "'infinity'",
            "'-infinity'", "NULL", "''", "'a'", "'\\x00ff'", "true", "false",
            "'2024-02-29'", "'0001-01-01 BC'", "'294276-12-31'", "'12:34:56.789'",
            "'1 day 2 hours'", "'-178000000 years'", "'{1,2,3}'", "'{\"a\": 1}'",
            "'00000000-0000-0000-0000-000000000000'", "'" + "x" * 1000 + "'",
            "99999999999999999999999999999999999999.5", "'é€😀'"]
TYPES = ["int2", "int4", "int8", "float4", "float8", "numeric", "numeric(38,6)", "text",
         "varchar(3)", "bool", "date", "time", "timetz", "timestamp", "timestamptz",
         "interval", "uuid", "bytea", "json", "jsonb", "oid", "regclass", "regtype",
         "int4[]", "text[]", "char", "name"]
FUNCTIONS = ["abs", "length", "lower", "upper", "coalesce", "greatest", "least", "nullif",
             "substr", "concat", "round", "floor", "ceil", "sqrt", "exp", "ln", "md5",
             "to_char", "date_trunc", "extract", "now", "generate_series", "array_length",
             "string_agg", "count", "sum", "avg", "min", "max", "bool_and", "to_regclass",
             "pg_get_expr", "format_type", "quote_ident", "current_setting", "repeat",
             "left", "right", "strpos", "replace", "split_part", "unnest", "json_extract_path"]
OPERATORS = ["+", "-", "*", "/", "%", "||", "=", "<>", "<", ">=", "AND", "OR", "LIKE",
             "ILIKE", "IS DISTINCT FROM", "^", "&", "<<", "~", "@>"]


class Grammar:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def expr(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 6 or r < 0.25:
            return self.rng.choice(LITERALS + ["a", "b", "c", "t.a"])
        if r < 0.40:
            return f"{self.expr(depth + 1)}::{self.rng.choice(TYPES)}"
        if r < 0.60:
            return f"({self.expr(depth + 1)} {self.rng.choice(OPERATORS)} {self.expr(depth + 1)})"
        if r < 0.75:
            args = ", ".join(self.expr(depth + 1) for _ in range(self.rng.randint(0, 3)))
            return f"{self.rng.choice(FUNCTIONS)}({args})"
        if r < 0.82:
            return f"CASE WHEN {self.expr(depth + 1)} THEN {self.expr(depth + 1)} ELSE {self.expr(depth + 1)} END"
        if r < 0.88:
            items = ", ".join(self.expr(depth + 1) for _ in range(self.rng.randint(0, 5)))
            return f"{self.expr(depth + 1)} IN ({items})"
        if r < 0.94:
            return f"(SELECT {self.expr(depth + 1)} FROM t {self.where(depth + 1)} LIMIT 1)"
        if r < 0.97:
            return "(" * 300 + "1" + ")" * 300
        return " + ".join(["a"] * self.rng.randint(100, 2000))

    def where(self, depth: int) -> str:
        return f"WHERE {self.expr(depth)}" if self.rng.random() < 0.6 else ""

    def statement(self) -> str:
        r = self.rng.random()
        cols = ", ".join(self.expr() for _ in range(self.rng.randint(1, 4)))
        if r < 0.45:
            tail = self.rng.choice(["", " GROUP BY 1", " ORDER BY 1 DESC", " GROUP BY a HAVING count(*) > 1",
                                    " UNION ALL SELECT " + cols, " LIMIT 3 OFFSET 1"])
            return f"SELECT {cols} FROM t {self.where(0)}{tail}"
        if r < 0.55:
            return f"SELECT {cols}"
        if r < 0.70:
            return f"INSERT INTO t VALUES ({self.expr()}, {self.expr()}, {self.expr()})"
        if r < 0.80:
            return f"UPDATE t SET b = {self.expr()} {self.where(0)}"
        if r < 0.85:
            return f"DELETE FROM t {self.where(0)}"
        if r < 0.92:
            return f"SELECT * FROM (VALUES ({cols}), ({cols})) v"
        return self.rng.choice(["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT s", "ROLLBACK TO s",
                                "SET statement_timeout = 2000", "SHOW ALL", "DISCARD ALL"])


def recorded_statements() -> list[str]:
    text = STATEMENTS.read_text()
    parts = [p.strip() for p in text.split("\n-- ---\n")]
    return [p for p in parts if p and not p.startswith("--")]


def mutate(rng: random.Random, sql: str) -> str:
    tokens = re.findall(r"'(?:[^']|'')*'|\w+|\S", sql)
    if not tokens:
        return sql
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        op = rng.random()
        if op < 0.25:
            del tokens[i]
        elif op < 0.45:
            tokens.insert(i, tokens[i])
        elif op < 0.6:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op < 0.85:
            tokens[i] = rng.choice(LITERALS)
        else:
            tokens = tokens[:i]
        if not tokens:
            return "SELECT"
    return " ".join(tokens)


def server_answers(host: str, port: int) -> bool:
    try:
        with psycopg.connect(host=host, port=port, dbname="postgres", user="rocklake",
                             connect_timeout=10, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def connect(host: str, port: int) -> psycopg.Connection:
    conn = psycopg.connect(host=host, port=port, dbname="fuzz", user="rocklake",
                           connect_timeout=10, autocommit=True, prepare_threshold=None)
    conn.execute("SET statement_timeout = 2000")
    return conn


def fuzz_sql(host: str, port: int, seconds: float, seed: int) -> int:
    rng = random.Random(seed)
    grammar = Grammar(rng)
    recorded = recorded_statements()
    with psycopg.connect(host=host, port=port, dbname="postgres", user="rocklake",
                         autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS fuzz")
        admin.execute("CREATE DATABASE fuzz")
    conn = connect(host, port)
    conn.execute("CREATE TABLE t (a int, b text, c float8)")
    conn.execute("INSERT INTO t SELECT g, 'v' || g, g / 3.0 FROM generate_series(1, 200) g")
    counts = collections.Counter()
    lost = []
    internal = []                       # XX000: errors that should have had a SQLSTATE
    n = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sql = grammar.statement() if rng.random() < 0.6 else mutate(rng, rng.choice(recorded))
        n += 1
        try:
            conn.execute(sql)
            counts["ok"] += 1
        except psycopg.Error as e:
            counts[(e.sqlstate or "--")[:2]] += 1
            if e.sqlstate == "XX000":
                counts["XX000"] += 1
                internal.append(sql)
            if conn.closed or conn.broken:
                if e.sqlstate is None:      # not a FATAL of its own: the backend went
                    lost.append(sql)
                conn.close()
                if not server_answers(host, port):
                    break
                conn = connect(host, port)
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE and rng.random() < 0.2:
            try:
                conn.execute("ROLLBACK")
            except psycopg.Error:
                pass
    alive = server_answers(host, port)
    print(f"sql fuzz, seed {seed}: {n} statements in {seconds:.0f} s; "
          f"{dict(sorted(counts.items()))}; {len(lost)} sessions lost; server {'up' if alive else 'DOWN'}")
    for sql in lost[:5]:
        print("  lost the session on:", sql[:300])
    for sql in internal[:3]:
        print("  XX000 for:", sql[:200])
    return 0 if alive and not lost else 1


def wire_messages(rng: random.Random) -> list[bytes]:
    """A valid extended-protocol exchange, and a simple query."""
    params = rng.randint(0, 3)
    parse = pgraw.msg(b"P", b"s\0SELECT $1::int4 + 1\0" + struct.pack("!H", 1) + struct.pack("!I", 23))
    bind = pgraw.msg(b"B", b"\0s\0" + struct.pack("!HH", 1, 0) + struct.pack("!H", params)
                     + b"".join(struct.pack("!i", 1) + b"7" for _ in range(params)) + struct.pack("!H", 0))
    return [parse, bind, pgraw.msg(b"D", b"P\0"), pgraw.msg(b"E", b"\0" + struct.pack("!i", 0)),
            pgraw.msg(b"S"), pgraw.msg(b"Q", b"SELECT 1\0")]


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    op = rng.random()
    if op < 0.3 and b:
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.getrandbits(8)
    elif op < 0.45 and len(b) >= 5:
        struct.pack_into("!I", b, 1, rng.choice([0, 3, 4, 5, 1 << 30, 0xFFFFFFFF, len(b) + rng.randint(1, 50)]))
    elif op < 0.6:
        b = b[:rng.randrange(len(b) + 1)]
    elif op < 0.75:
        b = b * rng.randint(2, 5)
    elif op < 0.9:
        b[0:1] = bytes([rng.getrandbits(8)])
    else:
        b = bytearray(rng.getrandbits(8) for _ in range(rng.randint(1, 200)))
    return bytes(b)


def fuzz_wire(host: str, port: int, seconds: float, seed: int) -> int:
    rng = random.Random(seed)
    n = sessions = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            s, _, _ = pgraw.session(host, port)
        except (OSError, RuntimeError):
            time.sleep(0.1)
            continue
        sessions += 1
        s.settimeout(0.3)
        try:
            for _ in range(rng.randint(1, 8)):
                for m in wire_messages(rng):
                    n += 1
                    s.sendall(mutate_bytes(rng, m) if rng.random() < 0.3 else m)
                s.recv(65536)
        except OSError:
            pass
        s.close()
    alive = server_answers(host, port)
    print(f"wire fuzz, seed {seed}: {n} messages in {sessions} sessions in {seconds:.0f} s; "
          f"server {'up' if alive else 'DOWN'}")
    return 0 if alive else 1


if __name__ == "__main__":
    mode, host, port, seconds, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    sys.exit({"sql": fuzz_sql, "wire": fuzz_wire}[mode](host, port, seconds, seed))
