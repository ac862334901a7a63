#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Ethernet captures written by the real tools, not by our own writer:
# tcpdump (on "any" in its default link type, LINUX_SLL2, and in
# LINUX_SLL; on the interface, Ethernet; microsecond and nanosecond;
# a short snap length), dumpcap (pcapng, one interface or several, of one
# link type or two), a big-endian rewrite, a non-Ethernet capture and a
# file that is no capture.  The segment is two network namespaces joined
# by veth pairs: NS-a is the tenant node being audited (the captures run
# there), NS-b the rest of the segment.  The real kernel sends what it can
# (ARP, duplicate address detection, UDP to the RoCEv2 port), lldpd is a
# neighbour's real LLDP agent, and tests/eth/sendraw sends what only a
# switch or a rogue party sends.  Every expected verdict below was
# decided from the standards, the kernel's and libpcap's behaviour and
# the check definitions (fabaudit checks --format man), and is written
# next to the case with the reason.  Namespaces, daemons and files are
# removed on exit, whatever happens.
# usage: tests/eth/test_realtools.sh BUILD_DIR  (FA_KEEP=1 keeps the
# captures and reports, and says where)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$(cd "${1:?usage: tests/eth/test_realtools.sh BUILD_DIR}" && pwd)
BIN=$B/fabaudit
SEND=$B/tests/sendraw
T=$(mktemp -d)
NS=fa-rt-$$
CAPS=
DAEMONS=

# alive PID: the process exists and is not a zombie.
alive() {
	[ -r "/proc/$1/status" ] && ! grep -qs '^State:.*Z' "/proc/$1/status"
}

