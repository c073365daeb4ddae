#!/bin/sh
# s3_backend.sh: runs the S3 backend test program (test/unit/check_objstore_s3), the
# LSM test suite and rocklake-admin against versitygw, a real S3 gateway built by
# contrib/install-deps.sh --test (test/scripts/versitygw.sh):
#  1. the whole conformance suite, keys with spaces, UTF-8 and punctuation included;
#     versitygw verifies every SigV4 signature itself (and refuses a wrong secret,
#     the "signed requests" case), and its conditional writes are atomic: racing
#     If-None-Match and If-Match PUTs to one key, exactly one wins (the "races" case);
#  2. the LSM test suite on the S3 backend, its racing writers (one survives, the
#     other is fenced) and a follower reading while the writer commits included;
#  3. rocklake-admin on an S3 store.
# The exit status is the test result (77: skipped, outside CI only).
set -eu

. "$top_srcdir/test/scripts/common.sh"

test_program="$top_builddir/test/unit/check_objstore_s3"
for program in "$test_program" "$top_builddir/test/unit/check_lsm" "$top_builddir/rocklake-admin"; do
	[ -x "$program" ] || rl_skip_or_fail "$program is not built"
done
bucket=rocklake-test

. "$top_srcdir/test/scripts/versitygw.sh"
rl_versitygw_scratch

export ROCKLAKE_TEST_S3_BUCKET=$bucket
export AWS_ACCESS_KEY_ID=rocklake AWS_SECRET_ACCESS_KEY=rocklake-secret
rl_start_versitygw s3 "$bucket"

echo "phase 1: the S3 backend's conformance, signatures verified, racing conditional writes"
ROCKLAKE_TEST_S3_ENDPOINT=$endpoint ROCKLAKE_TEST_S3_VERIFIES_SIGNATURES=1 "$test_program"

echo "phase 2: the LSM test suite on the S3 backend, racing writers included"
AWS_ENDPOINT_URL=$endpoint ROCKLAKE_TEST_LSM_S3_BUCKET=$bucket "$top_builddir/test/unit/check_lsm"

echo "phase 3: rocklake-admin on an S3 store"
admin="$top_builddir/rocklake-admin"
store="s3://$bucket/admin-test"
AWS_ENDPOINT_URL=$endpoint "$admin" init "$store"
AWS_ENDPOINT_URL=$endpoint "$admin" sample "$store"
AWS_ENDPOINT_URL=$endpoint "$admin" inspect "$store" --table ducklake_schema >"$workdir/inspect.txt"
grep -q "schema_name: 'main'" "$workdir/inspect.txt" || {
	echo "inspect did not show the sample schema row:" >&2
	cat "$workdir/inspect.txt" >&2
	exit 1
}
AWS_ENDPOINT_URL=$endpoint "$admin" verify "$store"
