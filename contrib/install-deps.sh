#!/bin/sh
# install-deps.sh: everything RockLake needs to build and test on Debian 12, installed
# by the project itself (CI runs on a clean machine): Debian packages, then a Python
# virtualenv in .venv with the test-only PyPI packages (moto's S3 server; DuckDB 1.4.4 and
# its extensions for the end-to-end tests), a second one in .venv-duckdb15 with DuckDB
# 1.5.5 and its extensions (one Python process loads one duckdb module), and node-postgres
# under test/node.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
PACKAGES="build-essential autoconf automake libtool pkg-config
  libsqlite3-dev libcurl4-openssl-dev libprotobuf-c-dev protobuf-c-compiler
  libjansson-dev check libssl-dev libpg-query-dev libpq-dev
  python3 python3-venv python3-pip postgresql-15 postgresql-client-15 curl
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
