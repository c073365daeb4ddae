#!/bin/sh
# psql.sh: psql 15 against a RockLake server: queries, several statements in one
# -c, errors with SQLSTATE and cursor position, transaction states, SET/SHOW,
# COPY TO STDOUT in every format, EXPLAIN, \conninfo, nesting too deep for the stack,
# cancelling pg_sleep, unknown databases, every authentication method (trust,
# password, md5, scram-sha-256) with right and wrong passwords, and the
# log_connections / log_disconnections lines, and log_min_duration_statement's
# "duration:" line.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

PSQL=$(command -v psql || true)
[ -n "$PSQL" ] || rl_skip_or_fail "psql not installed (postgresql-client-15)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-psql.XXXXXX")
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export PGDATABASE=postgres PGUSER=alice PGSSLMODE=disable
rl_server_start "$work/data" -c log_connections=on -c log_disconnections=on

fail()
{
	echo "FAIL: $*" >&2
	exit 1
}

# expect NAME EXPECTED ACTUAL: ACTUAL must contain EXPECTED
expect()
{
	case "$3" in
		*"$2"*) ;;
		*) fail "$1: expected \"$2\" in: $3" ;;
	esac
}

q()
{
	"$PSQL" -X -At "$@" 2>&1 || true
}

expect "select" "1" "$(q -c 'select 1')"
expect "multi" "1|x|
ERROR:  division by zero" "$(q -c "select 1 as a, 'x'::text as b, null::int as c; select 1/0; select 3")"
expect "types" "t|42|1.5000000000000000|0.1|2024-03-01|1 day 02:00:00|abc1|b" \
	"$(q -c "select 1 < 2, 6 * 7, 3.0 / 2, 0.1::float8, '2024-02-29'::date + 1, interval '1 day 2 hours', 'abc' || 1, case when 1 > 2 then 'a' else 'b' end")"
expect "version" "PostgreSQL 15" "$(q -c 'select version()')"
expect "generate_series" "1
2
3" "$(q -c 'select generate_series(1,3)')"
# EXPLAIN as psql shows any query's rows: one column, "QUERY PLAN", a line per row
expect "explain" "  QUERY PLAN  
--------------
 ProjectSet
   ->  Result
(2 rows)" "$("$PSQL" -X -c 'explain (costs off) select generate_series(1,3)' 2>&1)"
expect "verbose error" "ERROR:  42703: column \"nosuch\" does not exist
LINE 1: select nosuch" "$(q -c '\set VERBOSITY verbose' -c 'select nosuch')"
expect "syntax error" "ERROR:  42601: syntax error at or near \"selec\"" \
	"$(q -c '\set VERBOSITY verbose' -c 'selec 1')"
expect "unsupported" "ERROR:  0A000: CREATE VIEW is not supported yet" \
	"$(q -c '\set VERBOSITY verbose' -c 'create view v as select 1')"
expect "failed block" "ERROR:  current transaction is aborted, commands ignored until end of transaction block
ROLLBACK" "$(q -c 'begin' -c 'select 1/0' -c 'select 1' -c 'commit')"
expect "begin twice" "WARNING:  there is already a transaction in progress" "$(q -c 'begin' -c 'begin')"
expect "commit outside" "WARNING:  there is no transaction in progress" "$(q -c 'commit')"
expect "savepoint" "1" "$(q -c 'begin' -c 'savepoint s' -c 'select 1/0' -c 'rollback to s' -c 'select 1' -c 'commit')"
expect "set show" "German, DMY" "$(q -c "set datestyle = 'German'" -c 'show datestyle')"
expect "unknown setting" "unrecognized configuration parameter \"nosuch\"" "$(q -c 'set nosuch = 1')"
expect "current_setting" "psql" "$(q -c "select current_setting('application_name')")"
expect "copy text" "1	x" "$(q -c "copy (select 1, 'x') to stdout")"
expect "copy csv" "a,b
1,\"x,y\"" "$(q -c "copy (select 1 as a, 'x,y' as b) to stdout with (format csv, header)")"
expect "copy binary" "PGCOPY" "$(q -c "copy (select 1) to stdout with (format binary)" | head -c 6)"
expect "copy from" "relation \"t\" does not exist" "$(q -c 'copy t from stdin')"
expect "conninfo" "You are connected to database \"postgres\" as user \"alice\"" "$(q -c '\conninfo')"
expect "no database" "FATAL:  database \"nodb\" does not exist" "$(q -d nodb -c 'select 1')"

