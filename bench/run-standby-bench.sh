#!/bin/sh
# run-standby-bench.sh: reads per second served by RockLake standbys, 1, 2, 4 and 8 of
# them following one writer's store, against one PostgreSQL 15 started by this script
# in the same run (doc/performance.md, "Standbys (issue 20)").
#
# DuckDB 1.4.4 makes the same DuckLake lake on both servers (a table, LAKE_COMMITS
# inserted snapshots, so the catalog tables hold rows), then pgbench runs DuckLake's own
# reads of its catalog, the statements a DuckDB that attached the lake sends before a
# query: the newest snapshot, the tables and columns at it, and the table's data files
# (bench/standby_reads.sql). STANDBY_BENCH_CLIENTS clients in all, split evenly over the standbys
# (one pgbench process per standby, their tps summed), the writer serving none; on
# PostgreSQL all of them on the one server. Printed: reads/s (tps: one pass of the
# script per transaction) for each count of standbys and its ratio to PostgreSQL's.
# Each standby is a whole server (postmaster, writer, backends) on this machine, so on
# a machine with few cores the standbys share its CPUs: the figure to read is how
# RockLake's rate holds as standbys are added, and how it compares with one PostgreSQL.
#
# usage: [STANDBY_BENCH_CLIENTS=N] [STANDBY_BENCH_SECONDS=S] [LAKE_COMMITS=C]
#        [top_builddir=DIR] bench/run-standby-bench.sh
#   top_builddir                an out-of-tree build with rocklake built (default
#                               /tmp/rocklake-bench-build)
#   STANDBY_BENCH_CLIENTS       pgbench clients in all (default 8)
#   STANDBY_BENCH_SECONDS       each measurement's duration (default 10)
#   LAKE_COMMITS                the lake's inserts (default 50)
set -eu

top_builddir=${top_builddir:-/tmp/rocklake-bench-build}
clients=${STANDBY_BENCH_CLIENTS:-8}
seconds=${STANDBY_BENCH_SECONDS:-10}
. "$(dirname "$0")/bench_env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-standbybench.XXXXXX")
standby_pids=
cleanup()
{
	for pid in $standby_pids; do kill -INT "$pid" 2>/dev/null || true; done
	for pid in $standby_pids; do wait "$pid" 2>/dev/null || true; done
	rl_pg_stop
	rl_server_stop fast >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
rl_server_start "$work/writer"
RL_ON_EXIT=cleanup
rl_pg_start
trap cleanup EXIT
store=$work/writer/store

# the lake, made by DuckDB on both servers
psql -X -q -h "$RL_HOST" -p "$RL_PORT" -d postgres -c "CREATE DATABASE lake"
psql -X -q -h "$RL_PG_HOST" -p "$RL_PG_PORT" -U postgres -d postgres -c "CREATE DATABASE lake"
"$RL_PY" - "$RL_PORT" "$PGUSER" "$RL_PG_PORT" "$work" "${LAKE_COMMITS:-50}" <<'PY'
import os
import sys
sys.path.insert(0, os.environ["top_srcdir"] + "/test/duckdb")
import duckdb_offline

rl_port, rl_user, pg_port, work, commits = sys.argv[1:6]
for name, port, user in (("rl", rl_port, rl_user), ("pg", pg_port, "postgres")):
    con = duckdb_offline.connect()
    con.execute(f"ATTACH 'ducklake:postgres:host=127.0.0.1 port={port} dbname=lake user={user}' AS l "
                f"(DATA_PATH '{work}/{name}_data')")
    con.execute("CREATE TABLE l.events (id BIGINT, kind VARCHAR, seen TIMESTAMP)")
    for i in range(int(commits)):
        con.execute(f"INSERT INTO l.events SELECT {i} * 1000 + r, 'k' || (r % 7), now() FROM range(1000) t(r)")
    con.close()
PY
cp "$top_srcdir/bench/standby_reads.sql" "$work/reads.sql"
# the reads find the lake's rows (its table is DuckLake's table 1) on both servers
files()
{
	psql -X -At -h 127.0.0.1 -p "$1" -U "$2" -d lake -c "SELECT count(*) FROM ducklake_data_file WHERE table_id = 1"
}
[ "$(files "$RL_PORT" "$PGUSER")" = "$(files "$RL_PG_PORT" postgres)" ] && [ "$(files "$RL_PORT" "$PGUSER")" -gt 0 ] ||
	{ echo "the lake's data files differ or are missing" >&2; exit 1; }

# start_standby N: the Nth standby of the writer's store, its port in standby_ports
standby_ports=
start_standby()
{
	dir=$work/standby$1
	port=$(rl_free_port)
	mkdir -p "$dir"
	touch "$dir/standby.signal"
	"$RL_BIN" -D "$dir" -p "$port" -h 127.0.0.1 -k "$dir" -U "$PGUSER" -c store="$store" \
		</dev/null >>"$dir.log" 2>&1 &
	standby_pids="$standby_pids $!"
	standby_ports="$standby_ports $port"
	rl_wait_pidfile "$dir" ready 60 || { echo "standby $1 did not start" >&2; cat "$dir.log" >&2; exit 1; }
	# caught up: the newest snapshot is the writer's
	want=$(psql -X -At -h "$RL_HOST" -p "$RL_PORT" -d lake -c "SELECT max(snapshot_id) FROM ducklake_snapshot")
	tries=300
	until [ "$(psql -X -At -h 127.0.0.1 -p "$port" -d lake -c "SELECT max(snapshot_id) FROM ducklake_snapshot" 2>/dev/null)" = "$want" ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || { echo "standby $1 did not catch up" >&2; exit 1; }
		sleep 0.1
	done
}

# tps USER CLIENTS PORT...: the summed throughput of one pgbench per port, run at once
tps()
{
	user=$1 n=$2
	shift 2
	per=$((n / $#))
	i=0
	for port in "$@"; do
		i=$((i + 1))
		"$PG_BINDIR/pgbench" -n -M extended -c "$per" -j 1 -T "$seconds" -f "$work/reads.sql" \
			-h 127.0.0.1 -p "$port" -U "$user" lake >"$work/pgbench.$i" 2>&1 &
	done
	wait
	cat "$work"/pgbench.* | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' |
		awk '{ s += $1 } END { printf "%.0f", s }'
	rm -f "$work"/pgbench.*
}

echo "machine: $(uname -srm); $(nproc) CPUs; $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "PostgreSQL: $("$PG_BINDIR/postgres" --version); RockLake: $(git -c safe.directory="$top_srcdir" -C "$top_srcdir" describe --always --dirty 2>/dev/null || echo unknown)"
echo "DuckLake's catalog reads (bench/standby_reads.sql), pgbench -M extended, $clients clients, $seconds s each:"
pg_tps=$(tps postgres "$clients" "$RL_PG_PORT")
echo "  PostgreSQL 15, one server: $pg_tps reads/s"
started=0
for n in 1 2 4 8; do
	while [ "$started" -lt "$n" ]; do
		started=$((started + 1))
		start_standby "$started"
	done
	# shellcheck disable=SC2086
	rl_tps=$(tps "$PGUSER" "$clients" $standby_ports)
	awk -v n="$n" -v r="$rl_tps" -v p="$pg_tps" \
		'BEGIN { printf "  RockLake, %d standby(s): %.0f reads/s, ratio %.2f\n", n, r, r / p }'
done
