#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside tests/ib/with-fabric.sh's command: wait (at most SECONDS, default
# 90) until the port this node scans from is Active again.  Under MAD
# loss OpenSM re-sweeps and may hold a port in INIT for a while; a tenant
# scans an Active port, and so do the tests (a port that stays INIT is
# then the scan's "not active" error, which the test reports).  With 20
# or 50 % loss on every node and the CPUs busy, OpenSM has been seen to
# need more than 30 s.
# usage: tests/ib/wait-active.sh [SECONDS]
n=$((${1:-90} * 5))
while [ "$n" -gt 0 ]; do
	ibstat 2>/dev/null | grep -q 'State: Active' && exit 0
	sleep 0.2
	n=$((n - 1))
done
exit 0
