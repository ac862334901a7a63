#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_eth: every frame of the Ethernet test captures (see
# pcap.sh), each as given (header 00 00 00 00 00) and with VLAN 120 from
# metadata (header 01 00 78 81 00, see fuzz/fuzz_eth.c).  The records are
# cut out of the pcap files (24-byte file header, then per record a
# 16-byte header whose bytes 8-11 are the captured length, in the file's
# byte order) with od and awk.
# usage: fuzz/seeds/eth.sh OUTDIR   (from the repo root)
set -eu
out=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
sh fuzz/seeds/pcap.sh "$t/p"
mkdir -p "$out"
for f in "$t"/p/*; do
	# One line per frame: the bytes as octal escapes for printf(1).
	od -An -v -tu1 "$f" | LC_ALL=C awk '
	    { for (i = 1; i <= NF; i++) b[n++] = $i }
	    END {
		if (n < 24) exit
		le = (b[0] == 212)	# d4 c3 b2 a1: little-endian file
		for (p = 24; p + 16 <= n; p += 16 + len) {
			if (le)
				len = b[p+8] + 256 * (b[p+9] + 256 * \
				    (b[p+10] + 256 * b[p+11]))
			else
				len = b[p+11] + 256 * (b[p+10] + 256 * \
				    (b[p+9] + 256 * b[p+8]))
			if (p + 16 + len > n)
				break
			s = ""
			for (i = 0; i < len; i++)
				s = s sprintf("\\%03o", b[p + 16 + i])
			print s
		}
	    }' >"$t/frames"
	k=0
	name=$(basename "$f")
	while read -r s; do
		k=$((k + 1))
		printf "\000\000\000\000\000$s" >"$out/$name-$k"
		printf "\001\000\170\201\000$s" >"$out/$name-$k-vlan"
	done <"$t/frames"
done
