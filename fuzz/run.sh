#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run the libFuzzer targets built by `make fuzz-build` (fuzz/README).
# usage: fuzz/run.sh BUILD_FUZZ_DIR [--time SECONDS] [TARGET...]
# TARGET is NAME or fuzz_NAME of fuzz/fuzz_NAME.c; default: all of them.
# Per target: replay every fuzz/regress/NAME/* file (each must pass; with
# FA_FUZZ_EVERY_RENDERER set, fuzz/fuzz.h), then
# fuzz for SECONDS (default 60) from a scratch corpus holding the output of
# fuzz/seeds/NAME.sh and fuzz/corpus/NAME/*.  Prints PASS:/FAIL: lines,
# `FIGURE fuzz_execs.NAME N` per target and `FIGURE fuzz_crashes N` (the
# failing inputs found) on stdout; progress on stderr.  A crash, leak,
# timeout or out-of-memory input is kept in BUILD_FUZZ_DIR/fuzz/artifacts/
# NAME/ and named in its FAIL line; the fuzzer's output in
# BUILD_FUZZ_DIR/fuzz/logs/NAME.log.  Exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
usage="usage: fuzz/run.sh BUILD_FUZZ_DIR [--time SECONDS] [TARGET...]"
B=${1:?$usage}
shift
T=60
if [ "${1:-}" = --time ]; then
	T=${2:?$usage}
	shift 2
fi
case "$T" in
''|*[!0-9]*|0) echo "fuzz/run.sh: --time: not a positive number: $T" >&2
	exit 2 ;;
esac
if [ $# -eq 0 ]; then
	for src in fuzz/fuzz_*.c; do
		[ -e "$src" ] || continue
		n=$(basename "$src" .c)
		set -- "$@" "${n#fuzz_}"
	done
fi
# Sanitizers: stop at the first error, with a stack; leaks are errors.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
# The seed scripts find the build's programs (schema_seeds) here.
FUZZ_BUILD=$B
export FUZZ_BUILD
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
LIBFUZZER_OPTS="-timeout=10 -rss_limit_mb=2048"

failed=0
crashes=0
scratch=""
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

for t in "$@"; do
	name=${t#fuzz_}
	bin=$B/fuzz/fuzz_$name
	log=$B/fuzz/logs/$name.log
	art=$B/fuzz/artifacts/$name
	if [ ! -f "fuzz/fuzz_$name.c" ]; then
		fail "fuzz $name: no fuzz/fuzz_$name.c"
		continue
	fi
	if [ ! -x "$bin" ]; then
		fail "fuzz $name: $bin not built (make fuzz-build)"
		continue
	fi
	mkdir -p "$B/fuzz/logs" "$art" || exit 2
	: >"$log"

	# Regressions first: each committed input runs once, and must pass.
	bad=0
	for f in fuzz/regress/"$name"/*; do
		[ -f "$f" ] || continue
		# Every renderer, not the one the input picks (fuzz/fuzz.h).
		# shellcheck disable=SC2086
		if ! FA_FUZZ_EVERY_RENDERER=1 "$bin" $LIBFUZZER_OPTS "$f" \
		    >>"$log" 2>&1; then
			fail "fuzz $name: regression $f (see $log)"
			bad=$((bad + 1))
		fi
	done
	if [ "$bad" -gt 0 ]; then
		crashes=$((crashes + bad))
		echo "FIGURE fuzz_execs.$name 0"
		continue
	fi

	rm -rf "$scratch"
	scratch=$(mktemp -d) || exit 2
	if [ -f "fuzz/seeds/$name.sh" ] &&
	    ! sh "fuzz/seeds/$name.sh" "$scratch" >>"$log" 2>&1; then
		fail "fuzz $name: fuzz/seeds/$name.sh failed (see $log)"
		echo "FIGURE fuzz_execs.$name 0"
		continue
	fi
	for f in fuzz/corpus/"$name"/*; do
		[ -f "$f" ] && cp "$f" "$scratch/"
	done
	nseeds=$(find "$scratch" -type f | wc -l)
	echo "fuzz $name: $nseeds seeds, ${T}s" >&2

	# shellcheck disable=SC2086
	"$bin" $LIBFUZZER_OPTS -max_total_time="$T" -print_final_stats=1 \
	    -artifact_prefix="$art/" "$scratch" >>"$log" 2>&1
	rc=$?
	# "Done N runs in S second(s)" ends a run that found nothing; after a
	# crash the last "#N" status line (or stat::number_of_executed_units)
	# is the count.
	n=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$log" | tail -1)
	[ -n "$n" ] || n=$(sed -n \
	    's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" |
	    tail -1)
	[ -n "$n" ] || n=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$log" |
	    tail -1)
	n=${n:-0}
	echo "FIGURE fuzz_execs.$name $n"
	found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
		crashes=$((crashes + 1))
		san='AddressSanitizer|LeakSanitizer|libFuzzer'
		kind=$(grep -m1 -o -E "ERROR: ($san)[^(]*" "$log")
		[ -n "$kind" ] || kind=$(grep -m1 'runtime error' "$log")
		fail "fuzz $name: ${kind:-exit status $rc};" \
		    "input ${found:-not saved}; log $log"
		# The sanitizer's report, for the test log.
		grep -A 12 -m1 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' \
		    "$log" | sed 's/^/    /'
		continue
	fi
	if [ "$n" -eq 0 ]; then
		fail "fuzz $name: no executions counted (see $log)"
		continue
	fi
	echo "PASS: fuzz $name ($n execs in ${T}s, $nseeds seeds)"
done
echo "FIGURE fuzz_crashes $crashes"
[ "$failed" -eq 0 ]
