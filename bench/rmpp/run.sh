#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh: the bench's fabric runner.  Like tests/ib/with-fabric.sh (which
# this does not replace), but it can put librmppsim.so in front of
# libumad2sim.so in opensm, so that the simulated SA host segments its
# GetTable answers as a kernel would (see rmppsim.c), and it passes ibsim
# its size options.
#
#   bench/rmpp/run.sh [--shim] [--ibsim-opts "-N 2100 ..."] SCENARIO_DIR -- CMD...
#
# SCENARIO_DIR holds net, opensm.conf, partitions.conf and scenario
# (SM_HOST=, TENANT_HOST=), as fixtures/ib/* do.  CMD runs from the
# caller's cwd on node $TENANT_HOST with LD_PRELOAD=libumad2sim.so,
# IBSIM_SOCKNAME, SIM_HOST and RUN_WORKDIR (osm.log, rmppsim.log) set.
# Exit status: CMD's; 3 if the fabric did not come up; 2 usage.
# RUN_KEEP=1 keeps the work dir.  Only the PIDs started here are stopped.

umad2sim=${FA_UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
shim='' ibsim_opts=''
while [ $# -gt 0 ]; do
	case $1 in
	--shim) shim=$here/librmppsim.so; shift ;;
	--ibsim-opts) ibsim_opts=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] && [ "$2" = "--" ] || {
	echo "usage: run.sh [--shim] [--ibsim-opts OPTS] SCENARIO -- CMD..." >&2
	exit 2
}
scen=$(cd "$1" && pwd) || exit 2
shift 2
[ -z "$shim" ] || [ -r "$shim" ] || { echo "run.sh: build $shim first" >&2; exit 2; }
SM_HOST='' TENANT_HOST=''
. "$scen/scenario"
work=$(mktemp -d "${TMPDIR:-/tmp}/rmpp-bench.XXXXXX") || exit 3
IBSIM_SOCKNAME=rmpp-$$
export IBSIM_SOCKNAME
ibsim_pid='' osm_pid=''

stop() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}
cleanup() {
	rc=$?
	stop "$osm_pid"
	stop "$ibsim_pid"
	if [ "${RUN_KEEP:-0}" = 1 ]; then echo "run.sh: kept $work" >&2
	else rm -rf "$work"; fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck disable=SC2086  # ibsim_opts is a list of options
(cd "$work" && exec ibsim -s -n $ibsim_opts "$scen/net") \
	>"$work/ibsim.log" 2>&1 </dev/null &
ibsim_pid=$!
i=0
until grep -q " @$IBSIM_SOCKNAME:ctl@*\$" /proc/net/unix 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 "$ibsim_pid" 2>/dev/null; then
		tail -5 "$work/ibsim.log" >&2
		echo "run.sh: ibsim did not start" >&2
		exit 3
	fi
	sleep 0.1
done
(cd "$work" && SIM_HOST=$SM_HOST OSM_TMP_DIR=$work OSM_CACHE_DIR=$work \
	RMPPSIM_LOG=$work/rmppsim.log LD_PRELOAD="${shim:+$shim }$umad2sim" \
	exec opensm -d 2 -f "$work/osm.log" -F "$scen/opensm.conf" \
	-P "$scen/partitions.conf") >"$work/opensm.out" 2>&1 </dev/null &
osm_pid=$!
i=0
until grep -q 'SUBNET UP' "$work/osm.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt "${RUN_SM_TIMEOUT:-1200}" ] || ! kill -0 "$osm_pid" 2>/dev/null; then
		tail -20 "$work/osm.log" >&2
		echo "run.sh: the SM did not bring the subnet up" >&2
		exit 3
	fi
	sleep 0.1
done
RUN_WORKDIR=$work SIM_HOST=$TENANT_HOST LD_PRELOAD=$umad2sim "$@"
