#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_snapwire: the real scan of
# fixtures/reports/careless.snapshot.json as the acquisition child would
# send it (core/snapwire.h: one {"obs": ...} line per observation, then
# {"end": {"rc", "usable", "snapshot"}}), whole and with only its first
# three observations; and so sent, the snapshots made from the
# observation schema (fuzz/schema_seeds.c): every declared kind.
# usage: FUZZ_BUILD=build-fuzz fuzz/seeds/snapwire.sh OUTDIR   (repo root)
set -eu
out=$1
in=fixtures/reports/careless.snapshot.json
mkdir -p "$out"
wire() {	# FIRST_N [SNAPSHOT]: the answer with the first N observations
	jq -c --argjson n "$1" \
	    '(if $n > 0 then .observations[0:$n] else .observations end)[] |
	    {obs: .}' "${2:-$in}"
	jq -c '{end: {rc: 1, usable: 1, snapshot: del(.observations)}}' \
	    "${2:-$in}"
}
wire 0 >"$out/careless"
wire 3 >"$out/careless-3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"${FUZZ_BUILD:?FUZZ_BUILD: the fuzz build directory}/fuzz/schema_seeds" \
    "$tmp"
for f in "$tmp"/schema-*; do
	wire 0 "$f" >"$out/$(basename "$f")"
done
