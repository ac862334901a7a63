#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Interrupted runs leave nothing half written (core/interrupt.h): real
# scans (InfiniBand on the simulated careless fabric, a live Ethernet
# capture, the host family, --history runs) and check / diff / merge are
# sent SIGINT or SIGTERM after a spread of delays covering every phase,
# into a fresh output directory and into one holding a previous report.
# After each: the status is 130/143 (or the run had finished: 0/1), no
# temporary file is left, no directory it created is left empty, and the
# output directory holds either the previous report set unchanged (same
# SHA-256 for every file) or a complete new one (a report set is written
# with the signals held) - never a mix.  Prints FIGURE interrupted_runs N
# and FIGURE partial_files N.  usage: tests/robust/test_interrupt.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: test_interrupt.sh BUILD_DIR}
BIN=$PWD/$B/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
IR=0	# runs that ended by the signal
PF=0	# partial or temporary files, created-but-empty directories
N=0	# runs

DELAYS="0 0.005 0.01 0.02 0.03 0.05 0.08 0.12"

# bad WHAT: one violation.
bad() {
	PF=$((PF + 1))
	fa_fail "$CASE: $*"
}

# hashes DIR: "sha256 name" of every file under DIR (symlinks as their
# target name), sorted.
hashes() {
	(cd "$1" && find . -type f ! -name .lock -exec sha256sum {} + |
	    sort -k2; find . -type l -exec sh -c \
	    'for l; do echo "$(readlink "$l") $l"; done' sh {} + | sort)
}

# complete DIR FILE...: the report set in DIR is whole: every FILE is
# there, non-empty, report.json parses, snapshot.json has its SHA-256.
complete() {
	d=$1
	shift
	for f; do
		[ -s "$d/$f" ] || return 1
	done
	jq -e .summary "$d/report.json" >/dev/null 2>&1 || return 1
	if [ -f "$d/snapshot.json" ]; then
		[ "$(jq -r .snapshot.sha256 "$d/report.json")" = \
		    "$(sha256sum <"$d/snapshot.json" | cut -d' ' -f1)" ] ||
		    return 1
	fi
	return 0
}

# temps DIR: temporary files (".name.XXXXXX", "*.tmp") under DIR.
temps() {
	find "$1" \( -name '.*' ! -name .lock ! -name . \) -o -name '*.tmp*' \
	    2>/dev/null
}

# verify DIR KIND RC FILE...: KIND fresh (DIR did not exist) or prev (DIR
# held a report set whose hashes are in DIR.before).
verify() {
	d=$1 kind=$2 rc=$3
	shift 3
	N=$((N + 1))
	case $rc in
	130|143) IR=$((IR + 1)) ;;
	0|1) ;;
	*) bad "exit status $rc (want 130, 143, or 0/1 when done first)" ;;
	esac
	for f in $(temps "$d"); do
		bad "temporary file left: $f"
	done
	if [ "$kind" = fresh ] && [ -d "$d" ]; then
		if [ -z "$(ls -A "$d")" ]; then
			bad "created directory left empty: $d"
		elif ! complete "$d" "$@"; then
			bad "partial report set in $d: $(ls "$d" | tr '\n' ' ')"
		fi
	elif [ "$kind" = prev ]; then
		hashes "$d" >"$d.after"
		if ! cmp -s "$d.before" "$d.after" && ! complete "$d" "$@"; then
			bad "previous report changed but no whole new one: \
$(diff "$d.before" "$d.after" | head -3 | tr '\n' ' ')"
		elif ! cmp -s "$d.before" "$d.after" &&
		    [ -n "$(join -1 2 -2 2 "$d.before" "$d.after" |
		    awk '$2 == $3')" ]; then
			bad "a mix of the old and the new report set in $d"
		fi
	fi
	if [ "$rc" -lt 2 ] && [ "$kind" = fresh ] && ! complete "$d" "$@"; then
		bad "finished (exit $rc) without a whole report set"
	fi
}

# hit DELAY SIG CMD...: run CMD in the background, signal it after DELAY
# seconds, print its exit status.
hit() {
	dl=$1 sig=$2
	shift 2
	"$@" >/dev/null 2>&1 &
	p=$!
	sleep "$dl"
	kill -s "$sig" "$p" 2>/dev/null
	wait "$p"
	echo $?
}

