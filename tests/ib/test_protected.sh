#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Scenario tests for what ibsim cannot express, through the spec-conforming
# test agent (tests/agent/, loaded before umad2sim in the scanner process
# only): M_Key protection levels 0/1/2, partition enforcement bits, and a
# VF-like port whose SMPs are dropped.  Each check's protected form is
# asserted through the real MAD path; the unprotected forms are in
# test_scenarios.sh.
# usage: tests/ib/test_protected.sh FABAUDIT
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
AGENT=$(dirname "$BIN")/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

status() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] | sort | join(" ")' "$2"
}

# scan_agent NAME [OPTION...]: scan fixtures/ib/NAME through the agent
# into $T/NAME (or $T/NAME-active with --active, $T/NAME-probes-LIST with
# --key-probes LIST first).  The agent lives in the
# scanner's process and writes its log and state where this user can:
# --user keeps the scan as this user (as root it would drop to nobody).
scan_agent() {
	n=$1
	shift
	case ${1:-} in
	--active) o=$T/$n-active ;;
	--key-probes) o=$T/$n-probes-$2 ;;
	*) o=$T/$n ;;
	esac
	FA_AGENT_SCENARIO=$PWD/fixtures/ib/$n/agent.conf \
	    FA_AGENT_LOG=$o.agent.log LD_PRELOAD=$AGENT \
	    tests/ib/with-fabric.sh "fixtures/ib/$n" -- "$BIN" scan --ib -q \
	    --user "$(id -un)" "$@" \
	    -c "fixtures/ib/$n/policy.conf" -o "$o" 2>"$o.err"
	echo $?
}

if [ ! -f "$AGENT" ]; then
	fa_fail "test agent not built: $AGENT"
	fa_done
	exit
fi

# protected: SM port at M_Key level 2, switches at level 1, acme-gpu-02 at
# level 0 with a key, enforcement on leaf01's CA-facing ports only.
expect_eq "protected: scan exits 1" "$(scan_agent protected)" 1
r=$T/protected/report.json
expect_eq "protected: the agent acted" \
    "$(test -s "$T/protected.agent.log" && echo yes)" yes
expect_eq "protected: the default scan sent no Set" \
    "$(grep -c 'method=0x02' "$T/protected.agent.log")" 0
# Do no harm: the level-2 SM port, out of discovery, is asked SMInfo once.
expect_eq "protected: the silent level-2 SM port got one SMInfo Get" \
    "$(grep 'attr=0x0020' "$T/protected.agent.log" | grep -c 'method=0x01')" 1
for e in IB-MKEY-UNSET=fail IB-MKEY-READABLE=fail IB-MKEY-PROTECT-LOW=fail \
    IB-SMKEY-DISCLOSED=pass IB-SMKEY-DEFAULT=not_tested \
    IB-SAKEY-DEFAULT=pass IB-SA-DISCLOSURE=pass IB-PKEY-DEFAULT-FULL=pass \
    IB-PKEY-ENFORCE-OFF=fail IB-CCKEY-UNSET=not_tested IB-VSKEY-UNSET=fail \
    IB-AMKEY-UNSET=fail; do
	expect_eq "protected: ${e%%=*} is ${e#*=}" "$(status "${e%%=*}" "$r")" "${e#*=}"
done
expect_eq "protected: level-0 port acme-gpu-02 is the readable one" \
    "$(jq -r '.results[] | select(.id == "IB-MKEY-READABLE") | .evidence[0].value[].node_desc' "$r")" \
    "acme-gpu-02 mlx5_0"
expect_eq "protected: the readable M_Key is redacted" \
    "$(grep -c 71c2d5e8a9b04f13 "$r" "$T/protected/snapshot.json" "$T/protected/report.txt" | awk -F: '{ s += $2 } END { print s }')" 0
expect_eq "protected: every port examined is below level 2 (none is at 2)" \
    "$(jq -r '.results[] | select(.id == "IB-MKEY-PROTECT-LOW") | .evidence[1].value' "$r")" 6
expect_eq "protected: the level-1 switches are among them, at level 1" \
    "$(jq -r '[.results[] | select(.id == "IB-MKEY-PROTECT-LOW") | .evidence[0].value[] | select(.mkey_protect == 1)] | length' "$r")" 2
expect_eq "protected: the level-2 SM port stayed out of discovery" \
    "$(jq -r '.observations[] | select(.kind == "ib.topology") | [.data.nodes[].desc] | map(select(startswith("ufm-sm01"))) | length' "$T/protected/snapshot.json")" 0
# Key classes: protect 1 drops our key-0 probe (not_tested: silence is
# not proof), protect 0 answers it (fail), naming the node.
expect_eq "protected: the unprotected VS agent is leaf02's" \
    "$(jq -r '.results[] | select(.id == "IB-VSKEY-UNSET") | .evidence[0].value[].node_desc' "$r")" \
    "MF0;ib-leaf02:MSB7800/U1"
