#!/bin/sh
# install-deps.sh [--test]: what RockLake needs on Debian 12, installed by the project
# itself (CI runs on a clean machine), with sudo when not root.
#
# Without --test: what building and running the server needs (the compiler and
# autotools, the libraries it links, and psql and pg_isready to talk to it); the quick
# start runs this. With --test: also what the test suite drives (contrib/run-tests.sh
# runs this): PostgreSQL 15 to compare against, a JDK with pgjdbc, Node.js with
# node-postgres under test/node, clang for libFuzzer, and two Python virtualenvs with
# the test-only PyPI packages: .venv (moto's S3 server for the benchmarks, psycopg,
# asyncpg, SQLAlchemy, DuckDB 1.4.4 and its extensions) and .venv-duckdb15 (DuckDB
# 1.5.5 and its extensions; one Python process loads one duckdb module), and versitygw,
# the S3 server of the tests, built with Go (1.21 or later) into .cache/bin.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

test_deps=false
case "${1:-}" in
	--test) test_deps=true ;;
	"") ;;
	*) echo "usage: $0 [--test]" >&2; exit 2 ;;
esac

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
PACKAGES="build-essential autoconf automake libtool pkg-config
  libsqlite3-dev libcurl4-openssl-dev libprotobuf-c-dev protobuf-c-compiler
  libjansson-dev check libssl-dev libpg-query-dev libpq-dev postgresql-client-15
  python3-pip"
$test_deps && PACKAGES="$PACKAGES
  python3 python3-venv python3-pip postgresql-15 curl
  libpostgresql-jdbc-java default-jdk-headless nodejs
  clang-14 libclang-rt-14-dev"
missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi

# DuckDB for rocklake-admin publish, which has DuckDB write a published version's catalog
# (doc/publishing.md): per pinned release, libduckdb.so from the npm registry's
# @duckdb/node-bindings-linux-x64 and the ducklake and postgres_scanner extensions of
# that release from its PyPI wheels, into ROCKLAKE_DUCKDB_DIR/vX.Y.Z (default
# /usr/local/lib/rocklake/duckdb, where a build with the default prefix looks).
# DuckDB 1.5.5 writes DuckLake 1.0 catalogs, 1.4.4 DuckLake 0.3 ones. npm fetches the
# library, pip (python3-pip, above) the wheels, which are only unpacked.
duckdb_dir=${ROCKLAKE_DUCKDB_DIR:-/usr/local/lib/rocklake/duckdb}
# duckdb_release VERSION NPM_VERSION WHEEL...: the release's library and extensions
duckdb_release()
{
	version=$1 npm_version=$2
	shift 2
	dest=$duckdb_dir/v$version
	[ -f "$dest/libduckdb.so" ] && [ -f "$dest/ducklake.duckdb_extension" ] &&
		[ -f "$dest/postgres_scanner.duckdb_extension" ] && return 0
	[ "$(uname -m)" = x86_64 ] || { echo "$0: no DuckDB $version for $(uname -m): publishing will not work" >&2; return 0; }
	command -v npm >/dev/null || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm
	work=$(mktemp -d)
	(cd "$work" && npm pack --silent "@duckdb/node-bindings-linux-x64@$npm_version" >/dev/null &&
		tar xzf duckdb-node-bindings-linux-x64-*.tgz package/libduckdb.so &&
		python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d wheels "$@" &&
		for w in wheels/*.whl; do python3 -m zipfile -e "$w" unpacked; done)
	$SUDO mkdir -p "$dest"
	$SUDO install -m 0644 "$work/package/libduckdb.so" "$dest/libduckdb.so"
	for ext in ducklake postgres_scanner; do
		$SUDO install -m 0644 "$(find "$work/unpacked" -path "*v$version*" -name "$ext.duckdb_extension")" \
			"$dest/$ext.duckdb_extension"
	done
	rm -rf "$work"
}
duckdb_release 1.4.4 1.4.4-r.4 duckdb-ext-ducklake==1.4.4.20260205 duckdb-ext-postgres==1.4.4.20260205
duckdb_release 1.5.5 1.5.5-r.5 duckdb-extension-ducklake==1.5.5 duckdb-extension-postgres-scanner==1.5.5

$test_deps || exit 0

# virtualenv DIR REQUIREMENTS: a virtualenv in DIR (made if missing) with what REQUIREMENTS pins
virtualenv()
{
	[ -x "$1/bin/python" ] || python3 -m venv "$1"
	"$1/bin/pip" install -q --disable-pip-version-check -r "$2"
}
virtualenv "$top/.venv" "$top/test/requirements.txt"
virtualenv "$top/.venv-duckdb15" "$top/test/requirements-duckdb15.txt"
# node-postgres for the driver tests, pinned by test/node/package-lock.json (NodeSource's
# nodejs bundles npm; Debian's ships it separately)
command -v npm >/dev/null || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm
npm ci --prefix "$top/test/node" --no-audit --no-fund --loglevel=error

# versitygw, a real S3 gateway whose conditional writes are atomic (the S3 tests race
# them; test/scripts/versitygw.sh), built from the Go module proxy at a pinned version
# into .cache/bin; Go 1.21 or later fetches by itself the toolchain the module asks for.
VERSITYGW_VERSION=v1.8.0
versitygw=$top/.cache/bin/versitygw
if ! "$versitygw" --version 2>/dev/null | grep -qx "Version *: $VERSITYGW_VERSION"; then
	go=$(command -v go || echo /usr/local/go/bin/go)
	[ -x "$go" ] || { echo "$0: the tests' S3 server needs Go 1.21 or later (https://go.dev/dl/)" >&2; exit 1; }
	GOBIN=$top/.cache/bin GOFLAGS=-mod=mod "$go" install \
		-ldflags "-s -w -X main.Version=$VERSITYGW_VERSION" \
		"github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
fi
