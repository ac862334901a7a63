#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# measure.sh: every measurement of one fabric size, run by bench/run.sh
# INSIDE one fabric session (tests/ib/with-fabric.sh: ibsim + a real
# opensm already up, LD_PRELOAD=libumad2sim.so (and librmpprecv.so behind
# it unless BENCH_RMPP=0, run.sh), SIM_HOST = the tenant's
# node, FA_SCENARIO_DIR = the fabric written by bench/mkfattree).
#
#   sh bench/measure.sh BUILD_DIR OUT_DIR SMALLEST(0|1)
#
# In this order, each command timed by BUILD_DIR/bench/rusage (wall clock,
# peak RSS):
#   b. ibnetdiscover -m -o 32, BENCH_IBND_RUNS times (default 3; median)
#   a. fabaudit scan --ib -q -c POLICY -o DIR: the default scan as a user
#      runs it (default formats json,txt,xml,html, mads.pcap, key probes
#      on; -q only silences the progress line), BENCH_SCAN_RUNS times
#      (default 3; median)
#   f. if the binary has --key-probes: the same scan with --key-probes
#      none, BENCH_SCAN_RUNS times
#   g. fabaudit check -q -c POLICY -o DIR SNAPSHOT: the offline
#      re-evaluation of (a)'s first snapshot, default formats, once
#   c. bench/smpceiling -n BENCH_CEILING_N (default 100000): the SMP/s
#      ceiling, window 64, at most 2 per destination
#   e. SMALLEST only, if the binary has --max-outstanding: the same scan
#      with --max-outstanding 1; its results (id, target, status) must
#      equal (a)'s
#   d. SMALLEST only: bench/diags-audit.sh, the infiniband-diags script
# Results go to OUT_DIR/results.kv (key=value lines), the commands run to
# OUT_DIR/commands.txt, outputs and logs next to them.  Time limits:
# BENCH_SCAN_TIMEOUT s for (a) (default 300, each run),
# BENCH_MAXOUT1_TIMEOUT s for (e) (default 120), BENCH_DIAGS_TIMEOUT s for
# (d) (default 600).  A measurement that fails is written as KEY_error=why
# and the exit status is 1; the others still run.  The diags tools and
# fabaudit get libumad2sim.so in LD_PRELOAD, the shell, jq and awk do not.

set -u
[ $# -eq 3 ] || { echo "usage: measure.sh BUILD_DIR OUT_DIR 0|1" >&2; exit 2; }
bb=$1 out=$2 smallest=$3
pre=${LD_PRELOAD:-}
unset LD_PRELOAD
scen=${FA_SCENARIO_DIR:?not inside tests/ib/with-fabric.sh}
fab=$bb/fabaudit
ru=$bb/bench/rusage
tmo=${BENCH_SCAN_TIMEOUT:-300}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
kv=$out/results.kv
failed=0

: >"$kv.tmp" || exit 2
echo "session_start=$(date +%s.%N)" >>"$kv.tmp"
: >"$out/commands.txt"

put() { echo "$1=$2" >>"$kv.tmp"; }
err() { put "$1_error" "$2"; echo "measure.sh: $1: $2" >&2; failed=1; }
# value of KEY in a "k=v k=v" line file
val() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p" | head -n 1; }

# Run in the background and wait, so that a TERM from with-fabric.sh's
# cleanup reaches the child at once (rusage passes it on); cwd = OUT_DIR,
# where umad2sim makes (and removes) its ./sys-PID directory.
child=
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 143' TERM
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 130' INT
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 129' HUP
quote() {	# ARG...: as a shell would need them typed
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_./=:,+-]*|'')
			printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")" ;;
		*)	printf '%s ' "$a" ;;
		esac
	done
}
run() {	# OUTFILE CMD...: stdout+stderr of CMD to OUTFILE
	o=$1
	shift
	echo "$(quote "$@")> ${o##*/}" >>"$out/commands.txt"
	(cd "$out" && exec "$@") >"$o" 2>&1 &
	child=$!
	wait "$child"
	rc=$?
	child=
	return $rc
}
cd "$out" || exit 2

# --- (b) ibnetdiscover -o 32 ------------------------------------------------
runs=${BENCH_IBND_RUNS:-3}
i=1 walls=
while [ "$i" -le "$runs" ]; do
	run "$out/ibnd.$i.out" "$ru" -t "$tmo" -o "$out/ibnd.$i.ru" -- \
	    env LD_PRELOAD="$pre" ibnetdiscover -m -o 32
	rc=$?
	if [ $rc -ne 0 ]; then
		err ibnd "ibnetdiscover -o 32 exited $rc (see $out/ibnd.$i.out)"
		break
	fi
	walls="$walls $(val "$out/ibnd.$i.ru" wall)"
	i=$((i + 1))