expect_eq "protected: the unprotected AM agent is leaf01's" \
    "$(jq -r '.results[] | select(.id == "IB-AMKEY-UNSET") | .evidence[0].value[].node_desc' "$r")" \
    "MF0;ib-leaf01:MSB7800/U1"
expect_eq "protected: the CC-keyed switches stayed silent, CAs unsupported" \
    "$(jq -r '.results[] | select(.id == "IB-CCKEY-UNSET") | "\(.evidence[2].value) \(.evidence[3].value)"' "$r")" "2 3"
expect_eq "protected: leaf02's CA ports lack enforcement, leaf01's have it" \
    "$(jq -r '.results[] | select(.id == "IB-PKEY-ENFORCE-OFF") | .evidence[1].value' "$r")" 2
expect_eq "protected: the snapshot says all three classes were probed" \
    "$(jq -r '.scan.ib_options.key_probes | join(",")' "$T/protected/snapshot.json")" \
    cc,vs,am

# --key-probes: a class left out is not sent, and its check says so.
# probes_sent NAME-probes-LIST CLASS: the Gets of that class the agent
# judged (one rule line each; an answered Get is logged twice).
probes_sent() {
	grep "class=$2(" "$T/$1.agent.log" | grep 'method=0x01' | grep -c ' rule='
}
expect_eq "protected: one observation per class, a node per Get (entry or quiet target)" \
    "$(jq -r '[.observations[] | select(.kind == "ib.gmp.key_probes") | "\(.data.class)=\((.data.nodes | length) + ([.data.quiet[].targets[]] | length))"] | sort | join(" ")' "$T/protected/snapshot.json")" \
    "am=$(probes_sent protected 0x0b) cc=$(probes_sent protected 0x21) vs=$(probes_sent protected 0x0a)"
expect_eq "protected: the failing node's LID, to reproduce it with" \
    "$(jq -r '.results[] | select(.id == "IB-VSKEY-UNSET") | .evidence[0].value[].lid' "$r")" \
    "$(jq -r '.observations[] | select(.kind == "ib.topology") | .data.nodes[] | select(.desc == "MF0;ib-leaf02:MSB7800/U1") | .ports[] | select(.num == 0) | .lid' "$T/protected/snapshot.json")"
expect_eq "protected: the failing nodes' evidence names their observation" \
    "$(jq -r '.results[] | select(.id == "IB-VSKEY-UNSET") | .evidence[0].observation | sub("#[0-9]+$"; "")' "$r")" \
    ib.gmp.key_probes
expect_eq "protected: the node entries are in target order" \
    "$(jq -r '[.observations[] | select(.kind == "ib.gmp.key_probes") | .data.nodes | map(.target) | . == sort] | unique | join(" ")' "$T/protected/snapshot.json")" \
    true
expect_eq "protected: only answers are entries; quiet targets in order" \
    "$(jq -r '[.observations[] | select(.kind == "ib.gmp.key_probes") | .data | (.nodes | map(.state == "complete") | all), (.quiet[] | (.state != "complete") and (.targets == (.targets | sort)))] | unique | join(" ")' "$T/protected/snapshot.json")" \
    true
expect_eq "protected: some nodes are quiet (no agent, or unsupported)" \
    "$(jq -r '[.observations[] | select(.kind == "ib.gmp.key_probes") | .data.quiet[].targets[]] | length > 0' "$T/protected/snapshot.json")" \
    true
expect_eq "protected: the agent saw Gets of all three classes" \
    "$(for c in 0x21 0x0a 0x0b; do
	[ "$(probes_sent protected $c)" -gt 0 ] && printf y; done)" yyy
# Snapshots from before quiet[] listed every node probed in nodes[], and
# those from before ib.gmp.key_probes hold one ib.gmp.key_probe
# observation per node and class: the same probes in those forms are
# judged alike.
jq '.observations |= map(if .kind == "ib.gmp.key_probes" then
    .data.nodes = ([.data.nodes[]] + [.data.quiet[] | . as $g |
    .targets[] | {target: ., state: $g.state} + ($g | {mad_status} |
    with_entries(select(.value != null)))] | sort_by(.target)) |
    del(.data.quiet) else . end)' "$T/protected/snapshot.json" \
    >"$T/listed.json"
jq '.observations |= ([.[] | select(.kind != "ib.gmp.key_probes")] +
    [.[] | select(.kind == "ib.gmp.key_probes") | .data as $d | $d.nodes[] |
    {id: ("kp-\($d.class)-\(.target)"), family: "ib",
     kind: "ib.gmp.key_probe", target, request: "Get", state,
     reason: (if .state == "complete" then null else "r" end),
     data: ({class: $d.class, attribute: $d.attribute} +
     del(.target, .state))}])' "$T/listed.json" >"$T/old.json"
