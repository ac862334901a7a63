#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Privileges of `fabaudit scan` (see core/privdrop.h, scanner/cmd_scan.c):
# started as root, the network-facing acquisition runs as --user (default
# nobody) with no capability but CAP_NET_RAW while it captures; the report
# is the one a root scan writes; --user errors are one line, exit 2; a
# scan started unprivileged runs with what it can open.
# usage: tests/robust/test_privs.sh BUILD_DIR   (from the repo root, as root)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: test_privs.sh BUILD_DIR}
R=$PWD
BIN=$R/$B/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"

if [ "$(id -u)" -ne 0 ]; then
	fa_fail "test_privs.sh must run as root (it checks the drop)"
	fa_done
	exit
fi
NOBODY=$(id -u nobody 2>/dev/null)
if [ -z "$NOBODY" ]; then
	fa_fail "no user nobody on this system"
	fa_done
	exit
fi

# results FILE: "id status target" lines, sorted.
results() {
	jq -r '.results[] | "\(.id) \(.status) \(.target)"' "$1" | sort
}

# complete DIR: the report set is there and its counts add up.
complete() {
	for f in report.json report.txt report.xml report.html snapshot.json
	do
		[ -s "$1/$f" ] || { echo "missing $f"; return; }
	done
	jq -r '(.summary.pass + .summary.fail + .summary.not_tested +
	    .summary.not_applicable + .summary.error) == (.results | length)' \
	    "$1/report.json"
}

# --- IB as root: the acquisition drops to nobody -------------------------
sh tests/ib/with-fabric.sh fixtures/ib/careless -- "$BIN" scan --ib -q \
    -c fixtures/ib/careless/policy.conf -o "$T/drop" 2>"$T/drop.err"
expect_eq "ib as root: exit 1 (careless fails)" "$?" 1
expect_eq "ib as root: the report set is complete" "$(complete "$T/drop")" \
    true
expect_eq "ib as root: acquired as nobody" \
    "$(jq -r '.scan.acquired_as | "\(.user) \(.uid) \(.gid)"' \
    "$T/drop/snapshot.json")" "nobody $NOBODY $(id -g nobody)"
expect_eq "ib as root: no capability kept for IB" \
    "$(jq -r '.scan.acquired_as.capabilities' "$T/drop/snapshot.json")" ""
expect_eq "ib as root: mads.pcap written (through the parent's file)" \
    "$(test -s "$T/drop/mads.pcap" && echo yes)" yes
expect_eq "ib as root: the outputs belong to the invoking user" \
    "$(stat -c %U "$T/drop/report.json" "$T/drop/mads.pcap" | sort -u)" root
sh tests/ib/with-fabric.sh fixtures/ib/careless -- "$BIN" scan --ib -q \
    -c fixtures/ib/careless/policy.conf --user root -o "$T/root" \
    2>"$T/root.err"
expect_eq "ib --user root: exit 1" "$?" 1
expect_eq "ib --user root: nothing recorded as dropped" \
    "$(jq -r '.scan.acquired_as // "none"' "$T/root/snapshot.json")" none
results "$T/drop/report.json" >"$T/drop.res"
results "$T/root/report.json" >"$T/root.res"
expect_eq "ib: the dropped scan's results are the root scan's" \
    "$(cmp -s "$T/drop.res" "$T/root.res" && echo same)" same
expect_eq "ib: the results are not all not_tested" \
    "$(grep -c ' pass \| fail ' "$T/drop.res" | awk '{print ($1 > 5)}')" 1

