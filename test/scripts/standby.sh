#!/bin/sh
# standby.sh: a standby on the store another server writes, and its promotion.
#  1. A server whose data directory holds standby.signal follows the store: it
#     serves reads at the newest commit it has applied (rows, a new table, a new
#     database, DuckDB's ATTACH ... (READ_ONLY) of a lake and its time travel), and
#     every transaction is read-only as on a PostgreSQL hot standby:
#     pg_is_in_recovery(), transaction_read_only on, writes 25006, READ WRITE 0A000,
#     rocklake_gc() 25006. It never writes to the store: the writer it follows keeps
#     committing, unfenced. Compaction and garbage collection under it (store_gc_grace
#     1 s) do not disturb its reads, nor does a restart after GC took what it had read.
#  2. pg_ctl promote (stock pg_ctl 15: the promote file, SIGUSR1, then pg_control's
#     state) makes it the writer: the old server is fenced at its next commit and
#     shuts down, the promoted one has every commit the old one acknowledged and
#     takes writes; standby.signal is gone.
# With STANDBY_S3=1 (standby_s3.sh) both servers keep the store on a real S3 server
# (versitygw), else in the first server's data directory. There the standby has
# read-only credentials (a user whose writes the server refuses) until it is
# promoted: promotion needs credentials that may write.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients
PG_CTL=$PG_BINDIR/pg_ctl
[ -x "$PG_CTL" ] || rl_skip_or_fail "pg_ctl not found in $PG_BINDIR"
python=$top_srcdir/.venv/bin/python
"$python" -c 'import duckdb' 2>/dev/null || rl_skip_or_fail "DuckDB not installed in .venv (run contrib/install-deps.sh --test)"

tmp=$(mktemp -d /tmp/rl-standby-XXXXXX)
workdir=$tmp
standby_pid=
versitygw_pids=
cleanup()
{
	rl_server_stop immediate >/dev/null 2>&1 || true
	[ -n "$standby_pid" ] && kill -QUIT "$standby_pid" 2>/dev/null
	[ -z "$versitygw_pids" ] || rl_stop_versitygws
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}
RL_ON_EXIT=cleanup
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -20 "$RL_LOG" >&2; tail -30 "$tmp/standby.log" >&2; exit 1; }

if [ -n "${STANDBY_S3:-}" ]; then
	. "$top_srcdir/test/scripts/versitygw.sh"
	export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
	rl_start_versitygw s3 lake
	rl_versitygw_reader lake reader readersecret
	export AWS_ENDPOINT_URL=$endpoint ROCKLAKE_S3_PATH_STYLE=1
	store=s3://lake/catalog
	standby_env="AWS_ACCESS_KEY_ID=reader AWS_SECRET_ACCESS_KEY=readersecret"
	rl_server_start "$tmp/primary" -c store="$store" -c store_gc_grace=1
else
	store=$tmp/primary/store
	rl_server_start "$tmp/primary" -c store_gc_grace=1
	standby_env=
fi
primary_pid=$RL_PID
sport=$(rl_free_port)
mport=$(rl_free_port)
mkdir -p "$tmp/standby"
touch "$tmp/standby/standby.signal"
start_standby()
{
	env $standby_env "$RL_BIN" -D "$tmp/standby" -p "$sport" -h 127.0.0.1 -k "$tmp/standby" -U "$PGUSER" -c store="$store" \
		-c standby_poll_interval=50 -c standby_poll_max_interval=200 -c metrics_listen_address=127.0.0.1:$mport \
		</dev/null >>"$tmp/standby.log" 2>&1 &
	standby_pid=$!
	rl_wait_pidfile "$tmp/standby" ready 30 || fail "standby did not start"
}
start_standby

