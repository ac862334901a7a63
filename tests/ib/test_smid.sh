#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# SM identity on the real simulator stack (ibsim + opensm + umad2sim):
#
#  1. "swsm": the master SM runs on a managed switch's port 0 (opensm
#     attached to ibsim switch ib-leaf01), and a standby SM runs on a
#     foreign tenant's node (zeta-gpu-02, same sm_key, priority 0, so
#     OpenSM makes it STANDBY: IBA vol. 1 14.4.1, osm_sminfo_rcv.c).
#  2. "casm": the provider's master ufm-sm01 and standby ufm-sm02, the
#     policy naming the first by its node GUID and the second by its port
#     GUID (fabaudit.conf(5): either names an SM).
#
# Expected, from IBA 14.4 and OpenSM, not from fabaudit's output: each SM
# counted once, whether SMInfo, the SA, or both report it; the switch's SM
# found through its port 0 and the SA asked at its LID; the foreign
# standby judged unexpected unless the policy names it (by port or node
# GUID); the SMs named by node GUID not called unexpected.  The
# commands IB-SM-UNEXPECTED's reproduce note names (saquery SMIR;
# sminfo LID; smpquery nodeinfo LID) are run against the fabric for every
# SM and must show each SM's GUID (tests/ib/test_repro.sh runs the
# finding's own reproduce commands).
# The fabrics are built in a temporary directory from fixtures/ib/multi-sm.
# usage: tests/ib/test_smid.sh FABAUDIT
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

SW_GUID=0x7cfe900300b4a1c0	# ib-leaf01: node GUID = port-0 GUID on ibsim
ZETA2_NODE=0x0002c90300c3d4f0
ZETA2_PORT=0x0002c90300c3d4f1
SM1_NODE=0x0002c90300f1e000
SM2_PORT=0x0002c90300f2e001
SMKEY=0x5c1e7a92b04d3f68	# fixtures/ib/multi-sm/opensm.conf

# fabric NAME SM_HOST EXTRA_SMS: a scenario dir in $T/NAME.
fabric() {
	d=$T/$1
	mkdir -p "$d"
	cp fixtures/ib/multi-sm/net fixtures/ib/multi-sm/opensm.conf \
	    fixtures/ib/multi-sm/partitions.conf \
	    fixtures/ib/multi-sm/standby.conf "$d/"
	printf 'sm_key %s\nsm_priority 0\n' "$SMKEY" >"$d/foreign.conf"
	cat >"$d/scenario" <<EOF
DESCRIPTION="SM identity: $1"
SM_HOST=$2
TENANT_HOST=acme-gpu-01
EXTRA_SMS="$3"
EOF
}

# policy FILE SM_GUID...: the tenant's policy naming these SMs.
policy() {
	f=$1
	shift
	{
		echo "tenant_node acme-gpu-*"
		echo "provider_node ufm-*"
		echo "sm_guid $*"
	} >"$f"
}

# In the fabric: scan, then run the reproduce commands for every SM in
# IB-SM-UNEXPECTED's evidence, each output in $out/repro/.
run_in_fabric() {
	tests/ib/with-fabric.sh "$1" -- sh -c '
		"$1" scan --ib -q -c "$2" -o "$3/scan"; echo $? >"$3/scan.rc"
		mkdir -p "$3/repro"
		saquery SMIR >"$3/repro/smir" 2>&1; echo $? >"$3/repro/smir.rc"
		jq -r ".results[] | select(.id == \"IB-SM-UNEXPECTED\") |
		    .evidence[] | select(.field == \"sms\") | .value[] | .lid" \
		    "$3/scan/report.json" | while read -r lid; do
			sminfo "$lid" >"$3/repro/sminfo.$lid" 2>&1
			echo $? >"$3/repro/sminfo.$lid.rc"
			smpquery nodeinfo "$lid" >"$3/repro/nodeinfo.$lid" 2>&1
			echo $? >"$3/repro/nodeinfo.$lid.rc"
		done
		' sh "$BIN" "$2" "$3" 2>"$3.err"
}

# status ID REPORT
status() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] |
	    sort | join(" ")' "$2"
}

