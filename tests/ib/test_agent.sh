#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The spec-conforming test agent (tests/agent/README) on the real simulator
# stack: ibsim + opensm + libumad2sim.so, with the agent preloaded in front
# of umad2sim, driven by the infiniband-diags tools (and, for AM and BM,
# which no tool speaks, a 60-line libibumad probe built here).  Proves each
# behaviour in its protected and unprotected form through the real MAD path,
# that discovery still works (minus the level-2 node), that the state
# (violations, lease) persists across processes, that a broken scenario
# file stops the process with exit 97, and that without a scenario the
# agent is a pure pass-through.
# usage: tests/ib/test_agent.sh FABAUDIT_BUILD_DIR
# shellcheck disable=SC2016  # the scripts run under with-fabric.sh expand
#                             $O, $P and $K_* themselves (exported)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_agent.sh FABAUDIT_BUILD_DIR}
if [ ! -r "$B/tests/agent.so" ]; then
	fa_fail "agent built ($B/tests/agent.so missing: make $B/tests/agent.so)"
	exit 1
fi
AGENT=$(cd "$B" && pwd)/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Keys of fixtures/ib/protected/agent.conf.
K_SM=0x9d3b6e21c7f0a458	# ufm-sm01 (LID 1): protect 2, lease 60
K_SW=0x4e7a1c93b25d08f6	# switches (LIDs 2, 3): protect 1
K_G2=0x71c2d5e8a9b04f13	# acme-gpu-02 (LID 5): protect 0
K_CC=0x2b7e151628aed2a6	# CC on the switches: protect 1, lease 60
K_VS1=0x6a09e667f3bcc908	# VS on ib-leaf01 (LID 3): protect 1
K_BM=0x3c6ef372fe94f82b	# BM on ib-leaf02 (LID 2): protect 0
export K_SM K_SW K_G2 K_CC K_VS1 K_BM

# --- a probe for the classes no infiniband-diags tool speaks (AM, BM) ---
cat >"$T/madprobe.c" <<'EOF'
/* madprobe CLASS ATTR DLID [KEY [METHOD]]: send one MAD through libibumad
 * (hence through any interposer) with KEY in MAD bytes 24-31; print
 * "timeout" (exit 2), or "status=0x...." (exit 0 if 0, else 1) and the
 * data at byte 64 decoded as CongestionKeyInfo/BKeyInfo. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/umad.h>

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;
	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

int main(int argc, char **argv)
{
	uint8_t buf[4096], *m;
	unsigned cls, attr, dlid, method = 1, i;
	uint64_t key = 0;
	uint32_t tid;
	int fd, agent, len;
	time_t end;

	if (argc < 4) {
		fprintf(stderr, "usage: madprobe CLASS ATTR DLID [KEY [METHOD]]\n");
		return 3;
	}
	cls = strtoul(argv[1], NULL, 0);
	attr = strtoul(argv[2], NULL, 0);
	dlid = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		key = strtoull(argv[4], NULL, 0);
	if (argc > 5)
		method = strtoul(argv[5], NULL, 0);
	if (umad_init() < 0 || (fd = umad_open_port(NULL, 0)) < 0 ||
	    (agent = umad_register(fd, (int)cls, cls == 0x21 ? 2 : 1, 0,
	    NULL)) < 0) {
		fprintf(stderr, "madprobe: cannot open a port / agent\n");
		return 3;
	}
	memset(buf, 0, sizeof(buf));
	m = umad_get_mad(buf);
	m[0] = 1;
	m[1] = (uint8_t)cls;
	m[2] = cls == 0x21 ? 2 : 1;	/* CC is class version 2 */
	m[3] = (uint8_t)method;
	tid = (uint32_t)getpid() << 8 | 0x5a;
	for (i = 0; i < 4; i++)
		m[12 + i] = (uint8_t)(tid >> (24 - 8 * i));
	m[16] = (uint8_t)(attr >> 8);
	m[17] = (uint8_t)attr;
	for (i = 0; i < 8; i++)
		m[24 + i] = (uint8_t)(key >> (56 - 8 * i));
	umad_set_addr(buf, (int)dlid, 1, 0, 0x80010000);
	if (umad_send(fd, agent, buf, 256, 500, 0) < 0) {
		fprintf(stderr, "madprobe: send failed\n");
		return 3;
	}
	for (end = time(NULL) + 3; time(NULL) <= end; ) {
		len = (int)(sizeof(buf) - umad_size());
		if (umad_recv(fd, buf, &len, 1000) < 0 || len < 80 ||
		    (uint32_t)be(m + 12, 4) != tid)
			continue;
		if (umad_status(buf) != 0)
			break;
		printf("status=0x%04x method=0x%02x\n", (unsigned)be(m + 4, 2),
		    m[3]);
		printf("keyinfo key=0x%016llx protect=%u lease=%u "
		    "violations=%u\n", (unsigned long long)be(m + 64, 8),
		    m[72] >> 7, (unsigned)be(m + 74, 2),
		    (unsigned)be(m + 76, 2));
		return be(m + 4, 2) == 0 ? 0 : 1;
	}
	printf("timeout\n");
	return 2;
}
EOF
# shellcheck disable=SC2046  # pkg-config prints several words
if ! ${CC:-cc} -std=c11 -O2 -o "$T/madprobe" "$T/madprobe.c" \
    $(pkg-config --cflags --libs libibumad) 2>"$T/probe.err"; then
	fa_fail "probe builds ($(head -3 "$T/probe.err"))"