results() {	# SNAPSHOT NAME: its results as `fabaudit check` gives them
	"$BIN" check -q -f json -c fixtures/ib/protected/policy.conf \
	    -o "$T/$2" "$1" >/dev/null 2>&1
	jq -r '.results[] | select(.id | test("^IB-(CC|VS|AM)KEY-UNSET$")) |
	    [.id, .status, .reason, (.evidence[0].value | tostring)] | @tsv' \
	    "$T/$2/report.json"
}
new=$(results "$T/protected/snapshot.json" new)
expect_eq "older snapshots: three key checks in the current form" \
    "$(printf '%s\n' "$new" | cut -f1 | sort | tr '\n' ' ')" \
    "IB-AMKEY-UNSET IB-CCKEY-UNSET IB-VSKEY-UNSET "
expect_eq "older snapshots: every node listed in nodes[], same results" \
    "$(results "$T/listed.json" listed)" "$new"
expect_eq "older snapshots: per-node key_probe observations, same results" \
    "$(results "$T/old.json" old)" "$new"
expect_eq "older snapshots: the converted copy has a probe per node" \
    "$(jq '[.observations[] | select(.kind == "ib.gmp.key_probe")] | length' "$T/old.json")" \
    "$(($(probes_sent protected 0x21) + $(probes_sent protected 0x0a) + $(probes_sent protected 0x0b)))"

expect_eq "--key-probes cc: scan exits 1" \
    "$(scan_agent protected --key-probes cc)" 1
r=$T/protected-probes-cc/report.json
expect_eq "--key-probes cc: CC probes sent, no vendor or SHARP MAD" \
    "$(probes_sent protected-probes-cc 0x21) $(probes_sent protected-probes-cc 0x0a) $(probes_sent protected-probes-cc 0x0b)" \
    "$(probes_sent protected 0x21) 0 0"
for e in IB-CCKEY-UNSET=not_tested IB-VSKEY-UNSET=not_tested \
    IB-AMKEY-UNSET=not_tested IB-MKEY-UNSET=fail IB-PKEY-ENFORCE-OFF=fail; do
	expect_eq "--key-probes cc: ${e%%=*} is ${e#*=}" \
	    "$(status "${e%%=*}" "$r")" "${e#*=}"
done
expect_eq "--key-probes cc: the CC check still counts what it probed" \
    "$(jq -r '.results[] | select(.id == "IB-CCKEY-UNSET") | "\(.evidence[2].value) \(.evidence[3].value)"' "$r")" "2 3"
expect_eq "--key-probes cc: VS and AM say they were left out" \
    "$(jq -r '[.results[] | select(.id == "IB-VSKEY-UNSET" or .id == "IB-AMKEY-UNSET") | .reason] | join("|")' "$r")" \
    "the scan was told not to probe for the VS_Key (--key-probes without vs)|the scan was told not to probe for the AM_Key (--key-probes without am)"
expect_eq "--key-probes cc: only CC probes in the snapshot, which says so" \
    "$(jq -r '"\([.observations[] | select(.kind == "ib.gmp.key_probes") | .data.class] | unique | join(",")) \(.scan.ib_options.key_probes | join(","))"' "$T/protected-probes-cc/snapshot.json")" \
    "cc cc"
expect_eq "--key-probes none: scan exits 1" \
    "$(scan_agent protected --key-probes none)" 1
expect_eq "--key-probes none: no key probe sent" \
    "$(probes_sent protected-probes-none 0x21) $(probes_sent protected-probes-none 0x0a) $(probes_sent protected-probes-none 0x0b)" \
    "0 0 0"
expect_eq "--key-probes none: the three checks are not_tested, saying why" \
    "$(jq -r '[.results[] | select(.id | test("^IB-(CC|VS|AM)KEY-UNSET$")) | "\(.status):\(.reason | test("told not to probe"))"] | join(" ")' "$T/protected-probes-none/report.json")" \
    "not_tested:true not_tested:true not_tested:true"
expect_eq "--key-probes none: offline check of its snapshot says the same" \
    "$("$BIN" check -q -f json -c fixtures/ib/protected/policy.conf \
        -o "$T/recheck" "$T/protected-probes-none/snapshot.json" >/dev/null 2>&1; \
        jq -r '[.results[] | select(.id | test("^IB-(CC|VS|AM)KEY-UNSET$")) | .reason | test("told not to probe")] | unique | join(" ")' "$T/recheck/report.json")" \
    true

# --active: the level-1 switches (M_Key read as 0) have a 60 s lease, so
# a wrong-key Set would start their countdown to unprotection: they are
# recorded as not probed, and no Set is sent at all.
expect_eq "protected --active: scan exits 1" "$(scan_agent protected --active)" 1
expect_eq "protected --active: no Set to ports with a lease" \
    "$(grep -c 'method=0x02' "$T/protected-active.agent.log")" 0
