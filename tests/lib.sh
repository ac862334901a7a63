# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for the shell test scripts.  Each assertion prints one
# "PASS: name" or "FAIL: name" line; tests/run.sh counts them.
# shellcheck shell=sh

FA_FAILS=0

fa_pass() { echo "PASS: $*"; }
fa_fail() { echo "FAIL: $*"; FA_FAILS=$((FA_FAILS + 1)); }

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then fa_pass "$1"; else
		fa_fail "$1 (got '$2', want '$3')"; fi
}

# expect_grep NAME PATTERN FILE: an extended regex must match in FILE.
expect_grep() {
	if grep -Eq -- "$2" "$3" 2>/dev/null; then fa_pass "$1"; else
		fa_fail "$1 ('$2' not in $3)"; fi
}

# expect_nogrep NAME FIXED-STRING FILE...: a string must not appear.
expect_nogrep() {
	_n=$1 _s=$2
	shift 2
	if grep -Fq -- "$_s" "$@" 2>/dev/null; then
		fa_fail "$_n ('$_s' found in $(grep -Fl -- "$_s" "$@" | tr '\n' ' '))"
	else fa_pass "$_n"; fi
}

# The exit status of the test script: non-zero if any assertion failed.
fa_done() { [ "$FA_FAILS" -eq 0 ]; }

# fa_skip NAME: REASON: a case that could not run here; tests/run.sh
# counts these lines apart, never as passed.
fa_skip() { echo "SKIP: $*"; }