# nesting too deep for the stack: an error (54001), FATAL when even the parser
# cannot convert it; never a crash that resets the server
python3 -c "print('select ' + ' + '.join(['1'] * 20000))" >"$work/deep.sql"
expect "deep" "ERROR:  stack depth limit exceeded" "$(q -f "$work/deep.sql")"
python3 -c "print('select ' + ' + '.join(['1'] * 300000))" >"$work/deeper.sql"
expect "deeper" "FATAL:  stack depth limit exceeded" "$(q -f "$work/deeper.sql")"
grep -q "terminated by signal" "$RL_LOG" && fail "a backend crashed"
expect "after deep" "1" "$(q -c 'select 1')"

# a cancel from psql (SIGINT makes it send CancelRequest) ends pg_sleep at once
start=$(date +%s)
out=$(timeout -s INT 1 "$PSQL" -X -c 'select pg_sleep(30)' 2>&1 || true)
expect "cancel" "canceling statement due to user request" "$out"
[ $(($(date +%s) - start)) -lt 10 ] || fail "cancel took too long"
expect "after cancel" "1" "$(q -c 'select 1')"

# authentication: roles made with CREATE ROLE, methods per user in rocklake_hba.conf;
# md5u's password hashed as md5 (password_encryption), md5scram's as SCRAM though the
# rule says md5 (PostgreSQL then runs SCRAM), trustu a superuser (it sets a superuser
# setting below)
q -c "create role pwu login password 'pw'" -c "create role scramu login password 'sc'" \
	-c "create role md5scram login password 'ms'" -c "set password_encryption = md5" \
	-c "create role md5u login password 'm5'" -c "create role trustu login superuser" >/dev/null
expect "md5 verifier" "md5" "$(q -c "select left(rolpassword, 3) from pg_authid where rolname = 'md5u'")"
cat >"$work/data/rocklake_hba.conf" <<'HBA'
host all pwu      127.0.0.1/32 password
host all md5u     127.0.0.1/32 md5
host all md5scram 127.0.0.1/32 md5
host all scramu   127.0.0.1/32 scram-sha-256
host all nobody   127.0.0.1/32 scram-sha-256
host all rejected 127.0.0.1/32 reject
host all trustu   127.0.0.1/32 trust
HBA
for spec in pwu:pw md5u:m5 md5scram:ms scramu:sc; do
	user=${spec%%:*}
	pass=${spec#*:}
	expect "auth $user" "1" "$(PGPASSWORD=$pass q -U "$user" -c 'select 1')"
	expect "auth $user wrong" "password authentication failed for user \"$user\"" \
		"$(PGPASSWORD=wrong q -U "$user" -c 'select 1')"
done
expect "auth unknown role" "password authentication failed for user \"nobody\"" \
	"$(PGPASSWORD=x q -U nobody -c 'select 1')"
expect "auth trust" "trustu" "$(q -U trustu -c 'select current_user')"
expect "auth reject" "pg_hba.conf rejects connection" "$(q -U rejected -c 'select 1')"
expect "auth no entry" "no pg_hba.conf entry for host \"127.0.0.1\", user \"zed\", database \"postgres\"" \
	"$(q -U zed -c 'select 1')"
# log_connections / log_disconnections lines, as PostgreSQL writes them
grep -q "LOG:  connection received: host=127.0.0.1 port=" "$RL_LOG" || fail "no 'connection received' line"
grep -q "LOG:  connection authorized: user=alice database=postgres application_name=psql" "$RL_LOG" ||
	fail "no 'connection authorized' line"
grep -q "LOG:  disconnection: session time: [0-9]*:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9] user=alice database=postgres host=127.0.0.1 port=" \
	"$RL_LOG" || fail "no 'disconnection' line"
# log_min_duration_statement=0 logs every statement with its time, as PostgreSQL does
PGOPTIONS='-c log_min_duration_statement=0' q -U trustu -c 'select 40 + 2' >/dev/null
grep -q "LOG:  duration: [0-9]*\.[0-9][0-9][0-9] ms  statement: select 40 + 2$" "$RL_LOG" ||
	fail "no 'duration: ... statement:' line"
grep -q "duration: .*select 1$" "$RL_LOG" && fail "duration logged with log_min_duration_statement=-1"
echo "PASS: psql"
