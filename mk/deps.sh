#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian packages fabaudit needs to build, test and run the demo.
# libclang-rt-dev holds clang's sanitizer and libFuzzer runtimes (make
# fuzz); clang only recommends it.  The real-runtime test bed
# (tests/host/test_runtimes.sh) runs runc, crun, podman (rootless: newuidmap
# from uidmap, its pause process catatonit, both only recommended), docker
# with its own containerd, and systemd-nspawn (systemd-container).
# As root: one `apt-get update`, then `apt-get install -y` of what is missing.
# Otherwise: print the exact command and fail.  Called by `make deps`.
set -eu

PKGS="make gcc clang libclang-rt-dev pkg-config
libibumad-dev libibmad-dev libibnetdisc-dev
libnl-3-dev libnl-route-3-dev libpcap-dev zlib1g-dev libssl-dev libxml2-dev
libjansson-dev
libcmocka-dev libdpkg-dev libcap-dev librpm-dev rpm golang-go
ibsim-utils libumad2sim0 opensm infiniband-diags
mandoc jq tshark tcpdump lldpd
slurmctld slurmd slurm-client munge debhelper dpkg-dev
libxml2-utils chromium poppler-utils python3-yaml python3-kubernetes util-linux
runc crun podman catatonit uidmap docker.io containerd systemd-container
passwd procps"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "fabaudit: missing packages:$missing" >&2
	echo "fabaudit: run as root: $cmd" >&2
	exit 1
fi
echo "fabaudit: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing
