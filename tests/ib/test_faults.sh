#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fault scenarios on the simulated fabric (issue 8, "Faults"): MAD loss
# of 5, 20 and 50 % (ibsim's "Error" console command on the tenant's
# node: every packet entering one of its ports is dropped with that
# probability), a link going down and the SM disappearing mid-scan (the
# test agent pauses the scanner after its Nth MAD), the SA answering BUSY,
# malformed answers (truncated, wrong TID, wrong attribute, absurd counts
# and lengths), a node with 0 ports, and a chain of 255 switches (beyond
# the 64-hop directed-route limit).
#
# Every fault run is compared with a fault-free run of the same fixture:
# a result that passes under the fault where the fault-free run does not
# pass is a FALSE PASS.  Random loss makes runs differ, so the assertions
# are about honesty: no false pass, the report states the MADs lost, every
# result that is not pass/fail says why, and the scanner neither crashes
# nor hangs (exit 0, 1 or 3 and a complete report).
# Prints FIGURE fault_scenarios N and FIGURE false_passes N.
# usage: tests/ib/test_faults.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_faults.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
AGENT=$(cd "$B" && pwd)/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SCEN=0 FALSE=0

if [ ! -x "$BIN" ] || [ ! -f "$AGENT" ]; then
	fa_fail "fabaudit or the test agent not built in $B"
	fa_done
	exit
fi

# false_passes BASE FAULT: "ID TARGET" of each result that passes in
# FAULT where BASE (same id and target) does not pass; a target BASE does
# not have counts when no result of that id passes in BASE.
false_passes() {
	jq -rn --slurpfile b "$1" --slurpfile f "$2" '
	    ($b[0].results // []) as $B |
	    ($f[0].results // [])[] | select(.status == "pass") | . as $r |
	    [$B[] | select(.id == $r.id and .target == $r.target)] as $m |
	    select(if ($m | length) > 0 then $m[0].status != "pass"
	        else ([$B[] | select(.id == $r.id and .status == "pass")] |
	        length) == 0 end) | "\(.id) \(.target)"'
}

# judge NAME BASE_DIR FAULT_DIR RC [lost]: the honesty assertions for one
# fault run; "lost" also wants the report to state MADs lost > 0.
judge() {
	n=$1 b=$2/report.json f=$3/report.json rc=$4
	SCEN=$((SCEN + 1))
	case $rc in 0|1|3) fa_pass "$n: scan ended normally (exit $rc)" ;;
	*) fa_fail "$n: scan exit status $rc"; sed 's/^/    /' "$3.err" | head -5 ;;
	esac
	if ! jq -e '.results | length > 0' "$f" >/dev/null 2>&1; then
		fa_fail "$n: no complete report.json"
		return
	fi
	fp=$(false_passes "$b" "$f")
	if [ -n "$fp" ]; then
		c=$(printf '%s\n' "$fp" | wc -l)
		FALSE=$((FALSE + c))
		fa_fail "$n: $c false pass(es): $(printf '%s' "$fp" | tr '\n' ';')"
	else
		fa_pass "$n: no false pass"
	fi
	expect_eq "$n: every IB result not pass/fail says why" \
	    "$(jq '[.results[] | select(.family == "ib" and .status != "pass" and .status != "fail") | select((.reason // "") == "")] | length' "$f")" 0
	if [ "${5:-}" = lost ]; then
		# Absent classes (VS, AM) are silent even without loss.
		expect_eq "$n: report.json states more MADs lost than without" \
		    "$(jq -n --slurpfile b "$b" --slurpfile f "$f" \
		    '($f[0].families.ib.mads.lost // 0) > ($b[0].families.ib.mads.lost // 1e9)')" true
		expect_grep "$n: report.txt states the MADs lost" \
		    'MADs: [0-9]+ sent, [1-9][0-9]* lost' "$3/report.txt"
	fi
}

# scan OUT [OPTION...]: one scan (from inside with-fabric.sh) into $T/OUT.
# The test agent lives in the scanner's process and writes its log and
# state where this user can: --user keeps the scan as this user (as root
# it would drop to nobody).
cat >"$T/scan.sh" <<'EOF'
o=$1
shift
"$FA_BIN" scan --ib -q -c "$FA_SCENARIO_DIR/policy.conf" -o "$FA_T/$o" \
    --user "$(id -un)" "$@" 2>"$FA_T/$o.err"
