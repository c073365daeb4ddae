#!/bin/sh
# server_connections.sh: connection handling in the postmaster. 100 sessions opened
# and closed leave no process and no descriptor behind; max_connections is enforced
# with 53300 by the postmaster; CancelRequests are routed by PID and key (a wrong key
# or PID is only logged); malformed first packets and random bytes get an error or a
# closed connection, never a crash, and silent clients, however many, block nobody. The spares
# compile the statements the last session left, and a stale or broken hint costs
# a session nothing.
# (Backends count against max_connections until they have exited, as in
# PostgreSQL, so the 100 sessions run under the default limit.)
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients
pgraw=$top_srcdir/test/scripts/pgraw.py

tmp=$(mktemp -d /tmp/rl-conn-XXXXXX)
cleanup() { rl_server_stop immediate >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -30 "$RL_LOG" >&2; exit 1; }

nchildren() { ps -o pid= --ppid "$RL_PID" | wc -l; }
nfds() { ls "/proc/$RL_PID/fd" | wc -l; }
# settle: children and descriptors stop changing once the pool is topped up
settle() { sleep 1; }
# wait_children N: until the postmaster has exactly N children (exiting backends are slow under ASan)
wait_children()
{
	tries=100
	while [ "$(nchildren)" -ne "$1" ] && [ $tries -gt 0 ]; do sleep 0.1; tries=$((tries - 1)); done
	[ "$(nchildren)" -eq "$1" ]
}

rl_server_start "$tmp/data" -c spare_backends=3
trap cleanup EXIT
settle
children0=$(nchildren)
fds0=$(nfds)
[ "$children0" -eq 4 ] || fail "expected the writer and 3 spares, found $children0 children"

# --- 100 sessions: 50 over TCP with the raw client, 25 pg_isready over TCP, 25 over the Unix socket ---
python3 "$pgraw" connect 127.0.0.1 "$RL_PORT" 50 >/dev/null || fail "raw sessions"
i=0
while [ $i -lt 25 ]; do
	"$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" >/dev/null || fail "pg_isready $i"
	"$PG_ISREADY" -h "$RL_SOCKDIR" -p "$RL_PORT" >/dev/null || fail "pg_isready (Unix socket) $i"
	i=$((i + 1))
done
wait_children "$children0" || fail "children: $children0 before, $(nchildren) after"
[ "$(nfds)" -eq "$fds0" ] || fail "postmaster descriptors: $fds0 before, $(nfds) after"
[ "$(ps -o pid= --ppid "$RL_PID" -o stat= | grep -c Z || true)" -eq 0 ] || fail "zombies"
echo "ok: 100 sessions leave $children0 children and $fds0 descriptors"

# --- max_connections=5: the sixth session is refused by the postmaster ---
rl_server_stop fast || fail "stop"
rl_server_start "$tmp/data" -c spare_backends=3 -c max_connections=5
settle
children0=$(nchildren)
fds0=$(nfds)
pids=""
for n in 1 2 3 4 5; do
	python3 "$pgraw" hold 127.0.0.1 "$RL_PORT" 20 >"$tmp/hold$n.out" &
	pids="$pids $!"
done
started() { grep -l '^PID' "$tmp"/hold*.out 2>/dev/null | wc -l; }
tries=150	# the holders connect at once; forking replacements is slow under ASan on a busy machine
while [ "$(started)" -lt 5 ] && [ $tries -gt 0 ]; do sleep 0.1; tries=$((tries - 1)); done
[ "$(started)" -eq 5 ] || fail "five sessions did not start"
out=$(psql -X "host=127.0.0.1 port=$RL_PORT user=x dbname=x sslmode=disable" -c 'select 1' 2>&1 || true)
echo "$out" | grep -q 'sorry, too many clients already' || fail "sixth session: $out"
"$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" >/dev/null || fail "pg_isready with a full server is not 0"
echo "ok: max_connections -> 53300"

# --- cancel routing ---
read -r _ pid _ key < "$tmp/hold1.out"
python3 "$pgraw" cancel 127.0.0.1 "$RL_PORT" "$pid" $((key + 1)) || fail "cancel with a wrong key"
python3 "$pgraw" cancel 127.0.0.1 "$RL_PORT" 1 "$key" || fail "cancel with a wrong pid"
sleep 0.5
grep -q "wrong key in cancel request for process $pid" "$RL_LOG" || fail "wrong key not logged"
grep -q "PID 1 in cancel request did not match any process" "$RL_LOG" || fail "wrong PID not logged"
# the right key while the session is idle: a no-op, the session lives on
python3 "$pgraw" cancel 127.0.0.1 "$RL_PORT" "$pid" "$key" || fail "cancel"
sleep 0.5
kill -0 "$pid" || fail "cancel of an idle session ended it"
for p in $pids; do
	kill "$p" 2>/dev/null || true
	wait "$p" 2>/dev/null || true
