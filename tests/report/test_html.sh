#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test_html.sh: report.html as a browser shows and prints it.
#
#   sh tests/report/test_html.sh BUILD_DIR      (from the repository root)
#
# (a) offline: `fabaudit check -f json,html` on the careless snapshot;
#     headless Chromium prints the page to PDF and dumps its DOM. The PDF
#     text (pdftotext) must hold the verdict, a failing finding's title and
#     its contract clause, the annex, the snapshot's SHA-256; it must have
#     more than one page, and each major section must open a page.
# (b) hostile: a real scan of fixtures/ib/hostile (ibsim + OpenSM), whose
#     foreign nodes are named with markup, run in a UTS namespace whose host
#     name is an <img onerror> breakout. The markup must show literally in
#     the PDF, and Chromium's DOM must hold no script, img or on* attribute.
#
# Needs chromium, pdftotext and pdfinfo (poppler-utils), jq, unshare, and
# ibsim/opensm for (b); a missing tool is a FAIL, never a skip. Run as root
# (Chromium then needs --no-sandbox; unshare -u needs CAP_SYS_ADMIN).

# shellcheck source=tests/lib.sh
. tests/lib.sh

B=${1:?usage: test_html.sh BUILD_DIR}
bin=$B/fabaudit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fa-html.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for t in chromium pdftotext pdfinfo jq unshare timeout; do
	if command -v "$t" >/dev/null 2>&1; then fa_pass "tool $t present"
	else fa_fail "tool $t present (needed by this test)"; fi
done
[ "$FA_FAILS" -eq 0 ] || { fa_done; exit 1; }

# Chromium in its own profile and HOME under $tmp, bounded in time. It
# prints D-Bus and GPU noise on stderr: kept in a log, shown on failure.
chrome() {
	HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu \
	    --no-first-run --user-data-dir="$tmp/profile" "$@" \
	    2>>"$tmp/chromium.log"
}

# print_pdf HTML PDF: the page as the print stylesheet lays it out.
print_pdf() {
	rm -f "$2"
	chrome --no-pdf-header-footer --print-to-pdf="$2" "file://$1" \
	    >/dev/null
	_rc=$?
	if [ -s "$2" ]; then fa_pass "$3: Chromium printed a PDF"; else
		fa_fail "$3: Chromium printed no PDF (rc $_rc)"
		tail -n 5 "$tmp/chromium.log"
	fi
}

# pdf_text PDF TXT: the text, lines joined (a line break after a hyphen
# dropped, others made spaces) so that wrapped phrases match.
pdf_text() {
	pdftotext -enc UTF-8 "$1" - 2>/dev/null | tr -d '\f' |
	    sed -e ':a' -e 'N' -e '$!ba' -e 's/-\n/-/g' -e 's/\n/ /g' |
	    tr -s ' ' >"$2"
}

# expect_text NAME STRING FILE: a fixed string in the joined text.
expect_text() {
	if grep -Fq -- "$2" "$3"; then fa_pass "$1"; else
		fa_fail "$1 ('$2' not in the PDF text)"; fi
}

# The DOM Chromium built: no element that runs or fetches anything.
check_dom() {	# HTML NAME
	chrome --dump-dom "file://$1" >"$tmp/dom.html"
	if [ -s "$tmp/dom.html" ]; then fa_pass "$2: Chromium dumped the DOM"
	else fa_fail "$2: Chromium dumped no DOM"; fi
	expect_grep "$2: the DOM is the report" "Executive summary" \
	    "$tmp/dom.html"
	for e in '<script' '<img' '<iframe' '<object' '<embed' '<link' \
	    '<base' '<svg'; do
		if grep -qi -- "$e" "$tmp/dom.html"; then
			fa_fail "$2: no $e element in the DOM"
		else fa_pass "$2: no $e element in the DOM"; fi
	done
	if grep -Eqi '<[a-z][^>]*[[:space:]]on[a-z]+=' "$tmp/dom.html"; then
		fa_fail "$2: no on* attribute in the DOM"
	else fa_pass "$2: no on* attribute in the DOM"; fi
	expect_eq "$2: one style element" \
	    "$(grep -oi '<style' "$tmp/dom.html" | wc -l | tr -d ' ')" 1
	expect_nogrep "$2: no javascript: link" 'href="javascript' \
	    "$tmp/dom.html"
}

# The first non-blank line of every PDF page, one per line.
page_heads() {
	pdftotext -enc UTF-8 "$1" - 2>/dev/null | awk '
		BEGIN { RS = "\f" }
		{ n = split($0, l, "\n")
		  for (i = 1; i <= n; i++) if (l[i] ~ /[^ ]/) { print l[i]; break } }'
}

