#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# lint-man.sh: lint fabaudit's manual pages with mandoc(1), and check that
# the generated catalogue page fabaudit-checks(7) says what the binary's
# check registry says.
#
#   sh tests/lint-man.sh [BUILD_DIR]
#
# BUILD_DIR (default: build) holds the binary and the generated page
# BUILD_DIR/man/fabaudit-checks.7 (`make B=BUILD_DIR all` makes both).
#
# Runs `mandoc -T lint -W style` on man/man5/fabaudit.conf.5,
# man/man7/fabaudit-internals.7, man/man8/fabaudit.8 and the generated
# page, from the repository root, with ./man and the generated page added to the manual search path (-m,
# colon-separated) so that .Xr references between the pages resolve like
# references to installed pages (mandoc 1.14: -m and -M are honoured for
# the "referenced manual not found" check at -W style).  Then checks the
# generated page against `fabaudit checks --format json` and against a
# fresh `--format man` of the same binary: the same check IDs in the same
# order, a sane date and the binary's version, every catalogue string
# rendered as written (the roff escaping), the --family pages, and the
# form of every ClusterMAX reference.
#
# Prints mandoc's messages and one "PASS: ..." or "FAIL: ..." line per
# assertion (tests/lib.sh); exits 1 if anything failed, 0 if nothing did,
# 2 if a page, the binary, mandoc or jq is missing.
#
# One kind of line is not a lint message and is dropped: when a referenced
# page is found on disk but no makewhatis(8) database lists it, mandoc says
#   mandoc: outdated mandoc.db lacks NAME(SEC) entry, run makewhatis DIR
# on stderr and still exits 0.  Systems without mandoc.db (Debian's
# man-db does not build one) print it for every .Xr.

prog=lint-man.sh
B=${1:-build}
gen=$B/man/fabaudit-checks.7
bin=$B/fabaudit
pages="man/man5/fabaudit.conf.5 man/man7/fabaudit-internals.7
    man/man8/fabaudit.8 $gen"

root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
. tests/lib.sh

for tool in mandoc jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$prog: $tool not found (Debian: apt-get install" \
		    "$tool)" >&2
		exit 2
	fi
done
missing=0
for p in $pages; do
	if [ ! -f "$p" ]; then
		echo "$prog: $p: missing (not written yet, or not built:" \
		    "make B=$B all); cannot lint it" >&2
		missing=1
	fi
done
if [ ! -x "$bin" ]; then
	echo "$prog: $bin: missing (make B=$B all)" >&2
	missing=1
fi
[ "$missing" -eq 0 ] || exit 2

T=$(mktemp -d "${TMPDIR:-/tmp}/lint-man.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 2' HUP INT TERM
# The generated page where -m expects it: DIR/man7/NAME.7.
mkdir "$T/man7" && ln -s "$root/$gen" "$T/man7/fabaudit-checks.7" || exit 2

# lint NAME FILE: mandoc -T lint -W style; PASS when it says nothing.
nodb='^mandoc: outdated mandoc\.db lacks [^ ]+\([^ ]+\) entry, run makewhatis '
lint() {
	mandoc -T lint -W style -m "./man:$T" "$2" >"$T/lint" 2>&1
	rc=$?
	grep -v -E "$nodb" "$T/lint" >"$T/msgs"
	if [ -s "$T/msgs" ] || [ "$rc" -ne 0 ]; then
		# mandoc found something: never pass, even if it said
		# nothing that got through the filter.
		cat "$T/msgs"
		fa_fail "mandoc -T lint -W style: $1 (status $rc)"
	else
		fa_pass "mandoc -T lint -W style: $1 is clean"
	fi
}

for p in $pages; do
	lint "$p" "$p"
done

# ---- fabaudit-internals(7) against the tree --------------------------------
# Every source file or directory it names (.Pa core/..., fabric/x.c) is
# there: the page describes the tree as it is.
gone=""
for p in $(grep -oE '(core|fabric|checks|reports|scanner|tests)/[A-Za-z0-9_./-]*' \
    man/man7/fabaudit-internals.7 | sort -u); do
	case $p in
	*/) [ -d "$p" ] || gone="$gone $p" ;;
	*.[ch]|*.py|*.sh) [ -f "$p" ] || [ -f "fabric/$p" ] || gone="$gone $p" ;;
	esac
done
expect_eq "fabaudit-internals(7) names only files that exist" "$gone" ""

# ---- the generated page against the registry ------------------------------
"$bin" checks --format json >"$T/checks.json"
expect_eq "checks --format json exits 0" "$?" 0
jq -r '.[].id' "$T/checks.json" >"$T/ids"
expect_eq "the registry has checks" "$(test -s "$T/ids" && echo yes)" yes
# Every ID a subsection, in registry order, and no subsection besides
# the three of DESCRIPTION, the InfiniBand family's table of the MADs a
# scan sends and the host family's account of how the environment is
# decided.
subs() {
	sed -n 's/^\.Ss \(\\&\)\{0,1\}//p' "$1" |
	    grep -v -x -e Statuses -e Severities -e 'Reading an entry' \
	    -e 'How container, VM and bare metal are decided' \
	    -e 'MADs a scan sends' |
	    tr '\n' ' '
}
expect_eq "fabaudit-checks.7 has a subsection for every check ID, in order" \
    "$(subs "$gen")" "$(tr '\n' ' ' <"$T/ids")"
expect_eq "every check has sends and outcomes texts" \
    "$(jq -r '[.[] | select((.sends | type) != "string" or
    (.sends | length) < 20 or (.outcomes | type) != "string" or
    (.outcomes | length) < 20) | .id] | join(" ")' "$T/checks.json")" ""

