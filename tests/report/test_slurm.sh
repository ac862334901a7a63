#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The shipped deploy/slurm/fabaudit-cluster.sbatch, unmodified, on a real
# Slurm: munged, slurmctld and four slurmd (fa1..fa4, one machine, distinct
# ports; every node has this machine's host name, so the host names are
# duplicates, as the issue's "two nodes reporting the same hostname"),
# all in a temporary directory and stopped by PID at the end.  The jobs:
#   1. all good, signed: 4 nodes scanned, signatures good, verify passes;
#   2. faults: fa2's scan fails (the real binary, given a bad option),
#      fa3's hangs (past --max-time), fa4's report is tampered after
#      signing; with FABAUDIT_REQUIRE_SIGNATURE the job ends 3 with every
#      node in the cluster report: scanned, failed, timed_out, rejected;
#   3. the time limit: a job of 2 minutes whose fa3 hangs; Slurm's USR1
#      (--signal) stops it and the merge still runs.
# The expected states are Slurm's and the script's contract (the issue),
# not what the merge prints.  FABAUDIT points at a stand-in that runs the
# real binary and injects each node's fault by SLURMD_NODENAME.
# usage: sh tests/report/test_slurm.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_slurm.sh BUILD_DIR}
FA=$(cd "$B" && pwd)/fabaudit
S=$PWD/deploy/slurm/fabaudit-cluster.sbatch

for t in munged slurmctld slurmd sbatch scontrol squeue; do
	if ! command -v "$t" >/dev/null 2>&1; then
		fa_skip "real Slurm: $t is not installed (make deps installs it)"
		exit 0
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	fa_skip "real Slurm: needs root (slurmd runs jobs as their user)"
	exit 0
fi

T=$(mktemp -d /tmp/fa-slurm.XXXXXX)
chmod 755 "$T"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	sleep 1
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	[ -s "$T/munge/pid" ] && kill "$(cat "$T/munge/pid")" 2>/dev/null
	# Nothing of this test may outlive it: a daemon left is a failure.
	sleep 0.5
	if pgrep -f "$T/" >/dev/null 2>&1 || pgrep -f "slurmd -N fa[1-4]$" \
	    >/dev/null 2>&1; then
		echo "FAIL: real Slurm: daemons left running after the test"
		pkill -9 -f "slurmd -N fa[1-4]$"
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# Ports: a block of 6 chosen from the PID, away from the well-known ones.
port=$((20000 + ($$ % 2000) * 8))
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/jobs"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge/key"
munged -f --socket="$T/munge/sock" --key-file="$T/munge/key" \
    --pid-file="$T/munge/pid" --log-file="$T/munge/log" \
    --seed-file="$T/munge/seed" ||
    { fa_fail "munged did not start"; exit 1; }
cat >"$T/slurm.conf" <<EOF
ClusterName=fatest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
KillWait=5
MinJobAge=300
NodeName=fa[1-4] NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 2))-$((port + 5)) CPUs=1 RealMemory=500 State=UNKNOWN
PartitionName=fa Nodes=fa[1-4] Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
# pidof_file FILE: the PID a daemon wrote, once it has (it writes it
# after forking); empty after 10 s.
pidof_file() {
	_i=0
	while [ ! -s "$1" ] && [ "$_i" -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	cat "$1" 2>/dev/null
}
slurmctld || { fa_fail "slurmctld did not start"; exit 1; }
pids=$(pidof_file "$T/slurmctld.pid")
for n in fa1 fa2 fa3 fa4; do
	slurmd -N "$n" || { fa_fail "slurmd $n did not start"; exit 1; }
	p=$(pidof_file "$T/slurmd-$n.pid")
	[ -n "$p" ] || { fa_fail "slurmd $n wrote no PID file"; exit 1; }
	pids="$pids $p"
done
i=0
while [ "$(sinfo -h -o %t 2>/dev/null)" != idle ] && [ "$i" -lt 60 ]; do
	sleep 0.5
	i=$((i + 1))
done
expect_eq "real Slurm up: 4 idle nodes" "$(sinfo -h -o '%D %t')" "4 idle"

# The stand-in for $FABAUDIT: the real binary; the fault named for this
# node in $T/faults ("NODE FAULT") is injected into its scan.
cat >"$T/fabaudit" <<EOF
#!/bin/sh
real=$FA
fault=\$(sed -n "s/^\${SLURMD_NODENAME:-none} //p" "$T/faults" 2>/dev/null)
[ "\$1" = scan ] || exec "\$real" "\$@"
case \$fault in
hang)	exec sleep 100000 ;;
fail)	exec "\$real" "\$@" --no-such-option ;;
tamper)	"\$real" "\$@"
	rc=\$?
	out=
	prev=
	for a do
		[ "\$prev" = -o ] && out=\$a
		prev=\$a
	done
	sed -i 's/"status": "pass"/"status": "fail"/' "\$out/report.json"
	exit \$rc ;;
esac
exec "\$real" "\$@"
EOF
chmod 755 "$T/fabaudit"
printf 'tenant_node fa*\n' >"$T/policy.conf"
openssl genpkey -algorithm ed25519 -out "$T/sign.pem" 2>/dev/null
openssl pkey -in "$T/sign.pem" -pubout -out "$T/sign.pub" 2>/dev/null

