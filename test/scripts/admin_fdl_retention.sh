#!/bin/sh
# admin_fdl_retention.sh: rocklake-admin versions, expire and withdraw on a hand-laid
# repository of published versions (placeholder catalogs: retention reads no
# catalog), once in a local directory and once on a real S3 server (versitygw),
# checking after each step exactly which objects remain: expired.json is added, the
# catalogs (ducklake.duckdb, catalogs/<format>.duckdb) and files.json go, and
# nothing else is touched (data files, dataset.json, other versions, other files
# under catalogs/); a withdrawal also takes the keys asked for out of version.json
# and deletes the signature of its old text. A command cut short after writing
# expired.json is finished by running it again. Withdrawing a version without
# version.json (a publication cut short) leaves only its expired.json. Then dataset-check on a dataset
# description against a catalog description: the completed dataset.json, and a
# refusal naming the file and the key.
set -eu

. "$top_srcdir/test/scripts/common.sh"

admin="$top_builddir/rocklake-admin"
[ -x "$admin" ] || rl_skip_or_fail "$admin is not built"

. "$top_srcdir/test/scripts/versitygw.sh"
rl_versitygw_scratch

expect()
{
	# expect FILE PATTERN: the file must contain the fixed string
	grep -qF -- "$2" "$1" || {
		echo "expected \"$2\" in:" >&2
		cat "$1" >&2
		exit 1
	}
}

refused()
{
	# refused MESSAGE COMMAND...: the command fails and says MESSAGE
	message=$1
	shift
	if "$@" >"$workdir/out.txt" 2>&1; then
		echo "accepted: $*" >&2
		cat "$workdir/out.txt" >&2
		exit 1
	fi
	expect "$workdir/out.txt" "$message"
}

v1=019a2f10-0c4d-7e88-a1b2-55c0d9e3f7aa
v2=019a3c4e-7b21-7f3a-9c55-2f0d8e1a4b6c
v3=019a4000-0000-7000-8000-000000000003
v4=019a5000-0000-7000-8000-000000000004
bad=019a6000-0000-7000-8000-000000000005
cut=019a6100-0000-7000-8000-000000000006

version_json()
{
	# version_json ID SEQ SNAPSHOT [ID_WRITTEN]
	cat <<EOF
{
  "fdl": "0.1",
  "id": "${4:-$1}",
  "seq": $2,
  "parents": [],
  "created_at": "2026-10-30T09:00:0${2}Z",
  "author": {"name": "example"},
  "message": "figures from https://example.org/secret.csv",
  "catalog": {"path": "ducklake.duckdb", "storage": "duckdb-v1.5.0", "bytes": 4, "sha256": "00"},
  "ducklake": {"format": "1.0", "snapshot_id": $3, "snapshots": [1, $3]},
  "inputs": [{"source_id": "example:secret", "url": "https://example.org/secret.csv"}],
  "annotations": {"tool": {}}
}
EOF
}

# lay_repository DIR: the repository as files
lay_repository()
{
	r=$1
	mkdir -p "$r/data/main/t"
	echo '{"fdl": "0.1"}' >"$r/fdl.json"
	echo parquet >"$r/data/main/t/ducklake-1.parquet"
	for v in $v1 $v2 $v4 $bad; do
		mkdir -p "$r/versions/$v/catalogs"
		echo duck >"$r/versions/$v/ducklake.duckdb"
		echo duck >"$r/versions/$v/catalogs/1.0.duckdb"
		echo duck >"$r/versions/$v/catalogs/1.1.duckdb"
		echo notes >"$r/versions/$v/catalogs/README.txt"
		echo '{"tables": {}}' >"$r/versions/$v/files.json"
		echo '{"name": "d", "title": "D"}' >"$r/versions/$v/dataset.json"
		echo sig >"$r/versions/$v/version.json.sig"
	done
	version_json $v1 1 3 >"$r/versions/$v1/version.json"
	version_json $v2 2 7 >"$r/versions/$v2/version.json"
	version_json $v4 4 9 >"$r/versions/$v4/version.json"
	version_json $bad 5 11 $v1 >"$r/versions/$bad/version.json"
	# a publication cut short: version.json without its catalog
	mkdir -p "$r/versions/$v3"
	version_json $v3 3 8 >"$r/versions/$v3/version.json"
	# a publication killed while it wrote its files: no version.json
	mkdir -p "$r/versions/$cut/catalogs"
	echo duck >"$r/versions/$cut/ducklake.duckdb"
	echo duck >"$r/versions/$cut/catalogs/1.0.duckdb"
}

