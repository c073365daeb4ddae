#!/bin/sh
# big_catalog.sh: crashes and damaged caches with a catalog table of BIG_CATALOG_MB
# megabytes (32: far past SQLite's statement-journal spill and page cache, so a
# commit or a cache rebuild spills to disk), in a database of its own.
#
# The writer is killed while it applies a large commit (the commit must be wholly
# there or wholly absent, and there if its client was answered) and right after one was
# answered (inside debug_visible_delay, so the cache is behind and rebuilt); the
# postmaster is killed and started again, as systemd would. With the server stopped
# the cache is damaged (garbage header, cut in half, its WAL deleted after a kill, a
# rebuild killed half way): the next start rebuilds it by itself. A rebuild that
# fails (a file-size limit, RLIMIT_FSIZE, which holds for root too) leaves the server
# up refusing connections with 57P03 and starting the writer again after 1, 2, 4 ...
# s; once the limit is lifted it serves. After each step the table's rows must be
# exactly the expected ones: count and md5 of all rows in id order.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_require_pg_clients
command -v prlimit >/dev/null || rl_skip_or_fail "prlimit not found (util-linux)"

mb=${BIG_CATALOG_MB:-32}
# a row of the table below takes about 84 bytes of the cache, index included
rows=$((mb * 12500))
chunk=200000
# a rebuild of the whole table must fit in this, under ASan too
ready_within=$((60 + mb / 4))

tmp=$(mktemp -d /tmp/rl-big-XXXXXX)
started=$(date +%s)
cleanup()
{
	rl_server_stop immediate >/dev/null 2>&1 || true
	prlimit --pid $$ --fsize=unlimited:unlimited 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -30 "$RL_LOG" >&2; exit 1; }
note() { echo "ok: $* ($(($(date +%s) - started)) s)"; }

cache=$tmp/data/catalog.3.sqlite	# the first database created after postgres and template1
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -d big "$@"; }
# digest [QUERY]: count and md5 of the table's rows (or QUERY's) in id order
digest()
{
	q=${1:-SELECT * FROM f}
	printf '%s %s\n' "$(sql -c "SELECT count(*) FROM ($q) s")" \
		"$(sql -c "COPY ($q ORDER BY id) TO STDOUT" | md5sum | cut -c1-32)"
}
# the store's data: every WAL object and SST with its size (objects are never written
# twice); left out: manifests, temporary files and the empty WAL object with which a
# writer's start fences older writers
store_data()
{
	(cd "$tmp/data/store" && find . \( -path '*/wal/*' -o -path '*/compacted/*' \) ! -name '.tmp.*' \
		-size +0 -printf '%p %s\n' | sort)
}
writer_pid() { grep -o '\[[0-9]*\] LOG:  writer ready' "$RL_LOG" | tail -1 | tr -dc '0-9'; }
peak_rss() { awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$(writer_pid)/status"; }
# rebuild_time FROM: seconds from the first rebuild after log line FROM to the writer's
# ready line after it
rebuild_time()
{
	log_since "$1" | awk 'function s(t) { split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
		/rebuilding the catalog cache/ && !t0 { t0 = s($2) }
		/writer ready/ && t0 { printf "%.1f\n", s($2) - t0; exit }'
}
log_since() { tail -n +"$(($1 + 1))" "$RL_LOG"; }
log_lines() { wc -l <"$RL_LOG"; }
# wait_log FROM PATTERN SECONDS: PATTERN in the log after line FROM
wait_log()
{
	tries=$(($3 * 10))
	until log_since "$1" | grep -q "$2"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}
# wait_ready: pg_isready says "accepting" (0) within ready_within seconds
wait_ready()
{
	tries=$((ready_within * 5))
	until "$PG_ISREADY" -h "$RL_HOST" -p "$RL_PORT" -t 5 >/dev/null; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.2
	done
}
# start: start the server, not waiting (rl_server_start sets its own EXIT trap)
start()
{
	RL_NO_WAIT=1 rl_server_start "$tmp/data" -c debug_visible_delay=500
	trap cleanup EXIT
}
# expect STATE WHAT: the table is STATE (a digest), after WHAT
expect()
{
	now=$(digest)
	[ "$now" = "$1" ] || fail "$2: rows are \"$now\", expected \"$1\""
}
# in_flight SQL: run SQL in the background; $job_out gets its output and exit status
in_flight()
{
	job_out=$tmp/job.$(date +%s%N)
	(sql -c "$1" >"$job_out" 2>&1 && echo "exit 0" >>"$job_out" || echo "exit 1" >>"$job_out") &
	job=$!
}
# wait_busy PID: until process PID (the writer) has spent 0.3 s of CPU from now on,
# that is, is applying the commit in flight, or that commit's client has its answer
wait_busy()
{
	ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
	t0=$(ticks "$1")
	tries=$((ready_within * 20))
	while kill -0 "$job" 2>/dev/null && [ $(($(ticks "$1") - t0)) -lt 30 ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || fail "the writer did not take up the commit"
		sleep 0.05
	done
}
# settled BEFORE AFTER WHAT: after a kill, the in-flight commit is wholly absent or
# wholly there, and there if it was answered
settled()
{
	wait "$job" || true
	now=$(digest)
	if grep -q '^exit 0' "$job_out"; then
		[ "$now" = "$2" ] || fail "$3: the answered commit is not there: \"$now\""
		outcome="answered, there"
	elif [ "$now" = "$2" ]; then
		outcome="not answered, there"
	else
		[ "$now" = "$1" ] || fail "$3: the commit is half there: \"$now\""
		outcome="not answered, absent"
	fi
}
# stop_by_kill [all]: kill -9 the postmaster (all: and its children with it, as a
# cgroup kill would), then wait until every child has gone, as systemd waits before a
# restart: a writer told by SIGTERM that the postmaster died finishes its commit first
stop_by_kill()
{
	kids=$(ps -o pid= --ppid "$RL_PID" | tr -d ' ')
	if [ "${1:-}" = all ]; then
		kill -9 "$RL_PID" $kids 2>/dev/null || true
	else
		kill -9 "$RL_PID"
	fi
	wait "$RL_PID" 2>/dev/null || true
	RL_PID=
	for k in $kids; do
		tries=$((ready_within * 10))
		while kill -0 "$k" 2>/dev/null; do
			tries=$((tries - 1))
			[ "$tries" -gt 0 ] || fail "process $k outlived the postmaster by $ready_within s"
			sleep 0.1
		done
	done
}

# --- a database with a catalog table of $mb MB, loaded in commits of $chunk rows ---
start
wait_ready || fail "server did not start"
psql -X -q -c 'CREATE DATABASE big' || fail "create database"
sql -c 'CREATE TABLE f (id bigint PRIMARY KEY, path text NOT NULL, file_size bigint,
	record_count bigint, snapshot_id bigint)' || fail "create table"
first=1
while [ "$first" -le "$rows" ]; do
	last=$((first + chunk - 1))
	[ "$last" -le "$rows" ] || last=$rows
	awk -v a="$first" -v b="$last" 'BEGIN { for (i = a; i <= b; i++)
		printf "%d\tdata/ducklake-%08d-0193a7c2-7d4e-7c2a-b1f0-5e3c6a9d8f10.parquet\t%d\t%d\t%d\n",
			i, i, 1000000 + i * 7, i % 977, i % 50 }' | sql -c 'COPY f FROM STDIN' || fail "load"
	first=$((last + 1))
