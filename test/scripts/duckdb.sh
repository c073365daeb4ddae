#!/bin/sh
# duckdb.sh: the pytest suite in test/duckdb, once per DuckDB client: DuckDB 1.4.4
# (DuckLake 0.3, in .venv) and DuckDB 1.5.5 (DuckLake 1.0, in .venv-duckdb15), each with its
# ducklake and postgres extensions (from PyPI, loaded offline), against RockLake and against
# a real PostgreSQL 15, end to end and differentially. One Python process loads one duckdb
# module, so each client is a pytest run of its own in its own virtualenv; RL_DUCKDB_CLIENT
# names the client the run expects. The tests that use no DuckDB (bad input and the like,
# sent with psycopg) run once, in the first run, as does the migration of a 1.4.4 lake by
# 1.5.5 (which runs each release as a program of its virtualenv); the second run takes
# those marked "duckdb".
set -eu
. "$top_srcdir/test/scripts/common.sh"

[ -x "${PG_BINDIR:-/usr/lib/postgresql/15/bin}/postgres" ] ||
	rl_skip_or_fail "PostgreSQL 15 server not installed (postgresql-15)"
# check_venv DIR VERSION DISTRIBUTION...: DIR holds DuckDB VERSION, its extensions and the test tools
check_venv()
{
	[ -x "$1/bin/python" ] || rl_skip_or_fail "no $1 (run contrib/install-deps.sh --test)"
	"$1/bin/python" -c 'import sys, duckdb, psycopg, pytest, pytz, importlib.metadata as m
[m.version(p) for p in sys.argv[2:]]
assert duckdb.__version__ == sys.argv[1]' "$2" "$3" "$4" \
		2>/dev/null || rl_skip_or_fail "DuckDB $2, its extensions or pytest not installed in $1 (run contrib/install-deps.sh --test)"
}
check_venv "$top_srcdir/.venv" 1.4.4 duckdb-ext-ducklake duckdb-ext-postgres
"$top_srcdir/.venv/bin/python" -c 'import sqlalchemy' 2>/dev/null ||
	rl_skip_or_fail "SQLAlchemy not installed in .venv (run contrib/install-deps.sh --test)"
"$top_srcdir/.venv/bin/python" -c 'import prometheus_client' 2>/dev/null ||
	rl_skip_or_fail "prometheus_client not installed in .venv (run contrib/install-deps.sh --test)"
check_venv "$top_srcdir/.venv-duckdb15" 1.5.5 duckdb-extension-ducklake duckdb-extension-postgres-scanner

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-duckdb.XXXXXX")
trap 'rm -rf "$work"' EXIT
export top_srcdir top_builddir PYTHONDONTWRITEBYTECODE=1
status=0
echo "DuckDB 1.4.4: every test"
RL_DUCKDB_CLIENT=1.4.4 "$top_srcdir/.venv/bin/python" -m pytest "$top_srcdir/test/duckdb" \
	-q -rfEX --basetemp="$work/duckdb14" -p no:cacheprovider || status=1
echo "DuckDB 1.5.5: the tests that use DuckDB"
RL_DUCKDB_CLIENT=1.5.5 "$top_srcdir/.venv-duckdb15/bin/python" -m pytest "$top_srcdir/test/duckdb" \
	-m duckdb -q -rfEX --basetemp="$work/duckdb15" -p no:cacheprovider || status=1
exit $status