echo $? >"$FA_T/$o.rc"
EOF
export FA_BIN="$BIN" FA_T="$T"
fab() {	# fab FIXTURE SCRIPT: run SCRIPT (sh -c) on the fixture's fabric
	LD_PRELOAD=$AGENT tests/ib/with-fabric.sh "fixtures/ib/$1" -- \
	    sh -c "$2" 2>"$T/fabric.err"
	wf=$?
	expect_eq "fabric $1 came up and the script ran" "$wf" 0
	[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric.err" | sed 's/^/    /'
}
rc() { cat "$T/$1.rc" 2>/dev/null || echo none; }

# --- offline: the no-pass rule on a recorded scan -------------------------
# The careless fixture snapshot, re-evaluated with the facts a faulty scan
# records (checks/ib_topo.c fa_ib_unsteady): it passes 2 IB checks as it
# is, none once loss, malformed answers, an incomplete topology or an SA
# gone mid-scan are recorded, and fails just as much.
SNAP=fixtures/reports/careless.snapshot.json
ENG='(.observations[] | select(.kind == "ib.engine") | .data)'
offline() {	# offline NAME JQ-FILTER: $T/off-NAME/report.json
	jq "$2" "$SNAP" >"$T/off-$1.json" &&
	    "$BIN" check -q -o "$T/off-$1" "$T/off-$1.json" 2>"$T/off-$1.err"
	case $? in 0|1) ;; *) fa_fail "offline $1: check failed"; cat "$T/off-$1.err" ;; esac
}
ibcount() {	# ibcount NAME STATUS
	jq --arg s "$2" '[.results[] | select(.family == "ib" and .status == $s)] | length' "$T/off-$1/report.json"
}
offline steady .
offline recovered "$ENG |= . + {recovered: 3}"
offline recovered-nothing-silent "$ENG |= . + {recovered: 3, unanswered: 0}"
offline malformed "$ENG |= . + {malformed: 1}"
offline incomplete '(.observations[] | select(.kind == "ib.topology")) |= . + {state: "incomplete", reason: "TOPOLOGY CUT"}'
offline sa-gone '.observations += [{family: "ib", id: "ib.sa.alive_after#1", kind: "ib.sa.alive_after", target: "sa", request: "x", state: "no_response", reason: "no response after 3 sends", data: {mad_status: 0, sends: 3}}]'
expect_eq "offline: the fixture passes 2 IB checks as recorded" \
    "$(ibcount steady pass)" 2
# A scan that did not reach the whole fabric passes nothing but what the
# tenant port alone decides (its P_Key table, the SA's answers about it).
OWN='IB-PKEY-DEFAULT-FULL IB-SAKEY-DEFAULT IB-SA-DISCLOSURE'
expect_eq "offline incomplete: no other IB check passes or is not applicable" \
    "$(jq --arg l "$OWN" '($l | split(" ")) as $x | [.results[] |
    select(.family == "ib" and (.id | IN($x[]) | not) and
    (.status == "pass" or .status == "not_applicable"))] | length' \
    "$T/off-incomplete/report.json")" 0
expect_eq "offline incomplete: the tenant port's own checks keep their verdicts" \
    "$(jq -r --arg l "$OWN" '($l | split(" ")) as $x | [.results[] |
    select(.id | IN($x[])) | .status] | join(" ")' \
    "$T/off-incomplete/report.json")" \
    "$(jq -r --arg l "$OWN" '($l | split(" ")) as $x | [.results[] |
    select(.id | IN($x[])) | .status] | join(" ")' \
    "$T/off-steady/report.json")"
for o in incomplete sa-gone; do
	expect_eq "offline $o: the failures stay" "$(ibcount $o fail)" \
	    "$(ibcount steady fail)"
