#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_check: the real scan fixtures/reports/careless.snapshot.json
# and, smaller (faster to mutate), one copy per family and one per
# observation kind with only those observations, and one without its
# policy.  (fuzz/corpus/check/eth-leaky is a real scan of the Ethernet
# test capture leaky.pcap, which no fixture holds.)  And, from the
# observation schema, one per declared kind with every field
# (fuzz/schema_seeds.c, built by make fuzz-build).
# usage: FUZZ_BUILD=build-fuzz fuzz/seeds/check.sh OUTDIR   (repo root)
set -eu
out=$1
in=fixtures/reports/careless.snapshot.json
mkdir -p "$out"
"${FUZZ_BUILD:?FUZZ_BUILD: the fuzz build directory}/fuzz/schema_seeds" \
    "$out"
cp "$in" "$out/careless"
for fam in ib host; do
	jq -c --arg f "$fam" '.observations |= map(select(.family == $f))' \
	    "$in" >"$out/careless-$fam"
done
for kind in $(jq -r '[.observations[].kind] | unique | .[]' "$in"); do
	jq -c --arg k "$kind" '.observations |= map(select(.kind == $k))' \
	    "$in" >"$out/kind-$kind"
done
# The key probes as scans record them since ib.gmp.key_probes (the fixture
# holds the older form, an observation per node): one per class.
jq -c '.observations |= [.[] | select(.kind == "ib.gmp.key_probe")] |
    .observations |= [group_by(.data.class)[] | {id: "kps", family: "ib",
    kind: "ib.gmp.key_probes", target: "fabric", request: "Get",
    state: "complete", reason: null, data: {class: .[0].data.class,
    attribute: .[0].data.attribute, nodes: [.[] | {target, state,
    lid: .data.lid, node_desc: .data.node_desc, node_type: .data.node_type}
    + (.data | {mad_status, cc_key, protect, lease, violations} |
    with_entries(select(.value != null)))]}}]' "$in" \
    >"$out/kind-ib.gmp.key_probes"
jq -c 'del(.policy) | .observations |= .[0:12]' "$in" >"$out/nopolicy"
