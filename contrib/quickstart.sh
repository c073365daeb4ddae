#!/bin/sh
# quickstart.sh: the README's first command. Installs what RockLake needs, builds it
# in build/, and starts the server in the foreground on the embedded default: a data
# directory ./data (created on first start) with its store in ./data/store, listening
# on localhost port 5432 (override with PGPORT) and a Unix socket in /tmp, trust
# authentication for local connections. Stop it with Ctrl-C.
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
port=${PGPORT:-5432}
echo "RockLake: starting on ./data, port $port; connect with: psql -h localhost -p $port -d postgres"
exec build/rocklake -D data -p "$port"
