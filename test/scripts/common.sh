# common.sh: helpers for the test scripts, sourced (". common.sh") rather than run.
# The scripts are run by "make check" with top_srcdir and top_builddir in the
# environment; an exit status of 77 means "skipped", anything else non-zero "failed".

# Exit as skipped, unless this is CI (CI=true), where a missing prerequisite is a
# failure: a test that silently skips in CI proves nothing.
rl_skip_or_fail()
{
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

# Print a TCP port on 127.0.0.1 that nothing listens on right now.
rl_free_port()
{
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# rl_wait_http URL SECONDS: wait until URL answers HTTP (any status); 1 on timeout.
rl_wait_http()
{
	tries=$(($2 * 10))
	while [ "$tries" -gt 0 ]; do
		code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$1" 2>/dev/null || true)
		[ -n "$code" ] && [ "$code" != 000 ] && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# rl_unprivileged_user: set RL_USER to a user PostgreSQL's programs (initdb, postgres,
# pg_ctl) agree to run as: the current user, or as root the system user rocklake-test,
# created if missing.
rl_unprivileged_user()
{
	RL_USER=$(id -un)
	if [ "$(id -u)" -eq 0 ]; then
		RL_USER=rocklake-test
		id "$RL_USER" >/dev/null 2>&1 ||
			useradd --system --no-create-home --shell /usr/sbin/nologin "$RL_USER" ||
			rl_skip_or_fail "cannot create user $RL_USER"
	fi
}

# rl_as_user COMMAND: run the shell command line COMMAND as RL_USER.
rl_as_user()
{
	if [ "$(id -u)" -eq 0 ]; then
		su -s /bin/sh "$RL_USER" -c "$*"
	else
		sh -c "$*"
	fi
}

# rl_require_clients: exit as skipped (failed in CI) unless the driver clients of the
# protocol tests are installed: psycopg and asyncpg in .venv (RL_PY is its python),
# pgjdbc with a JDK, node-postgres under test/node; contrib/install-deps.sh --test installs them.
RL_PY=${top_srcdir:-.}/.venv/bin/python
RL_PGJDBC_JAR=/usr/share/java/postgresql.jar
rl_require_clients()
{
	[ -x "$RL_PY" ] || rl_skip_or_fail "no .venv (run contrib/install-deps.sh --test)"
	"$RL_PY" -c 'import psycopg, asyncpg' 2>/dev/null ||
		rl_skip_or_fail "psycopg/asyncpg not installed in .venv"
	command -v javac >/dev/null && [ -r "$RL_PGJDBC_JAR" ] ||
		rl_skip_or_fail "pgjdbc or javac missing (libpostgresql-jdbc-java, default-jdk-headless)"
	command -v node >/dev/null && [ -d "${top_srcdir:-.}/test/node/node_modules/pg" ] ||
		rl_skip_or_fail "node-postgres not installed (npm ci --prefix test/node)"
}

# rl_jdbc_smoke HOST PORT USER: compile test/java/JdbcSmoke.java and run it with
# Debian's pgjdbc (libpostgresql-jdbc-java) against the server at HOST:PORT.
rl_jdbc_smoke()
{
	classes=$(mktemp -d "${TMPDIR:-/tmp}/rl-jdbc.XXXXXX")
	javac -d "$classes" "$top_srcdir/test/java/JdbcSmoke.java" &&
		java -cp "$RL_PGJDBC_JAR:$classes" JdbcSmoke "$@" && rc=0 || rc=$?
	rm -rf "$classes"
	return "$rc"
}

# rl_node_smoke HOST PORT USER: run test/node/smoke.js with the node-postgres that
# contrib/install-deps.sh --test installed into test/node/node_modules.
rl_node_smoke()
{
	node "$top_srcdir/test/node/smoke.js" "$@"
}