done
echo "ok: cancel requests routed by PID and key"

# --- garbage ---
python3 "$pgraw" garbage 127.0.0.1 "$RL_PORT" >"$tmp/garbage.out" 2>&1 || { cat "$tmp/garbage.out"; fail "garbage"; }
grep -q 'invalid length of startup packet' "$RL_LOG" || fail "bad length not logged"
kill -0 "$RL_PID" || fail "postmaster died"
grep -q 'terminating any other active server processes' "$RL_LOG" && fail "garbage crashed a backend"
"$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" >/dev/null || fail "not accepting after garbage"
wait_children "$children0" || fail "children after garbage: $(nchildren), before: $children0"
[ "$(nfds)" -eq "$fds0" ] || fail "postmaster descriptors after garbage: $(nfds)"
echo "ok: malformed first packets"

# --- a flood of connections that never send a byte: the oldest are closed to make room,
# so they cannot lock out a client that talks (the pending table holds 2 x max_connections + 16) ---
timeout 60 python3 "$pgraw" flood 127.0.0.1 "$RL_PORT" 400 >"$tmp/flood.out" 2>&1 || { cat "$tmp/flood.out"; fail "flood"; }
grep -q 'session after 400 silent connections' "$tmp/flood.out" || fail "flood: $(cat "$tmp/flood.out")"
"$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" >/dev/null || fail "not accepting after a flood"
echo "ok: $(cat "$tmp/flood.out")"
# --- warm statements: a session's statements are left for the spares to compile and
# its queries for them to parse (the idle ones do it again once the file changed); a
# hint about a dropped database, or a broken one, costs a session nothing ---
q() { psql -X -q -At -h 127.0.0.1 -p "$RL_PORT" "$@"; }
warm=$tmp/data/rl_warm_statements
q -d postgres -c "CREATE DATABASE warmdb" -c "CREATE TABLE early (k int primary key, v text)" || fail "create warmdb"
q -d warmdb -c "CREATE TABLE t(k int primary key, v text)" -c "INSERT INTO t VALUES (1, 'a')" \
	-c "SELECT v FROM t WHERE k = 1" >/dev/null || fail "warmdb session"
sleep 0.5
grep -q 'FROM main."t"' "$warm" || fail "the session's statements were not left in $warm"
grep -q '^SELECT v FROM t WHERE k = 1$' "$warm" || fail "the session's queries were not left in $warm"
q -d postgres -c "SELECT 1" >/dev/null || fail "a health check"
sleep 0.5
grep -q 'FROM main."t"' "$warm" || fail "a session that compiled next to nothing replaced the hint"
# a long session on another database leaves its hint once it compiled enough, before it ends
set --
cond="k = 0"
for i in $(seq 1 20); do cond="$cond OR k = $i"; set -- "$@" -c "SELECT v FROM early WHERE $cond"; done
q -d postgres "$@" -c "SELECT pg_sleep(3)" >/dev/null &
long_session=$!
sleep 1.5
grep -q 'FROM main."early"' "$warm" || fail "a long session did not leave its hint before its end"
wait "$long_session"
q -d postgres -c "DROP TABLE early" >/dev/null || fail "drop early"
for i in 1 2 3 4; do
	[ "$(q -d warmdb -c "SELECT v FROM t WHERE k = 1")" = a ] || fail "warmed session $i"
done
# a DELETE without WHERE compiled while warming up still deletes row by row, captured
q -d warmdb -c "INSERT INTO t VALUES (2, 'b')" -c "DELETE FROM t" >/dev/null || fail "delete all"
sleep 1.5	# the idle backends compile it
q -d warmdb -c "INSERT INTO t VALUES (3, 'c')" -c "DELETE FROM t" >/dev/null || fail "delete all, warmed"
[ "$(q -d warmdb -c "SELECT count(*) FROM t")" = 0 ] || fail "a warmed DELETE without WHERE kept its rows"
q -d postgres -c "DROP DATABASE warmdb" || fail "drop warmdb"
for i in 1 2 3 4; do
	[ "$(q -d postgres -c "SELECT 1")" = 1 ] || fail "session $i after the warmed database was dropped"
done
printf '7\n99999\nSELECT\n' >"$warm"
for i in 1 2 3 4; do
	[ "$(q -d postgres -c "SELECT 2")" = 2 ] || fail "session $i after a broken hint"
done
printf '1\nQ9\nSELECT ((\nS8\nSELECT (\nQ6\nSELECT\nQ99999\nSELECT\n' >"$warm"
sleep 1.5	# the idle backends read it again
for i in 1 2 3 4; do
	[ "$(q -d postgres -c "SELECT 2")" = 2 ] || fail "session $i after a broken hint"
done
grep -q 'terminating any other active server processes' "$RL_LOG" && fail "a warm-up crashed a backend"
echo "ok: warm statements"
rl_server_stop fast || fail "stop"
echo PASS
