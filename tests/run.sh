#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The test runner behind `make check` and its tiers:
#   unit        the cmocka unit tests of the plain build, the dependency
#               picture (tests/lint-layers.py) and the compiler's refusal
#               of undeclared fields (tests/typed-fields.sh)
#   unit-asan   the same tests built with ASan+UBSan
#   fuzz-smoke  every libFuzzer target: its regressions, then 3 s of fuzzing
#   scenarios   man page and licence lint, install and package, the CLI
#               contract, and the scenario suites (IB on the simulator,
#               Ethernet test bed, host trees and real runtimes, reports,
#               real Slurm, robustness), which run the ASan+UBSan build
#   all         the four, in that order (make check)
# Prints every result, the time of each suite, and ends with one line per
# tier ("tier NAME: N passed, N failed, N skipped in M:SS") and "N passed,
# N failed, N skipped" (a SKIP: line is a case that could not run on this
# machine, never counted as passed).
# usage: tests/run.sh [--tier TIER] BUILD_DIR ASAN_BUILD_DIR [FILTER]
set -u
cd "$(dirname "$0")/.." || exit 2
TIER=all
if [ "${1:-}" = --tier ]; then
	TIER=${2:?usage: tests/run.sh [--tier TIER] BUILD ASAN_BUILD [FILTER]}
	shift 2
fi
case $TIER in
unit|unit-asan|fuzz-smoke|scenarios|all) ;;
*) echo "tests/run.sh: unknown tier '$TIER' (unit, unit-asan, fuzz-smoke," \
       "scenarios, all)" >&2
   exit 2 ;;
esac
B=${1:?usage: tests/run.sh [--tier TIER] BUILD_DIR ASAN_BUILD_DIR [FILTER]}
A=${2:?usage: tests/run.sh [--tier TIER] BUILD_DIR ASAN_BUILD_DIR [FILTER]}
FILTER=${3:-}
passed=0
failed=0
skipped=0
log=$(mktemp)
all=$(mktemp)
times=$(mktemp)
tiers=$(mktemp)
san=$(mktemp -d)
lb=
trap 'rm -f "$log" "$all" "$times" "$tiers"; rm -rf "$san" $lb' EXIT

# mmss SECONDS
mmss() {
	printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

# run NAME CMD...: run one suite, count its results.
run() {
	name=$1
	shift
	case "$name" in *"$FILTER"*) ;; *) return 0 ;; esac
	echo "== $name"
	t0=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	dt=$(($(date +%s) - t0))
	cat "$log"
	echo "   ($name: $(mmss "$dt"))"
	printf '%s\t%s\n' "$dt" "$name" >>"$times"
	cat "$log" >>"$all"
	# cmocka summaries, then PASS:/FAIL: lines from shell suites.
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed.*/\1/p' "$log" | tail -1)
	p=${p:-0} f=${f:-0}
	p=$((p + $(grep -c '^PASS: ' "$log")))
	f=$((f + $(grep -c '^FAIL: ' "$log")))
	s=$(grep -c '^SKIP: ' "$log")
	skipped=$((skipped + s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name exited with status $rc"
		f=1
	fi
	# A suite that reports no count (the lint) is one test: its status;
	# one that only skipped is not a pass.
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		echo "PASS: $name"
		p=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

# tier_begin NAME / tier_end: whether the tier runs, and its line.
tier_begin() {
	tname=$1
	case $TIER in "$1"|all) ;; *) return 1 ;; esac
	echo "=== tier $1"
	tp=$passed tf=$failed ts=$skipped
	tt=$(date +%s)
}
tier_end() {
	printf 'tier %-12s %d passed, %d failed, %d skipped in %s\n' \
	    "$tname:" $((passed - tp)) $((failed - tf)) $((skipped - ts)) \
	    "$(mmss $(($(date +%s) - tt)))" >>"$tiers"
}

