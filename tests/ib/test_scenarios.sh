#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Scenario tests on the real simulator stack (ibsim + opensm + umad2sim):
# for each fixture fabric, scan as the tenant node and assert the exact
# status of every implemented check, that keys are redacted unless asked,
# that the offline `check` reproduces the scan's results, and that nothing
# half-written is left behind.
# usage: tests/ib/test_scenarios.sh FABAUDIT
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
# The MAD logger built beside the binary (make: $(B)/tests/madlog.so).
MADLOG=$(dirname "$BIN")/tests/madlog.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# status ID REPORT: the statuses of check ID in REPORT, space separated.
status() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] | sort | join(" ")' "$2"
}

# scenario NAME SMKEY EXPECT...: EXPECT is "ID=STATUS" for every check.
scenario() {
	name=$1 smkey=$2
	shift 2
	dir=fixtures/ib/$name
	out=$T/$name
	# Both scans run against one fabric; the second reveals secrets.
	# Every MAD sent goes to mads.log through the logging shim.
	mkdir -p "$out"
	FA_MADLOG=$out/mads.log LD_PRELOAD=$MADLOG \
	tests/ib/with-fabric.sh "$dir" -- sh -c '
		"$1" scan --ib -q -c "$2/policy.conf" -o "$3/scan"; echo $? >"$3/scan.rc"
		"$1" scan --ib -q --reveal-secrets -c "$2/policy.conf" -o "$3/reveal"
		echo $? >"$3/reveal.rc"
		LD_PRELOAD=${LD_PRELOAD#*:} sminfo >"$3/sminfo.after" 2>&1
		' sh "$BIN" "$dir" "$out" 2>"$T/$name.err"
	wf=$?
	expect_eq "$name: fabric came up and the scan ran" "$wf" 0
	if [ "$wf" -ne 0 ]; then
		sed 's/^/    /' "$T/$name.err"
		return
	fi
	r=$out/scan/report.json
	expect_eq "$name: scan exits 1 (failures at or above high)" \
	    "$(cat "$out/scan.rc")" 1
	expect_eq "$name: the --reveal-secrets scan exits 1 too" \
	    "$(cat "$out/reveal.rc")" 1
	# Do no harm: after two scans the SM is still there and master.
	expect_grep "$name: the SM is still master after the scans" \
	    'SMINFO_MASTER' "$out/sminfo.after"
	for e in "$@"; do
		expect_eq "$name: ${e%%=*} is ${e#*=}" "$(status "${e%%=*}" "$r")" "${e#*=}"
	done
	expect_eq "$name: ib family collected" \
	    "$(jq -r .families.ib.state "$r")" collected
	expect_eq "$name: the tenant port is the target" \
	    "$(jq -r '.results[] | select(.id == "IB-PKEY-DEFAULT-FULL") | .target_name' "$r")" \
	    "acme-gpu-01 mlx5_0"
	expect_eq "$name: snapshot hash in the report is the file's" \
	    "$(jq -r .snapshot.sha256 "$r")" \
	    "$(sha256sum "$out/scan/snapshot.json" | cut -d' ' -f1)"
	expect_grep "$name: report.txt has the summary" '^Summary: ' "$out/scan/report.txt"
	expect_eq "$name: no temporary files left" \
	    "$(find "$out/scan" -name '.*' -type f | wc -l)" 0

	# Read-only: every MAD sent was a Get with M_Key 0 (the log holds
	# both scans).
	expect_eq "$name: the scans sent MADs" \
	    "$(test -s "$out/mads.log" && echo yes || echo no)" yes
	expect_eq "$name: only Get and GetTable methods were sent" \
	    "$(grep -Ecv 'method=0x(01|12) ' "$out/mads.log")" 0
	expect_eq "$name: every SMP carried M_Key 0" \
	    "$(grep -E 'class=0x(01|81) ' "$out/mads.log" | \
	    grep -cv 'mkey=0x0000000000000000$')" 0
	expect_eq "$name: the SA was asked" \
	    "$(grep -c 'class=0x03 ' "$out/mads.log" | \
	    awk '{ print ($1 > 0) }')" 1
	expect_eq "$name: SMInfo was asked" \
	    "$(grep -c 'class=0x01 method=0x01 attr=0x0020 ' "$out/mads.log" | \
	    awk '{ print ($1 > 0) }')" 1
	expect_eq "$name: the P_Key table was read" \
	    "$(grep -c 'method=0x01 attr=0x0016 ' "$out/mads.log" | \
	    awk '{ print ($1 > 0) }')" 1

	# mads.pcap, decoded by tshark, holds every MAD the engine counted,
	# and only read methods: Get, GetTable and their responses.
	tshark -r "$out/scan/mads.pcap" -T fields -e infiniband.mad.method \
	    >"$out/methods" 2>"$out/tshark.err"
	expect_eq "$name: tshark decodes mads.pcap" "$?" 0
	expect_eq "$name: mads.pcap holds every MAD sent and received" \
	    "$(wc -l <"$out/methods")" \
	    "$(jq '[.observations[] | select(.kind == "ib.engine" or .kind == "ib.topology") | .data | (.sent // 0) + (.answered // 0) + (if .nodes then .captured else 0 end)] | add' "$out/scan/snapshot.json")"
	expect_eq "$name: discovery's SMPs are in mads.pcap (sent and answered)" \
	    "$(jq '.observations[] | select(.kind == "ib.topology") | .data | .captured >= 2 * .smps_used' "$out/scan/snapshot.json")" true
	expect_eq "$name: mads.pcap shows only Get/GetTable and responses" \
	    "$(grep -Evc '^0x(01|81|12|92)$' "$out/methods")" 0
	expect_eq "$name: mads.pcap has SMInfo, PathRecord and PKeyTableRecord" \
	    "$(tshark -r "$out/scan/mads.pcap" -T fields -e infiniband.mad.attributeid 2>/dev/null | \
	    grep -E '^0x00(20|35|33)$' | sort -u | tr '\n' ' ')" "0x0020 0x0033 0x0035 "

	expect_eq "$name: the SM_Key is zeroed in mads.pcap" \
	    "$(tshark -r "$out/scan/mads.pcap" -T fields -e infiniband.sminfo.sm_key 2>/dev/null | grep -c "$smkey")" 0
	expect_eq "$name: --reveal-secrets keeps it in mads.pcap" \
	    "$(tshark -r "$out/reveal/mads.pcap" -T fields -e infiniband.sminfo.sm_key 2>/dev/null | grep -c "$smkey" | awk '{ print ($1 > 0) }')" 1

	# The SM_Key is in no output unless --reveal-secrets.
	expect_nogrep "$name: SM_Key redacted everywhere" "$smkey" \
	    "$out/scan/report.json" "$out/scan/report.txt" "$out/scan/snapshot.json"
	expect_grep "$name: --reveal-secrets shows the SM_Key" "$smkey" \
	    "$out/reveal/report.json"
	expect_eq "$name: revealing changes no status" \
	    "$(jq -c '[.results[] | [.id, .status, .target]]' "$out/reveal/report.json")" \
	    "$(jq -c '[.results[] | [.id, .status, .target]]' "$r")"

	# Offline re-evaluation reproduces the scan's results exactly.
	"$BIN" check -q -o "$out/offline" "$out/scan/snapshot.json"
	expect_eq "$name: offline check exits as the scan did" "$?" \
	    "$(cat "$out/scan.rc")"
	expect_eq "$name: offline check gives the same results" \
	    "$(jq -S .results "$out/offline/report.json")" "$(jq -S .results "$r")"
	expect_eq "$name: offline evaluation is marked as such" \
	    "$(jq -r .evaluation.mode "$out/offline/report.json")" offline
}

# OpenSM's default SM_Key is 1; the careful provider set a random one.
# ibsim stores no M_Key and no enforcement bits: those fail on both, as
# they are true of the simulated fabric.  Its switches answer
# CongestionKeyInfo with zeros (CC_Key 0) and nothing answers the vendor
# or AM class.  Two foreign (zeta) ports.
scenario careless 0x0000000000000001 \
    IB-SMP-UNRESTRICTED=fail IB-MKEY-UNSET=fail \
    IB-MKEY-READABLE=not_applicable IB-MKEY-PROTECT-LOW=fail \
    IB-SMKEY-DISCLOSED=fail IB-SMKEY-DEFAULT=fail IB-SM-UNEXPECTED=pass \
    IB-SAKEY-DEFAULT=fail IB-SA-DISCLOSURE=pass \
    IB-PKEY-DEFAULT-FULL=fail IB-PKEY-SHARED=fail \
    "IB-XTENANT-REACHABLE=fail fail" IB-PKEY-ENFORCE-OFF=fail \
    IB-CCKEY-UNSET=fail IB-VSKEY-UNSET=not_tested IB-AMKEY-UNSET=not_tested
scenario careful 0x5c1e7a92b04d3f68 \
    IB-SMP-UNRESTRICTED=fail IB-MKEY-UNSET=fail \
    IB-MKEY-READABLE=not_applicable IB-MKEY-PROTECT-LOW=fail \
    IB-SMKEY-DISCLOSED=fail IB-SMKEY-DEFAULT=pass IB-SM-UNEXPECTED=pass \
    IB-SAKEY-DEFAULT=pass IB-SA-DISCLOSURE=pass \
    IB-PKEY-DEFAULT-FULL=pass IB-PKEY-SHARED=pass \
    IB-XTENANT-REACHABLE=pass IB-PKEY-ENFORCE-OFF=fail \
    IB-CCKEY-UNSET=fail IB-VSKEY-UNSET=not_tested IB-AMKEY-UNSET=not_tested
# quick NAME EXPECT...: one scan of a further fixture, statuses asserted.
quick() {
	name=$1
	shift
	tests/ib/with-fabric.sh "fixtures/ib/$name" -- "$BIN" scan --ib -q \
	    -c "fixtures/ib/$name/policy.conf" -o "$T/$name" 2>"$T/$name.err"
	expect_eq "$name: scan exits 1" "$?" 1
	for e in "$@"; do
		expect_eq "$name: ${e%%=*} is ${e#*=}" \
		    "$(status "${e%%=*}" "$T/$name/report.json")" "${e#*=}"
	done
}

# A storage partition with acme and zeta both full members: the careful
# provider's one mistake, seen through the SA's PathRecords (P_Key 0x8010).
quick shared-storage IB-PKEY-DEFAULT-FULL=pass IB-SAKEY-DEFAULT=pass \
    IB-PKEY-SHARED=fail "IB-XTENANT-REACHABLE=fail fail"
expect_eq "shared-storage: the shared partition is 0x8010" \
    "$(jq -r '.results[] | select(.id == "IB-PKEY-SHARED") | .target' \
    "$T/shared-storage/report.json")" pkey-0x8010
# A provider standby (listed) and a rogue SM with the default key on a
# zeta node, which becomes a second MASTER.
quick multi-sm IB-SM-UNEXPECTED=fail "IB-SMKEY-DEFAULT=fail pass pass"
expect_eq "multi-sm: the rogue is the SM with the default key" \
    "$(jq -r '.results[] | select(.id == "IB-SMKEY-DEFAULT" and .status == "fail") | .target_name' \
    "$T/multi-sm/report.json")" "zeta-gpu-02 mlx5_0"
expect_eq "multi-sm: the rogue is listed as unexpected in the evidence" \
    "$(jq -r '[.results[] | select(.id == "IB-SM-UNEXPECTED") | .evidence[0].value[] | select(.listed_in_policy == false) | .guid] | unique | join(",")' \
    "$T/multi-sm/report.json")" 0x0002c90300c3d4f1
# 24 end ports, three tenants: every zeta and kilo port reachable.
quick large IB-SM-UNEXPECTED=pass
expect_eq "large: all 12 foreign ports are reported reachable" \
    "$(jq -r '[.results[] | select(.id == "IB-XTENANT-REACHABLE" and .status == "fail")] | length' \
    "$T/large/report.json")" 12

# --active on the careful fabric: ibsim checks no P_Key at all, so the
# PerfMgt GMP the probe sends to each zeta port with each of our P_Keys is
# answered: the partitions the SA and the tables describe are not enforced
# in the simulated fabric, and IB-XTENANT-REACHABLE says so, port by port.
tests/ib/with-fabric.sh fixtures/ib/careful -- "$BIN" scan --ib -q --active \
    -c fixtures/ib/careful/policy.conf -o "$T/careful-active" 2>/dev/null
expect_eq "careful --active: scan exits 1" "$?" 1
expect_eq "careful --active: both zeta ports reached by a GMP" \
    "$(jq -r '[.results[] | select(.id == "IB-XTENANT-REACHABLE" and .status == "fail") | .evidence[1].value | startswith("a PerfMgt GMP")] | map(select(.)) | length' "$T/careful-active/report.json")" 2
expect_eq "careful --active: the GMPs carried only Get methods" \
    "$(tshark -r "$T/careful-active/mads.pcap" -Y 'infiniband.mad.mgmtclass == 0x04' -T fields -e infiniband.mad.method 2>/dev/null | sort -u | tr '\n' ' ')" "0x01 0x81 "

# Every IB check of the catalogue was asserted above (the host checks are
# asserted by tests/host/test_fixtures.sh).
for id in $("$BIN" checks --family ib --format json | jq -r '.[].id'); do
	expect_grep "scenarios assert $id" "$id=" "$0"
done
expect_grep "careful: the tenant keeps 0x7fff and 0x8001" \
    '"0x7fff"' "$T/careful/scan/snapshot.json"
expect_grep "careful: the tenant partition is read" \
    '"0x8001"' "$T/careful/scan/snapshot.json"
# The careless SA accepts the default SA_Key, but SMP read every other
# port's P_Key table, so none is read again through the SA (a table SMP
# misses is: tests/ib/test_sa_table.sh); the careful SA refuses the key.
expect_eq "careless: no P_Key table read a second time through the SA" \
    "$(jq '[.observations[] | select(.kind == "ib.sa.pkey_table_record" and .data.role == "remote")] | length' "$T/careless/scan/snapshot.json")" 0
expect_eq "careless: SMP read the 4 other CA ports' tables whole" \
    "$(jq '[.observations[] | select(.kind == "ib.smp.pkey_tables" and .state == "complete") | .data.tables[].port_guids[]] | length' "$T/careless/scan/snapshot.json")" 4
expect_eq "careless: one group, the default partition's full member" \
    "$(jq -c '[.observations[] | select(.kind == "ib.smp.pkey_tables") | .data | .ports, (.tables[] | [.pkeys, .blocks, (.port_guids | length)])]' "$T/careless/scan/snapshot.json")" '[4,[["0xffff"],2,4]]'
expect_eq "careless: no remote table recorded one by one" \
    "$(jq '[.observations[] | select(.kind == "ib.smp.pkey_table" and .data.role == "remote")] | length' "$T/careless/scan/snapshot.json")" 0
expect_eq "careful: no table read through the SA (key 1 refused)" \
    "$(jq '[.observations[] | select(.kind == "ib.sa.pkey_table_record" and .data.role == "remote")] | length' "$T/careful/scan/snapshot.json")" 0
expect_eq "careless: the reachable foreign ports are zeta's" \
    "$(jq -r '[.results[] | select(.id == "IB-XTENANT-REACHABLE") | .target_name] | sort | join(",")' \
    "$T/careless/scan/report.json")" "zeta-gpu-01 mlx5_0,zeta-gpu-02 mlx5_0"

fa_done
