#!/bin/sh
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
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] | join(" ")' "$2"
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
		echo $? >"$3/reveal.rc"' sh "$BIN" "$dir" "$out" 2>"$T/$name.err"
	wf=$?
	expect_eq "$name: fabric came up and the scan ran" "$wf" 0
	if [ "$wf" -ne 0 ]; then
		sed 's/^/    /' "$T/$name.err"
		return
	fi
	r=$out/scan/report.json
	expect_eq "$name: scan exits 1 (failures at or above high)" \
	    "$(cat "$out/scan.rc")" 1
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
	expect_eq "$name: only Get methods were sent" \
	    "$(grep -cv 'method=0x01 ' "$out/mads.log")" 0
	expect_eq "$name: every SMP carried M_Key 0" \
	    "$(grep -cv 'mkey=0x0000000000000000$' "$out/mads.log")" 0
	expect_eq "$name: SMInfo was asked" \
	    "$(grep -c 'class=0x01 method=0x01 attr=0x0020 ' "$out/mads.log" | \
	    awk '{ print ($1 > 0) }')" 1
	expect_eq "$name: the P_Key table was read" \
	    "$(grep -c 'method=0x01 attr=0x0016 ' "$out/mads.log" | \
	    awk '{ print ($1 > 0) }')" 1

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
scenario careless 0x0000000000000001 \
    IB-SMKEY-DISCLOSED=fail IB-PKEY-DEFAULT-FULL=fail
scenario careful 0x5c1e7a92b04d3f68 \
    IB-SMKEY-DISCLOSED=fail IB-PKEY-DEFAULT-FULL=pass
expect_grep "careful: the tenant keeps 0x7fff and 0x8001" \
    '"0x7fff"' "$T/careful/scan/snapshot.json"
expect_grep "careful: the tenant partition is read" \
    '"0x8001"' "$T/careful/scan/snapshot.json"

fa_done
