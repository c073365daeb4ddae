#!/bin/sh
# server_pg_ctl.sh: stock pg_ctl 15 drives rocklake through the pidfile contract
# (start -w, status, reload, stop, restart with postmaster.opts) with PostgreSQL's exit
# codes, and so does the SysV script contrib/init.d/rocklake (start, status, reload,
# stop; LSB codes). pg_ctl refuses to run as root, so as root both run as the user
# rocklake-test, created if missing.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

PG_CTL=$PG_BINDIR/pg_ctl
[ -x "$PG_CTL" ] || rl_skip_or_fail "pg_ctl not found in $PG_BINDIR"
[ -x "$RL_BIN" ] || { echo "FAIL: $RL_BIN is not built" >&2; exit 1; }

rl_unprivileged_user
user=$RL_USER

tmp=$(mktemp -d /tmp/rl-pgctl-XXXXXX)
chmod 755 "$tmp"
# the build tree may not be readable by that user
cp "$RL_BIN" "$tmp/rocklake"
data=$tmp/data
port=$(rl_free_port)
cleanup()
{
	pid=$(sed -n 1p "$data/postmaster.pid" 2>/dev/null || true)
	[ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
chown -R "$user" "$tmp"
fail() { echo "FAIL: $*" >&2; cat "$tmp"/*.log >&2 2>/dev/null || true; exit 1; }

# expect CODE COMMAND...: run as the user, check the exit status
expect()
{
	want=$1
	shift
	rl_as_user "$*" >"$tmp/out" 2>&1 && got=0 || got=$?
	[ "$got" = "$want" ] || { cat "$tmp/out" >&2; fail "'$*' exited $got, expected $want"; }
}

rl_as_user "\"$tmp/rocklake\" --init -D \"$data\"" >/dev/null 2>&1 || fail "--init"
opts="-p $port -k $data -h 127.0.0.1"

# --- pg_ctl ---
expect 3 "$PG_CTL" -D "$data" status
expect 0 "$PG_CTL" -D "$data" -p "$tmp/rocklake" -o "\"$opts\"" -l "$tmp/server.log" -w -t 30 start
pid=$(sed -n 1p "$data/postmaster.pid")
expect 0 "$PG_CTL" -D "$data" status
grep -q "server is running (PID: $pid)" "$tmp/out" || fail "status output: $(cat "$tmp/out")"
[ "$(stat -c %U "/proc/$pid")" = "$user" ] || fail "server does not run as $user"
expect 0 "$PG_CTL" -D "$data" reload
grep -q "server signaled" "$tmp/out" || fail "reload output"
sleep 0.5
grep -q 'received SIGHUP' "$tmp/server.log" || fail "reload did not reach the server"
expect 0 "$PG_CTL" -D "$data" -w -t 30 restart
newpid=$(sed -n 1p "$data/postmaster.pid")
[ "$newpid" != "$pid" ] || fail "restart kept the old postmaster"
"$PG_BINDIR/pg_isready" -h 127.0.0.1 -p "$port" >/dev/null || fail "not accepting after restart"
expect 0 "$PG_CTL" -D "$data" -w -t 30 stop
[ ! -e "$data/postmaster.pid" ] || fail "postmaster.pid left behind"
expect 3 "$PG_CTL" -D "$data" status
expect 1 "$PG_CTL" -D "$data" -w -t 5 stop
expect 1 "$PG_CTL" -D "$data" reload
expect 4 "$PG_CTL" -D "$tmp/nonexistent" status
# smart stop with mode flags; immediate as well
expect 0 "$PG_CTL" -D "$data" -p "$tmp/rocklake" -o "\"$opts\"" -l "$tmp/server.log" -w -t 30 start
expect 0 "$PG_CTL" -D "$data" -m smart -w -t 30 stop
expect 0 "$PG_CTL" -D "$data" -p "$tmp/rocklake" -o "\"$opts\"" -l "$tmp/server.log" -w -t 30 start
expect 0 "$PG_CTL" -D "$data" -m immediate -w -t 30 stop
echo "ok: pg_ctl start/status/reload/restart/stop"

# --- the SysV init script ---
cat > "$tmp/defaults" <<EOT
ROCKLAKE_BIN=$tmp/rocklake
PGDATA=$data
ROCKLAKE_USER=$user
ROCKLAKE_LOG=$tmp/init.log
ROCKLAKE_OPTS="$opts"
START_TIMEOUT=30
EOT
initscript=$top_builddir/contrib/init.d/rocklake
sysv() { ROCKLAKE_DEFAULTS=$tmp/defaults sh "$initscript" "$@" >"$tmp/out" 2>&1 && echo 0 || echo $?; }
[ "$(sysv status)" = 3 ] || fail "init status when stopped"
[ "$(sysv start)" = 0 ] || fail "init start: $(cat "$tmp/out")"
pid=$(sed -n 1p "$data/postmaster.pid")
[ "$(stat -c %U "/proc/$pid")" = "$user" ] || fail "init script server does not run as $user"
[ "$(sysv start)" = 0 ] || fail "init start when running"
[ "$(sysv status)" = 0 ] || fail "init status when running"
[ "$(sysv reload)" = 0 ] || fail "init reload"
[ "$(sysv stop)" = 0 ] || fail "init stop"
[ ! -e "$data/postmaster.pid" ] || fail "postmaster.pid left after init stop"
[ "$(sysv stop)" = 0 ] || fail "init stop when stopped"
[ "$(sysv status)" = 3 ] || fail "init status after stop"
[ "$(sysv reload)" = 7 ] || fail "init reload when stopped"
# a postmaster.pid whose process is gone: "dead but pid file exists"
printf '999999\n%s\n0\n%s\n\n\n\nready   \n' "$data" "$port" > "$data/postmaster.pid"
[ "$(sysv status)" = 1 ] || fail "init status with a stale pidfile"
[ "$(sysv start)" = 0 ] || fail "init start over a stale pidfile: $(cat "$tmp/out")"
[ "$(sysv stop)" = 0 ] || fail "init stop"
echo "ok: init script start/status/reload/stop"
echo PASS
