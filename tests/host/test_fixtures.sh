#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Host family scenario tests: the real scanner on the fixture trees of
# fixtures/host/ (see fixtures/host/README), compared with their reviewed
# results; offline re-evaluation from the snapshot; the catalogue in every
# report; no secret read; hostile strings; bad --host and --cve-db.
# usage: tests/host/test_fixtures.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$1
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The special files (sockets, device nodes) git cannot hold.
for d in fixtures/host/*/; do
	"$B/tests/mkspecial" "$d" || fa_fail "mkspecial $d"
done

cases=0
for d in fixtures/host/*/; do
	n=$(basename "$d")
	cases=$((cases + 1))
	set -- scan -q --host="$d" -o "$T/$n"
	[ -f "$d/FIXTURE.conf" ] && set -- "$@" -c "$d/FIXTURE.conf"
	"$BIN" "$@" >"$T/$n.out" 2>"$T/$n.err"
	rc=$?
	expect_eq "$n: exit status" "exit $rc" "$(grep '^exit ' "$d/FIXTURE.expected")"
	jq -r '.results[] | select(.family == "host") |
	    "\(.status) \(.id) \(.target)"' "$T/$n/report.json" >"$T/$n.got"
	grep -v -e '^#' -e '^exit ' "$d/FIXTURE.expected" >"$T/$n.want"
	if diff -u "$T/$n.want" "$T/$n.got" >"$T/$n.diff"; then
		fa_pass "$n: results match FIXTURE.expected"
	else
		fa_fail "$n: results differ from FIXTURE.expected"
		cat "$T/$n.diff"
	fi
	expect_eq "$n: only the host family was scanned" \
	    "$(jq -c .scan.families "$T/$n/report.json")" '["host"]'
	# Offline re-evaluation uses the catalogue embedded in the snapshot.
	"$BIN" check -q -o "$T/$n.check" "$T/$n/snapshot.json" >/dev/null 2>&1
	jq -r '.results[] | select(.family == "host") |
	    "\(.status) \(.id) \(.target) \(.reason)"' \
	    "$T/$n.check/report.json" >"$T/$n.check.got" 2>/dev/null
	jq -r '.results[] | select(.family == "host") |
	    "\(.status) \(.id) \(.target) \(.reason)"' \
	    "$T/$n/report.json" >"$T/$n.scan.got"
	if cmp -s "$T/$n.scan.got" "$T/$n.check.got"; then
		fa_pass "$n: fabaudit check reproduces the scan"
	else
		fa_fail "$n: fabaudit check differs from the scan"
	fi
	expect_eq "$n: report.json names the catalogue date" \
	    "$(jq -r .scan.catalogue.date "$T/$n/report.json")" \
	    "$(jq -r .date data/host-cves.json)"
	expect_grep "$n: report.txt names the catalogue and its sources" \
	    '^Catalogue: .*host-cves.json dated [0-9-]{10}.*; sources: ' \
	    "$T/$n/report.txt"
	# Fail-closed: a result without evidence read is never a pass.
	expect_eq "$n: no pass without evidence" "$(jq '[.results[] |
	    select(.family == "host" and .status == "pass" and
	    (.reason | test("could not|not read|unreadable")))] | length' \
	    "$T/$n/report.json")" 0
done
expect_eq "seven fixture cases ran" "$cases" 7

