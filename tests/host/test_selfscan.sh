#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The live self-test (issue 19): `fabaudit scan --host` of the machine the
# test runs on, asserted against what this test establishes on its own
# with shell tools: the namespaces of this process against the kernel's
# fixed initial inode numbers, the cgroups of this process and of PID 1,
# PID 1's name, the CPU's hypervisor flag, the dpkg database.  On a VM or
# bare metal the container checks must be not_applicable; in a container
# (a CI job run in one) they must all apply.  Where the facts are mixed
# and this test cannot tell on its own, it says SKIP, never PASS.
# usage: tests/host/test_selfscan.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/host/test_selfscan.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ------------------------------------------------------------------ facts
# The inode numbers of the initial namespaces (uapi linux/nsfs.h since
# 6.18; include/linux/proc_ns.h before).  The net and mnt ones are fixed
# only since Linux 6.18: on older kernels their links prove nothing.
init_ino() {
	case $1 in
	ipc) echo 4026531839 ;;		# 0xEFFFFFFF
	uts) echo 4026531838 ;;		# 0xEFFFFFFE
	user) echo 4026531837 ;;	# 0xEFFFFFFD
	pid) echo 4026531836 ;;		# 0xEFFFFFFC
	cgroup) echo 4026531835 ;;	# 0xEFFFFFFB
	time) echo 4026531834 ;;	# 0xEFFFFFFA
	net) echo 4026531833 ;;		# 0xEFFFFFF9
	mnt) echo 4026531832 ;;		# 0xEFFFFFF8
	esac
}
rel=$(uname -r)
maj=${rel%%.*}
min=${rel#*.}
min=${min%%[!0-9]*}
new_kernel=no
[ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 18 ]; } && new_kernel=yes

initial="" own="" unknown=""
for ns in pid ipc uts user cgroup time net mnt; do
	ino=$(stat -L -c %i "/proc/self/ns/$ns" 2>/dev/null)
	if [ -z "$ino" ]; then
		unknown="$unknown $ns"
	elif [ "$ino" = "$(init_ino $ns)" ]; then
		initial="$initial $ns"
	elif [ $ns = net ] || [ $ns = mnt ] && [ $new_kernel = no ]; then
		unknown="$unknown $ns"
	else
		own="$own $ns"
	fi
done
echo "facts: kernel $rel; initial namespaces:${initial:- none};" \
    "own:${own:- none}; unknown:${unknown:- none}"

# A container runtime's cgroup (the list of fabaudit-checks(7)), in ours
# or PID 1's; PID 1's cgroup outside our cgroup namespace ("/..").
rtcg=$(cat /proc/self/cgroup /proc/1/cgroup 2>/dev/null | grep -E \
    'kubepods|/docker/|/docker-|cri-containerd|/crio-|libpod|/lxc/|lxc\.payload|systemd-nspawn@|/machine\.slice/machine-|/ecs/|/garden/|/buildkit/' |
    head -1)
pid1out=$(cut -d: -f3- /proc/1/cgroup 2>/dev/null | grep '^/\.\.' | head -1)
pid1=$(cat /proc/1/comm 2>/dev/null)
echo "facts: PID 1 is ${pid1:-unreadable}; runtime cgroup:" \
    "${rtcg:-none}; PID 1 outside our cgroup namespace: ${pid1out:-no}"
grep -qw hypervisor /proc/cpuinfo && hyp=yes || hyp=no
echo "facts: the CPU's hypervisor flag: $hyp;" \
    "/.dockerenv: $([ -e /.dockerenv ] && echo present || echo absent)"

# What the facts say, by the rules a reader can check: a PID namespace of
# our own is a container; the initial PID namespace with every namespace
# read initial (all eight on 6.18 and later, the six with fixed numbers
# before), no runtime cgroup and PID 1 inside our cgroup namespace is
# not.  Anything else is left to fabaudit's weighing and not asserted.
case " $own " in
*" pid "*) want=yes ;;
*)
	want=""
	if [ -z "$own" ] && [ -z "$rtcg" ] && [ -z "$pid1out" ]; then
		case "$unknown" in
		"" | " net mnt") case " $initial " in *" pid "*) want=no ;; esac ;;
		esac
	fi
	;;
esac

# ------------------------------------------------------------------- scan
"$BIN" scan --host -q -o "$T/plain" >"$T/plain.out" 2>"$T/plain.err"
rc=$?
case $rc in
0 | 1) fa_pass "self: the scan of this machine ran (exit $rc)" ;;
*) fa_fail "self: the scan of this machine exited $rc: $(head -3 \
    "$T/plain.err" | tr '\n' ' ')" ;;
esac
echo "dedicated_host yes" >"$T/dedicated.conf"
"$BIN" scan --host -q -c "$T/dedicated.conf" -o "$T/ded" >/dev/null \
    2>"$T/ded.err"
R=$T/plain/report.json
[ -f "$R" ] && [ -f "$T/ded/report.json" ] || {
	fa_fail "self: no report.json"
	fa_done
	exit
}