done
if [ "$rc" -eq 0 ]; then
	# shellcheck disable=SC2086
	put ibnd_wall "$(printf '%s\n' $walls | sort -g |
	    awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
	put ibnd_walls "$(echo "${walls# }" | tr ' ' ',')"
	put ibnd_rss_kb "$(val "$out/ibnd.1.ru" maxrss_kb)"
	put ibnd_smps "$(sed -n 's/^# Total MADs used: //p' "$out/ibnd.1.out")"
fi

# --- (a) fabaudit scan --------------------------------------------------------
# results.tsv: id, target, status of every result, sorted (for (e)).
scan() {	# NAME TIMEOUT [OPTION...]
	n=$1 stmo=$2
	shift 2
	rm -rf "${out:?}/$n"
	run "$out/$n.log" "$ru" -t "$stmo" -o "$out/$n.ru" -- \
	    env LD_PRELOAD="$pre" "$fab" scan --ib -q \
	    -c "$scen/policy.conf" -o "$out/$n" "$@"
	rc=$?
	case $rc in
	0|1) ;;	# 1: failing results, as expected of this fabric
	124) err "$n" "fabaudit scan did not finish in $stmo s"
	     put "${n}_timeout" "$stmo"	# a lower bound for the table
	     put "${n}_rss_kb" "$(val "$out/$n.ru" maxrss_kb)"
	     return 1 ;;
	*) err "$n" "fabaudit scan exited $rc (see $out/$n.log)"
	   return 1 ;;
	esac
	st=$(jq -r '.families.ib.state' "$out/$n/report.json" 2>/dev/null)
	if [ "$st" != collected ]; then
		err "$n" "IB family state '$st', not collected"
		return 1
	fi
	jq -r '.results[] | [.id, .target, .status] | @tsv' \
	    "$out/$n/report.json" | LC_ALL=C sort >"$out/$n.results.tsv"
	put "${n}_wall" "$(val "$out/$n.ru" wall)"
	put "${n}_rss_kb" "$(val "$out/$n.ru" maxrss_kb)"
	put "${n}_results" "$(wc -l <"$out/$n.results.tsv" | tr -d ' ')"
	jq -r '[.observations[] | select(.id == "ib.topology") |
	    .data.smps_used][0] // 0,
	    ([.observations[] | select(.id == "ib.engine") | .data][0] //
	    {} | "\(.sent // "") \(.answered // "") \(.lost_sends // "")"),
	    ([.observations[] | select(.id == "ib.engine") | .data][0] //
	    {} | "\(.discovery.ms // "") \(.audit_ms // "") \(
	    .discovery.walk_ms // .discovery.ms // "")")' \
	    "$out/$n/snapshot.json" >"$out/$n.mads" || return 1
	{ read -r disc; read -r sent answered lostsends
	  read -r disc_ms audit_ms walk_ms; } <"$out/$n.mads"
	# The fabric-facing phases' own clocks (ib.engine), for context.
	put "${n}_disc_ms" "$disc_ms"
	put "${n}_walk_ms" "$walk_ms"
	put "${n}_audit_ms" "$audit_ms"
	put "${n}_disc_smps" "$disc"
	put "${n}_engine_sent" "$sent"
	put "${n}_engine_answered" "$answered"
	put "${n}_engine_lost" "$lostsends"
	return 0
}
# series NAME [OPTION...]: BENCH_SCAN_RUNS scans (default 3), as
# ibnetdiscover: the first run is NAME (for "scan", what (e) compares
# with), the others NAME2, NAME3...; NAME_wall, NAME_engine_* and the phase
# clocks are then the median run's, NAME_rss_kb the largest.
kvget() { sed -n "s/^$1=//p" "$kv.tmp" | tail -n 1; }
sruns=${BENCH_SCAN_RUNS:-3}
series() {
	sn=$1
	shift
	scan "$sn" "$tmo" "$@" || return 1
	i=2 names=$sn
	while [ "$i" -le "$sruns" ] && scan "$sn$i" "$tmo" "$@"; do
		names="$names $sn$i"
		i=$((i + 1))
	done
	med=$(for r in $names; do echo "$(kvget "${r}_wall") $r"; done |
	    sort -g | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }')
	rss=$(for r in $names; do kvget "${r}_rss_kb"; done | sort -g |
	    tail -n 1)
	walls=$(for r in $names; do kvget "${r}_wall"; done | paste -sd, -)
	for k in wall disc_ms walk_ms audit_ms disc_smps engine_sent \
	    engine_answered engine_lost; do
		x=$(kvget "${med}_$k")
		sed -i "/^${sn}_$k=/d" "$kv.tmp"
		put "${sn}_$k" "$x"
	done
	sed -i "/^${sn}_rss_kb=/d" "$kv.tmp"
	put "${sn}_walls" "$walls"
	put "${sn}_rss_kb" "$rss"
}
series scan

