#!/bin/sh
# sql_tables.sh: tables over the wire, through the writer, durably. psql creates,
# fills, queries, updates and drops tables; COPY in and out in text, CSV and
# binary (COPY FROM STDIN and \copy); DELETE by ctid; a temporary table ON COMMIT
# DROP; ALTER TABLE ADD/DROP COLUMN; a server restart in the middle with everything
# intact afterwards; two
# concurrent sessions (psycopg) that get 40001 and 23505; and databases as
# independent catalogs (CREATE/DROP DATABASE, surviving a restart).
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

PSQL=$(command -v psql || true)
[ -n "$PSQL" ] || rl_skip_or_fail "psql not installed (postgresql-client-15)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-sqltables.XXXXXX")
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export PGDATABASE=postgres PGUSER=alice PGSSLMODE=disable
rl_server_start "$work/data"

fail()
{
	echo "FAIL: $*" >&2
	exit 1
}

# expect NAME EXPECTED ACTUAL: ACTUAL must be EXPECTED
expect()
{
	[ "$3" = "$2" ] || fail "$1: expected
$2
got
$3"
}

q()
{
	"$PSQL" -X -At -v VERBOSITY=verbose "$@" 2>&1 | grep -v '^LOCATION:' || true
}

expect "create" "CREATE TABLE" "$(q -c "create table public.items (id bigint primary key, name varchar(20) not null,
	price numeric(10,2), qty int default 1, added timestamptz, day date, ok boolean, tag uuid, raw bytea,
	unique (name))")"
expect "create again" "ERROR:  42P07: relation \"items\" already exists" \
	"$(q -c 'create table items (a int)' | head -1)"
expect "if not exists" "NOTICE:  42P07: relation \"items\" already exists, skipping
CREATE TABLE" "$(q -c 'create table if not exists items (a int)')"
# the cache's own tables are not the clients'
for own in rl_relation rl_meta rl_scan_base; do
	expect "create $own" "ERROR:  42P07: relation \"$own\" already exists" \
		"$(q -c "create table $own (a int)" | head -1)"