cleanup() {
	for p in $CAPS $DAEMONS; do kill -TERM "$p" 2>/dev/null; done
	for p in $CAPS $DAEMONS; do wait "$p" 2>/dev/null; done
	ip netns del "$NS-a" 2>/dev/null
	ip netns del "$NS-b" 2>/dev/null
	rm -rf "$T.lldpd"
	if [ -n "${FA_KEEP:-}" ]; then echo "kept: $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for t in tcpdump jq bash; do
	if ! command -v "$t" >/dev/null 2>&1; then
		fa_fail "$t is needed by every case and is not installed"
		exit 1
	fi
done
HAVE_DUMPCAP=$(command -v dumpcap >/dev/null 2>&1 && echo 1)
HAVE_LLDPD=$(command -v lldpd >/dev/null 2>&1 && echo 1)
HAVE_PY=$(command -v python3 >/dev/null 2>&1 && echo 1)

cat >"$T/policy.conf" <<'POL'
tenant_vlan   120
tenant_subnet 10.20.0.0/16
tenant_subnet fd20::/64
dhcp_server   10.20.0.1
POL

ALL="ETH-FOREIGN-VLAN ETH-TRUNK-PORT ETH-DTP-EXPOSED ETH-STP-EXPOSED
ETH-CDP-EXPOSED ETH-LLDP-LEAK ETH-ROGUE-DHCP ETH-FOREIGN-L2 ETH-ROCE-VISIBLE
ETH-MGMT-REACHABLE ETH-XTENANT-REACHABLE ETH-MGMT-TLS-WEAK ETH-VLAN-HOP"

# --- the segment --------------------------------------------------------------
# NS-a: va (10.20.0.2, the tenant node's port); NS-b: vb (10.20.0.3,
# another node of the tenant, and the switch).  No IPv6 unless a case
# turns it on: its chatter would be in every capture.
setup() {
	ip netns add "$NS-a" && ip netns add "$NS-b" || return 1
	for n in a b; do
		ip netns exec "$NS-$n" sysctl -qw \
		    net.ipv6.conf.all.disable_ipv6=1 \
		    net.ipv6.conf.default.disable_ipv6=1 || return 1
		ip -n "$NS-$n" link set lo up || return 1
	done
	ip link add va netns "$NS-a" type veth peer name vb netns "$NS-b" &&
	    ip -n "$NS-a" link set va up && ip -n "$NS-b" link set vb up &&
	    ip -n "$NS-a" addr add 10.20.0.2/16 dev va &&
	    ip -n "$NS-b" addr add 10.20.0.3/16 dev vb || return 1
	# The node does not act on router advertisements (no address of a
	# foreign prefix of its own, whose DAD would be in the capture).
	ip netns exec "$NS-a" sysctl -qw net.ipv6.conf.va.accept_ra=0
}
if ! setup; then
	fa_fail "cannot create the namespaces and veth pair (root needed)"
	exit 1
fi
VA_MAC=$(ip netns exec "$NS-a" cat /sys/class/net/va/address)
VA_IDX=$(ip netns exec "$NS-a" cat /sys/class/net/va/ifindex)

# cap NAME CMD...: start the capture CMD in NS-a (its output in
# $T/NAME.log); returns once it listens, 1 if it did not within 5 s.
cap() {
	_n=$1
	shift
	ip netns exec "$NS-a" "$@" >"$T/$_n.log" 2>&1 &
	CAPS="$CAPS $!"
	_i=0
	while [ "$_i" -lt 50 ]; do
		if grep -Eqs 'listening on|Capturing on' "$T/$_n.log"; then
			return 0
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	fa_fail "$_n: the capture did not start: $(cat "$T/$_n.log")"
	return 1
}

# stop: end every capture as an operator does, with SIGINT, and wait for
# each so that its file is complete.  The kernel hands frames to libpcap
# in blocks retired after at most a second: wait that long first.
stop() {
	sleep 1.5
	for _p in $CAPS; do kill -INT "$_p" 2>/dev/null; done
	for _p in $CAPS; do
		_i=0
		while alive "$_p" && [ "$_i" -lt 50 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		alive "$_p" && kill -TERM "$_p"
		wait "$_p" 2>/dev/null
	done
	CAPS=
}

# sb FRAME...: tests/eth/sendraw from NS-b's vb (or SB_IF).
sb() {
	ip netns exec "$NS-b" "$SEND" "${SB_IF:-vb}" "$@" \
	    >>"$T/send.log" 2>&1 ||
	    fa_fail "sendraw $*: $(tail -1 "$T/send.log")"
}

# udp_b ADDR PORT PRINTF-FORMAT: one UDP datagram sent by NS-b's kernel
# (bash's /dev/udp): the kernel resolves ADDR by ARP first if it has to.
udp_b() {
	ip netns exec "$NS-b" bash -c "printf '$3' >/dev/udp/$1/$2" ||
	    fa_fail "UDP datagram to $1 port $2 from NS-b not sent"
}
# A RoCEv2 payload (IBTA Annex A17: UDP destination port 4791): the
# 12-byte base transport header of an RC SEND Only (opcode 0x04), P_Key
# 0xffff, destination QP 0x11, PSN 42, then 32 bytes of data and 4 of
# ICRC.
BTH='\x04\x00\xff\xff\x00\x00\x00\x11\x00\x00\x00\x2a%036d'

# scan NAME FILE: fabaudit on a capture file; the exit status in
# $T/NAME.rc, the report in $T/NAME/.
scan() {
	"$BIN" scan --eth --pcap "$2" -c "$T/policy.conf" -o "$T/$1" \
	    -f json >"$T/$1.out" 2>"$T/$1.err"
	echo "$?" >"$T/$1.rc"
}

# got NAME [TARGET-REGEX]: "status id" of the eth results of the sources
# whose target matches, in the order of $ALL.
got() {
	for id in $ALL; do
		jq -r --arg id "$id" --arg re "${2:-}" '.results[] |
		    select(.family == "eth" and .id == $id and
		    (.target // "" | test($re))) | "\(.status) \(.id)"' \
		    "$T/$1/report.json" 2>/dev/null
	done
}

# expect NAME REGEX STATUS...: one status per check of $ALL, in that
# order, for the one source whose target matches REGEX; "!pass" is any
# status but pass.  A not_applicable check has one result for the whole
# file, whatever its sources: REGEX does not apply to it.  On a
# difference every differing result is printed with its target and
# reason.
expect() {
	_n=$1 _re=$2
	shift 2
	if [ ! -r "$T/$_n/report.json" ]; then
		fa_fail "$_n: no report.json (exit $(cat "$T/$_n.rc"):" \
		    "$(head -3 "$T/$_n.err"))"
		return
	fi
	_bad=
	for id in $ALL; do
		_w=$1
		shift
		_r=$_re
		[ "$_w" = not_applicable ] && _r=
		_g=$(jq -r --arg id "$id" --arg re "$_r" '[.results[] |
		    select(.family == "eth" and .id == $id and
		    (.target // "" | test($re))) | .status] | join(",")' \
		    "$T/$_n/report.json")
		if [ "$_w" = '!pass' ]; then
			case $_g in ''|pass|*,*) ;; *) continue ;; esac
		elif [ "$_g" = "$_w" ]; then
			continue
		fi
		_bad="$_bad$id: want $_w, got ${_g:-no result}
$(jq -r --arg id "$id" --arg re "$_r" '.results[] | select(.family ==
		    "eth" and .id == $id and (.target // "" | test($re))) |
		    "    [\(.target)] \(.reason)"' "$T/$_n/report.json")
"
	done
	if [ -z "$_bad" ]; then
		fa_pass "$_n: every eth verdict as expected"
	else
		fa_fail "$_n: eth verdicts differ"
		printf '%s' "$_bad"
	fi
}

# text NAME ID: the whole result (reason, evidence) of check ID, as text.
text() {
	jq -c --arg id "$2" '.results[] | select(.id == $id)' \
	    "$T/$1/report.json" 2>/dev/null
}

# has NAME FILE ERE [TCPDUMP-OPTION...]: what tcpdump prints of the
# capture FILE matches ERE (the capture holds what the case sent).
has() {
	_n=$1 _f=$2 _re=$3
	shift 3
	if tcpdump -nr "$_f" "$@" 2>/dev/null | grep -Eq -- "$_re"; then
		fa_pass "$_n"
	else
		fa_fail "$_n ('$_re' not in tcpdump -r $* of $(basename "$_f"))"
	fi
}

# expect_rc NAME WANT
expect_rc() {
	expect_eq "$1: exit status $2" "$(cat "$T/$1.rc")" "$2"
}

TCPDUMP="tcpdump -Z root --immediate-mode"
NA4="not_applicable not_applicable not_applicable not_applicable"

# --- 1 and 5: the same traffic, captured seven ways ---------------------------
# Heard on the tenant port (va), in order: three frames of another
# tenant's VLAN 300 (802.1Q-tagged UDP); the switch's DTP (access,
# desirable), CDP, a PVST+ BPDU of VLAN 300 (tagged, 802.2 LLC/SNAP) and
# LLDP with management address 192.168.100.1; a DHCP offer from the
# listed server 10.20.0.1 (server identifier 10.20.0.1); then RoCEv2 from
# the tenant's other node 10.20.0.3 to the node, which NS-b's kernel
# resolves with a real ARP request first; the node answers the ARP and
# sends ICMP port unreachable (the node's own frames).
#
# Expected on every capture that keeps the tags (Ethernet, LINUX_SLL):
#  ETH-FOREIGN-VLAN  fail: VLAN 300 is not a tenant_vlan (802.1Q-2018 9.6)
#  ETH-TRUNK-PORT    pass: one VLAN only; DTP's status is access (its
#                    operating status bit is not trunk); PVST+ of one
#                    VLAN; LLDP names no VLAN
#  ETH-DTP-EXPOSED   fail: a DTP frame arrived
#  ETH-STP-EXPOSED   fail: a PVST+ BPDU arrived (802.1D-2004 9.3.1 body)
#  ETH-CDP-EXPOSED   fail: a CDP frame arrived
#  ETH-LLDP-LEAK     fail: a management address (802.1AB-2016 8.5.9)
#                    outside tenant_subnet, from a bridge
#  ETH-ROGUE-DHCP    pass: the one server is the listed 10.20.0.1 (by its
#                    server identifier, RFC 2132 9.7)
#  ETH-FOREIGN-L2    pass: ARP senders 10.20.0.3 and 10.20.0.2, DHCP
#                    sender 10.20.0.1: all inside tenant_subnet
#  ETH-ROCE-VISIBLE  pass: 10.20.0.3 to 10.20.0.2, both ends the tenant's
#  the last four     not_applicable: the policy names no target and no
#                    foreign_vlan
# LINUX_SLL2 as libpcap 1.10 writes it has no VLAN tag at all: libpcap
# puts the tag the kernel took off back into EN10MB and LINUX_SLL frames
# only (pcap-linux.c, set_vlan_offset), so the VLAN-300 frames are in the
# file untagged.  Nothing in such a file can show a foreign VLAN or a
# second one: ETH-FOREIGN-VLAN and ETH-TRUNK-PORT must not pass there
# (a pass would be an assurance the file cannot give); the other checks
# as above.  If the file does carry the tags (a later libpcap), as above.
E1="fail pass fail fail fail fail pass pass pass $NA4"
E1_NOTAGS="!pass !pass fail fail fail fail pass pass pass $NA4"
ip -n "$NS-b" neigh flush dev vb 2>/dev/null
ok=1
cap any $TCPDUMP -i any -w "$T/any.pcap" || ok=
cap sll $TCPDUMP -i any -y LINUX_SLL -w "$T/sll.pcap" || ok=
cap eth $TCPDUMP -i va -w "$T/eth.pcap" || ok=
cap nano $TCPDUMP -i va --time-stamp-precision nano -w "$T/nano.pcap" || ok=
[ -n "$HAVE_DUMPCAP" ] && { cap ng dumpcap -q -n -i va -w "$T/ng.pcapng" ||
    ok=; }
sleep 0.3
sb tagged:300 tagged:300 tagged:300 dtp cdp pvst:300 lldp:192.168.100.1 \
    dhcp-offer:10.20.0.1:10.20.0.1
udp_b 10.20.0.2 4791 "$BTH"
stop
[ -n "$ok" ] || fa_fail "case 1: a capture did not start"

# The captures hold what was sent (so that the verdicts test fabaudit).
# linktype FILE: the link type tcpdump reads in a capture file's header.
linktype() {
	tcpdump -r "$1" -c1 2>&1 >/dev/null |
	    sed -n 's/.*link-type \([A-Z0-9_]*\).*/\1/p'
}
expect_eq "tcpdump -i va writes Ethernet" "$(linktype "$T/eth.pcap")" EN10MB
expect_eq "tcpdump -i any -y LINUX_SLL writes LINUX_SLL" \
    "$(linktype "$T/sll.pcap")" LINUX_SLL
ANY_LT=$(linktype "$T/any.pcap")
echo "tcpdump -i any, default link type: $ANY_LT"
expect_eq "the Ethernet capture has the 3 VLAN-300 frames and the PVST+ BPDU" \
    "$(tcpdump -enr "$T/eth.pcap" 2>/dev/null | grep -c 'vlan 300')" 4
has "the Ethernet capture has NS-b's real ARP request" "$T/eth.pcap" \
    'ARP, Request who-has 10\.20\.0\.2 tell 10\.20\.0\.3' 

scan eth "$T/eth.pcap"
expect eth '' $E1
expect_rc eth 1
expect_grep "eth: DTP desirable is named as negotiable" \
    'DTP in desirable mode: it would negotiate a trunk' "$T/eth/report.json"

scan sll "$T/sll.pcap"
expect sll '' $E1
expect_rc sll 1
# The node's own ARP reply and ICMP are "outgoing" in LINUX_SLL:
# counted as skipped, not judged (fabaudit(8), --pcap).
expect_eq "sll: the node's own frames are counted as skipped" \
    "$(jq '[.observations[] | select(.kind == "eth.capture") |
    .data.skipped // {} | .[]] | add // 0 | . > 0' \
    "$T/sll/snapshot.json" 2>/dev/null)" true

scan any "$T/any.pcap"
case $ANY_LT in
LINUX_SLL2)
	if tcpdump -enr "$T/any.pcap" 2>/dev/null | grep -q 'vlan 300'; then
		expect any "ifindex $VA_IDX\\)" $E1
	else
		echo "any.pcap (LINUX_SLL2) carries no VLAN tag, as expected" \
		    "of libpcap"
		expect any "ifindex $VA_IDX\\)" $E1_NOTAGS
	fi
	# One source per interface index: the veth's is named by it.
	expect_eq "any (LINUX_SLL2): the veth is a source, named by ifindex" \
	    "$(jq -r --arg re "ifindex $VA_IDX\\)" '[.results[] |
	    select(.id == "ETH-DTP-EXPOSED" and (.target | test($re)))] |
	    length' "$T/any/report.json" 2>/dev/null)" 1
	;;
*)	expect any '' $E1 ;;
esac

scan nano "$T/nano.pcap"
expect nano '' $E1
expect_eq "tcpdump --time-stamp-precision nano writes a nanosecond pcap" \
    "$(od -An -tx1 -N4 "$T/nano.pcap" | tr -d ' ')" 4d3cb2a1

# Big-endian: the same files with the file header and every record
# header rewritten in big-endian order (as a big-endian host's libpcap
# writes them); the frames are untouched.
if [ -n "$HAVE_PY" ]; then
	for f in eth nano; do
		python3 - "$T/$f.pcap" "$T/be-$f.pcap" <<'PY' ||
import struct
import sys
d = open(sys.argv[1], "rb").read()
(magic,) = struct.unpack("<I", d[:4])
assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
out = [struct.pack(">IHHiIII", magic, *struct.unpack("<HHiIII", d[4:24]))]
off = 24
while off + 16 <= len(d):
    ts, frac, incl, orig = struct.unpack("<IIII", d[off:off + 16])
    out.append(struct.pack(">IIII", ts, frac, incl, orig))
    out.append(d[off + 16:off + 16 + incl])
    off += 16 + incl
open(sys.argv[2], "wb").write(b"".join(out))
PY
		    fa_fail "be-$f: the big-endian rewrite failed"
	done
	expect_eq "the big-endian rewrite reads as the original (tcpdump)" \
	    "$(tcpdump -nr "$T/be-eth.pcap" 2>/dev/null | wc -l)" \
	    "$(tcpdump -nr "$T/eth.pcap" 2>/dev/null | wc -l)"
	expect_eq "be-eth.pcap starts with the big-endian magic" \
	    "$(od -An -tx1 -N4 "$T/be-eth.pcap" | tr -d ' ')" a1b2c3d4
	scan be-eth "$T/be-eth.pcap"
	expect be-eth '' $E1
	scan be-nano "$T/be-nano.pcap"
	expect be-nano '' $E1
else
	fa_skip "big-endian pcap: python3 is not installed to rewrite one"
fi

if [ -n "$HAVE_DUMPCAP" ]; then
	# One pcapng source per interface: "FILE (interface 0: va)".
	scan ng "$T/ng.pcapng"
	expect ng '(^|[^a-z0-9])va([^a-z0-9]|$)' $E1
	expect_rc ng 1
else
	fa_skip "pcapng from dumpcap: dumpcap is not installed"
fi
# tcpdump 4.99 writes pcap only: dumpcap's pcapng stands for pcapng.

# --- 2: dumpcap, several interfaces ------------------------------------------
# (a) va and a tun device (link type RAW): pcapng can hold interfaces of
# different link types (draft-ietf-opsawg-pcapng, Interface Description
# Block).  The file is not damaged: fabaudit must judge va and name tun0
# as not supported (fabaudit(8), --pcap), or refuse the file clearly with
# a non-zero status; never report damage with exit 0.  va hears VLAN 300:
# ETH-FOREIGN-VLAN fails there.
# Also: dumpcap on tun0 alone (no interface fabaudit reads) and tcpdump on
# tun0 (a pcap of link type RAW): an error, exit 2, naming the link type.
if [ -n "$HAVE_DUMPCAP" ] && [ -n "$HAVE_PY" ] &&
    ip -n "$NS-a" tuntap add dev tun0 mode tun 2>/dev/null &&
    ip -n "$NS-a" link set tun0 up; then
	# IPv4 echo requests written into tun0: inbound frames on it.
	cat >"$T/tunfeed.py" <<'PY'
import fcntl, os, struct, sys, time
fd = os.open("/dev/net/tun", os.O_RDWR)
# TUNSETIFF, IFF_TUN | IFF_NO_PI
fcntl.ioctl(fd, 0x400454CA, struct.pack("16sH", sys.argv[1].encode(), 0x1001))
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s & 0xFFFF) + (s >> 16)
    return ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF
