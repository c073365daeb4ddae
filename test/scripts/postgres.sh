# postgres.sh: start and stop a real PostgreSQL 15 next to RockLake, for tests and
# benchmarks that compare the two (differential traces, connection benchmarks, the
# DuckDB harness). Sourced after common.sh and server.sh (". postgres.sh").
# initdb and postgres refuse to run as root, so as root the cluster belongs to the
# user rocklake-test (rl_unprivileged_user in common.sh).
#
#   rl_pg_start [postgres options ...]   initdb into a fresh temp dir, start postgres on
#                                        a free loopback port, wait until it accepts
#   rl_pg_stop                           fast shutdown, wait, remove the temp dir
#
# The cluster's superuser is "postgres" with the password $RL_PG_PASSWORD; local and
# host connections use $RL_PG_AUTH (trust unless set, e.g. scram-sha-256), database
# "postgres" exists. After rl_pg_start: RL_PG_PID, RL_PG_HOST (127.0.0.1), RL_PG_PORT,
# RL_PG_SOCKDIR, RL_PG_DATADIR, RL_PG_LOG. Nothing is exported to PGHOST/PGPORT (the
# RockLake server owns those); the caller's EXIT trap must call rl_pg_stop.

RL_PG_PASSWORD=${RL_PG_PASSWORD:-rocklake-test-pw}

rl_pg_start()
{
	[ -x "$PG_BINDIR/postgres" ] && [ -x "$PG_BINDIR/initdb" ] ||
		rl_skip_or_fail "PostgreSQL 15 server not installed in $PG_BINDIR (postgresql-15)"
	rl_unprivileged_user
	RL_PG_DIR=$(mktemp -d /tmp/rl-pg.XXXXXX)
	chmod 755 "$RL_PG_DIR"
	RL_PG_DATADIR=$RL_PG_DIR/data
	RL_PG_SOCKDIR=$RL_PG_DIR
	RL_PG_LOG=$RL_PG_DIR/postgres.log
	RL_PG_HOST=127.0.0.1
	RL_PG_PORT=$(rl_free_port)
	echo "$RL_PG_PASSWORD" >"$RL_PG_DIR/pwfile"
	chown -R "$RL_USER" "$RL_PG_DIR"
	if ! rl_as_user "\"$PG_BINDIR/initdb\" -D \"$RL_PG_DATADIR\" -U postgres -E UTF8 \
			--locale=C.UTF-8 --auth=${RL_PG_AUTH:-trust} --pwfile=\"$RL_PG_DIR/pwfile\" -N" \
			>"$RL_PG_DIR/initdb.log" 2>&1; then
		echo "FAIL: initdb:" >&2
		cat "$RL_PG_DIR/initdb.log" >&2
		rm -rf "$RL_PG_DIR"
		exit 1
	fi
	rl_as_user "exec \"$PG_BINDIR/postgres\" -D \"$RL_PG_DATADIR\" -p $RL_PG_PORT \
		-c listen_addresses=$RL_PG_HOST -c unix_socket_directories=\"$RL_PG_SOCKDIR\" \
		-c fsync=off -c logging_collector=off $*" </dev/null >>"$RL_PG_LOG" 2>&1 &
	RL_PG_PID=$!
	export RL_PG_PID RL_PG_HOST RL_PG_PORT RL_PG_SOCKDIR RL_PG_DATADIR RL_PG_LOG
	if ! rl_wait_pidfile "$RL_PG_DATADIR" ready 60; then
		echo "FAIL: PostgreSQL did not become ready; log:" >&2
		cat "$RL_PG_LOG" >&2
		rl_pg_stop
		exit 1
	fi
}

rl_pg_stop()
{
	[ -n "${RL_PG_DIR:-}" ] || return 0
	# RL_PG_PID may be su's pid; signal the postmaster itself
	pid=$(sed -n 1p "$RL_PG_DATADIR/postmaster.pid" 2>/dev/null || true)
	if [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; then
		tries=300
		while kill -0 "$pid" 2>/dev/null && [ "$tries" -gt 0 ]; do
			sleep 0.1
			tries=$((tries - 1))
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
	wait "$RL_PG_PID" 2>/dev/null || true
	rm -rf "$RL_PG_DIR"
	RL_PG_DIR=
	RL_PG_PID=
}
