#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_host (see its header for the selector byte): the files
# of the host fixture trees fixtures/host/*, each behind the selector of
# its decoder, and the Cap* values of their status files.
# usage: fuzz/seeds/host.sh OUTDIR   (from the repo root)
set -eu
out=$1
mkdir -p "$out"
# seed SELECTOR(octal) RELATIVE-PATH NAME: one seed per fixture that has it.
seed() {
	for d in fixtures/host/*/; do
		f=$d$2
		[ -f "$f" ] || continue
		t=${d%/}
		{ printf "\\$1"; cat "$f"; } >"$out/$3-${t##*/}"
	done
}
seed 000 proc/self/status status
seed 001 proc/self/mountinfo mountinfo
seed 002 proc/self/uid_map uid_map
seed 003 var/lib/dpkg/status dpkg
seed 004 etc/nvidia-container-runtime/config.toml ctk
seed 005 proc/driver/nvidia/version nvrm
seed 005 proc/version procversion
seed 005 proc/sys/kernel/osrelease osrelease
seed 005 sys/module/nvidia/version sysmod
seed 007 proc/cpuinfo cpuinfo
seed 011 proc/net/unix netunix
seed 012 proc/sys/kernel/cap_last_cap caplast
seed 012 proc/sys/kernel/overflowuid overflowuid
k=0
for v in $(sed -n 's/^Cap[A-Za-z]*:[[:space:]]*//p' \
    fixtures/host/*/proc/self/status | sort -u); do
	k=$((k + 1))
	printf '\006%s' "$v" >"$out/cap-$k"
done
printf '\006cap_sys_admin' >"$out/capname"
printf '\007pid:[4026531836]' >"$out/nslink"
k=0
for v in $(sed -n 's/^Version: //p' fixtures/host/*/var/lib/dpkg/status |
    sort -u); do
	k=$((k + 1))
	printf '\010%s' "$v" >"$out/debver-$k"
done