fi

# field NAME FILE: the value of an infiniband-diags "Name:.....value" line.
field() {
	sed -n "s/^$1:\.*//p" "$2" | head -1
}

# fabric DIR CONF LOG SCRIPT: run SCRIPT (sh, $P = probe, $O = output dir)
# with the agent on scenario CONF; 0 if the fabric came up.
fabric() {
	_dir=$1 _conf=$2 _log=$3 _script=$4
	mkdir -p "$T/out"
	FA_AGENT_SCENARIO=$_conf FA_AGENT_LOG=$_log LD_PRELOAD=$AGENT \
	P=$T/madprobe O=$T/out \
	    tests/ib/with-fabric.sh "$_dir" -- sh -c "$_script" \
	    >"$T/fabric.out" 2>&1
}

# ===== 1. fixtures/ib/protected ============================================
O=$T/out
fabric fixtures/ib/protected fixtures/ib/protected/agent.conf "$T/p.log" '
	ibnetdiscover >$O/nd.txt 2>$O/nd.err; echo $? >$O/nd.rc
	smpquery -K portinfo 5 >$O/pi5.txt 2>&1
	smpquery -K portinfo 2 >$O/pi2.txt 2>&1
	smpquery -K -y "$K_SW" portinfo 2 >$O/pi2k.txt 2>&1
	smpquery -K portinfo 1 >$O/pi1.txt 2>&1; echo $? >$O/pi1.rc
	smpquery -K -y "$K_SM" portinfo 1 >$O/pi1k.txt 2>&1; echo $? >$O/pi1k.rc
	sminfo 1 >$O/smi.txt 2>&1; echo $? >$O/smi.rc
	sminfo -y "$K_SM" 1 >$O/smik.txt 2>&1; echo $? >$O/smik.rc
	for p in 1 2 3 35; do smpquery portinfo 3 $p >$O/l1p$p.txt 2>&1; done
	for p in 1 2; do smpquery portinfo 2 $p >$O/l2p$p.txt 2>&1; done
	smpquery switchinfo 3 >$O/si3.txt 2>&1
	ibccquery CongestionKeyInfo 3 >$O/cc3.txt 2>&1; echo $? >$O/cc3.rc
	ibccquery -c "$K_CC" CongestionKeyInfo 3 >$O/cc3k.txt 2>&1; echo $? >$O/cc3k.rc
	ibccquery -e CongestionKeyInfo 5 >$O/cc5.txt 2>&1; echo $? >$O/cc5.rc
	vendstat -N 3 >$O/vs3.txt 2>&1; echo $? >$O/vs3.rc
	$P 0x0a 0x17 3 "$K_VS1" >$O/vs3k.txt 2>&1; echo $? >$O/vs3k.rc
	vendstat -N 2 >$O/vs2.txt 2>&1; echo $? >$O/vs2.rc
	vendstat -N 5 >$O/vs5.txt 2>&1; echo $? >$O/vs5.rc
	$P 0x0b 0x0001 2 >$O/am2.txt 2>&1; echo $? >$O/am2.rc
	$P 0x05 0x0010 2 >$O/bm2.txt 2>&1; echo $? >$O/bm2.rc
	$P 0x05 0x0010 2 0 2 >$O/bm2set.txt 2>&1; echo $? >$O/bm2set.rc
	$P 0x05 0x0010 2 "$K_BM" 2 >$O/bm2setk.txt 2>&1; echo $? >$O/bm2setk.rc
	$P 0x05 0x0010 2 "$K_BM" >$O/bm2k.txt 2>&1
	$P 0x05 0x0010 3 >$O/bm3.txt 2>&1; echo $? >$O/bm3.rc
	perfquery -x 3 1 >$O/pq3.txt 2>&1
	perfquery -x 5 1 >$O/pq5.txt 2>&1
	'