envf() {
	jq -r '[.results[] | select(.id == "HOST-TENANCY") | .evidence[]? |
	    select(.field == "environment") | .value.'"$1"'][0] // "none"' \
	    "${2:-$R}"
}
res() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] |
	    unique | join(",")' "${2:-$R}"
}
CCHECKS="HOST-PRIVILEGED HOST-CAP-DANGEROUS HOST-SECCOMP-OFF HOST-LSM-OFF
HOST-NNP-OFF HOST-USERNS-ROOT HOST-NS-SHARED HOST-HOSTPATH
HOST-CGROUP-ESCAPE HOST-DEVICE-EXPOSED"

echo "facts say container: ${want:-cannot tell}"
echo "fabaudit says container: $(envf container), VM: $(envf vm);" \
    "$(jq -r '.results[] | select(.id == "HOST-TENANCY") | .reason' "$R" |
    cut -c1-600)"

expect_eq "self: PID 1's name in the evidence is /proc/1/comm" \
    "$(envf pid1)" "${pid1:-none}"
if [ -e /.dockerenv ]; then
	expect_eq "self: the evidence lists the /.dockerenv tell" \
	    "$(jq -r '[.results[] | select(.id == "HOST-TENANCY") |
	    .evidence[]? | select(.field == "environment") | .value.tells[]? |
	    select(.tell | test("/\\.dockerenv"))] | length > 0' "$R")" true
fi

case $want in
no)
	expect_eq "self: not a container (pid namespace and every namespace\
 read initial, no runtime cgroup)" "$(envf container)" no
	for id in $CCHECKS; do
		expect_eq "self: $id not_applicable (not a container)" \
		    "$(res "$id")" not_applicable
	done
	if [ $hyp = yes ]; then
		expect_eq "self: a VM (the CPU's hypervisor flag)" \
		    "$(envf vm)" yes
		expect_eq "self: the container checks say why: a VM" "$(jq -r '
		    [.results[] | select(.id == "HOST-PRIVILEGED") | .reason |
		    test("\\bVM\\b")] | all' "$R")" true
		expect_eq "self: HOST-TENANCY fails against dedicated_host yes\
 (a VM's physical host may be shared)" \
		    "$(res HOST-TENANCY "$T/ded/report.json")" fail
	fi
	# The host's own packages, read from its dpkg database: each
	# installed version is judged (HOST-*-VULN names it).
	for pv in runc:HOST-RUNC-VULN containerd:HOST-CONTAINERD-VULN \
	    docker.io:HOST-DOCKER-VULN docker-ce:HOST-DOCKER-VULN; do
		p=${pv%%:*} id=${pv#*:}
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
		[ "$st" = installed ] || continue
		v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null)
		expect_eq "self: $id judges dpkg's $p $v" "$(jq -r --arg t \
		    "dpkg:$p" --arg v "$v" --arg id "$id" '[.results[] |
		    select(.id == $id and .target == $t and
		    (.reason | contains($v)))] | length > 0' "$R")" true
		# Who built it, as dpkg-query reads the Maintainer field.
		m=$(dpkg-query -W -f='${Maintainer}' "$p" 2>/dev/null)
		case $m in
		*ubuntu.com\>) o=ubuntu ;;
		*debian.org\>) o=debian ;;
		'') o=unknown ;;
		*) o=vendor ;;
		esac
		src=$(dpkg-query -W -f='${source:Package}' "$p" 2>/dev/null)
		expect_eq "self: dpkg's $p is a $o build of source $src" \
		    "$(jq -r --arg t "dpkg:$p" '.observations[] |
		    select(.kind == "host.package" and .target == $t) |
		    "\(.data.origin) \(.data.source_package)"' \
		    "$T/plain/snapshot.json")" "$o $src"
	done
	;;
yes)
	expect_eq "self: a container (a pid namespace of its own or a\
 runtime's cgroup)" "$(envf container)" yes
	for id in $CCHECKS; do
		st=$(res "$id")
		if [ "$st" = not_applicable ]; then
			fa_fail "self: $id applies in a container (got" \
			    "not_applicable)"
		else
			fa_pass "self: $id applies in a container ($st)"
		fi
	done
	;;
*)
	fa_skip "self: whether this is a container: the facts are mixed" \
	    "(own:${own:- none}; unknown:${unknown:- none};" \
	    "runtime cgroup: ${rtcg:-none}), left to fabaudit's weighing"
	;;
esac

# The kernel judged is the running one.
expect_eq "self: HOST-KERNEL-VULN judges the running kernel $rel" \
    "$(jq -r --arg r "$rel" '[.results[] | select(.id == "HOST-KERNEL-VULN")
    | .reason | contains($r)] | any' "$R")" true

# The snapshot re-evaluates to the same results offline.
"$BIN" check -q -o "$T/check" "$T/plain/snapshot.json" >/dev/null 2>&1
for d in plain check; do
	jq -r '.results[] | select(.family == "host") |
	    "\(.status) \(.id) \(.target) \(.reason)"' \
	    "$T/$d/report.json" >"$T/$d.got" 2>/dev/null
done
if cmp -s "$T/plain.got" "$T/check.got"; then
	fa_pass "self: fabaudit check reproduces the scan"
else
	fa_fail "self: fabaudit check differs from the scan"
	diff "$T/plain.got" "$T/check.got" | head -10
fi
fa_done
