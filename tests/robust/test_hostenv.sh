#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A hostile host sysroot (--host=SYSROOT): each file the host family reads
# is replaced in a scratch copy of a fixture tree by something that cannot
# be read as the file it should be: mode 000 (the scan runs as nobody, as
# root ignores mode bits), a directory, a FIFO (must not block), a device
# node (must not be opened), a symlink to itself, a two-link cycle, a chain
# deeper than the kernel follows, a link escaping the sysroot, and a huge
# sparse file.  Every run must end (no hang), exit 0, 1 or 3 (no crash),
# record that observation as not complete with the reason, and give no
# pass the fault-free run does not give (no false pass).
# usage: tests/robust/test_hostenv.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$1
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"

if [ "$(id -u)" -ne 0 ] || ! $NOBODY true 2>/dev/null; then
	fa_fail "host environment faults need root and setpriv"
	fa_done
	exit
fi
[ -x "$B/tests/mkspecial" ] || make -s B="$B" "$B/tests/mkspecial" ||
    fa_fail "build mkspecial"

# A fresh copy of the fixture tree, readable by nobody.
fresh() {
	rm -rf "$T/root"
	cp -a fixtures/host/gpu-privileged "$T/root"
	"$B/tests/mkspecial" "$T/root" || fa_fail "mkspecial"
	chmod -R a+rX "$T/root"
}

# scan NAME: the host family of the scratch tree, as nobody, bounded.
scan() {
	rm -rf "$T/$1"
	mkdir "$T/$1" && chmod 777 "$T/$1"
	timeout 120 $NOBODY "$BIN" scan -q --host="$T/root" -o "$T/$1/o" \
	    >"$T/$1/out" 2>"$T/$1/err"
	echo $?
}

# status lines "ID TARGET STATUS" of a report.
statuses() {
	jq -r '.results[] | select(.family == "host") |
	    "\(.id) \(.target) \(.status)"' "$1" | sort
}

fresh
rc=$(scan base)
expect_eq "fault-free run exits 1" "$rc" 1
statuses "$T/base/o/report.json" >"$T/base.st"
expect_eq "fault-free run has results" \
    "$([ -s "$T/base.st" ] && echo yes)" yes

# A file outside the sysroot that no link may reach.
echo "OUTSIDE-CANARY 1.0" >"$T/outside"
chmod 644 "$T/outside"

# fault KIND FILE: replace FILE (a path in the tree) by KIND.
fault() {
	f=$T/root$2
	rm -rf "$f"
	mkdir -p "$(dirname "$f")"
	case $1 in
	mode000) cp -a "fixtures/host/gpu-privileged$2" "$f"; chmod 000 "$f" ;;
	file) echo "not what was expected" >"$f" ;;
	dir) mkdir "$f" ;;
	fifo) mkfifo "$f" ;;
	chrdev) mknod "$f" c 1 3 ;;	# /dev/null's numbers
	selfloop) ln -s "$(basename "$f")" "$f" ;;
	cycle) ln -s "$(basename "$f").b" "$f"; ln -s "$(basename "$f")" \
	    "$f.b" ;;
	deep)	# 45 links: the kernel follows at most 40 (ELOOP)
		cp -a "fixtures/host/gpu-privileged$2" "$f.45"
		i=44
		while [ "$i" -ge 0 ]; do
			ln -s "$(basename "$f").$((i + 1))" "$f.$i"
			i=$((i - 1))
		done
		mv "$f.0" "$f" ;;
	escape)	# enough ../ to leave any tree, then the outside file
		ln -s "../../../../../../../../../../../../../..$T/outside" \
		    "$f" ;;
	huge) truncate -s 8G "$f" ;;
	esac
}

# The reason a fault must be reported with (extended regex).
want_reason() {
	case $1 in
	mode000) echo 'ermission denied' ;;
	dir|fifo|chrdev) echo 'not a regular file' ;;
	selfloop|cycle|deep) echo 'symbolic links' ;;
	escape) echo 'not found|exists\)' ;;
	huge) echo 'larger than|too large' ;;
	*) echo . ;;
	esac
}

cases=0
# Files, then directories the family lists, each with every fault.
FILES="/proc/self/status /proc/self/mountinfo /proc/self/uid_map
    /var/lib/dpkg/status /proc/sys/kernel/osrelease
    /proc/driver/nvidia/version"
for file in $FILES /dev /proc/self/ns; do
	case $file in
	/dev|/proc/self/ns) kinds="mode000 file fifo selfloop cycle deep escape" ;;
	*) kinds="mode000 dir fifo chrdev selfloop cycle deep escape huge" ;;
	esac
	for kind in $kinds; do
		n="$kind$(echo "$file" | tr / _)"
		cases=$((cases + 1))
		fresh
		fault "$kind" "$file"
		t0=$(date +%s)
		rc=$(scan "$n")
		t1=$(date +%s)
		case $rc in
		0|1|3) fa_pass "$n: exits $rc" ;;
		124) fa_fail "$n: hangs (killed after 120 s)" ;;
		*) fa_fail "$n: exits $rc"; sed 's/^/  /' "$T/$n/err" ;;
		esac
		expect_eq "$n: within 30 s" "$((t1 - t0 < 30))" 1
		r=$T/$n/o/report.json
		s=$T/$n/o/snapshot.json
		if [ ! -s "$r" ] || [ ! -s "$s" ]; then
			fa_fail "$n: no report"
			continue
		fi
		# The observation that reads the file is not complete, and
		# says why, naming the file.
		expect_eq "$n: its observation is not complete" "$(jq -r \
		    --arg f "$file" '[.observations[] | select((.target ==
		    $f or .request == $f or .request == "read " + $f) and
		    .state == "complete")] | length' "$s")" 0
		got=$(jq -r --arg f "$file" '[.observations[] |
		    select(.target == $f or .request == $f or
		    .request == "read " + $f) | .reason // ""] | unique |
		    join(" | ")' "$s")
		# (directories: any reason that names them)
		re=$(want_reason "$kind")
		[ -d "fixtures/host/gpu-privileged$file" ] && re=.
		if echo "$got" | grep -Fq -- "$file" &&
		    echo "$got" | grep -Eq -- "$re"; then
			fa_pass "$n: reason names the file and the fault"
		else
			fa_fail "$n: reason '$got'"
		fi
		# No false pass: nothing passes that failed or was not
		# decided without the fault.
		statuses "$r" >"$T/$n.st"
		fp=$(awk 'NR == FNR { st[$1 " " $2] = $3; next }
		    $3 == "pass" && (($1 " " $2) in st) &&
		    st[$1 " " $2] != "pass" { print $1 " " $2 }' \
		    "$T/base.st" "$T/$n.st")
		expect_eq "$n: no false pass" "$fp" ""
		# A result whose reason names the file is not a pass.
		expect_eq "$n: no pass that names the unread file" "$(jq -r \
		    --arg f "$file" '[.results[] | select(.status == "pass" and
		    (.reason // "" | contains($f + ": ")))] | length' "$r")" 0
		expect_nogrep "$n: nothing from outside the sysroot" \
		    OUTSIDE-CANARY "$s" "$r"
		expect_eq "$n: no more than one line on stderr" \
		    "$(($(wc -l <"$T/$n/err") <= 1))" 1
	done
done
echo "FIGURE host_fault_cases $cases"
fa_done
