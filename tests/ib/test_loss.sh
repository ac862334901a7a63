#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Loss degrades only what it touched (issue 21): MAD loss on one remote
# switch (ibsim's "Error" console command on ib-leaf02 of the careful
# fixture; the tenant, the SM and the SA hang off ib-leaf01) with retries
# raised.  Retries recover the lost MADs, so the checks that read nothing
# from that switch (the SA key checks, the SM's SMInfo, the tenant's own
# P_Key table) keep the verdicts of the fault-free run, and so does every
# other pass; the engine's counters add up (lost = recovered +
# unanswered, and every request finished is answered, unanswered, silent,
# a send error or cut); the probes whose expected answer is silence (the
# wrong-key SA query, the key probes of classes the simulator has no
# agent for) are counted as silent, never as lost.
# usage: tests/ib/test_loss.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_loss.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
AGENT=$(cd "$B" && pwd)/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$BIN" ] || [ ! -f "$AGENT" ]; then
	fa_fail "fabaudit or the test agent not built in $B"
	fa_done
	exit
fi
export FA_BIN="$BIN" FA_T="$T"
export FA_WAIT_ACTIVE="$PWD/tests/ib/wait-active.sh"
cat >"$T/scan.sh" <<'EOS'
o=$1
shift
sh "$FA_WAIT_ACTIVE"
"$FA_BIN" scan --ib -q -c "$FA_SCENARIO_DIR/policy.conf" -o "$FA_T/$o" \
    --user "$(id -un)" "$@" 2>"$FA_T/$o.err"
echo $? >"$FA_T/$o.rc"
EOS
S="sh $T/scan.sh"
OPTS="--retries 6 --timeout 200"
LEVELS="5 20"
script="FA_AGENT_SCENARIO= $S base $OPTS"
for p in $LEVELS; do
	script="$script
	tests/ib/ibsim-ctl.sh 'Error \"ib-leaf02\" $p' &&
	    FA_AGENT_SCENARIO= $S loss$p $OPTS"
done
LD_PRELOAD=$AGENT tests/ib/with-fabric.sh fixtures/ib/careful -- \
    sh -c "$script" 2>"$T/fabric.err"
wf=$?
expect_eq "fabric careful came up and the scans ran" "$wf" 0
[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric.err" | sed 's/^/    /'

eng() {	# eng RUN JQ: on the ib.engine counters of RUN's snapshot
	jq "[.observations[] | select(.kind == \"ib.engine\")][0] | $2" \
	    "$T/$1/snapshot.json" 2>/dev/null
}
verdict() {	# verdict RUN CHECK: its status (first result)
	jq -r --arg c "$2" '[.results[] | select(.id == $c)][0].status' \
	    "$T/$1/report.json" 2>/dev/null
}
ADD='.data | (.lost == .recovered + .unanswered) and
    (.finished == .answered + .unanswered + .silent + .send_errors + .cut)'

# The fault-free run: silence that is the expected answer is not loss.
expect_eq "base: scan ended normally" "$(cat "$T/base.rc" 2>/dev/null)" 1
expect_eq "base: the engine's counters add up" "$(eng base "$ADD")" true
expect_eq "base: nothing lost, the wrong-key SA query and the key probes no agent answers counted as silent" \
    "$(eng base '.data | (.lost == 0) and (.lost_sends == 0) and (.unanswered == 0) and (.silent > 0)')" true
expect_eq "base: the engine observation is complete" \
    "$(eng base .state)" '"complete"'
expect_eq "base: libibnetdisc's SMPs passed through the discovery tap" \
    "$(eng base .data.discovery.tapped)" true
# The time inside libibnetdisc (what the bench divides discovery's SMPs
# by) is part of the discovery phase's, never more.
expect_eq "base: discovery's walk_ms is within its ms" \
    "$(eng base '.data.discovery | (.walk_ms >= 0 and .walk_ms <= .ms)')" true

for p in $LEVELS; do
	r=loss$p
	case $(cat "$T/$r.rc" 2>/dev/null) in
	0|1) fa_pass "$p % loss on ib-leaf02: scan ended normally" ;;
	*) fa_fail "$p % loss on ib-leaf02: scan exit $(cat "$T/$r.rc" 2>/dev/null)"
	   head -5 "$T/$r.err" 2>/dev/null | sed 's/^/    /' ;;
	esac
	expect_eq "$p % loss: the engine's counters add up" \
	    "$(eng "$r" "$ADD")" true
	expect_eq "$p % loss: MADs were lost (discovery or audit)" \
	    "$(eng "$r" '(.data.lost_sends + .data.discovery.lost_sends) > 0')" true
	expect_eq "$p % loss: the retries recovered every lost MAD" \
	    "$(eng "$r" '.data.unanswered')" 0
	expect_eq "$p % loss: the topology is complete" \
	    "$(jq -r '.observations[] | select(.kind == "ib.topology") | .state' "$T/$r/snapshot.json" 2>/dev/null)" complete
	# What reads nothing from ib-leaf02 keeps its verdict.
	for c in IB-SAKEY-DEFAULT IB-SA-DISCLOSURE IB-SMKEY-DEFAULT \
	    IB-PKEY-DEFAULT-FULL IB-SMKEY-DISCLOSED; do
		expect_eq "$p % loss: $c as without loss" \
		    "$(verdict "$r" "$c")" "$(verdict base "$c")"
	done
	expect_eq "$p % loss: every pass of the fault-free run still passes" \
	    "$(jq -n --slurpfile b "$T/base/report.json" \
	    --slurpfile f "$T/$r/report.json" '[$b[0].results[] |
	    select(.status == "pass") | . as $x | $f[0].results[] |
	    select(.id == $x.id and .target == $x.target and
	    .status != "pass") | .id]')" "[]"
	expect_eq "$p % loss: no result says that silence proves nothing" \
	    "$(jq '[.results[] | select((.reason // "") | test("silence proves nothing"))] | length' "$T/$r/report.json")" 0
done
fa_done
