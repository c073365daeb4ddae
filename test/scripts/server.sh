# server.sh: start and stop a RockLake server for a test script, sourced after
# common.sh (". server.sh"). Loopback and a socket in the data directory only, on a
# free port, so tests can run side by side.
#
#   rl_server_start DATADIR [rocklake options ...]   start, wait until ready
#                                                    (with RL_NO_WAIT set: only start)
#   rl_server_stop [smart|fast|immediate]            stop it, wait until it is gone
#   rl_pidfile_status DATADIR                        line 8 of postmaster.pid
#   rl_require_pg_clients                            pg_isready ($PG_ISREADY) and psql
#
# After rl_server_start: RL_PID (postmaster), RL_PORT, RL_HOST (127.0.0.1), RL_SOCKDIR,
# RL_DATADIR, RL_LOG (the server's stderr), and PGHOST/PGPORT/PGUSER/PGDATABASE set for
# psql and pg_isready over TCP; PGUSER (rocklake unless set) is the superuser a new data
# directory is made with. The server is stopped (fast) when the script exits, then the
# command in RL_ON_EXIT (if set) runs.
#
#   rl_admin_setup NAME          for a rocklake-admin test: $admin, a work directory
#                                $workdir, and at exit the server stopped (immediate),
#                                the S3 servers of $versitygw_pids stopped, $workdir removed

RL_BIN=${top_builddir:-.}/rocklake
PG_BINDIR=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
PG_ISREADY=$PG_BINDIR/pg_isready

# rl_require_pg_clients: skip (fail in CI) unless pg_isready and psql are there
rl_require_pg_clients()
{
	[ -x "$PG_ISREADY" ] || rl_skip_or_fail "pg_isready not found in $PG_BINDIR"
	command -v psql >/dev/null || rl_skip_or_fail "psql not found"
}

rl_pidfile_status()
{
	sed -n 8p "$1/postmaster.pid" 2>/dev/null
}

# rl_wait_pidfile DATADIR STATUS SECONDS: 0 once line 8 starts with STATUS.
rl_wait_pidfile()
{
	tries=$(($3 * 10))
	while [ "$tries" -gt 0 ]; do
		case "$(rl_pidfile_status "$1")" in
			"$2"*) return 0 ;;
		esac
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

rl_server_start()
{
	RL_DATADIR=$1
	shift
	[ -x "$RL_BIN" ] || { echo "FAIL: $RL_BIN is not built" >&2; exit 1; }
	RL_PORT=$(rl_free_port)
	RL_HOST=127.0.0.1
	RL_SOCKDIR=$RL_DATADIR
	RL_LOG=$RL_DATADIR.log
	mkdir -p "$RL_DATADIR"
	PGHOST=$RL_HOST PGPORT=$RL_PORT PGUSER=${PGUSER:-rocklake} PGDATABASE=${PGDATABASE:-postgres}
	# PGUSER is the bootstrap superuser of a new data directory (-U, as initdb's)
	"$RL_BIN" -D "$RL_DATADIR" -p "$RL_PORT" -h "$RL_HOST" -k "$RL_SOCKDIR" -U "$PGUSER" "$@" \
		</dev/null >>"$RL_LOG" 2>&1 &
	RL_PID=$!
	export RL_PID RL_PORT RL_HOST RL_SOCKDIR RL_DATADIR RL_LOG
	export PGHOST PGPORT PGUSER PGDATABASE
	trap 'rl_server_stop fast >/dev/null 2>&1 || true; ${RL_ON_EXIT:-:}' EXIT
	[ -z "${RL_NO_WAIT:-}" ] || return 0
	if ! rl_wait_pidfile "$RL_DATADIR" ready 30; then
		echo "FAIL: server did not become ready; log:" >&2
		cat "$RL_LOG" >&2
		exit 1
	fi
}

rl_server_stop()
{
	[ -n "${RL_PID:-}" ] || return 0
	case "${1:-fast}" in
		smart) sig=TERM ;;
		immediate) sig=QUIT ;;
		*) sig=INT ;;
	esac
	kill -s "$sig" "$RL_PID" 2>/dev/null || { RL_PID=; return 0; }
	tries=300
	while kill -0 "$RL_PID" 2>/dev/null; do
		tries=$((tries - 1))
		if [ "$tries" -le 0 ]; then
			echo "FAIL: server $RL_PID did not stop; log:" >&2
			cat "$RL_LOG" >&2
			kill -9 "$RL_PID" 2>/dev/null
			RL_PID=
			return 1
		fi
		sleep 0.1
	done
	wait "$RL_PID" 2>/dev/null || true
	RL_PID=
	return 0
}

rl_admin_setup()
{
	rl_require_pg_clients
	admin="$top_builddir/rocklake-admin"
	[ -x "$admin" ] || rl_skip_or_fail "$admin is not built"
	workdir=$(mktemp -d "/tmp/rl-admin-$1-XXXXXX")
	versitygw_pids=""
	RL_ON_EXIT=rl_admin_cleanup
	trap rl_admin_cleanup EXIT
	trap 'exit 1' INT TERM
}

rl_admin_cleanup()
{
	rl_server_stop immediate >/dev/null 2>&1 || true
	[ -z "$versitygw_pids" ] || rl_stop_versitygws
	rm -rf "$workdir"
}
