#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A partition shared by a thousand storage clients (issue 21), on ibsim +
# a real opensm: a generated two-level fat tree of 1,044 HCAs
# (bench/mkfattree), the tenant's 18 HCAs on the first leaf, the SM host
# the provider's, and a partition file as a provider writes it when it
# gives every node the storage partition:
#     Default=0x7fff, ipoib : ALL=limited, SELF=full ;
#     tenantA=0x8001 : <the tenant's 18 port GUIDs>=full ;
#     storage=0x8010 : ALL=full ;
# The policy promises the tenant 0x8001 and 0x8010 (tenant_pkey).  What
# must come out follows from the file and IBA vol. 1 10.9 (two ports
# share a partition when both hold its P_Key and one is a full member;
# OpenSM returns a PathRecord only then):
#   - every other HCA (1,044 - 18 - the SM host = 1,025 ports, counted
#     from the net file here) shares 0x8010 with the tenant: IB-PKEY-SHARED
#     fails for pkey-0x8010 with that exact count in its reason and
#     evidence, the list shown saying "first N of 1025";
#   - IB-XTENANT-REACHABLE fails once per such port, and on no other;
#   - the default partition (limited everywhere but SELF) and 0x8001 (the
#     tenant's alone) are shared with nobody: no result names them;
#   - the finding's reproduce command, run against the same fabric,
#     exits 0 and prints a PathRecord with P_Key 0x8010 to the LID it
#     names.
# usage: tests/ib/test_bigpart.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_bigpart.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
GEN=$(cd "$B" && pwd)/bench/mkfattree
T=$(mktemp -d)
trap '[ -n "${FA_KEEP:-}" ] || rm -rf "$T"' EXIT

if [ ! -x "$BIN" ] || [ ! -x "$GEN" ]; then
	fa_fail "fabaudit or bench/mkfattree not built in $B"
	fa_done
	exit
fi
F=$T/fabric
if ! "$GEN" -n 1044 -t 1 -o "$F" >"$T/gen.log" 2>&1; then
	fa_fail "mkfattree failed: $(cat "$T/gen.log")"
	fa_done
	exit
fi
{
	echo 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;'
	printf 'tenantA=0x8001 :'
	awk '$1 == "tenant_guid" { printf "%s %s=full", n++ ? "," : "", $2 }
	    END { print " ;" }' "$F/policy.conf"
	echo 'storage=0x8010 : ALL=full ;'
} >"$F/partitions.conf"
echo 'tenant_pkey    0x8010' >>"$F/policy.conf"

