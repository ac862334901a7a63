#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_snapwire: snapshots as the acquisition child sends them
# (core/snapwire.h: an 'O' record per observation, then the 'E' record),
# made by the writer itself (build-fuzz/fuzz/schema_seeds --wire): the
# real scan of fixtures/reports/careless.snapshot.json whole and with only
# its first three observations, and the snapshots made from the
# observation schema (fuzz/schema_seeds.c): every declared kind.
# usage: FUZZ_BUILD=build-fuzz fuzz/seeds/snapwire.sh OUTDIR   (repo root)
set -eu
out=$1
in=fixtures/reports/careless.snapshot.json
seeds="${FUZZ_BUILD:?FUZZ_BUILD: the fuzz build directory}/fuzz/schema_seeds"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$in" "$tmp/careless"
jq -c '.observations |= .[0:3]' "$in" >"$tmp/careless-3"
"$seeds" "$tmp"
"$seeds" --wire "$out" "$tmp"/*
