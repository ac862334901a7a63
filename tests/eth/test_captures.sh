#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Ethernet family tests: the real scanner on captures written by
# tests/eth/mkcaptures (one frame per signal, malformed and truncated
# frames, an empty file, a non-Ethernet file, a file cut short), then the
# same frames on a live test bed: two network namespaces joined by a veth
# pair, the scanner listening in one while tests/eth/replay sends the
# frames from the other.  Namespaces are removed on exit, whatever happens.
# usage: tests/eth/test_captures.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$(cd "$1" && pwd)
BIN=$B/fabaudit
T=$(mktemp -d)
NS=fa-eth-$$
cleanup() {
	[ -n "${LPID:-}" ] && kill "$LPID" 2>/dev/null
	pkill -f "s_server -accept 443 -cert $T/c.pem" 2>/dev/null
	pkill -f "s_server -accept 8443 -cert $T/s.pem" 2>/dev/null
	ip netns del "$NS-a" 2>/dev/null
	ip netns del "$NS-b" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$B/tests/mkcaptures" "$T" || fa_fail "mkcaptures"
cat >"$T/policy.conf" <<'POL'
tenant_vlan   120
tenant_subnet 10.20.0.0/16
dhcp_server   10.20.0.1
POL

# results FILE: "status id" of the eth results, in report order.
results() {
	jq -r '.results[] | select(.family == "eth") | "\(.status) \(.id)"' "$1"
}

ALL="ETH-FOREIGN-VLAN ETH-TRUNK-PORT ETH-DTP-EXPOSED ETH-STP-EXPOSED
ETH-CDP-EXPOSED ETH-LLDP-LEAK ETH-ROGUE-DHCP ETH-FOREIGN-L2 ETH-ROCE-VISIBLE
ETH-MGMT-REACHABLE ETH-XTENANT-REACHABLE ETH-MGMT-TLS-WEAK ETH-VLAN-HOP"
# The policy of the file scans lists no target and no foreign_vlan: the
# last four do not apply (ETH-VLAN-HOP is tested in test_vswitch.sh).
NA3="not_applicable not_applicable not_applicable not_applicable"
# expect NAME STATUS...: one status per check of $ALL, in that order.
# (The live test bed narrows $ALL to the checks with one result there.)
expect() {
	n=$1
	shift
	want=$(for id in $ALL; do echo "$1 $id"; shift; done)
	for id in $ALL; do echo " $id"; done >"$T/ids"
	# Only the checks of $ALL, which give one result each here.
	got=$(results "$T/$n/report.json" | while read -r st id; do
		grep -q -x -F " $id" "$T/ids" && echo "$st $id"; done)
	if [ "$got" = "$want" ]; then fa_pass "$n: every eth result as reviewed"
	else
		fa_fail "$n: eth results differ"
		printf 'want:\n%s\ngot:\n%s\n' "$want" "$got"
	fi
}

# Every Ethernet check of the registry is in $ALL, so each is asserted.
for id in $("$BIN" checks --family eth | awk '{print $1}'); do
	case " $(echo $ALL) " in
	*" $id "*) fa_pass "$id is asserted on every capture" ;;
	*) fa_fail "$id is not in this test's list" ;;
	esac
done

scan_file() {
	"$BIN" scan -q --pcap "$T/$1.pcap" -c "$T/policy.conf" -o "$T/$1" \
	    >"$T/$1.out" 2>"$T/$1.err"
	echo $?
}

expect_eq "clean: exit 0" "$(scan_file clean)" 0
expect clean pass pass pass pass pass pass pass pass pass $NA3
expect_eq "clean: only the eth family was scanned" \
    "$(jq -c .scan.families "$T/clean/report.json")" '["eth"]'

expect_eq "leaky: exit 1" "$(scan_file leaky)" 1
expect leaky fail fail fail fail fail fail fail fail fail $NA3
expect_grep "leaky: the foreign VLANs are named" \
    'VLAN IDs the policy does not list reach this port: 30, 40' \
    "$T/leaky/report.txt"
expect_grep "leaky: the rogue server offers a network boot" \
    '10.20.0.250, offering a network boot' "$T/leaky/report.txt"
expect_grep "leaky: DTP desirable is called negotiable" \
    'DTP in desirable mode: it would negotiate a trunk' "$T/leaky/report.txt"
expect_grep "leaky: another tenant's RoCE is named" \
    'RoCEv2 traffic from [0-9.]+ to 10.30.0.9' "$T/leaky/report.txt"
