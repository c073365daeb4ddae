#!/bin/sh
# differential.sh: the same client sessions against a real PostgreSQL 15 and against
# RockLake must produce the same protocol message streams and the same client output.
# Each test/differential/*.case is a client session (a shell script run with DIFF_HOST,
# DIFF_PORT and DIFF_DSN pointing at a decoding proxy, test/tools/pg_wire_dump.py, in
# front of one server or the other); the two recordings are normalised by
# test/differential/normalise.py (pids, keys, salts, nonces, server_version, error
# source locations) and must be identical.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"
. "$top_srcdir/test/scripts/postgres.sh"

DUMP=$top_srcdir/test/tools/pg_wire_dump.py
NORMALISE=$top_srcdir/test/differential/normalise.py
rl_require_clients
PY=$RL_PY
export PY

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-differential.XXXXXX")
proxies=
cleanup()
{
	for p in $proxies; do kill "$p" 2>/dev/null || true; done
	rl_pg_stop
	rl_server_stop fast >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
PGUSER=postgres	# as the PostgreSQL side's superuser: the cases connect as postgres
rl_server_start "$work/rl-data"
trap cleanup EXIT
rl_pg_start -c TimeZone=Etc/UTC

# proxy SIDE UPSTREAM_PORT: start a recording proxy; sets port_SIDE
proxy()
{
	port=$(rl_free_port)
	python3 "$DUMP" 127.0.0.1 "$port" 127.0.0.1 "$2" "$work/$1.wire" 2>>"$work/proxy.err" &
	proxies="$proxies $!"
	python3 -c 'import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1]))).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)' "$port" || { echo "FAIL: proxy did not start" >&2; exit 1; }
	eval "port_$1=$port"
}
proxy pg "$RL_PG_PORT"
proxy rl "$RL_PORT"
sleep 0.2

failed=0
for case in "$top_srcdir"/test/differential/*.case; do
	name=$(basename "$case" .case)
	for side in pg rl; do
		eval "DIFF_PORT=\$port_$side"
		DIFF_HOST=127.0.0.1
		DIFF_DSN="host=$DIFF_HOST port=$DIFF_PORT user=postgres dbname=postgres"
		export DIFF_HOST DIFF_PORT DIFF_DSN
		: >"$work/$side.wire"
		sh "$case" >"$work/$name.$side.out" 2>&1 || echo "exit status $?" >>"$work/$name.$side.out"
		"$NORMALISE" "$work/$side.wire" >"$work/$name.$side.trace"
		sed -i "s/$DIFF_PORT/PORT/g" "$work/$name.$side.out"
	done
	[ -s "$work/$name.pg.trace" ] || { echo "FAIL: $name: nothing recorded" >&2; failed=1; continue; }
	if diff -u "$work/$name.pg.trace" "$work/$name.rl.trace" >"$work/diff" &&
		diff -u "$work/$name.pg.out" "$work/$name.rl.out" >>"$work/diff"; then
		echo "ok: $name"
	else
		echo "FAIL: $name: PostgreSQL (-) and RockLake (+) differ:" >&2
		cat "$work/diff" >&2
		failed=1
	fi
done
[ "$failed" -eq 0 ] || exit 1
echo PASS
