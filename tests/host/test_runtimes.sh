#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The real-runtime test bed (issue 19): the built fabaudit, in a root file
# system of its own (tests/host/mkrootfs.sh), run as `fabaudit scan --host`
# inside real containers of the runtimes Debian packages, and the host
# results asserted against what the runtime and its flags mean:
#
#   docker   dockerd started here (own data root, exec root, pid file and
#            socket in a temp dir, no bridge, no iptables), stopped by PID;
#            the image made with `docker import`
#   runc     an OCI bundle from `runc spec`, each variant edited with jq;
#            as root, with a user namespace, and rootless (`runc spec
#            --rootless`, run by a user made for the test)
#   crun     the same bundles, where crun can run on this cgroup layout
#   podman   rootless, as the test user with its own subuid/subgid range,
#            the image made with `podman import`, no network
#   nspawn   systemd-nspawn -D on a copy of the tree
#
# Each expected verdict is written from the flag, the runtime's documented
# default or the runtime's own configuration, never from fabaudit's output
# (the reason is given with each assertion).  Where a runtime cannot run
# here, each of its cases prints "SKIP: <case>: <reason>" and is not a
# pass.  No image is pulled and no container has a network of its own but
# loopback (or the host's, where the case is --network=host).
#
# With a sanitizer build, the sanitizers inside a container write to
# /fa/san, a directory of the case bind-mounted from here (suppression
# files are copied into the tree); each report found there afterwards is
# copied to the directory of $ASAN_OPTIONS' log_path, so that tests/run.sh
# counts it like any other suite's, or, without one, is a FAIL here.
#
# Everything (containers, daemon, mounts, the user and its processes, state
# directories the runtimes create in /run) is removed on exit; dockerd keeps
# its key in the temp dir too, not in /etc/docker.
# usage: tests/host/test_runtimes.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/host/test_runtimes.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
TO="timeout -k 5 60"	# no runtime may hang the suite

DOCKER_CASES="default|--cgroupns=private|--pid=host|--network=host\
|--cap-add=SYS_ADMIN|--privileged|docker.sock mounted|--device=/dev/kmsg"
RUNC_CASES="default (runc spec)|no pid namespace (host PIDs)\
|privileged (as docker --privileged)|user namespace|rootless"
CRUN_CASES="default (runc spec)|no pid namespace (host PIDs)\
|privileged (as docker --privileged)"
PODMAN_CASES="rootless default|rootless, docker.sock mounted"
NSPAWN_CASES="default|--private-network|--private-users=pick"

# skip_all RUNTIME REASON CASES: one SKIP line per case of a runtime.
skip_all() {
	_old=$IFS
	IFS='|'
	for _c in $3; do
		fa_skip "runtimes: $1 $_c: $2"
	done
	IFS=$_old
}

if [ "$(id -u)" -ne 0 ]; then
	why="needs root (starts a daemon, creates a user)"
	skip_all docker "$why" "$DOCKER_CASES"
	skip_all runc "$why" "$RUNC_CASES"
	skip_all crun "$why" "$CRUN_CASES"
	skip_all podman "$why" "$PODMAN_CASES"
	skip_all systemd-nspawn "$why" "$NSPAWN_CASES"
	exit 0
fi

T=$(mktemp -d /tmp/fa-runtimes.XXXXXX) || exit 2
chmod 711 "$T"		# the test user must reach its files below
U=fa-rt-$$		# the test user; its subordinate IDs:
SUB=524288		# 524288-589823 (podman, runc rootless)
MAPPED=655360		# root of the runc user-namespace case
DPID=""
UH=$T/home

# State directories the runtimes create outside $T (paths they hard-code:
# dockerd's plugin directory, containerd's shim sockets, systemd-nspawn's
# locks) are removed at the end if they were not there before and are empty.
STATEDIRS="/run/docker/plugins /run/docker /run/containerd/s /run/containerd
/run/systemd/nspawn/propagate /run/systemd/nspawn/locks /run/systemd/nspawn
/run/systemd/nspawn-uid"
pre=""
for d in $STATEDIRS; do
	[ -e "$d" ] && pre="$pre $d "
done