# the objects a version keeps after retirement, and the rest of the repository
expect_objects()
{
	# expect_objects LISTING: the repository's objects are exactly these (sorted)
	if ! diff -u "$workdir/expected.txt" "$1" >&2; then
		echo "the repository's objects differ from what was expected (above)" >&2
		exit 1
	fi
}

expected_after()
{
	# expected_after RETIRED_IDS...: the sorted object list once these are retired
	{
		echo data/main/t/ducklake-1.parquet
		echo fdl.json
		for v in $v1 $v2 $v4 $bad; do
			retired=no
			for r in "$@"; do [ "$r" = "$v" ] && retired=yes; done
			echo "versions/$v/catalogs/README.txt"
			echo "versions/$v/dataset.json"
			echo "versions/$v/version.json"
			if [ $retired = yes ]; then
				echo "versions/$v/expired.json"
			else
				echo "versions/$v/catalogs/1.0.duckdb"
				echo "versions/$v/catalogs/1.1.duckdb"
				echo "versions/$v/ducklake.duckdb"
				echo "versions/$v/files.json"
			fi
			# a withdrawal that redacted version.json drops its signature
			[ "$v" = "$v4" ] && [ $retired = yes ] || echo "versions/$v/version.json.sig"
		done
		echo "versions/$v3/version.json"
		case " $* " in
		*" $cut "*) echo "versions/$cut/expired.json" ;;
		*) echo "versions/$cut/catalogs/1.0.duckdb" && echo "versions/$cut/ducklake.duckdb" ;;
		esac
	} | LC_ALL=C sort >"$workdir/expected.txt"
}

