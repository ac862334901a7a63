#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# shellcheck disable=SC2317  # functions run from traps look unreachable
# with-fabric.sh: run a command against a simulated InfiniBand fabric.
#
#   tests/ib/with-fabric.sh SCENARIO_DIR [--host NODE] -- CMD [ARGS...]
#
# SCENARIO_DIR (e.g. fixtures/ib/careless) holds net, opensm.conf,
# partitions.conf and scenario (SM_HOST=, TENANT_HOST=, DESCRIPTION=, and
# optionally EXTRA_SMS=, see below). The script
#   1. makes a private work dir (removed at the end unless FA_KEEP_WORK=1),
#   2. starts ibsim on SCENARIO_DIR/net with a unique IBSIM_SOCKNAME,
#   3. starts a real opensm on node $SM_HOST under libumad2sim.so with the
#      scenario's opensm.conf and partitions.conf, cache/dump files and log
#      in the work dir,
#   4. waits (FA_SM_TIMEOUT seconds, default 30) until the SM is MASTER and
#      the subnet is up,
#   4b. starts the scenario's extra SMs, if any, one after the other, each
#      waited for (FA_SM_TIMEOUT again) until its log says it entered
#      STANDBY or MASTER state (a MASTER also until its SUBNET UP),
#   5. runs CMD from the caller's cwd "from" node NODE (default $TENANT_HOST)
#      with LD_PRELOAD=libumad2sim.so, SIM_HOST, IBSIM_SOCKNAME,
#      FA_SCENARIO_DIR (absolute), FA_WORKDIR, FA_IBSIM_CTL and
#      FA_OPENSM_PID exported (see "Faults" below), and
#   6. exits with CMD's exit status, after stopping ibsim and every opensm.
#
# EXTRA_SMS (scenario file, optional): whitespace-separated
# NODE:OPTIONS[:PARTITIONS] entries, e.g.
#   EXTRA_SMS="ufm-sm02:standby.conf zeta-gpu-02:rogue.conf:rogue-partitions.conf"
# Each is a further real opensm on ibsim node NODE with -F OPTIONS and
# -P PARTITIONS (file names relative to SCENARIO_DIR; PARTITIONS defaults to
# the scenario's partitions.conf). Its cache, dump files, osm.log and
# opensm.out are in FA_WORKDIR/sm-NODE/ (the master's stay in FA_WORKDIR).
# NODE must differ from SM_HOST and from the other entries: ibsim hands the
# SMPs addressed to a node (SMInfo Gets included) to the first SM client
# attached there, so a second opensm on a node runs blind and is never seen
# (tried: it still logs MASTER and SUBNET UP).
#
# Exit status: CMD's, or 2 for a usage error, 3 if the fabric did not come up.
# ibsim and opensm run without any LD_PRELOAD from the caller; a caller's
# LD_PRELOAD (e.g. a test agent interposed on libibumad) is put in front of
# libumad2sim.so for CMD only. FA_UMAD2SIM overrides the library path.
# FA_SM_PRELOAD: libraries put in front of libumad2sim.so for the opensm
# processes; FA_PRELOAD_AFTER: libraries put behind it for CMD (bench/ uses
# them for the simulated kernels' RMPP, bench/rmpp/README).
# FA_VERBOSE=1 reports progress on stderr. Processes are stopped by their
# recorded PIDs only (TERM, then KILL after ~3 s).
# Faults: CMD may drive ibsim's console through the FIFO FA_IBSIM_CTL
# (ibsim's stdin; its answers go to FA_WORKDIR/ibsim.log), e.g. packet
# loss or a link down, with tests/ib/ibsim-ctl.sh, and may stop the master
# opensm, FA_OPENSM_PID, to have the SM disappear (cleanup copes).
# FA_IBSIM_ARGS (optional): extra ibsim arguments, split on white space, for
# fabrics beyond ibsim's built-in limits of 2048 nodes, 256 switches and
# 13312 ports, e.g. FA_IBSIM_ARGS="-N 11500 -S 1420 -P 72200" (bench/ writes
# the flags each of its fabrics needs). A large fabric also needs a larger
# FA_SM_TIMEOUT (opensm takes ~40 s for 10,000 HCAs).

