#!/bin/sh
# admin_inspect.sh: rocklake-admin end to end on a local store: create it, write
# DuckLake's initial catalog rows, inspect manifests, epochs, WAL, SSTs and decoded
# rows, compact, and verify; then flip one byte of an SST and check that verify
# reports the corruption instead of returning data.
set -eu

. "$top_srcdir/test/scripts/common.sh"

admin="$top_builddir/rocklake-admin"
[ -x "$admin" ] || rl_skip_or_fail "$admin is not built"

workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
store="$workdir/store"

expect()
{
	# expect FILE PATTERN: the file must contain the fixed string
	grep -qF -- "$2" "$1" || {
		echo "expected \"$2\" in:" >&2
		cat "$1" >&2
		exit 1
	}
}

"$admin" init "$store" >"$workdir/init.txt"
expect "$workdir/init.txt" "writer epoch 1"
"$admin" sample "$store" >"$workdir/sample.txt"
expect "$workdir/sample.txt" "wrote DuckLake's initial catalog rows"

"$admin" inspect "$store" >"$workdir/inspect.txt"
expect "$workdir/inspect.txt" "writer epoch:   2"
expect "$workdir/inspect.txt" "manifest/00000000000000000003.manifest"
expect "$workdir/inspect.txt" "2 fences (at 1, 2)"
expect "$workdir/inspect.txt" "ducklake_metadata(scope=NULL, scope_id=NULL, key='version', row_id=1) = {key: 'version', value: '0.3', scope: NULL, scope_id: NULL}"
expect "$workdir/inspect.txt" "schema_name: 'main', path: 'main/', path_is_relative: true"
expect "$workdir/inspect.txt" "(8 rows)"

"$admin" compact "$store" >"$workdir/compact.txt"
expect "$workdir/compact.txt" "0 L0 SSTs, 1 sorted runs"
"$admin" inspect "$store" --table ducklake_snapshot --limit 1 >"$workdir/table.txt"
expect "$workdir/table.txt" "L0 SSTs (newest first): 0"
expect "$workdir/table.txt" "sorted runs (newest first): 1"
expect "$workdir/table.txt" "ducklake_snapshot(snapshot_id=0, row_id=1)"
expect "$workdir/table.txt" "(1 rows)"
"$admin" inspect "$store" --prefix 04 >"$workdir/prefix.txt"
expect "$workdir/prefix.txt" "ducklake_schema(schema_id=0, begin_snapshot=0, row_id=1)"
expect "$workdir/prefix.txt" "(1 rows)"

"$admin" verify "$store" >"$workdir/verify.txt"
expect "$workdir/verify.txt" "all checksums match"

# bad input: a clear message and a non-zero exit, never a crash
if "$admin" inspect "$store" --table no_such_table >"$workdir/bad.txt" 2>&1; then
	echo "inspect accepted an unknown table" >&2
	exit 1
fi
expect "$workdir/bad.txt" 'unknown DuckLake table "no_such_table"'
if "$admin" inspect "$workdir/empty" >"$workdir/bad.txt" 2>&1; then
	echo "inspect accepted a store that does not exist" >&2
	exit 1
fi
expect "$workdir/bad.txt" "does not exist (only init creates a store)"
[ ! -e "$workdir/empty" ] || { echo "inspect made a directory" >&2; exit 1; }
mkdir "$workdir/empty"
if "$admin" inspect "$workdir/empty" >"$workdir/bad.txt" 2>&1; then
	echo "inspect accepted an empty store" >&2
	exit 1
fi
expect "$workdir/bad.txt" "meta/FORMAT is missing"

# corruption is reported, not returned as data
# an SST the manifest names (compaction left the one it replaced for gc)
id=$("$admin" inspect "$store" --objects-only | sed -n 's/^ *\([0-9A-Z]\{26\}\)  [0-9]* bytes.*/\1/p' | head -n 1)
sst="$store/compacted/$id.sst"
size=$(stat -c %s "$sst")
printf '\377' | dd of="$sst" bs=1 seek=$((size / 3)) conv=notrunc status=none
if "$admin" verify "$store" >"$workdir/verify2.txt" 2>&1; then
	echo "verify did not notice a flipped byte" >&2
	cat "$workdir/verify2.txt" >&2
	exit 1
fi
expect "$workdir/verify2.txt" "CORRUPTION FOUND"
if "$admin" inspect "$store" >"$workdir/inspect2.txt" 2>&1; then
	echo "inspect returned rows from a corrupt SST" >&2
	exit 1
fi
expect "$workdir/inspect2.txt" "corrupt"
echo "admin_inspect: all checks passed"