rc=$?
expect_eq "protected: fabric came up, tools ran" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$T/fabric.out"

# Discovery through the agent: the level-2 SM node stays silent, the rest
# is found (ibnetdiscover reports the one timeout and carries on).
expect_eq "discovery: ibnetdiscover exits 0" "$(cat "$O/nd.rc")" 0
for n in ib-leaf01 ib-leaf02 acme-gpu-01 acme-gpu-02 zeta-gpu-01 zeta-gpu-02; do
	expect_grep "discovery: $n found" "[\";]${n}[ :]" "$O/nd.txt"
done
expect_nogrep "discovery: ufm-sm01 (protect 2) not found" "ufm-sm01" "$O/nd.txt"
expect_grep "discovery: the SM node's NodeInfo timed out (status 110)" \
    'Attr 0x11:0\) bad status 110' "$O/nd.err"
expect_grep "discovery: agent dropped the SM node's NodeInfo (mkey rule)" \
    'attr=0x0011\(NodeInfo\).* node=0x0002c90300f1e000 .*rule=mkey\(protect=2.*action=drop' \
    "$T/p.log"

# M_Key level 0: the real key to anyone.
expect_eq "level 0: acme-gpu-02 M_Key readable with key 0" \
    "$(field Mkey "$O/pi5.txt")" "$K_G2"
expect_eq "level 0: ProtectBits 0" "$(field ProtectBits "$O/pi5.txt")" 0
# Level 1: Get answered, key zeroed unless the right key is offered.
expect_eq "level 1: switch M_Key zeroed for a wrong key" \
    "$(field Mkey "$O/pi2.txt")" 0x0000000000000000
expect_eq "level 1: ProtectBits 1" "$(field ProtectBits "$O/pi2.txt")" 1
expect_eq "level 1: lease period 60" "$(field MkeyLeasePeriod "$O/pi2.txt")" 60
expect_eq "level 1: right key reads the M_Key" \
    "$(field Mkey "$O/pi2k.txt")" "$K_SW"
# Level 2: no answer without the key; with it, the port shows the count.
expect_eq "level 2: wrong-key PortInfo Get times out (smpquery fails)" \
    "$(cat "$O/pi1.rc")" 255
expect_grep "level 2: ... as a timeout, not an error status" \
    '_do_madrpc failed' "$O/pi1.txt"
expect_eq "level 2: right-key Get answered" "$(cat "$O/pi1k.rc")" 0
expect_eq "level 2: right key reads the M_Key" \
    "$(field Mkey "$O/pi1k.txt")" "$K_SM"
expect_eq "level 2: ProtectBits 2" "$(field ProtectBits "$O/pi1k.txt")" 2
# ibnetdiscover's NodeInfo (1 send + 3 kernel retries) and smpquery's 3
# tries are 7 wrong-key Gets, each a violation; state spans processes.
expect_eq "level 2: violations counted across processes (4 + 3)" \
    "$(field MkeyViolations "$O/pi1k.txt")" 7