# --- Ethernet as root: /proc shows the child as nobody, CAP_NET_RAW only -
"$BIN" scan --eth=lo --listen 3 -q -o "$T/eth" 2>"$T/eth.err" &
pid=$!
child=
i=0
while [ $i -lt 40 ] && [ -z "$child" ]; do
	sleep 0.05
	child=$(cat /proc/$pid/task/*/children 2>/dev/null | awk '{print $1}')
	i=$((i + 1))
done
sleep 0.3
st=$T/child.status
cat "/proc/$child/status" >"$st" 2>/dev/null
cat "/proc/$pid/status" >"$T/parent.status" 2>/dev/null
wait $pid
expect_eq "eth as root: exit 0" "$?" 0
expect_eq "eth as root: the acquisition child was seen" \
    "$(test -s "$st" && echo yes)" yes
expect_eq "eth: the child's real, effective, saved and fs UIDs are nobody" \
    "$(awk '/^Uid:/ {print $2, $3, $4, $5}' "$st")" \
    "$NOBODY $NOBODY $NOBODY $NOBODY"
expect_eq "eth: the child has no supplementary group root" \
    "$(awk '/^Groups:/ {for (i = 2; i <= NF; i++) if ($i == 0) print "root"}' \
    "$st")" ""
# CAP_NET_RAW is bit 13: 0x2000.
expect_eq "eth: the child's effective set is CAP_NET_RAW alone" \
    "$(awk '/^CapEff:/ {print $2}' "$st")" 0000000000002000
expect_eq "eth: its bounding set is CAP_NET_RAW alone" \
    "$(awk '/^CapBnd:/ {print $2}' "$st")" 0000000000002000
expect_eq "eth: no inheritable or ambient capability" \
    "$(awk '/^Cap(Inh|Amb):/ {print $2}' "$st" | sort -u)" 0000000000000000
expect_eq "eth: no_new_privs is set" \
    "$(awk '/^NoNewPrivs:/ {print $2}' "$st")" 1
expect_eq "eth: the parent stayed root (it writes the outputs)" \
    "$(awk '/^Uid:/ {print $3}' "$T/parent.status")" 0
expect_eq "eth: snapshot says so too" \
    "$(jq -r '.scan.acquired_as | "\(.user) \(.capabilities)"' \
    "$T/eth/snapshot.json")" "nobody cap_net_raw"
expect_eq "eth: the report set is complete" "$(complete "$T/eth")" true

# --- host as root: read with the invoking credentials, no child ----------
"$BIN" scan --host=fixtures/host/hardened -q -o "$T/host" 2>"$T/host.err"
rc=$?
expect_eq "host as root: exit 0 or 1" "$(echo $rc | tr 01 xx)" x
expect_eq "host as root: no acquisition as another user" \
    "$(jq -r '.scan.acquired_as // "none"' "$T/host/snapshot.json")" none

# --- --user errors: one line naming the option, exit 2, nothing written --
"$BIN" scan --host -q --user no-such-user-fa -o "$T/bad" 2>"$T/bad.err"
expect_eq "--user unknown: exit 2" "$?" 2
expect_eq "--user unknown: one line on stderr" \
    "$(wc -l <"$T/bad.err" | tr -d ' ')" 1
expect_grep "--user unknown: the line names the option and the user" \
    "^fabaudit: --user: 'no-such-user-fa' is not a known user" "$T/bad.err"
expect_eq "--user unknown: no output directory" \
    "$(test -e "$T/bad" && echo made)" ""
"$BIN" scan --host -q --user "" -o "$T/bad" 2>"$T/bad2.err"
expect_eq "--user '': exit 2" "$?" 2
expect_grep "--user '': names the option" "^fabaudit: --user: " "$T/bad2.err"

# --- unprivileged from the start: what it can open ----------------------
mkdir "$T/nb" && chown nobody "$T/nb"
(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
    --clear-groups "$BIN" scan --host="$R/fixtures/host/hardened" -q \
    -o "$T/nb/out" 2>"$T/nb.err")
rc=$?
expect_eq "as nobody, no --user: exit 0 or 1" "$(echo $rc | tr 01 xx)" x
expect_eq "as nobody: the host family was scanned" \
    "$(jq -r '.families.host.state' "$T/nb/out/snapshot.json")" collected
expect_eq "as nobody: the report set is complete" "$(complete "$T/nb/out")" \
    true
(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
    --clear-groups "$BIN" scan --host="$R/fixtures/host/hardened" -q \
    --user root -o "$T/nb/out2" 2>"$T/nb2.err")
expect_eq "as nobody, --user root: exit 2" "$?" 2
expect_eq "as nobody, --user root: one line" \
    "$(wc -l <"$T/nb2.err" | tr -d ' ')" 1
expect_grep "as nobody, --user root: says only root can change user" \
    "^fabaudit: --user: only root can change" "$T/nb2.err"
(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
    --clear-groups "$BIN" scan --host="$R/fixtures/host/hardened" -q \
    --user nobody -o "$T/nb/out3" 2>"$T/nb3.err")
rc=$?
expect_eq "as nobody, --user nobody (itself): runs" "$(echo $rc | tr 01 xx)" x
# Ethernet unprivileged: without CAP_NET_RAW nothing can be captured, and
# that is said (not_tested); with it (a file capability) the capture runs.
(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
    --clear-groups "$BIN" scan --eth=lo --listen 1 -q -o "$T/nb/eth" \
    2>"$T/nb-eth.err")
expect_eq "as nobody, no capability: eth exits 0" "$?" 0
expect_eq "as nobody, no capability: the capture is recorded as not made" \
    "$(jq -r '[.observations[] | select(.target == "lo" and
    .state != "complete")] | length > 0' "$T/nb/eth/snapshot.json")" true
expect_eq "as nobody, no capability: no eth pass" \
    "$(jq -r '[.results[] | select(.family == "eth" and
    .status == "pass")] | length' "$T/nb/eth/report.json")" 0
if command -v setcap >/dev/null 2>&1; then
	cp "$BIN" "$T/nb/fa-raw" && setcap cap_net_raw+ep "$T/nb/fa-raw"
	(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
	    --clear-groups --inh-caps=-all ./fa-raw scan --eth=lo --listen 1 \
	    -q -o "$T/nb/eth-raw" 2>"$T/nb-raw.err")
	expect_eq "as nobody with CAP_NET_RAW (file capability): exit 0" "$?" 0
	expect_eq "as nobody with CAP_NET_RAW: the capture was made" \
	    "$(jq -r '[.observations[] | select(.target == "lo" and
	    .state != "complete")] | length' "$T/nb/eth-raw/snapshot.json")" 0
else
	echo "SKIP: setcap not installed: CAP_NET_RAW alone not tried"
fi
# IB unprivileged, on the simulator (which has no device permissions to
# refuse): the scan runs as it is, nothing is dropped.
(cd "$T/nb" && setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" \
    --clear-groups sh "$R/tests/ib/with-fabric.sh" \
    "$R/fixtures/ib/careless" -- "$BIN" scan --ib -q \
    -c "$R/fixtures/ib/careless/policy.conf" -o "$T/nb/ib" \
    2>"$T/nb-ib.err")
rc=$?
if [ -s "$T/nb/ib/report.json" ]; then
	results "$T/nb/ib/report.json" >"$T/nb-ib.res"
	expect_eq "as nobody: the IB scan's results are root's" \
	    "$(cmp -s "$T/nb-ib.res" "$T/root.res" && echo same)" same
else
	fa_fail "as nobody: the IB scan wrote no report (exit $rc: \
$(head -c 300 "$T/nb-ib.err"))"
fi
fa_done