# group_start NAME, runs, group_end [DIVISOR]: at least 1/DIVISOR
# (default 3) of the group's runs must have been interrupted, so that it
# cannot pass by finishing first.
group_start() { G_IR=$IR G_N=$N G_PF=$PF CASE=$1; }
group_end() {
	gi=$((IR - G_IR)) gn=$((N - G_N))
	expect_eq "$CASE: $gn runs, at least 1/${1:-3} interrupted ($gi)" \
	    "$([ $((gi * ${1:-3})) -ge "$gn" ] && [ "$gi" -gt 0 ] &&
	    echo yes)" yes
	expect_eq "$CASE: no partial file" "$((PF - G_PF))" 0
}

REP="report.json report.txt report.xml report.html"
HARD=fixtures/host/hardened

# Previous report sets, to be overwritten.
"$BIN" scan -q --host=$HARD -o "$T/prev-host" 2>/dev/null
"$BIN" check -q -o "$T/prev-check" fixtures/reports/careless.snapshot.json \
    2>/dev/null
"$BIN" merge -q -o "$T/prev-merge" "$T/prev-host/report.json" \
    "$T/prev-check/report.json" 2>/dev/null
for d in prev-host prev-check prev-merge; do
	[ -s "$T/$d/report.json" ] || fa_fail "setup: no $d report"
done

# run_set NAME TEMPLATE FILES -- CMD... (CMD's output dir is @DIR@)
run_set() {
	name=$1 tmpl=$2 files=$3
	shift 4
	i=0
	for dl in $DELAYS; do
		for sig in INT TERM; do
			for kind in fresh prev; do
				[ "$kind" = prev ] && [ -z "$tmpl" ] && continue
				i=$((i + 1))
				d=$T/$name-$i
				if [ "$kind" = prev ]; then
					cp -a "$tmpl" "$d"
					hashes "$d" >"$d.before"
				fi
				cmd=
				for a; do
					[ "$a" = @DIR@ ] && a=$d
					cmd="$cmd '$a'"
				done
				rc=$(eval hit "$dl" "$sig" "$cmd" 2>/dev/null)
				# shellcheck disable=SC2086
				verify "$d" "$kind" "$rc" $files
			done
		done
	done
}

group_start "host scan"
run_set host "$T/prev-host" "$REP snapshot.json" -- \
    "$BIN" scan -q --host=$HARD -o @DIR@
group_end

group_start "check"
run_set check "$T/prev-check" "$REP" -- \
    "$BIN" check -q -o @DIR@ fixtures/reports/careless.snapshot.json
group_end

group_start "merge"
run_set merge "$T/prev-merge" "$REP" -- \
    "$BIN" merge -q -o @DIR@ "$T/prev-host/report.json" \
    "$T/prev-check/report.json"
group_end

# diff writes to stdout only: nothing may appear in its directory.
group_start "diff"
mkdir "$T/diffcwd"
for dl in $DELAYS; do
	for sig in INT TERM; do
		rc=$(cd "$T/diffcwd" && hit "$dl" "$sig" "$BIN" diff \
		    "$T/prev-check/report.json" "$T/prev-host/report.json" \
		    2>/dev/null)
		N=$((N + 1))
		case $rc in
		130|143) IR=$((IR + 1)) ;;
		0|1) ;;
		*) bad "diff: exit status $rc" ;;
		esac
		[ -z "$(ls -A "$T/diffcwd")" ] ||
		    bad "diff left $(ls -A "$T/diffcwd")"
	done
done
group_end 16