expect_eq "level 2: SMInfo unanswered without the key" "$(cat "$O/smi.rc")" 255
expect_eq "level 2: SMInfo answered with the key" "$(cat "$O/smik.rc")" 0
expect_grep "level 2: the answer is the master SM" 'SMINFO_MASTER' "$O/smik.txt"

# Partition enforcement: leaf01's ports facing end ports, not its ISLs,
# and nowhere on leaf02; SwitchInfo capability bits.
for p in 1 2 3; do
	expect_eq "enforcement: leaf01 port $p (end port) inbound" \
	    "$(field PartEnforceInb "$O/l1p$p.txt")" 1
	expect_eq "enforcement: leaf01 port $p (end port) outbound" \
	    "$(field PartEnforceOutb "$O/l1p$p.txt")" 1
done
expect_eq "enforcement: leaf01 port 35 (ISL) off" \
    "$(field PartEnforceInb "$O/l1p35.txt")$(field PartEnforceOutb "$O/l1p35.txt")" 00
for p in 1 2; do
	expect_eq "enforcement: leaf02 port $p off" \
	    "$(field PartEnforceInb "$O/l2p$p.txt")$(field PartEnforceOutb "$O/l2p$p.txt")" 00
done
expect_eq "enforcement: SwitchInfo InboundPartEnf cap" \
    "$(field InboundPartEnf "$O/si3.txt")" 1

# CC: protect bit 1 on the switches, unsupported on the CAs.
expect_eq "CC protect 1: wrong-key CongestionKeyInfo Get dropped" \
    "$(cat "$O/cc3.rc")" 255
expect_eq "CC protect 1: right key answered" "$(cat "$O/cc3k.rc")" 0
expect_eq "CC protect 1: answer carries the CC_Key" \
    "$(field CC_Key "$O/cc3k.txt")" "$K_CC"
expect_eq "CC protect 1: protect bit shown" \
    "$(field CC_KeyProtectBit "$O/cc3k.txt")" 1
expect_eq "CC protect 1: 3 violations counted" \
    "$(field CC_KeyViolations "$O/cc3k.txt")" 3
expect_grep "CC on a CA: status 0x000C (unsupported)" 'error status 0xc' \
    "$O/cc5.txt"
# VS: leaf01 protect 1, leaf02 protect 0, CAs absent.
expect_eq "VS protect 1: vendstat (key 0) fails" "$(cat "$O/vs3.rc")" 255
expect_eq "VS protect 1: right key answered" "$(cat "$O/vs3k.rc")" 0
expect_eq "VS protect 0: vendstat (key 0) answered" "$(cat "$O/vs2.rc")" 0
expect_grep "VS protect 0: GeneralInfo content" "fw_psid: +'FA_AGENT_SIM'" \
    "$O/vs2.txt"
expect_eq "VS absent on a CA: vendstat fails" "$(cat "$O/vs5.rc")" 255
# AM absent; BM keyed protect 0 on leaf02 only.
expect_eq "AM absent: ClassPortInfo times out" "$(cat "$O/am2.rc")" 2
expect_eq "BM protect 0: wrong-key BKeyInfo Get answered" \
    "$(cat "$O/bm2.rc")" 0
expect_grep "BM protect 0: answer returns the B_Key" "key=$K_BM protect=0" \
    "$O/bm2.txt"
expect_eq "BM: wrong-key Set dropped" "$(cat "$O/bm2set.rc")" 2
expect_eq "BM: right-key Set answered 0x000C (Sets not modelled)" \
    "$(cat "$O/bm2setk.rc")" 1
expect_grep "BM: the wrong-key Set was a violation" 'violations=1$' \
    "$O/bm2k.txt"