cleanup() {
	trap - EXIT INT TERM HUP
	# Containers first, then the daemon, by the PID we started it with.
	if [ -n "$DPID" ]; then
		for c in $(dk ps -aq 2>/dev/null); do
			dk rm -f "$c" >/dev/null 2>&1
		done
		kill "$DPID" 2>/dev/null
		i=0
		while kill -0 "$DPID" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
		# Its containerd, should dockerd have died before stopping it.
		cpid=$(cat "$T/docker/exec/containerd/containerd.pid" 2>/dev/null)
		[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	fi
	for rt in runc crun; do
		[ -d "$T/$rt-state" ] || continue
		for c in $($rt --root "$T/$rt-state" list -q 2>/dev/null); do
			$rt --root "$T/$rt-state" delete -f "$c" >/dev/null 2>&1
		done
	done
	# The test user: its containers, podman's pause process, and any
	# other process of it (each by its PID), then the user and its
	# subordinate ID ranges.
	if id "$U" >/dev/null 2>&1; then
		[ -n "${PODMAN_OK:-}" ] && pd rm -af >/dev/null 2>&1
		for p in $(pgrep -u "$U" 2>/dev/null); do
			kill "$p" 2>/dev/null
		done
		sleep 0.2
		for p in $(pgrep -u "$U" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
		userdel "$U" 2>/dev/null || { sleep 1; userdel "$U"; }
	fi
	# Mounts left under $T, deepest first.
	awk -v t="$T" 'index($5, t "/") == 1 { print $5 }' /proc/self/mountinfo |
	    sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf "$T"
	for d in $STATEDIRS; do
		case "$pre" in *" $d "*) ;; *) rmdir "$d" 2>/dev/null ;; esac
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Facts about this host that the expectations depend on, each from the
# kernel or the runtime's documentation, never from fabaudit.
# cgroup v1: docker (dockerd --default-cgroupns-mode) and podman
# (podman-run(1) --cgroupns) default to the host's cgroup namespace.
if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then cgv=2; else cgv=1; fi
CGSHARED=""
[ $cgv = 1 ] && CGSHARED=cgroup
# The CPU's hypervisor flag: a container here is a container on a VM.
grep -qw hypervisor /proc/cpuinfo && hyp=yes || hyp=no
# No LSM gives processes a label (AppArmor and SELinux both would): then
# nothing can confine any container, and HOST-LSM-OFF must fail in each.
nolsm=no
if ! cat /proc/self/attr/current >/dev/null 2>&1 &&
    [ ! -e /sys/fs/selinux/enforce ] &&
    [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" != Y ]
then
	nolsm=yes
fi

# The capabilities this host's root itself lacks (its bounding set against
# the kernel's cap_last_cap; linux/capability.h numbers them): no runtime
# can grant them, so the --privileged case drops them, or nothing starts.
CAPNAMES="CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID
SETPCAP LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW
IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT
SYS_ADMIN SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE
AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM
BLOCK_SUSPEND AUDIT_READ PERFMON BPF CHECKPOINT_RESTORE"
bnd=$((0x$(awk '/^CapBnd:/ { print $2 }' /proc/self/status)))
last=$(cat /proc/sys/kernel/cap_last_cap)
NOCAPS="" HOSTCAPS="" i=0
for c in $CAPNAMES; do
	if [ $i -le "$last" ]; then
		if [ $(((bnd >> i) & 1)) -eq 0 ]; then
			NOCAPS="$NOCAPS $c"
		else
			HOSTCAPS="$HOSTCAPS $c"
		fi
	fi
	i=$((i + 1))
done

# ---------------------------------------------------------------- the tree
ROOTFS=$T/rootfs
sh tests/host/mkrootfs.sh "$BIN" "$ROOTFS" >"$T/mkrootfs.log" 2>&1 || {
	fa_fail "runtimes: mkrootfs: $(tail -3 "$T/mkrootfs.log" | tr '\n' ' ')"
	exit 1
}
mkdir -p "$ROOTFS/fa/san" "$ROOTFS/fa/supp"
# The tenant was promised dedicated hosts: every container's host may be
# shared, so HOST-TENANCY must fail in each one.
echo "dedicated_host yes" >"$ROOTFS/fa/dedicated.conf"

# Sanitizer options for inside: log_path into /fa/san, suppression files
# copied into the tree.  xlate TOOL OPTIONS LOGPATH?
xlate() {
	_o="" _old=$IFS
	IFS=:
	for kv in $2; do
		case "$kv" in
		log_path=*) continue ;;
		suppressions=*)
			cp "${kv#suppressions=}" "$ROOTFS/fa/supp/$1.supp" ||
			    fa_fail "runtimes: cannot copy $kv into the tree"
			kv="suppressions=/fa/supp/$1.supp" ;;
		esac
		[ -n "$kv" ] && _o="$_o${_o:+:}$kv"
	done
	IFS=$_old
	[ -n "${3:-}" ] && _o="$_o${_o:+:}log_path=$3"
	printf '%s' "$_o"
}
: >"$T/env"
SANOUT=""
if ldd "$BIN" | grep -q 'libasan\|libubsan'; then
	{
		echo "ASAN_OPTIONS=$(xlate asan "${ASAN_OPTIONS:-detect_leaks=1}" \
		    /fa/san/asan)"
		echo "UBSAN_OPTIONS=$(xlate ubsan \
		    "${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
		    /fa/san/ubsan)"
		[ -n "${LSAN_OPTIONS:-}" ] &&
		    echo "LSAN_OPTIONS=$(xlate lsan "$LSAN_OPTIONS")"
	} >"$T/env"
	# Where tests/run.sh collects the reports of every suite.
	lp=$(printf '%s' "${ASAN_OPTIONS:-}" | tr ':' '\n' |
	    sed -n 's/^log_path=//p' | tail -1)
	[ -n "$lp" ] && [ -d "$(dirname "$lp")" ] && SANOUT=$(dirname "$lp")
fi
chmod 644 "$T/env"
tar -C "$ROOTFS" --numeric-owner --owner=0 --group=0 -cf "$T/rootfs.tar" . ||
    fa_fail "runtimes: tar of the tree"
chmod 644 "$T/rootfs.tar"

# ------------------------------------------------------- per-case plumbing
n=0
# begin NAME: a fresh directory for the case: out/ (the report) and san/
# (sanitizer logs), writable by a root mapped to any uid.
begin() {
	C="runtimes: $1"
	n=$((n + 1))
	CD=$T/c/$n
	mkdir -p "$CD/out" "$CD/san"
	chmod 711 "$T/c" "$CD"
	chmod 1777 "$CD/out" "$CD/san"
	R=$CD/out/report/report.json
}