prog=with-fabric.sh
umad2sim=${FA_UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
wf_caller_preload=${LD_PRELOAD:-}

usage() {
	echo "usage: $prog SCENARIO_DIR [--host NODE] -- CMD [ARGS...]" >&2
	exit 2
}

say() {
	[ "${FA_VERBOSE:-0}" = 1 ] && echo "$prog: $*" >&2
	return 0
}

die3() {
	echo "$prog: $*" >&2
	exit 3
}

# --- arguments ---------------------------------------------------------------
[ $# -ge 1 ] || usage
wf_scen_arg=$1
shift
wf_host=
while [ $# -gt 0 ]; do
	case $1 in
	--host) [ $# -ge 2 ] || usage; wf_host=$2; shift 2 ;;
	--host=*) wf_host=${1#--host=}; shift ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -ge 1 ] || usage

wf_cwd=$(pwd) || exit 2
wf_scen=$(cd "$wf_scen_arg" 2>/dev/null && pwd) ||
	{ echo "$prog: no such scenario directory: $wf_scen_arg" >&2; exit 2; }
for f in net opensm.conf partitions.conf scenario; do
	[ -r "$wf_scen/$f" ] ||
		{ echo "$prog: missing $wf_scen/$f" >&2; exit 2; }
done

SM_HOST='' TENANT_HOST='' EXTRA_SMS=''
# shellcheck source=/dev/null
. "$wf_scen/scenario"
if [ -z "$SM_HOST" ] || [ -z "$TENANT_HOST" ]; then
	echo "$prog: $wf_scen/scenario must set SM_HOST and TENANT_HOST" >&2
	exit 2
fi

scenfile() {	# NAME: NAME if absolute, else SCENARIO_DIR/NAME
	case $1 in /*) echo "$1" ;; *) echo "$wf_scen/$1" ;; esac
}

# Check EXTRA_SMS before starting anything: NODE:OPTIONS[:PARTITIONS].
bad_xsm() {
	echo "$prog: $wf_scen/scenario: EXTRA_SMS entry '$1': $2" >&2
	exit 2
}
wf_xnodes=" $SM_HOST "
set -f
for e in $EXTRA_SMS; do
	case $e in *:*) ;; *) bad_xsm "$e" "not NODE:OPTIONS[:PARTITIONS]" ;; esac
	x_node=${e%%:*} x_rest=${e#*:}
	x_opts=${x_rest%%:*} x_part=
	case $x_rest in *:*) x_part=${x_rest#*:} ;; esac
	case $x_part in *:*) bad_xsm "$e" "too many fields" ;; esac
	if [ -z "$x_node" ] || [ -z "$x_opts" ]; then bad_xsm "$e" "empty field"; fi
	[ -r "$(scenfile "$x_opts")" ] || bad_xsm "$e" "cannot read $x_opts"
	[ -z "$x_part" ] || [ -r "$(scenfile "$x_part")" ] ||
		bad_xsm "$e" "cannot read $x_part"
	case $wf_xnodes in
	*" $x_node "*) bad_xsm "$e" "node already runs an SM (ibsim: one SM per node)" ;;
	esac
	wf_xnodes="$wf_xnodes$x_node "
done
set +f
wf_host=${wf_host:-$TENANT_HOST}
[ -r "$umad2sim" ] || die3 "cannot read $umad2sim (set FA_UMAD2SIM)"
command -v ibsim >/dev/null 2>&1 || die3 "ibsim not found (Debian: ibsim-utils)"
command -v opensm >/dev/null 2>&1 || die3 "opensm not found (Debian: opensm)"

# --- cleanup: our own PIDs only ---------------------------------------------
wf_work='' ibsim_pid='' osm_pid='' xsm_pids='' cmd_pid='' cmd_done=''

alive() {	# running (not gone, not a zombie awaiting our wait)
	wf_st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $wf_st in Z*|"") return 1 ;; esac
	return 0
}

stop() {	# stop PID: TERM, up to ~3 s, then KILL; then reap it
	[ -n "$1" ] || return 0
	if alive "$1"; then
		kill -TERM "$1" 2>/dev/null
		i=0
		while alive "$1" && [ "$i" -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
		if alive "$1"; then
			say "pid $1 ignored SIGTERM, sending SIGKILL"
			kill -KILL "$1" 2>/dev/null
		fi
	fi
	wait "$1" 2>/dev/null
	return 0
}

cleanup() {
	wf_rc=$?
	trap '' INT TERM
	stop "$cmd_pid"
	# umad2sim makes ./sys-PID in the cwd and removes it at exit; if CMD
	# died by a signal, remove what it left (only that exact directory).
	cmd_done=${cmd_done:-$cmd_pid}
	if [ -n "$cmd_done" ] &&
	    [ -d "$wf_cwd/sys-$cmd_done/sys/class/infiniband_mad" ]; then
		rm -rf "${wf_cwd:?}/sys-$cmd_done"
	fi
	# A child of CMD that ends with _exit() (fabaudit scan's acquisition
	# as --user, which could not remove root's files anyway) leaves its
	# ./sys-PID too: remove those that appeared while CMD ran, whose
	# process is gone.
	if [ -n "$cmd_done" ] && [ -n "${wf_cwd:-}" ]; then
		for d in "$wf_cwd"/sys-[0-9]*; do
			[ -d "$d/sys/class/infiniband_mad" ] || continue
			n=${d##*/sys-}
			case " $wf_sys_before " in *" $n "*) continue ;; esac
			kill -0 "$n" 2>/dev/null || rm -rf "$d"
		done
	fi
	for p in $xsm_pids; do stop "$p"; done
	stop "$osm_pid"
	stop "$ibsim_pid"
	if [ -n "$wf_work" ]; then
		if [ "${FA_KEEP_WORK:-0}" = 1 ]; then
			echo "$prog: work dir kept: $wf_work" >&2
		else
			rm -rf "$wf_work"
		fi
	fi
	exit "$wf_rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

logtail() {	# print the tail of a log file to stderr
	[ -r "$1" ] || return 0
	echo "--- last lines of $1:" >&2
	tail -n "${2:-20}" "$1" >&2
}

# --- work dir and ibsim ------------------------------------------------------
wf_name=$(basename "$wf_scen" | tr -c 'A-Za-z0-9_.\n-' '_')
wf_work=$(mktemp -d "${TMPDIR:-/tmp}/fa-ib-$wf_name.XXXXXX") ||
	die3 "cannot create a work dir"
IBSIM_SOCKNAME=fa-$wf_name-$$
say "scenario $wf_scen, work dir $wf_work, IBSIM_SOCKNAME=$IBSIM_SOCKNAME"

# ibsim's console (its stdin) is a FIFO, FA_IBSIM_CTL, opened read-write
# by ibsim itself: it then never reads end-of-file (ibsim 0.10 would spin
# on a console at EOF), and a writer never blocks on open.  CMD may write
# console lines to it (tests/ib/ibsim-ctl.sh waits for each to be done).
mkfifo "$wf_work/ibsim.ctl" || die3 "cannot create $wf_work/ibsim.ctl"
(
	cd "$wf_work" || exit 127
	unset LD_PRELOAD
	export IBSIM_SOCKNAME
	set -f
	# shellcheck disable=SC2086  # split into separate arguments
	exec ibsim -s ${FA_IBSIM_ARGS:-} "$wf_scen/net" <>"$wf_work/ibsim.ctl"
) >"$wf_work/ibsim.log" 2>&1 &
ibsim_pid=$!

# ibsim is ready when its control socket exists (abstract "@NAME:ctl", shown
# in /proc/net/unix with its NUL padding as trailing "@").
i=0
until grep -q " @$IBSIM_SOCKNAME:ctl@*\$" /proc/net/unix 2>/dev/null; do
	if ! alive "$ibsim_pid" || [ $i -ge 100 ]; then
		logtail "$wf_work/ibsim.log"
		die3 "ibsim did not start on $wf_scen/net"
	fi
	sleep 0.1
	i=$((i + 1))
done
say "ibsim up (pid $ibsim_pid)"

# --- opensm -----------------------------------------------------------------
# start_sm DIR NODE OPTIONS PARTITIONS: start an opensm on NODE in the
# background, its PID in sm_pid. -F/-P: the scenario's config; -f: log in
# DIR; -d 2: flush the log after each message (so it can be polled). No -B:
# stay in the foreground. OSM_CACHE_DIR (guid2lid, guid2mkey, neighbors) and
# OSM_TMP_DIR (dump files) keep it out of /var; cwd = DIR, where umad2sim
# puts its ./sys-PID.
start_sm() {
	(
		cd "$1" || exit 127
		SIM_HOST=$2 OSM_TMP_DIR=$1 OSM_CACHE_DIR=$1
		LD_PRELOAD=$umad2sim
		[ -n "${FA_SM_PRELOAD:-}" ] &&
			LD_PRELOAD="$FA_SM_PRELOAD $umad2sim"
		export IBSIM_SOCKNAME SIM_HOST OSM_TMP_DIR OSM_CACHE_DIR LD_PRELOAD
		exec opensm -d 2 -f "$1/osm.log" -F "$3" -P "$4"
	) >"$1/opensm.out" 2>&1 </dev/null &
	sm_pid=$!
}

start_sm "$wf_work" "$SM_HOST" "$wf_scen/opensm.conf" "$wf_scen/partitions.conf"
osm_pid=$sm_pid

i=0 wf_limit=$((${FA_SM_TIMEOUT:-30} * 10))
until grep -q 'Entering MASTER state' "$wf_work/osm.log" 2>/dev/null &&
	grep -q 'SUBNET UP' "$wf_work/osm.log" 2>/dev/null; do
	wf_why=
	alive "$ibsim_pid" || wf_why="ibsim exited"
	alive "$osm_pid" || wf_why="opensm exited"
	[ $i -ge "$wf_limit" ] && wf_why="timed out after ${FA_SM_TIMEOUT:-30} s"
	if [ -n "$wf_why" ]; then
		logtail "$wf_work/ibsim.log" 10
		logtail "$wf_work/opensm.out" 10
		logtail "$wf_work/osm.log" 30
		die3 "SM on $SM_HOST did not become MASTER with SUBNET UP: $wf_why"
	fi
	sleep 0.1
	i=$((i + 1))
done
say "opensm on $SM_HOST MASTER, subnet up (pid $osm_pid)"

# --- extra SMs (EXTRA_SMS, checked above) ----------------------------------
# Started one at a time after the master is up; each is waited for until it
# has settled: STANDBY, or MASTER with its own SUBNET UP.
set -f
for e in $EXTRA_SMS; do
	x_node=${e%%:*} x_rest=${e#*:}
	x_opts=${x_rest%%:*} x_part=partitions.conf
	case $x_rest in *:*) x_part=${x_rest#*:} ;; esac
	x_dir=$wf_work/sm-$(printf '%s' "$x_node" | tr -c 'A-Za-z0-9_.-' '_')
	mkdir "$x_dir" || die3 "cannot create $x_dir"
	start_sm "$x_dir" "$x_node" "$(scenfile "$x_opts")" "$(scenfile "$x_part")"
	xsm_pids="$sm_pid $xsm_pids"	# stopped in reverse order
	i=0 x_state=
	while :; do
		if grep -q 'Entering STANDBY state' "$x_dir/osm.log" 2>/dev/null; then
			x_state=STANDBY
			break
		fi
		if grep -q 'Entering MASTER state' "$x_dir/osm.log" 2>/dev/null &&
		    grep -q 'SUBNET UP' "$x_dir/osm.log" 2>/dev/null; then
			x_state=MASTER
			break
		fi
		wf_why=
		alive "$ibsim_pid" || wf_why="ibsim exited"
		alive "$osm_pid" || wf_why="the master opensm exited"
		alive "$sm_pid" || wf_why="opensm exited"
		[ $i -ge "$wf_limit" ] &&
			wf_why="timed out after ${FA_SM_TIMEOUT:-30} s"
		if [ -n "$wf_why" ]; then
			logtail "$wf_work/ibsim.log" 10
			logtail "$x_dir/opensm.out" 10
			logtail "$x_dir/osm.log" 30
			die3 "extra SM on $x_node did not enter STANDBY or MASTER: $wf_why"
		fi
		sleep 0.1
		i=$((i + 1))
	done
	say "extra opensm on $x_node: $x_state (pid $sm_pid, $x_opts, $x_part)"
done
set +f
say "running on $wf_host: $*"

# --- the command ------------------------------------------------------------
# Run in the background and wait, so that a signal to this script is handled
# at once (the trap stops CMD too); fd 3 hands CMD our stdin.
wf_preload=$umad2sim
[ -n "$wf_caller_preload" ] && wf_preload="$wf_caller_preload $umad2sim"
[ -n "${FA_PRELOAD_AFTER:-}" ] && wf_preload="$wf_preload $FA_PRELOAD_AFTER"
FA_SCENARIO_DIR=$wf_scen
FA_WORKDIR=$wf_work
FA_IBSIM_CTL=$wf_work/ibsim.ctl
FA_OPENSM_PID=$osm_pid
export IBSIM_SOCKNAME FA_SCENARIO_DIR FA_WORKDIR FA_IBSIM_CTL FA_OPENSM_PID
if (exec 3<&0) 2>/dev/null; then exec 3<&0; else exec 3</dev/null; fi
wf_sys_before=$(cd "$wf_cwd" && for d in sys-[0-9]*; do
	[ -d "$d" ] && printf '%s ' "${d#sys-}"; done)
(
	cd "$wf_cwd" || exit 127
	SIM_HOST=$wf_host LD_PRELOAD=$wf_preload
	export SIM_HOST LD_PRELOAD
	exec "$@" <&3 3<&-
) &
cmd_pid=$!
wait "$cmd_pid"
wf_cmd_rc=$?
# CMD is reaped: forget its PID (it may be reused), keep it for ./sys-PID.
cmd_done=$cmd_pid cmd_pid=
exit "$wf_cmd_rc"
