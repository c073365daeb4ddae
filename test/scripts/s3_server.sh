#!/bin/sh
# s3_server.sh: the whole server on an S3 store (versitygw), through a proxy that plays
# an object store's faults (s3_fault_proxy.py), and the server coming back by itself:
#  1. started during an outage: clients are refused with 57P03 (pg_isready says
#     "rejecting") while the writer is started again and again; when the store comes
#     back the server serves, with no hand;
#  2. an outage while running: commits fail with an error, and once the writer has
#     not been able to confirm it still owns the store for store_check_timeout, reads
#     fail with 58030 and new connections with 57P03; when the store comes back,
#     commits, reads and connections resume on their own, and every acknowledged
#     commit is there;
#  3. responses lost on the way back from every PUT: each commit is resolved by its
#     put id (the object is ours), none is reported failed, the lone writer never
#     believes it was fenced;
#  4. a restart reads everything back;
#  5. a second server on the same bucket fences the first while it commits: the
#     first shuts down for good (exit 3), and the second holds every commit the first
#     acknowledged (versitygw's conditional writes are atomic, so the race is real).
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients

workdir=$(mktemp -d /tmp/rl-s3srv-XXXXXX)
. "$top_srcdir/test/scripts/versitygw.sh"
proxy_pid=
second_pid=
cleanup()
{
	rl_server_stop immediate >/dev/null 2>&1 || true
	[ -z "$second_pid" ] || kill -QUIT "$second_pid" 2>/dev/null || true
	[ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null || true
	rl_stop_versitygws
	rm -rf "$workdir"
}
# rl_server_start sets its own EXIT trap, which runs RL_ON_EXIT after stopping the server
RL_ON_EXIT=cleanup
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*" >&2; tail -40 "$RL_LOG" >&2; exit 1; }

export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
rl_start_versitygw s3 lake
s3_port=${endpoint##*:}
proxy_port=$(rl_free_port)
mode_file=$workdir/proxy.mode
weather() { echo "$1" >"$mode_file"; }
weather down
python3 "$top_srcdir/test/scripts/s3_fault_proxy.py" "$proxy_port" "$s3_port" "$mode_file" \
	>"$workdir/proxy.out" 2>&1 &
proxy_pid=$!
rl_wait_http "http://127.0.0.1:$s3_port/" 10 || fail "versitygw went away"
tries=50
until grep -q listening "$workdir/proxy.out"; do
	tries=$((tries - 1)); [ "$tries" -gt 0 ] || fail "the proxy did not start"; sleep 0.1
done
export AWS_ENDPOINT_URL=http://127.0.0.1:$proxy_port

# isready: pg_isready's exit status (0 accepting, 1 rejecting, 2 no response)
isready() { "$PG_ISREADY" -h 127.0.0.1 -p "$RL_PORT" -t 5 >/dev/null 2>&1 && echo 0 || echo $?; }
# until_ok SECONDS COMMAND...: run COMMAND every 0.5 s until it succeeds
until_ok()
{
	tries=$(($1 * 2))
	shift
	until "$@" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.5
	done
}
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -d lake -c "$1"; }

# --- 1. started during an outage ---
RL_NO_WAIT=1 rl_server_start "$workdir/data" -c store=s3://lake/server -c store_check_timeout=3
sleep 4
[ "$(isready)" = 1 ] || fail "pg_isready says $(isready) during an outage at start, expected 1 (rejecting)"
grep -q 'writer process could not start; starting it again' "$RL_LOG" || fail "the writer start was not retried"
kill -0 "$RL_PID" 2>/dev/null || fail "the postmaster exited during an outage at start"
weather pass
rl_wait_pidfile "$RL_DATADIR" ready 60 || fail "the server did not come up when the store came back"
[ "$(isready)" = 0 ] || fail "pg_isready after the store came back"
echo "ok: started during an outage, serving once the store came back"

psql -X -q -d postgres -c 'CREATE DATABASE lake' || fail "create database"
sql 'CREATE TABLE t (id int PRIMARY KEY)' || fail "create table"
for i in 1 2 3; do sql "INSERT INTO t VALUES ($i)" || fail "insert $i"; done

# --- 2. an outage while running ---
writer_before=$(grep -c 'LOG:  writer ready' "$RL_LOG")
# a session opened before the outage reads once it is told to (the file "go")
"$top_srcdir/.venv/bin/python" - "$RL_PORT" "$workdir" >"$workdir/read.out" 2>&1 <<'PY' &
import os, sys, time
import psycopg
port, workdir = sys.argv[1], sys.argv[2]
with psycopg.connect(f"host=127.0.0.1 port={port} dbname=lake user=rocklake", autocommit=True) as conn:
    print("connected", flush=True)
    while not os.path.exists(os.path.join(workdir, "go")):
        time.sleep(0.1)
    try:
        print("read", conn.execute("SELECT count(*) FROM t").fetchone()[0])
    except psycopg.Error as e:
        print(e.sqlstate, e.diag.message_primary)
PY
reader=$!
until_ok 20 grep -q connected "$workdir/read.out" || fail "the reading session: $(cat "$workdir/read.out")"
weather down
sql 'INSERT INTO t VALUES (100)' >"$workdir/outage.out" 2>&1 && fail "a commit succeeded during an outage"
grep -q 'ERROR' "$workdir/outage.out" || fail "no error for a commit during an outage: $(cat "$workdir/outage.out")"
sleep 4
touch "$workdir/go"
wait "$reader" || fail "the reading session failed: $(cat "$workdir/read.out")"
grep -q '^58030 could not confirm that the catalog is current' "$workdir/read.out" ||
	fail "a read during the outage: $(cat "$workdir/read.out")"
[ "$(isready)" = 1 ] || fail "pg_isready says $(isready) during an outage, expected 1 (rejecting)"
kill -0 "$RL_PID" 2>/dev/null || fail "the postmaster exited during an outage"
weather pass
until_ok 60 sql 'INSERT INTO t VALUES (4)' || fail "commits did not resume after the outage"
[ "$(isready)" = 0 ] || fail "pg_isready after the outage"
for i in 1 2 3 4; do
	[ "$(sql "SELECT count(*) FROM t WHERE id = $i")" = 1 ] || fail "acknowledged row $i is missing"
done
grep -q 'terminating any other active server processes' "$RL_LOG" && fail "the outage was handled as a crash"
[ "$(grep -c 'LOG:  writer ready' "$RL_LOG")" = "$writer_before" ] || fail "the writer was restarted"
echo "ok: an outage while running: commits and reads refused meanwhile, resumed on their own"

# --- 3. every PUT's response lost on its way back ---
weather lose-puts
for i in $(seq 10 29); do sql "INSERT INTO t VALUES ($i)" || fail "commit $i failed with lost responses"; done
weather pass
[ "$(sql 'SELECT count(*) FROM t WHERE id BETWEEN 10 AND 29')" = 20 ] || fail "rows of the lost responses"
grep -q 'lost the store\|was fenced' "$RL_LOG" && fail "a lone writer believed it was fenced"
lost=$(grep -c '^lost the response to .*/wal/' "$workdir/proxy.out" || true)
[ "$lost" -ge 20 ] || fail "only $lost WAL responses were lost"
echo "ok: lost PUT responses resolved by their put id"

# --- 4. a restart reads it all back from the store ---
rl_server_stop fast || fail "stop"
rl_server_start "$workdir/data" -c store=s3://lake/server -c store_check_timeout=3
[ "$(sql 'SELECT count(*) FROM t WHERE id <> 100')" = 24 ] || fail "rows after a restart: $(sql 'SELECT id FROM t')"
echo "ok: a restart reads it all back"

# --- 5. a second server on the same bucket fences the first while it commits ---
i=1000
while sql "INSERT INTO t VALUES ($i)" 2>/dev/null; do echo "$i" >>"$workdir/acked"; i=$((i + 1)); done &
committer=$!
until_ok 20 test -s "$workdir/acked" || fail "the first server's commits did not start"
first_pid=$RL_PID
port2=$(rl_free_port)
mkdir -p "$workdir/data2"
"$RL_BIN" -D "$workdir/data2" -p "$port2" -h 127.0.0.1 -k "$workdir/data2" -U rocklake \
	-c store=s3://lake/server -c store_check_timeout=3 </dev/null >"$workdir/data2.log" 2>&1 &
second_pid=$!
rl_wait_pidfile "$workdir/data2" ready 30 || { cat "$workdir/data2.log" >&2; fail "the second server did not start"; }
wait "$committer" || true
until_ok 20 grep -q 'lost the store to another server' "$RL_LOG" || fail "the first server did not notice the fence"
until_ok 20 sh -c "! kill -0 $first_pid 2>/dev/null" || fail "the fenced server still runs"
wait "$first_pid" && rc=0 || rc=$?
RL_PID=
[ "$rc" = 3 ] || fail "the fenced server exited $rc, expected 3"
acked=$(wc -l <"$workdir/acked")
for id in $(cat "$workdir/acked"); do
	[ "$(PGPORT=$port2 sql "SELECT count(*) FROM t WHERE id = $id")" = 1 ] ||
		fail "row $id, acknowledged by the fenced server, is missing"
done
PGPORT=$port2 sql 'INSERT INTO t VALUES (5000)' || fail "the second server does not commit"
kill -INT "$second_pid"
wait "$second_pid" || fail "the second server's exit status"
second_pid=
echo "ok: the fenced server stopped, the second holds its $acked acknowledged commits"
echo PASS
