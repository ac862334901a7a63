#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Silent and lossy parts of a real fabric (issue 21), on ibsim + a real
# opensm, through ibsim's "Error" console command (tests/ib/ibsim-ctl.sh):
#   - a switch that answers nothing (Error "ib-leaf02" 100): the link that
#     leads to it is up and its peer never answered, so the checks that
#     speak for every port are not_tested naming that port, what was seen
#     still fails, and what reads nothing behind it keeps its verdict;
#   - one attribute never answered: NodeDescription (attribute 0x10) of a
#     foreign and of a tenant node, P_KeyTable (0x16) of a foreign node,
#     PortInfo (0x15) of a foreign CA and of a whole switch: an unanswered
#     attribute is unknown, never a value (no false fail blaming the
#     tenant's own node, no false pass over a port whose LID is unknown);
#   - MAD loss of 50 % on one switch (5 and 20 %: test_loss.sh), and of 5,
#     20 and 50 % on every switch and on every node, with retries: no
#     false pass, no false fail, the engine's counters add up, and each
#     verdict lost says what was not seen (or why what was seen cannot
#     decide: an SM that lost the nodes itself returns no path);
#   - the SM killed before the scan: what the nodes' SMAs answer (they
#     answer with or without an SM) keeps its verdict, what reads the SM
#     or the SA passes nothing.
# Every verdict expected here follows from the fabric (fixtures/ib/README:
# careful, careless) and the IBA, not from a previous run: the fault-free
# scan of the same fabric is the reference, and what a fault may change is
# stated per scenario.
# usage: tests/ib/test_silent.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_silent.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap '[ -n "${FA_KEEP:-}" ] || rm -rf "$T"' EXIT

if [ ! -x "$BIN" ]; then
	fa_fail "fabaudit not built in $B"
	fa_done
	exit
fi
export FA_BIN="$BIN" FA_T="$T"
export FA_WAIT_ACTIVE="$PWD/tests/ib/wait-active.sh"
# A tenant scans an Active port: a run whose port OpenSM still held in
# INIT after the wait (under loss on every node it may re-sweep for
# minutes) is marked, and judged as a skip, not as the scan's failure.
cat >"$T/scan.sh" <<'EOS'
o=$1
shift
sh "$FA_WAIT_ACTIVE"
ibstat 2>/dev/null | grep -q 'State: Active' || : >"$FA_T/$o.inactive"
"$FA_BIN" scan --ib -q -c "$FA_SCENARIO_DIR/policy.conf" -o "$FA_T/$o" \
    --user "$(id -un)" --timeout 200 "$@" 2>"$FA_T/$o.err"
echo $? >"$FA_T/$o.rc"
EOS
S="sh $T/scan.sh"
C=tests/ib/ibsim-ctl.sh
# Node and port GUIDs of the fixture fabric (fixtures/ib/careful/net).
LEAF1=0x7cfe900300b4a1c0 LEAF2=0x7cfe900300b4a200
ZETA2=0x0002c90300c3d4f0

# --- the careful fabric: every fault on one fabric, the SM killed last ----
script="$S base
$C 'Error \"ib-leaf02\" 100' && $S silent-switch; $C 'Error \"ib-leaf02\" 0'
$C 'Error \"zeta-gpu-02\"[1] 100 16' && $S nd-foreign
$C 'Error \"zeta-gpu-02\"[1] 0 16' 'Error \"zeta-gpu-02\"[1] 100 22' &&
    $S pkt-foreign
$C 'Error \"zeta-gpu-02\"[1] 0 22' 'Error \"zeta-gpu-02\"[1] 100 21' &&
    $S pi-foreign
$C 'Error \"zeta-gpu-02\"[1] 0 21' 'Error \"ib-leaf02\" 100 21' &&
    $S pi-switch
$C 'Error \"ib-leaf02\" 0 21' 'Error \"ib-leaf02\" 50' &&
    $S loss50-leaf --retries 6
$C 'Error \"ib-leaf02\" 0'"
# Loss on every switch, then on every node (ibsim drops a packet entering
# a port of a node so marked), at 5, 20 and 50 %, each set once the
# tenant's port is Active again after the level before (OpenSM, losing
# MADs too, may have taken it back to INIT).
SWITCHES="ib-leaf01 ib-leaf02"
NODES="$SWITCHES ufm-sm01 acme-gpu-01 acme-gpu-02 zeta-gpu-01 zeta-gpu-02"
LOSS=
for p in 5 20 50; do
	for w in switches all; do
		[ $w = switches ] && set -- $SWITCHES || set -- $NODES
		script="$script