# Every unit test source must have produced a binary in the build a tier
# runs.  missing DIR
missing() {
	for src in tests/unit/test_*.c tests/unit/ftest_*.c; do
		[ -e "$src" ] || continue
		n=$(basename "$src" .c)
		if [ ! -x "$1/tests/$n" ]; then
			echo "FAIL: $1/tests/$n was not built"
			failed=$((failed + 1))
		fi
	done
}

if tier_begin unit; then
	missing "$B"
	for t in "$B"/tests/test_* "$B"/tests/ftest_*; do
		[ -x "$t" ] || continue
		run "unit $(basename "$t")" "$t"
	done
	run "layers and loops" python3 tests/lint-layers.py "$B"
	run "typed fields" sh tests/typed-fields.sh
	tier_end
fi
if tier_begin unit-asan; then
	missing "$A"
	for t in "$A"/tests/test_* "$A"/tests/ftest_*; do
		[ -x "$t" ] || continue
		run "unit-asan $(basename "$t")" env \
		    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$t"
	done
	tier_end
fi
# Every libFuzzer target: its regressions, then 3 s of fuzzing (its own
# sanitizer settings, before the ones of the scenario suites below).
if tier_begin fuzz-smoke; then
	run "fuzz (short)" sh fuzz/run.sh build-fuzz --time 3
	tier_end
fi

tier_begin scenarios || {
	printf '%s\n' "$(cat "$tiers")"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}
