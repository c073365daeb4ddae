# bench_env.sh: what every benchmark script starting RockLake beside PostgreSQL 15
# sources once it has set top_builddir: the test scripts' helpers (common.sh,
# server.sh, postgres.sh) and the project's .venv, checked.
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
export top_srcdir top_builddir
. "$top_srcdir/test/scripts/common.sh"
. "$top_srcdir/test/scripts/server.sh"
. "$top_srcdir/test/scripts/postgres.sh"
[ -x "$RL_PY" ] || { echo "no .venv: run contrib/install-deps.sh" >&2; exit 1; }
