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
