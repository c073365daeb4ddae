#!/bin/sh
# failover.sh: test/torture/failover.py on a real S3 server (versitygw): FAILOVER_ROUNDS
# times (10 here, to keep CI short; doc/robustness.md has a run of 20), every process
# of the writing server is killed with SIGKILL under psycopg and DuckDB writers
# (FAILOVER_DUCKDB_WRITERS, 16) and standby readers, a standby is
# promoted and the clients go on against it; every acknowledged commit must be there
# at the end and the standbys must converge. Then no server may have crashed by
# itself (a signal other than our 9) nor reported a sanitizer error.
# FAILOVER_ROUNDS=0 FAILOVER_STANDBYS=8 measures the standbys' lag instead, for
# FAILOVER_DURATION seconds of load with no failover (doc/robustness.md). With
# FAILOVER_FAULTS=P every request to the store goes through s3_fault_proxy.py, which
# answers a fraction P of them with a 503, a cut connection or a lost response.
set -eu
. "$top_srcdir/test/scripts/common.sh"

python=$top_srcdir/.venv/bin/python
[ -x "$python" ] || rl_skip_or_fail "$python not found (run contrib/install-deps.sh --test)"
command -v pgrep >/dev/null || rl_skip_or_fail "pgrep not found"
workdir=$(mktemp -d /tmp/rl-failover-XXXXXX)
versitygw_pids=
. "$top_srcdir/test/scripts/versitygw.sh"
proxy_pid=
trap '[ -z "$proxy_pid" ] || kill "$proxy_pid"; [ -z "$versitygw_pids" ] || rl_stop_versitygws; rm -rf "$workdir"' EXIT
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
rl_start_versitygw s3 lake
export AWS_ENDPOINT_URL=$endpoint ROCKLAKE_S3_PATH_STYLE=1
if [ -n "${FAILOVER_FAULTS:-}" ]; then
	proxy_port=$(rl_free_port)
	echo "chaos $FAILOVER_FAULTS" >"$workdir/proxy.mode"
	python3 "$top_srcdir/test/scripts/s3_fault_proxy.py" "$proxy_port" "${endpoint##*:}" "$workdir/proxy.mode" \
		>"$workdir/proxy.out" 2>&1 &
	proxy_pid=$!
	tries=50
	until grep -q listening "$workdir/proxy.out"; do
		tries=$((tries - 1)); [ "$tries" -gt 0 ] || { echo "FAIL: the proxy did not start" >&2; exit 1; }
		sleep 0.1
	done
	export AWS_ENDPOINT_URL=http://127.0.0.1:$proxy_port
fi
mkdir "$workdir/run"
rc=0
"$python" "$top_srcdir/test/torture/failover.py" "$top_builddir/rocklake" "$workdir/run" \
	--store s3://lake/failover --rounds "${FAILOVER_ROUNDS:-10}" --seed "${FAILOVER_SEED:-1}" \
	--duckdb-writers "${FAILOVER_DUCKDB_WRITERS:-16}" --standbys "${FAILOVER_STANDBYS:-2}" \
	--duration "${FAILOVER_DURATION:-20}" || rc=$?
if grep -E 'terminated by signal ([0-8]|1[0-9]|[2-9][0-9])\b|AddressSanitizer|runtime error:' "$workdir"/run/*.log >"$workdir/crashes"; then
	echo "FAIL: a server crashed by itself:" >&2
	head -20 "$workdir/crashes" >&2
	rc=1
fi
[ -z "${FAILOVER_FAULTS:-}" ] || echo "the proxy lost $(grep -c '^lost' "$workdir/proxy.out") responses"
[ "$rc" -eq 0 ] || tail -30 "$workdir"/run/*.log >&2
exit "$rc"
