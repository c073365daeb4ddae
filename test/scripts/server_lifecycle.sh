#!/bin/sh
# server_lifecycle.sh: the postmaster's outside contract. postmaster.pid in the
# 8-line format with its status line, the Unix socket and its lock file, pg_isready
# in every state (accepting 0; starting, stopping 1; down 2), a second server on the
# same data directory refused, a stale postmaster.pid replaced, reload, and every
# file removed at shutdown.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients

tmp=$(mktemp -d /tmp/rl-life-XXXXXX)
cleanup() { rl_server_stop immediate >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "${RL_LOG:-/dev/null}" ] && tail -30 "$RL_LOG" >&2; exit 1; }

isready() { "$PG_ISREADY" -h "$1" -p "$RL_PORT" -t 5 >/dev/null 2>&1 && echo 0 || echo $?; }

# --- a fresh data directory is initialized and served ---
rl_server_start "$tmp/data"
trap cleanup EXIT
for f in PG_VERSION rocklake.conf rocklake_hba.conf postmaster.pid postmaster.opts; do
	[ -f "$tmp/data/$f" ] || fail "$f missing"
done
[ "$(cat "$tmp/data/PG_VERSION")" = 15 ] || fail "PG_VERSION"
grep -q '^local *all *all *trust' "$tmp/data/rocklake_hba.conf" || fail "hba has no trust line"
grep -q 'enabling "trust" authentication for local connections' "$RL_LOG" || fail "no trust LOG line"
[ "$(wc -l < "$tmp/data/postmaster.pid")" -eq 8 ] || fail "postmaster.pid is not 8 lines"
[ "$(sed -n 1p "$tmp/data/postmaster.pid")" = "$RL_PID" ] || fail "pidfile line 1"
[ "$(sed -n 2p "$tmp/data/postmaster.pid")" = "$tmp/data" ] || fail "pidfile line 2"
[ "$(sed -n 4p "$tmp/data/postmaster.pid")" = "$RL_PORT" ] || fail "pidfile line 4"
[ "$(sed -n 5p "$tmp/data/postmaster.pid")" = "$RL_SOCKDIR" ] || fail "pidfile line 5"
[ "$(sed -n 6p "$tmp/data/postmaster.pid")" = 127.0.0.1 ] || fail "pidfile line 6"
[ "$(sed -n 8p "$tmp/data/postmaster.pid")" = "ready   " ] || fail "pidfile status"
[ -S "$RL_SOCKDIR/.s.PGSQL.$RL_PORT" ] || fail "no Unix socket"
[ "$(sed -n 1p "$RL_SOCKDIR/.s.PGSQL.$RL_PORT.lock")" = "$RL_PID" ] || fail "socket lock file"
[ "$(stat -c %a "$tmp/data/postmaster.pid")" = 600 ] || fail "postmaster.pid mode"
grep -q "listening on IPv4 address \"127.0.0.1\", port $RL_PORT" "$RL_LOG" || fail "listen LOG line"
"$RL_BIN" --version | grep -q '^rocklake (PostgreSQL) 15\.' || fail "--version"

[ "$(isready 127.0.0.1)" = 0 ] || fail "pg_isready over TCP while running"
[ "$(isready "$RL_SOCKDIR")" = 0 ] || fail "pg_isready over the Unix socket while running"
echo "ok: running -> pg_isready 0"

# --- a second server on the same data directory is refused ---
port2=$(rl_free_port)
if "$RL_BIN" -D "$tmp/data" -p "$port2" -k "$tmp" -h 127.0.0.1 >"$tmp/second.log" 2>&1; then
	fail "second server started"
fi
grep -q 'lock file "postmaster.pid" already exists\|lock file ".*postmaster.pid" already exists' "$tmp/second.log" ||
	{ cat "$tmp/second.log"; fail "no lock-file message"; }