# sms REPORT JQ-FILTER: over IB-SM-UNEXPECTED's SM list.
sms() {
	jq -r "[.results[] | select(.id == \"IB-SM-UNEXPECTED\") | .evidence[] |
	    select(.field == \"sms\") | .value[]] | $2" "$1"
}

# recheck NAME POLICY-FILE: offline evaluation of NAME's snapshot.
recheck() {
	"$BIN" check -q -c "$2" -o "$T/$1/check-$(basename "$2")" \
	    "$T/$1/out/scan/snapshot.json" >/dev/null 2>&1
	echo "$T/$1/check-$(basename "$2")/report.json"
}

# Every SM in the evidence: its reproduce commands ran and show its GUIDs.
repro() {
	name=$1 out=$T/$1/out
	expect_eq "$name: saquery SMIR exits 0" "$(cat "$out/repro/smir.rc")" 0
	for lid in $(sms "$out/scan/report.json" 'map(.lid) | unique | .[]'); do
		g=$(sms "$out/scan/report.json" "map(select(.lid == $lid)) | .[0].guid")
		n=$(sms "$out/scan/report.json" "map(select(.lid == $lid)) | .[0].node_guid")
		if [ "$(sms "$out/scan/report.json" \
		    "map(select(.lid == $lid)) | .[0].sa_record")" = true ]; then
			expect_grep "$name: saquery SMIR shows SM GUID $g" \
			    "GUID\.*$g\$" "$out/repro/smir"
		fi
		expect_eq "$name: sminfo $lid exits 0" \
		    "$(cat "$out/repro/sminfo.$lid.rc")" 0
		# sminfo prints the GUID without its leading zeros.
		expect_grep "$name: sminfo $lid shows SM GUID $g" \
		    "sm guid 0x0*$(echo "${g#0x}" | sed 's/^0*//')," \
		    "$out/repro/sminfo.$lid"
		expect_eq "$name: smpquery nodeinfo $lid exits 0" \
		    "$(cat "$out/repro/nodeinfo.$lid.rc")" 0
		expect_grep "$name: smpquery nodeinfo $lid shows node GUID $n" \
		    "^Guid:\.*$n\$" "$out/repro/nodeinfo.$lid"
	done
}

# --- 1: master on a switch's port 0, standby on a foreign node -------------
fabric swsm ib-leaf01 "zeta-gpu-02:foreign.conf"
policy "$T/swsm/p-switch" "$SW_GUID"
policy "$T/swsm/p-both-node" "$SW_GUID" "$ZETA2_NODE"
policy "$T/swsm/p-both-port" "$SW_GUID" "$ZETA2_PORT"
mkdir -p "$T/swsm/out"
run_in_fabric "$T/swsm" "$T/swsm/p-switch" "$T/swsm/out"
wf=$?
expect_eq "swsm: fabric came up and the scan ran" "$wf" 0
if [ "$wf" -eq 0 ]; then
	r=$T/swsm/out/scan/report.json
	s=$T/swsm/out/scan/snapshot.json
	expect_eq "swsm: the switch's SM answered SMInfo on its port 0" \
	    "$(jq -r '[.observations[] | select(.kind == "ib.smp.sminfo" and
	    .state == "complete" and .data.state == 3) | .target] |
	    join(",")' "$s")" "S-$SW_GUID/0"
	expect_eq "swsm: the foreign standby answered SMInfo" \
	    "$(jq -r '[.observations[] | select(.kind == "ib.smp.sminfo" and
	    .state == "complete" and .data.state == 2) | .data.guid] |
	    join(",")' "$s")" "$ZETA2_PORT"
	expect_eq "swsm: the SA was asked at the switch's LID" \
	    "$(jq -r '.observations[] | select(.kind == "ib.sa.sminfo_records")
	    | .state' "$s")" complete
	expect_eq "swsm: IB-SM-UNEXPECTED fails (foreign standby)" \
	    "$(status IB-SM-UNEXPECTED "$r")" fail
	expect_eq "swsm: each SM is listed once" \
	    "$(sms "$r" 'map(.guid) | sort | join(",")')" \
	    "$ZETA2_PORT,$SW_GUID"
	expect_eq "swsm: the unlisted SM is the foreign standby" \
	    "$(sms "$r" 'map(select(.listed_in_policy == false)) |
	    map(.guid + " " + .state) | join(",")')" "$ZETA2_PORT Standby"
	expect_eq "swsm: the master is on the switch" \
	    "$(sms "$r" 'map(select(.state == "Master")) |
	    map(.node_type + " " + .node_guid) | join(",")')" \
	    "Switch $SW_GUID"
	expect_grep "swsm: the reason counts one master, one unlisted SM" \
	    '1 SM in MASTER state, 1 SM report ' "$T/swsm/out/scan/report.txt"
	expect_eq "swsm: IB-SMKEY-DEFAULT judges each SM once" \
	    "$(status IB-SMKEY-DEFAULT "$r")" "pass pass"
	expect_eq "swsm: foreign standby named by node GUID: pass" \
	    "$(status IB-SM-UNEXPECTED "$(recheck swsm "$T/swsm/p-both-node")")" pass
	expect_eq "swsm: foreign standby named by port GUID: pass" \
	    "$(status IB-SM-UNEXPECTED "$(recheck swsm "$T/swsm/p-both-port")")" pass
	repro swsm
else
	sed 's/^/    /' "$T/swsm/out.err"
fi

# --- 2: provider SMs named by node GUID and by port GUID -------------------
fabric casm ufm-sm01 "ufm-sm02:standby.conf"
policy "$T/casm/p-mixed" "$SM1_NODE" "$SM2_PORT"
policy "$T/casm/p-port-only" "$SM2_PORT"
mkdir -p "$T/casm/out"
run_in_fabric "$T/casm" "$T/casm/p-mixed" "$T/casm/out"
wf=$?
expect_eq "casm: fabric came up and the scan ran" "$wf" 0
if [ "$wf" -eq 0 ]; then
	r=$T/casm/out/scan/report.json
	expect_eq "casm: SMs named by node and port GUID: pass" \
	    "$(status IB-SM-UNEXPECTED "$r")" pass
	expect_eq "casm: master and standby, each once" \
	    "$(sms "$r" 'map(.state) | sort | join(",")')" "Master,Standby"
	expect_eq "casm: the master, unnamed, is unexpected" \
	    "$(status IB-SM-UNEXPECTED "$(recheck casm "$T/casm/p-port-only")")" fail
	repro casm
else
	sed 's/^/    /' "$T/casm/out.err"
fi

fa_done
