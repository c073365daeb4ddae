#!/bin/sh
# s3_backend.sh: runs the S3 backend test program (test/unit/check_objstore_s3)
# against moto's standalone S3 server from the project's virtualenv.
#
# Two servers, one after the other:
#  1. moto as it comes (it does not check signatures): the whole conformance suite,
#     including keys with spaces, UTF-8 and punctuation.
#  2. moto with IAM authentication on: a user and access key are created while the
#     first INITIAL_NO_AUTH_ACTION_COUNT requests are still free, and the "signed
#     requests" case runs with that key, so botocore's SigV4 implementation inside
#     moto independently verifies what we sign (and refuses a wrong secret). moto
#     percent-decodes the request URL before re-signing it, so it only agrees with
#     AWS for paths of unreserved characters, '/' and spaces, and for queries
#     without escapes: odd keys and LIST are tested in phase 1 only.
# The exit status is the test result (77: skipped, outside CI only).
set -eu

. "$top_srcdir/test/scripts/common.sh"

test_program="$top_builddir/test/unit/check_objstore_s3"
for program in "$test_program" "$top_builddir/test/unit/check_lsm" "$top_builddir/rocklake-admin"; do
	[ -x "$program" ] || rl_skip_or_fail "$program is not built"
done
bucket=rocklake-test

workdir=$(mktemp -d)
. "$top_srcdir/test/scripts/moto.sh"
cleanup()
{
	rl_stop_motos
	rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

export ROCKLAKE_TEST_S3_BUCKET=$bucket
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing

echo "phase 1: moto without authentication"
rl_start_moto plain
aws_call s3 -o /dev/null -X PUT "$endpoint/$bucket"
ROCKLAKE_TEST_S3_ENDPOINT=$endpoint "$test_program"

echo "phase 1b: the LSM test suite on the S3 backend (concurrent races excluded: moto's"
echo "conditional writes are not atomic under concurrency)"
AWS_ENDPOINT_URL=$endpoint ROCKLAKE_TEST_LSM_S3_BUCKET=$bucket CK_RUN_CASE=sequential \
	"$top_builddir/test/unit/check_lsm"

echo "phase 1c: rocklake-admin on an S3 store"
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

echo "phase 2: moto verifying SigV4 signatures"
# free actions: the readiness probe, three IAM calls and the bucket creation
INITIAL_NO_AUTH_ACTION_COUNT=5 rl_start_moto signed
aws_call iam -o /dev/null "$endpoint/" -d 'Action=CreateUser&UserName=rocklake&Version=2010-05-08'
aws_call iam "$endpoint/" -d 'Action=CreateAccessKey&UserName=rocklake&Version=2010-05-08' \
	>"$workdir/key.xml"
aws_call iam -o /dev/null "$endpoint/" -d 'Action=PutUserPolicy&UserName=rocklake&PolicyName=all&Version=2010-05-08' \
	--data-urlencode 'PolicyDocument={"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}'
aws_call s3 -o /dev/null -X PUT "$endpoint/$bucket"
AWS_ACCESS_KEY_ID=$(sed -n 's|.*<AccessKeyId>\([^<]*\)</AccessKeyId>.*|\1|p' "$workdir/key.xml")
AWS_SECRET_ACCESS_KEY=$(sed -n 's|.*<SecretAccessKey>\([^<]*\)</SecretAccessKey>.*|\1|p' "$workdir/key.xml")
[ -n "$AWS_ACCESS_KEY_ID" ] && [ -n "$AWS_SECRET_ACCESS_KEY" ] || {
	echo "no access key in moto's CreateAccessKey answer:" >&2
	cat "$workdir/key.xml" >&2
	exit 1
}
ROCKLAKE_TEST_S3_ENDPOINT=$endpoint ROCKLAKE_TEST_S3_VERIFIES_SIGNATURES=1 \
	CK_RUN_CASE="signed requests" "$test_program"