# The foreign ports, from the net file: HCAs (ibsim "Hca" lines, the
# NodeDescription after '#') neither the tenant's nor the provider's;
# port 1's GUID is the node GUID + 1 (ibsim), node GUIDs on "caguid=".
awk '/^caguid=/ { g = substr($0, 8) }
    /^Hca/ { d = $0; sub(/^[^#]*# *"/, "", d); sub(/".*/, "", d)
	if (d !~ /^tenantA-/ && d !~ /^provider-/) print tolower(g) }' \
    "$F/net" | sort >"$T/foreign.want"
N=$(wc -l <"$T/foreign.want")
expect_eq "the net file has 1,025 foreign HCAs" "$N" 1025

FA_SM_TIMEOUT=${FA_SM_TIMEOUT:-180} tests/ib/with-fabric.sh "$F" -- sh -c '
	"$1" scan --ib -q -c "$2/policy.conf" -o "$3/out" --user "$(id -un)" \
	    2>"$3/scan.err"
	echo $? >"$3/scan.rc"
	cmd=$(jq -r "[.results[] | select(.id == \"IB-PKEY-SHARED\" and
	    .target == \"pkey-0x8010\")][0].evidence[] |
	    select(.field == \"reproduce\") | .value" "$3/out/report.json")
	echo "$cmd" >"$3/repro.cmd"
	LD_PRELOAD=${LD_PRELOAD##*:} sh -c "$cmd" >"$3/repro.out" 2>&1
	echo $? >"$3/repro.rc"' sh "$BIN" "$F" "$T" 2>"$T/fabric.err"
wf=$?
expect_eq "the 1,044-HCA fabric came up and the scan ran" "$wf" 0
[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric.err" | sed 's/^/    /'
expect_eq "scan exit 1 (findings)" "$(cat "$T/scan.rc" 2>/dev/null)" 1

R=$T/out/report.json
res() {	# res JQ: on the IB-PKEY-SHARED result of pkey-0x8010
	jq -r "[.results[] | select(.id == \"IB-PKEY-SHARED\" and
	    .target == \"pkey-0x8010\")][0] | $1" "$R" 2>/dev/null
}
ev() {	# ev FIELD: that evidence value of the same result
	res "[.evidence[] | select(.field == \"$1\")][0].value"
}
expect_eq "IB-PKEY-SHARED fails for the storage partition 0x8010" \
    "$(res .status)" fail
expect_eq "... its reason gives the exact count" "$(res .reason)" \
    "the tenant's own partition 0x8010 (tenant_pkey) holds $N foreign port(s)"
expect_eq "... so does its evidence" "$(ev foreign_port_count)" "$N"
ev foreign_ports_shown >"$T/shown"
expect_grep "... the list shown says how much of it" "^first [0-9]+ of $N\$" \
    "$T/shown"
expect_eq "... and holds as many ports as it says it shows" \
    "$(ev foreign_ports | jq length)" \
    "$(ev foreign_ports_shown | sed 's/^first \([0-9]*\) of.*/\1/')"
expect_eq "no other partition is reported shared (0x7fff limited, 0x8001 the tenant's)" \
    "$(jq -r '[.results[] | select(.id == "IB-PKEY-SHARED") | .target] |
    join(" ")' "$R")" pkey-0x8010
jq -r '.results[] | select(.id == "IB-XTENANT-REACHABLE" and
    .status == "fail") | .target' "$R" |
    sed 's/^H-\(0x[0-9a-f]*\)\/1$/\1/' | sort >"$T/foreign.got"
expect_eq "IB-XTENANT-REACHABLE fails on exactly the $N foreign ports" \
    "$(cmp -s "$T/foreign.want" "$T/foreign.got" && echo same ||
    echo "$(wc -l <"$T/foreign.got") differing")" same
expect_eq "IB-PKEY-DEFAULT-FULL passes (0x7fff limited on the tenant port)" \
    "$(jq -r '[.results[] | select(.id == "IB-PKEY-DEFAULT-FULL")][0].status' "$R")" pass

# Every list cut for the report says so, with the exact count: OpenSM
# leaves every M_Key 0 (its default m_key), so IB-MKEY-UNSET lists every
# CA port and switch port 0, FT_HCAS + FT_SWITCHES of the generator.
. "$F/scenario"
mk() {	# mk FIELD: that evidence value of IB-MKEY-UNSET
	jq -r --arg f "$1" '[.results[] | select(.id == "IB-MKEY-UNSET")][0] |
	    [.evidence[] | select(.field == $f)][0].value' "$R"
}
expect_eq "IB-MKEY-UNSET counts every CA port and switch port 0" \
    "$(mk count)" "$((FT_HCAS + FT_SWITCHES))"
expect_eq "... and says how much of the list it shows" "$(mk ports_shown)" \
    "first $(mk ports | jq length) of $((FT_HCAS + FT_SWITCHES))"

# The reproduce command: a PathRecord between the two ports it names.
expect_grep "the reproduce command is a PathRecord query between two LIDs" \
    '^saquery PR --slid [0-9]+ --dlid [0-9]+ --pkey 0x8010$' "$T/repro.cmd"
dlid=$(sed -n 's/.*--dlid \([0-9]*\).*/\1/p' "$T/repro.cmd")
expect_eq "... it exits 0" "$(cat "$T/repro.rc" 2>/dev/null)" 0
expect_grep "... and prints a PathRecord to that LID" \
    "^[[:space:]]*dlid\\.+${dlid:-none}\$" "$T/repro.out"
expect_grep "... with P_Key 0x8010" '^[[:space:]]*pkey\.+0x8010$' \
    "$T/repro.out"
fa_done
