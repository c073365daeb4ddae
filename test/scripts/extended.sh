#!/bin/sh
# extended.sh: the extended query protocol. test/protocol/check_extended drives it
# through libpq; a raw-socket client below covers what libpq cannot ask for:
# named portals run a few rows at a time (PortalSuspended), Close of unknown
# names, Flush without Sync, skipping every message after an error until Sync,
# a Bind with the wrong number of parameters, and an invalid message type. With
# log_min_duration_statement=0, Parse, Bind and Execute log their durations in
# PostgreSQL's words.
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-ext.XXXXXX")
trap 'rl_server_stop fast >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
rl_server_start "$work/data" -c log_min_duration_statement=0
export PGDATABASE=postgres PGSSLMODE=disable

"$top_builddir/test/protocol/check_extended"

python3 "$top_srcdir/test/scripts/raw_extended.py" "$RL_HOST" "$RL_PORT"
for line in 'parse <unnamed>: select $1::int \* 6' 'bind <unnamed>: select $1::int \* 6' \
	'execute <unnamed>: select $1::int \* 6' 'parse st1: select $1::text' 'execute st1: select $1::text'; do
	grep -q "LOG:  duration: [0-9]*\.[0-9][0-9][0-9] ms  $line" "$RL_LOG" || {
		echo "FAIL: no 'duration: ... $line' line in the log" >&2
		exit 1
	}
done
echo "PASS: extended"