done
# The SA gone: what reads the SM or SA passes nothing; what the SMAs
# answered (they answer with or without an SM) keeps its verdict.
SASM='IB-SAKEY-DEFAULT IB-SM-UNEXPECTED IB-SMKEY-DISCLOSED
IB-SMP-UNRESTRICTED IB-XTENANT-REACHABLE IB-PKEY-SHARED'
verdicts() {	# verdicts NAME: "id target status" of the SMP-only checks
	jq -r --arg l "$SASM" '($l | split("\\s+"; null)) as $x |
	    .results[] | select(.family == "ib" and (.id | IN($x[]) | not)) |
	    "\(.id) \(.target) \(.status)"' "$T/off-$1/report.json"
}
expect_eq "offline sa-gone: no check that reads the SM or SA passes" \
    "$(jq --arg l "$SASM" '($l | split("\\s+"; null)) as $x |
    [.results[] | select((.id | IN($x[])) and
    (.status == "pass" or .status == "not_applicable"))] | length' \
    "$T/off-sa-gone/report.json")" 0
expect_eq "offline sa-gone: the SMP-only checks keep their verdicts" \
    "$(verdicts sa-gone)" "$(verdicts steady)"
verdicts steady >"$T/smp-steady"
expect_grep "offline sa-gone: ... some of which pass or do not apply" \
    ' (pass|not_applicable)$' "$T/smp-steady"
# Loss elsewhere degrades nothing: each observation records its own fate
# (an answer after a retry is complete), and the checks read only theirs.
for o in recovered recovered-nothing-silent malformed; do
	expect_eq "offline $o: the passes stay, loss touched none of them" \
	    "$(ibcount $o pass)" 2
	expect_eq "offline $o: the failures stay" "$(ibcount $o fail)" \
	    "$(ibcount steady fail)"
done
expect_grep "offline incomplete: the reason carries the topology's" \
    'would pass \(.*\), but TOPOLOGY CUT' "$T/off-incomplete/report.json"
expect_grep "offline sa-gone: the reason says the SA stopped answering" \
    'the SA stopped answering during the scan' "$T/off-sa-gone/report.json"

# --- loss (ibsim Error), malformed answers, SA BUSY, 0 ports -------------
# One fabric per fixture: the fault-free scan first, then each fault.
# Loss: retries raised (the simulator returns a dropped MAD at once).
S="sh $T/scan.sh"
LOSS="--retries 5 --timeout 200"
printf 'mangle sa any truncate\n' >"$T/m-sa-truncate.conf"
printf 'mangle sa any tid\n' >"$T/m-sa-tid.conf"
printf 'mangle sa any attr\n' >"$T/m-sa-attr.conf"
printf 'mangle sa any count\n' >"$T/m-sa-count.conf"
printf 'mangle sa any length\n' >"$T/m-sa-length.conf"
printf 'mangle smp 0x0020 truncate\n' >"$T/m-smp-sminfo-truncate.conf"
printf 'mangle smp 0x0020 attr\n' >"$T/m-smp-sminfo-attr.conf"
printf 'mangle smp 0x0016 truncate\n' >"$T/m-smp-pkey-truncate.conf"
printf 'mangle smp 0x0015 tid\n' >"$T/m-smp-portinfo-tid.conf"
printf 'mangle smp 0x0011 count\n' >"$T/m-smp-nodeinfo-count.conf"
printf 'sa busy\n' >"$T/sa-busy.conf"
printf 'numports 0x7cfe900300b4a200 0\n' >"$T/zero-switch.conf"
printf 'numports 0x0002c90300c3d4e0 0\n' >"$T/zero-ca.conf"
MANGLES="m-sa-truncate m-sa-tid m-sa-attr m-sa-count m-sa-length
m-smp-sminfo-truncate m-smp-sminfo-attr m-smp-pkey-truncate
m-smp-portinfo-tid m-smp-nodeinfo-count sa-busy zero-switch zero-ca"

