#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ibsim-ctl.sh: send console commands to the ibsim of a running
# tests/ib/with-fabric.sh (from its CMD) and wait until ibsim has done them.
#
#   tests/ib/ibsim-ctl.sh 'COMMAND' ['COMMAND'...]
#
# Each COMMAND is one ibsim console line (ibsim 0.10, sim_cmd.c do_cmd()),
# e.g.
#   Error "acme-gpu-01" 20      drop 20 % of the packets entering every port
#                               of that node (random() % 100 < rate, per
#                               port crossed; 0 turns it off), any class;
#   Error "ib-leaf01"[3] 50 21  the same on one port, for attribute 21
#                               (PortInfo) only, at its SMA;
#   Unlink "ib-leaf01"[3]       take that link down (both ends go to Down/
#                               Polling, the switches send trap 128);
#   ReLink "ib-leaf01"[3]       bring it back.
# A dropped MAD comes back to its sender at once as a umad with status 110
# (ETIMEDOUT), as if no answer had come.
# Uses FA_IBSIM_CTL (ibsim's console FIFO) and FA_WORKDIR/ibsim.log (its
# output), both exported by with-fabric.sh.  After each command it writes a
# comment line, which ibsim echoes, and waits for it (up to 10 s).  Exit
# status 0; 1 if ibsim printed anything else for a command (a node not
# found, a bad port: ibsim's own message goes to stderr); 2 on misuse.
prog=ibsim-ctl.sh
if [ -z "${FA_IBSIM_CTL:-}" ] || [ ! -p "$FA_IBSIM_CTL" ] ||
    [ -z "${FA_WORKDIR:-}" ]; then
	echo "$prog: run me from the CMD of tests/ib/with-fabric.sh" >&2
	exit 2
fi
[ $# -ge 1 ] || { echo "usage: $prog COMMAND..." >&2; exit 2; }
log=$FA_WORKDIR/ibsim.log
rc=0 n=0
for c in "$@"; do
	case $c in
	*'
'*) echo "$prog: one line per command" >&2; exit 2 ;;
	esac
	n=$((n + 1))
	mark="# fa-ctl $$.$n"
	from=$(($(wc -c <"$log") + 1))
	printf '%s\n%s\n' "$c" "$mark" >"$FA_IBSIM_CTL" || exit 2
	i=0
	until tail -c +"$from" "$log" | grep -qF -- "$mark"; do
		if [ $i -ge 100 ]; then
			echo "$prog: ibsim did not take '$c' within 10 s" >&2
			exit 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	# ibsim prints nothing for a command that worked: only prompts
	# ("sim> ") and our echoed mark may follow it.
	out=$(tail -c +"$from" "$log" | sed 's/sim> //g' |
	    grep -vF -- "$mark" | grep -v '^[[:space:]]*$')
	if [ -n "$out" ]; then
		echo "$prog: ibsim on '$c': $out" >&2
		rc=1
	fi
done
exit $rc
