#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Ethernet capture faults: the capture interface vanishes (the veth is
# deleted) or goes down in the middle of `scan --eth=IF --listen N`, in a
# network namespace, while the other end replays the tenant's clean
# chatter.  The scan must end (no hang, no waiting out the listen for an
# interface that is gone), mark that capture incomplete with libpcap's
# reason, give no pass for it (the fault-free run gives passes), and keep
# the rest of the report complete: another interface's capture too.
# usage: tests/robust/test_ethfault.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$(cd "$1" && pwd)
BIN=$B/fabaudit
T=$(mktemp -d)
NS=fa-ef-$$
RP=
cleanup() {
	[ -n "$RP" ] && kill "$RP" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ "$(id -u)" -ne 0 ] || ! ip netns add "$NS"; then
	fa_fail "Ethernet faults need root and network namespaces"
	fa_done
	exit
fi
[ -x "$B/tests/replay" ] && [ -x "$B/tests/mkcaptures" ] ||
    make -s B="$B" "$B/tests/replay" "$B/tests/mkcaptures" ||
    fa_fail "build the test bed's tools"
"$B/tests/mkcaptures" "$T" || fa_fail "mkcaptures"
printf 'tenant_vlan 120\ntenant_subnet 10.20.0.0/16\n' >"$T/policy.conf"

# links: v0 (scanned) - v1 (replays), w0 (scanned) - w1 (replays).
links() {
	for p in v w; do
		ip -n "$NS" link del "${p}0" 2>/dev/null
		ip -n "$NS" link add "${p}0" type veth peer name "${p}1" &&
		    ip -n "$NS" link set "${p}0" up &&
		    ip -n "$NS" link set "${p}1" up || fa_fail "veth $p"
	done
}

# chatter: replay the clean capture from v1 and w1 until stopped.
chatter() {
	(while :; do
		for p in v1 w1; do
			ip netns exec "$NS" "$B/tests/replay" "$p" \
			    "$T/clean.pcap" >/dev/null 2>&1
		done
	done) &
	RP=$!
}
quiet() {
	[ -n "$RP" ] && kill "$RP" 2>/dev/null && wait "$RP" 2>/dev/null
	RP=
}

# scan NAME IFACES LISTEN FAULT-AFTER FAULT-CMD: scan, and FAULT-CMD in
# the namespace FAULT-AFTER seconds into it; the time taken to $T/NAME.s.
scan() {
	n=$1 ifs=$2 listen=$3 after=$4
	shift 4
	links
	chatter
	t0=$(date +%s)
	ip netns exec "$NS" timeout 60 "$BIN" scan -q --eth="$ifs" \
	    --listen "$listen" -c "$T/policy.conf" -o "$T/$n" \
	    >"$T/$n.out" 2>"$T/$n.err" &
	sp=$!
	if [ "$#" -gt 0 ]; then
		sleep "$after"
		ip -n "$NS" "$@" || fa_fail "$n: ip $*"
	fi
	wait "$sp"
	echo $? >"$T/$n.rc"
	echo $(($(date +%s) - t0)) >"$T/$n.s"
	quiet
}

# capture NAME IF: "state|reason" of the capture of IF.
capture() {
	jq -r --arg i "$2" '.observations[] | select(.kind == "eth.capture"
	    and .target == $i) | "\(.state)|\(.reason)"' \
	    "$T/$1/snapshot.json" 2>/dev/null
}
passes() {
	jq --arg i "$2" '[.results[] | select(.family == "eth" and
	    .target == $i and .status == "pass")] | length' \
	    "$T/$1/report.json" 2>/dev/null
}

# The fault-free run: passes, so a run without them means something.
scan clean v0 3 0
# (exit 1: the chatter has a DHCP server this policy does not list)
expect_eq "clean: exit 1" "$(cat "$T/clean.rc")" 1
expect_eq "clean: the capture is complete" \
    "$(capture clean v0 | cut -d'|' -f1)" complete
