#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The RPM database of an RPM-based root, as real rpm writes it: packages
# built by rpmbuild (names, epochs, releases and Vendor tags as Rocky,
# Docker's and NVIDIA's repositories ship them), registered by
# `rpm --root R --justdb` into the SQLite database rpm 4.16+ keeps, and a
# Rocky 9.4 os-release and kernel release.  Each verdict below follows
# from rpm's ordering (rpmvercmp) and the catalogue's rows, written from
# fixtures/cve/rpm/catalogue.json before running the scan:
#
#   runc 4:1.1.12-4.el9, Vendor Rocky: Rocky's build, judged by Rocky 9's
#     rows: CVE-2099-0101 fixed in 4:1.1.12-4.el9 (the installed EVR:
#     fixed), CVE-2099-0102 fixed in 4:1.1.12-4.el9_4 (el9 < el9_4:
#     affected), CVE-2099-0103 no Rocky row (undetermined)  -> fail
#   containerd.io 1.6.28-3.1.el9, Vendor Docker: upstream 1.6.28 against
#     [,1.6.28) (no) and [1.6.0,1.6.29) (yes)                -> fail
#   nvidia-container-toolkit 1.17.3-1, Vendor NVIDIA: [,1.17.3)  -> pass
#   kernel 5.14.0-427.13.1.el9_4.x86_64: Rocky's build, its row fixed in
#     5.14.0-427.16.1.el9_4 (13 < 16)                          -> fail
#
# Then: a database cut short is an error naming librpm's complaint, and
# the checks are not_tested, never pass; a root with no database says so.
# usage: tests/host/test_rpm.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/host/test_rpm.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
CAT=$(pwd)/fixtures/cve/rpm/catalogue.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v rpmbuild >/dev/null || ! command -v rpm >/dev/null; then
	fa_fail "rpm: rpmbuild and rpm are needed (make deps installs rpm)"
	fa_done
	exit
fi

# pkg NAME EPOCH VERSION RELEASE VENDOR
pkg() {
	{
		echo "Name: $1"
		[ -n "$2" ] && echo "Epoch: $2"
		echo "Version: $3"
		echo "Release: $4"
		echo "Vendor: $5"
		echo "Summary: $1 as its distributor ships it"
		echo "License: ASL 2.0"
		echo "BuildArch: noarch"
		printf '%%description\ntest\n%%files\n'
	} >"$T/SPECS/$1.spec"
	rpmbuild --define "_topdir $T" -bb "$T/SPECS/$1.spec" \
	    >"$T/rpmbuild.log" 2>&1 || fa_fail "rpm: rpmbuild $1 failed"
}