# --history: a fresh history directory, and one with earlier runs.
group_start "history"
"$BIN" scan -q --host=$HARD --history "$T/prev-hist" 2>/dev/null
i=0
for dl in $DELAYS; do
	for sig in INT TERM; do
		for kind in fresh prev; do
			i=$((i + 1))
			h=$T/hist-$i
			[ "$kind" = prev ] && cp -a "$T/prev-hist" "$h" &&
			    hashes "$h" >"$h.before"
			rc=$(hit "$dl" "$sig" "$BIN" scan -q --host=$HARD \
			    --history "$h" 2>/dev/null)
			N=$((N + 1))
			case $rc in
			130|143) IR=$((IR + 1)) ;;
			0|1) ;;
			*) bad "history: exit status $rc" ;;
			esac
			for f in $(temps "$h"); do
				bad "temporary file left: $f"
			done
			for r in "$h"/2*; do
				[ -d "$r" ] || continue
				if [ -z "$(ls -A "$r")" ]; then
					bad "empty run directory $r"
				elif ! complete "$r" $REP snapshot.json; then
					bad "partial run $r: $(ls "$r" | tr '\n' ' ')"
				fi
			done
			if [ "$kind" = prev ]; then
				# The earlier run is untouched.
				hashes "$h" | grep -v ' ./latest$' >"$h.after"
				grep -v ' ./latest$' "$h.before" | while read -r l
				do
					grep -qxF "$l" "$h.after" ||
					    echo "$l"
				done >"$h.lost"
				[ -s "$h.lost" ] && bad "earlier run changed: \
$(head -1 "$h.lost")"
			fi
			if [ -L "$h/latest" ] && [ ! -d "$h/latest" ]; then
				bad "latest points at nothing in $h"
			fi
		done
	done
done
group_end

# A live Ethernet capture (as root: through the unprivileged child).
group_start "eth listen"
i=0
for dl in 0.05 0.3 0.8 1.5; do
	for sig in INT TERM; do
		i=$((i + 1))
		kind=fresh
		d=$T/eth-$i
		if [ $((i % 2)) -eq 0 ]; then
			kind=prev
			cp -a "$T/prev-host" "$d"
			hashes "$d" >"$d.before"
		fi
		rc=$(hit "$dl" "$sig" "$BIN" scan -q --eth=lo --listen 3 \
		    -o "$d" 2>/dev/null)
		verify "$d" "$kind" "$rc" $REP snapshot.json
	done
done
# No acquisition child outlives its parent.
sleep 0.2
expect_eq "eth listen: no orphaned scan left running" \
    "$(ps -eo args= | grep -c "^$BIN scan -q --eth=lo --listen 3 -o $T/")" 0
group_end

# InfiniBand: scans signalled after their delays, six per fabric: ibsim
# keeps a client slot for each process killed while attached (a simulator
# limit; a real umad file is closed by the kernel) and has ten.
group_start "ib scan"
cp -a "$T/prev-host" "$T/prev-ib"
cat >"$T/ib.sh" <<'EOS'
# Runs inside with-fabric.sh: $1 binary, $2 work dir, $3 previous set,
# $4 first run number, then the delays.
b=$1 w=$2 prev=$3 i=$4
shift 4
for dl; do
	for sig in INT TERM; do
		i=$((i + 1))
		d=$w/ib-$i
		kind=fresh
		if [ $((i % 2)) -eq 0 ]; then
			kind=prev
			cp -a "$prev" "$d"
			(cd "$d" && find . -type f ! -name .lock \
			    -exec sha256sum {} + | sort -k2; find . -type l \
			    -exec sh -c 'for l; do echo "$(readlink "$l") $l"
			    done' sh {} + | sort) >"$d.before"
		fi
		"$b" scan -q --ib -c fixtures/ib/careless/policy.conf \
		    -o "$d" >/dev/null 2>&1 &
		p=$!
		sleep "$dl"
		kill -s "$sig" "$p" 2>/dev/null
		wait "$p"
		echo "$d $kind $?"
	done
done >>"$w/ib.runs"
EOS
first=0
# A careless scan takes about 60 ms (the ASan build about three times
# that): the delays cover it from its start to its report.
for delays in "0.005 0.01 0.02" "0.03 0.04 0.05" "0.06 0.09 0.15"; do
	# shellcheck disable=SC2086
	sh tests/ib/with-fabric.sh fixtures/ib/careless -- sh "$T/ib.sh" \
	    "$BIN" "$T" "$T/prev-ib" "$first" $delays 2>/dev/null
	first=$((first + 6))
done
[ "$(wc -l <"$T/ib.runs" 2>/dev/null)" -eq 18 ] ||
    fa_fail "ib scan: the fabrics did not run the 18 scans"
while read -r d kind rc; do
	if [ -f "$d/mads.pcap" ]; then
		verify "$d" "$kind" "$rc" $REP snapshot.json mads.pcap
	else
		verify "$d" "$kind" "$rc" $REP snapshot.json
	fi
done <"$T/ib.runs"
group_end

echo "FIGURE interrupted_runs $IR"
echo "FIGURE partial_files $PF"
expect_eq "partial files over $N runs ($IR interrupted)" "$PF" 0
fa_done