expect_eq "clean: the wire checks pass" \
    "$([ "$(passes clean v0)" -gt 3 ] && echo yes)" yes

# The interface is deleted one second into a six-second listen.
scan gone v0 6 1.5 link del v0
case $(cat "$T/gone.rc") in
0|1) fa_pass "gone: exits $(cat "$T/gone.rc")" ;;
*) fa_fail "gone: exits $(cat "$T/gone.rc")"; cat "$T/gone.err" ;;
esac
expect_eq "gone: does not wait out the listen" \
    "$([ "$(cat "$T/gone.s")" -lt 5 ] && echo yes)" yes
expect_eq "gone: the capture is incomplete" \
    "$(capture gone v0 | cut -d'|' -f1)" incomplete
expect_grep "gone: with the reason" \
    '^incomplete\|v0: the capture ended after [0-9]+ s: ' \
    "$(capture gone v0 >"$T/gone.cap"; echo "$T/gone.cap")"
expect_eq "gone: no pass for the capture" "$(passes gone v0)" 0
expect_eq "gone: every check still has a result" \
    "$(jq '[.results[] | select(.family == "eth")] | length' \
    "$T/gone/report.json")" \
    "$(jq '[.results[] | select(.family == "eth")] | length' \
    "$T/clean/report.json")"
expect_eq "gone: the report says what happened" \
    "$(grep -c 'v0: the capture ended after' "$T/gone/report.txt")" \
    "$(jq '[.results[] | select(.family == "eth" and .target == "v0" and
    .status == "not_tested")] | length' "$T/gone/report.json")"
for f in report.json report.txt report.html report.xml snapshot.json; do
	expect_eq "gone: $f written" "$([ -s "$T/gone/$f" ] && echo yes)" yes
done

# One of two interfaces is deleted: the other is listened to the end.
scan one v0,w0 4 1.5 link del v0
expect_eq "one of two: exits 1" "$(cat "$T/one.rc")" 1
expect_eq "one of two: the lost one is incomplete" \
    "$(capture one v0 | cut -d'|' -f1)" incomplete
expect_eq "one of two: the other is complete" \
    "$(capture one w0 | cut -d'|' -f1)" complete
expect_eq "one of two: the other was listened to for 4 s" \
    "$(jq '.observations[] | select(.kind == "eth.capture" and
    .target == "w0") | .data.seconds' "$T/one/snapshot.json")" 4
expect_eq "one of two: no pass for the lost one" "$(passes one v0)" 0
expect_eq "one of two: passes for the other" \
    "$([ "$(passes one w0)" -gt 3 ] && echo yes)" yes

# The interface goes down (not deleted) mid-listen.
scan down v0 6 1.5 link set v0 down
expect_eq "down: the capture is incomplete" \
    "$(capture down v0 | cut -d'|' -f1)" incomplete
expect_eq "down: no pass for the capture" "$(passes down v0)" 0
expect_eq "down: does not wait out the listen" \
    "$([ "$(cat "$T/down.s")" -lt 5 ] && echo yes)" yes

# An interface that does not exist, beside one that does: recorded as not
# listened to, with the reason; the other is listened to as usual.
scan missing v0,fa-nosuch0 2 0
expect_eq "missing: the scan runs" "$(cat "$T/missing.rc")" 1
expect_eq "missing: not listened to, with the reason" \
    "$(capture missing fa-nosuch0)" "not_collected|fa-nosuch0: no such interface"
expect_eq "missing: no pass for it" "$(passes missing fa-nosuch0)" 0
expect_eq "missing: its checks are not tested" "$(jq '[.results[] |
    select(.target == "fa-nosuch0" and .status != "not_tested")] |
    length' "$T/missing/report.json")" 0
expect_eq "missing: the other is complete" \
    "$(capture missing v0 | cut -d'|' -f1)" complete
echo "FIGURE eth_fault_scenarios 4"
fa_done
