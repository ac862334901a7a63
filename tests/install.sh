#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `make install` honours PREFIX and DESTDIR and installs the binary and
# the manuals, the host CVE catalogue and the XML schemas; the installed
# binary runs.
# usage: tests/install.sh
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

make -s install DESTDIR="$T/root" PREFIX=/opt/fa >"$T/log" 2>&1
expect_eq "make install succeeds" "$?" 0
expect_eq "binary installed under DESTDIR/PREFIX" \
    "$(test -x "$T/root/opt/fa/bin/fabaudit" && echo yes)" yes
expect_eq "fabaudit.8 installed" \
    "$(test -f "$T/root/opt/fa/share/man/man8/fabaudit.8" && echo yes)" yes
expect_eq "fabaudit.conf.5 installed" \
    "$(test -f "$T/root/opt/fa/share/man/man5/fabaudit.conf.5" && echo yes)" yes
expect_eq "fabaudit-checks.7 installed" \
    "$(test -f "$T/root/opt/fa/share/man/man7/fabaudit-checks.7" && echo yes)" yes
expect_eq "fabaudit-internals.7 installed" \
    "$(cmp -s man/man7/fabaudit-internals.7 \
    "$T/root/opt/fa/share/man/man7/fabaudit-internals.7" && echo yes)" yes
for x in fabaudit-report.xsd junit.xsd; do
	expect_eq "$x installed" \
	    "$(cmp -s "data/$x" "$T/root/opt/fa/share/fabaudit/$x" && echo yes)" yes
done
expect_eq "host CVE catalogue installed" \
    "$(cmp -s data/host-cves.json "$T/root/opt/fa/share/fabaudit/host-cves.json" \
    && echo yes)" yes
expect_eq "installed binary runs" \
    "$("$T/root/opt/fa/bin/fabaudit" --version | cut -d' ' -f1)" fabaudit
# The build's own PREFIX was the default (/usr/local): the installed
# binary still judges with the catalogue of the prefix it was put in.
"$T/root/opt/fa/bin/fabaudit" scan --host=fixtures/host/minimal \
    -o "$T/scan" >/dev/null 2>&1
expect_eq "the installed binary uses its own prefix's catalogue" \
    "$(jq -r .scan.catalogue.path "$T/scan/report.json")" \
    "$(realpath "$T/root/opt/fa/share/fabaudit/host-cves.json")"
# Moved elsewhere with its prefix, it still finds it.
mv "$T/root/opt/fa" "$T/moved"
"$T/moved/bin/fabaudit" scan --host=fixtures/host/minimal -o "$T/scan2" \
    >/dev/null 2>&1
expect_eq "... and after the prefix is moved" \
    "$(jq -r .scan.catalogue.path "$T/scan2/report.json")" \
    "$(realpath "$T/moved/share/fabaudit/host-cves.json")"
expect_eq "nothing installed outside DESTDIR" \
    "$(test -e /opt/fa && echo yes || echo no)" no
fa_done