done
[ -f "$cache" ] || fail "database big has no cache file $cache"
loaded=$(digest)
[ "${loaded% *}" = "$rows" ] || fail "loaded ${loaded% *} rows, not $rows"
note "loaded $rows rows, writer's peak RSS $(peak_rss) MB"

# --- the writer killed with a large UPDATE in flight ---
bumped=$(digest 'SELECT id, path, file_size, record_count + CASE WHEN id % 4 = 0 THEN 1 ELSE 0 END,
	snapshot_id FROM f')
from=$(log_lines)
writer=$(writer_pid)
in_flight 'UPDATE f SET record_count = record_count + 1 WHERE id % 4 = 0'
wait_busy "$writer"
kill -9 "$writer"
wait_log "$from" "writer process (PID $writer) was terminated by signal 9" 10 || fail "writer kill not logged"
wait_ready || fail "not serving after the writer was killed in a commit"
settled "$loaded" "$bumped" "writer killed in an UPDATE"
note "writer killed in an UPDATE of $((rows / 4)) rows: $outcome"
state=$now

# --- the writer killed right after answering a large DELETE: the cache is rebuilt ---
deleted=$(digest 'SELECT * FROM f WHERE id % 10 <> 3')
from=$(log_lines)
sql -c 'DELETE FROM f WHERE id % 10 = 3' || fail "delete"
kill -9 "$(writer_pid)"
wait_log "$from" 'rebuilding the catalog cache ".*catalog.3.sqlite"' "$ready_within" ||
	fail "the kill did not fall between the answer and the cache's commit"
wait_ready || fail "not serving after the writer was killed after a commit"
expect "$deleted" "writer killed after an answered DELETE"
note "writer killed after an answered DELETE of $((rows / 10)) rows: rebuilt in $(rebuild_time "$from") s, rows equal, writer's peak RSS $(peak_rss) MB"
state=$deleted

# --- the postmaster killed with an UPDATE in flight, started again ---
bumped=$(digest 'SELECT id, path, file_size, record_count, snapshot_id + CASE WHEN id % 3 = 0 THEN 100
	ELSE 0 END FROM f')
in_flight 'UPDATE f SET snapshot_id = snapshot_id + 100 WHERE id % 3 = 0'
wait_busy "$(writer_pid)"
stop_by_kill
start
wait_ready || fail "not serving after the postmaster was killed"
settled "$state" "$bumped" "postmaster killed in an UPDATE"
note "postmaster killed in an UPDATE: $outcome"
state=$now

# --- everything killed at once right after an answer, the cache's WAL deleted ---
deleted=$(digest 'SELECT * FROM f WHERE id % 10 <> 5')
sql -c 'DELETE FROM f WHERE id % 10 = 5' || fail "delete"
stop_by_kill all
[ -s "$cache-wal" ] || fail "the kill left no cache WAL to delete"
rm -f "$cache-wal" "$cache-shm"
from=$(log_lines)
start
wait_ready || fail "not serving after the cache's WAL was deleted"
log_since "$from" | grep -q 'rebuilding the catalog cache' || fail "no rebuild without the WAL"
expect "$deleted" "cache WAL deleted"
note "all killed after an answered DELETE, the cache's WAL deleted: rebuilt, rows equal"
state=$deleted

# --- damaged cache files, the server stopped: the next start rebuilds ---
# damage HOW WHAT: stop, damage the cache with the shell command HOW, start, compare
damage()
{
	rl_server_stop fast || fail "stop"
	sh -c "$1"
	from=$(log_lines)
	start
	wait_ready || fail "not serving after $2"
	wait_log "$from" 'rebuilding the catalog cache\|could not bring the catalog cache' 1 ||
		fail "no rebuild after $2"
	expect "$state" "$2"
	note "$2: rebuilt, rows equal"
}
damage "printf 'this is not an SQLite database at all' | dd of='$cache' conv=notrunc 2>/dev/null" \
	"a garbage header"
damage "truncate -s \$((\$(stat -c %s '$cache') / 2)) '$cache'" "a cache cut in half"

# a rebuild killed half way: the next writer finds the half-made cache and starts over
rl_server_stop fast || fail "stop"
rm -f "$cache"
from=$(log_lines)
start
wait_log "$from" 'rebuilding the catalog cache' 30 || fail "no rebuild"
writer=$(grep -o '\[[0-9]*\] LOG:  rebuilding the catalog cache' "$RL_LOG" | tail -1 | tr -dc '0-9')
kill -9 "$writer"
wait_log "$from" 'writer process could not start; starting it again in 1 s' 10 ||
	fail "the killed rebuild was not retried"
wait_ready || fail "not serving after a half-made rebuild"
expect "$state" "a half-made rebuild"
note "a rebuild killed half way: made again, rows equal"

# --- a rebuild that fails: 57P03 and retries with backoff, then serves by itself ---
rl_server_stop fast || fail "stop"
rm -f "$cache"
from=$(log_lines)
# the server inherits a limit of a quarter of the table: the cache cannot be made
stored=$(store_data)
prlimit --pid $$ --fsize=$((mb * 1024 * 1024 / 4)):unlimited
start
prlimit --pid $$ --fsize=unlimited:unlimited
wait_log "$from" 'could not rebuild the catalog cache' 60 || fail "the rebuild did not fail"
wait_log "$from" 'starting it again in 2 s' 60 || fail "no second attempt"
kill -0 "$RL_PID" || fail "the server exited"
rc=0
"$PG_ISREADY" -h "$RL_HOST" -p "$RL_PORT" -t 5 >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "pg_isready said $rc while the cache cannot be made, expected 1 (rejecting)"
refused=$(psql -X -At -d big -c 'SELECT 1' 2>&1 || true)
case "$refused" in
	*"starting up"*) ;;
	*) fail "a connection was not refused with 57P03: $refused" ;;
esac
log_since "$from" | grep 'could not rebuild the catalog cache' | head -1 | grep -q 'full\|I/O' ||
	fail "the log does not say why the rebuild failed"
store_data >"$tmp/stored.after"
echo "$stored" | diff - "$tmp/stored.after" >&2 || fail "the failed rebuilds changed the store's data"

prlimit --pid "$RL_PID" --fsize=unlimited:unlimited
wait_ready || fail "not serving once the rebuild could succeed"
expect "$state" "a failed rebuild"
attempts=$(log_since "$from" | grep -c 'could not rebuild the catalog cache')
note "a failing rebuild: 57P03, $attempts attempts with backoff, then served, rows equal, writer's peak RSS $(peak_rss) MB"

rl_server_stop fast || fail "stop"
grep -E 'terminated by signal ([0-8]|1[0-9]|[2-9][0-9])\b|AddressSanitizer|runtime error:' "$RL_LOG" &&
	fail "the server crashed by itself"
echo "cache $(($(stat -c %s "$cache") / 1048576)) MB, store $(du -sm "$tmp/data/store" | cut -f1) MB"
echo PASS
