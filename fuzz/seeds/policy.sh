#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_policy: the policies of the fabric and host fixtures
# (fixtures/ib/*/policy.conf, fixtures/host/*/FIXTURE.conf) and the
# example of fabaudit.conf(5), which uses every keyword.
# usage: fuzz/seeds/policy.sh OUTDIR   (from the repo root)
set -eu
out=$1
mkdir -p "$out"
for f in fixtures/ib/*/policy.conf; do
	d=${f%/policy.conf}
	cp "$f" "$out/ib-${d##*/}"
done
for f in fixtures/host/*/FIXTURE.conf; do
	d=${f%/FIXTURE.conf}
	cp "$f" "$out/host-${d##*/}"
done
awk '/^\.Sh EXAMPLES/ { ex = 1 } ex && /^\.Ed/ { exit }
    ex && on { print } ex && /^\.Bd -literal/ { on = 1 }' \
    man/man5/fabaudit.conf.5 >"$out/man5-example"