grep -q "Is another postmaster (PID $RL_PID) running" "$tmp/second.log" || fail "no PID hint"
# ... and the same socket is refused too
if "$RL_BIN" -D "$tmp/other" -p "$RL_PORT" -k "$RL_SOCKDIR" -h '' >"$tmp/third.log" 2>&1; then
	fail "server with the same socket started"
fi
grep -q 'already exists' "$tmp/third.log" || { cat "$tmp/third.log"; fail "no socket lock message"; }
echo "ok: second server refused"

# --- reload ---
echo "log_connections = on" >> "$tmp/data/rocklake.conf"
echo "port = 1" >> "$tmp/data/rocklake.conf"
kill -HUP "$RL_PID"
sleep 1
grep -q 'received SIGHUP, reloading configuration files' "$RL_LOG" || fail "no reload LOG"
grep -q 'parameter "log_connections" changed to "on"' "$RL_LOG" || fail "reload did not apply"
[ "$(isready 127.0.0.1)" = 0 ] || fail "not accepting after reload"
echo "ok: reload"

# --- stopping: a smart shutdown waits for the session; new ones are refused ---
python3 "$top_srcdir/test/scripts/pgraw.py" hold 127.0.0.1 "$RL_PORT" 20 >"$tmp/hold.out" &
holder=$!
sleep 1
grep -q '^PID' "$tmp/hold.out" || fail "holding session did not start"
kill -TERM "$RL_PID"
rl_wait_pidfile "$tmp/data" stopping 10 || fail "status did not become stopping"
[ "$(isready 127.0.0.1)" = 1 ] || fail "pg_isready during smart shutdown is not 1"
kill -0 "$RL_PID" || fail "smart shutdown did not wait for the session"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
rl_server_stop smart || fail "did not stop after the session ended"
[ "$(isready 127.0.0.1)" = 2 ] || fail "pg_isready when down is not 2"
for f in "$tmp/data/postmaster.pid" "$RL_SOCKDIR/.s.PGSQL.$RL_PORT" "$RL_SOCKDIR/.s.PGSQL.$RL_PORT.lock" \
	"$tmp/data/.s.rocklake.writer"; do
	[ ! -e "$f" ] || fail "$f left behind"
done
grep -q 'database system is shut down' "$RL_LOG" || fail "no shutdown LOG line"
echo "ok: stopping -> 1, down -> 2, files removed"

# --- starting: the writer takes its time; meanwhile 57P03 ---
# A stale postmaster.pid (a PID that is not running) must not stop the start.
printf '999999\n%s\n0\n1\n\n\n\nready   \n' "$tmp/data" > "$tmp/data/postmaster.pid"
RL_DATADIR=$tmp/data
RL_PORT=$(rl_free_port)
"$RL_BIN" -D "$tmp/data" -p "$RL_PORT" -h 127.0.0.1 -k "$tmp/data" -c debug_startup_delay=4s \
	</dev/null >>"$RL_LOG" 2>&1 &
RL_PID=$!
rl_wait_pidfile "$tmp/data" starting 10 || fail "status never said starting"
sleep 0.5
out=$("$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" -t 5 2>&1) && rc=0 || rc=$?
[ "$rc" = 1 ] || fail "pg_isready while starting: $rc ($out)"
echo "$out" | grep -q 'rejecting connections' || fail "pg_isready output: $out"
psql -X "host=127.0.0.1 port=$RL_PORT user=x dbname=x sslmode=disable" -c 'select 1' \
	>"$tmp/psql.out" 2>&1 || true
grep -q 'the database system is starting up' "$tmp/psql.out" || { cat "$tmp/psql.out"; fail "psql while starting"; }
rl_wait_pidfile "$tmp/data" ready 30 || fail "never became ready"
[ "$(isready 127.0.0.1)" = 0 ] || fail "not accepting after start"
echo "ok: starting -> 1 (57P03), then 0"
rl_server_stop fast || fail "fast stop"
echo "PASS"
