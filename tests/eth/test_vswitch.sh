#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The switched Ethernet test bed: the scanner in a tenant namespace behind
# tests/eth/vswitch (a user-space VLAN switch: this kernel has neither
# 802.1Q nor bridge VLAN filtering), with a host of the tenant's VLAN 120
# and tenant B's host in VLAN 30 talking at the same time.  The tenant's
# port is configured three ways: a correct access port, an access port that
# also leaks VLAN 30, and a trunk.  Namespaces and processes are removed on
# exit, whatever happens.
# usage: tests/eth/test_vswitch.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$(cd "$1" && pwd)
BIN=$B/fabaudit
T=$(mktemp -d)
NS=fa-sw-$$
SW=
cleanup() {
	[ -n "$SW" ] && kill "$SW" 2>/dev/null
	for n in sw ta ha hb sp; do ip netns del "$NS-$n" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$B/tests/mkcaptures" "$T" || fa_fail "mkcaptures"
cat >"$T/policy.conf" <<'POL'
tenant_vlan   120
tenant_subnet 10.20.0.0/16
POL
# For --active: VLAN 30 must not be reachable; tenant B's host is there.
cat "$T/policy.conf" - >"$T/active.conf" <<'POL'
foreign_vlan   30
foreign_target 10.30.0.7 icmp
POL

# Three hosts, each on a veth whose other end is a switch port.
setup() {
	for n in sw ta ha hb sp; do
		ip netns add "$NS-$n" || return 1
		ip netns exec "$NS-$n" sysctl -qw \
		    net.ipv6.conf.all.disable_ipv6=1 || return 1
	done
	for h in ta ha hb sp; do
		ip link add eth0 netns "$NS-$h" type veth peer name "p-$h" \
		    netns "$NS-sw" || return 1
		ip -n "$NS-$h" link set eth0 up || return 1
		ip -n "$NS-sw" link set "p-$h" up || return 1
	done
	ip -n "$NS-hb" addr add 10.30.0.7/24 dev eth0
	# VLAN 120 is 10.20.0.0/24, of which the tenant owns the lower half.
	ip -n "$NS-ta" addr add 10.20.0.5/24 dev eth0
	ip -n "$NS-ha" addr add 10.20.0.9/24 dev eth0
	ip -n "$NS-sp" addr add 10.20.0.200/24 dev eth0
}

# run NAME TENANT-PORT-SPEC [SCAN-OPTION...]: switch up, scan while A and
# B talk.  With BRIDGE set, the switch is the kernel's VLAN-filtering
# bridge, already configured, instead of vswitch.
run() {
	n=$1 port=$2
	shift 2
	if [ -z "${BRIDGE:-}" ]; then
		ip netns exec "$NS-sw" "$B/tests/vswitch" "p-ta:$port" \
		    p-ha:access:120 p-hb:access:30 p-sp:access:120 \
		    2>"$T/$n.sw" &
		SW=$!
	fi
	sleep 0.5
	# The default policy, unless the case names one (-c once only).
	pol=$T/policy.conf
	case " $* " in *" -c "*) pol= ;; esac
	ip netns exec "$NS-ta" "$BIN" scan -q --eth --listen 3 \
	    ${pol:+-c "$pol"} -o "$T/$n" "$@" >/dev/null 2>"$T/$n.err" &
	scan=$!
	garp=
	if [ -n "${GARP:-}" ]; then
		# 10.30.0.7 announced on the tenant's own VLAN (RFC 826 reply,
		# broadcast), every 20 ms for 10 s: the whole scan.
		ip netns exec "$NS-sp" "$B/tests/sendraw" -n 500 eth0 \
		    "ffffffffffff02000000300708060001080006040002020000003007$(
		    )0a1e0007ffffffffffff0a1e0007$(printf '%036d' 0)" \
		    >/dev/null 2>"$T/$n.garp" &
		garp=$!
	fi
	sleep 1
	ip netns exec "$NS-ha" "$B/tests/replay" eth0 "$T/host-a.pcap" \
	    >/dev/null || fa_fail "$n: replay from A"
	ip netns exec "$NS-hb" "$B/tests/replay" eth0 "$T/host-b.pcap" \
	    >/dev/null || fa_fail "$n: replay from B"
	if [ -n "${SPEAK:-}" ]; then
		ip netns exec "$NS-sp" "$B/tests/replay" eth0 \
		    "$T/leaky.pcap" >/dev/null || fa_fail "$n: replay from sp"
	fi
	wait "$scan"
	echo $? >"$T/$n.rc"
	[ -n "$garp" ] && wait "$garp"
	if [ -n "$SW" ]; then
		kill "$SW" 2>/dev/null
		wait "$SW" 2>/dev/null
	fi
	SW=
}

status() {
	jq -r --arg id "$2" '.results[] | select(.id == $id) | .status' \
	    "$T/$1/report.json"
}

