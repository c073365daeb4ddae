#!/bin/sh
# server_ctl.sh rocklake|postgres DIR: keep one server running for the DuckDB tests,
# started and stopped by test/scripts/server.sh (RockLake, data in DIR) or
# test/scripts/postgres.sh (PostgreSQL 15 in its own temp dir). Run by the pytest
# fixtures in servers.py with top_srcdir and top_builddir in the environment.
#
# Prints "ready HOST PORT USER PID" once the server accepts connections, then reads
# commands from stdin, one a line:
#   restart    stop (fast) and start again on the same data; prints "ready ..." again
#   rebuild    the same with the catalog caches removed in between (RockLake only),
#              so that the next start rebuilds them from the store
# End of input stops the server, so it never outlives the test process.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"
. "$top_srcdir/test/scripts/postgres.sh"

kind=$1
dir=$2

case $kind in
rocklake)
	start() { rl_server_start "$dir/data"; echo "ready $RL_HOST $RL_PORT $PGUSER $RL_PID"; }
	restart() { rl_server_stop fast; start; }
	rebuild() { rl_server_stop fast; rm -f "$dir"/data/catalog*.sqlite*; start; }
	stop() { rl_server_stop fast; }
	;;
postgres)
	start() { rl_pg_start; ready_pg; }
	# postgres.sh has no restart (rl_pg_stop removes the cluster); pg_ctl restarts it
	# with the same options, port included, from postmaster.opts (its log: the first
	# one belongs to root).
	restart()
	{
		rl_as_user "\"$PG_BINDIR/pg_ctl\" restart -D \"$RL_PG_DATADIR\" -m fast -w -t 60 \
			-l \"$RL_PG_DIR/restarted.log\"" >&2
		ready_pg
	}
	ready_pg() { echo "ready $RL_PG_HOST $RL_PG_PORT postgres $(sed -n 1p "$RL_PG_DATADIR/postmaster.pid")"; }
	stop() { rl_pg_stop; }
	;;
*)
	echo "usage: server_ctl.sh rocklake|postgres DIR" >&2
	exit 2
	;;
esac

start
trap 'stop >&2' EXIT
trap 'exit 1' INT TERM HUP
while read -r command; do
	case $command in
	restart) restart ;;
	rebuild) rebuild ;;
	*) echo "server_ctl.sh: unknown command $command" >&2 ;;
	esac
done