expect_eq "leaky: the short-captured frame is counted" \
    "$(jq '.observations[] | select(.kind == "eth.capture") |
    .data.truncated' "$T/leaky/snapshot.json")" 1
expect_nogrep "leaky: no raw escape byte from LLDP in report.txt" \
    "$(printf '\033')" "$T/leaky/report.txt"
expect_grep "leaky: the LLDP text is kept, escaped" \
    '<script>\\\\x1b\[31m' "$T/leaky/report.json"
"$BIN" check -q -o "$T/leaky.check" "$T/leaky/snapshot.json" >/dev/null 2>&1
expect_eq "leaky: fabaudit check reproduces the scan" \
    "$(results "$T/leaky.check/report.json")" \
    "$(results "$T/leaky/report.json")"

# Garbage is counted and shown, never a crash; what decoded still counts.
expect_eq "malformed: exit 1 (the nine-tag frame carries foreign VLANs)" \
    "$(scan_file malformed)" 1
# The malformed CDP frame still counts as CDP; the malformed LLDP frame's
# disclosures cannot be known.
expect malformed fail fail pass pass fail not_tested not_tested pass pass $NA3
expect_eq "malformed: five frames could not be decoded" \
    "$(jq '.observations[] | select(.kind == "eth.capture") |
    .data.malformed' "$T/malformed/snapshot.json")" 5
expect_grep "malformed: the reason says so" \
    '5 of 7 frames could not be decoded' "$T/malformed/report.txt"
expect_eq "malformed: the nine-tag frame's first eight VIDs count" \
    "$(jq -c '.observations[] | select(.kind == "eth.capture") |
    .data.vlans | keys' "$T/malformed/snapshot.json")" \
    '["1","2","3","4","5","6","7","8"]' 

# More malformed frames than examples kept: counted, never fatal.
expect_eq "garbage: exit 0" "$(scan_file garbage)" 0
expect_eq "garbage: twenty malformed frames counted" \
    "$(jq '.observations[] | select(.kind == "eth.capture") |
    .data.malformed' "$T/garbage/snapshot.json")" 20
expect_eq "garbage: their headers said ARP" \
    "$(jq -c '.observations[] | select(.kind == "eth.capture") |
    .data.malformed_signals' "$T/garbage/snapshot.json")" '{"arp":20}'

# Silence proves nothing.
expect_eq "empty: exit 0" "$(scan_file empty)" 0
expect empty not_tested not_tested not_tested not_tested not_tested \
    not_tested not_tested not_tested not_tested $NA3

# Targets in the policy are probed only from a live scan, VLANs only with
# --active; without tenant_subnet no sender can be called foreign.
cat >"$T/targets.conf" <<'POL'
mgmt_target    10.0.0.2 tcp/22
foreign_target 10.0.0.3 icmp
foreign_vlan   30
POL
"$BIN" scan -q --pcap "$T/clean.pcap" -c "$T/targets.conf" -o "$T/tgt" \
    >/dev/null 2>&1
expect_grep "a capture file: ETH-VLAN-HOP needs --active" \
    'not_tested +high +ETH-VLAN-HOP' "$T/tgt/report.txt"
expect_grep "and says so" 'run only with --active' "$T/tgt/report.txt"
expect_grep "no tenant_subnet: ETH-FOREIGN-L2 is not tested" \
    'not_tested +high +ETH-FOREIGN-L2' "$T/tgt/report.txt"
expect_grep "a capture file: the targets are not tested, and why" \
    'not_tested +high +ETH-MGMT-REACHABLE' "$T/tgt/report.txt"
expect_grep "and the reason names the live scan" \
    'targets are probed only from a live scan' "$T/tgt/report.txt"
expect_grep "a capture file: ETH-XTENANT-REACHABLE is not tested" \
    'not_tested +critical +ETH-XTENANT-REACHABLE' "$T/tgt/report.txt"
expect_grep "a capture file: ETH-MGMT-TLS-WEAK is not tested" \
    'not_tested +medium +ETH-MGMT-TLS-WEAK' "$T/tgt/report.txt"

# A file cut short: what was read can fail, nothing can pass.
expect_eq "cut: exit 1" "$(scan_file cut)" 1
expect_eq "cut: no pass from a damaged file" "$(results \
    "$T/cut/report.json" | grep -c '^pass ')" 0

# --max-frames: the whole file by default; a file read only in part is a
# capture cut short, which can fail but not pass, and says where it stopped.
"$BIN" scan -q --pcap "$T/clean.pcap" -c "$T/policy.conf" -o "$T/mf-all" \
    >/dev/null 2>&1
