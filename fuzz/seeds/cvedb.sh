#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_cvedb (see its header for the selector byte): the
# catalogue data/host-cves.json whole and per component; then triples of
# versions from it for the upstream scheme, from the host fixtures'
# dpkg databases for the Debian scheme and their osrelease for the
# kernel scheme.
# usage: fuzz/seeds/cvedb.sh OUTDIR   (from the repo root)
set -eu
out=$1
db=data/host-cves.json
mkdir -p "$out"
{ printf '\000'; cat "$db"; } >"$out/catalogue"
for c in $(jq -r '[.entries[].component] | unique | .[]' "$db"); do
	{ printf '\000'; jq -c --arg c "$c" \
	    '.entries |= map(select(.component == $c))' "$db"; } \
	    >"$out/catalogue-$c"
done
# triple SELECTOR FILE NAME: three versions per seed, from a list.
triple() {
	k=0
	while read -r a && read -r b && read -r c; do
		k=$((k + 1))
		printf "\\$1%s\\000%s\\000%s" "$a" "$b" "$c" >"$out/$3-$k"
	done <"$2"
}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
jq -r '.entries[] | select(.component != "kernel") | .affected[] |
    (.introduced // empty), (.fixed // empty)' "$db" | sort -u >"$t/up"
jq -r '.entries[] | select(.component == "kernel") | .affected[] |
    (.introduced // empty), (.fixed // empty)' "$db" | sort -u >"$t/k"
cat fixtures/host/*/proc/sys/kernel/osrelease >>"$t/k"
sed -n 's/^Version: //p' fixtures/host/*/var/lib/dpkg/status | sort -u \
    >"$t/deb"
triple 002 "$t/up" upstream
triple 003 "$t/k" kernel
triple 001 "$t/deb" debian
