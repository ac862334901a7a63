#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds of fuzz_ib_sa_table from the real SA answers of fuzz/corpus/ib_sa/
# (selector and LID bytes dropped), each with the minimum record size
# its scanner caller asks for: 28 (SMInfoRecord), 64 (PathRecord), 72
# (PKeyTableRecord).
# usage: fuzz/seeds/ib_sa_table.sh OUTDIR
set -eu
out=${1:?usage: fuzz/seeds/ib_sa_table.sh OUTDIR}
for f in fuzz/corpus/ib_sa/*; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	case "$n" in
	sminforec-*) min='\034' ;;
	pkeyrec-*) min='\110' ;;
	*) min='\100' ;;
	esac
	{ printf "$min"; tail -c +4 "$f"; } >"$out/sa-$n"
done
