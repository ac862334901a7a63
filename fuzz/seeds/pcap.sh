#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_pcap: the Ethernet test captures (clean, leaky with every
# signal, malformed frames, empty, non-Ethernet, cut short), written by
# tests/eth/mkcaptures, which is compiled here into a temporary directory.
# usage: fuzz/seeds/pcap.sh OUTDIR   (from the repo root)
set -eu
out=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
${CC:-cc} -std=c11 -D_GNU_SOURCE -O1 -o "$t/mkcaptures" \
    tests/eth/mkcaptures.c $(pkg-config --libs libpcap)
mkdir -p "$t/c" "$out"
"$t/mkcaptures" "$t/c"
for f in "$t"/c/*.pcap; do
	cp "$f" "$out/$(basename "$f" .pcap)"
done