for fx in careless careful; do
	script="FA_AGENT_SCENARIO= $S $fx-base"
	for p in 5 20 50; do
		script="$script
		tests/ib/ibsim-ctl.sh 'Error \"acme-gpu-01\" $p' &&
		    FA_AGENT_SCENARIO= $S $fx-loss$p $LOSS"
	done
	script="$script
	tests/ib/ibsim-ctl.sh 'Error \"acme-gpu-01\" 0'"
	if [ $fx = careless ]; then
		for m in $MANGLES; do
			script="$script
			FA_AGENT_SCENARIO=$T/$m.conf $S $fx-$m --timeout 200"
		done
	fi
	fab $fx "$script"
	for p in 5 20 50; do
		judge "$fx, ${p} % MAD loss" "$T/$fx-base" "$T/$fx-loss$p" \
		    "$(rc $fx-loss$p)" lost
	done
	[ $fx = careless ] || continue
	for m in $MANGLES; do
		judge "$fx, $m" "$T/$fx-base" "$T/$fx-$m" "$(rc $fx-$m)"
	done
done

# The fault-free careless scan is what the others are judged against:
# make sure it has real failures and says how many MADs it sent.
expect_eq "careless fault-free: has failures to be falsely passed" \
    "$(jq '[.results[] | select(.status == "fail")] | length > 5' "$T/careless-base/report.json")" true
expect_eq "careless fault-free: the report states MADs sent and lost" \
    "$(jq '.families.ib.mads | (.sent > 0) and (.lost >= 0) and (.malformed == 0)' "$T/careless-base/report.json")" true
expect_grep "careless fault-free: report.txt states them" \
    '^InfiniBand MADs: [1-9][0-9]* sent, [0-9]+ lost, [0-9]+ retried, [0-9]+ unanswered, 0 malformed\.$' \
    "$T/careless-base/report.txt"

# protected, through its agent scenario: loss on top of M_Key protection.
fab protected "FA_AGENT_SCENARIO=\$FA_SCENARIO_DIR/agent.conf $S protected-base
	tests/ib/ibsim-ctl.sh 'Error \"acme-gpu-01\" 20' &&
	FA_AGENT_SCENARIO=\$FA_SCENARIO_DIR/agent.conf $S protected-loss20 $LOSS"
judge "protected, 20 % MAD loss" "$T/protected-base" "$T/protected-loss20" \
    "$(rc protected-loss20)" lost

# --- mid-scan: a link down, the SM gone ----------------------------------
# The agent pauses the scanner at its Nth MAD (discovery sends about 100
# on this fabric); the fabric is changed; the scan goes on.
# midscan NAME N COMMAND: COMMAND runs while the scanner is paused.
midscan() {
	printf 'pause_after %s\n' "$2" >"$T/$1.conf"
	fab careless "
	FA_AGENT_PAUSE=$T/$1.pause FA_AGENT_SCENARIO=$T/$1.conf \
	    $S careless-$1 --timeout 200 &
	i=0
	while [ ! -e $T/$1.pause ] && [ \$i -lt 300 ]; do
		sleep 0.1; i=\$((i + 1)); done
	test -e $T/$1.pause && echo paused >$T/$1.paused
	$3
	rm -f $T/$1.pause
	wait"
	expect_eq "$1: the scanner was paused mid-scan" \
	    "$(cat "$T/$1.paused" 2>/dev/null)" paused
	judge "careless, $1" "$T/careless-base" "$T/careless-$1" \
	    "$(rc careless-$1)"
}
midscan link-down-discovery 40 \
    "tests/ib/ibsim-ctl.sh 'Unlink \"ib-leaf01\"[3]'"
midscan link-down-audit 105 \
    "tests/ib/ibsim-ctl.sh 'Unlink \"ib-leaf01\"[3]' 'Unlink \"ib-leaf02\"[2]'"
midscan sm-link-down 105 \
    "tests/ib/ibsim-ctl.sh 'Unlink \"ib-leaf01\"[1]'"
midscan sm-gone 105 "kill -KILL \$FA_OPENSM_PID"

