#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_report: those of fuzz_check (fuzz/seeds/check.sh) and its
# committed corpus (fuzz/corpus/check: a real Ethernet scan), since both
# targets read a snapshot.json.
# usage: FUZZ_BUILD=build-fuzz fuzz/seeds/report.sh OUTDIR   (repo root)
set -eu
sh fuzz/seeds/check.sh "$1"
for f in fuzz/corpus/check/*; do
	[ -f "$f" ] && cp "$f" "$1/"
done
exit 0