sh \$FA_WAIT_ACTIVE"
		for n; do script="$script
$C 'Error \"$n\" $p'"; done
		script="$script
$S loss$p-$w --retries 6"
		LOSS="$LOSS loss$p-$w"
		for n; do script="$script
$C 'Error \"$n\" 0'"; done
	done
done
script="$script
sh \$FA_WAIT_ACTIVE; kill \$FA_OPENSM_PID; sleep 1; $S sm-gone"
tests/ib/with-fabric.sh fixtures/ib/careful -- sh -c "$script" \
    2>"$T/fabric.err"
wf=$?
expect_eq "careful fabric came up and the scans ran" "$wf" 0
[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric.err" | sed 's/^/    /'

# --- the careless fabric: lost NodeDescriptions where findings exist ------
script="$S cl-base
$C 'Error \"zeta-gpu-02\"[1] 100 16' 'Error \"acme-gpu-02\"[1] 100 16' &&
    $S cl-nd"
tests/ib/with-fabric.sh fixtures/ib/careless -- sh -c "$script" \
    2>"$T/fabric-cl.err"
wf=$?
expect_eq "careless fabric came up and the scans ran" "$wf" 0
[ "$wf" -eq 0 ] || tail -n 5 "$T/fabric-cl.err" | sed 's/^/    /'

# --- helpers ----------------------------------------------------------------
st() {	# st RUN CHECK [TARGET]: the status of its result (the first one)
	jq -r --arg c "$2" --arg t "${3:-}" '[.results[] | select(.id == $c
	    and ($t == "" or .target == $t))][0].status' \
	    "$T/$1/report.json" 2>/dev/null
}
why() {	# why RUN CHECK: the reason of its first result
	jq -r --arg c "$2" '[.results[] | select(.id == $c)][0].reason' \
	    "$T/$1/report.json" 2>/dev/null
}
reason_has() {	# reason_has NAME RUN CHECK ERE: its first reason matches
	why "$2" "$3" >"$T/why"
	expect_grep "$1" "$4" "$T/why"
}
ran() {	# ran RUN: the scan ended normally with a whole report
	case $(cat "$T/$1.rc" 2>/dev/null) in
	0|1) expect_eq "$1: scan ended normally, with a report" \
	    "$(jq '.results | length > 0' "$T/$1/report.json" 2>/dev/null)" \
	    true ;;
	*) fa_fail "$1: scan exit $(cat "$T/$1.rc" 2>/dev/null)"
	   head -5 "$T/$1.err" 2>/dev/null | sed 's/^/    /' ;;
	esac
}
# changed BASE RUN FROM TO: "id target" of each result that is FROM in
# BASE and TO in RUN (same id and target); FROM/TO are jq regexes.
changed() {
	jq -rn --slurpfile b "$T/$1/report.json" \
	    --slurpfile f "$T/$2/report.json" --arg from "$3" --arg to "$4" '
	    $b[0].results[] | select(.family == "ib" and
	    (.status | test("^(" + $from + ")$"))) | . as $x |
	    $f[0].results[] | select(.id == $x.id and .target == $x.target and
	    (.status | test("^(" + $to + ")$"))) | "\(.id) \(.target)"'
}
# What a reason says when an observation was lost or cannot decide.
UNSEEN='no response|unanswered|not observed|no usable answer|did not answer'
UNSEEN="$UNSEEN|not reached|lost|timed out|proves nothing"
# honest BASE RUN: no false pass, no false fail; every verdict the fault
# took away (not_tested or error where BASE decided) says what was lost.
honest() {
	expect_eq "$2: no false pass (pass where the fault-free run is not)" \
	    "$(changed "$1" "$2" 'fail|not_tested|error|not_applicable' pass)" ""
	expect_eq "$2: no false fail (fail where the fault-free run is not)" \
	    "$(changed "$1" "$2" 'pass|not_tested|error|not_applicable' fail)" ""
	expect_eq "$2: each verdict lost says what was not seen" \
	    "$(jq -rn --slurpfile b "$T/$1/report.json" --arg w "$UNSEEN" \
	    --slurpfile f "$T/$2/report.json" '$b[0].results[] |
	    select(.family == "ib" and (.status == "pass" or .status == "fail"
	    or .status == "not_applicable")) | . as $x | $f[0].results[] |
	    select(.id == $x.id and .target == $x.target and
	    (.status == "not_tested" or .status == "error") and
	    ((.reason // "") | test($w; "i") | not)) |
	    "\(.id) \(.target): \(.reason)"')" ""
}
ADD='.data | (.lost == .recovered + .unanswered) and
    (.finished == .answered + .unanswered + .silent + .send_errors + .cut)'
eng() {	# eng RUN JQ: on the ib.engine counters of RUN's snapshot
	jq "[.observations[] | select(.kind == \"ib.engine\")][0] | $2" \
	    "$T/$1/snapshot.json" 2>/dev/null
}
topo() {	# topo RUN JQ: on the topology observation
	jq -r "[.observations[] | select(.kind == \"ib.topology\")][0] | $2" \
	    "$T/$1/snapshot.json" 2>/dev/null
}

# --- the reference: what the careful fabric gives without faults ---------
ran base
# fixtures/ib/README, careful: no path to zeta, no 0xffff on the tenant
# port, a random SA_Key; ibsim stores no enforcement bits and opensm sets
# no M_Key there.
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED IB-PKEY-DEFAULT-FULL \
    IB-SAKEY-DEFAULT IB-SA-DISCLOSURE IB-SM-UNEXPECTED; do
	expect_eq "base: $c passes" "$(st base $c)" pass
done
for c in IB-PKEY-ENFORCE-OFF IB-MKEY-UNSET IB-SMP-UNRESTRICTED; do
	expect_eq "base: $c fails" "$(st base $c)" fail
done
expect_eq "base: the topology is complete" "$(topo base .state)" complete

# --- a silent switch ----------------------------------------------------------
r=silent-switch
ran $r
honest base $r
expect_eq "$r: the topology is incomplete only by ports not observed" \
    "$(topo $r '"\(.state) \(.data.unexplored_only)"')" "incomplete true"
expect_eq "$r: the two links to ib-leaf02 are the ports not observed" \
    "$(topo $r '[.data.unexplored[] | "\(.guid)/\(.port) \(.why)"] |
    sort | join(",")')" \
    "$LEAF1/35 peer not reached,$LEAF1/36 peer not reached"
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED IB-SM-UNEXPECTED \
    IB-MKEY-READABLE; do
	expect_eq "$r: $c is not_tested" "$(st $r $c)" not_tested
	reason_has "$r: $c names the port that leads to the silent switch" \
	    $r $c \
	    "S-$LEAF1/3[56] \\(MF0;ib-leaf01"
done
# What was seen proves these whatever lies behind ib-leaf02.
for c in IB-PKEY-ENFORCE-OFF IB-MKEY-UNSET IB-MKEY-PROTECT-LOW \
    IB-SMP-UNRESTRICTED; do
	expect_eq "$r: $c still fails" "$(st $r $c)" fail
done
# Nothing of these is behind ib-leaf02 (the SM, the SA and the tenant
# port hang off ib-leaf01).
for c in IB-SAKEY-DEFAULT IB-SA-DISCLOSURE IB-SMKEY-DEFAULT \
    IB-PKEY-DEFAULT-FULL IB-SMKEY-DISCLOSED; do
	expect_eq "$r: $c as without the fault" "$(st $r $c)" "$(st base $c)"
done

# --- one attribute never answered ---------------------------------------------
r=nd-foreign
ran $r
honest base $r
expect_eq "$r: the lost NodeDescription is stored empty, not invented" \
    "$(topo $r "[.data.nodes[] | select(.guid == \"$ZETA2\")][0].desc")" ""
# No path and no shared partition to an unknown-owner port either.
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED; do
	expect_eq "$r: $c still passes" "$(st $r $c)" pass
	reason_has "$r: $c counts the port of unknown owner apart" $r $c \
	    "1 port\\(s\\) whose NodeDescription went unanswered"
done

r=pkt-foreign
ran $r
honest base $r
expect_eq "$r: zeta-gpu-02's P_Key table is recorded unanswered" \
    "$(jq -r '.observations[] | select(.kind == "ib.smp.pkey_table" and
    .target == "H-'"$ZETA2"'/1") | .state' "$T/$r/snapshot.json")" no_response
# The SA's PathRecords (none to zeta) decide it without that table.
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED; do
	expect_eq "$r: $c passes on the SA's answer" "$(st $r $c)" pass
done

r=pi-foreign
ran $r
honest base $r
expect_eq "$r: zeta-gpu-02's port is recorded with PortInfo unanswered" \
    "$(topo $r "[.data.nodes[] | select(.guid == \"$ZETA2\")][0].ports[0] |
    \"\\(.portinfo) \\(.lid) \\(.state)\"")" \
    "unanswered null null"
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED IB-MKEY-READABLE \
    IB-SM-UNEXPECTED; do
	expect_eq "$r: $c is not_tested" "$(st $r $c)" not_tested
	reason_has "$r: $c names the port whose PortInfo was lost" $r $c \
	    "H-$ZETA2/1 \\(zeta-gpu-02 mlx5_0, PortInfo unanswered\\)"
done
# Its zeroed PortInfo is not an M_Key 0: one port fewer examined.
reason_has "$r: IB-MKEY-UNSET does not count the unanswered port" \
    $r IB-MKEY-UNSET '^6 of 6 ports examined'
reason_has "base: ... which the fault-free run counts" base IB-MKEY-UNSET \
    '^7 of 7 ports examined'

r=pi-switch
ran $r
honest base $r
expect_eq "$r: ib-leaf02's ports are recorded with PortInfo unanswered" \
    "$(topo $r "[.data.nodes[] | select(.guid == \"$LEAF2\") | .ports[] |
    select(.portinfo == \"unanswered\")] | length")" 37
for c in IB-XTENANT-REACHABLE IB-PKEY-SHARED IB-SM-UNEXPECTED; do
	expect_eq "$r: $c is not_tested" "$(st $r $c)" not_tested
	reason_has "$r: $c names ib-leaf02's ports" $r $c \
	    "S-$LEAF2/[0-9]+ \\(MF0;ib-leaf02:MSB7800/U1, PortInfo unanswered\\)"
done

# --- MAD loss -------------------------------------------------------------
for r in loss50-leaf $LOSS; do
	if [ -e "$T/$r.inactive" ]; then
		fa_skip "$r: the tenant's port was not Active 90 s after" \
		    "the loss was set (OpenSM kept it in INIT): nothing a" \
		    "tenant would scan"
		continue
	fi
	ran $r
	honest base $r
	expect_eq "$r: the engine's counters add up" "$(eng $r "$ADD")" true
	expect_eq "$r: MADs were lost" \
	    "$(eng $r '(.data.lost_sends + .data.discovery.lost_sends) > 0')" \
	    true
done

# --- the SM killed before the scan --------------------------------------------
r=sm-gone
ran $r
honest base $r
# SMAs answer SMPs with or without an SM (IBA vol. 1 14.2.1).
for c in IB-PKEY-DEFAULT-FULL IB-PKEY-ENFORCE-OFF IB-MKEY-UNSET \
    IB-MKEY-READABLE IB-MKEY-PROTECT-LOW; do
	expect_eq "$r: $c decided from SMPs as without the fault" \
	    "$(st $r $c)" "$(st base $c)"
done
for c in IB-SAKEY-DEFAULT IB-SA-DISCLOSURE IB-SMKEY-DEFAULT \
    IB-SM-UNEXPECTED IB-XTENANT-REACHABLE IB-PKEY-SHARED; do
	expect_eq "$r: $c, which needs the SM or SA, is not_tested" \
	    "$(st $r $c)" not_tested
done

# --- the careless fabric: lost NodeDescriptions, findings to blame --------
ran cl-base
ran cl-nd
honest cl-base cl-nd
# acme-gpu-02 is named by tenant_guid, so it stays the tenant's; zeta-gpu-02
# is named by nothing: unknown, never foreign.
expect_eq "cl-nd: the tenant's own node is not blamed as foreign" \
    "$(jq '[.results[] | select(.id == "IB-XTENANT-REACHABLE" or
    .id == "IB-PKEY-SHARED") | select(.target != "fabric") | .target,
    (.evidence[]? | tostring) | select(test("0x0002c90300a1b2d"))] |
    length' "$T/cl-nd/report.json")" 0
expect_eq "cl-nd: zeta-gpu-02 (owner unknown) has no finding of its own" \
    "$(st cl-nd IB-XTENANT-REACHABLE "H-$ZETA2/1")" not_tested
expect_eq "cl-nd: zeta-gpu-01 (foreign, known) still fails" \
    "$(st cl-nd IB-XTENANT-REACHABLE H-0x0002c90300c3d4e0/1)" fail
expect_eq "cl-nd: the shared default partition still fails" \
    "$(st cl-nd IB-PKEY-SHARED pkey-0xffff)" fail
reason_has "cl-nd: ... with the one foreign port known, of the two" \
    cl-nd IB-PKEY-SHARED 'with 1 foreign port\(s\)'
reason_has "cl-base: ... where the fault-free run counts both" \
    cl-base IB-PKEY-SHARED 'with 2 foreign port\(s\)'

fa_done