# --- a chain of 255 switches ---------------------------------------------
# The tenant and the SM at one end, a foreign CA 255 switches away.
# Directed routes end at 64 hops (IBA vol. 1 14.2.2) and OpenSM's reach
# too: most of the chain cannot be reached, and nothing may pass or be
# "not applicable" for want of what lies beyond.
# chain_fixture DIR N: a chain of N switches; the SM and the tenant on the
# first, a foreign CA on the last (N hops away).
chain_fixture() {
	d=$1 n=$2
	mkdir -p "$d"
	cp fixtures/ib/careless/opensm.conf fixtures/ib/careless/partitions.conf \
	    fixtures/ib/careless/policy.conf "$d/"
	printf 'SM_HOST=ufm-sm01\nTENANT_HOST=acme-gpu-01\n' >"$d/scenario"
	awk -v n="$n" 'BEGIN {
		print "devid=0xcf08"
		for (i = 1; i <= n; i++) {
			printf "\nvendid=0x02c9\nswitchguid=0x7cfe9003%08x\n", i
			printf "Switch\t3 \"sw%d\"\t# \"chain sw%d\" enhanced port 0 lid 0 lmc 0\n", i, i
			if (i == 1) {
				print "[1]\t\"ufm-sm01\"[1]"
				print "[2]\t\"acme-gpu-01\"[1]"
			} else
				printf "[1]\t\"sw%d\"[3]\n", i - 1
			if (i < n)
				printf "[3]\t\"sw%d\"[1]\n", i + 1
			else
				print "[2]\t\"zeta-gpu-01\"[1]"
		}
		print "\ndevid=0x1017"
		split("ufm-sm01 acme-gpu-01 zeta-gpu-01", h, " ")
		split("0x0002c90300f1e000 0x0002c90300a1b2c0 0x0002c90300c3d4e0", g, " ")
		for (k = 1; k <= 3; k++) {
			printf "\nvendid=0x02c9\ncaguid=%s\n", g[k]
			printf "Hca\t1 \"%s\"\t# \"%s mlx5_0\"\n", h[k], h[k]
			printf "[1]\t\"sw%d\"[%d]\n", k == 3 ? n : 1, k == 3 ? 2 : k
		}
	}' >"$d/net"
}
chain_fixture "$T/chain255" 255
LD_PRELOAD=$AGENT tests/ib/with-fabric.sh "$T/chain255" -- \
    sh -c "FA_AGENT_SCENARIO= $S chain255" 2>"$T/fabric.err"
wf=$?
expect_eq "fabric chain255 came up and the script ran" "$wf" 0
[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric.err" | sed 's/^/    /'
SCEN=$((SCEN + 1))
r=$T/chain255/report.json
case $(rc chain255) in
0|1|3) fa_pass "255-hop chain: scan ended normally (exit $(rc chain255))" ;;
*) fa_fail "255-hop chain: scan exit status $(rc chain255)" ;;
esac
expect_eq "255-hop chain: discovery went 63 hops deep, no further" \
    "$(jq '.observations[] | select(.kind == "ib.topology") | .data.max_hops' "$T/chain255/snapshot.json")" 63
expect_eq "255-hop chain: the topology is marked incomplete" \
    "$(jq -r '.observations[] | select(.kind == "ib.topology") | .state' "$T/chain255/snapshot.json")" incomplete
# Only what the tenant port alone decides ($OWN) may pass.
c=$(jq --arg l "$OWN" '($l | split(" ")) as $x | [.results[] |
    select(.family == "ib" and (.id | IN($x[]) | not) and
    (.status == "pass" or .status == "not_applicable"))] | length' "$r")
FALSE=$((FALSE + c))
expect_eq "255-hop chain: no other IB check passes or is not applicable" \
    "$c" 0
expect_eq "255-hop chain: what was not reached is not_tested, saying why" \
    "$(jq '[.results[] | select(.id == "IB-XTENANT-REACHABLE" or .id == "IB-SM-UNEXPECTED") | select(.status == "not_tested" and (.reason | test("directed-route limit of 64 hops")))] | length' "$r")" 2
expect_eq "255-hop chain: what it did see still fails" \
    "$(jq -r '.results[] | select(.id == "IB-MKEY-UNSET") | .status' "$r")" fail

echo "FIGURE fault_scenarios $SCEN"
echo "FIGURE false_passes $FALSE"
expect_eq "no false pass across $SCEN fault scenarios" "$FALSE" 0
if [ "${FA_FAULTS_KEEP:-}" != "" ]; then
	rm -rf "$FA_FAULTS_KEEP"
	cp -r "$T" "$FA_FAULTS_KEEP"
fi
fa_done
