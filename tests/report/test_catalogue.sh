#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fabaudit catalogue build, end to end: real-format advisory samples
# (fixtures/cve/: OSV, CVE 5, NVIDIA CSAF, Debian tracker, CISA KEV) in, a
# catalogue the scanner loads out, with a build report whose inputs are
# the files' own SHA-256 digests (sha256sum(1)), a date that is the newest
# record's, and a signature openssl(1) verifies and the scanner checks
# with --cve-key (a tampered or foreign-signed catalogue refused); a
# malformed input, an
# unknown kind, an undated build and bad options are refused with exit 2
# and write nothing.
# usage: tests/report/test_catalogue.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_catalogue.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
F=fixtures/cve
IN="osv:$F/osv/GO-2024-2491.json osv:$F/osv/DEBIAN-CVE-2024-21626.json
osv:$F/osv/UBUNTU-CVE-2024-21626.json cve5:$F/cve5/CVE-2024-1086.json
csaf:$F/csaf/driver-2025-10.json csaf:$F/csaf/toolkit-2025-07.json
kev:$F/kev/kev.json debian:$F/debian/tracker.json"

# shellcheck disable=SC2086  # IN is a list of arguments
"$BIN" catalogue build -o "$T/c.json" $IN >"$T/out" 2>"$T/err"
expect_eq "build: exit 0" "$?" 0
expect_grep "build: says what it wrote" \
    '^fabaudit: catalogue .*c\.json: [0-9]+ entries, dated ' "$T/err"
expect_eq "build: a format 2 catalogue" "$(jq .format "$T/c.json")" 2
# The date is the newest record date of the inputs (here the CSAF
# driver advisory's current_release_date), computed, not typed.
newest=$(jq -r '.document.tracking.current_release_date[0:10]' \
    "$F/csaf/driver-2025-10.json")
expect_eq "build: dated by the newest input record" \
    "$(jq -r .date "$T/c.json")" "$newest"
expect_eq "build: valid 90 days by default" \
    "$(jq -r .valid_until "$T/c.json")" \
    "$(date -u -d "$newest + 90 days" +%Y-%m-%d)"
# Each input's digest is sha256sum's.
for a in $IN; do
	p=${a#*:}
	expect_eq "build: $p recorded with its sha256" \
	    "$(jq -r --arg n "$p" '.inputs[] | select(.name == $n) | .sha256' \
	    "$T/c.json")" "$(sha256sum "$p" | cut -d' ' -f1)"
done
expect_eq "build: the build report beside it" \
    "$(jq -r '.entries == (input.entries | length)' "$T/c.json.report.json" \
    "$T/c.json")" true
# Facts of the samples, as their sources state them.
expect_eq "build: runc's Leaky Vessels fixed in 1.1.12 (GO-2024-2491)" \
    "$(jq -r '.entries[] | select(.id == "CVE-2024-21626") |
    .affected[] | .fixed' "$T/c.json")" 1.1.12
expect_eq "build: ... and in bookworm's 1.1.5+ds1-1+deb12u1 (Debian)" \
    "$(jq -r '.entries[] | select(.id == "CVE-2024-21626") | .distro[] |
    select(.os == "debian" and .release == "bookworm") | .fixed' \
    "$T/c.json")" 1.1.5+ds1-1+deb12u1
expect_eq "build: CVE-2024-1086 marked known-exploited (KEV)" \
    "$(jq -r '.entries[] | select(.id == "CVE-2024-1086") | .kev.added' \
    "$T/c.json")" "$(jq -r '.vulnerabilities[] |
    select(.cveID == "CVE-2024-1086") | .dateAdded' "$F/kev/kev.json")"
# The scanner loads what the build wrote.
"$BIN" scan --host=fixtures/host/baremetal-stale --cve-db "$T/c.json" -q \
    -o "$T/scan" >/dev/null 2>"$T/scan.err"
case $? in 0|1) fa_pass "scan: loads the built catalogue" ;;
*) fa_fail "scan: refused the built catalogue: $(cat "$T/scan.err")" ;;
esac

# --sign: a detached signature of the catalogue's bytes.
"$BIN" keygen -o "$T/k" >/dev/null 2>&1
# shellcheck disable=SC2086
"$BIN" catalogue build -o "$T/s.json" --sign "$T/k.pem" $IN 2>/dev/null
expect_eq "sign: exit 0" "$?" 0
expect_eq "sign: openssl verifies the signature" "$(openssl pkeyutl -verify \
    -pubin -inkey "$T/k.pub.pem" -rawin -in "$T/s.json" \
    -sigfile "$T/s.json.sig" 2>/dev/null)" "Signature Verified Successfully"

# The scanner checks the signature with the trusted key (--cve-key), and
# every report says which catalogue judged the host and who signed it.
scan() {	# scan NAME ARGS...: a host scan of a fixture
	n=$1
	shift
	"$BIN" scan --host=fixtures/host/baremetal-stale -q -o "$T/$n" "$@" \
	    >/dev/null 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}
scan signed --cve-db "$T/s.json" --cve-key "$T/k.pub.pem"
expect_eq "--cve-key: a signed catalogue verifies" \
    "$(jq -r '.scan.catalogue | "\(.signature) \(.sha256)"' \
    "$T/signed/snapshot.json")" \
    "verified $(sha256sum "$T/s.json" | cut -d' ' -f1)"
