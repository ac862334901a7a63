#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_snapwire: the real scan of
# fixtures/reports/careless.snapshot.json as the acquisition child would
# send it (core/snapwire.h: one {"obs": ...} line per observation, then
# {"end": {"rc", "usable", "snapshot"}}), whole and with only its first
# three observations.
# usage: fuzz/seeds/snapwire.sh OUTDIR   (from the repo root)
set -eu
out=$1
in=fixtures/reports/careless.snapshot.json
mkdir -p "$out"
wire() {	# FIRST_N: the answer with the first N observations (0: all)
	jq -c --argjson n "$1" \
	    '(if $n > 0 then .observations[0:$n] else .observations end)[] |
	    {obs: .}' "$in"
	jq -c '{end: {rc: 1, usable: 1, snapshot: del(.observations)}}' "$in"
}
wire 0 >"$out/careless"
wire 3 >"$out/careless-3"
