#!/bin/sh
# admin_dump.sh: rocklake-admin dump and restore.
#  1. a DuckDB lake with inlined rows in database lake, and a psql table whose
#     writers commit two rows (i, -i) at a time; lake is dumped while they write:
#     the dump holds whole commits only (an even count, a sum of 0, no gap);
#  2. the dump restored into a new data directory's lake (created through a
#     server, which is then stopped): a server on it answers psql's queries with
#     the dumped rows, DuckDB reads the same lake rows as from the first server;
#     and restored as the postgres database of a new store;
#  3. the postgres database dumped and restored into a new store, no server needed;
#     after more commits, dump --as-of that commit or a time between gives the same
#     rows; a commit garbage collection no longer keeps, or one not made yet, is refused;
#  4. a damaged dump (a byte flipped, truncated, a byte added) is refused and writes
#     nothing; a restore into a database that holds keys is refused and changes no
#     object; one into a database a running server writes is refused (its lease),
#     one into a database the registry does not name too;
#  5. a restore into an S3 store (versitygw) reads back the same rows.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

rl_admin_setup dump
python=$top_srcdir/.venv/bin/python
[ -x "$python" ] || rl_skip_or_fail "$python not found (run contrib/install-deps.sh --test)"
fail() { echo "FAIL: $*" >&2; tail -30 "$RL_LOG" >&2; exit 1; }
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -d lake -c "$1"; }
# expect FILE TEXT: the file holds the fixed string
expect() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "expected \"$2\""; }; }
# duck SQL...: run each statement in DuckDB on the lake of the running server, printing rows
duck()
{
	PYTHONPATH=$top_srcdir/test/duckdb "$python" - "$RL_PORT" "$workdir/files" "$@" <<'EOF'
import sys
import duckdb_offline
port, data_path, statements = sys.argv[1], sys.argv[2], sys.argv[3:]
con = duckdb_offline.connect()
con.execute(f"ATTACH 'ducklake:postgres:host=127.0.0.1 port={port} dbname=lake user=rocklake' "
            f"AS lake (DATA_PATH '{data_path}/', DATA_INLINING_ROW_LIMIT 1000)")
for s in statements:
    for row in con.execute(s).fetchall():
        print("|".join(str(v) for v in row))
EOF
}
# objects STORE: every object of a local store with its checksum
objects() { (cd "$1" && find . -type f ! -name '*.lock' -exec md5sum {} + | sort); }

# --- 1. a lake dumped while psql writers commit ---
store1=$workdir/store1
rl_server_start "$workdir/data1" -c store="$store1"
psql -X -q -d postgres -c 'CREATE DATABASE lake' || fail "CREATE DATABASE"
duck "CREATE TABLE lake.t (id int, name varchar)" \
	"INSERT INTO lake.t SELECT i, 'row ' || i FROM range(1, 201) r(i)" \
	"INSERT INTO lake.t VALUES (1000, 'last')" >/dev/null || fail "DuckDB could not write the lake"
lake_rows=$(duck "SELECT count(*), sum(id), min(name), max(name) FROM lake.t")
[ "$lake_rows" = "201|21100|last|row 99" ] || fail "DuckDB wrote $lake_rows"
sql "CREATE TABLE w (i int)"
(
	i=1
	while [ ! -e "$workdir/stop" ]; do
		psql -X -q -v ON_ERROR_STOP=1 -d lake -c "INSERT INTO w VALUES ($i), (-$i)" || exit 1
		i=$((i + 1))
	done
) >"$workdir/load.out" 2>&1 &
load=$!
sleep 1
before=$(sql "SELECT count(*) FROM w")
"$admin" dump "$store1" --database lake -f "$workdir/lake.dump" 2>"$workdir/dump.txt" ||
	{ cat "$workdir/dump.txt" >&2; fail "dump on a live store"; }
after=$(sql "SELECT count(*) FROM w")
sleep 0.5
touch "$workdir/stop"
wait "$load" || { cat "$workdir/load.out" >&2; fail "the load's inserts failed"; }
expect "$workdir/dump.txt" "dumped database \"lake\" (store \"$store1/db/3\") as of commit"
"$admin" dump "$store1" --database nosuch -f "$workdir/x.dump" >"$workdir/out.txt" 2>&1 &&
	fail "dump of a database that does not exist"
expect "$workdir/out.txt" 'database "nosuch" does not exist'
[ ! -e "$workdir/x.dump" ] || fail "a failed dump left a file"
rl_server_stop fast
echo "ok: dumped lake while psql wrote ($before..$after rows of w around the dump)"