end = time.time() + float(sys.argv[2])
seq = 0
while time.time() < end:
    icmp = struct.pack("!BBHHH", 8, 0, 0, 1, seq) + b"fabaudit"
    icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), seq, 0, 64,
                     1, 0, bytes([10, 99, 0, 2]), bytes([10, 99, 0, 1]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    os.write(fd, ip + icmp)
    seq += 1
    time.sleep(0.2)
PY
	ip netns exec "$NS-a" python3 "$T/tunfeed.py" tun0 6 \
	    >"$T/tunfeed.log" 2>&1 &
	DAEMONS="$DAEMONS $!"
	sleep 0.3
	cap mixed dumpcap -q -n -i va -i tun0 -w "$T/mixed.pcapng"
	cap tunng dumpcap -q -n -i tun0 -w "$T/tunonly.pcapng"
	cap raw $TCPDUMP -i tun0 -w "$T/raw.pcap"
	sleep 0.3
	sb tagged:300 tagged:300
	stop
	expect_eq "tcpdump -i tun0 writes link type RAW" \
	    "$(linktype "$T/raw.pcap")" RAW
	expect_eq "the RAW capture holds the tun's frames" \
	    "$(tcpdump -nr "$T/raw.pcap" 2>/dev/null | grep -c 'ICMP echo')" \
	    "$(tcpdump -nr "$T/raw.pcap" 2>/dev/null | wc -l)"

	scan mixed "$T/mixed.pcapng"
	rc=$(cat "$T/mixed.rc")
	if [ "$rc" = 2 ]; then
		expect_grep "mixed (va + tun0): refused, naming the link type" \
		    'RAW|101|link type' "$T/mixed.err"
	else
		# va heard frames, none of DTP, STP, CDP, LLDP or RoCEv2:
		# those pass; no DHCP server answered: ETH-ROGUE-DHCP is not
		# tested; no sender told an address (none at all), and
		# silence proves nothing: ETH-FOREIGN-L2 is not tested.
		expect mixed '(^|[^a-z0-9])va([^a-z0-9]|$)' \
		    fail pass pass pass pass pass not_tested not_tested pass \
		    $NA4
		expect_eq "mixed (va + tun0): exit 1 (va fails)" "$rc" 1
		expect_eq "mixed (va + tun0): tun0 is named as not supported" \
		    "$(jq -s '[.[] | (.results // [])[], (.observations //
		    [])[] | tostring | select(test("tun0")) |
		    select(test("not supported|unsupported"; "i"))] |
		    length > 0' "$T/mixed/report.json" \
		    "$T/mixed/snapshot.json")" true
		expect_eq "mixed (va + tun0): no reason calls it damaged" \
		    "$(jq -r '.results[] | select(.family == "eth") |
		    .reason' "$T/mixed/report.json" |
		    grep -Eic 'damag|cut short|corrupt|truncat|premature')" 0
	fi

	scan tunng "$T/tunonly.pcapng"
	expect_eq "dumpcap -i tun0 alone (pcapng, RAW only): exit 2" \
	    "$(cat "$T/tunng.rc")" 2
	expect_grep "and the message names the link type" \
	    'RAW|101|link type|not supported' "$T/tunng.err"

	# fabaudit(8): "link type RAW (101) is not supported: fabaudit reads
	# Ethernet, LINUX_SLL and LINUX_SLL2".
	scan raw "$T/raw.pcap"
	expect_rc raw 2
	expect_grep "raw (tcpdump -i tun0): the message names the link type" \
	    '^fabaudit: --pcap: .*raw\.pcap: link type RAW \(101\) is not '\
