#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Versions of the Go programs installed on this machine (runc, containerd,
# dockerd), as fabaudit reads them from the Go build information in the
# ELF file (fabric/host_gobuild.c, through `ftest_host_gobuild PATH`),
# against what comes from outside fabaudit:
#
#   version     the program's own `--version` output (the one place this
#               suite runs them; fabaudit never does)
#   go version  the bytes of the .go.buildinfo section, dumped by objcopy
#   no version  only when the section, as objcopy dumps it, holds neither
#               a "mod" line nor "-ldflags=" (a GOPATH build with
#               -trimpath, as Debian builds runc) and readelf shows no
#               version variable symbol; fabaudit must then say why
#
# A program that is not installed is a SKIP for each of its cases.
# usage: tests/host/test_gobuild.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/host/test_gobuild.sh BUILD_DIR}
T=$B/tests/ftest_host_gobuild
TO="timeout -k 5 20"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$T" ]; then
	fa_fail "gobuild: $T was not built"
	fa_done
	exit
fi

# find_bin NAME: the first installed path of fabaudit's list.
find_bin() {
	for _d in /usr/sbin /usr/bin /usr/local/bin /usr/local/sbin; do
		if [ -f "$_d/$1" ] && [ ! -L "$_d/$1" ]; then
			echo "$_d/$1"
			return 0
		fi
	done
	return 1
}

# own_version NAME PATH: the version the program prints.
own_version() {
	case $1 in
	runc) $TO "$2" --version | sed -n 's/^runc version //p' ;;
	containerd) $TO "$2" --version | awk 'NR == 1 {print $3}' ;;
	dockerd) $TO "$2" --version |
		sed -n 's/^Docker version \([^,]*\),.*/\1/p' ;;
	esac
}

# section_go_version FILE: the Go 1.18+ inline Go version of a dumped
# .go.buildinfo section (length byte at 32, the string after it).
section_go_version() {
	_n=$(od -An -tu1 -j32 -N1 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=33 count="$_n" 2>/dev/null
}

check() {
	name=$1
	if ! path=$(find_bin "$name"); then
		fa_skip "gobuild: $name version: $name is not installed"
		fa_skip "gobuild: $name Go version: $name is not installed"
		return
	fi
	"$T" "$path" >"$tmp/$name.out"
	echo "# $path: $(cat "$tmp/$name.out")"
	got=$(awk '{print $2}' "$tmp/$name.out")
	gover=$(awk '{print $NF}' "$tmp/$name.out")
	if ! objcopy -O binary --only-section=.go.buildinfo "$path" \
	    "$tmp/$name.bi" 2>/dev/null || [ ! -s "$tmp/$name.bi" ]; then
		fa_skip "gobuild: $name Go version: objcopy found no section"
		fa_skip "gobuild: $name version: objcopy found no section"
		return
	fi
	expect_eq "gobuild: $name Go version (section bytes)" "$gover" \
	    "$(section_go_version "$tmp/$name.bi")"
	if [ "$got" = "-" ]; then
		# No version found: the section and the symbol tables, as
		# binutils show them, must indeed have none.
		nover=1
		grep -aq -- '-ldflags=' "$tmp/$name.bi" && nover=0
		grep -aq "$(printf '^mod\t')" "$tmp/$name.bi" && nover=0
		readelf -sW --dyn-syms "$path" 2>/dev/null |
		    grep -Eq ' (main\.version|[^ ]*/version\.Version|[^ ]*'\
'dockerversion\.Version)$' && nover=0
		expect_eq "gobuild: $name has no version to read" "$nover" 1
		expect_grep "gobuild: $name says why" "trimpath" \
		    "$tmp/$name.out"
		return
	fi
	expect_eq "gobuild: $name version (as $name --version)" "$got" \
	    "$(own_version "$name" "$path")"
}

check runc
check containerd
check dockerd

# runc prints the Go version it was built with: a second witness.
if path=$(find_bin runc); then
	expect_eq "gobuild: runc Go version (as runc --version)" \
	    "$("$T" "$path" | awk '{print $NF}')" \
	    "$($TO "$path" --version | sed -n 's/^go: //p')"
fi
fa_done
