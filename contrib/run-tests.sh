#!/bin/sh
# run-tests.sh: the README's second command, and exactly what CI runs (.ci/run).
# Installs the dependencies (Debian packages, the Python virtualenv with the S3 test
# server), builds RockLake with AddressSanitizer and UBSan in build/check, and runs
# the whole test suite. It ends with one line "N passed, M failed" and exits
# non-zero if anything failed, was skipped or did not run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

sh contrib/install-deps.sh --test
autoreconf -fi
mkdir -p build/check
cd build/check
../../configure --enable-sanitizers
make -j"$(nproc)"
# ASan reports leaks too; UBSan aborts on the first finding (-fno-sanitize-recover)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
status=0
make -j"$(nproc)" check >check.out 2>&1 || status=$?
cat check.out
for log in $(find . -name '*.log' ! -name config.log ! -name test-suite.log); do
	case "$(grep -E '^:test-result:' "${log%.log}.trs" 2>/dev/null)" in
		*PASS*) ;;
		*) echo "==== $log"; tail -n 60 "$log" ;;
	esac
done
total=$(sed -n 's/^# TOTAL: *//p' check.out)
passed=$(sed -n 's/^# PASS: *//p' check.out)
[ -n "$total" ] || total=0
[ -n "$passed" ] || passed=0
failed=$((total - passed))
if [ "$total" -eq 0 ]; then
	failed=1
	status=1
fi
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit "$status"