'supported' "$T/raw.err"
	expect_eq "raw: no report is written" \
	    "$(ls "$T/raw" 2>/dev/null | wc -l | tr -d ' ')" 0
else
	fa_skip "dumpcap of va + tun0, tcpdump on tun0: dumpcap, python3 or" \
	    "a tun device is missing"
fi
for p in $DAEMONS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
DAEMONS=
ip -n "$NS-a" link del tun0 2>/dev/null

# (b) Two ports of two segments: seg120 hears only the tenant's VLAN 120,
# seg300 only VLAN 300.  Each interface of a pcapng file is its own port
# (fabaudit(8), --pcap): one VLAN on each, so ETH-TRUNK-PORT passes on
# both (802.1Q: a trunk carries several VLANs on one port; these are two
# ports); ETH-FOREIGN-VLAN passes on seg120 and fails on seg300.
if [ -n "$HAVE_DUMPCAP" ] &&
    ip link add seg120 netns "$NS-a" type veth peer name sw120 \
    netns "$NS-b" &&
    ip link add seg300 netns "$NS-a" type veth peer name sw300 \
    netns "$NS-b"; then
	for i in seg120 seg300; do ip -n "$NS-a" link set "$i" up; done
	for i in sw120 sw300; do ip -n "$NS-b" link set "$i" up; done
	cap two dumpcap -q -n -i seg120 -i seg300 -w "$T/two.pcapng"
	cap two-sll $TCPDUMP -i any -y LINUX_SLL -w "$T/two-sll.pcap"
	sleep 0.3
	SB_IF=sw120 sb tagged:120 tagged:120
	SB_IF=sw300 sb tagged:300 tagged:300
	stop
	scan two "$T/two.pcapng"
	# Nothing but VLAN frames: every other wire check passes or is not
	# tested: DHCP (no server answered) and ETH-FOREIGN-L2 (no sender
	# told an address: silence proves nothing).
	expect two 'seg120' pass pass pass pass pass pass not_tested \
	    not_tested pass $NA4
	expect two 'seg300' fail pass pass pass pass pass not_tested \
	    not_tested pass $NA4
	expect_rc two 1
	# The same two ports captured with tcpdump -i any -y LINUX_SLL: the
	# file records no interface, so VLANs 120 and 300 may be one trunk
	# or two access ports: ETH-TRUNK-PORT cannot be decided (not
	# tested); the tags are kept, so ETH-FOREIGN-VLAN fails.
	scan two-sll "$T/two-sll.pcap"
	expect two-sll '' fail not_tested pass pass pass pass not_tested \
	    not_tested pass $NA4