# --- (f) the audit issue 7 defines: no CC/VS/AM key probes ------------------
if "$fab" scan -h 2>&1 | grep -q -- '--key-probes'; then
	series narrow --key-probes none
else
	put narrow "n/a"
	put narrow_why "this fabaudit has no --key-probes"
fi

# --- (g) offline re-evaluation of the first scan's snapshot -----------------
# No fabric and no LD_PRELOAD: what a provider runs on the evidence.
if [ -s "$out/scan/snapshot.json" ]; then
	rm -rf "${out:?}/recheck"
	run "$out/recheck.log" "$ru" -t "$tmo" -o "$out/recheck.ru" -- \
	    "$fab" check -q -c "$scen/policy.conf" -o "$out/recheck" \
	    "$out/scan/snapshot.json"
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -eq 1 ]; then
		put recheck_wall "$(val "$out/recheck.ru" wall)"
		put recheck_rss_kb "$(val "$out/recheck.ru" maxrss_kb)"
		put recheck_mb "$(du -m "$out/scan/snapshot.json" | cut -f1)"
		jq -r '.results[] | [.id, .target, .status] | @tsv' \
		    "$out/recheck/report.json" | LC_ALL=C sort |
		    cmp -s - "$out/scan.results.tsv" &&
		    put recheck_same yes || put recheck_same no
	else
		err recheck "fabaudit check exited $rc (see $out/recheck.log)"
	fi
else
	err recheck "no snapshot.json from the first scan"
fi

# --- (c) the simulator's SMP/s ceiling ----------------------------------------
run "$out/ceiling.out" env LD_PRELOAD="$pre" "$bb/bench/smpceiling" \
    -n "${BENCH_CEILING_N:-100000}" -w 64 -m 2
rc=$?
if [ $rc -eq 0 ] && [ "$(val "$out/ceiling.out" lost)" = 0 ]; then
	put ceiling_rate "$(val "$out/ceiling.out" rate)"
	put ceiling_targets "$(val "$out/ceiling.out" targets)"
else
	err ceiling "smpceiling exited $rc or lost SMPs (see $out/ceiling.out)"
fi

if [ "$smallest" = 1 ]; then
	# --- (e) --max-outstanding 1 ------------------------------------------
	if "$fab" scan -h 2>&1 | grep -q -- '--max-outstanding'; then
		if scan maxout1 "${BENCH_MAXOUT1_TIMEOUT:-120}" \
		    --max-outstanding 1; then
			if [ -s "$out/scan.results.tsv" ] && cmp -s \
			    "$out/scan.results.tsv" "$out/maxout1.results.tsv"
			then
				put maxout1 OK
			else
				put maxout1 DIFF
				diff "$out/scan.results.tsv" \
				    "$out/maxout1.results.tsv" \
				    >"$out/maxout1.diff"
			fi
		fi
	else
		put maxout1 "n/a"
		put maxout1_why "this fabaudit has no --max-outstanding"
	fi

	# --- (d) the infiniband-diags script ------------------------------------
	run "$out/diags.out" "$ru" -t "${BENCH_DIAGS_TIMEOUT:-600}" \
	    -o "$out/diags.ru" -- env DIAGS_PRELOAD="$pre" \
	    sh "$here/diags-audit.sh" 'tenantA-*'
	rc=$?
	ports=$(sed -n 's/^ports=\([0-9]*\) .*/\1/p' "$out/diags.out")
	if [ $rc -eq 0 ] && [ -n "$ports" ] && [ "$ports" -gt 0 ]; then
		put diags_wall "$(val "$out/diags.ru" wall)"
		put diags_ports "$ports"
	else
		err diags "diags-audit.sh exited $rc (see $out/diags.out)"
	fi
fi

mv -f "$kv.tmp" "$kv"
exit $failed
