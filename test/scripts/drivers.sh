#!/bin/sh
# drivers.sh: PostgreSQL clients other than psql against a RockLake server:
# psycopg 3 (libpq, extended protocol, prepared after five executions, binary
# cursors, pipeline), asyncpg (its own protocol code: Parse/Describe/Flush, all
# values binary), pgjdbc (a PreparedStatement past prepareThreshold, a fetch size),
# node-postgres (unnamed and named statements) and pgbench -M prepared with 8 clients.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

PY=$RL_PY
PGBENCH=${PG_BINDIR:-/usr/lib/postgresql/15/bin}/pgbench
rl_require_clients
[ -x "$PGBENCH" ] || rl_skip_or_fail "pgbench not installed (postgresql-15)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-drivers.XXXXXX")
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export PGDATABASE=postgres PGUSER=driver PGSSLMODE=disable
rl_server_start "$work/data"

"$PY" - <<'PY'
import asyncio, datetime, decimal, os, uuid
import asyncpg, psycopg

dsn = "host=%s port=%s dbname=postgres user=driver" % (os.environ["PGHOST"], os.environ["PGPORT"])
with psycopg.connect(dsn, autocommit=True) as conn:
    assert conn.info.server_version // 10000 == 15, conn.info.server_version
    cur = conn.cursor()
    for i in range(8):  # the sixth execution on is a named prepared statement
        assert cur.execute("select %s::int + 1, %s::text", (i, "hi")).fetchone() == (i + 1, "hi")
    assert cur.execute("select %s, %s, %s", (1, "a", None)).fetchone() == (1, "a", None)
    row = conn.cursor(binary=True).execute(
        "select 1.50::numeric, '2024-02-29'::date, true, 2.5::float8, 'x'::bytea, "
        "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '2026-01-02 03:04:05+00'::timestamptz").fetchone()
    assert row == (decimal.Decimal("1.50"), datetime.date(2024, 2, 29), True, 2.5, b"x",
                   uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
                   datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)), row
    try:
        cur.execute("select 1/%s", (0,))
        raise SystemExit("no error")
    except psycopg.errors.DivisionByZero:
        pass
    with conn.pipeline():
        a = conn.execute("select 1")
        b = conn.execute("select %s::int * 2", (21,))
    assert a.fetchone() == (1,) and b.fetchone() == (42,)
    with conn.transaction():
        assert conn.execute("select 1").fetchone() == (1,)
    assert conn.execute("show application_name").fetchone() is not None
print("PASS: psycopg")

async def main():
    conn = await asyncpg.connect(host=os.environ["PGHOST"], port=int(os.environ["PGPORT"]),
                                 user="driver", database="postgres", ssl=False)
    assert await conn.fetchval("select $1::int + 1", 41) == 42
    row = await conn.fetchrow("select $1::text as b, 1.50::numeric as n, now() as t", "x")
    assert row["b"] == "x" and row["n"] == decimal.Decimal("1.50") and row["t"].tzinfo is not None
    assert [r[0] for r in await conn.fetch("select generate_series(1, $1)", 3)] == [1, 2, 3]
    stmt = await conn.prepare("select $1::int8 * 2")
    assert await stmt.fetchval(21) == 42
    async with conn.transaction():
        assert await conn.fetchval("select 1") == 1
    try:
        await conn.fetchval("select 1/0")
        raise SystemExit("no error")
    except asyncpg.exceptions.DivisionByZeroError:
        pass
    await conn.close()
asyncio.run(main())
print("PASS: asyncpg")
PY

rl_jdbc_smoke "$PGHOST" "$PGPORT" driver >"$work/jdbc.out" 2>&1 || { cat "$work/jdbc.out" >&2; exit 1; }
grep -q '^fetched 5 rows' "$work/jdbc.out" || { cat "$work/jdbc.out" >&2; exit 1; }
echo "PASS: pgjdbc"
rl_node_smoke "$PGHOST" "$PGPORT" driver >"$work/node.out" 2>&1 || { cat "$work/node.out" >&2; exit 1; }
grep -q '^error 42601' "$work/node.out" || { cat "$work/node.out" >&2; exit 1; }
echo "PASS: node-postgres"

echo 'SELECT 1;' >"$work/select1.sql"
out=$("$PGBENCH" -n -M prepared -c 8 -t 200 -f "$work/select1.sql" 2>&1) || { echo "$out" >&2; exit 1; }
case "$out" in
	*"number of transactions actually processed: 1600/1600"*) ;;
	*) echo "FAIL: pgbench: $out" >&2; exit 1 ;;
esac
echo "PASS: pgbench"
