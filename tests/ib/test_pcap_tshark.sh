#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mads.pcap as Wireshark sees it: the fabric unit test leaves its sample
# capture (FA_PCAP_KEEP), and tshark must decode every packet as ERF
# InfiniBand down to the MAD header, with the class, method and attribute
# written, the addressing, direction and time stamps, and flag nothing as
# malformed.  Needs tshark: without it this test FAILs, it never skips.
# usage: tests/ib/test_pcap_tshark.sh BUILD_DIR
set -u
B=$(cd "${1:?usage: tests/ib/test_pcap_tshark.sh BUILD_DIR}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
FTEST=$B/tests/ftest_ib_pcap
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CAP=$T/sample.pcap

if ! command -v tshark >/dev/null 2>&1; then
	fa_fail "tshark not installed"
	fa_done
	exit
fi
if [ ! -x "$FTEST" ]; then
	fa_fail "$FTEST not built (make $FTEST)"
	fa_done
	exit
fi

FA_PCAP_KEEP=$T "$FTEST" >"$T/ftest.log" 2>&1
rc=$?
expect_eq "ftest_ib_pcap writes the sample capture" "$rc" 0
# Indented, so that tests/run.sh does not count its results twice.
[ "$rc" -eq 0 ] || sed 's/^/    /' "$T/ftest.log"
if [ ! -s "$CAP" ]; then
	fa_fail "sample.pcap left in FA_PCAP_KEEP"
	fa_done
	exit
fi

# tsh NAME ARG...: run tshark on the capture; its output goes to stdout.
# A failure or any diagnostic other than the root warning is a FAIL.
tsh() {
	_n=$1
	shift
	tshark -r "$CAP" "$@" 2>"$T/tshark.err"
	_rc=$?
	_e=$(grep -v '^Running as user' "$T/tshark.err")
	if [ "$_rc" -ne 0 ] || [ -n "$_e" ]; then
		fa_fail "$_n: tshark exited $_rc: $_e"
	fi
}

# fields NAME FIELD...: one line per packet, the fields space separated.
fields() {
	_n=$1
	shift
	_a=""
	for _f in "$@"; do _a="$_a -e $_f"; done
	# shellcheck disable=SC2086
	tsh "$_n" -T fields -E separator=' ' $_a
}

# lines TEXT: the lines of TEXT joined with ';'.
lines() { printf '%s\n' "$1" | tr '\n' ';'; }

expect_eq "each packet is ERF InfiniBand" \
    "$(lines "$(fields protocols frame.protocols)")" \
    "erf:infiniband;erf:infiniband;erf:infiniband;erf:infiniband;"
expect_eq "nothing malformed or warned about" \
    "$(tsh malformed -Y '_ws.malformed || _ws.expert.severity >= "warning"' | wc -l | tr -d ' ')" 0

# The MADs ftest_ib_pcap.c writes (its samples[]), in order.
mads=$(fields mads infiniband.mad.mgmtclass infiniband.mad.method \
    infiniband.mad.attributeid)
i=0
for want in "0x81 0x01 0x0011 DR SubnGet(NodeInfo)" \
    "0x01 0x01 0x0020 SubnGet(SMInfo)" \
    "0x03 0x12 0x0035 SubnAdmGetTable(PathRecord)" \
    "0x01 0x81 0x0020 SubnGetResp(SMInfo)"; do
	i=$((i + 1))
	name=${want#* * * }
	expect_eq "packet $i decodes as $name (class method attribute)" \
	    "$(printf '%s\n' "$mads" | sed -n "${i}p")" "${want%" $name"}"
done

expect_eq "LRH: VL SL LNH DLID SLID PktLen" \
    "$(lines "$(fields lrh infiniband.lrh.vl infiniband.lrh.sl \
    infiniband.lrh.lnh infiniband.lrh.dlid infiniband.lrh.slid \
    infiniband.lrh.pktlen)")" \
    "0x0f 0 0x02 65535 65535 72;0x0f 0 0x02 2 1 72;0x00 3 0x02 2 1 72;0x0f 0 0x02 1 2 72;"
expect_eq "BTH: UD SEND Only, P_Key, dest QP, PSN" \
    "$(lines "$(fields bth infiniband.bth.opcode infiniband.bth.p_key \
    infiniband.bth.destqp infiniband.bth.psn)")" \
    "100 65535 0x000000 0;100 65535 0x000000 1;100 65535 0x000001 2;100 65535 0x000000 3;"
expect_eq "DETH: Q_Key, source QP" \
    "$(lines "$(fields deth infiniband.deth.q_key infiniband.deth.srcqp)")" \
    "0x0000000000000000 0x00000000;0x0000000000000000 0x00000000;0x0000000080010000 0x00000001;0x0000000000000000 0x00000000;"
expect_eq "DR SMP: hop count, permissive DrSLID and DrDLID" \
    "$(fields smp infiniband.smpdirected.hopcount \
    infiniband.smpdirected.drslid infiniband.smpdirected.drdlid | sed -n 1p)" \
    "0x01 0xffff 0xffff"
expect_eq "direction: sent on interface 0, received on 1" \
    "$(lines "$(fields direction erf.flags.cap)")" "0;0;0;1;"
expect_eq "time stamps to the microsecond" \
    "$(lines "$(fields time frame.time_epoch)")" \
    "1796205600.000000000;1796205600.001000000;1796205600.002000000;1796205600.003000000;"

fa_done