# job NAME SECONDS [sbatch options...]: run the script unmodified, wait
# for its end (at most SECONDS), leave its exit status in $T/NAME.rc.
job() {
	_n=$1 _w=$2
	shift 2
	(cd "$T/jobs" && timeout "$_w" sbatch --wait --nodes=4 \
	    --output="$T/$_n.out" "$@" "$S" >"$T/$_n.submit" 2>&1)
	echo "$?" >"$T/$_n.rc"
}
# jq on the cluster report of job NAME.
cj() { jq -r "$2" "$T/$1/cluster/report.json" 2>/dev/null; }
state() { cj "$1" ".merged.nodes[] | select(.node == \"$2\") | .state"; }

export FABAUDIT="$T/fabaudit" FABAUDIT_POLICY="$T/policy.conf" \
    FABAUDIT_ETH="=lo" FABAUDIT_LISTEN=1

# 1. All good, signed end to end.
: >"$T/faults"
FABAUDIT_OUT=$T/good FABAUDIT_SIGN_KEY=$T/sign.pem \
    FABAUDIT_PUBKEY=$T/sign.pub job good 120 --time=10
expect_eq "good: the job succeeded (exit 0)" "$(cat "$T/good.rc")" 0
expect_eq "good: 4 nodes scanned, all expected, complete" \
    "$(cj good '[.merged.accounting.expected, .merged.accounting.scanned,
    .summary.complete] | @tsv')" "$(printf '4\t4\ttrue')"
expect_eq "good: every node report's signature good" \
    "$(cj good '.merged.accounting.signatures.good')" 4
expect_eq "good: nodes named by Slurm, though one host name" \
    "$(cj good '[.merged.nodes[].node] | sort | join(",")')" \
    "fa1,fa2,fa3,fa4"
expect_eq "good: one host name for all four" \
    "$(cj good '[.merged.nodes[].host] | unique | length')" 1
expect_grep "good: the shared host name is a warning" \
    "host name .* is reported by two nodes" "$T/good/cluster.log"
expect_grep "good: each scan's budget is the job's time less the margin" \
    "at most (4[0-9][0-9]) s each" "$T/good.out"
expect_eq "good: the cluster report is signed" \
    "$(test -s "$T/good/cluster/SHA256SUMS.sig" && echo yes)" yes
"$FA" verify --pubkey "$T/sign.pub" "$T/good" >"$T/good.verify" 2>&1
expect_eq "good: verify of the cluster directory passes" "$?" 0

# 2. A failing, a hanging and a tampering node; signatures required.
printf 'fa2 fail\nfa3 hang\nfa4 tamper\n' >"$T/faults"
FABAUDIT_OUT=$T/faults-out FABAUDIT_SIGN_KEY=$T/sign.pem \
    FABAUDIT_PUBKEY=$T/sign.pub FABAUDIT_REQUIRE_SIGNATURE=yes \
    FABAUDIT_MAX_TIME=5 job faults 120 --time=10
expect_eq "faults: the job ends 3 (incomplete)" "$(cat "$T/faults.rc")" 3
expect_eq "faults: a cluster report was written" \
    "$(test -s "$T/faults-out/cluster/report.json" && echo yes)" yes
expect_eq "faults: fa1 scanned" "$(state faults-out fa1)" scanned
expect_eq "faults: fa2 failed" "$(state faults-out fa2)" failed
expect_grep "faults: fa2's reason is its exit status" \
    "fa2	failed	its scan failed with exit status 2" \
    "$T/faults-out/failed-nodes"
expect_eq "faults: fa3 timed out" "$(state faults-out fa3)" timed_out
expect_eq "faults: fa4's tampered report rejected" \
    "$(state faults-out fa4)" rejected
expect_eq "faults: fa4's signature bad" \
    "$(cj faults-out '.merged.nodes[] | select(.node == "fa4") |
    .signature')" bad
expect_eq "faults: 3 nodes not scanned, not complete" \
    "$(cj faults-out '[.summary.nodes_not_scanned, .summary.complete] |
    @tsv')" "$(printf '3\tfalse')"
expect_eq "faults: only fa1's results merged" \
    "$(cj faults-out '.merged.reports')" 1
expect_grep "faults: report.txt says INCOMPLETE" "INCOMPLETE: 3 nodes" \
    "$T/faults-out/cluster/report.txt"
expect_grep "faults: the job's log names the hung node" \
    "fa3: its scan ran over --max-time 5 s" "$T/faults.out"
"$FA" verify --pubkey "$T/sign.pub" "$T/faults-out" \
    >"$T/faults.verify" 2>&1
expect_eq "faults: verify of the cluster directory fails" "$?" 1
expect_grep "faults: ... naming fa4's changed report" \
    "FAILED: .*/nodes/fa4: report.json: changed" "$T/faults.verify"

# 3. The job's time limit: USR1 (--signal) stops the hung scan.
printf 'fa3 hang\n' >"$T/faults"
FABAUDIT_OUT=$T/limit FABAUDIT_MARGIN=30 job limit 150 --time=2
expect_eq "limit: the job ends 3 (incomplete), before its time limit" \
    "$(cat "$T/limit.rc")" 3
expect_grep "limit: the script saw the signal" \
    "time limit is near: stopping the scans" "$T/limit.out"
expect_eq "limit: fa3 timed out" "$(state limit fa3)" timed_out
expect_eq "limit: ... as the time limit came near" \
    "$(cj limit '.merged.nodes[] | select(.node == "fa3") | .reason' |
    grep -c 'time limit came near')" 1
expect_eq "limit: every node in the cluster report" \
    "$(cj limit '.merged.nodes | length')" 4

if [ "$FA_FAILS" -gt 0 ]; then
	for f in good faults limit; do
		echo "--- $f.out"
		tail -n 20 "$T/$f.out" 2>/dev/null
	done
	tail -n 20 "$T/log/slurmctld.log"
fi
fa_done