done
expect "insert" "INSERT 0 3" "$(q -c "insert into items (id, name, price, added, day, ok, tag, raw) values
	(1, 'apple', 1.50, '2024-01-02 03:04:05+00', '2024-01-02', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102'),
	(2, 'pear', 2, null, null, false, null, null),
	(3, 'plum', null, null, null, null, null, null)")"
expect "select" "1|apple|1.50|1|2024-01-02 03:04:05+00|2024-01-02|t|a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11|\\x0102
2|pear|2.00|1|||f||" "$(q -c 'select * from items where id < 3 order by id')"
expect "expressions" "apple!|3.00|t
pear!|4.00|f" "$(q -c "select name || '!', price * 2, coalesce(ok, false) from items where price is not null order by name")"
expect "aggregates" "3|6|plum|2" \
	"$(q -c "select count(*), sum(id), max(name), count(price) from items")"
expect "group by" "f|1
t|1
|1" "$(q -c "select ok, count(*) from items group by ok order by ok")"
expect "limit offset" "2
3" "$(q -c "select id from items order by id desc limit 2 offset 0" | sort)"
expect "join" "apple|1
pear|2" "$(q -c "select a.name, b.id from items a join items b on a.id = b.id where a.id in (select id from items where price is not null) order by 1")"
expect "join using" "1|apple|1
2|pear|2" "$(q -c "select * from (select id, name from items) a join (select id, id * 1 as n from items where price is not null) b using (id) order by id")"
expect "full join using" "1|1|1
2||2
3|3|" "$(q -c "select id, a.id, b.id from (select 1 as id union all select 3) a full join (select 1 as id union all select 2) b using (id) order by id")"
expect "using column missing" "ERROR:  42703: column \"nope\" specified in USING clause does not exist in left table" \
	"$(q -c "select * from items a join items b using (nope)")"
expect "to_reg*" "t|items|integer|public|t" \
	"$(q -c "select to_regclass('duckdb_secrets') is null, to_regclass('items'), to_regtype('int4'), to_regnamespace('public'), to_regnamespace('nope') is null")"
expect "defaults of another type" "5|2.00|1|7|y
5|2.00|1|7|x" \
	"$(q -c "create table dft (a bigint default 5, b numeric(10,2) default 2, c float8 default 1, d smallint default 7, e text default 'x')" \
		-c "insert into dft (e) values ('y')" -c "insert into dft default values" -c "select * from dft order by e desc" \
		-c "drop table dft" | sed -n 4,5p)"
expect "scalar subquery" "ERROR:  21000: more than one row returned by a subquery used as an expression
2" "$(q -c "select (select id from items)" -c "select (select max(id) from items where id < 3)")"
expect "union" "1
2
3
10" "$(q -c "select id from items union all select 10 order by 1")"
expect "cte" "2|pear" "$(q -c "with x(i) as (values (2)) select id, name from items, x where id = x.i")"
expect "update from" "UPDATE 1" "$(q -c "with v(k, n) as (values (3, 'prune')) update items set name = v.n from v where items.id = v.k")"
expect "updated" "prune" "$(q -c "select name from items where id = 3")"
expect "unique" "ERROR:  23505: duplicate key value violates unique constraint \"items_name_key\"" \
	"$(q -c "insert into items (id, name) values (4, 'apple')" | head -1)"
expect "not null" "ERROR:  23502: null value in column \"name\" of relation \"items\" violates not-null constraint" \
	"$(q -c "insert into items (id) values (4)" | head -1)"
expect "ctid" "(0,2)" "$(q -c "select ctid from items where id = 2")"
expect "ctid delete" "DELETE 1" "$(q -c "delete from items where ctid in ('(0,2)', '(0,9)')")"
# the UPDATE above moved row 3 after the others, to (0,4), as PostgreSQL does
expect "ctid tid" "3" "$(q -c "select id from items where ctid = '(0,4)'::tid")"
expect "returning" "5|kiwi" "$(q -c "insert into items (id, name) values (5, 'kiwi') returning id, name" | head -1)"
expect "error in a row" "ERROR:  22012: division by zero
1" "$(q -c "select 1 / (id - 1) from items" -c "select 1")"
expect "unsupported" "ERROR:  0A000: ON CONFLICT is not supported yet" \
	"$(q -c "insert into items (id, name) values (6, 'x') on conflict do nothing" | head -1)"

# transactions: own writes are visible, ROLLBACK forgets them
expect "own writes" "BEGIN
CREATE TABLE
INSERT 0 1
1
ROLLBACK" "$(q -c 'begin' -c 'create table t2 (a int)' -c 'insert into t2 values (1)' \
	-c 'select a from t2' -c 'rollback')"
expect "rolled back" "ERROR:  42P01: relation \"t2\" does not exist" "$(q -c 'select * from t2' | head -1)"

# a message that creates and drops a table leaves no change, and its capture is
# rolled back; another session's CREATE of that name brings SQLite's schema cookie
# to the same number: the session must see the new table's columns, not the ones
# it kept from its capture
expect "recreated elsewhere" "b|c
x|2" "$(q -q -c 'begin' -c 'create table t3 (a int); drop table t3' -c 'commit' \
	-c "\\! \"$PSQL\" -X -q -c 'create table t3 (b text, c int)' -c \"insert into t3 values ('x', 2)\"" \
	-c '\pset tuples_only off' -c '\pset footer off' -c 'select * from t3')"

# a table written to and dropped in one message: nothing of it is left to commit
expect "written and dropped" "CREATE TABLE
INSERT 0 1
DROP TABLE" "$(q -c 'create table t4 (a int); insert into t4 values (1); drop table t4')"
expect "written and dropped, in a transaction" "BEGIN
CREATE TABLE
INSERT 0 1
DROP TABLE
COMMIT" "$(q -c 'begin' -c 'create table t4 (a int); insert into t4 values (1); drop table t4' -c 'commit')"
# ... and so do the rows of a table that was there before, changed and then dropped in
# one transaction; one made again under its name starts empty
q -c 'create table t5 (a int primary key, b text)' -c "insert into t5 values (1, 'one'), (2, 'two')" >/dev/null
expect "changed and dropped" "COMMIT" \
	"$(q -c 'begin' -c "update t5 set b = 'uno' where a = 1; delete from t5 where a = 2; drop table t5" \
		-c 'commit' | tail -1)"
expect "dropped" "ERROR:  42P01: relation \"t5\" does not exist" "$(q -c 'select * from t5' | head -1)"
expect "made again" "0" "$(q -c 'create table t5 (a int primary key, b text)' -c 'select count(*) from t5' | tail -1)"
expect "changed, dropped and made again" "3|three" "$(q -c 'begin' -c "insert into t5 values (3, 'three')" \
	-c "update t5 set b = 'x'" -c 'drop table t5' -c 'create table t5 (a int primary key, b text)' \
	-c "insert into t5 values (3, 'three')" -c 'commit' -c 'select * from t5' | tail -1)"
q -c 'drop table t5' >/dev/null

# COPY out and in, in the three formats
expect "copy out text" "1	apple	1.50" "$(q -c 'copy items (id, name, price) to stdout' | head -1)"
expect "copy out csv" "id,name
1,apple" "$(q -c 'copy items (id, name) to stdout (format csv, header)' | head -2)"
q -c 'create table copies (id int, name text, v float8)' >/dev/null
printf '1\tone\t1.5\n2\t\\N\t2\n' >"$work/in.txt"
expect "copy in text" "COPY 2" "$(q -c 'copy copies from stdin' <"$work/in.txt")"
printf '3,three,3\n' >"$work/in.csv"
expect "\\copy csv" "COPY 1" "$(q -c "\\copy copies from '$work/in.csv' (format csv)")"
"$PSQL" -X -At -c 'copy (select id + 10, name, v from copies) to stdout (format binary)' >"$work/out.bin"
expect "copy in binary" "COPY 3" "$(q -c 'copy copies from stdin (format binary)' <"$work/out.bin")"
expect "copied" "1|one|1.5
2||2
3|three|3
11|one|1.5
12||2
13|three|3" "$(q -c 'select * from copies order by id')"

# a temporary table dropped at COMMIT, used by UPDATE ... FROM as DuckDB does
expect "temp table" "UPDATE 1" "$(q -c 'begin' \
	-c 'create temporary table upd (v varchar, __page_id_string varchar) on commit drop' \
	-c "insert into upd values ('uno', '(0,1)')" \
	-c 'update copies set name = upd.v from upd where copies.ctid = __page_id_string::tid' -c 'commit' | grep UPDATE)"
expect "temp gone" "ERROR:  42P01: relation \"upd\" does not exist" "$(q -c 'select * from upd' | head -1)"
expect "temp update" "uno" "$(q -c 'select name from copies where id = 1')"

# ALTER TABLE ADD/DROP COLUMN, as DuckLake 1.0's migration sends them: rows written
# before and after in one transaction, a second ADD after an UPDATE
q -c 'create table alt (id bigint primary key, name text)' -c "insert into alt values (1, 'a'), (2, 'b')" >/dev/null
expect "alter in a transaction" "1|a|literal|duckdb
2|b|x|
3|c|literal|" "$(q -c 'begin' -c "alter table alt add column kind varchar default 'literal'" \
	-c "update alt set kind = 'x' where id = 2" -c 'alter table alt add column dialect varchar default null' \
	-c "update alt set dialect = 'duckdb' where id = 1" -c "insert into alt (id, name) values (3, 'c')" \
	-c 'commit' -c 'select * from alt order by id' | tail -n 3)"
expect "alter a table created in the transaction" "1|x|d
2|y|z" "$(q -c 'begin' -c 'create table nt (id int, a text)' -c "insert into nt values (1, 'x')" \
	-c "alter table nt add column b text default 'd'" -c "insert into nt values (2, 'y', 'z')" -c 'commit' \
	-c 'select * from nt order by id' | tail -n 2)"
expect "drop column" "1|literal|duckdb" "$(q -c 'alter table alt drop column name' -c 'select * from alt where id = 1' | sed -n 2p)"
expect "drop column after changing rows" "ERROR:  0A000: DROP COLUMN of a table whose rows the transaction changed is not supported yet" \
	"$(q -c 'begin' -c "update alt set kind = 'y'" -c 'alter table alt drop column kind' | grep ERROR)"
expect "alter errors" "ERROR:  42701: column \"kind\" of relation \"alt\" already exists
ERROR:  42703: column \"nosuch\" of relation \"alt\" does not exist
NOTICE:  00000: relation \"nosuch\" does not exist, skipping" \
	"$(q -c 'alter table alt add column kind text' -c 'alter table alt drop column nosuch' \
		-c 'alter table if exists nosuch add column x int' | grep -E 'ERROR|NOTICE')"

# restart: everything is still there
rl_server_stop fast
export PGDATABASE=postgres PGUSER=alice PGSSLMODE=disable
rl_server_start "$work/data"
expect "after restart" "1|apple
3|prune
5|kiwi" "$(q -c 'select id, name from items order by id')"
expect "copies after restart" "6" "$(q -c 'select count(*) from copies')"
expect "altered table after restart" "1|literal|duckdb
2|x|
3|literal|" "$(q -c 'select * from alt order by id')"
expect "table altered in its transaction after restart" "1|x|d
2|y|z" "$(q -c 'select * from nt order by id')"

# two sessions: the second writer of a row gets 40001, a duplicate key 23505
if [ -x "$RL_PY" ] && "$RL_PY" -c 'import psycopg' 2>/dev/null; then
	"$RL_PY" - <<'EOF' || fail "concurrent sessions"
import os, psycopg
dsn = "host=%s port=%s user=alice dbname=postgres sslmode=disable" % (os.environ["PGHOST"], os.environ["PGPORT"])
a = psycopg.connect(dsn)
b = psycopg.connect(dsn, autocommit=True)
a.execute("select count(*) from items").fetchall()
b.execute("update items set qty = 7 where id = 1")
try:
    a.execute("update items set qty = 8 where id = 1")
    a.commit()
    raise SystemExit("no 40001")
except psycopg.errors.SerializationFailure as e:
    assert "could not serialize access due to concurrent update" in str(e), e
    a.rollback()
a.execute("insert into items (id, name) values (20, 'fig')")
b.execute("insert into items (id, name) values (21, 'fig')")
try:
    a.commit()
    raise SystemExit("no 23505")
except psycopg.errors.UniqueViolation as e:
    assert "duplicate key value violates unique constraint" in str(e), e
assert b.execute("select qty from items where id = 1").fetchone() == (7,)
EOF
else
	rl_skip_or_fail "psycopg not installed in .venv"
fi

expect "drop" "DROP TABLE" "$(q -c 'drop table items, copies')"
expect "drop if exists" "NOTICE:  00000: table \"items\" does not exist, skipping
DROP TABLE" "$(q -c 'drop table if exists items')"
# --- databases: independent catalogs on one store ---
expect "create database" "CREATE DATABASE" "$(q -c 'create database lake')"
expect "duplicate database" "ERROR:  42P04: database \"lake\" already exists" "$(q -c 'create database lake')"
expect "in a block" "BEGIN
ERROR:  25001: CREATE DATABASE cannot run inside a transaction block" \
	"$(q -c 'begin' -c 'create database other')"
expect "lake table" "CREATE TABLE
INSERT 0 1" "$(q -d lake -c 'create table items (id int primary key, v text)' -c "insert into items values (1, 'in lake')")"
expect "independent" "ERROR:  42P01: relation \"items\" does not exist" "$(q -c 'select * from items' | head -1)"
rl_server_stop fast >/dev/null
rl_server_start "$work/data"
expect "lake after restart" "1|in lake" "$(q -d lake -c 'select * from items')"
expect "drop current" "ERROR:  55006: cannot drop the currently open database" "$(q -d lake -c 'drop database lake')"
expect "drop database" "DROP DATABASE" "$(q -c 'drop database lake')"
expect "gone" "FATAL:  database \"lake\" does not exist" "$(q -d lake -c 'select 1' | head -1 | sed 's/.*FATAL/FATAL/')"
expect "drop missing" "NOTICE:  00000: database \"lake\" does not exist, skipping
DROP DATABASE" "$(q -c 'drop database if exists lake')"
expect "recreated empty" "ERROR:  42P01: relation \"items\" does not exist" \
	"$(q -c 'create database lake' >/dev/null; q -d lake -c 'select * from items' | head -1)"
echo "ok: sql_tables"
