#!/bin/sh
# Seeds for fuzz_check: the real scan fixtures/reports/careless.snapshot.json
# and, smaller (faster to mutate), one copy per family with only that
# family's observations, and one without its policy.
# usage: fuzz/seeds/check.sh OUTDIR   (from the repo root)
set -eu
out=$1
in=fixtures/reports/careless.snapshot.json
mkdir -p "$out"
cp "$in" "$out/careless"
for fam in ib host; do
	jq -c --arg f "$fam" '.observations |= map(select(.family == $f))' \
	    "$in" >"$out/careless-$fam"
done
jq -c 'del(.policy) | .observations |= .[0:12]' "$in" >"$out/nopolicy"
