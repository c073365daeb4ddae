#!/bin/sh
# tls.sh: TLS with ssl=on and a self-signed certificate made here: psql with
# sslmode=require gets an SSL connection (\conninfo says so), sslmode=disable still
# works, hostssl and hostnossl hba lines decide by encryption; and a connection the
# postmaster refuses (53300 too many clients, 57P03 shutting down) still reaches a
# sslmode=require client as PostgreSQL 15's error, after the TLS handshake, instead
# of "server does not support SSL".
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

command -v openssl >/dev/null || rl_skip_or_fail "openssl not installed"
command -v psql >/dev/null || rl_skip_or_fail "psql not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-tls.XXXXXX")
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$RL_LOG" >&2; exit 1; }

openssl req -new -x509 -days 2 -nodes -subj /CN=localhost -newkey rsa:2048 \
	-keyout "$work/server.key" -out "$work/server.crt" >"$work/openssl.log" 2>&1 ||
	{ cat "$work/openssl.log" >&2; exit 1; }
chmod 600 "$work/server.key"
"$RL_BIN" --init -D "$work/data" -U alice >/dev/null 2>&1
cat >"$work/data/rocklake_hba.conf" <<'EOF'
local      all  all            trust
hostssl    all  sslonly    127.0.0.1/32  trust
hostnossl  all  sslonly    127.0.0.1/32  reject
hostnossl  all  plainonly  127.0.0.1/32  trust
hostssl    all  plainonly  127.0.0.1/32  reject
host       all  all        127.0.0.1/32  trust
EOF
rl_server_start "$work/data" -c ssl=on -c ssl_cert_file="$work/server.crt" \
	-c ssl_key_file="$work/server.key" -c max_connections=1 -c spare_backends=1
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# conn USER SSLMODE [psql args]: psql's output (and errors) on stdout
conn()
{
	user=$1 mode=$2
	shift 2
	psql -X "host=$RL_HOST port=$RL_PORT dbname=postgres user=$user sslmode=$mode" "$@" 2>&1 || true
}
# settle: until the last session's backend has exited and the one slot is free
# (the postmaster's children are then the writer and the one spare)
settle()
{
	tries=100
	while [ "$(ps -o pid= --ppid "$RL_PID" | wc -l)" -gt 2 ] && [ $tries -gt 0 ]; do
		sleep 0.1
		tries=$((tries - 1))
	done
}
expect()
{
	case "$2" in
		*"$3"*) ;;
		*) fail "$1: expected '$3', got: $2" ;;
	esac
}

conn alice disable -c 'create role sslonly login' -c 'create role plainonly login' \
	-c 'create role holder login' >/dev/null
settle
out=$(conn alice require -c '\conninfo')
expect "sslmode=require" "$out" "SSL connection (protocol: TLS"
settle
out=$(conn alice disable -c '\conninfo')
expect "sslmode=disable" "$out" 'as user "alice"'
case "$out" in *SSL*) fail "sslmode=disable: $out" ;; esac
echo "ok: sslmode=require and sslmode=disable"

settle
expect "hostssl, SSL" "$(conn sslonly require -Atc 'select 1')" 1
settle
expect "hostnossl reject, no SSL" "$(conn sslonly disable -Atc 'select 1')" \
	'pg_hba.conf rejects connection for host "127.0.0.1", user "sslonly", database "postgres", no encryption'
settle
expect "hostnossl, no SSL" "$(conn plainonly disable -Atc 'select 1')" 1
settle
expect "hostssl reject, SSL" "$(conn plainonly require -Atc 'select 1')" \
	'pg_hba.conf rejects connection for host "127.0.0.1", user "plainonly", database "postgres", SSL encryption'
echo "ok: hostssl and hostnossl"
settle

# a session holds the one slot; then refusals, with and without TLS
psql -X "host=$RL_HOST port=$RL_PORT dbname=postgres user=holder sslmode=disable" \
	-c 'select pg_sleep(8)' >"$work/holder.out" 2>&1 &
holder=$!
sleep 1
for mode in require disable; do
	expect "53300 with sslmode=$mode" "$(conn alice $mode -c 'select 1')" \
		"FATAL:  sorry, too many clients already"
done
kill -TERM "$RL_PID"
sleep 0.3
for mode in require disable; do
	expect "57P03 with sslmode=$mode" "$(conn alice $mode -c 'select 1')" \
		"FATAL:  the database system is shutting down"
done
"$PG_BINDIR/pg_isready" -h "$RL_HOST" -p "$RL_PORT" >/dev/null && rc=0 || rc=$?
[ "$rc" -eq 1 ] || fail "pg_isready while shutting down: $rc, expected 1"
echo "ok: refusals reach sslmode=require clients"
wait "$holder" || fail "the holding session: $(cat "$work/holder.out")"
rl_server_stop fast || fail "stop"

# a private key others can read: the server does not start, as PostgreSQL 15 refuses
chmod 644 "$work/server.key"
"$RL_BIN" -D "$work/data" -p "$(rl_free_port)" -h 127.0.0.1 -k "$work/data" -c ssl=on \
	-c ssl_cert_file="$work/server.crt" -c ssl_key_file="$work/server.key" \
	</dev/null >"$work/badkey.log" 2>&1 && rc=0 || rc=$?
[ "$rc" -ne 0 ] || fail "started with a world-readable key"
grep -q "FATAL:  private key file \"$work/server.key\" has group or world access" "$work/badkey.log" ||
	fail "no refusal of the world-readable key: $(cat "$work/badkey.log")"
grep -q 'DETAIL:  File must have permissions u=rw (0600) or less' "$work/badkey.log" || fail "no DETAIL"
echo "ok: a world-readable private key is refused"
echo PASS