P() { psql -X -q -v ON_ERROR_STOP=1 -At -h 127.0.0.1 -p "$RL_PORT" "$@"; }
S() { psql -X -q -At -h 127.0.0.1 -p "$sport" "$@" 2>&1; }
# eventually N SQL EXPECTED: the standby answers SQL with EXPECTED within N seconds
eventually()
{
	tries=$(($1 * 10))
	until [ "$(S -d "$2" -c "$3")" = "$4" ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || fail "standby: '$3' on $2 gave '$(S -d "$2" -c "$3")', expected '$4'"
		sleep 0.1
	done
}

# --- 1. it follows, read-only ---
P -c "CREATE DATABASE lake"
P -d lake -c "CREATE TABLE t (k integer PRIMARY KEY, v text)" -c "INSERT INTO t VALUES (1, 'one')"
eventually 10 lake "SELECT count(*) FROM t" 1
P -d lake -c "INSERT INTO t SELECT g, 'n' || g FROM generate_series(2, 50) g"
eventually 5 lake "SELECT count(*), sum(k) FROM t" "50|1275"
[ "$(S -d lake -c "SELECT pg_is_in_recovery()")" = t ] || fail "pg_is_in_recovery() is not true"
[ "$(S -d lake -c "SHOW transaction_read_only")" = on ] || fail "transaction_read_only is not on"
[ "$(S -d lake -c "SHOW in_hot_standby")" = on ] || fail "in_hot_standby is not on"
# its lag: when the newest commit it applied was written, here and in the metrics
[ "$(S -d lake -c "SELECT now() - pg_last_xact_replay_timestamp() BETWEEN interval '-5 s' AND interval '1 min'")" = t ] ||
	fail "pg_last_xact_replay_timestamp() is $(S -d lake -c "SELECT pg_last_xact_replay_timestamp()")"
[ -z "$(P -d lake -c "SELECT pg_last_xact_replay_timestamp()")" ] || fail "the writer reports a replay time"
metrics=$(curl -sf "http://127.0.0.1:$mport/metrics") || fail "no metrics from the standby"
echo "$metrics" | grep -qx "rocklake_in_recovery 1" || fail "rocklake_in_recovery is not 1"
echo "$metrics" | grep -q "^rocklake_standby_last_replay_timestamp_seconds 1[0-9]*\.[0-9]*$" ||
	fail "no replay time in the metrics: $(echo "$metrics" | grep replay)"
# libpq's target_session_attrs reads in_hot_standby: a read-write session is not served here
psql -X -At "host=127.0.0.1 port=$sport dbname=lake target_session_attrs=read-write" -c "SELECT 1" 2>&1 |
	grep -q "session is read-only" || fail "target_session_attrs=read-write was accepted by the standby"
S -d lake -c "INSERT INTO t VALUES (99, 'x')" | grep -q "cannot execute INSERT in a read-only transaction" ||
	fail "a write on the standby was not refused"
S -d lake -c "CREATE TABLE u (k integer)" | grep -q "cannot execute CREATE TABLE in a read-only transaction" ||
	fail "DDL on the standby was not refused"
S -d lake -c "BEGIN READ WRITE" | grep -q "cannot set transaction read-write mode during recovery" ||
	fail "READ WRITE on the standby was not refused"
S -c "CREATE DATABASE other" | grep -q "cannot execute CREATE DATABASE in a read-only transaction" ||
	fail "CREATE DATABASE on the standby was not refused"
S -d lake -c "SELECT rocklake_gc()" | grep -q "cannot execute rocklake_gc() during recovery" ||
	fail "rocklake_gc() on the standby was not refused"
S -d lake -c "CHECKPOINT" >/dev/null
S -d lake -c "SELECT pg_promote(true, 0)" | grep -q '"wait_seconds" must not be negative or zero' ||
	fail "pg_promote's wait_seconds was not checked"
P -d lake -c "SELECT pg_promote()" 2>&1 | grep -q "recovery is not in progress" ||
	fail "pg_promote() on the writer was not refused"
# it writes nothing to the store: with the writer idle, nothing there changes
if [ -z "${STANDBY_S3:-}" ]; then
	objects() { find "$store" -type f ! -name .writer.lock -printf '%p %s %T@\n' | sort; }
	before=$(objects)
	S -d lake -c "SELECT count(*) FROM t" >/dev/null
	sleep 1
	[ "$(objects)" = "$before" ] || fail "the store changed while only the standby ran"
fi
# compaction and GC under it: the writer deletes what no manifest needs a second later
deleted=0
churn()
{
	P -d lake -c "INSERT INTO t SELECT g, 'r' || g FROM generate_series($1, $1 + 49) g" -c CHECKPOINT \
		-c "SELECT rocklake_compact()" >/dev/null
	sleep 1.2
	n=$(P -d lake -c "SELECT rocklake_gc()" | sed -n 's/.*"deleted": \([0-9]*\).*/\1/p')
	deleted=$((deleted + ${n:-0}))
}
for i in 1 2 3 4; do
	churn $((i * 100))
	S -d lake -c "SELECT count(*) FROM t" | grep -qx "[0-9]*" || fail "a read on the standby failed under GC"
done
[ "$deleted" -gt 0 ] || fail "GC deleted nothing: the test shows nothing"
eventually 10 lake "SELECT count(*), sum(k) FROM t" "$(P -d lake -c "SELECT count(*), sum(k) FROM t")"
# stopped while GC takes what it had read, it starts again from the newest manifest
kill -INT "$standby_pid"
wait "$standby_pid" || true
churn 500
churn 600
start_standby
eventually 10 lake "SELECT count(*), sum(k) FROM t" "$(P -d lake -c "SELECT count(*), sum(k) FROM t")"
echo "ok: the standby reads through compaction and GC ($deleted objects deleted), and after a restart"
# the writer it follows was not fenced: it still commits
P -d lake -c "UPDATE t SET v = 'uno' WHERE k = 1"
eventually 5 lake "SELECT v FROM t WHERE k = 1" uno
if [ -n "$standby_env" ]; then
	# with credentials that may not write, it never tried (nothing was refused)
	! grep -q "AccessDenied\|403" "$tmp/standby.log" || fail "the standby tried to write the store"
	echo "ok: the standby follows with read-only credentials"
fi
echo "ok: the standby follows the writer, read-only, and never fences it"

# DuckDB: a lake written through the writer, read through the standby (READ_ONLY)
P -c "CREATE DATABASE ducklake_meta"
cat >"$tmp/lake.py" <<EOF
import sys
sys.path.insert(0, "$top_srcdir/test/duckdb")
import duckdb_offline
mode, port = sys.argv[1], sys.argv[2]
con = duckdb_offline.connect()
opts = "DATA_PATH '$tmp/lakedata'" + (", READ_ONLY" if mode == "read" else "")
con.execute(f"ATTACH 'ducklake:postgres:host=127.0.0.1 port={port} dbname=ducklake_meta user=$PGUSER' AS l ({opts})")
if mode == "write":
    con.execute("CREATE TABLE l.f (i INTEGER, s VARCHAR)")
    con.execute("INSERT INTO l.f SELECT i, 'v' || i FROM range(100) r(i)")
    con.execute("DELETE FROM l.f WHERE i % 10 = 0")
elif mode == "append":
    con.execute("INSERT INTO l.f VALUES (1000, 'x')")
    print(con.execute("SELECT count(*) FROM l.f").fetchone())
else:
    print(con.execute("SELECT count(*), sum(i) FROM l.f").fetchone(),
          con.execute("SELECT count(*) FROM l.f AT (VERSION => 2)").fetchone(),
          con.execute("SELECT count(*) FROM ducklake_snapshots('l')").fetchone())
EOF
"$python" "$tmp/lake.py" write "$RL_PORT" || fail "DuckDB could not write the lake"
want=$("$python" "$tmp/lake.py" read "$RL_PORT") || fail "DuckDB could not read the lake on the writer"
tries=50
until got=$("$python" "$tmp/lake.py" read "$sport" 2>&1) && [ "$got" = "$want" ]; do
	tries=$((tries - 1))
	[ "$tries" -gt 0 ] || fail "DuckDB on the standby read '$got', on the writer '$want'"
	sleep 0.2
done
echo "ok: DuckDB reads the lake through the standby as through the writer ($got)"

# --- 2. promotion ---
if [ -n "$standby_env" ]; then
	# a writer needs credentials that may write: restarted with them, still a standby
	kill -INT "$standby_pid"
	wait "$standby_pid" || true
	standby_env=
	start_standby
fi
P -d lake -c "INSERT INTO t VALUES (51, 'last')"
expected=$(P -d lake -c "SELECT count(*), sum(k) FROM t")
"$PG_CTL" promote -D "$tmp/standby" -t 30 >"$tmp/promote.out" 2>&1 ||
	{ cat "$tmp/promote.out" >&2; fail "pg_ctl promote failed"; }
grep -q "server promoted" "$tmp/promote.out" || fail "pg_ctl did not see the promotion: $(cat "$tmp/promote.out")"
[ ! -e "$tmp/standby/standby.signal" ] || fail "standby.signal is still there"
"$PG_BINDIR/pg_controldata" "$tmp/standby" 2>&1 | grep -q "^Database cluster state: *in production$" ||
	fail "pg_controldata: $("$PG_BINDIR/pg_controldata" "$tmp/standby" 2>&1 | head -5)"
grep -q 'took over store .* from the server that was writing it' "$tmp/standby.log" ||
	fail "the promoted server did not say it took the store over from a live writer"
[ "$(S -d lake -c "SELECT pg_is_in_recovery()")" = f ] || fail "still in recovery after promotion"
[ "$(S -d lake -c "SHOW in_hot_standby")" = off ] || fail "in_hot_standby is still on after promotion"
[ "$(S -d lake -c "SELECT count(*), sum(k) FROM t")" = "$expected" ] ||
	fail "the promoted server lost commits: $(S -d lake -c "SELECT count(*), sum(k) FROM t"), expected $expected"
S -d lake -c "INSERT INTO t VALUES (52, 'promoted')" | grep -q "INSERT 0 1" || true
[ "$(S -d lake -c "SELECT v FROM t WHERE k = 52")" = promoted ] || fail "the promoted server does not take writes"
# the old writer is fenced at its next commit and shuts down for good
P -d lake -c "INSERT INTO t VALUES (53, 'stale')" >/dev/null 2>&1 && fail "the old writer committed after promotion"
tries=150
while kill -0 "$primary_pid" 2>/dev/null && [ $tries -gt 0 ]; do sleep 0.1; tries=$((tries - 1)); done
kill -0 "$primary_pid" 2>/dev/null && fail "the fenced old writer is still running"
RL_PID=
[ "$(S -d lake -c "SELECT count(*) FROM t WHERE k = 53")" = 0 ] || fail "the old writer's last commit exists"
[ "$("$python" "$tmp/lake.py" append "$sport")" = "(91,)" ] || fail "DuckDB cannot write through the promoted server"
kill -INT "$standby_pid"
wait "$standby_pid" || fail "promoted server exit status"
standby_pid=
echo "ok: pg_ctl promote: the standby writes, the old writer is fenced, nothing acknowledged is lost"
echo PASS