run "man lint" sh tests/lint-man.sh "$B"
run "install" sh tests/install.sh
run "licence lines" sh tests/lint-spdx.sh
run "cli" sh tests/cli.sh "$B/fabaudit"
# From here on the suites run the ASan+UBSan build ($A, with its own test
# tools).  Every sanitizer report (memory error, undefined behaviour, leak;
# on error paths too) goes to a file in $san, one per process, and each one
# is a failure below, whether or not the suite looked at the exit status.
# The suppressions in tests/sanitizer/ cover third-party test plumbing
# only (each says why).  The plain build ran the cli suite above.
sup=$PWD/tests/sanitizer
export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0"\
":log_path=$san/asan:suppressions=$sup/asan.supp"
export LSAN_OPTIONS="suppressions=$sup/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$san/ubsan"
B=$A
# Two lanes, run side by side: the suites wait on simulators, daemons,
# timers and network namespaces more than they use a CPU (a serial run
# kept this 2-CPU machine under half busy).  Each suite has its own
# directory, ibsim socket, namespaces and ports, so no two share state;
# the InfiniBand and Ethernet suites stay in one lane, the host, report
# and robustness ones in the other, as balanced by their time.  Lane B's
# output is printed after lane A's.
lane_a() {
	run "debian package" env -u ASAN_OPTIONS -u LSAN_OPTIONS \
	    -u UBSAN_OPTIONS sh tests/deb.sh
	run "ib pcap tshark" sh tests/ib/test_pcap_tshark.sh "$B"
	run "ib agent" sh tests/ib/test_agent.sh "$B"
	run "eth captures and test bed" sh tests/eth/test_captures.sh "$B"
	run "eth switched test bed" sh tests/eth/test_vswitch.sh "$B"
	run "eth real tools" sh tests/eth/test_realtools.sh "$B"
	run "eth capture faults" sh tests/robust/test_ethfault.sh "$B"
	run "ib scenarios" sh tests/ib/test_scenarios.sh "$B/fabaudit"
	run "ib protected scenarios" sh tests/ib/test_protected.sh \
	    "$B/fabaudit"
	run "ib SA key" sh tests/ib/test_sakey.sh "$B/fabaudit"
	run "ib SM identity" sh tests/ib/test_smid.sh "$B/fabaudit"
	run "ib loss on one switch" sh tests/ib/test_loss.sh "$B"
	run "ib silent and lossy fabric" sh tests/ib/test_silent.sh "$B"
	run "ib partition of 1,025 foreign ports" sh tests/ib/test_bigpart.sh \
	    "$B"
	run "ib MADs sent as fabaudit-checks(7) says" sh tests/ib/test_sends.sh \
	    "$B"
	run "ib reproduce commands run" sh tests/ib/test_repro.sh "$B/fabaudit"
	run "ib MAD window" sh tests/ib/test_scale.sh "$B"
	run "ib SA PathRecord table" sh tests/ib/test_sa_table.sh "$B"
	run "ib fault scenarios" sh tests/ib/test_faults.sh "$B"
	run "ib capture placed with its report" sh tests/ib/test_capture_set.sh \
	    "$B"
}
lane_b() {
	run "cli (ASan+UBSan)" sh tests/cli.sh "$B/fabaudit"
	run "host fixtures" sh tests/host/test_fixtures.sh "$B"
	run "host self-scan of this machine" sh tests/host/test_selfscan.sh \
	    "$B"
	run "host real runtimes" sh tests/host/test_runtimes.sh "$B"
	run "host Go build info of real binaries" sh tests/host/test_gobuild.sh \
	    "$B"
	run "host RPM database written by rpm" sh tests/host/test_rpm.sh "$B"
	run "host BuildKit in binaries Go built" sh tests/host/test_buildkit.sh \
	    "$B"
	run "report html" sh tests/report/test_html.sh "$B"
	run "report xml and junit" sh tests/report/test_xml.sh "$B"
	run "sign and verify" sh tests/report/test_sign.sh "$B"
	run "merge" sh tests/report/test_merge.sh "$B"
	run "catalogue build" sh tests/report/test_catalogue.sh "$B"
	run "re-audit loop" sh tests/report/test_cron.sh "$B"
	run "deploy examples" sh tests/report/test_deploy.sh "$B"
	run "real Slurm" sh tests/report/test_slurm.sh "$B"
	run "bad invocations and inputs" sh tests/robust/test_errors.sh "$B"
	run "hostile host sysroot" sh tests/robust/test_hostenv.sh "$B"
	run "output directory faults" sh tests/robust/test_outdir.sh "$B"
	run "output directory holds one run" sh tests/robust/test_onerun.sh \
	    "$B"
	run "privilege drop" sh tests/robust/test_privs.sh "$B"
	run "max-time budget" sh tests/robust/test_maxtime.sh "$B"
	run "interrupted runs" sh tests/robust/test_interrupt.sh "$B"
}
# Lane B in a subshell with its own log files; its counts come back in
# a file.
lb=$(mktemp -d)
(
	log=$lb/log all=$lb/all passed=0 failed=0 skipped=0
	: >"$all"
	lane_b
	echo "$passed $failed $skipped" >"$lb/counts"
) >"$lb/out" 2>&1 &
lbpid=$!
lane_a
wait "$lbpid"
echo "=== lane B (ran alongside)"
cat "$lb/out"
cat "$lb/all" >>"$all" 2>/dev/null
if read -r lp lf ls <"$lb/counts" 2>/dev/null; then
	passed=$((passed + lp)) failed=$((failed + lf))
	skipped=$((skipped + ls))
else
	echo "FAIL: lane B ended without its counts"
	failed=$((failed + 1))
fi
rm -rf "$lb"

echo "== sanitizer reports"
nsan=0
for f in "$san"/*; do
	[ -e "$f" ] || continue
	echo "FAIL: sanitizer report $(basename "$f"):"
	head -40 "$f"
	nsan=$((nsan + 1))
done
if [ "$nsan" -eq 0 ]; then
	echo "PASS: no sanitizer report from any suite"
	passed=$((passed + 1))
fi
failed=$((failed + nsan))

# Issue 8's figures from the suites above (the fuzz pass is the short
# one; tests/robust/figures.sh alone runs the long one).  Not a test: the
# suites have counted their own failures already.
echo "== robustness figures"
sh tests/robust/figures.sh --from "$all" || true
tier_end

echo "== the slowest suites"
sort -rn "$times" | head -12 | while IFS='	' read -r dt name; do
	printf '%8s  %s\n' "$(mmss "$dt")" "$name"
done
printf '%s\n' "$(cat "$tiers")"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