# --- (a) offline: the careless snapshot ---
out=$tmp/careless
"$bin" check -q -f json,html -o "$out" fixtures/reports/careless.snapshot.json
expect_eq "check -f json,html exits 1 (failures)" "$?" 1
expect_grep "report.html written" "^<!DOCTYPE html>" "$out/report.html"
expect_nogrep "report.html has no <script" "<script" "$out/report.html"
print_pdf "$out/report.html" "$out/report.pdf" careless
pdf_text "$out/report.pdf" "$out/report.txt"
pages=$(pdfinfo "$out/report.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
if [ "${pages:-0}" -gt 1 ]; then fa_pass "careless: $pages pages"; else
	fa_fail "careless: more than one page (got '${pages:-none}')"; fi
failing=$(jq -r .summary.failing_at_or_above "$out/report.json")
expect_text "careless: executive summary" "1. Executive summary" \
    "$out/report.txt"
expect_text "careless: verdict with the count of report.json" \
    "Not acceptable as is: $failing failures at or above high severity." \
    "$out/report.txt"
title=$(jq -r '[.results[] | select(.id == "IB-XTENANT-REACHABLE")][0].title' \
    "$out/report.json")
clause=$(jq -r \
    '.checks[] | select(.id == "IB-XTENANT-REACHABLE") | .msa_clause' \
    "$out/report.json")
expect_text "careless: a failing finding's title" \
    "IB-XTENANT-REACHABLE: $title" "$out/report.txt"
expect_text "careless: its contract clause" "$clause" "$out/report.txt"
expect_text "careless: the annex heading" \
    "Annex A. Proposed security annex" "$out/report.txt"
expect_grep "careless: the clause is numbered in the annex" \
    "A\.[0-9]+ $clause" "$out/report.txt"
expect_text "careless: a reproduction command" "saquery PR --slid 8 --dlid 3" \
    "$out/report.txt"
sha=$(jq -r .snapshot.sha256 "$out/report.json")
if tr -d ' \n' <"$out/report.txt" | grep -Fq -- "$sha"; then
	fa_pass "careless: the snapshot SHA-256"
else fa_fail "careless: the snapshot SHA-256 $sha"; fi
page_heads "$out/report.pdf" >"$out/heads"
for h in "2. Scope" "3. Findings" "4. Waived findings and waivers" \
    "5. Checks not decided" "6. Passed checks" \
    "Annex A. Proposed security annex"; do
	if grep -Fxq -- "$h" "$out/heads"; then
		fa_pass "careless: '$h' opens a page"
	else fa_fail "careless: '$h' opens a page"; fi
done
check_dom "$out/report.html" careless

# --- (b) hostile: a real scan of markup-named foreign nodes ---
# The host name is set by writing the UTS namespace's own
# /proc/sys/kernel/hostname: hostname(1) refuses this one as invalid.
xss_host='"><img src=x onerror=alert(1)>'
scen=fixtures/ib/hostile
out=$tmp/hostile
if unshare -u sh -c 'printf %s x >/proc/sys/kernel/hostname' 2>/dev/null
then
	fa_pass "unshare -u can set a host name"
	# shellcheck disable=SC2016  # $1 is the inner shell's
	unshare -u sh -c 'printf %s "$1" >/proc/sys/kernel/hostname &&
	    shift && exec "$@"' sh "$xss_host" \
	    sh tests/ib/with-fabric.sh "$scen" -- "$bin" scan --ib -q \
	    -f json,html -c "$scen/policy.conf" -o "$out"
	rc=$?
else
	fa_fail "unshare -u can set a host name (hostile host name not tested)"
	sh tests/ib/with-fabric.sh "$scen" -- "$bin" scan --ib -q \
	    -f json,html -c "$scen/policy.conf" -o "$out"
	rc=$?
fi
expect_eq "hostile: scan exits 1 (failures)" "$rc" 1
expect_eq "hostile: the host name reached report.json" \
    "$(jq -r .scan.host "$out/report.json")" "$xss_host"
for d in '<script>alert(1)</script>' "'><img src=x onerror=alert(1)>" \
    "</style>AT&T & 'x' &amp; &lt;b&gt;"; do
	expect_eq "hostile: foreign node '$d' is a finding's target" \
	    "$(jq -r --arg d "$d" '[.results[] | select(.status == "fail"
	    and .target_name == $d)] | length' "$out/report.json")" 1
done
print_pdf "$out/report.html" "$out/report.pdf" hostile
pdf_text "$out/report.pdf" "$out/report.txt"
for s in '<script>alert(1)</script>' "'><img src=x onerror=alert(1)>" \
    "</style>AT&T & 'x' &amp; &lt;b&gt;" \
    'MF0;</style><script>alert(3)</script>' \
    '</style><script>alert(5)</script>' '& "co"' "$xss_host"; do
	expect_text "hostile: '$s' shown literally" "$s" "$out/report.txt"
done
expect_text "hostile: the host name in the scope" \
    "Host scanned from $xss_host" "$out/report.txt"
check_dom "$out/report.html" hostile
expect_grep "hostile: the script text is escaped in the DOM" \
    '&lt;script&gt;alert\(1\)&lt;/script&gt;' "$tmp/dom.html"

fa_done