expect_eq "BM absent on leaf01: times out" "$(cat "$O/bm3.rc")" 2
# PMA IsPMKeySupported on the switches only.
expect_grep "PMA: switch CapMask2 bit 0 set" 'CapMask2: 0x0000001\)' "$O/pq3.txt"
expect_grep "PMA: CA CapMask2 bit 0 clear" 'CapMask2: 0x0000000\)' "$O/pq5.txt"
expect_grep "log: one line per decision, rule and action named" \
    'class=0x21\(CC\) .*rule=cc\(keyed,line=[0-9]+\) action=drop' "$T/p.log"

# ===== 2. lease expiry and its renewal ===================================
cat >"$T/lease.conf" <<EOF
# lease 2 s on the SM node and on leaf01; CC protect 0 and 1 with lease
mkey 0x0002c90300f1e000 $K_SM protect 2 lease 2
mkey 0x7cfe900300b4a1c0 $K_SW protect 2 lease 2
cc 0x7cfe900300b4a1c0 keyed $K_CC protect 1 lease 2
cc 0x7cfe900300b4a200 keyed $K_CC protect 0
EOF
fabric fixtures/ib/protected "$T/lease.conf" "$T/l.log" '
	smpquery portinfo 1 >/dev/null 2>&1; echo $? >$O/a1.rc
	smpquery portinfo 3 >/dev/null 2>&1; echo $? >$O/a3.rc
	smpquery -y "$K_SW" portinfo 3 >/dev/null 2>&1; echo $? >$O/a3k.rc
	ibccquery CongestionKeyInfo 3 >/dev/null 2>&1; echo $? >$O/c3.rc
	ibccquery CongestionKeyInfo 2 >$O/c2.txt 2>&1; echo $? >$O/c2.rc
	sleep 3
	smpquery -K portinfo 1 >$O/b1.txt 2>&1; echo $? >$O/b1.rc
	smpquery portinfo 3 >/dev/null 2>&1; echo $? >$O/b3.rc
	ibccquery CongestionKeyInfo 3 >$O/d3.txt 2>&1; echo $? >$O/d3.rc
	'
rc=$?
expect_eq "lease: fabric came up, tools ran" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$T/fabric.out"
expect_eq "lease: wrong-key Get at level 2 dropped (starts the lease)" \
    "$(cat "$O/a1.rc")" 255
expect_eq "lease: leaf01 dropped too" "$(cat "$O/a3.rc")" 255
expect_eq "lease: a valid Get on leaf01 answered (stops its timer)" \
    "$(cat "$O/a3k.rc")" 0
expect_eq "lease: after expiry the SM node answers a wrong-key Get" \
    "$(cat "$O/b1.rc")" 0
expect_eq "lease: ... with protect bits cleared to 0" \
    "$(field ProtectBits "$O/b1.txt")" 0
expect_eq "lease: ... and its M_Key exposed (level 0)" \
    "$(field Mkey "$O/b1.txt")" "$K_SM"
expect_eq "lease: ... violations kept (3)" \
    "$(field MkeyViolations "$O/b1.txt")" 3
expect_eq "lease: leaf01 (timer stopped by the valid Get) still drops" \
    "$(cat "$O/b3.rc")" 255
expect_grep "lease: the agent logged the expiry" \
    'node=0x0002c90300f1e000 .*lease=expired' "$T/l.log"
expect_eq "CC protect 0: wrong-key CongestionKeyInfo answered" \
    "$(cat "$O/c2.rc")" 0
expect_eq "CC protect 0: ... returning the key" \
    "$(field CC_Key "$O/c2.txt")" "$K_CC"
expect_eq "CC protect 1: wrong key dropped" "$(cat "$O/c3.rc")" 255
expect_eq "CC lease: after expiry a wrong-key Get is answered" \
    "$(cat "$O/d3.rc")" 0
expect_eq "CC lease: ... protect bit cleared" \
    "$(field CC_KeyProtectBit "$O/d3.txt")" 0

