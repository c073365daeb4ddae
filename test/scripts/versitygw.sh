# versitygw.sh: versitygw, a real S3 gateway, for the test scripts, sourced after
# common.sh (". versitygw.sh"). Its posix backend keeps each bucket as a directory
# and each object as a file, and it checks If-None-Match and If-Match under a lock
# of the key, so that of racing conditional PUTs exactly one wins: what RockLake's
# fencing rests on (check_objstore_s3's "races" case proves it on each run).
# contrib/install-deps.sh --test builds it into .cache/bin. It checks every
# request's SigV4 signature against the credentials it was started with.
#
# Needs $workdir (its root directories and logs go there) and AWS_ACCESS_KEY_ID /
# AWS_SECRET_ACCESS_KEY (its root user); every server started is stopped by
# rl_stop_versitygws (call it from the script's cleanup).
#
#   rl_start_versitygw NAME BUCKET...  start one on a free loopback port, with its
#                                      root in $workdir/NAME.root, and make the
#                                      buckets (signed by curl's own SigV4 code);
#                                      sets $endpoint (and $admin_endpoint, its admin API)
#   rl_versitygw_reader BUCKET ACCESS SECRET
#                                      a user of the last one started who may only
#                                      read BUCKET (GET, HEAD, LIST; a bucket policy):
#                                      every PUT or DELETE it signs is AccessDenied

versitygw="$top_srcdir/.cache/bin/versitygw"
[ -x "$versitygw" ] || rl_skip_or_fail "$versitygw not found (run contrib/install-deps.sh --test)"
versitygw_pids=""

rl_start_versitygw()
{
	name=$1
	shift
	port=$(rl_free_port)
	admin_port=$(rl_free_port)
	mkdir -p "$workdir/$name.root" "$workdir/$name.iam"
	"$versitygw" --access "$AWS_ACCESS_KEY_ID" --secret "$AWS_SECRET_ACCESS_KEY" \
		--port "127.0.0.1:$port" --admin-port "127.0.0.1:$admin_port" --iam-dir "$workdir/$name.iam" \
		--keep-alive --quiet posix "$workdir/$name.root" >"$workdir/$name.log" 2>&1 &
	versitygw_pids="$versitygw_pids $!"
	endpoint="http://127.0.0.1:$port"
	admin_endpoint="http://127.0.0.1:$admin_port"
	if ! rl_wait_http "$endpoint/" 30; then
		echo "versitygw ($name) did not start:" >&2
		cat "$workdir/$name.log" >&2
		exit 1
	fi
	# curl signs the payload's hash only when given it, and S3 wants it
	for bucket_name in "$@"; do
		curl -sS --fail-with-body -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" \
			--user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
			-H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -X PUT "$endpoint/$bucket_name"
	done
}

# rl_versitygw_scratch: a new $workdir for a script with nothing else to clean up: on
# exit every server started is stopped and $workdir removed
rl_versitygw_scratch()
{
	workdir=$(mktemp -d)
	trap 'rl_stop_versitygws; rm -rf "$workdir"' EXIT
	trap 'exit 1' INT TERM
}

rl_versitygw_reader()
{
	"$versitygw" admin --access "$AWS_ACCESS_KEY_ID" --secret "$AWS_SECRET_ACCESS_KEY" \
		--endpoint-url "$admin_endpoint" create-user --access "$2" --secret "$3" --role user >/dev/null
	printf '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": ["%s"]},
	  "Action": ["s3:GetObject", "s3:ListBucket"], "Resource": ["arn:aws:s3:::%s", "arn:aws:s3:::%s/*"]}]}' \
		"$2" "$1" "$1" >"$workdir/$1.policy.json"
	# "?policy=": curl signs the query as written, and S3 canonicalises "policy" so
	curl -sS --fail-with-body -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" \
		--user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" \
		-X PUT --data-binary "@$workdir/$1.policy.json" "$endpoint/$1?policy="
}

rl_stop_versitygws()
{
	for pid in $versitygw_pids; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	versitygw_pids=""
}
