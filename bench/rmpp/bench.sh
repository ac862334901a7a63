#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench.sh: every experiment of bench/rmpp/README, in order, printing what
# the README quotes.  Run from the repository root after `make -C
# bench/rmpp`:
#
#   RMPP_UMAD2SIM_FIXED=/path/libumad2sim.so sh bench/rmpp/bench.sh [PARTS]
#
# PARTS (default "q1 loss q2 faults q3"): q1 = what the stock stack
# delivers; loss = umad2sim's lost bytes; q2 = one GetTable against
# per-port GetTables; faults = lost, duplicated, reordered segments; q3 =
# record sets compared.  q2..q3 need RMPP_UMAD2SIM_FIXED (a libumad2sim.so
# built by build-umad2sim.sh).  BENCH_FABRICS (default "large ft648
# ft648flat ft2016") chooses the fabrics of q2/q3; ft* are generated into
# a temporary directory (gen-fattree.sh).
set -u
here=bench/rmpp
[ -x $here/satable ] && [ -r $here/librmppsim.so ] ||
	{ echo "bench.sh: make -C bench/rmpp first, from the repository root" >&2; exit 2; }
parts=${1:-q1 loss q2 faults q3}
fixed=${RMPP_UMAD2SIM_FIXED:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fabrics=${BENCH_FABRICS:-large ft648 ft648flat ft2016}

want() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
need_fixed() {
	[ -n "$fixed" ] && [ -r "$fixed" ] && return 0
	echo "== $1: skipped, RMPP_UMAD2SIM_FIXED is not set (see build-umad2sim.sh)"
	return 1
}
scen() {	# fabric name -> scenario dir (generated on first use)
	case $1 in
	large) echo fixtures/ib/large ;;
	ft648) [ -d "$tmp/ft648" ] || sh $here/gen-fattree.sh "$tmp/ft648" >&2; echo "$tmp/ft648" ;;
	ft648flat) [ -d "$tmp/ft648flat" ] ||
		sh $here/gen-fattree.sh "$tmp/ft648flat" 36 18 18 flat >&2; echo "$tmp/ft648flat" ;;
	ft2016) [ -d "$tmp/ft2016" ] || sh $here/gen-fattree.sh "$tmp/ft2016" 112 18 18 >&2; echo "$tmp/ft2016" ;;
	esac
}
ibopts() { case $1 in ft2016) echo "-N 2300" ;; *) echo "" ;; esac; }

if want q1; then
	echo "== q1: the stock stack (Debian umad2sim, real opensm), large fixture"
	cp -r fixtures/ib/large "$tmp/q1"
	printf '\nlog_flags 0x0f\n' >>"$tmp/q1/opensm.conf"
	$here/run.sh "$tmp/q1" -- sh -c '
		for a in "-r 1 -q nr" "-r 0 -q nr" "-r 1 -q pr" "-r 1 -q pr-sgid" "-r 1 -q pr -a"; do
			echo "-- probe $a"; bench/rmpp/probe $a -t 1000
		done
		echo "-- osm.log (log_flags 0x0f): what OpenSM wrote for each answer"
		grep -E "Returning [0-9]+ records|osm_vendor_send: RMPP" "$RUN_WORKDIR/osm.log" |
		    sed "s/^.*-> //" | tail -12'
fi

if want loss; then
	echo "== loss: librmppsim.so in opensm, stock umad2sim everywhere, ft648"
	s=$(scen ft648)
	mkdir -p "$tmp/dump"
	RMPPSIM_DUMP=$tmp/dump $here/run.sh --shim "$s" -- sh -c "
		SATABLE_RAW=$tmp/raw.bin bench/rmpp/satable -m table -q pr" | cut -c1-160
	sent=$(ls "$tmp"/dump/msg-* | head -1)
	echo "-- bytes differing between what opensm wrote and what was reassembled,"
	echo "   by their offset in the 256-byte segment that carried them:"
	cmp -l "$sent" "$tmp/raw.bin" | awk '$1 > 56 {
		o = ($1 - 1 - 56) % 200 + 56; n[o]++ }
		END { for (o in n) print o, n[o] }' | sort -n | awk '
		NR == 1 { lo = $1 } { hi = $1; t += $2 }
		END { printf "   offsets %s..%s, %d bytes in all\n", lo, hi, t }'
	rm -rf "$tmp/dump" "$tmp/raw.bin"