else
	fa_skip "dumpcap of two segments: dumpcap or veth missing"
fi

# --- 3: a short snap length ---------------------------------------------------
# tcpdump -s 60 keeps 60 bytes of each frame: the 802.1Q tag (bytes
# 12-15) of the VLAN-300 frames, and of the rogue DHCP offer (from
# 10.20.0.250, server identifier 10.20.0.250, which the policy does not
# list) the Ethernet, IPv4 and UDP headers and the first 18 bytes of
# BOOTP: op 2 (a server's reply, RFC 2131 2), but not the options.
# ETH-FOREIGN-VLAN fails (the tags were captured); ETH-ROGUE-DHCP fails
# (judged by the source address, the server identifier being cut off);
# each says that it rests on frames the capture cut short.
cap s60 $TCPDUMP -s 60 -i va -w "$T/s60.pcap"
sleep 0.3
sb tagged:300 tagged:300 dhcp-offer:10.20.0.250:10.20.0.250
stop
expect_eq "s60: every frame was cut at 60 bytes" \
    "$(tcpdump -r "$T/s60.pcap" 2>&1 >/dev/null |
    grep -c 'snapshot length 60')" 1
scan s60 "$T/s60.pcap"
expect_rc s60 1
expect_eq "s60: ETH-FOREIGN-VLAN fails on the cut frames' tags" \
    "$(got s60 | grep ETH-FOREIGN-VLAN)" "fail ETH-FOREIGN-VLAN"