# The date: "Month D, YYYY", a real day, not before 2024 nor in the future.
dd=$(sed -n 's/^\.Dd //p' "$gen")
months='January|February|March|April|May|June|July|August|September'
months="$months|October|November|December"
expect_grep "the page's .Dd is Month D, YYYY" \
    "^\\.Dd ($months) [1-9][0-9]?, [0-9]{4}\$" "$gen"
secs=$(TZ=UTC date -d "$dd" +%s 2>/dev/null)
if [ -n "$secs" ] && [ "$secs" -ge 1704067200 ] &&
    [ "$secs" -le $(($(date +%s) + 86400)) ]; then
	fa_pass "the page's date ($dd) is a day between 2024 and tomorrow"
else
	fa_fail "the page's date '$dd' is not a day between 2024 and tomorrow"
fi
# The version: the binary's own.
ver=$("$bin" --version | sed -n 's/^fabaudit \([^ ]*\)$/\1/p')
expect_eq "the page names the binary's version" \
    "$(sed -n '/^version$/{n;s/\.$//p;}' "$gen")" "${ver:-?}"
# Not stale: the binary, asked for its page of that date, writes this one.
if [ -n "$secs" ]; then
	SOURCE_DATE_EPOCH=$secs "$bin" checks --format man >"$T/fresh.7"
	expect_eq "checks --format man exits 0" "$?" 0
	expect_eq "the page is the binary's current catalogue (not stale)" \
	    "$(cmp -s "$T/fresh.7" "$gen" && echo same)" same
fi

# Every catalogue string renders as written: the rendered page, with
# whitespace removed (so that wrapping does not matter), holds every
# string with its whitespace removed.  A lost backslash, a text line
# swallowed as a request, or a quote gone wrong shows here.
mandoc -T ascii "$gen" | sed 's/.\x08//g' | tr -d ' \t\n' >"$T/render"
jq -r '.[] | .title, .rationale, .remediation, .msa_clause, .sends,
    .outcomes, .references[] | gsub("\\s"; "")' "$T/checks.json" \
    >"$T/needles"
n=0
bad=
while IFS= read -r needle; do
	n=$((n + 1))
	grep -q -F -- "$needle" "$T/render" || bad="$bad
	$needle"
done <"$T/needles"
if [ "$n" -gt 100 ] && [ -z "$bad" ]; then
	fa_pass "all $n catalogue strings render as written"
else
	fa_fail "catalogue strings not rendered as written ($n checked):$bad"
fi
# --family narrows the page to one family; each family page lints clean.
for fam in ib eth host; do
	"$bin" checks --family "$fam" --format man >"$T/$fam.7"
	expect_eq "checks --family $fam --format man exits 0" "$?" 0
	expect_eq "the $fam page has exactly the $fam checks" \
	    "$(subs "$T/$fam.7")" "$(jq -r --arg f "$fam" \
	    '[.[] | select(.family == $f) | .id] | join(" ")' \
	    "$T/checks.json") "
	lint "the --family $fam page" "$T/$fam.7"
done

# ---- references ------------------------------------------------------------
# Every ClusterMAX reference has one of the two forms of checks/check.h
# and names a criterion that was read at the source (see the commit that
# added them): the security criteria page, or the criteria cmax grades.
sec=https://www.clustermax.ai/criteria/security
ufm='UFM "Secured Bare Metal Cloud" profile'
{
	for c in 'VLAN isolation between tenants for RoCE' \
	    'PKeys set for InfiniBand tenants' \
	    'InfiniBand Security Keys Management (SMKey, SAKey, CKey, VSKey)' \
	    'AM Key configuration (if SHARP is available)' \
	    'SR-IOV with QP0 & MAD disabled when passing Virtual Function'\
' pointer into VM' \
	    'vCluster or similar isolation beyond container-based only' \
	    'Protection against container escalation vulnerabilities' \
	    "$ufm (enhanced SA trust model applied to all commands)"; do
		echo "ClusterMAX security criteria: $c ($sec)"
	done
	for k in MKEY VSKEY PMKEY CCKEY 'Class C key (N2N)' \
	    'AM and job keys' SMKEY SAKEY; do
		echo "ClusterMAX security criteria: $ufm (full MAD key" \
		    "protection with randomized seeds: $k) ($sec)"
	done
	# audit LABEL ID URL
	audit() { echo "ClusterMAX audit criteria: $1 (cmax $2; $3)"; }
	v=https://www.clustermax.ai/minimum-versions
	audit "NVIDIA driver minimum version" security-nvidia-driver "$v"
	audit "NVIDIA Container Toolkit minimum version" \
	    security-nvidia-container-toolkit "$v"
	audit "runc minimum version" security-runc "$v"
	audit "Docker Engine minimum version" security-docker "$v"
	audit "BMC and IPMI tenant isolation" security-bmc-ipmi \
	    https://github.com/SemiAnalysisAI/ClusterMAX
} >"$T/criteria"
jq -r '.[].references[] | select(test("ClusterMAX"))' "$T/checks.json" \
    >"$T/cmax"
expect_eq "every ClusterMAX reference is a verified criterion, in one form" \
    "$(grep -v -x -F -f "$T/criteria" "$T/cmax")" ""
expect_eq "the catalogue cites ClusterMAX criteria" \
    "$(test -s "$T/cmax" && echo yes)" yes

if [ "$FA_FAILS" -ne 0 ]; then
	echo "$prog: $FA_FAILS problem(s); see the FAIL lines" >&2
	exit 1
fi
exit 0