# --- 2. restored into a new data directory's lake ---
store2=$workdir/store2
rl_server_start "$workdir/data2" -c store="$store2"
psql -X -q -d postgres -c 'CREATE DATABASE lake' || fail "CREATE DATABASE on the new server"
"$admin" restore "$workdir/lake.dump" "$store2" >"$workdir/out.txt" 2>&1 &&
	fail "restore into a database a running server writes"
expect "$workdir/out.txt" "is in use: refusing to take it over"
rl_server_stop fast
"$admin" restore "$workdir/lake.dump" "$store2" >"$workdir/restore.txt" 2>&1 ||
	{ cat "$workdir/restore.txt" >&2; fail "restore"; }
expect "$workdir/restore.txt" "into database \"lake\" (store \"$store2/db/3\")"
rl_server_start "$workdir/data2" -c store="$store2"
got=$(sql "SELECT count(*), sum(i), count(*) FILTER (WHERE i > 0), max(i) FROM w")
n=${got%%|*}
[ "$n" -ge "$before" ] && [ "$n" -le "$after" ] || fail "the dump holds $n rows of w, not $before..$after"
[ "$got" = "$n|0|$((n / 2))|$((n / 2))" ] || fail "the dump holds part of a commit: count, sum, positive, max = $got"
[ "$(duck "SELECT count(*), sum(id), min(name), max(name) FROM lake.t")" = "$lake_rows" ] ||
	fail "DuckDB reads other rows from the restored lake"
duck "INSERT INTO lake.t VALUES (2000, 'after')" >/dev/null || fail "DuckDB could not write the restored lake"
sql "INSERT INTO w VALUES (0)" || fail "psql could not write the restored database"
rl_server_stop fast
echo "ok: restored into a new data directory: psql and DuckDB read the dumped rows ($n rows of w)"
"$admin" restore "$workdir/lake.dump" "$workdir/store6" --database postgres >/dev/null ||
	fail "restore lake as the postgres database of a new store"
rl_server_start "$workdir/data6" -c store="$workdir/store6"
[ "$(psql -X -At -d postgres -c 'SELECT count(*), sum(i) FROM w')" = "$n|0" ] ||
	fail "the lake restored as postgres lost rows of w"
rl_server_stop fast
echo "ok: lake restored as the postgres database of a new store"

# --- 3. the postgres database into a new store ---
rl_server_start "$workdir/data1" -c store="$store1"
psql -X -q -d postgres -c "CREATE TABLE p (i int, s text)" \
	-c "INSERT INTO p SELECT g, repeat('x', g) FROM generate_series(1, 50) g" ||
	fail "CREATE TABLE p"
rl_server_stop fast
"$admin" dump "$store1" >"$workdir/postgres.dump" 2>"$workdir/dump.txt" || fail "dump postgres to stdout"
"$admin" restore "$workdir/postgres.dump" "$workdir/store3" >/dev/null || fail "restore postgres into a new store"
rl_server_start "$workdir/data3" -c store="$workdir/store3"
[ "$(psql -X -At -d postgres -c 'SELECT count(*), sum(length(s)) FROM p')" = "50|1275" ] ||
	fail "the restored postgres database lost rows"
rl_server_stop fast
echo "ok: the postgres database dumped to stdout and restored into a new store"

commit=$(sed -n 's/.* as of commit \([0-9]*\),.*/\1/p' "$workdir/dump.txt")
sleep 1.1
moment=$(date -u '+%Y-%m-%d %H:%M:%S')
sleep 1.1
rl_server_start "$workdir/data1" -c store="$store1"
psql -X -q -d postgres -c "INSERT INTO p VALUES (51, 'y'), (52, 'z')" -c "DELETE FROM p WHERE i < 10" ||
	fail "more commits to p"
rl_server_stop fast
"$admin" dump "$store1" --as-of "$commit" -f "$workdir/as-of.dump" 2>"$workdir/dump.txt" ||
	{ cat "$workdir/dump.txt" >&2; fail "dump --as-of $commit"; }
expect "$workdir/dump.txt" "as of commit $commit,"
"$admin" restore "$workdir/as-of.dump" "$workdir/store5" >/dev/null || fail "restore the dump --as-of"
"$admin" inspect "$workdir/store3" --limit -1 | sed -n '/^rows:/,$p' >"$workdir/rows.3"
"$admin" inspect "$workdir/store5" --limit -1 | sed -n '/^rows:/,$p' >"$workdir/rows.5"
cmp -s "$workdir/rows.3" "$workdir/rows.5" || fail "dump --as-of $commit holds other rows than the dump at $commit"
"$admin" dump "$store1" --as-of "$moment" -f "$workdir/moment.dump" 2>"$workdir/dump.txt" ||
	{ cat "$workdir/dump.txt" >&2; fail "dump --as-of '$moment'"; }