"$BIN" scan -q --pcap "$T/clean.pcap" --max-frames 2 -c "$T/policy.conf" \
    -o "$T/mf2" >/dev/null 2>&1
expect_eq "every frame is read by default" "$(jq '.observations[] |
    select(.kind == "eth.capture") | .data.frames' "$T/mf-all/snapshot.json")" \
    "$(tshark -r "$T/clean.pcap" 2>/dev/null | wc -l)"
expect_eq "--max-frames 2 reads two frames" "$(jq '.observations[] |
    select(.kind == "eth.capture") | .data.frames' "$T/mf2/snapshot.json")" 2
expect_eq "and no wire check passes on the rest unread" "$(jq '[.results[] |
    select(.family == "eth" and .status == "pass")] | length' \
    "$T/mf2/report.json")" 0
expect_grep "and says where it stopped" 'read stopped at --max-frames 2' \
    "$T/mf2/report.txt"

# Unusable inputs: exit 2, one line naming the file, no report.
expect_eq "a RAW capture exits 2" "$(scan_file raw)" 2
expect_grep "and says why" '^fabaudit: --pcap: .*raw.pcap: link type RAW [(]101[)] is not supported: fabaudit reads Ethernet, LINUX_SLL and LINUX_SLL2$' \
    "$T/raw.err"
expect_eq "and writes no report" "$(ls "$T/raw" 2>/dev/null | wc -l)" 0
expect_eq "a missing capture exits 2" "$(scan_file missing)" 2
"$BIN" scan -q --pcap "$T/clean.pcap" --eth=eth0 -o "$T/both" \
    >/dev/null 2>"$T/both.err"
expect_eq "--pcap with --eth interfaces exits 2" "$?" 2
"$BIN" scan -q --eth= -o "$T/noif" >/dev/null 2>&1
expect_eq "--eth= exits 2" "$?" 2
"$BIN" scan -q --eth --listen 0 -o "$T/zero" >/dev/null 2>&1
expect_eq "--listen 0 exits 2" "$?" 2

# A named interface that does not exist: recorded, and not tested.
"$BIN" scan -q --eth=fa-nonexistent0 --listen 1 -o "$T/noiface" \
    >/dev/null 2>&1
expect_eq "a missing interface is not tested, with the reason" \
    "$(jq -r '[.results[] | select(.family == "eth" and
    .status != "not_applicable") | .reason] | unique | .[]' \
    "$T/noiface/report.json")" \
    "fa-nonexistent0: no such interface"

# The live test bed: frames sent from one namespace, heard in the other.
if ip netns add "$NS-a" 2>/dev/null && ip netns add "$NS-b" &&
    ip link add va netns "$NS-a" type veth peer name vb netns "$NS-b" &&
    ip -n "$NS-a" link set va up && ip -n "$NS-b" link set vb up &&
    ip -n "$NS-a" link set lo up; then
	# No IPv6 chatter of our own (router solicitations, MLD).
	ip netns exec "$NS-a" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$NS-b" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$NS-a" addr add 10.0.0.5/24 dev va
	ip -n "$NS-b" addr add 10.0.0.2/24 dev vb
	ip -n "$NS-b" link set lo up
	# A "BMC" with a self-signed certificate on 443, nothing on 22 or
	# UDP 623 (resets and ICMP port unreachable: reachable all the same);
	# 10.0.0.3 does not exist (timeouts: not reachable).
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/k.pem" \
	    -out "$T/c.pem" -days 2 -subj /CN=bmc-07 >/dev/null 2>&1
	(sleep 30 | ip netns exec "$NS-b" openssl s_server -accept 443 \
	    -cert "$T/c.pem" -key "$T/k.pem" >"$T/srv.log" 2>&1) &
	SPID=$!
	# A second endpoint with a certificate from a CA: strong TLS.
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/ca.key" \
	    -out "$T/ca.pem" -days 2 -subj /CN=fixture-ca >/dev/null 2>&1
	openssl req -newkey rsa:2048 -nodes -keyout "$T/s.key" -out "$T/s.csr" \
	    -subj /CN=switch-07 >/dev/null 2>&1
	openssl x509 -req -in "$T/s.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
	    -CAcreateserial -days 2 -out "$T/s.pem" >/dev/null 2>&1
	(sleep 30 | ip netns exec "$NS-b" openssl s_server -accept 8443 \
	    -cert "$T/s.pem" -key "$T/s.key" >"$T/srv2.log" 2>&1) &
	cat "$T/policy.conf" - >"$T/live.conf" <<'POL'