expect_grep "--cve-key: report.txt names the signer" \
    'signature: verified by Ed25519 key SHA256:[0-9a-f]{64}' \
    "$T/signed/report.txt"
scan unverified --cve-db "$T/s.json"
expect_eq "no --cve-key: the signature is said unchecked" \
    "$(jq -r .scan.catalogue.signature "$T/unverified/snapshot.json")" \
    "signed, not verified (no --cve-key given)"
scan unsigned --cve-db "$T/c.json"
expect_eq "an unsigned catalogue is said unsigned" \
    "$(jq -r .scan.catalogue.signature "$T/unsigned/snapshot.json")" \
    unsigned
sed 's/"1.1.12"/"1.1.13"/' "$T/s.json" >"$T/t.json"
cp "$T/s.json.sig" "$T/t.json.sig"
scan tampered --cve-db "$T/t.json" --cve-key "$T/k.pub.pem"
expect_eq "a tampered catalogue is refused (exit 2)" \
    "$(cat "$T/tampered.rc")" 2
expect_grep "... saying the signature does not verify" \
    'does not verify with the trusted key' "$T/tampered.err"
expect_eq "... and nothing is written" "$(ls -d "$T/tampered" 2>/dev/null)" ""
scan nosig --cve-db "$T/c.json" --cve-key "$T/k.pub.pem"
expect_eq "--cve-key and no signature: refused (exit 2)" \
    "$(cat "$T/nosig.rc")" 2
expect_grep "... saying there is none" 'no signature' "$T/nosig.err"
"$BIN" keygen -o "$T/other" >/dev/null 2>&1
scan otherkey --cve-db "$T/s.json" --cve-key "$T/other.pub.pem"
expect_eq "another key's signature: refused (exit 2)" \
    "$(cat "$T/otherkey.rc")" 2

# Kernel records of other CNAs: what gives no range is left out, saying
# which member, and the record about another product is counted.
"$BIN" catalogue build -o "$T/k.json" "cve5:$F/cve5/other-cnas.json" \
    >/dev/null 2>"$T/k.err"
expect_eq "other CNAs: built" "$?" 0
expect_eq "other CNAs: the entries with ranges" "$(jq -r '[.entries[].id] |
    sort | join(" ")' "$T/k.json")" \
    "CVE-2021-22600 CVE-2022-2586 CVE-2099-5001 CVE-2099-5002"
expect_eq "other CNAs: records read in part say so" "$(jq -r \
    '[.partly_read[] | .cve] | sort | join(" ")' \
    "$T/k.json.report.json")" "CVE-2099-5001 CVE-2099-5002"
expect_eq "other CNAs: the mainline-only line is marked" "$(jq -r \
    '.entries[] | select(.id == "CVE-2022-2586") | .affected[0] |
    .mainline_only' "$T/k.json")" true
jq -r '.left_out[] | "\(.cve) \(.why)"' "$T/k.json.report.json" >"$T/k.out"
expect_grep "other CNAs: prose in a version is left out, quoted" \
    'CVE-2022-0847 .*versions\[0\]: version "Linux Kernel 5.17 rc6" is not' \
    "$T/k.out"
expect_grep "other CNAs: a lone release is left out, quoted" \
    'CVE-2022-0185 .*one affected release "8.4" and no bound' "$T/k.out"
expect_eq "other CNAs: the record about n/a is counted" "$(jq -r \
    '.records[0] | "\(.records) \(.other_products)"' \
    "$T/k.json.report.json")" "6 1"

# Refusals: exit 2, the cause named, nothing written.
refuse() {	# refuse NAME PATTERN ARGS...
	n=$1 pat=$2
	shift 2
	"$BIN" catalogue build -o "$T/r.json" "$@" >/dev/null 2>"$T/r.err"
	expect_eq "$n: exit 2" "$?" 2
	expect_grep "$n: says why" "$pat" "$T/r.err"
	expect_eq "$n: nothing written" "$(ls "$T"/r.json* 2>/dev/null)" ""
}
refuse "truncated OSV" 'bad-truncated\.json' "osv:$F/osv/GO-2024-2491.json" \
    "osv:$F/osv/bad-truncated.json"
refuse "a CSAF phrase the grammar does not know" 'bad-phrase\.json' \
    "csaf:$F/csaf/bad-phrase.json"
refuse "an absurd KEV count" 'bad-absurd-count\.json' \
    "kev:$F/kev/bad-absurd-count.json"
refuse "an unknown kind" "unknown kind 'nvd'" "nvd:$F/osv/GO-2024-2491.json"
refuse "no kind" 'not KIND:PATH' "$F/osv/GO-2024-2491.json"
refuse "a missing file" 'no such file' "osv:$T/none.json"
refuse "only undated inputs" 'no input carries a record date' \
    "debian:$F/debian/tracker.json"
refuse "--valid-days 0" "allowed 1-3650" --valid-days 0 \
    "osv:$F/osv/GO-2024-2491.json"
refuse "no input" "no input given"
printf '[{"id": "CVE-2024-21626", "component": "runc", "conditions": []}]\n' \
    >"$T/ov.json"
refuse "an overlay entry without its source" 'source_url' \
    --overlay "$T/ov.json" "osv:$F/osv/GO-2024-2491.json"
fa_done
