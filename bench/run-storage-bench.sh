#!/bin/sh
# run-storage-bench.sh: builds and runs the storage benchmark (bench/bench_storage)
# the way doc/performance.md reports it, so the figures can be reproduced with one
# command: it builds out of tree if needed, prints the machine and the disk being
# measured, starts moto's S3 server from the project's virtualenv on a free
# loopback port for the S3 section (and stops it afterwards), and runs the
# benchmark.
#
# usage: bench/run-storage-bench.sh [--build-dir DIR] [--no-s3] [--] [bench_storage options]
#   --build-dir DIR  an existing out-of-tree build (default: /tmp/rocklake-bench-build,
#                    configured from this source tree if it has no Makefile yet)
#   --no-s3          skip the S3 section
# Other options (--dir, --commits, --max-keys, --reads, --s3-commits, --json) go to
# bench_storage; see bench_storage --help.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$srcdir/test/scripts/common.sh"

builddir=/tmp/rocklake-bench-build
with_s3=yes
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) builddir=$2; shift 2 ;;
	--no-s3) with_s3=no; shift ;;
	--) shift; break ;;
	*) break ;;
	esac
done

# the disk the local sections measure: bench_storage's --dir, /var/tmp by default
benchdir=/var/tmp
prev=
for arg in "$@"; do
	case $arg in
	--dir=*) benchdir=${arg#--dir=} ;;
	*) [ "$prev" = --dir ] && benchdir=$arg ;;
	esac
	prev=$arg
done

if [ ! -f "$builddir/Makefile" ]; then
	mkdir -p "$builddir"
	(cd "$builddir" && "$srcdir/configure" -q)
fi
# "all" first: it generates the protobuf sources the library's objects include
make -C "$builddir" -j2 -s all
make -C "$builddir" -j2 -s bench

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
	"Linux $(uname -r)"
echo "bench dir: $benchdir on" \
	"$(df -T "$benchdir" | awk 'NR == 2 { print $1 ", " $2 " filesystem" }')"

workdir=$(mktemp -d)
moto_pid=""
cleanup()
{
	if [ -n "$moto_pid" ]; then
		kill "$moto_pid" 2>/dev/null || true
		wait "$moto_pid" 2>/dev/null || true
	fi
	rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

moto="$srcdir/.venv/bin/moto_server"
if [ "$with_s3" = yes ] && [ ! -x "$moto" ]; then
	echo "no $moto (run contrib/install-deps.sh): skipping the S3 section" >&2
	with_s3=no
fi
if [ "$with_s3" = yes ]; then
	port=$(rl_free_port)
	"$moto" -H 127.0.0.1 -p "$port" >"$workdir/moto.log" 2>&1 &
	moto_pid=$!
	export AWS_ENDPOINT_URL="http://127.0.0.1:$port"
	export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
	if ! rl_wait_http "$AWS_ENDPOINT_URL/" 60; then
		echo "moto did not start:" >&2
		cat "$workdir/moto.log" >&2
		exit 1
	fi
	curl -sS --fail-with-body -o /dev/null -X PUT \
		--aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
		"$AWS_ENDPOINT_URL/rocklake-bench"
	echo "S3: moto $("$srcdir/.venv/bin/python" -c 'import moto; print(moto.__version__)')" \
		"at $AWS_ENDPOINT_URL (loopback)"
	set -- --s3 "s3://rocklake-bench/run-$(date +%s)" "$@"
fi

"$builddir/bench/bench_storage" "$@"