expect_eq "s60: ETH-ROGUE-DHCP fails on the cut offer" \
    "$(got s60 | grep ETH-ROGUE-DHCP)" "fail ETH-ROGUE-DHCP"
expect_eq "s60: ETH-ROGUE-DHCP names the rogue source" \
    "$(text s60 ETH-ROGUE-DHCP | grep -c '10\.20\.0\.250')" 1
for id in ETH-FOREIGN-VLAN ETH-ROGUE-DHCP; do
	expect_eq "s60: $id says the frame was cut short" \
	    "$(text s60 "$id" | grep -Eic 'cut short|truncat|snap')" 1
done

# --- 4: identity --------------------------------------------------------------
# (a) The node's own duplicate address detection: IPv6 turned on on va
# and fd20::2/64 added during the capture, so the kernel sends neighbour
# solicitations from :: for its link-local address and for fd20::2 (RFC
# 4862 5.4.2), and MLD reports; NS-b's real ARP for the node comes too.
# A DAD probe claims its target (fd20::2: inside fd20::/64; a link-local
# target tells nothing): ETH-FOREIGN-L2 passes.
ip -n "$NS-b" neigh flush dev vb 2>/dev/null
cap dad $TCPDUMP -i va -w "$T/dad.pcap"
sleep 0.3
ip netns exec "$NS-a" sysctl -qw net.ipv6.conf.va.disable_ipv6=0
ip -n "$NS-a" addr add fd20::2/64 dev va
udp_b 10.20.0.2 9 'x'
sleep 1.2
stop
ip netns exec "$NS-a" sysctl -qw net.ipv6.conf.va.disable_ipv6=1
has "dad: the capture has the kernel's DAD for fd20::2 from ::" "$T/dad.pcap" \
    ':: > ff02::1:ff00:2: .*neighbor solicitation, who has fd20::2,'
