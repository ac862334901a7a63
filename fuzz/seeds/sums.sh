#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_sums: SHA256SUMS over the report fixtures and data files,
# in sha256sum(1)'s format, whole and one line; and a real signature of
# each type made by openssl(1) (the target takes any input as a
# signature too).
# usage: fuzz/seeds/sums.sh OUTDIR   (from the repo root)
set -eu
out=$1
mkdir -p "$out"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp fixtures/reports/careless.snapshot.json data/host-cves.json \
    data/fabaudit-report.xsd data/junit.xsd "$t"
(cd "$t" && sha256sum careless.snapshot.json host-cves.json \
    fabaudit-report.xsd junit.xsd) >"$out/sums"
head -n 1 "$out/sums" >"$out/sums-one"
for k in ed25519 ec rsa; do
	case $k in
	ed25519) openssl genpkey -algorithm ed25519 -out "$t/k.pem" ;;
	ec) openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:P-256 \
	    -out "$t/k.pem" ;;
	rsa) openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:2048 \
	    -out "$t/k.pem" ;;
	esac 2>/dev/null
	if [ "$k" = ed25519 ]; then
		openssl pkeyutl -sign -rawin -inkey "$t/k.pem" \
		    -in "$out/sums" -out "$out/sig-$k"
	else
		openssl dgst -sha256 -sign "$t/k.pem" -out "$out/sig-$k" \
		    "$out/sums"
	fi
done