fi

if want q2 && need_fixed q2; then
	echo "== q2: one GetTable (RMPP) against one GetTable per port"
	echo "   (librmppsim.so in opensm, fixed umad2sim everywhere)"
	for f in $fabrics; do
		s=$(scen "$f")
		echo "-- $f: $(. "$s/scenario"; echo "$DESCRIPTION")"
		# shellcheck disable=SC2046
		FA_UMAD2SIM=$fixed $here/run.sh --shim --ibsim-opts "$(ibopts "$f")" "$s" -- sh -c "
			awk '\$1 ~ /^0x0002c903/ {print \$2}' \"\$RUN_WORKDIR/guid2lid\" >$tmp/lids
			echo \"   CA ports (guid2lid): \$(wc -l <$tmp/lids)\"
			for w in 64 8 1; do bench/rmpp/satable -n 5 -m table -q pr -W \$w; done
			bench/rmpp/satable -n 5 -m table -q pr-sgid
			bench/rmpp/satable -n 5 -m table -q nr
			bench/rmpp/satable -n 5 -m perport -L $tmp/lids -i 1
			bench/rmpp/satable -n 5 -m perport -L $tmp/lids -i 16"
	done
fi

if want faults && need_fixed faults; then
	echo "== faults: segments 5 and 40 lost once, 10 twice, 20 after 21 (ft648)"
	s=$(scen ft648)
	FA_UMAD2SIM=$fixed $here/run.sh --shim "$s" -- sh -c "
		bench/rmpp/satable -m table -q pr -d $tmp/clean"
	RMPPSIM_DROP=5,40 RMPPSIM_DUP=10 RMPPSIM_SWAP=20 FA_UMAD2SIM=$fixed \
	    $here/run.sh --shim "$s" -- sh -c "
		bench/rmpp/satable -m table -q pr -d $tmp/faulty
		grep -v ' start' \"\$RUN_WORKDIR/rmppsim.log\" | sed 's/^/   opensm side: /'"
	cmp -s "$tmp/clean" "$tmp/faulty" && echo "   records identical to a clean run: $(wc -l <"$tmp/clean")"
fi

if want q3 && need_fixed q3; then
	echo "== q3: PathRecords, one table (SLID only) against per-port (SLID+DLID)"
	for f in $fabrics; do
		s=$(scen "$f")
		FA_UMAD2SIM=$fixed $here/run.sh --shim --ibsim-opts "$(ibopts "$f")" "$s" -- sh -c "
			awk '\$1 ~ /^0x0002c903/ {print \$2}' \"\$RUN_WORKDIR/guid2lid\" >$tmp/lids
			awk '{ print \$2 }' \"\$RUN_WORKDIR/guid2lid\" >$tmp/alllids
			bench/rmpp/satable -m table -q pr -d $tmp/table >/dev/null
			bench/rmpp/satable -m table -q pr-sgid -d $tmp/tsgid >/dev/null
			bench/rmpp/satable -m perport -L $tmp/lids -i 16 -d $tmp/port >/dev/null
			bench/rmpp/satable -m perport -L $tmp/alllids -i 16 -d $tmp/portall >/dev/null
			bench/rmpp/probe -q pr -t 300 | sed -n 's/^port LID \([0-9]*\),.*/\1/p' >$tmp/ourlid"
		ours=$(cat "$tmp/ourlid")
		echo "-- $f (our LID $ours)"
		echo "   table (SLID only): $(wc -l <"$tmp/table") records;" \
		    "per CA port: $(wc -l <"$tmp/port"); per port, switches too: $(wc -l <"$tmp/portall")"
		cmp -s "$tmp/table" "$tmp/tsgid" && echo "   SGID-only table: identical to the SLID-only one"
		echo "   in the table, not from the per-CA-port queries:" \
		    "$(comm -23 "$tmp/table" "$tmp/port" | wc -l) (switches and ours);" \
		    "not from per-port queries to every LID either: $(comm -23 "$tmp/table" "$tmp/portall" | wc -l):"
		comm -23 "$tmp/table" "$tmp/portall" | sed 's/^/     /'
		echo "   per port, not in the table: $(comm -13 "$tmp/table" "$tmp/portall" | wc -l)"
		echo "   P_Keys in the table: $(awk '{print $4}' "$tmp/table" | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
	done
fi
