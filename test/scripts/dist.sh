#!/bin/sh
# dist.sh: what "make dist" and "make install" deliver.
#  - The tarball holds every file of the repository (tracked, or new and not ignored)
#    but .gitignore: a file missing from EXTRA_DIST or noinst_HEADERS would make the
#    tarball unbuildable or its tests incomplete, and "make distcheck" finds that only
#    for what the build and the tests touch. Needs a git checkout (skipped in a tree
#    unpacked from the tarball, as "make distcheck" runs it).
#  - "make install DESTDIR=..." installs both programs, their man pages, the systemd
#    unit, the SysV init script and the logrotate file, and the paths written into the
#    unit and the script are where the programs were installed (configure's paths, not
#    fixed ones); the installed server initialises a data directory; "make uninstall"
#    removes every file again.
set -eu

. "$top_srcdir/test/scripts/common.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- install ---
root=$tmp/root
make -s -C "$top_builddir" install DESTDIR="$root" >"$tmp/install.out" 2>&1 ||
	{ cat "$tmp/install.out" >&2; fail "make install"; }
installed() { find "$root" -path "*/$1" -type f | head -n 1; }
server=$(installed bin/rocklake)
admin=$(installed bin/rocklake-admin)
unit=$(installed systemd/system/rocklake.service)
initscript=$(installed init.d/rocklake)
for f in server admin unit initscript; do
	eval "[ -n \"\$$f\" ]" || fail "make install did not install the $f"
done
[ -n "$(installed man1/rocklake.1)" ] && [ -n "$(installed man1/rocklake-admin.1)" ] ||
	fail "the man pages are not installed"
[ -n "$(installed logrotate.d/rocklake)" ] || fail "the logrotate file is not installed"
[ -x "$initscript" ] || fail "the init script is not executable"
grep -q '@[a-z_]*@' "$unit" "$initscript" && fail "unsubstituted @...@ in the unit or init script"

# the unit's ExecStart and the script's ROCKLAKE_BIN name the installed server
execstart=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")
[ "$root$execstart" = "$server" ] || fail "ExecStart=$execstart is not the installed $server"
scriptbin=$(sed -n 's/^ROCKLAKE_BIN=//p' "$initscript")
[ "$root$scriptbin" = "$server" ] || fail "ROCKLAKE_BIN=$scriptbin is not the installed $server"

# the installed server runs, and the init script, given a data directory, says it is stopped
"$server" --init -D "$tmp/data" >"$tmp/init.out" 2>&1 || { cat "$tmp/init.out" >&2; fail "rocklake --init"; }
[ -f "$tmp/data/rocklake.conf" ] || fail "rocklake --init wrote no rocklake.conf"
printf 'PGDATA=%s\nROCKLAKE_BIN=%s\n' "$tmp/data" "$server" >"$tmp/defaults"
status=0
ROCKLAKE_DEFAULTS=$tmp/defaults sh "$initscript" status >"$tmp/status.out" 2>&1 || status=$?
[ "$status" -eq 3 ] || { cat "$tmp/status.out" >&2; fail "init script status of a stopped server: $status, not 3"; }

make -s -C "$top_builddir" uninstall DESTDIR="$root" >"$tmp/uninstall.out" 2>&1 ||
	{ cat "$tmp/uninstall.out" >&2; fail "make uninstall"; }
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install: programs, man pages, unit, init script and logrotate file at configure's paths"

# --- the tarball's contents ---
[ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top_srcdir" && pwd -P)" ] ||
	rl_skip_or_fail "$top_srcdir is not a git checkout: cannot compare the tarball with it"
make -s -C "$top_builddir" distdir distdir="$tmp/dist" >"$tmp/distdir.out" 2>&1 ||
	{ cat "$tmp/distdir.out" >&2; fail "make distdir"; }
git -C "$top_srcdir" ls-files --cached --others --exclude-standard | grep -vx '.gitignore' | sort -u >"$tmp/repo.lst"
(cd "$tmp/dist" && find . -type f | sed 's|^\./||' | sort) >"$tmp/dist.lst"
missing=$(comm -23 "$tmp/repo.lst" "$tmp/dist.lst")
[ -z "$missing" ] || fail "not in the tarball (add them to Makefile.am): $missing"
echo "dist: the tarball holds all $(wc -l <"$tmp/repo.lst") files of the repository"
