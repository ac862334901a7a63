#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The Debian package: `dpkg-buildpackage -us -uc -b` on a clean copy of the
# tree builds fabaudit_VERSION_ARCH.deb; the package holds the binary, the
# manuals and the data under /usr; unpacked into a scratch directory with
# dpkg-deb -x (nothing is installed on this machine), its binary runs and
# finds the catalogue under the prefix it was unpacked to.  Part of
# `make check` (about 45 s on 2 CPUs); alone: `make deb-test`.
# usage: tests/deb.sh
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
if ! command -v dpkg-buildpackage >/dev/null 2>&1 ||
    ! command -v dh >/dev/null 2>&1; then
	fa_skip "Debian package: dpkg-dev and debhelper are not installed"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A clean copy: what is committed (or, outside a git checkout, the tree
# without its build directories), nothing built.
mkdir "$T/fabaudit"
if git rev-parse --verify -q HEAD >/dev/null 2>&1; then
	git archive --format=tar HEAD | tar -x -C "$T/fabaudit"
else
	tar -c --exclude='./build*' --exclude=./demo-report . |
	    tar -x -C "$T/fabaudit"
fi || { fa_fail "a clean copy of the tree"; exit 1; }
# One job per CPU (debhelper passes it to make), as make check builds.
(cd "$T/fabaudit" && dpkg-buildpackage -us -uc -b -j"$(nproc)") \
    >"$T/build.log" 2>&1
rc=$?
expect_eq "dpkg-buildpackage -us -uc -b succeeds" "$rc" 0
[ "$rc" -eq 0 ] || tail -n 30 "$T/build.log"
deb=
for f in "$T"/fabaudit_*.deb; do
	[ -f "$f" ] && deb=$f
done
expect_eq "a .deb is written beside the tree" "$(test -n "$deb" && echo yes)" \
    yes
[ -n "$deb" ] || { fa_done; exit; }
dpkg-deb -c "$deb" >"$T/contents"
for f in ./usr/bin/fabaudit ./usr/share/man/man8/fabaudit.8.gz \
    ./usr/share/man/man5/fabaudit.conf.5.gz \
    ./usr/share/man/man7/fabaudit-checks.7.gz \
    ./usr/share/man/man7/fabaudit-internals.7.gz \
    ./usr/share/fabaudit/host-cves.json \
    ./usr/share/fabaudit/fabaudit-report.xsd; do
	expect_grep "the package holds $f" " $f\$" "$T/contents"
done
expect_eq "the package depends on the libraries it links" \
    "$(dpkg-deb -f "$deb" Depends | grep -c 'libjansson4')" 1
dpkg-deb -x "$deb" "$T/root"
"$T/root/usr/bin/fabaudit" checks >"$T/checks.out" 2>&1
expect_eq "the packaged binary runs" "$?" 0
"$T/root/usr/bin/fabaudit" scan -q --host -f json -o "$T/scan" \
    >/dev/null 2>"$T/scan.err"
expect_eq "... and finds its catalogue under its own prefix" \
    "$(jq -r .scan.catalogue.path "$T/scan/report.json")" \
    "$T/root/usr/share/fabaudit/host-cves.json"
fa_done