# run_retention REPO LIST_CMD READ_CMD PUT_CMD: the whole sequence on one repository;
# LIST_CMD prints its objects, READ_CMD KEY prints one, PUT_CMD FILE KEY writes one
run_retention()
{
	repo=$1
	list=$2
	read=$3
	put=$4

	"$admin" versions "$repo" >"$workdir/versions.txt"
	expect "$workdir/versions.txt" "$v1       1  2026-10-30T09:00:01Z           3  published"
	expect "$workdir/versions.txt" "$v2       2  2026-10-30T09:00:02Z           7  published"
	expect "$workdir/versions.txt" "$v3       3  2026-10-30T09:00:03Z           8  incomplete"
	expect "$workdir/versions.txt" "$cut       -  -                              -  incomplete"
	expect "$workdir/versions.txt" "(6 versions)"

	# bad input changes nothing
	refused '"../x" is not a version id' "$admin" expire "$repo" ../x
	refused "version 019a7000-0000-7000-8000-000000000000 is not in the repository" \
		"$admin" expire "$repo" 019a7000-0000-7000-8000-000000000000
	refused "names version \"$v1\", not its directory's $bad: refusing to change it" \
		"$admin" withdraw "$repo" $bad
	refused "version.json's \"author\" cannot be redacted" "$admin" withdraw "$repo" $v4 --redact author
	refused "Usage:" "$admin" expire "$repo" $v1 --redact inputs
	expected_after
	$list >"$workdir/objects.txt"
	expect_objects "$workdir/objects.txt"

	# expiry: expired.json, then the catalogs and files.json go
	"$admin" expire "$repo" $v1 --reason "past the retention period" >"$workdir/expire.txt"
	expect "$workdir/expire.txt" "wrote versions/$v1/expired.json (expired)"
	expect "$workdir/expire.txt" "deleted versions/$v1/catalogs/1.1.duckdb"
	expect "$workdir/expire.txt" "deleted versions/$v1/ducklake.duckdb"
	expect "$workdir/expire.txt" "deleted versions/$v1/files.json"
	$read "versions/$v1/expired.json" >"$workdir/expired.json"
	python3 - "$workdir/expired.json" <<'EOF'
import json, re, sys
e = json.load(open(sys.argv[1]))
assert list(e) == ["expired_at", "reason", "message"], e
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e["expired_at"]), e
assert e["reason"] == "expired" and e["message"] == "past the retention period", e
EOF
	expected_after $v1
	$list >"$workdir/objects.txt"
	expect_objects "$workdir/objects.txt"
	# again: nothing more to do
	"$admin" expire "$repo" $v1 >"$workdir/again.txt"
	expect "$workdir/again.txt" "versions/$v1/expired.json already says expired at"
	$read "versions/$v1/expired.json" | cmp - "$workdir/expired.json"

	# a withdrawal cut short after writing expired.json: running it again finishes it
	printf '{"expired_at": "2026-11-01T00:00:00Z", "reason": "withdrawn"}\n' >"$workdir/cut.json"
	$put "$workdir/cut.json" "versions/$v2/expired.json"
	"$admin" versions "$repo" >"$workdir/versions.txt"
	expect "$workdir/versions.txt" "$v2       2  2026-10-30T09:00:02Z           7  withdrawn"
	"$admin" withdraw "$repo" $v2 >"$workdir/withdraw.txt"
	expect "$workdir/withdraw.txt" "versions/$v2/expired.json already says withdrawn at 2026-11-01T00:00:00Z"
	expect "$workdir/withdraw.txt" "deleted versions/$v2/ducklake.duckdb"
	expected_after $v1 $v2
	$list >"$workdir/objects.txt"
	expect_objects "$workdir/objects.txt"

	# a withdrawal taking data out of version.json; expiring it later keeps it withdrawn
	"$admin" withdraw "$repo" $v4 --reason "personal data" --redact inputs --redact message \
		>"$workdir/withdraw.txt"
	expect "$workdir/withdraw.txt" "wrote versions/$v4/expired.json (withdrawn)"
	expect "$workdir/withdraw.txt" "took \"inputs\" out of versions/$v4/version.json"
	expect "$workdir/withdraw.txt" "deleted versions/$v4/version.json.sig"
	$read "versions/$v4/version.json" >"$workdir/v4.json"
	$read "versions/$v4/expired.json" >"$workdir/v4e.json"
	python3 - "$workdir/v4.json" "$workdir/v4e.json" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
assert "inputs" not in v and v["message"] == "" and v["annotations"] == {"tool": {}}, v
assert v["ducklake"]["snapshot_id"] == 9 and v["seq"] == 4, v
e = json.load(open(sys.argv[2]))
assert e["reason"] == "withdrawn" and e["message"] == "personal data", e
assert e["redacted"] == ["inputs", "message"], e
EOF
	"$admin" expire "$repo" $v4 >"$workdir/again.txt"
	expect "$workdir/again.txt" "already says withdrawn"
	expected_after $v1 $v2 $v4
	$list >"$workdir/objects.txt"
	expect_objects "$workdir/objects.txt"

	# a publication cut short: expire refuses it, withdraw leaves its expired.json only
	refused "version $cut is not in the repository (no versions/$cut/version.json)" \
		"$admin" expire "$repo" $cut
	"$admin" withdraw "$repo" $cut >"$workdir/withdraw.txt"
	expect "$workdir/withdraw.txt" "versions/$cut/version.json is missing: a publication cut short"
	expect "$workdir/withdraw.txt" "wrote versions/$cut/expired.json (withdrawn)"
	expect "$workdir/withdraw.txt" "deleted versions/$cut/catalogs/1.0.duckdb"
	"$admin" withdraw "$repo" $cut >"$workdir/again.txt"
	if grep -q deleted "$workdir/again.txt"; then cat "$workdir/again.txt" >&2; exit 1; fi
	expected_after $v1 $v2 $v4 $cut
	$list >"$workdir/objects.txt"
	expect_objects "$workdir/objects.txt"
	refused "version 019a7000-0000-7000-8000-000000000000 is not in the repository (nothing under" \
		"$admin" withdraw "$repo" 019a7000-0000-7000-8000-000000000000

	"$admin" versions "$repo" >"$workdir/versions.txt"
	expect "$workdir/versions.txt" "$v1       1  2026-10-30T09:00:01Z           3  expired"
	expect "$workdir/versions.txt" "$v4       4  2026-10-30T09:00:04Z           9  withdrawn"
	expect "$workdir/versions.txt" "$cut       -  -                              -  withdrawn"
}

