#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The MAD window (--max-outstanding) on the real simulator stack: for each
# fixture fabric, scans with 1 MAD in flight (polite mode), the default
# and 64 must give the same (check, target, status) results; the
# snapshot's ib.engine counters must show the bound held, for the engine
# and for discovery (libibnetdisc paced by the tap), and at most 2 MADs in
# flight to one destination (1 in polite mode), the SA excepted (at most
# 8, a server rather than an SMA).  Through the test agent,
# a level-2 SMA stays at one SMP however wide the window.  Bad values are
# usage errors.
# usage: tests/ib/test_scale.sh BUILD_DIR
# shellcheck disable=SC2016  # the sh -c scripts expand their own $1...
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_scale.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
AGENT=$(cd "$B" && pwd)/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# results DIR: the report's results as sorted "id target status" lines.
results() {
	jq -r '.results[] | "\(.id) \(.target) \(.status)"' "$1/report.json" |
	    sort
}

# engine DIR FIELD: a field of the ib.engine observation (jq path).
engine() {
	jq -r ".observations[] | select(.kind == \"ib.engine\") | .data$2" \
	    "$1/snapshot.json"
}

# --- bad values: usage errors before anything is sent ---------------------
for v in 0 257 abc; do
	"$BIN" scan --ib -q --max-outstanding "$v" -o "$T/bad-$v" \
	    >"$T/bad.out" 2>"$T/bad.err"
	expect_eq "--max-outstanding $v: exit 2" "$?" 2
	expect_grep "--max-outstanding $v: says which values are allowed" \
	    "^fabaudit: --max-outstanding: '$v' is .*\(allowed 1-256\)$" \
	    "$T/bad.err"
	expect_eq "--max-outstanding $v: no output directory" \
	    "$(test -e "$T/bad-$v" && echo made)" ""
done

# --- the same results whatever the window ---------------------------------
# fabric NAME: three scans of fixtures/ib/NAME on one fabric.
fabric() {
	name=$1 out=$T/$1
	mkdir -p "$out"
	tests/ib/with-fabric.sh "fixtures/ib/$name" -- sh -c '
		bin=$1 pol=$2 out=$3
		"$bin" scan --ib -q -c "$pol" -o "$out-1" --max-outstanding 1
		echo $? >"$out-1.rc"
		"$bin" scan --ib -q -c "$pol" -o "$out-default"
		echo $? >"$out-default.rc"
		"$bin" scan --ib -q -c "$pol" -o "$out-64" --max-outstanding 64
		echo $? >"$out-64.rc"
		' sh "$BIN" "fixtures/ib/$name/policy.conf" "$out/scan" \
	    2>"$T/$name.err"
	wf=$?
	expect_eq "$name: fabric came up and the scans ran" "$wf" 0
	if [ "$wf" -ne 0 ]; then
		sed 's/^/    /' "$T/$name.err"
		return
	fi
	for w in 1 default 64; do
		d=$out/scan-$w
		expect_eq "$name, window $w: scan exits 1" "$(cat "$d.rc")" 1
		bound=$w
		[ "$w" = default ] &&
			bound=$(jq -r .scan.ib_options.max_outstanding \
			    "$d/snapshot.json")
		expect_eq "$name, window $w: the bound is recorded" \
		    "$(jq -r '.scan.ib_options | "\(.max_outstanding) \(.max_smps)"' \
		    "$d/snapshot.json")" "$bound $bound"
		expect_eq "$name, window $w: the engine kept it" \
		    "$(engine "$d" '| .max_outstanding <= '"$bound"' and
		    .max_inflight <= '"$bound"' and .max_inflight >= 1')" true
		expect_eq "$name, window $w: discovery kept it" \
		    "$(engine "$d" '.discovery | .max_outstanding == '"$bound"'
		    and .max_inflight <= '"$bound"' and .sent > 0')" true
		pd=2
		[ "$w" = 1 ] && pd=1
		expect_eq "$name, window $w: at most $pd to one destination" \
		    "$(engine "$d" '| [.max_inflight_per_destination,
		    .discovery.max_inflight_per_destination] | max')" "$pd"
		sa=8
		[ "$w" = 1 ] && sa=1
		expect_eq "$name, window $w: at most $sa to the SA" \
		    "$(engine "$d" '| .sa_per_destination == 8 and
		    .max_inflight_to_sa >= 1 and
		    .max_inflight_to_sa <= '"$sa")" true
		expect_eq "$name, window $w: nothing stray" \
		    "$(engine "$d" .stray)" 0
		results "$d" >"$d.results"
		expect_eq "$name, window $w: results were written" \
		    "$(test -s "$d.results" && echo yes)" yes
	done
	# A window of 1 still fills to 1; a wider one is used.
	expect_eq "$name: polite mode sends one at a time" \
	    "$(engine "$out/scan-1" .max_inflight)" 1
	expect_eq "$name: window 64 puts more than 2 in flight" \
	    "$(engine "$out/scan-64" '.max_inflight > 2')" true
	for w in default 64; do
		if cmp -s "$out/scan-1.results" "$out/scan-$w.results"; then
			fa_pass "$name: window $w gives the results of window 1"
		else
			fa_fail "$name: window $w gives the results of window 1"
			diff "$out/scan-1.results" "$out/scan-$w.results" |
			    head -5 | sed 's/^/    /'
		fi
	done
	# The snapshot's order does not depend on answer timing.
	expect_eq "$name: observations in the same order at 1 and 64" \
	    "$(jq -c '[.observations[] | select(.kind != "ib.engine") |
	    [.id, .target]]' "$out/scan-1/snapshot.json" | cksum)" \
	    "$(jq -c '[.observations[] | select(.kind != "ib.engine") |
	    [.id, .target]]' "$out/scan-64/snapshot.json" | cksum)"
}
fabric large
fabric careless

# --- do no harm at a wide window --------------------------------------------
# protected: the SM port's SMA (ufm-sm01) is at M_Key level 2 and drops
# every Get; a 64-wide window must still send it a single SMInfo Get.
if [ -f "$AGENT" ]; then
	o=$T/protected
	FA_AGENT_SCENARIO=$PWD/fixtures/ib/protected/agent.conf \
	    FA_AGENT_LOG=$o.agent.log LD_PRELOAD=$AGENT \
	    tests/ib/with-fabric.sh fixtures/ib/protected -- "$BIN" scan --ib \
	    -q --max-outstanding 64 -c fixtures/ib/protected/policy.conf \
	    --user "$(id -un)" -o "$o" 2>"$o.err"
	expect_eq "protected, window 64: scan exits 1" "$?" 1
	expect_eq "protected, window 64: the silent SMA got one SMInfo Get" \
	    "$(grep 'attr=0x0020' "$o.agent.log" | grep -c 'method=0x01')" 1
	expect_eq "protected, window 64: no Set" \
	    "$(grep -c 'method=0x02' "$o.agent.log")" 0
	expect_eq "protected, window 64: at most 2 to one destination" \
	    "$(engine "$o" '| [.max_inflight_per_destination,
	    .discovery.max_inflight_per_destination] | max <= 2')" true
else
	fa_fail "test agent built ($AGENT missing: make $B/tests/agent.so)"
fi

fa_done
