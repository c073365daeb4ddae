#!/bin/sh
# libfuzzer.sh: the coverage-guided fuzz targets (test/fuzz/fuzz_*.c) built by clang in a
# tree of their own under the build directory (configure --enable-libfuzzer), then each
# run for LIBFUZZER_SECONDS (50) from a copy of its seed corpus (test/fuzz/corpus).
# Any crash, leak, timeout (10 s for one input), memory blow-up or sanitizer report
# fails, and the input that caused it is printed. A longer run: LIBFUZZER_SECONDS=1800
# make check TESTS=test/scripts/libfuzzer.sh (doc/robustness.md records them).
set -eu
. "$top_srcdir/test/scripts/common.sh"

cc=${LIBFUZZER_CC:-clang-14}
seconds=${LIBFUZZER_SECONDS:-50}
command -v "$cc" >/dev/null || rl_skip_or_fail "$cc not found (run contrib/install-deps.sh --test)"
tree=$top_builddir/libfuzzer
mkdir -p "$tree"
if [ ! -f "$tree/Makefile" ]; then
	(cd "$tree" && "$top_srcdir/configure" CC="$cc" --enable-libfuzzer >configure.out 2>&1) || {
		tail -5 "$tree/configure.out" >&2
		rm -f "$tree/Makefile"
		rl_skip_or_fail "configure --enable-libfuzzer failed (clang-14 and libclang-rt-14-dev?)"
	}
fi
start=$(date +%s)
if ! (cd "$tree" && make -j2 all fuzz >make.out 2>&1); then
	echo "FAIL: the clang build failed:" >&2
	grep -E 'error|warning' "$tree/make.out" | head -30 >&2
	exit 1
fi
echo "clang build: $(($(date +%s) - start)) s"

tmp=$(mktemp -d /tmp/rl-libfuzzer-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rc=0
for target in protocol sql types; do
	mkdir "$tmp/$target"
	cp "$top_srcdir/test/fuzz/corpus/$target/"* "$tmp/$target/"
	log=$tmp/$target.log
	# TMPDIR: the data directory each target makes goes where the trap removes it
	if (cd "$tmp" && TMPDIR=$tmp nice -n 10 "$tree/test/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict="$top_srcdir/test/fuzz/sql.dict" \
		-artifact_prefix="$tmp/$target-" "$tmp/$target" >"$log" 2>&1) &&
		! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log"; then
		echo "fuzz_$target: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") inputs," \
			"$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed 's/.*\(cov: [0-9]* ft: [0-9]*\).*/\1/')"
	else
		echo "FAIL: fuzz_$target:" >&2
		grep -vE '^#[0-9]+ |^	NEW_FUNC' "$log" | tail -60 >&2
		for crash in "$tmp/$target-"*; do
			[ -f "$crash" ] && echo "input $crash: $(od -An -c "$crash" | head -20)" >&2
		done
		rc=1
	fi
done
exit "$rc"
