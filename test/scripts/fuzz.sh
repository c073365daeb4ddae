#!/bin/sh
# fuzz.sh: test/fuzz/fuzz.py against a server of its own, for a bounded time:
# FUZZ_SECONDS (60) of statements, then half as long of protocol messages, seeded by
# FUZZ_SEED (1). No session may be lost to a crash, the server must still answer,
# and its log must show no crash (a backend terminated by a signal) and no
# sanitizer report. A longer run: FUZZ_SECONDS=3600 FUZZ_SEED=7 make check
# TESTS=test/scripts/fuzz.sh (doc/robustness.md records them).
set -eu
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"

python=$top_srcdir/.venv/bin/python
[ -x "$python" ] || rl_skip_or_fail "$python not found (run contrib/install-deps.sh --test)"
tmp=$(mktemp -d /tmp/rl-fuzz-XXXXXX)
cleanup() { rl_server_stop immediate >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
seconds=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:-1}

rl_server_start "$tmp/data"
trap cleanup EXIT
rc=0
"$python" "$top_srcdir/test/fuzz/fuzz.py" sql 127.0.0.1 "$RL_PORT" "$seconds" "$seed" || rc=1
"$python" "$top_srcdir/test/fuzz/fuzz.py" wire 127.0.0.1 "$RL_PORT" $((seconds / 2)) "$seed" || rc=1
if grep -E 'terminated by signal|AddressSanitizer|runtime error:' "$RL_LOG" >"$tmp/crashes"; then
	echo "FAIL: the server crashed:" >&2
	head -20 "$tmp/crashes" >&2
	rc=1
fi
rl_server_stop fast || rc=1
exit "$rc"