mkdir -p "$T/SPECS" "$T/root/etc" "$T/root/proc/sys/kernel"
pkg runc 4 1.1.12 4.el9 "Rocky Enterprise Software Foundation"
pkg containerd.io "" 1.6.28 3.1.el9 "Docker"
pkg nvidia-container-toolkit "" 1.17.3 1 "NVIDIA CORPORATION"
R=$T/root
rpm --root "$R" --dbpath /var/lib/rpm --initdb 2>/dev/null
rpm --root "$R" --dbpath /var/lib/rpm -i --justdb --nodeps --noscripts \
    --nosignature "$T"/RPMS/noarch/*.rpm 2>"$T/rpm.err"
expect_eq "rpm: rpm registered the three packages" "$(rpm --root "$R" \
    --dbpath /var/lib/rpm -qa 2>/dev/null | wc -l)" 3
cat >"$R/etc/os-release" <<'EOF'
NAME="Rocky Linux"
VERSION="9.4 (Blue Onyx)"
ID="rocky"
ID_LIKE="rhel centos fedora"
VERSION_ID="9.4"
EOF
echo 5.14.0-427.13.1.el9_4.x86_64 >"$R/proc/sys/kernel/osrelease"

# verdict DIR CHECK: the check's status in DIR/report.json.
verdict() {
	jq -r --arg c "$2" '[.results[] | select(.id == $c) | .status] |
	    join(",")' "$1/report.json"
}
# cve DIR CHECK CVE: that CVE's verdict in the check's evidence.
cve() {
	jq -r --arg c "$2" --arg v "$3" '[.results[] | select(.id == $c) |
	    .evidence[] | select(.field == "cves") | .value[] |
	    select(.cve == $v) | .verdict] | join(",")' "$1/report.json"
}

touch "$T/before"
sleep 1
"$BIN" scan --host="$R" --cve-db "$CAT" -o "$T/s" >"$T/out" 2>&1
expect_eq "rpm: the scan ends with findings (exit 1)" "$?" 1
S=$T/s
expect_eq "rpm: the database observation" "$(jq -r '.observations[] |
    select(.kind == "host.package" and .target == "rpm") |
    "\(.state) \(.data.backend) \(.data.packages) \(.data.found)"' \
    "$S/snapshot.json")" "complete sqlite 3 3"
expect_eq "rpm: runc's EVR, upstream and origin" "$(jq -r '.observations[] |
    select(.target == "rpm:runc") | .data | "\(.version) \(.upstream)" +
    " \(.origin) \(.source_package)"' "$S/snapshot.json")" \
    "4:1.1.12-4.el9 1.1.12 rocky runc"
expect_eq "rpm: Docker's containerd.io is a vendor build" "$(jq -r \
    '.observations[] | select(.target == "rpm:containerd.io") |
    .data.origin' "$S/snapshot.json")" vendor
expect_eq "rpm: runc fails" "$(verdict "$S" HOST-RUNC-VULN)" fail
expect_eq "rpm: runc at Rocky's fix is fixed" \
    "$(cve "$S" HOST-RUNC-VULN CVE-2099-0101)" fixed
expect_eq "rpm: runc below Rocky's fix (el9 < el9_4) is affected" \
    "$(cve "$S" HOST-RUNC-VULN CVE-2099-0102)" affected
expect_eq "rpm: runc with no Rocky row is undetermined" \
    "$(cve "$S" HOST-RUNC-VULN CVE-2099-0103)" undetermined
expect_grep "rpm: the finding names the rpm package" \
    'runc 4:1.1.12-4.el9 \(rpm\)' "$S/report.txt"
expect_eq "rpm: containerd.io fails on the upstream range" \
    "$(verdict "$S" HOST-CONTAINERD-VULN)" fail
expect_eq "rpm: containerd at the fix is not listed as affected" \
    "$(cve "$S" HOST-CONTAINERD-VULN CVE-2099-0201)" ""
expect_eq "rpm: containerd below the fix is affected" \
    "$(cve "$S" HOST-CONTAINERD-VULN CVE-2099-0202)" affected
expect_eq "rpm: the toolkit at its fix passes" \
    "$(verdict "$S" HOST-NVIDIA-CTK-VULN)" pass
expect_eq "rpm: Rocky's kernel below Rocky's fix fails" \
    "$(verdict "$S" HOST-KERNEL-VULN)" fail
expect_eq "rpm: by Rocky's row" \
    "$(cve "$S" HOST-KERNEL-VULN CVE-2099-0401)" affected
expect_eq "rpm: an EL kernel: a CVE introduced upstream after its 5.14 is" \
    "$(cve "$S" HOST-KERNEL-VULN CVE-2099-0403)" undetermined
expect_eq "rpm: the database was read from a private copy, left nowhere" \
    "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'fabaudit-rpmdb.*' \
    -newer "$T/before" 2>/dev/null | wc -l)" 0
expect_eq "rpm: nothing was written into the audited root" \
    "$(find "$R" -newer "$T/before" | wc -l)" 0

# A kernel from elsewhere on the same Rocky (ELRepo's kernel-ml): not
# Rocky's build, so Rocky's rows do not judge it; its upstream 6.6.30 is
# inside [6.0, 6.6.31) and [6.2, 6.6.31).
echo 6.6.30-1.el9.elrepo.x86_64 >"$R/proc/sys/kernel/osrelease"
"$BIN" scan --host="$R" --cve-db "$CAT" -o "$T/e" >/dev/null 2>&1
expect_eq "rpm: ELRepo's kernel on Rocky fails on the upstream range" \
    "$(verdict "$T/e" HOST-KERNEL-VULN)" fail
expect_eq "rpm: ... not by Rocky's row" "$(jq -r '[.results[] |
    select(.id == "HOST-KERNEL-VULN") | .evidence[] |
    select(.field == "cves") | .value[] | select(.cve == "CVE-2099-0402") |
    "\(.verdict) \(.rule)"] | join(",")' "$T/e/report.json")" \
    "affected upstream range"
echo 5.14.0-427.13.1.el9_4.x86_64 >"$R/proc/sys/kernel/osrelease"

# The chain from a feed: a catalogue built from AlmaLinux's OSV advisory
# (fixed in 4:1.1.12-1.el9_3) and the Go database's record (upstream
# fixed in 1.1.12), and an AlmaLinux 9 root whose runc is AlmaLinux's
# build: 4:1.1.12-1.el9_3 is at the fix (not affected, by AlmaLinux's
# row, although its upstream 1.1.12 would say the same), 4:1.1.11-1.el9
# below it (affected, by the row).
"$BIN" catalogue build -o "$T/alma.json" \
    osv:fixtures/cve/osv/ALSA-runc.json osv:fixtures/cve/osv/GO-2024-2491.json \
    >/dev/null 2>"$T/alma.err"
expect_eq "rpm: a catalogue from AlmaLinux's OSV is built" "$?" 0
expect_eq "rpm: ... with AlmaLinux 9's row on CVE-2024-21626" "$(jq -r \
    '.entries[] | select(.id == "CVE-2024-21626") | .distro[] |
    "\(.os) \(.release) \(.package) \(.fixed)"' "$T/alma.json")" \
    "almalinux 9 runc 4:1.1.12-1.el9_3"
for v in 1.1.12:1.el9_3:no 1.1.11:1.el9:yes; do
	ver=${v%%:*} rest=${v#*:}
	rel=${rest%%:*} want=${rest#*:}
	A=$T/alma-$ver
	mkdir -p "$A/etc"
	rm -rf "$T/RPMS"
	pkg runc 4 "$ver" "$rel" "AlmaLinux"
	rpm --root "$A" --dbpath /var/lib/rpm --initdb 2>/dev/null
	rpm --root "$A" --dbpath /var/lib/rpm -i --justdb --nodeps \
	    --noscripts --nosignature "$T"/RPMS/noarch/*.rpm 2>/dev/null
	printf 'ID="almalinux"\nVERSION_ID="9.3"\n' >"$A/etc/os-release"
	"$BIN" scan --host="$A" --cve-db "$T/alma.json" -o "$T/as-$ver" \
	    >/dev/null 2>&1
	if [ "$want" = yes ]; then
		expect_eq \
		    "rpm: AlmaLinux runc 4:$ver-$rel below the fix fails" \
		    "$(verdict "$T/as-$ver" HOST-RUNC-VULN)" fail
	else
		expect_eq "rpm: AlmaLinux runc 4:$ver-$rel at the fix passes" \
		    "$(verdict "$T/as-$ver" HOST-RUNC-VULN)" pass
	fi
	expect_eq "rpm: ... decided by AlmaLinux's row" "$(jq -r '[.results[] |
	    select(.id == "HOST-RUNC-VULN") | .evidence[] |
	    select(.field == "cves") | .value[] |
	    select(.cve == "CVE-2024-21626") | .rule] | join(",")' \
	    "$T/as-$ver/report.json")" "distribution data for this release"
done

# A database cut short: librpm's complaint, and no pass.
head -c 8192 "$R/var/lib/rpm/rpmdb.sqlite" >"$T/cut"
cp "$T/cut" "$R/var/lib/rpm/rpmdb.sqlite"
rm -f "$R/var/lib/rpm/rpmdb.sqlite-wal" "$R/var/lib/rpm/rpmdb.sqlite-shm"
"$BIN" scan --host="$R" --cve-db "$CAT" -o "$T/c" >"$T/out" 2>&1
expect_eq "rpm: cut database: the observation is an error" "$(jq -r \
    '.observations[] | select(.target == "rpm") | .state' \
    "$T/c/snapshot.json")" error
expect_grep "rpm: cut database: the reason names the file and librpm" \
    '/var/lib/rpm/rpmdb.sqlite: librpm' "$T/c/snapshot.json"
expect_eq "rpm: cut database: runc is not tested" \
    "$(verdict "$T/c" HOST-RUNC-VULN)" not_tested
expect_grep "rpm: cut database: the reason says why" \
    'no runc version found: /var/lib/rpm/rpmdb.sqlite: librpm' \
    "$T/c/report.txt"

# No database at all: not collected, and said so.
rm -rf "$R/var/lib/rpm"
"$BIN" scan --host="$R" --cve-db "$CAT" -o "$T/n" >"$T/out" 2>&1
expect_eq "rpm: no database: not collected" "$(jq -r '.observations[] |
    select(.target == "rpm") | .state' "$T/n/snapshot.json")" \
    not_collected
expect_eq "rpm: no database: runc is not tested" \
    "$(verdict "$T/n" HOST-RUNC-VULN)" not_tested
fa_done