echo "phase 1: a repository in a local directory"
local_repo="$workdir/repo"
lay_repository "$local_repo"
list_local() { (cd "$local_repo" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); }
read_local() { cat "$local_repo/$1"; }
put_local() { cp "$1" "$local_repo/$2"; }
run_retention "$local_repo" list_local read_local put_local
refused 'repository "'"$workdir"'/none" does not exist' "$admin" versions "$workdir/none"
[ ! -e "$workdir/none" ] || { echo "versions made a directory" >&2; exit 1; }

echo "phase 2: the same repository on S3 (versitygw)"
export AWS_ACCESS_KEY_ID=rocklake AWS_SECRET_ACCESS_KEY=rocklake-secret
bucket=fdl-test
rl_start_versitygw s3 "$bucket"
export AWS_ENDPOINT_URL=$endpoint
s3_curl()
{
	curl -sS --fail-with-body --aws-sigv4 "aws:amz:us-east-1:s3" \
		--user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"
}
laid="$workdir/laid"
lay_repository "$laid"
(cd "$laid" && find . -type f | sed 's|^\./||') | while read -r key; do
	s3_curl -o /dev/null -X PUT --data-binary "@$laid/$key" "$endpoint/$bucket/repo/$key"
done
# versitygw's posix backend keeps each object as a file under its root (its own
# temporaries in dot-directories)
list_s3()
{
	(cd "$workdir/s3.root/$bucket/repo" && find . -path '*/.*' -prune -o -type f -print) |
		sed 's|^\./||' | LC_ALL=C sort
}
read_s3() { s3_curl "$endpoint/$bucket/repo/$1"; }
put_s3() { s3_curl -o /dev/null -X PUT --data-binary "@$1" "$endpoint/$bucket/repo/$2"; }
run_retention "s3://$bucket/repo" list_s3 read_s3 put_s3

echo "phase 3: dataset-check"
mkdir "$workdir/desc"
cat >"$workdir/catalog.json" <<'EOF'
{"database": "lake",
 "tables": [{"schema": "main", "name": "t", "rows": 3, "comment": "a table",
             "columns": [{"name": "a", "type": "int64", "nullable": false, "comment": null}]}],
 "views": [{"schema": "main", "name": "v", "sql": "SELECT a FROM t", "comment": null}]}
EOF
cat >"$workdir/desc/dataset.yml" <<'EOF'
name: example
title: An example
licenses: [CC0-1.0]
EOF
printf 'fields:\n  - name: a\n    description: the only column\n' >"$workdir/desc/t.table.yml"
"$admin" dataset-check "$workdir/desc" --catalog "$workdir/catalog.json" >"$workdir/dataset.json"
python3 - "$workdir/dataset.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"name": "example", "title": "An example", "licenses": ["CC0-1.0"], "tables": [
    {"schema": "main", "name": "t", "description": "a table", "rows": 3, "fields": [
        {"name": "a", "description": "the only column", "type": "int64", "nullable": False}]},
    {"schema": "main", "name": "v", "kind": "view", "sql": "SELECT a FROM t"}]}, d
EOF
printf 'fields:\n  - name: b\n' >"$workdir/desc/t.table.yml"
refused 'rocklake-admin: t.table.yml: fields[0]: table "main.t" has no column "b" in the catalog' \
	"$admin" dataset-check "$workdir/desc" --catalog "$workdir/catalog.json"
refused "Usage:" "$admin" dataset-check "$workdir/desc"
"$admin" withdraw --help | grep -q -- "--redact KEY"
echo "admin_fdl_retention: ok"
