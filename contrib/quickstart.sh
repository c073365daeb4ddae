#!/bin/sh
# quickstart.sh: the README's first command. Installs what RockLake needs, builds it
# in build/, and brings up a store on the embedded default, a local data directory
# (./data): it creates the store, writes DuckLake's initial catalog rows and shows
# the store's state. (The PostgreSQL-protocol server is not built yet; until it is,
# this runs the storage tool, rocklake-admin.)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

sh contrib/install-deps.sh
[ -x configure ] || autoreconf -fi
mkdir -p build
cd build
[ -f Makefile ] || ../configure
make -j"$(nproc)"
cd "$top"
if [ ! -d data ]; then
	build/rocklake-admin init data
	build/rocklake-admin sample data
fi
build/rocklake-admin inspect data