expect "$workdir/dump.txt" "as of commit $commit,"
"$admin" dump "$store1" --as-of "2001-01-01 00:00:00" -f "$workdir/x.dump" >"$workdir/out.txt" 2>&1 &&
	fail "dump --as-of a time before the store"
expect "$workdir/out.txt" "the store keeps nothing written at or before that time"
"$admin" dump "$store1" --as-of "yesterday" -f "$workdir/x.dump" >"$workdir/out.txt" 2>&1 &&
	fail "dump --as-of yesterday"
expect "$workdir/out.txt" "--as-of takes a commit number or a UTC time"
"$admin" dump "$store1" --as-of 999999 -f "$workdir/x.dump" >"$workdir/out.txt" 2>&1 && fail "dump --as-of a future commit"
expect "$workdir/out.txt" "commit 999999 does not exist: the newest commit is"
# what GC leaves once the grace periods are over: the newest manifest, which holds every commit in SSTs
"$admin" compact "$store1" >/dev/null || fail "compact"
ls "$store1/manifest" | sort | sed '$d' | (cd "$store1/manifest" && xargs rm -f)
"$admin" dump "$store1" --as-of "$commit" -f "$workdir/x.dump" >"$workdir/out.txt" 2>&1 &&
	fail "dump --as-of a commit GC removed"
expect "$workdir/out.txt" "commit $commit is older than the store keeps"
[ ! -e "$workdir/x.dump" ] || fail "a refused dump left a file"
echo "ok: dump --as-of commit $commit and '$moment' after more commits; beyond GC's horizon and the newest commit refused"

# --- 4. damaged dumps, non-empty targets ---
size=$(wc -c <"$workdir/lake.dump")
cp "$workdir/lake.dump" "$workdir/flipped.dump"
printf '\377' | dd of="$workdir/flipped.dump" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
head -c $((size - 7)) "$workdir/lake.dump" >"$workdir/truncated.dump"
cp "$workdir/lake.dump" "$workdir/longer.dump"
printf x >>"$workdir/longer.dump"
for bad in flipped truncated longer; do
	"$admin" restore "$workdir/$bad.dump" "$workdir/store4" >"$workdir/out.txt" 2>&1 &&
		fail "a $bad dump was restored"
	expect "$workdir/out.txt" "checksum does not match: the file is truncated or damaged"
done
printf 'not a dump' >"$workdir/text.dump"
"$admin" restore "$workdir/text.dump" "$workdir/store4" >"$workdir/out.txt" 2>&1 && fail "a text file was restored"
expect "$workdir/out.txt" 'not a RockLake dump'
"$admin" restore "$workdir/lake.dump" "$workdir/store4" >"$workdir/out.txt" 2>&1 &&
	fail "restore of lake into a store whose registry does not name it"
expect "$workdir/out.txt" 'database "lake" does not exist in store'
[ ! -e "$workdir/store4" ] || fail "a refused restore made a store"
objects "$store2" >"$workdir/objects.before"
"$admin" restore "$workdir/lake.dump" "$store2" >"$workdir/out.txt" 2>&1 && fail "restore into a non-empty database"
expect "$workdir/out.txt" 'database "lake" (store "'"$store2"'/db/3") is not empty: refusing to restore into it'
"$admin" restore "$workdir/postgres.dump" "$store2" >"$workdir/out.txt" 2>&1 && fail "restore into a non-empty postgres"
expect "$workdir/out.txt" 'is not empty'
objects "$store2" >"$workdir/objects.after"
cmp -s "$workdir/objects.before" "$workdir/objects.after" || fail "a refused restore changed the store's objects"
echo "ok: damaged dumps and non-empty targets are refused, nothing written"

# --- 5. a restore into an S3 store ---
. "$top_srcdir/test/scripts/versitygw.sh"
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
rl_start_versitygw s3 dumps
export AWS_ENDPOINT_URL=$endpoint
"$admin" restore "$workdir/postgres.dump" s3://dumps/restored >/dev/null || fail "restore into S3"
"$admin" inspect s3://dumps/restored --limit -1 | sed -n '/^rows:/,$p' >"$workdir/rows.s3"
cmp -s "$workdir/rows.3" "$workdir/rows.s3" || fail "the S3 store holds other rows"
"$admin" restore "$workdir/postgres.dump" s3://dumps/restored >"$workdir/out.txt" 2>&1 &&
	fail "a second restore into the S3 store"
expect "$workdir/out.txt" 'is not empty'
echo "ok: restored into an S3 store, the same rows"