capture() {
	jq -c ".observations[] | select(.kind == \"eth.capture\") | $2" \
	    "$T/$1/snapshot.json"
}

if ! setup; then
	fa_fail "cannot build the switched test bed (root, veth needed)"
	fa_done
	exit
fi

run access access:120
expect_eq "access port: exit 0" "$(cat "$T/access.rc")" 0
expect_eq "access port: only the tenant's VLAN was heard (2 frames)" \
    "$(capture access .data.frames)" 2
expect_eq "access port: no tag reached it" "$(capture access .data.tagged)" 0
expect_eq "access port: ETH-FOREIGN-VLAN passes" \
    "$(status access ETH-FOREIGN-VLAN)" pass
expect_eq "access port: ETH-FOREIGN-L2 passes" \
    "$(status access ETH-FOREIGN-L2)" pass

run leak leak:120:30
expect_eq "leaky port: exit 1" "$(cat "$T/leak.rc")" 1
expect_eq "leaky port: tenant B's frames arrive, tagged 30" \
    "$(capture leak '.data.vlans')" '{"30":2}'
expect_eq "leaky port: ETH-FOREIGN-VLAN fails" \
    "$(status leak ETH-FOREIGN-VLAN)" fail
expect_eq "leaky port: ETH-FOREIGN-L2 fails on tenant B's address" \
    "$(jq -r '.results[] | select(.id == "ETH-FOREIGN-L2") | .reason' \
    "$T/leak/report.json")" \
    "a host outside the tenant's subnets speaks on this segment: 10.30.0.7 (arp)"
expect_eq "leaky port: one foreign VLAN is not a trunk" \
    "$(status leak ETH-TRUNK-PORT)" pass

run trunk trunk:120,30
expect_eq "trunk port: exit 1" "$(cat "$T/trunk.rc")" 1
expect_eq "trunk port: both VLANs arrive tagged" \
    "$(capture trunk '.data.vlans')" '{"120":2,"30":2}'
expect_eq "trunk port: ETH-TRUNK-PORT fails" "$(status trunk ETH-TRUNK-PORT)" \
    fail
expect_eq "trunk port: ETH-FOREIGN-VLAN fails" \
    "$(status trunk ETH-FOREIGN-VLAN)" fail
expect_eq "without --active the VLAN probe is not tested" \
    "$(jq -r '.results[] | select(.id == "ETH-VLAN-HOP") | .status' \
    "$T/trunk/report.json")" not_applicable

# The infrastructure in the tenant's VLAN speaks: a switch (LLDP, CDP, DTP,
# STP, VTP, LACP), a DHCP server with a boot file, a BMC's SSDP and RMCP,
# another tenant's RoCE.  Its tagged frames (VLANs 30 and 40, PVST+) are
# dropped by the access port, as a switch would.
SPEAK=1 run speaker access:120
expect_eq "speaker: the tagged frames were dropped by the access port" \
    "$(capture speaker .data.tagged)" 0
for id in ETH-TRUNK-PORT ETH-DTP-EXPOSED ETH-STP-EXPOSED ETH-CDP-EXPOSED \
    ETH-LLDP-LEAK ETH-ROGUE-DHCP ETH-FOREIGN-L2 ETH-ROCE-VISIBLE; do
	expect_eq "speaker: $id fails" "$(status speaker "$id")" fail
done
expect_eq "speaker: ETH-FOREIGN-VLAN passes (no foreign tag got through)" \
    "$(status speaker ETH-FOREIGN-VLAN)" pass

# --active: ARP probes tagged into VLAN 30 for tenant B's host.
run hop-trunk trunk:120,30 --active -c "$T/active.conf"
expect_eq "--active, trunk port: ETH-VLAN-HOP fails" \
    "$(status hop-trunk ETH-VLAN-HOP)" fail
expect_grep "--active, trunk port: tenant B's host answered, in VLAN 30" \
    '10.30.0.7 in VLAN 30 \((reply tagged|through its VLAN device)\)' \
    "$T/hop-trunk/report.txt"
expect_eq "--active: single- and double-tagged probes were sent" \
    "$(jq -c '[.observations[] | select(.kind == "eth.vlan_probe") |
    .data.sent[] | .outer]' "$T/hop-trunk/snapshot.json")" '[null,120]'
# Without 802.1Q in this kernel the VLAN device is refused and raw tagged
# frames are used: the observation says which method, and why.
if ip netns exec "$NS-ta" ip link add link eth0 name fa.t type vlan id 5 \
    2>/dev/null; then
	ip -n "$NS-ta" link del fa.t
	expect_eq "--active: the VLAN device was used where the kernel has one" \
	    "$(jq -r '.observations[] | select(.kind == "eth.vlan_probe") |
	    .data.methods[0].method' "$T/hop-trunk/snapshot.json")" \
	    "vlan device"
