#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ethbench.sh: part of `make bench` (bench/README): how fast and how lean
# is a --pcap scan of a large capture, next to tshark reading the same
# file?  bench/mkethcap writes a classic pcap of a busy cluster segment
# (10,000,000 frames by default), then, one run each, measured by
# bench/rusage (wall clock, peak RSS):
#
#   fabaudit scan -q --eth --pcap BIG -c policy -o DIR -f json
#   tshark -r BIG -Y vlan >/dev/null
#
# and prints one row: frames, each tool's seconds and MiB, and the time
# and memory ratios (tshark / fabaudit).  The capture and the scan's
# output are removed afterwards, also on failure or interruption.
#
#   sh bench/ethbench.sh BUILD_DIR [FRAMES]     (from the repository root)
#
# If /tmp has less room than the capture needs (about 255 bytes a frame,
# plus a quarter for the rest), FRAMES is lowered to fit and the row says
# so.  Environment: ETHBENCH_TIMEOUT (s per command, default 1800).
# Exit status: 0 when both commands ran (fabaudit exits 1 on this file:
# it has findings), 1 if a measurement could not be made, 2 usage.
set -u
[ $# -ge 1 ] || { echo "usage: ethbench.sh BUILD_DIR [FRAMES]" >&2; exit 2; }
bb=$(cd "$1" && pwd) || exit 2
n=${2:-10000000}
case $n in ''|*[!0-9]*) echo "ethbench.sh: FRAMES: '$n'" >&2; exit 2 ;; esac
to=${ETHBENCH_TIMEOUT:-1800}
for f in fabaudit bench/mkethcap bench/rusage; do
	[ -x "$bb/$f" ] ||
		{ echo "ethbench.sh: no $bb/$f (make bench-build)" >&2; exit 2; }
done
if ! command -v tshark >/dev/null 2>&1; then
	echo "ethbench.sh: tshark not found: the Ethernet bench is skipped" >&2
	exit 0
fi

df -h /tmp
# Room: 255 bytes a frame for the capture, a quarter more for the rest.
avail=$(df -Pk /tmp | awk 'NR == 2 { print $4 }')
need=$((n * 255 / 1024 * 5 / 4))
note=
if [ "$avail" -lt "$need" ]; then
	n2=$((avail * 1024 / 255 * 4 / 5))
	n2=$((n2 / 1000 * 1000))
	if [ "$n2" -lt 100000 ]; then
		echo "ethbench.sh: /tmp has ${avail} KiB free, too little" >&2
		exit 1
	fi
	note=" (lowered from $n: /tmp has $((avail / 1024)) MiB free)"
	n=$n2
fi

d=$(mktemp -d /tmp/ethbench.XXXXXX) || exit 1
trap 'rm -rf "$d"' EXIT
trap 'exit 1' INT TERM HUP
cat >"$d/policy.conf" <<'POL'
tenant_vlan   120
tenant_subnet 10.20.0.0/16
dhcp_server   10.20.0.1
POL

echo "ethbench: writing $n frames$note to $d/big.pcap"
"$bb/bench/mkethcap" -n "$n" "$d/big.pcap" || exit 1
ls -l "$d/big.pcap"

# val FILE KEY: one key=value of rusage's line.
val() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }

fail=0
"$bb/bench/rusage" -t "$to" -o "$d/fa.ru" -- "$bb/fabaudit" scan -q \
    --eth --pcap "$d/big.pcap" -c "$d/policy.conf" -o "$d/out" -f json \
    >"$d/fa.out" 2>"$d/fa.err"
st=$(val "$d/fa.ru" status)
if [ "${st:-x}" != 0 ] && [ "${st:-x}" != 1 ]; then
	echo "ethbench: fabaudit failed (status ${st:-?}):" >&2
	head -5 "$d/fa.err" >&2
	fail=1
fi
read_frames=$(jq '[.observations[] | select(.kind == "eth.capture") |
    .data.frames] | add' "$d/out/snapshot.json" 2>/dev/null)
rogue=$(jq -r '.results[] | select(.id == "ETH-ROGUE-DHCP") | .status' \
    "$d/out/report.json" 2>/dev/null)
rm -rf "$d/out"

"$bb/bench/rusage" -t "$to" -o "$d/ts.ru" -- tshark -r "$d/big.pcap" \
    -Y vlan >/dev/null 2>"$d/ts.err"
ts=$(val "$d/ts.ru" status)
if [ "${ts:-x}" != 0 ]; then
	echo "ethbench: tshark failed (status ${ts:-?}):" >&2
	head -5 "$d/ts.err" >&2
	fail=1
fi

fw=$(val "$d/fa.ru" wall) fr=$(val "$d/fa.ru" maxrss_kb)
tw=$(val "$d/ts.ru" wall) trss=$(val "$d/ts.ru" maxrss_kb)
echo
echo "Ethernet --pcap scan of a busy segment (one run each)$note"
awk -v n="$n" -v fw="${fw:-0}" -v fr="${fr:-0}" -v tw="${tw:-0}" \
    -v trss="${trss:-0}" 'BEGIN {
	h = "    frames | fabaudit s      MiB | tshark -Y vlan s      MiB"
	print h " | time tshark/fabaudit  RSS tshark/fabaudit"
	rt = fw > 0 ? tw / fw : 0
	rm = fr > 0 ? trss / fr : 0
	printf "%10d | %10.2f %8.1f | %16.2f %8.1f | %20.2f %17.2f\n", n, fw, fr / 1024, tw, trss / 1024, rt, rm
}'
echo "fabaudit read ${read_frames:-?} frames (exit ${st:-?});" \
    "ETH-ROGUE-DHCP ${rogue:-?} (the offer at 90 % of the file)"
exit "$fail"
