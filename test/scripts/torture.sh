#!/bin/sh
# torture.sh: test/torture/torture.py, TORTURE_KILLS (200) SIGKILLs of random server
# processes at random points under psycopg and DuckDB writers, seeded by TORTURE_SEED
# (1): the server must come back every time and keep every acknowledged commit.
# Then the server's log must show no crash of its own (a signal other than our 9)
# and no sanitizer report.
set -eu
. "$top_srcdir/test/scripts/common.sh"

python=$top_srcdir/.venv/bin/python
[ -x "$python" ] || rl_skip_or_fail "$python not found (run contrib/install-deps.sh --test)"
work=$(mktemp -d /tmp/rl-torture-XXXXXX)
trap 'rm -rf "$work"' EXIT
rc=0
"$python" "$top_srcdir/test/torture/torture.py" "$top_builddir/rocklake" "$work" \
	--kills "${TORTURE_KILLS:-200}" --seed "${TORTURE_SEED:-1}" || rc=$?
if grep -E 'terminated by signal ([0-8]|1[0-9]|[2-9][0-9])\b|AddressSanitizer|runtime error:' "$work/server.log" >"$work/crashes"; then
	echo "FAIL: the server crashed by itself:" >&2
	head -20 "$work/crashes" >&2
	rc=1
fi
[ "$rc" -eq 0 ] || tail -40 "$work/server.log" >&2
exit "$rc"
