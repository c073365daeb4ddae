#!/bin/sh
# duckdb.sh: DuckDB 1.4.4 with its ducklake and postgres extensions (from PyPI, loaded
# offline) against RockLake and against a real PostgreSQL 15, end to end and
# differentially, plus bad input sent with psycopg: the pytest suite in test/duckdb.
set -eu
. "$top_srcdir/test/scripts/common.sh"

PY=$top_srcdir/.venv/bin/python
[ -x "$PY" ] || rl_skip_or_fail "no .venv (run contrib/install-deps.sh)"
"$PY" -c 'import duckdb, psycopg, pytest, pytz, sqlalchemy; import importlib.metadata as m; [m.version(p) for p in ("duckdb-ext-ducklake", "duckdb-ext-postgres")]' \
	2>/dev/null || rl_skip_or_fail "duckdb, its extensions, SQLAlchemy or pytest not installed in .venv (run contrib/install-deps.sh)"
[ -x "${PG_BINDIR:-/usr/lib/postgresql/15/bin}/postgres" ] ||
	rl_skip_or_fail "PostgreSQL 15 server not installed (postgresql-15)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rl-duckdb.XXXXXX")
trap 'rm -rf "$work"' EXIT
export top_srcdir top_builddir PYTHONDONTWRITEBYTECODE=1
"$PY" -m pytest "$top_srcdir/test/duckdb" -q -rfEX --basetemp="$work/pytest" -p no:cacheprovider
