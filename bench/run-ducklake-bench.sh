#!/bin/sh
# run-ducklake-bench.sh: the DuckLake workload benchmark of doc/performance.md
# ("DuckLake workload (issue 5)"), one command: builds RockLake out of tree without
# sanitizers, starts a real PostgreSQL 15 on loopback (test/scripts/postgres.sh; with
# fsync on, as RockLake's store is durable, and log_min_duration_statement=0) and
# moto's S3 server from .venv, then runs bench/ducklake_bench.py, which starts
# RockLake (a local store; an S3 store on moto for P5) with
# log_min_duration_statement=0 and runs phases P1 to P6 with one DuckDB client (1.4.4,
# DuckLake 0.3, or 1.5.5, DuckLake 1.0) against both servers, printing per measurement
# RockLake's figure, PostgreSQL's and the ratio, and the server's share summed from both
# servers' "duration:" log lines, and for P1's commits and P4's reads the same share
# broken down by statement.
#
# usage: bench/run-ducklake-bench.sh [--client 1.4.4|1.5.5] [--build-dir DIR] [--quick]
#                                    [--no-s3] [--keep] [--json FILE] [driver options]
#   --client V       the DuckDB client: 1.4.4 (the default, .venv) or 1.5.5
#                    (.venv-duckdb15); its python runs the driver, which loads that
#                    release's ducklake and postgres extensions offline
#   --build-dir DIR  out-of-tree build (default /tmp/rocklake-ducklake-bench-build,
#                    configured from this source tree if it has no Makefile yet)
#   --quick          small sizes: about 2 minutes instead of 4
#   --no-s3          skip P5 (no moto)
#   --keep           keep the work directory (server logs, lakes) and say where;
#                    PostgreSQL's log is copied there as postgres.log
# Other options, in any order, go to the driver (--phases P1,P3, --p1-commits N,
# --p2-tables 1000 --p2-session-tables 50, --p4-files 10000,100000, --p6-rows 1e4,1e6,
# ...; see ducklake_bench.py --help).
# RL_BENCH_WRAPPER="perf record -g -o FILE --" runs RockLake under a profiler (its
# backends and writer are forked, so perf follows them); bench/statement_shares.py
# breaks a kept run's logs down by statement.
set -eu

top_builddir=/tmp/rocklake-ducklake-bench-build
with_s3=yes
keep=no
client=1.4.4
driver_args=
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) top_builddir=$2; shift 2 ;;
	--client) client=$2; shift 2 ;;
	--no-s3) with_s3=no; shift ;;
	--keep) keep=yes; shift ;;
	*) driver_args="$driver_args $1"; shift ;;
	esac
done
. "$(dirname "$0")/bench_env.sh"
case $client in
1.4.4) driver_py=$RL_PY ;;
1.5.5) driver_py=$top_srcdir/.venv-duckdb15/bin/python ;;
*) echo "--client: 1.4.4 or 1.5.5, not $client" >&2; exit 2 ;;
esac
"$driver_py" -c 'import sys, duckdb; assert duckdb.__version__ == sys.argv[1]' "$client" 2>/dev/null ||
	{ echo "no DuckDB $client in $(dirname "$(dirname "$driver_py")"): run contrib/install-deps.sh" >&2; exit 1; }

if [ ! -f "$top_builddir/Makefile" ]; then
	mkdir -p "$top_builddir"
	(cd "$top_builddir" && "$top_srcdir/configure" -q)
fi
make -C "$top_builddir" -j2 -s all >/dev/null

work=$(mktemp -d /var/tmp/rl-ducklake-bench.XXXXXX)
chmod 755 "$work"
moto_pid=
cleanup()
{
	[ -n "$moto_pid" ] && { kill "$moto_pid" 2>/dev/null || true; wait "$moto_pid" 2>/dev/null || true; }
	[ "$keep" = yes ] && [ -n "${RL_PG_LOG:-}" ] && cp "$RL_PG_LOG" "$work/postgres.log"
	rl_pg_stop
	if [ "$keep" = yes ]; then
		echo "work directory kept: $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

rl_pg_start -c fsync=on -c log_min_duration_statement=0 -c log_connections=on -c max_connections=200

moto_args=
if [ "$with_s3" = yes ]; then
	port=$(rl_free_port)
	"$top_srcdir/.venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
	moto_pid=$!
	rl_wait_http "http://127.0.0.1:$port/" 60 || { echo "moto did not start" >&2; cat "$work/moto.log" >&2; exit 1; }
	curl -sS -o /dev/null -X PUT "http://127.0.0.1:$port/rocklake-bench"
	moto_args="--moto-endpoint http://127.0.0.1:$port --moto-log $work/moto.log"
fi

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
	"Linux $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "PostgreSQL: $("$PG_BINDIR/postgres" --version) (fsync on); RockLake:" \
	"$(git -C "$top_srcdir" describe --always --dirty 2>/dev/null || echo unknown);" \
	"DuckDB $client (client)"
echo "work directory: $work on $(df -T "$work" | awk 'NR == 2 { print $1 ", " $2 }')"
# shellcheck disable=SC2086
"$driver_py" "$top_srcdir/bench/ducklake_bench.py" --rocklake "$top_builddir/rocklake" --workdir "$work" \
	--pg-port "$RL_PG_PORT" --pg-log "$RL_PG_LOG" --pg-datadir "$RL_PG_DATADIR" $moto_args $driver_args