expect_eq "protected --active: both switches recorded as not probed" \
    "$(jq -r '[.observations[] | select(.kind == "ib.active.mkey_set") | .state] | join(" ")' "$T/protected-active/snapshot.json")" \
    "not_collected not_collected"
expect_eq "protected --active: the scan says it was active" \
    "$(jq -r .scan.active "$T/protected-active/report.json")" true

# hardened: every M_Key hidden at level 1, enforcement on every CA-facing
# port, keyed classes protected: the pass forms a tenant can see.
expect_eq "hardened: scan exits 1 (SMPs still reach every SMA)" \
    "$(scan_agent hardened)" 1
r=$T/hardened/report.json
for e in IB-MKEY-UNSET=not_tested IB-MKEY-READABLE=pass \
    IB-MKEY-PROTECT-LOW=fail IB-SMKEY-DISCLOSED=pass \
    IB-SMKEY-DEFAULT=not_tested IB-PKEY-ENFORCE-OFF=pass \
    IB-CCKEY-UNSET=not_tested IB-VSKEY-UNSET=not_tested \
    IB-AMKEY-UNSET=not_tested IB-XTENANT-REACHABLE=pass; do
	expect_eq "hardened: ${e%%=*} is ${e#*=}" "$(status "${e%%=*}" "$r")" "${e#*=}"
done
expect_eq "hardened --active: scan exits 1" "$(scan_agent hardened --active)" 1
expect_eq "hardened --active: IB-MKEY-UNSET passes: every wrong-key Set dropped" \
    "$(status IB-MKEY-UNSET "$T/hardened-active/report.json")" pass
expect_eq "hardened --active: P_Key-checked GMPs reach no zeta port" \
    "$(status IB-XTENANT-REACHABLE "$T/hardened-active/report.json")" pass
expect_eq "hardened --active: the GMPs that matched a P_Key were answered" \
    "$(jq -r '[.observations[] | select(.kind == "ib.active.gmp_reach" and .state == "complete") | "\(.data.node_desc)=\(.data.pkey)"] | sort | join(",")' "$T/hardened-active/snapshot.json")" \
    "acme-gpu-02 mlx5_0=0x8001,ufm-sm01 mlx5_0=0x7fff"
expect_eq "hardened --active: every Set was a read-only NodeInfo Set" \
    "$(grep 'method=0x02' "$T/hardened-active.agent.log" | grep -vc 'attr=0x0011')" 0
expect_eq "hardened --active: one Set per port examined, all dropped" \
    "$(jq -r '[.observations[] | select(.kind == "ib.active.mkey_set") | .state] | "\(unique | join(",")) \(length)"' "$T/hardened-active/snapshot.json")" \
    "no_response 7"

# open-sa: an SA that answers P_Key table records to anyone.
expect_eq "open-sa: scan exits 1" "$(scan_agent open-sa)" 1
r=$T/open-sa/report.json
expect_eq "open-sa: IB-SA-DISCLOSURE fails" "$(status IB-SA-DISCLOSURE "$r")" fail
expect_eq "open-sa: IB-SAKEY-DEFAULT fails (records to SM_Key 0)" \
    "$(status IB-SAKEY-DEFAULT "$r")" fail

# vf-nosa: no SMP answered, not even ours, and no SA: nothing is judged.
expect_eq "vf-nosa: scan exits 0 (nothing failed, nothing passed)" \
    "$(scan_agent vf-nosa)" 0
expect_eq "vf-nosa: every IB result is not_tested" \
    "$(jq -r '[.results[].status] | unique | join(" ")' "$T/vf-nosa/report.json")" \
    not_tested
expect_grep "vf-nosa: the summary says nothing was decided" \
    'could not be decided' "$T/vf-nosa/report.txt"

# vf: every SMP from the tenant port is dropped; GMPs pass.
expect_eq "vf: scan exits 0 (nothing fails at or above high)" "$(scan_agent vf)" 0
r=$T/vf/report.json
expect_eq "vf: IB-SMP-UNRESTRICTED passes (SMPs filtered, SA answers)" \
    "$(status IB-SMP-UNRESTRICTED "$r")" pass
expect_eq "vf: what needs SMPs is not tested, never passed" \
    "$(jq -r '[.results[] | select(.id | test("MKEY|PKEY-ENFORCE|PKEY-DEFAULT|XTENANT")) | .status] | unique | join(" ")' "$r")" \
    not_tested
expect_eq "vf: the SA checks still run" \
    "$(status IB-SAKEY-DEFAULT "$r") $(status IB-SA-DISCLOSURE "$r")" "pass pass"

fa_done
