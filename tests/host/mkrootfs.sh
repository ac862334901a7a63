#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Build a minimal root file system holding one fabaudit binary, for the
# real-runtime test bed (tests/host/test_runtimes.sh): no shell, no
# package manager, no network configuration; only what the binary needs.
#
#   /fa/bin/fabaudit          the binary given
#   /fa/data/host-cves.json   the catalogue, where fabaudit looks for it when
#                             run from a build tree (<exe dir>/../data, see
#                             scanner/catalogue.c), so no --cve-db is needed
#   every library `ldd` lists, at the path it lists (the ASan and UBSan
#   runtimes of a sanitizer build included), and the dynamic loader
#   /etc/passwd, group, nsswitch.conf, os-release (systemd-nspawn wants
#   one), /usr (ditto), and empty /proc /sys /dev /tmp /run /out
#
# With TARBALL, also write the tree as a tar archive, for `docker import`
# and `podman import`.  Takes a second or two; the tree is ~60 MB, most of
# it ICU's data that libxml2 pulls in.
# usage: tests/host/mkrootfs.sh BINARY DIR [TARBALL]
set -eu
cd "$(dirname "$0")/../.."
bin=${1:?usage: mkrootfs.sh BINARY DIR [TARBALL]}
dir=${2:?usage: mkrootfs.sh BINARY DIR [TARBALL]}
tarball=${3:-}

[ -x "$bin" ] || { echo "mkrootfs: $bin: not an executable" >&2; exit 2; }
mkdir -p "$dir"
[ -z "$(ls -A "$dir")" ] || { echo "mkrootfs: $dir: not empty" >&2; exit 2; }

mkdir -p "$dir/fa/bin" "$dir/fa/data" "$dir/etc" "$dir/usr" "$dir/proc" \
    "$dir/sys" "$dir/dev" "$dir/run" "$dir/tmp" "$dir/out" "$dir/var"
chmod 1777 "$dir/tmp"
ln -s ../run "$dir/var/run"
cp "$bin" "$dir/fa/bin/fabaudit"
cp data/host-cves.json "$dir/fa/data/host-cves.json"

# Every library the loader resolves, and the loader itself (the line
# without "=>").  A library ldd cannot find is an error here, not a
# container that fails to start later.
libs=$(ldd "$bin") || { echo "mkrootfs: ldd $bin failed" >&2; exit 2; }
if printf '%s\n' "$libs" | grep -q 'not found'; then
	echo "mkrootfs: $bin: missing libraries:" >&2
	printf '%s\n' "$libs" | grep 'not found' >&2
	exit 2
fi
printf '%s\n' "$libs" | awk '
	$2 == "=>" && $3 ~ /^\// { print $3; next }
	$1 ~ /^\// { print $1 }' | sort -u | while read -r lib; do
	mkdir -p "$dir$(dirname "$lib")"
	cp -L "$lib" "$dir$lib"
done

cat >"$dir/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/nonexistent
nobody:x:65534:65534:nobody:/nonexistent:/nonexistent
EOF
cat >"$dir/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
printf 'passwd: files\ngroup: files\nhosts: files\n' >"$dir/etc/nsswitch.conf"
cat >"$dir/etc/os-release" <<'EOF'
NAME="fabaudit runtime test bed"
ID=fabaudit-testbed
EOF
: >"$dir/etc/hostname"
: >"$dir/etc/hosts"
: >"$dir/etc/resolv.conf"

if [ -n "$tarball" ]; then
	tar -C "$dir" --numeric-owner --owner=0 --group=0 -cf "$tarball" .
fi
