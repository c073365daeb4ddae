# moto.sh: moto's standalone S3 server for the test scripts, sourced after common.sh
# (". moto.sh"). Needs $workdir (logs go there); every server started is stopped
# by rl_stop_motos (call it from the script's cleanup).
#
#   rl_start_moto NAME        start one (environment passed through), set $endpoint
#   aws_call SERVICE ARGS...  a request to $endpoint signed by curl's own SigV4 code

moto="$top_srcdir/.venv/bin/moto_server"
[ -x "$moto" ] || rl_skip_or_fail "$moto not found (run contrib/install-deps.sh --test)"
moto_pids=""

rl_start_moto()
{
	port=$(rl_free_port)
	"$moto" -H 127.0.0.1 -p "$port" >"$workdir/$1.log" 2>&1 &
	moto_pids="$moto_pids $!"
	endpoint="http://127.0.0.1:$port"
	if ! rl_wait_http "$endpoint/" 60; then
		echo "moto ($1) did not start:" >&2
		cat "$workdir/$1.log" >&2
		exit 1
	fi
}

rl_stop_motos()
{
	for pid in $moto_pids; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	moto_pids=""
}

aws_call()
{
	service=$1
	shift
	curl -sS --fail-with-body --aws-sigv4 "aws:amz:us-east-1:$service" \
		--user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$@"
}
