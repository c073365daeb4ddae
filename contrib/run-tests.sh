#!/bin/sh
# run-tests.sh: the README's second command, and exactly what CI runs (.ci/run).
# Installs the dependencies (Debian packages, the Python virtualenv with the S3 test
# server), builds RockLake with AddressSanitizer and UBSan in build/check, and runs
# the whole test suite (as the user rocklake-test when started as root: the server
# refuses root, as PostgreSQL does). It ends with one line "N passed, M failed" and exits
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
if [ "$(id -u)" -eq 0 ]; then
	# the server refuses to run as root, as PostgreSQL does: as root, the tests run as the
	# unprivileged user rocklake-test, who then owns the checkout and the build
	id rocklake-test >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin rocklake-test
	mkdir -p home
	owner=$(stat -c %u:%g "$top")
	chown -R rocklake-test "$top"
	# and may reach it, and the Python the virtualenvs run (which may live in root's
	# home, as pyenv's does): search permission on the directories above them
	for path in "$top" "$(readlink -f "$top/.venv/bin/python")" "$(readlink -f "$top/.venv-duckdb15/bin/python")"; do
		dir=$path
		while [ "$dir" != / ]; do
			dir=$(dirname "$dir")
			su -s /bin/sh rocklake-test -c "test -x '$dir'" || chmod o+x "$dir"
		done
	done
	su -s /bin/sh rocklake-test -c "env HOME='$PWD/home' CI='${CI:-}' ASAN_OPTIONS='$ASAN_OPTIONS' \
		make -j$(nproc) check" >check.out 2>&1 || status=$?
	chown -R "$owner" "$top"	# the checkout is its owner's again
	# what the tests cannot see as rocklake-test: the server refuses root
	if ./rocklake -D "$PWD/home/as-root" >home/as-root.out 2>&1 ||
		! grep -q '"root" execution of the RockLake server is not permitted' home/as-root.out; then
		echo "FAIL: rocklake ran as root:"; cat home/as-root.out
		status=1
	fi
else
	make -j"$(nproc)" check >check.out 2>&1 || status=$?
fi
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