else
	expect_eq "--active: no VLAN device here, raw frames, and why" \
	    "$(jq -r '.observations[] | select(.kind == "eth.vlan_probe") |
	    .data.methods[0] | "\(.method): \(.why)"' \
	    "$T/hop-trunk/snapshot.json")" \
	    "raw tagged frames: no VLAN device: Operation not supported"
fi
run hop-access access:120 --active -c "$T/active.conf"
expect_eq "--active, access port: ETH-VLAN-HOP passes" \
    "$(status hop-access ETH-VLAN-HOP)" pass
run hop-leak leak:120:30 --active -c "$T/active.conf"

# --active ARP scan: the tenant owns 10.20.0.0/25 of the /24 its port is
# in; the host at .200 shares the segment without being the tenant's.
printf 'tenant_vlan 120\ntenant_subnet 10.20.0.0/25\n' >"$T/half.conf"
run arpscan access:120 --active -c "$T/half.conf"
expect_eq "ARP scan: the two other hosts of the /24 answered" \
    "$(jq -c '[.observations[] | select(.kind == "eth.arp_scan") |
    .data.hosts[].ip] | sort' "$T/arpscan/snapshot.json")" \
    '["10.20.0.200","10.20.0.9"]'
expect_eq "ARP scan: every address of the /24 but ours was asked" \
    "$(jq '.observations[] | select(.kind == "eth.arp_scan") |
    .data.probed' "$T/arpscan/snapshot.json")" 253
expect_eq "ARP scan: ETH-FOREIGN-L2 fails on the host outside the tenant's half" \
    "$(jq -r '.results[] | select(.id == "ETH-FOREIGN-L2") | .reason' \
    "$T/arpscan/report.json")" \
    "a host outside the tenant's subnets answers on this segment: 10.20.0.200 (ARP scan)"
expect_eq "--active, a port leaking VLAN 30 out still drops tagged input" \
    "$(status hop-leak ETH-VLAN-HOP)" pass
# A hybrid port: frames tagged 30 are admitted into VLAN 30 and VLAN 30
# leaves the port untagged, so tenant B's host answers the probe and the
# answer comes back untagged: a hop all the same (to our MAC, to the
# probe's sender address 0.0.0.0).
run hop-hybrid hybrid:120:30 --active -c "$T/active.conf"
expect_eq "--active, hybrid port (tagged in, untagged out): ETH-VLAN-HOP fails" \
    "$(status hop-hybrid ETH-VLAN-HOP)" fail
expect_grep "--active, hybrid port: tenant B's host answered untagged" \
    '10.30.0.7 \(reply untagged' "$T/hop-hybrid/report.txt"
# The target's address announced on the tenant's own VLAN while the probes
# run (gratuitous ARP replies, as a failover or keepalived sends): they
# answer no probe (untagged, to no one), so no VLAN was hopped; the
# observation counts them, and ETH-FOREIGN-L2 names the address.
GARP=1 run hop-garp access:120 --active -c "$T/active.conf"
expect_eq "--active, the target announced in the tenant's VLAN: ETH-VLAN-HOP passes" \
    "$(status hop-garp ETH-VLAN-HOP)" pass
expect_eq "--active, the announcements are counted as answering no probe" \
    "$(jq '.observations[] | select(.kind == "eth.vlan_probe") |
    .data.ignored > 0' "$T/hop-garp/snapshot.json")" true
expect_eq "--active, and the address is a foreign host on the segment" \
    "$(status hop-garp ETH-FOREIGN-L2)" fail

# The same bed with the kernel's bridge as the switch, where the kernel has
# VLAN filtering (802.1Q).  This machine's kernel has not: the section then
# prints a SKIP line, which the runner does not count as a pass.
if ip netns exec "$NS-sw" ip link add br0 type bridge vlan_filtering 1 \
    2>/dev/null; then
	ip -n "$NS-sw" link set br0 up
	for h in ta ha hb sp; do
		ip -n "$NS-sw" link set "p-$h" master br0
		ip netns exec "$NS-sw" bridge vlan del dev "p-$h" vid 1
	done
	for p in ta ha sp; do
		ip netns exec "$NS-sw" bridge vlan add dev "p-$p" vid 120 \
		    pvid untagged
	done
	ip netns exec "$NS-sw" bridge vlan add dev p-hb vid 30 pvid untagged
	BRIDGE=1 run br-access access:120
	expect_eq "bridge, access port: ETH-FOREIGN-VLAN passes" \
	    "$(status br-access ETH-FOREIGN-VLAN)" pass
	# The misconfiguration: VLAN 30 also egresses tagged on our port.
	ip netns exec "$NS-sw" bridge vlan add dev p-ta vid 30
	BRIDGE=1 run br-leak access:120
	expect_eq "bridge, leaking port: ETH-FOREIGN-VLAN fails" \
	    "$(status br-leak ETH-FOREIGN-VLAN)" fail
else
	echo "SKIP: the Linux bridge variant: this kernel has no bridge VLAN" \
	    "filtering"
fi

fa_done