# Every host check passes and fails somewhere among the fixtures, and the
# decided statuses of those that cannot be decided everywhere show up too.
# HOST-BUILDKIT-VULN reads binaries the Go toolchain builds, which git
# does not hold: tests/host/test_buildkit.sh builds them and proves its
# pass, fail and not_tested; here it is not_tested everywhere.
cat "$T"/*.got >"$T/all"
for id in $("$BIN" checks --family host | awk '{print $1}'); do
	[ "$id" = HOST-BUILDKIT-VULN ] && continue
	for st in pass fail; do
		expect_grep "$id: some fixture gives $st" "^$st $id " "$T/all"
	done
done

# The service-account token is reported, never read.
expect_nogrep "the token's content is in no output" \
    FIXTURE-TOKEN-CANARY "$T"/gpu-privileged/*
expect_grep "the token is reported" \
    '^fail HOST-K8S-TOKEN /var/run/secrets/' "$T/gpu-privileged.got"

# A distribution's build is judged by that distribution's data for the
# host's release (DSA-5615-1: bookworm's runc 1.1.5+ds1-1+deb12u1 carries
# the fix of CVE-2024-21626, upstream 1.1.12), and where the catalogue has
# none, the upstream range does not decide.
cve() {	# cve FIXTURE ID: "verdict rule fixed" of that CVE's evidence
	jq -r --arg id "$2" '.results[] | select(.id == "HOST-RUNC-VULN") |
	    .evidence[] | select(.field == "cves") | .value[] |
	    select(.cve == $id) | "\(.verdict)|\(.rule)|\(.fixed)"' \
	    "$T/$1/report.json"
}
expect_eq "bookworm's patched runc: CVE-2024-21626 fixed by Debian" \
    "$(cve baremetal-cdi CVE-2024-21626)" \
    "fixed|distribution data for this release|1.1.5+ds1-1+deb12u1"
expect_eq "bookworm's first runc: affected by Debian's own data" \
    "$(cve baremetal-stale CVE-2024-21626)" \
    "affected|distribution data for this release|1.1.5+ds1-1+deb12u1"
expect_grep "a CVE without bookworm data is not decided by upstream's range" \
    'no data from debian bookworm' "$T/baremetal-cdi/report.txt"
expect_eq "... and marked undetermined" \
    "$(cve baremetal-cdi CVE-2024-45310 | cut -d'|' -f1)" undetermined

# An unknown driver branch is not_tested, never pass.
expect_grep "driver branch 560 is not in the catalogue" \
    'branch 560 is not in the catalogue' "$T/vm/report.txt"

# Catalogue age: stale and fresh copies given with --cve-db.
jq '.date = "2020-01-01" | .valid_until = "2020-03-31"' data/host-cves.json \
    >"$T/old.json"
jq --arg d "$(date -u +%Y-%m-%d)" --arg u "$(date -u -d '+30 days' +%Y-%m-%d)" \
    '.date = $d | .valid_until = $u' data/host-cves.json >"$T/new.json"
"$BIN" scan --host=fixtures/host/hardened --cve-db "$T/old.json" \
    -o "$T/old" >"$T/old.out" 2>&1
w='^Warning: the host CVE catalogue dated 2020-01-01 was valid until'
expect_grep "a stale catalogue is reported in the summary" \
    "$w 2020-03-31 and is [0-9]+ days old" \
    "$T/old.out"
expect_eq "report.json's summary says stale" \
    "$(jq .summary.catalogue_stale "$T/old/report.json")" true
expect_eq "the report says stale" \
    "$(jq .scan.catalogue.stale "$T/old/report.json")" true
"$BIN" scan --host=fixtures/host/hardened --cve-db "$T/new.json" \
    -o "$T/new" >"$T/new.out" 2>&1
expect_nogrep "a fresh catalogue is not called stale" 'Warning: the host CVE' \
    "$T/new.out" "$T/new/report.txt"
expect_eq "--cve-db is the catalogue used" \
    "$(jq -r .scan.catalogue.path "$T/new/report.json")" "$T/new.json"

# Bad catalogue: exit 2, one line naming the file, no report.
printf '{"format": 1, "date": "2026-13-01"}' >"$T/bad.json"
"$BIN" scan -q --host=fixtures/host/hardened --cve-db "$T/bad.json" \
    -o "$T/badcat" >/dev/null 2>"$T/badcat.err"
expect_eq "a malformed --cve-db exits 2" "$?" 2
expect_grep "and names the file" "^fabaudit: --cve-db: $T/bad.json: " \
    "$T/badcat.err"
expect_eq "and writes no report" "$(ls "$T/badcat" 2>/dev/null | wc -l)" 0
"$BIN" scan -q --host=fixtures/host/hardened --cve-db "$T/none.json" \
    -o "$T/nocat" >/dev/null 2>&1
expect_eq "a missing --cve-db exits 2" "$?" 2

# A catalogue corrupted inside a snapshot: the *-VULN checks say error.
jq '(.observations[] | select(.kind == "host.cvedb") | .data.catalogue.date)
    = "yesterday"' "$T/vm/snapshot.json" >"$T/corrupt.json"
"$BIN" check -q -o "$T/corrupt" "$T/corrupt.json" >/dev/null 2>&1
expect_eq "a corrupt embedded catalogue makes each *-VULN an error" \
    "$(jq '[.results[] | select(.id | test("-VULN$")) | .status] |
    unique' -c "$T/corrupt/report.json")" '["error"]'

# An unusable sysroot: the family is unavailable; nothing else ran: exit 3.
"$BIN" scan -q --host="$T/nonexistent" -o "$T/noroot" >/dev/null \
    2>"$T/noroot.err"
expect_eq "a missing sysroot exits 3" "$?" 3
expect_grep "and says why" '^fabaudit: host: skipped: sysroot ' \
    "$T/noroot.err"
expect_eq "and the host checks are not tested" "$(jq '[.results[] |
    select(.family == "host") | .status] | unique' -c \
    "$T/noroot/report.json")" '["not_tested"]'

# An empty sysroot is a usage error.
"$BIN" scan -q --host= -o "$T/empty" >/dev/null 2>"$T/empty.err"
expect_eq "--host= exits 2" "$?" 2
expect_grep "and says why" '^fabaudit: --host: empty sysroot' "$T/empty.err"

# Hostile strings from the host are escaped in every output.
cp -a fixtures/host/vm "$T/hostile"
printf '<script>alert(1)</script>\033[31m\001' \
    >"$T/hostile/sys/class/dmi/id/product_name"
"$BIN" scan -q --host="$T/hostile" -o "$T/hostile.out" >/dev/null 2>&1
expect_eq "a hostile DMI string does not break the scan" "$?" 1
expect_nogrep "no raw escape byte reaches report.txt" "$(printf '\033')" \
    "$T/hostile.out/report.txt"
expect_grep "the string is kept, escaped" '<script>alert\(1\)</script>\\\\x1b' \
    "$T/hostile.out/report.json"

# A directory name under /dev that is not UTF-8 (anyone may make one in
# /dev/shm, or in the host's under --ipc=host): the scan goes on.
cp -a fixtures/host/hardened "$T/hostdev"
mkdir -p "$T/hostdev/dev/$(printf 'a\377b')" "$T/hostdev/dev/shm/$(printf 'x\377')"
"$BIN" scan -q --host="$T/hostdev" -o "$T/hostdev.out" >/dev/null 2>&1
expect_eq "a non-UTF-8 name under /dev does not stop the scan" "$?" 0
expect_eq "and the device check still decides" "$(jq -r '.results[] |
    select(.id == "HOST-DEVICE-EXPOSED") | .status' \
    "$T/hostdev.out/report.json")" pass

fa_done
