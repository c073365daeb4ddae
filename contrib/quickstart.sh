#!/bin/sh
# quickstart.sh: the README's first command. Installs what building and running RockLake
# needs (not the test toolchain), builds it in build/, and starts the server in the
# foreground on the embedded default: a data directory ./data (created on first start)
# with its store in ./data/store, listening on localhost and a Unix socket in /tmp, trust
# authentication for local connections. Stop it with Ctrl-C. As root, since the server
# (like PostgreSQL) refuses to run as root, it installs RockLake (make install) and runs
# it as the system user rocklake on /var/lib/rocklake/data.
#
# The port is $PGPORT, else 5432; when 5432 is taken (Debian's PostgreSQL listens there)
# and PGPORT is not set, it says so and takes the first free port from 5433 on.
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

# port_taken PORT: something listens on localhost:PORT (or holds its Unix socket)
port_taken()
{
	[ -e "/tmp/.s.PGSQL.$1" ] || bash -c ": </dev/tcp/127.0.0.1/$1" 2>/dev/null
}
port=${PGPORT:-}
if [ -z "$port" ]; then
	port=5432
	while port_taken "$port"; do
		[ "$port" -eq 5432 ] &&
			echo "RockLake: port 5432 is taken (a PostgreSQL server?); stop it or set PGPORT. Looking for a free port." >&2
		port=$((port + 1))
	done
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "RockLake: starting on ./data, port $port; connect with: psql -h localhost -p $port -d postgres"
	exec build/rocklake -D data -p "$port"
fi
# The server refuses to run as root, as PostgreSQL does: as root, install it and run it
# as the system user rocklake, with its data directory in rocklake's home.
id rocklake >/dev/null 2>&1 ||
	useradd --system --create-home --home-dir /var/lib/rocklake --shell /bin/sh rocklake
make -C build install >/dev/null
datadir=/var/lib/rocklake/data
install -d -o rocklake -g rocklake -m 700 "$datadir"
bin=$(sed -n 's/^prefix = //p' build/Makefile)/bin/rocklake
echo "RockLake: as root, installed $bin and starting it as user rocklake on $datadir, port $port;"
echo "connect with: psql -h localhost -p $port -U rocklake -d postgres"
exec su -s /bin/sh rocklake -c "exec '$bin' -D '$datadir' -p '$port'"
