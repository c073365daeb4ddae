#!/bin/sh
# server_crash.sh: crash handling as in PostgreSQL. A backend killed with SIGKILL
# makes the postmaster end every other backend (their clients get WARNING 57P02 or
# a closed connection), restart the writer and the pool, and serve again. A killed
# idle backend is just replaced. A killed writer resets the same way, and a commit
# it answered before making it visible is there after the reset. An immediate
# shutdown (SIGQUIT) gives clients 57P01.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients
pgraw=$top_srcdir/test/scripts/pgraw.py

tmp=$(mktemp -d /tmp/rl-crash-XXXXXX)
second_pid=
cleanup()
{
	rl_server_stop immediate >/dev/null 2>&1 || true
	[ -n "$second_pid" ] && kill -QUIT "$second_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -30 "$RL_LOG" >&2; exit 1; }

children() { ps -o pid= --ppid "$RL_PID" | tr -d ' ' | sort; }
# the writer logs "[PID] LOG:  writer ready" each time it starts
writer_pid() { grep -o '\[[0-9]*\] LOG:  writer ready' "$RL_LOG" | tail -1 | tr -dc '0-9'; }
# generous: under a parallel "make check" other tests saturate the disk with fsyncs
wait_ready() { rl_wait_pidfile "$RL_DATADIR" ready 30 && "$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" -t 10 >/dev/null; }
# wait_for FILE PATTERN SECONDS
wait_for()
{
	tries=$(($3 * 10))
	until grep -q "$2" "$1" 2>/dev/null; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

rl_server_start "$tmp/data" -c spare_backends=2
trap cleanup EXIT

# --- a killed idle backend is replaced, nobody else is touched ---
python3 "$pgraw" hold 127.0.0.1 "$RL_PORT" 30 >"$tmp/bystander0.out" &
sleep 1
bystander_pid=$(awk '/^PID/ {print $2}' "$tmp/bystander0.out")
[ -n "$bystander_pid" ] || fail "no session"
# idle backends: the children that are neither the session's backend nor the writer
idle=""
for c in $(children); do
	[ "$c" = "$bystander_pid" ] || [ "$c" = "$(writer_pid)" ] || idle=$c
done
[ -n "$idle" ] || fail "no idle backend found"
kill -9 "$idle"
wait_for "$RL_LOG" "idle backend process (PID $idle) was terminated by signal 9" 5 || fail "idle kill not logged"
sleep 0.5
kill -0 "$bystander_pid" || fail "killing an idle backend ended a session"
grep -q 'terminating any other active server processes' "$RL_LOG" && fail "idle kill caused a reset"
echo "ok: killed idle backend replaced"

# --- a killed active backend resets everything ---
python3 "$pgraw" hold 127.0.0.1 "$RL_PORT" 30 >"$tmp/victim.out" &
sleep 1
victim=$(awk '/^PID/ {print $2}' "$tmp/victim.out")
[ -n "$victim" ] || fail "no victim session"
kill -9 "$victim"
wait_for "$RL_LOG" "server process (PID $victim) was terminated by signal 9" 5 || fail "crash not logged"
wait_for "$RL_LOG" 'terminating any other active server processes' 5 || fail "no reset"
wait_for "$tmp/bystander0.out" '57P02\|^EOF' 10 || fail "bystander was not told: $(cat "$tmp/bystander0.out")"
grep -q 'WARNING 57P02' "$tmp/bystander0.out" || echo "note: bystander saw a closed connection, not 57P02"
wait_for "$RL_LOG" 'all server processes terminated; reinitializing' 10 || fail "no reinit"
wait_ready || fail "not serving after the reset"
python3 "$pgraw" connect 127.0.0.1 "$RL_PORT" 3 >/dev/null || fail "sessions after the reset"
echo "ok: killed backend -> others get 57P02, server restarts and serves"

# --- a killed writer resets the same way ---
writer=$(writer_pid)
kill -0 "$writer" || fail "writer pid $writer not alive"
kill -9 "$writer"
wait_for "$RL_LOG" "writer process (PID $writer) was terminated by signal 9" 5 || fail "writer crash not logged"
wait_for "$RL_LOG" 'all server processes terminated; reinitializing' 10 || fail "no reinit after writer crash"
sleep 0.5
wait_ready || fail "not serving after the writer crash"
[ "$(grep -c 'writer ready' "$RL_LOG")" -ge 3 ] || fail "writer was not restarted"
echo "ok: killed writer -> reset and restart"

# --- immediate shutdown: 57P01 to the client ---
python3 "$pgraw" hold 127.0.0.1 "$RL_PORT" 30 >"$tmp/imm.out" &
sleep 1
grep -q '^PID' "$tmp/imm.out" || fail "no session before immediate shutdown"
rl_server_stop immediate || fail "immediate shutdown"
wait_for "$tmp/imm.out" '^EOF' 10 || fail "session not ended"
grep -q 'WARNING 57P01' "$tmp/imm.out" || fail "no 57P01 on immediate shutdown: $(cat "$tmp/imm.out")"
[ ! -e "$RL_DATADIR/postmaster.pid" ] || fail "postmaster.pid left after immediate shutdown"
echo "ok: immediate shutdown"

# --- fast shutdown: FATAL 57P01 ---
rl_server_start "$tmp/data"
python3 "$pgraw" hold 127.0.0.1 "$RL_PORT" 30 >"$tmp/fast.out" &
sleep 1
rl_server_stop fast || fail "fast shutdown"
wait_for "$tmp/fast.out" '^EOF' 10 || fail "session not ended"
grep -q 'FATAL 57P01 terminating connection due to administrator command' "$tmp/fast.out" ||
	fail "no 57P01 on fast shutdown: $(cat "$tmp/fast.out")"
grep -q 'aborting any active transactions' "$RL_LOG" || fail "no fast-shutdown LOG"
echo "ok: fast shutdown"

# --- answered before visible: the writer answers a commit once durable and makes it
# visible after debug_visible_delay; every snapshot taken after the answer sees it, and
# a writer killed in between loses nothing ---
rl_server_start "$tmp/data" -c debug_visible_delay=1500
count() { psql -X -At -q -d vis -c 'SELECT count(*) FROM t'; }
psql -X -q -c 'CREATE DATABASE vis' || fail "create database"
psql -X -q -d vis -c 'CREATE TABLE t (id int PRIMARY KEY)' || fail "create table"
psql -X -q -d vis -c 'INSERT INTO t VALUES (1)' || fail "insert"
[ "$(count)" = 1 ] || fail "a session started after a commit was answered did not see it"
[ "$(psql -X -At -q -d vis -c 'INSERT INTO t VALUES (2)' -c 'SELECT count(*) FROM t')" = 2 ] ||
	fail "the committing session did not see its commit"
writer=$(writer_pid)
psql -X -q -d vis -c 'INSERT INTO t VALUES (3)' || fail "insert before the kill"
kill -9 "$writer"
wait_for "$RL_LOG" 'all server processes terminated; reinitializing' 10 || fail "no reinit after writer kill"
wait_for "$RL_LOG" 'rebuilding the catalog cache' 10 || fail "the kill did not fall between answer and cache commit"
wait_ready || fail "not serving after the writer kill"
[ "$(count)" = 3 ] || fail "an answered commit was lost: $(count) rows"
rl_server_stop fast || fail "stop"
echo "ok: commits answered before the cache's commit are seen by later snapshots and survive a writer kill"

# --- a second server on the same store fences the first, which shuts down for good ---
rl_server_start "$tmp/data"
first_pid=$RL_PID
first_log=$RL_LOG
log_lines=$(wc -l < "$first_log")
port2=$(rl_free_port)
mkdir -p "$tmp/data2"
"$RL_BIN" -D "$tmp/data2" -p "$port2" -h 127.0.0.1 -k "$tmp/data2" -c store="$tmp/data/store" \
	</dev/null >"$tmp/data2.log" 2>&1 &
second_pid=$!
rl_wait_pidfile "$tmp/data2" ready 30 || fail "second server did not start"
wait_for "$first_log" 'lost the store to another server' 15 || fail "first server did not notice the fence"
grep -q 'took over store .* from the server that was writing it' "$tmp/data2.log" ||
	fail "the second server did not say it took the store over"
tries=100
while kill -0 "$first_pid" 2>/dev/null && [ $tries -gt 0 ]; do sleep 0.1; tries=$((tries - 1)); done
kill -0 "$first_pid" 2>/dev/null && fail "fenced server still running"
wait "$first_pid" && rc=0 || rc=$?
[ "$rc" = 3 ] || fail "fenced server exited $rc, expected 3 (POSTMASTER_EXIT_FENCED)"
tail -n +"$log_lines" "$first_log" | grep -q 'terminating any other active server processes\|reinitializing' &&
	fail "fenced writer was treated as a crash"
RL_PID=
kill -INT "$second_pid"
wait "$second_pid" || fail "second server exit status"
second_pid=
echo "ok: fenced writer -> server shuts down, no restart loop"
echo PASS
