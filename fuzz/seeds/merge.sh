#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_merge: the reports diff.sh makes from
# fixtures/reports/careless.snapshot.json with `fabaudit check` (the
# binary $FABAUDIT, default build/fabaudit; without it only the committed
# fuzz/corpus/merge is used), alone, and as three NUL-separated nodes
# (other scan.host and start, some statuses changed); three nodes only
# cut down to a few results without texts (the full ones are slow).  And
# the report of the Ethernet scan fuzz/corpus/check/eth-leaky alone, so
# that the writers see every family's results (the renderings fuzz_check
# leaves to this target).
# usage: fuzz/seeds/merge.sh OUTDIR   (from the repo root)
set -eu
out=$1
mkdir -p "$out"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# diff.sh's full report compared with itself.
sh fuzz/seeds/diff.sh "$t/d"
if [ ! -f "$t/d/full-self" ]; then
	echo "merge.sh: committed corpus only" >&2
	exit 0
fi
cp "$t/d/full-self" "$t/full"
# A few results without the catalogue's texts (their reasons and evidence
# kept: the renderings show them).
jq -c '.results |= (.[0:6] + .[-6:] | map(del(.rationale, .remediation,
    .msa_clause, .references, .title)))' "$t/full" >"$t/small"
node='.scan.host = $h | .scan.started = "2026-12-0\($n)T01:00:00Z" |
    .results |= (to_entries | map(if .key % 4 == ($n | tonumber) then
    .value.status = "pass" else . end) | map(.value))'
for v in full small; do
	cp "$t/$v" "$out/$v-one"
	[ "$v" = small ] || continue
	for n in 1 2 3; do
		jq -c --arg h "node$n" --arg n "$n" "$node" "$t/$v" \
		    >"$t/$v-$n"
	done
	{ cat "$t/$v-1"; printf '\000'; cat "$t/$v-2"; printf '\000';
	    cat "$t/$v-3"; } >"$out/$v-three"
done
bin=${FABAUDIT:-build/fabaudit}
"$bin" check -q -f json -o "$t/eth" fuzz/corpus/check/eth-leaky ||
    [ $? -eq 1 ]
jq -c . "$t/eth/report.json" >"$out/eth-one"
