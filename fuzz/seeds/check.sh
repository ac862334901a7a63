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
# The per-port answers as scans group them since ib.smp.pkey_tables and
# ib.sa.path_table's destinations (the fixture holds the older form).
jq -c 'def pk: .kind == "ib.smp.pkey_table" and .data.role == "remote" and
	.state == "complete";
    def pr: .kind == "ib.sa.path_record" and .state == "complete";
    ([.observations[] | select(pk) | .data] | group_by([.pkeys,
	.partition_cap, .blocks_total]) | map({pkeys: .[0].pkeys,
	partition_cap: .[0].partition_cap, blocks: .[0].blocks_total,
	port_guids: map(.port_guid)})) as $t |
    ([.observations[] | select(pr) | .data] | group_by([.records, .pkeys]) |
	map({records: .[0].records, pkeys: .[0].pkeys,
	port_guids: map(.port_guid)})) as $d |
    .observations |= [.[] | select((pk or pr) | not)] + [{id: "pkt",
	family: "ib", kind: "ib.smp.pkey_tables", target: "fabric",
	request: "SubnGet(P_KeyTable)", state: "complete", reason: null,
	data: {ports: ([$t[].port_guids[]] | length), tables: $t}},
	{id: "prt", family: "ib", kind: "ib.sa.path_table", target: "sa",
	request: "SubnAdmGetTable(PathRecord)", state: "complete",
	reason: null, data: {bytes: 0, records: 0, complete: true,
	per_port: false, why_per_port: null, mad_status: 0, sends: 1,
	ports: ([$d[].port_guids[]] | length), destinations: $d}}]' \
    "$in" >"$out/grouped"