scan dad "$T/dad.pcap"
expect_eq "dad: ETH-FOREIGN-L2 passes (the node's own DAD claims fd20::2)" \
    "$(got dad | grep ETH-FOREIGN-L2)" "pass ETH-FOREIGN-L2"

# (a') Another host's duplicate address detection: IPv6 turned on on vb
# in NS-b and 2001:db8:bad::5/64 added, so NS-b's kernel probes for it
# from :: (RFC 4862 5.4.2): a node about to use an address outside
# tenant_subnet is on the segment.  A DAD probe is judged by its target:
# ETH-FOREIGN-L2 fails, naming 2001:db8:bad::5.
cap dad-b $TCPDUMP -i va -w "$T/dad-b.pcap"
sleep 0.3
ip netns exec "$NS-b" sysctl -qw net.ipv6.conf.vb.disable_ipv6=0 \
    net.ipv6.conf.vb.accept_ra=0
ip -n "$NS-b" addr add 2001:db8:bad::5/64 dev vb
sleep 1.2
stop
ip netns exec "$NS-b" sysctl -qw net.ipv6.conf.vb.disable_ipv6=1
has "dad-b: the capture has NS-b's DAD for 2001:db8:bad::5 from ::" \
    "$T/dad-b.pcap" ':: > ff02::1:ff00:5: .*who has 2001:db8:bad::5,'
scan dad-b "$T/dad-b.pcap"
expect_eq "dad-b (another host's DAD): ETH-FOREIGN-L2 fails" \
    "$(got dad-b | grep ETH-FOREIGN-L2)" "fail ETH-FOREIGN-L2"
expect_eq "dad-b: the reason names the claimed address" \
    "$(text dad-b ETH-FOREIGN-L2 | jq -r .reason | grep -c '2001:db8:bad::5')" 1

# (b) A router advertisement (RFC 4861 4.2) from a link-local address
# with a prefix information option (4.6.2) for 2001:db8:bad::/64: a
# router of another network on the tenant's segment, offering addresses
# outside tenant_subnet.  ETH-FOREIGN-L2 fails, naming the prefix.
cap ra $TCPDUMP -i va -w "$T/ra.pcap"
sleep 0.3
sb ra:2001:db8:bad::
stop
scan ra "$T/ra.pcap"
expect_eq "ra (prefix 2001:db8:bad::/64): ETH-FOREIGN-L2 fails" \
    "$(got ra | grep ETH-FOREIGN-L2)" "fail ETH-FOREIGN-L2"
expect_eq "ra: the reason names the foreign prefix" \
    "$(text ra ETH-FOREIGN-L2 | grep -c '2001:db8:bad::')" 1

# (b') The tenant's own router, advertising fd20::/64: its link-local
# source tells nothing and its prefix is the tenant's: ETH-FOREIGN-L2
# passes.
cap ra-own $TCPDUMP -i va -w "$T/ra-own.pcap"
sleep 0.3
sb ra:fd20::
stop
scan ra-own "$T/ra-own.pcap"
expect_eq "ra-own (prefix fd20::/64): ETH-FOREIGN-L2 passes" \
    "$(got ra-own | grep ETH-FOREIGN-L2)" "pass ETH-FOREIGN-L2"

