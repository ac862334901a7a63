#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# diags-audit.sh: "the script a user would write instead" of fabaudit, for
# `make bench` to time: the same per-port questions asked with the
# infiniband-diags command-line tools, one process per query.
#
#   sh bench/diags-audit.sh [TENANT_GLOB]       (default 'tenantA-*')
#
#   1. ibnetdiscover (its defaults) for the topology;
#   2. for every CA port in it ("end port"): smpquery portinfo (M_Key
#      protection bits, a cheap stand-in for the M_Key checks) and
#      smpquery pkeys (full membership of the default partition, 0xffff);
#   3. for every end port whose NodeDescription does not match TENANT_GLOB
#      ("foreign port"): saquery PR from our LID to it (the SA returns a
#      path only when the two ports share a partition: reachable).
# One line per end port on stdout, then "ports=N foreign=F" last.
#
# DIAGS_PRELOAD (optional) is put in LD_PRELOAD for the diags tools only
# (bench/measure.sh passes libumad2sim.so), so that the shell, awk and the
# rest run as they would on a real host. Exit 1 if discovery failed.

set -u
tenant=${1:-tenantA-*}
pre=${DIAGS_PRELOAD:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diags-audit.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

LD_PRELOAD=$pre ibnetdiscover >"$tmp/topo" || exit 1
mylid=$(LD_PRELOAD=$pre ibaddr -L) || exit 1
mylid=${mylid#LID start }
mylid=${mylid%% *}

# "LID PORT DESC" for every CA port: a "Ca" line names the node (its
# NodeDescription is the last quoted string), each "[N](guid)" line after
# it is a port whose own LID follows "# lid".
awk '
/^Ca/ { n = split($0, q, "\""); desc = q[n - 1]; inca = 1; next }
/^$/ { inca = 0; next }
inca && /^\[/ {
	port = substr($0, 2, index($0, "]") - 2)
	lid = $0; sub(/.*# lid /, "", lid); sub(/ .*/, "", lid)
	print lid, port, desc
}' "$tmp/topo" >"$tmp/ports"

n=0 foreign=0
while read -r lid port desc; do
	pi=$(LD_PRELOAD=$pre smpquery portinfo "$lid" "$port") || pi=
	pk=$(LD_PRELOAD=$pre smpquery pkeys "$lid" "$port") || pk=
	prot=${pi#*ProtectBits:}
	prot=${prot%%[!.0-9]*}
	prot=${prot##*.}
	case $pk in *0xffff*) full=yes ;; *) full=no ;; esac
	reach=-
	# shellcheck disable=SC2254  # the glob is the point
	case $desc in
	$tenant) ;;
	*)
		foreign=$((foreign + 1))
		pr=$(LD_PRELOAD=$pre saquery PR --slid "$mylid" --dlid "$lid" \
		    2>/dev/null) || pr=
		if [ -n "$pr" ]; then reach=yes; else reach=no; fi
		;;
	esac
	echo "lid $lid port $port protect=${prot:-?} default_full=$full" \
	    "reachable=$reach $desc"
	n=$((n + 1))
done <"$tmp/ports"
echo "ports=$n foreign=$foreign"