mgmt_target    10.0.0.2 tcp/443,22,8443 udp/623 icmp
mgmt_target    10.0.0.4 tcp/22
foreign_target 10.0.0.3 tcp/22 icmp
foreign_target 10.0.0.2 icmp
POL
	sleep 1
	ip netns exec "$NS-a" "$BIN" scan -q --eth --listen 4 \
	    -c "$T/live.conf" -o "$T/live" >"$T/live.out" 2>"$T/live.err" &
	LPID=$!
	sleep 1
	ip netns exec "$NS-b" "$B/tests/replay" vb "$T/leaky.pcap" \
	    >"$T/replay.out" 2>&1 || fa_fail "replay: $(cat "$T/replay.out")"
	wait "$LPID"
	expect_eq "live: exit 1" "$?" 1
	LPID=
	expect_eq "live: va listened on, nothing else up" \
	    "$(jq -r '[.observations[] | select(.kind == "eth.capture") |
	    .target] | join(",")' "$T/live/snapshot.json")" va
	# The short-captured frame is sent as captured.
	expect_eq "live: every frame sent was heard" \
	    "$(jq '.observations[] | select(.kind == "eth.capture") |
	    .data.frames' "$T/live/snapshot.json")" 16
	ALL="ETH-FOREIGN-VLAN ETH-TRUNK-PORT ETH-DTP-EXPOSED ETH-STP-EXPOSED
ETH-CDP-EXPOSED ETH-LLDP-LEAK ETH-ROGUE-DHCP ETH-FOREIGN-L2 ETH-ROCE-VISIBLE
ETH-VLAN-HOP"
	expect live fail fail fail fail fail fail fail fail fail not_applicable
	# One result per target (and TLS endpoint): target status.
	per() {
		jq -r --arg id "$1" '.results[] | select(.id == $id) |
		    "\(.target) \(.status)"' "$T/live/report.json" |
		    tr '\n' ';'
	}
	expect_eq "live: ETH-MGMT-REACHABLE per target" \
	    "$(per ETH-MGMT-REACHABLE)" \
	    "mgmt_target:10.0.0.2/32 fail;mgmt_target:10.0.0.4/32 pass;"
	expect_eq "live: ETH-XTENANT-REACHABLE per target" \
	    "$(per ETH-XTENANT-REACHABLE)" \
	    "foreign_target:10.0.0.3/32 pass;foreign_target:10.0.0.2/32 fail;"
	expect_eq "live: ETH-MGMT-TLS-WEAK per endpoint" \
	    "$(per ETH-MGMT-TLS-WEAK)" \
	    "10.0.0.2 tcp/443 fail;10.0.0.2 tcp/8443 pass;"
	expect_grep "live: the management host answered on 443, 22 and 623" \
	    '10.0.0.2 tcp/443 answered, 10.0.0.2 tcp/22 refused, 10.0.0.2 tcp/8443 answered, 10.0.0.2 udp/623 refused' \
	    "$T/live/report.txt"
	expect_grep "live: the self-signed certificate is the weakness" \
	    "TLS is weak: self-signed certificate" "$T/live/report.txt"
	expect_eq "live: TLS 1.0 and 1.1 were tried and refused" \
	    "$(jq -c '[.observations[] | select(.kind == "eth.reach") |
	    .data.probes[] | select(.tls != null) | .tls.versions] | unique' \
	    "$T/live/snapshot.json")" '[["TLSv1.3","TLSv1.2"]]'
	expect_eq "live: eth.links has the route of the test bed's subnet" \
	    "$(jq -r '.observations[] | select(.kind == "eth.links") |
	    .data.routes[] | select(.dst == "10.0.0.0/24") | .table' \
	    "$T/live/snapshot.json")" 254
	kill "$SPID" 2>/dev/null
	pkill -f "s_server -accept 443 -cert $T/c.pem" 2>/dev/null
	pkill -f "s_server -accept 8443 -cert $T/s.pem" 2>/dev/null
	expect_eq "live: the tags came back through auxdata" \
	    "$(jq -c '.observations[] | select(.kind == "eth.capture") |
	    .data.vlans | keys' "$T/live/snapshot.json")" '["30","40"]'
	expect_eq "live: eth.links names va" "$(jq -r '.observations[] |
	    select(.kind == "eth.links") | .data.links[] |
	    select(.name == "va") | .type' "$T/live/snapshot.json")" veth
else
	fa_fail "live: cannot create the namespaces (root and veth needed)"
fi

fa_done
