#!/bin/sh
# run-connection-bench.sh: the connection benchmark of doc/performance.md
# ("Connections (issue 3)"): RockLake against a real PostgreSQL 15 started by this
# script on loopback in the same run (test/scripts/postgres.sh), both idle apart
# from the measurement, printed as ratios RockLake / PostgreSQL:
#   - connection set-up latency: connect, authenticate, first query "select 1",
#     close; sequential, with psycopg (libpq), trust and scram-sha-256;
#   - pgbench -n -M prepared -c 8 -j 2 -T SECONDS -f select1.sql throughput.
# The scram role's verifier is made by PostgreSQL (CREATE ROLE ... PASSWORD) and
# given to RockLake's CREATE ROLE as it is, so both check the same verifier.
#
# usage: bench/run-connection-bench.sh [--build-dir DIR] [--connections N] [--seconds S]
#   --build-dir DIR    an out-of-tree build with rocklake built (default
#                      /tmp/rocklake-bench-build)
#   --connections N    connections per latency measurement (default 300)
#   --seconds S        pgbench duration (default 10)
set -eu

top_builddir=/tmp/rocklake-bench-build
conns=300
seconds=10
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) top_builddir=$2; shift 2 ;;
	--connections) conns=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	*) echo "usage: $0 [--build-dir DIR] [--connections N] [--seconds S]" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/bench_env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-connbench.XXXXXX")
trap 'rl_pg_stop; rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
# one superuser name on both servers ("postgres", PostgreSQL's), as the clients below use
PGUSER=postgres
rl_server_start "$work/rl"
rl_pg_start
trap 'rl_pg_stop; rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# the scram role on both servers
pgq() { psql -X -At -h "$RL_PG_HOST" -p "$RL_PG_PORT" -U postgres -d postgres -c "$1"; }
pgq "create role bench login password 'benchpw'" >/dev/null
psql -X -At -h "$RL_HOST" -p "$RL_PORT" -d postgres \
	-c "create role bench login password '$(pgq "select rolpassword from pg_authid where rolname = 'bench'")'" \
	>/dev/null
sed -i '1i host all bench 127.0.0.1/32 scram-sha-256' "$RL_PG_DATADIR/pg_hba.conf" "$RL_DATADIR/rocklake_hba.conf"
kill -HUP "$(sed -n 1p "$RL_PG_DATADIR/postmaster.pid")" "$RL_PID"
sleep 1

echo "machine: $(uname -srm); $(nproc) CPUs; $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "PostgreSQL: $("$PG_BINDIR/postgres" --version); RockLake: $(git -c safe.directory="$top_srcdir" -C "$top_srcdir" describe --always --dirty 2>/dev/null || echo unknown)"
echo "connection set-up ($conns sequential connect + auth + 'select 1' + close, psycopg/libpq):"
"$RL_PY" - "$conns" "$RL_PORT" "$RL_PG_PORT" <<'PY'
import statistics, sys, time
import psycopg

n, rl_port, pg_port = int(sys.argv[1]), sys.argv[2], sys.argv[3]

def measure(port, user, password):
    dsn = "host=127.0.0.1 port=%s dbname=postgres user=%s password=%s sslmode=disable" % (port, user, password)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        conn = psycopg.connect(dsn, autocommit=True)
        conn.execute("select 1").fetchone()
        conn.close()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]

for auth, user, pw in (("trust", "postgres", ""), ("scram-sha-256", "bench", "benchpw")):
    measure(rl_port, user, pw)  # warm-up: pool filled, caches warm
    rl = measure(rl_port, user, pw)
    pg = measure(pg_port, user, pw)
    print("  %-13s median RockLake %.3f ms, PostgreSQL %.3f ms, ratio %.2f; "
          "p99 %.3f / %.3f ms, ratio %.2f" % (auth, rl[0], pg[0], rl[0] / pg[0], rl[1], pg[1], rl[1] / pg[1]))
PY

echo 'SELECT 1;' >"$work/select1.sql"
# tps PORT: pgbench's throughput (excluding initial connection time)
tps()
{
	"$PG_BINDIR/pgbench" -n -M prepared -c 8 -j 2 -T "$seconds" -f "$work/select1.sql" \
		-h 127.0.0.1 -p "$1" -U postgres postgres 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p'
}
rl_tps=$(tps "$RL_PORT")
pg_tps=$(tps "$RL_PG_PORT")
echo "pgbench -n -M prepared -c 8 -j 2 -T $seconds -f select1.sql (SELECT 1;):"
awk -v r="$rl_tps" -v p="$pg_tps" \
	'BEGIN { printf "  tps RockLake %.0f, PostgreSQL %.0f, ratio %.2f\n", r, p, r / p }'