# (c) RoCEv2 sent by NS-b's kernel from 192.168.77.5, another tenant's
# address, to the node's 10.20.0.2 (a permanent neighbour entry: no ARP,
# only the datagrams).  UDP port 4791 is RoCEv2 (IBTA Annex A17); one end
# outside tenant_subnet is another tenant's RDMA reaching the node:
# ETH-ROCE-VISIBLE fails, naming 192.168.77.5.
ip -n "$NS-b" addr add 192.168.77.5/24 dev vb
ip -n "$NS-b" route add 10.20.0.2/32 dev vb src 192.168.77.5
ip -n "$NS-b" neigh replace 10.20.0.2 lladdr "$VA_MAC" dev vb nud permanent
cap roce $TCPDUMP -i va -w "$T/roce.pcap"
sleep 0.3
udp_b 10.20.0.2 4791 "$BTH"
udp_b 10.20.0.2 4791 "$BTH"
stop
ip -n "$NS-b" neigh del 10.20.0.2 dev vb 2>/dev/null
ip -n "$NS-b" route del 10.20.0.2/32 dev vb 2>/dev/null
ip -n "$NS-b" addr del 192.168.77.5/24 dev vb 2>/dev/null
expect_eq "roce: the capture has the two datagrams from 192.168.77.5" \
    "$(tcpdump -nr "$T/roce.pcap" 2>/dev/null |
    grep -c '192\.168\.77\.5\.[0-9]* > 10\.20\.0\.2\.4791: UDP')" 2
scan roce "$T/roce.pcap"
expect_eq "roce (192.168.77.5 to 10.20.0.2): ETH-ROCE-VISIBLE fails" \
    "$(got roce | grep ETH-ROCE-VISIBLE)" "fail ETH-ROCE-VISIBLE"
expect_eq "roce: the reason names the foreign source" \
    "$(text roce ETH-ROCE-VISIBLE | jq -r .reason |
    grep -c '192\.168\.77\.5')" 1

# (d) lldpd in NS-b, as another node of the tenant, its management
# address 10.20.0.3 (-m): a station (its enabled capabilities are those of
# a host, 802.1AB-2016 8.5.8), its management address inside
# tenant_subnet.  LLDP of the tenant's own nodes is no switch leak (the
# check's definition): ETH-LLDP-LEAK passes on its LLDP alone, although it
# carries a system description and a management address.
if [ -n "$HAVE_LLDPD" ]; then
	# lldpd's own lldpcli (run as _lldpd) must reach the control
	# socket: a directory of its own, readable by all.
	LD=$T.lldpd
	mkdir -m 755 "$LD"
	: >"$LD/lldpd.conf"
	cap lldpd $TCPDUMP -i va -w "$T/lldpd.pcap"
	sleep 0.3
	ip netns exec "$NS-b" lldpd -d -u "$LD/lldpd.socket" \
	    -O "$LD/lldpd.conf" -I vb -m 10.20.0.3 >"$T/lldpd-daemon.log" 2>&1 &
	LLDPD=$!
	DAEMONS="$DAEMONS $LLDPD"
	sleep 2
	kill -TERM "$LLDPD" 2>/dev/null
	wait "$LLDPD" 2>/dev/null
	DAEMONS=
	stop
	has "lldpd: the capture has its LLDP, management address 10.20.0.3" \
	    "$T/lldpd.pcap" \
	    'Management Address length 5, AFI IPv4 \(1\): 10\.20\.0\.3' -v
	scan lldpd "$T/lldpd.pcap"
	expect_eq "lldpd (a tenant node, 10.20.0.3): ETH-LLDP-LEAK passes" \
	    "$(got lldpd | grep ETH-LLDP-LEAK)" "pass ETH-LLDP-LEAK"
else
	fa_skip "lldpd as a tenant node: lldpd is not installed"
fi

# (e) The switch's LLDP alone, management address 192.168.100.1 (outside
# tenant_subnet, from a bridge): ETH-LLDP-LEAK fails, naming the address.
cap lldpsw $TCPDUMP -i va -w "$T/lldpsw.pcap"
sleep 0.3
sb lldp:192.168.100.1
stop
scan lldpsw "$T/lldpsw.pcap"
expect_eq "switch LLDP (192.168.100.1): ETH-LLDP-LEAK fails" \
    "$(got lldpsw | grep ETH-LLDP-LEAK)" "fail ETH-LLDP-LEAK"
expect_eq "switch LLDP: the reason names the address" \
    "$(text lldpsw ETH-LLDP-LEAK | grep -c '192\.168\.100\.1')" 1

# --- 5: files fabaudit cannot read --------------------------------------------
# A file that is no capture (the policy): exit 2, one message naming the
# file, no report (fabaudit(8), --pcap).
cp "$T/policy.conf" "$T/notcap.txt"
scan notcap "$T/notcap.txt"
expect_rc notcap 2
expect_grep "notcap: the message names the file" \
    '^fabaudit: --pcap: .*notcap\.txt: ' "$T/notcap.err"
expect_eq "notcap: no report is written" \
    "$(ls "$T/notcap" 2>/dev/null | wc -l | tr -d ' ')" 0

fa_done