# Sanitizer reports written inside the container.
collect_san() {
	for f in "$CD"/san/*; do
		[ -e "$f" ] || continue
		if [ -n "$SANOUT" ]; then
			cp "$f" "$SANOUT/$(basename "$f").runtimes-case$n"
			echo "note: $C: sanitizer report $(basename "$f") from" \
			    "inside the container, copied to the run's reports"
		else
			fa_fail "$C: sanitizer report $(basename "$f") from inside"
			head -40 "$f"
		fi
	done
}

# finish RC: the scan's exit status; then the checks every container gets.
finish() {
	_rc=$1
	collect_san
	if [ ! -f "$R" ]; then
		fa_fail "$C: no report from inside the container (exit $_rc):" \
		    "$(tail -3 "$CD/err" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	case $_rc in
	0 | 1) fa_pass "$C: the scan ran (exit $_rc)" ;;
	*) fa_fail "$C: the scan exited $_rc: $(tail -3 "$CD/err" |
	    tr '\n' ' ')" ;;
	esac
	expect_eq "$C: only the host family was scanned" \
	    "$(jq -c .scan.families "$R")" '["host"]'
	expect_eq "$C: the catalogue is found beside the binary" \
	    "$(jq -r .scan.catalogue.path "$R")" /fa/data/host-cves.json
	expect_eq "$C: the environment evidence says container" \
	    "$(envf container)" yes
	[ "$hyp" = yes ] && expect_eq "$C: the environment evidence says VM\
 (the CPU's hypervisor flag is set on this host)" "$(envf vm)" yes
	expect_eq "$C: no container check is not_applicable in a container" \
	    "$(jq -r '[.results[] | select(.family == "host" and
	    (.id | IN("HOST-PRIVILEGED", "HOST-CAP-DANGEROUS",
	    "HOST-SECCOMP-OFF", "HOST-LSM-OFF", "HOST-NNP-OFF",
	    "HOST-USERNS-ROOT", "HOST-NS-SHARED", "HOST-HOSTPATH",
	    "HOST-CGROUP-ESCAPE", "HOST-DEVICE-EXPOSED")) and
	    .status == "not_applicable") | .id] | join(" ")' "$R")" ""
	want HOST-TENANCY fail "dedicated_host yes, and a container's host" \
	    "may be shared"
	return 0
}
# The LSM verdict of an unprivileged container: asserted in each runtime's
# default case, where this host has no LSM that could confine anything.
want_lsm() {
	[ "$nolsm" = yes ] && want HOST-LSM-OFF fail "no LSM is active on" \
	    "this host: nothing confines the container"
}

# The environment evidence item's FIELD (HOST-TENANCY's).
envf() {
	jq -r '[.results[] | select(.id == "HOST-TENANCY") | .evidence[]? |
	    select(.field == "environment") | .value.'"$1"'][0] // "none"' "$R"
}
# Every status of check ID (one per target), and their reasons.
res() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] |
	    unique | join(",")' "$R"
}
reasons() {
	jq -r --arg id "$1" '[.results[] | select(.id == $id) |
	    "\(.status) \(.target): \(.reason)"] | join(" / ")' "$R" |
	    cut -c1-400
}
# want ID STATUS WHY...: every result of ID has STATUS.
want() {
	_id=$1 _st=$2
	shift 2
	_got=$(res "$_id")
	if [ "$_got" = "$_st" ]; then
		fa_pass "$C: $_id $_st ($*)"
	else
		fa_fail "$C: $_id $_st ($*): got $(reasons "$_id")"
	fi
}
# want_target ID STATUS TARGET-ERE WHY...: some result of ID has STATUS
# and a target matching.
want_target() {
	_id=$1 _st=$2 _tg=$3
	shift 3
	if jq -e --arg id "$_id" --arg st "$_st" --arg tg "$_tg" \
	    'any(.results[]; .id == $id and .status == $st and
	    (.target | test($tg)))' "$R" >/dev/null; then
		fa_pass "$C: $_id $_st for $_tg ($*)"
	else
		fa_fail "$C: $_id $_st for $_tg ($*): got $(reasons "$_id")"
	fi
}
# want_reason ID ERE WHY...: the reasons of ID match (case-insensitive).
want_reason() {
	_id=$1 _re=$2
	shift 2
	if jq -e --arg id "$_id" --arg re "$_re" 'any(.results[];
	    .id == $id and (.reason | test($re; "i")))' "$R" >/dev/null; then
		fa_pass "$C: $_id names $_re ($*)"
	else
		fa_fail "$C: $_id names $_re ($*): got $(reasons "$_id")"
	fi
}
# want_ns "SHARED" "OWN": HOST-NS-SHARED from the namespaces the case
# shares with the host and those it surely has of its own (pid ipc uts
# cgroup net); one in neither list is not asserted.
want_ns() {
	_re() { [ "$1" = net ] && printf '%s' '\bnet(work)?\b' ||
	    printf '\\b%s\\b' "$1"; }
	_st=$(res HOST-NS-SHARED)
	_why=$(reasons HOST-NS-SHARED)
	if [ -n "$1" ]; then
		expect_eq "$C: HOST-NS-SHARED fail (shares: $1)" "$_st" fail
		for _ns in $1; do
			want_reason HOST-NS-SHARED "$(_re "$_ns")" \
			    "the $_ns namespace is the host's"
		done
	else
		_all=yes
		for _ns in pid ipc uts cgroup net; do
			case " $2 " in *" $_ns "*) ;; *) _all=no ;; esac
		done
		if [ $_all = yes ]; then
			expect_eq "$C: HOST-NS-SHARED pass (own: $2)" "$_st" pass
			[ "$_st" = pass ] || echo "  got: $_why"
		fi
	fi
	[ "$_st" = fail ] || return 0
	for _ns in $2; do
		if printf '%s' "$_why" | grep -Eqi "$(_re "$_ns")"; then
			fa_fail "$C: HOST-NS-SHARED does not name $_ns (the" \
			    "container's own): got $_why"
		else
			fa_pass "$C: HOST-NS-SHARED does not name $_ns (the" \
			    "container's own)"
		fi
	done
}

SCAN="/fa/bin/fabaudit scan --host -q -c /fa/dedicated.conf -o /out/report"

# ------------------------------------------------------------------ docker
DOCKER=/usr/bin/docker	# docker.io's own client
[ -x "$DOCKER" ] || DOCKER=$(command -v docker 2>/dev/null)
dk() { $TO "$DOCKER" -H "unix://$T/docker/docker.sock" "$@"; }
dk_run() {
	dk run --rm -v "$CD/out:/out" -v "$CD/san:/fa/san" --env-file "$T/env" \
	    "$@" "fa-rt:$$" $SCAN >"$CD/log" 2>"$CD/err"
}

# docker_base EXCEPT: the verdicts of a default docker container, each
# but those the case's flag changes (checks named in EXCEPT).
docker_base() {
	_b() { case " $1 " in *" $2 "*) return 1 ;; esac; }
	_b "$1" PRIVILEGED && want HOST-PRIVILEGED pass "not --privileged"
	_b "$1" CAP && want HOST-CAP-DANGEROUS pass "docker's default" \
	    "capability set holds none of them"
	_b "$1" SECCOMP && want HOST-SECCOMP-OFF "$dk_seccomp" \
	    "docker info: $dk_secopt"
	want HOST-NNP-OFF fail "docker sets no_new_privs only with" \
	    "--security-opt no-new-privileges"
	want HOST-USERNS-ROOT fail "the daemon has no userns-remap: root" \
	    "is host root"
	_b "$1" HOSTPATH && want HOST-HOSTPATH pass "no host directory" \
	    "mounted; docker mounts /sys and /proc/sys read-only"
	_b "$1" CGROUP && want HOST-CGROUP-ESCAPE pass "/proc/sys, /sys and" \
	    "the cgroup hierarchy are read-only in an unprivileged container"
	_b "$1" DEVICE && want HOST-DEVICE-EXPOSED pass "docker's default" \
	    "devices are null, zero, full, tty, random, urandom and the pty"
	_b "$1" SOCKET && want HOST-RUNTIME-SOCKET pass "no socket mounted"
	want HOST-K8S-TOKEN pass "not a pod"
	expect_eq "$C: the environment evidence names docker" \
	    "$(envf runtime)" docker
}

docker_cases() {
	command -v dockerd >/dev/null && [ -n "$DOCKER" ] || {
		skip_all docker "dockerd or docker not installed" \
		    "$DOCKER_CASES"
		return
	}
	mkdir -p "$T/docker/data" "$T/docker/exec"
	chmod 711 "$T/docker"
	printf '{"deprecated-key-path": "%s/docker/key.json"}\n' "$T" \
	    >"$T/docker/daemon.json"	# not /etc/docker/key.json
	dockerd --config-file "$T/docker/daemon.json" \
	    --data-root "$T/docker/data" --exec-root "$T/docker/exec" \
	    --pidfile "$T/docker/docker.pid" -H "unix://$T/docker/docker.sock" \
	    --bridge=none --iptables=false --ip-masq=false \
	    --userland-proxy=false --containerd-namespace="fa-rt-$$" \
	    --containerd-plugins-namespace="fa-rt-$$-plugins" \
	    >"$T/docker/dockerd.log" 2>&1 &
	DPID=$!
	i=0
	until dk version >/dev/null 2>&1; do
		i=$((i + 1))
		if ! kill -0 "$DPID" 2>/dev/null || [ $i -gt 150 ]; then
			skip_all docker "dockerd did not start: $(tail -2 \
			    "$T/docker/dockerd.log" | tr '\n' ' ')" \
			    "$DOCKER_CASES"
			return
		fi
		sleep 0.2
	done
	begin "docker probe"
	if ! dk import "$T/rootfs.tar" "fa-rt:$$" >"$CD/log" 2>"$CD/err" ||
	    ! dk run --rm -v "$CD/san:/fa/san" --env-file "$T/env" \
	    "fa-rt:$$" /fa/bin/fabaudit --version >"$CD/log" 2>"$CD/err"; then
		collect_san
		skip_all docker "cannot run a container: $(tail -2 "$CD/err" |
		    tr '\n' ' ')" "$DOCKER_CASES"
		return
	fi
	collect_san
	DOCKER_OK=1
	# The daemon's seccomp, from the daemon.
	dk_secopt=$(dk info --format '{{.SecurityOptions}}' 2>/dev/null)
	case "$dk_secopt" in
	*name=seccomp*) dk_seccomp=pass ;;
	*) dk_seccomp=fail ;;
	esac
	# On cgroup v1 the daemon's default cgroup namespace is the host's.
	_cgv=$(dk info --format '{{.CgroupVersion}}' 2>/dev/null)
	dcg=""
	[ "$_cgv" = 1 ] && dcg=cgroup
	d_own="pid ipc uts net"
	[ -z "$dcg" ] && d_own="$d_own cgroup"

	begin "docker default"
	dk_run
	finish $? && {
		want_ns "$dcg" "$d_own"
		docker_base ""
		want_lsm
	}

	begin "docker --cgroupns=private"
	dk_run --cgroupns=private
	finish $? && {
		want_ns "" "pid ipc uts net cgroup"
		docker_base ""
	}

	begin "docker --pid=host"
	dk_run --pid=host
	finish $? && {
		want_ns "pid $dcg" "ipc uts net"
		docker_base ""
	}

	begin "docker --network=host"
	dk_run --network=host
	finish $? && {
		want_ns "net $dcg" "pid ipc uts"
		docker_base ""
	}

	begin "docker --cap-add=SYS_ADMIN"
	dk_run --cap-add=SYS_ADMIN
	finish $? && {
		want HOST-CAP-DANGEROUS fail "CAP_SYS_ADMIN added"
		want_reason HOST-CAP-DANGEROUS 'SYS_ADMIN' "the capability added"
		want_ns "$dcg" "$d_own"
		docker_base "CAP"
	}

	begin "docker --privileged"
	dk_run --privileged
	rc=$?
	# Docker grants --privileged every capability it knows and ignores
	# --cap-drop with it: where this host's root lacks one, runc cannot
	# apply them (the runc privileged case below stands in).
	if [ ! -f "$R" ] && [ -n "$NOCAPS" ] &&
	    grep -q 'unable to apply caps' "$CD/err"; then
		fa_skip "$C: this host's root lacks CAP_$(echo "${NOCAPS# }" |
		    sed 's/ /, CAP_/g'), which docker gives every privileged" \
		    "container: runc cannot apply it"
	else finish $rc && {
		want HOST-PRIVILEGED fail "--privileged: every capability" \
		    "this host's root has"
		want HOST-CAP-DANGEROUS fail "--privileged grants every" \
		    "capability"
		want HOST-SECCOMP-OFF fail "--privileged disables seccomp"
		want HOST-LSM-OFF fail "--privileged runs unconfined"
		want_target HOST-DEVICE-EXPOSED fail '^/dev/kmsg$' \
		    "--privileged passes every host device"
		want HOST-HOSTPATH fail "--privileged mounts /sys and" \
		    "/proc/sys read-write"
		want_target HOST-CGROUP-ESCAPE fail \
		    '^/proc/sys/kernel/core_pattern$' "/proc/sys read-write," \
		    "root with CAP_DAC_OVERRIDE"
		want_ns "$dcg" "$d_own"
		docker_base "PRIVILEGED CAP SECCOMP HOSTPATH CGROUP DEVICE"
	}
	fi

	begin "docker docker.sock mounted"
	dk_run -v "$T/docker/docker.sock:/var/run/docker.sock"
	finish $? && {
		want_target HOST-RUNTIME-SOCKET fail '^(/var)?/run/docker\.sock$' \
		    "the daemon's socket, writable by root in the container"
		want_ns "$dcg" "$d_own"
		docker_base "SOCKET"
	}

	begin "docker --device=/dev/kmsg"
	dk_run --device=/dev/kmsg
	finish $? && {
		want_target HOST-DEVICE-EXPOSED fail '^/dev/kmsg$' \
		    "the host's kernel log device passed in"
		want_ns "$dcg" "$d_own"
		docker_base "DEVICE"
	}
}

stop_docker() {
	[ -n "$DPID" ] || return 0
	kill "$DPID" 2>/dev/null
	i=0
	while kill -0 "$DPID" 2>/dev/null && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$DPID" 2>/dev/null; then
		fa_fail "runtimes: dockerd (PID $DPID) did not stop on SIGTERM"
		kill -9 "$DPID"
	fi
	wait "$DPID" 2>/dev/null
	DPID=""
}

# ---------------------------------------------------------- the test user
mkuser() {
	# Users of earlier runs killed before their cleanup (fa-rt-PID of a
	# run no longer alive): their processes by PID, then the user.
	for u in $(getent passwd | cut -d: -f1 | grep -E '^fa-rt-[0-9]+$'); do
		kill -0 "${u#fa-rt-}" 2>/dev/null && continue
		for p in $(pgrep -u "$u"); do
			kill -9 "$p" 2>/dev/null
		done
		sleep 0.2
		userdel "$u" >/dev/null 2>&1
	done
	useradd -M -d "$UH" -s /usr/sbin/nologin -K SUB_UID_COUNT=0 \
	    -K SUB_GID_COUNT=0 "$U" >"$T/useradd.log" 2>&1 &&
	usermod --add-subuids "$SUB-$((SUB + 65535))" \
	    --add-subgids "$SUB-$((SUB + 65535))" "$U" \
	    >>"$T/useradd.log" 2>&1 || return 1
	mkdir -p "$UH/run" "$UH/tmp"
	chown -R "$U:" "$UH"
	chmod 700 "$UH" "$UH/run"
}
# as_user CMD...: run as the test user, in a clean environment.
as_user() {
	$TO runuser -u "$U" -- env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	    HOME="$UH" XDG_RUNTIME_DIR="$UH/run" TMPDIR="$UH/tmp" "$@"
}

# -------------------------------------------------------------- runc, crun
# A bundle for the case, from the base config and a jq edit of it.
bundle() {
	mkdir -p "$CD/bundle"
	jq --arg root "$ROOTFS" --arg out "$CD/out" --arg san "$CD/san" \
	    --rawfile env "$T/env" --arg scan "$SCAN" --arg caps "$HOSTCAPS" '
	    .root.path = $root | .process.terminal = false |
	    .process.args = ($scan | split(" ")) |
	    .process.env += ($env | split("\n") | map(select(. != ""))) |
	    .mounts += [{destination: "/out", type: "bind", source: $out,
	        options: ["rbind", "rw"]},
	        {destination: "/fa/san", type: "bind", source: $san,
	        options: ["rbind", "rw"]}] | '"$1" "$2" >"$CD/bundle/config.json"
}
# oci_run RUNTIME: run the case's bundle.
oci_run() {
	(cd "$CD/bundle" && $TO "$1" --root "$T/$1-state" run "fa-rt-$$-$n" \
	    </dev/null >"$CD/log" 2>"$CD/err")
}
# The expectations a runc-spec bundle implies: from its config.
oci_expect() {
	_cfg=$CD/bundle/config.json
	_sh="" o_own=""
	for _ns in pid ipc uts cgroup network; do
		if jq -e --arg t "$_ns" 'any(.linux.namespaces[]; .type == $t)' \
		    "$_cfg" >/dev/null; then
			o_own="$o_own ${_ns%work}"
		else
			_sh="$_sh ${_ns%work}"
		fi
	done
	want_ns "$_sh" "$o_own"
	if jq -e '.linux.seccomp != null' "$_cfg" >/dev/null; then
		want HOST-SECCOMP-OFF pass "the config has a seccomp filter"
	else
		want HOST-SECCOMP-OFF fail "the config has no seccomp filter"
	fi
	if jq -e '.process.noNewPrivileges == true' "$_cfg" >/dev/null; then
		want HOST-NNP-OFF pass "the config sets noNewPrivileges"
	else
		want HOST-NNP-OFF fail "the config does not set noNewPrivileges"
	fi
	want HOST-PRIVILEGED pass "three capabilities, not all"
	want HOST-CAP-DANGEROUS pass "the config's capabilities are" \
	    "$(jq -r '.process.capabilities.effective | join(" ")' "$_cfg")"
	want HOST-DEVICE-EXPOSED pass "only the OCI default devices"
	want HOST-RUNTIME-SOCKET pass "no socket mounted"
}

oci_cases() {
	rt=$1 cases=$2
	command -v "$rt" >/dev/null || {
		skip_all "$rt" "$rt not installed" "$cases"
		return
	}
	mkdir -p "$T/oci-base"
	(cd "$T/oci-base" && rm -f config.json && runc spec) || {
		skip_all "$rt" "runc spec failed" "$cases"
		return
	}
	begin "$rt probe"
	bundle '.process.args = ["/fa/bin/fabaudit", "--version"]' \
	    "$T/oci-base/config.json"
	if ! oci_run "$rt"; then
		collect_san
		skip_all "$rt" "cannot run a container here: $(tail -2 \
		    "$CD/err" | tr '\n' ' ')" "$cases"
		return
	fi
	collect_san

	begin "$rt default (runc spec)"
	bundle . "$T/oci-base/config.json"
	oci_run "$rt"
	finish $? && {
		oci_expect
		want_lsm
		want HOST-USERNS-ROOT fail "no user namespace: root is host root"
		want HOST-HOSTPATH pass "runc spec mounts /sys read-only and" \
		    "makes /proc/sys read-only"
		want HOST-CGROUP-ESCAPE pass "/proc/sys, /proc/sysrq-trigger" \
		    "and the cgroup mount are read-only"
	}

	begin "$rt no pid namespace (host PIDs)"
	bundle 'del(.linux.namespaces[] | select(.type == "pid"))' \
	    "$T/oci-base/config.json"
	oci_run "$rt"
	finish $? && {
		oci_expect
		want HOST-USERNS-ROOT fail "no user namespace: root is host root"
	}

	# What docker --privileged asks of runc, less the capabilities this
	# host's root lacks: every other capability, no seccomp filter, no
	# masked or read-only paths, /sys and the cgroup mount read-write,
	# the host's /dev, every device allowed.
	begin "$rt privileged (as docker --privileged)"
	bundle '.process.capabilities = ($caps | split(" ") |
	    map(select(. != "") | "CAP_" + .) | {bounding: ., effective: .,
	    permitted: .}) | .process.noNewPrivileges = false |
	    .linux.maskedPaths = [] | .linux.readonlyPaths = [] |
	    .linux.resources.devices = [{allow: true, access: "rwm"}] |
	    .mounts |= map(select(.destination | IN("/dev/pts", "/dev/shm",
	    "/dev/mqueue") | not) | if .destination == "/dev" then
	    {destination: "/dev", type: "bind", source: "/dev",
	    options: ["rbind", "rw"]} elif .destination | IN("/sys",
	    "/sys/fs/cgroup") then .options -= ["ro"] else . end)' \
	    "$T/oci-base/config.json"
	oci_run "$rt"
	finish $? && {
		want HOST-PRIVILEGED fail "every capability this host's root" \
		    "has, no seccomp, /sys read-write"
		want HOST-CAP-DANGEROUS fail "CAP_SYS_ADMIN among them"
		want HOST-SECCOMP-OFF fail "no seccomp filter in the config"
		want HOST-LSM-OFF fail "no AppArmor profile or SELinux label" \
		    "in the config"
		want HOST-USERNS-ROOT fail "no user namespace: root is host root"
		want_target HOST-DEVICE-EXPOSED fail '^/dev/kmsg$' \
		    "the host's /dev"
		want HOST-HOSTPATH fail "/sys mounted read-write"
		want_target HOST-CGROUP-ESCAPE fail \
		    '^/proc/sys/kernel/core_pattern$' "/proc/sys read-write," \
		    "root with CAP_DAC_OVERRIDE"
		want HOST-RUNTIME-SOCKET pass "no socket mounted"
	}

	[ "$rt" = runc ] || return 0
	begin "$rt user namespace"
	bundle '.linux.namespaces += [{type: "user"}] |
	    .linux.uidMappings = [{containerID: 0, hostID: '$MAPPED',
	    size: 65536}] | .linux.gidMappings = .linux.uidMappings' \
	    "$T/oci-base/config.json"
	oci_run "$rt"
	finish $? && {
		oci_expect
		want HOST-USERNS-ROOT pass "root maps to host uid $MAPPED"
	}

	begin "$rt rootless"
	if [ -z "${USER_OK:-}" ]; then
		fa_skip "$C: no test user: $(tail -1 "$T/useradd.log")"
		return
	fi
	mkdir -p "$CD/base"
	(cd "$CD/base" && runc spec --rootless) || {
		fa_fail "$C: runc spec --rootless"
		return
	}
	# The user's own uid and gid, which rootless runc maps root to.
	bundle '.linux.uidMappings[0].hostID = '"$(id -u "$U")"' |
	    .linux.gidMappings[0].hostID = '"$(id -g "$U")" \
	    "$CD/base/config.json"
	chown -R "$U:" "$CD/bundle"
	(cd "$CD/bundle" && as_user runc --root "$UH/runc-state" run \
	    "fa-rt-$$-$n" </dev/null >"$CD/log" 2>"$CD/err")
	rc=$?
	if [ ! -f "$R" ] && grep -qi 'cgroup' "$CD/err"; then
		fa_skip "$C: rootless runc cannot run on this cgroup layout:" \
		    "$(tail -1 "$CD/err")"
		return
	fi
	finish $rc && {
		oci_expect
		want HOST-USERNS-ROOT pass "root maps to the test user"
	}
}

# ------------------------------------------------------------------ podman
pd() {
	as_user podman --root "$UH/storage" --runroot "$UH/run/storage" \
	    --storage-driver vfs --cgroup-manager cgroupfs \
	    --events-backend file $PODMAN_RT "$@"
}
podman_cases() {
	command -v podman >/dev/null || {
		skip_all podman "podman not installed" "$PODMAN_CASES"
		return
	}
	[ -n "${USER_OK:-}" ] || {
		skip_all podman "no test user: $(tail -1 "$T/useradd.log")" \
		    "$PODMAN_CASES"
		return
	}
	PODMAN_RT=""
	if ! pd import "$T/rootfs.tar" "fa-rt:$$" >"$T/podman.import" 2>&1
	then
		skip_all podman "podman import: $(tail -1 "$T/podman.import")" \
		    "$PODMAN_CASES"
		return
	fi
	PODMAN_OK=1
	# podman's default OCI runtime, else runc (crun cannot run on some
	# cgroup layouts: see the crun cases).
	pd_probe() {
		begin "podman probe"
		pd run --rm --network none -v "$CD/san:/fa/san" \
		    --env-file "$T/env" "localhost/fa-rt:$$" \
		    /fa/bin/fabaudit --version >"$CD/log" 2>"$CD/err"
		_rc=$?
		collect_san
		return $_rc
	}
	if ! pd_probe; then
		echo "note: podman's default runtime cannot run here" \
		    "($(tail -1 "$CD/err")); podman cases use runc"
		PODMAN_RT="--runtime runc"
		if ! pd_probe; then
			skip_all podman "cannot run a container: $(tail -1 \
			    "$CD/err")" "$PODMAN_CASES"
			return
		fi
	fi
	_sec=$(pd info --format '{{.Host.Security.SECCOMPEnabled}}' 2>/dev/null)
	pd_run() {
		pd run --rm --network none -v "$CD/out:/out" \
		    -v "$CD/san:/fa/san" --env-file "$T/env" "$@" \
		    "localhost/fa-rt:$$" $SCAN >"$CD/log" 2>"$CD/err"
	}
	p_own="pid ipc uts net"
	[ -z "$CGSHARED" ] && p_own="$p_own cgroup"
	podman_base() {
		want HOST-USERNS-ROOT pass "rootless: root maps to the test" \
		    "user, uid $(id -u "$U")"
		want HOST-PRIVILEGED pass "not --privileged"
		want HOST-CAP-DANGEROUS pass "podman's default capability set" \
		    "holds none of them"
		want HOST-SECCOMP-OFF "$([ "$_sec" = true ] && echo pass ||
		    echo fail)" "podman info: SECCOMPEnabled $_sec"
		want HOST-NNP-OFF fail "podman sets no_new_privs only with" \
		    "--security-opt no-new-privileges"
		want HOST-DEVICE-EXPOSED pass "podman's default devices only"
		want HOST-CGROUP-ESCAPE pass "nothing the kernel runs is" \
		    "writable by a root mapped to an unprivileged uid"
		want_ns "$CGSHARED" "$p_own"
		expect_eq "$C: the environment evidence names podman" \
		    "$(envf runtime)" podman
	}

	begin "podman rootless default"
	pd_run
	finish $? && {
		podman_base
		want_lsm
		want HOST-RUNTIME-SOCKET pass "no socket mounted"
		want HOST-HOSTPATH pass "no host directory mounted"
	}

	begin "podman rootless, docker.sock mounted"
	if [ -z "${DOCKER_OK:-}" ]; then
		fa_skip "$C: no docker daemon here (see the docker cases)"
	else
		# Whether the test user can connect to the socket, asked of
		# the kernel: a root mapped to it can do no more.
		if as_user test -w "$T/docker/docker.sock"; then
			sockw=fail
		else
			sockw=pass
		fi
		pd_run -v "$T/docker/docker.sock:/var/run/docker.sock"
		finish $? && {
			podman_base
			want HOST-RUNTIME-SOCKET "$sockw" "the socket is" \
			    "$(stat -c '%A %U:%G' "$T/docker/docker.sock")" \
			    "and the test user $([ $sockw = pass ] &&
			    echo may not || echo may) write it"
		}
	fi
}

# ----------------------------------------------------------------- nspawn
nspawn_cases() {
	command -v systemd-nspawn >/dev/null || {
		skip_all systemd-nspawn "systemd-nspawn not installed" \
		    "$NSPAWN_CASES"
		return
	}
	# A copy of the tree: nspawn may write into it (-U changes owners).
	cp -a "$ROOTFS" "$T/nspawn-root"
	# Not under systemd here: no scope unit, no machined.
	ns_run() {
		set -- --quiet --register=no --keep-unit \
		    --machine="fa-rt-$$-$n" -D "$T/nspawn-root" \
		    --bind="$CD/out:/out" --bind="$CD/san:/fa/san" "$@"
		while read -r _e; do
			[ -n "$_e" ] && set -- "$@" --setenv="$_e"
		done <"$T/env"
		$TO systemd-nspawn "$@" ${NS_CMD:-$SCAN} </dev/null >"$CD/log" \
		    2>"$CD/err"
	}
	begin "systemd-nspawn probe"
	NS_CMD="/fa/bin/fabaudit --version" ns_run
	_rc=$?
	NS_CMD=""
	collect_san
	if [ $_rc -ne 0 ]; then
		skip_all systemd-nspawn "cannot run a container here: $(tail \
		    -2 "$CD/err" | tr '\n' ' ')" "$NSPAWN_CASES"
		return
	fi
	nspawn_base() {
		want HOST-PRIVILEGED pass "nspawn drops part of the bounding set"
		want HOST-SECCOMP-OFF pass "nspawn installs a system call filter"
		want HOST-NNP-OFF fail "nspawn sets no_new_privs only with" \
		    "--no-new-privileges=yes"
		expect_eq "$C: the environment evidence names systemd-nspawn" \
		    "$(envf runtime)" systemd-nspawn
	}

	begin "systemd-nspawn default"
	ns_run
	finish $? && {
		nspawn_base
		# systemd-nspawn(1): the host network unless --private-network;
		# CAP_SYS_ADMIN is in the set "granted in any way".
		want_ns "net" "pid ipc uts"
		want_lsm
		want HOST-CAP-DANGEROUS fail "nspawn keeps CAP_SYS_ADMIN"
		want_reason HOST-CAP-DANGEROUS SYS_ADMIN "nspawn keeps it"
		want HOST-USERNS-ROOT fail "--private-users=no is the default"
	}

	begin "systemd-nspawn --private-network"
	ns_run --private-network
	finish $? && {
		nspawn_base
		want_ns "" "pid ipc uts net"
		want HOST-USERNS-ROOT fail "--private-users=no is the default"
	}

	begin "systemd-nspawn --private-users=pick"
	ns_run --private-users=pick --private-users-ownership=auto
	finish $? && {
		nspawn_base
		want_ns "net" "pid ipc uts"
		want HOST-USERNS-ROOT pass "root maps to a picked unprivileged" \
		    "range"
	}
}

# ------------------------------------------------------------------- order
start=$(date +%s)
mkuser && USER_OK=1
docker_cases
podman_cases		# its socket case needs the daemon
stop_docker
oci_cases runc "$RUNC_CASES"
oci_cases crun "$CRUN_CASES"
nspawn_cases
echo "runtimes: $(($(date +%s) - start)) s"
fa_done