# ===== 3. fixtures/ib/vf: a VF without SMI; and pass-through ===========
fabric fixtures/ib/vf fixtures/ib/vf/agent.conf "$T/v.log" '
	smpquery -D nodeinfo 0 >$O/vfni.txt 2>&1; echo $? >$O/vfni.rc
	smpquery portinfo 1 >/dev/null 2>&1; echo $? >$O/vfpi.rc
	ibnetdiscover >/dev/null 2>&1; echo $? >$O/vfnd.rc
	saquery NR 1 >$O/vfsa.txt 2>&1; echo $? >$O/vfsa.rc
	perfquery 1 1 >/dev/null 2>&1; echo $? >$O/vfpq.rc
	FA_AGENT_SCENARIO= smpquery -K portinfo 5 >$O/pt5.txt 2>&1
	echo $? >$O/pt5.rc
	'
rc=$?
expect_eq "vf: fabric came up, tools ran" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$T/fabric.out"
expect_eq "vf: local DR NodeInfo (hop 0) dropped" "$(cat "$O/vfni.rc")" 255
expect_eq "vf: LID-routed PortInfo dropped" "$(cat "$O/vfpi.rc")" 255
expect_eq "vf: ibnetdiscover cannot discover" \
    "$([ "$(cat "$O/vfnd.rc")" -ne 0 ] && echo fails)" fails
expect_eq "vf: SA (a GMP) still answers" "$(cat "$O/vfsa.rc")" 0
expect_grep "vf: ... with the SM's NodeRecord" 'ufm-sm01' "$O/vfsa.txt"
expect_eq "vf: PMA (a GMP) still answers" "$(cat "$O/vfpq.rc")" 0
expect_grep "vf: log names the rule" 'rule=local_vf\(yes\) action=drop' "$T/v.log"
expect_eq "pass-through without a scenario: ibsim's answer" \
    "$(cat "$O/pt5.rc") $(field Mkey "$O/pt5.txt") $(field ProtectBits "$O/pt5.txt")" \
    "0 0x0000000000000000 0"

# ===== 4. a broken scenario file stops the process ========================
# badconf NAME LINE WANT-REGEX: the file holds LINE at line 2.
badconf() {
	printf '# a comment\n%s\n' "$2" >"$T/bad.conf"
	FA_AGENT_SCENARIO=$T/bad.conf LD_PRELOAD=$AGENT env true 2>"$T/bad.err"
	_rc=$?
	expect_eq "bad scenario ($1): exit 97" "$_rc" 97
	expect_eq "bad scenario ($1): one line on stderr" \
	    "$(wc -l <"$T/bad.err" | tr -d ' ')" 1
	expect_grep "bad scenario ($1): names FILE:LINE" \
	    "^fa-agent: $T/bad.conf:2: $3" "$T/bad.err"
}
badconf "unknown directive" "mkye 0x1 0x2 protect 1" "unknown directive 'mkye'"
badconf "protect out of range" "mkey all 0x5 protect 4" "protect: 4 is out of range"
badconf "bad GUID" "cc 0xzz absent" "GUID: '0xzz'"
badconf "mode" "vs switches maybe" "mode 'maybe'"
badconf "trailing junk" "am all absent now" "'absent' takes no options"
badconf "ports" "part_enforce switches 0-3 inbound on" "ports '0-3'"
badconf "cas for a switch rule" "switch_enforce_cap cas inbound on" "'cas' makes no sense"
printf 'cc all absent\ncc all unsupported\n' >"$T/dup.conf"
FA_AGENT_SCENARIO=$T/dup.conf LD_PRELOAD=$AGENT env true 2>"$T/dup.err"
expect_eq "duplicate rule: exit 97" "$?" 97
expect_grep "duplicate rule: says which line" ':2: same cc rule as line 1' \
    "$T/dup.err"
FA_AGENT_SCENARIO=$T/none.conf LD_PRELOAD=$AGENT env true 2>"$T/none.err"
expect_eq "missing scenario file: exit 97" "$?" 97
expect_eq "fixtures parse: protected, vf" "$(
	FA_AGENT_SCENARIO=fixtures/ib/protected/agent.conf LD_PRELOAD=$AGENT env true
	a=$?
	FA_AGENT_SCENARIO=fixtures/ib/vf/agent.conf LD_PRELOAD=$AGENT env true
	echo "$a $?")" "0 0"

fa_done
