#!/bin/sh
# admin_live.sh: rocklake-admin never hurts a live server.
#  1. a server on a local store: every command that writes the store (init, sample,
#     compact, gc) is refused with a message naming the server (the writer lock),
#     inspect and verify work, and the server keeps committing: nothing is lost;
#  2. the same store maintained through the server under a psql writer's load:
#     CHECKPOINT, rocklake_compact() and rocklake_gc() report what they did;
#  3. the server stopped, the same commands work;
#  4. a mistyped store is an error (only init creates one), --version;
#  5. a server on an S3 store (versitygw): the lease object refuses the same commands,
#     also while a killed server's lease has not lapsed, and they work once the
#     server has stopped and dropped its lease.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_admin_setup live
fail() { echo "FAIL: $*" >&2; tail -30 "$RL_LOG" >&2; exit 1; }
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -c "$1"; }
# expect FILE TEXT: the file holds the fixed string
expect() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "expected \"$2\""; }; }

# refused STORE: every writing command is refused, naming the server, and the
# store keeps its writer epoch (nothing fenced it)
refused()
{
	before=$("$admin" inspect "$1" --objects-only | sed -n 's/^writer epoch: *//p')
	for command in init sample compact gc; do
		if "$admin" "$command" "$1" >"$workdir/out.txt" 2>&1; then
			fail "rocklake-admin $command ran on a live store"
		fi
		expect "$workdir/out.txt" "is in use: refusing to take it over"
		expect "$workdir/out.txt" "rocklake on host"
		expect "$workdir/out.txt" "pid $RL_PID_WRITER"
		expect "$workdir/out.txt" "SELECT rocklake_compact()"
	done
	after=$("$admin" inspect "$1" --objects-only | sed -n 's/^writer epoch: *//p')
	[ "$before" = "$after" ] || fail "the writer epoch moved from $before to $after"
}

# writer_pid STORE: the pid the lease names, once it is a child of the postmaster
writer_pid()
{
	pid=$("$admin" inspect "$1" --objects-only | sed -n 's/^writer lease: .*, pid \([0-9]*\),.*/\1/p')
	[ -n "$pid" ] && [ "$(ps -o ppid= -p "$pid" | tr -d ' ')" = "$RL_PID" ] && echo "$pid"
}

# --- 1. a live server on a local store ---
store=$workdir/store
rl_server_start "$workdir/data" -c store="$store"
RL_PID_WRITER=$(writer_pid "$store") || fail "the lease does not name the writer process"
sql "CREATE TABLE t (i int)"
sql "INSERT INTO t VALUES (1)"
"$admin" inspect "$store" --objects-only >"$workdir/inspect.txt"
expect "$workdir/inspect.txt" "writer lease:   rocklake on host"
expect "$workdir/inspect.txt" "data directory $workdir/data"
refused "$store"
"$admin" verify "$store" >"$workdir/verify.txt" || fail "verify on a live store"
expect "$workdir/verify.txt" "all checksums match"
sql "INSERT INTO t VALUES (2)" || fail "the server stopped committing"
[ "$(sql 'SELECT sum(i) FROM t')" = 3 ] || fail "rows lost"
echo "ok: writing commands refused on a live local store, the server serves on"

# --- 2. maintenance through the server, under a writer's load ---
(
	i=10
	while [ $i -lt 60 ]; do
		psql -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO t VALUES ($i)" || exit 1
		i=$((i + 1))
	done
) >"$workdir/load.out" 2>&1 &
load=$!
sql "CHECKPOINT" || fail "CHECKPOINT"
sql "SELECT rocklake_compact()" >"$workdir/compact.txt" || fail "rocklake_compact()"
expect "$workdir/compact.txt" '"task": "compact"'
expect "$workdir/compact.txt" '"l0_ssts": 0, "sorted_runs": 1'
sql "SELECT rocklake_gc()" >"$workdir/gc.txt" || fail "rocklake_gc()"
expect "$workdir/gc.txt" '"task": "gc"'
wait "$load" || { cat "$workdir/load.out" >&2; fail "the load's inserts failed"; }
[ "$(sql 'SELECT count(*), sum(i) FROM t')" = "52|1728" ] || fail "rows lost: $(sql 'SELECT count(*), sum(i) FROM t')"
echo "ok: CHECKPOINT, rocklake_compact() and rocklake_gc() through psql under load"

# --- 3. the server stopped: the same commands work ---
rl_server_stop fast
"$admin" inspect "$store" --objects-only >"$workdir/inspect.txt"
expect "$workdir/inspect.txt" "writer lease:   none"
"$admin" compact "$store" >"$workdir/out.txt" || fail "compact after the server stopped"
expect "$workdir/out.txt" "0 L0 SSTs, 1 sorted runs"
"$admin" gc "$store" >"$workdir/out.txt" || fail "gc after the server stopped"
"$admin" sample "$store" >/dev/null || fail "sample after the server stopped"
"$admin" init "$store" >/dev/null || fail "init after the server stopped"
rl_server_start "$workdir/data" -c store="$store"
[ "$(sql 'SELECT count(*), sum(i) FROM t')" = "52|1728" ] || fail "rows lost over admin runs"
rl_server_stop fast
echo "ok: the same commands work on the stopped server's store, nothing lost"

# --- 4. a mistyped store, --version ---
for command in inspect verify compact gc sample; do
	if "$admin" "$command" "$workdir/no/such/dir" >"$workdir/out.txt" 2>&1; then
		fail "$command accepted a store that does not exist"
	fi
	expect "$workdir/out.txt" "does not exist (only init creates a store)"
done
[ ! -e "$workdir/no" ] || fail "a mistyped store made a directory"
"$admin" --version | grep -q '^rocklake-admin (RockLake) [0-9]' || fail "rocklake-admin --version"
echo "ok: a mistyped store is an error, --version"

# --- 5. the lease object on an S3 store ---
. "$top_srcdir/test/scripts/versitygw.sh"
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
rl_start_versitygw s3 lake
export AWS_ENDPOINT_URL=$endpoint
s3store=s3://lake/live
rl_server_start "$workdir/s3data" -c store=$s3store
RL_PID_WRITER=$(writer_pid "$s3store") || fail "the lease does not name the writer process"
sql "CREATE TABLE t (i int)"
sql "INSERT INTO t VALUES (1)"
refused "$s3store"
"$admin" verify "$s3store" >/dev/null || fail "verify on a live S3 store"
sql "INSERT INTO t VALUES (2)" || fail "the server stopped committing"
sql "CHECKPOINT"
sql "SELECT rocklake_compact()" >/dev/null
[ "$(sql 'SELECT sum(i) FROM t')" = 3 ] || fail "rows lost"
# a server that dies leaves its lease object, live until it lapses; a restart takes it
rl_server_stop immediate
if "$admin" gc "$s3store" >"$workdir/out.txt" 2>&1; then
	fail "gc ran while a dead server's lease had not lapsed"
fi
expect "$workdir/out.txt" "lapses 30 s after that"
rl_server_start "$workdir/s3data" -c store=$s3store
[ "$(sql 'SELECT sum(i) FROM t')" = 3 ] || fail "rows lost"
rl_server_stop fast
"$admin" inspect "$s3store" --objects-only >"$workdir/inspect.txt"
expect "$workdir/inspect.txt" "writer lease:   none"
"$admin" compact "$s3store" >/dev/null || fail "compact after the S3 server stopped"
"$admin" gc "$s3store" >/dev/null || fail "gc after the S3 server stopped"
echo "ok: the S3 writer lease refuses writing commands while the server runs"
echo "admin_live: all checks passed"
