#!/bin/sh
# run-catalog-scan-bench.sh: the catalog scan benchmark of doc/performance.md
# ("Catalog scans"): the scans DuckDB sends to plan a read of one DuckLake table, on
# RockLake and on a real PostgreSQL 15 started in the same run (catalog_scan_bench.py).
# Builds RockLake without sanitizers out of tree first.
#
# usage: bench/run-catalog-scan-bench.sh [--build-dir DIR] [catalog_scan_bench.py options]
#   --build-dir DIR   the out-of-tree build (default /tmp/rocklake-bench-build; configured
#                     from this source tree if it has no Makefile yet)
set -eu
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
top_builddir=/tmp/rocklake-bench-build
if [ "${1:-}" = --build-dir ]; then
	top_builddir=$2
	shift 2
fi
[ -x "$top_srcdir/.venv/bin/python" ] || { echo "no .venv: run contrib/install-deps.sh" >&2; exit 1; }
if [ ! -f "$top_builddir/Makefile" ]; then
	mkdir -p "$top_builddir"
	(cd "$top_builddir" && "$top_srcdir/configure" -q)
fi
make -C "$top_builddir" -j2 -s all
export top_srcdir top_builddir
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1);" \
	"RockLake $(git -C "$top_srcdir" describe --always --dirty 2>/dev/null || echo unknown)"
exec "$top_srcdir/.venv/bin/python" "$top_srcdir/bench/catalog_scan_bench.py" "$@"
