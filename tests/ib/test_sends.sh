#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What a scan sends is what fabaudit-checks(7) says it sends (issue 21).
# The page's "MADs a scan sends" table lists every management class,
# method and attribute of a default IB scan with how many are sent.  On
# fault-free scans of several fixture fabrics (ibsim + a real opensm),
# tshark counts the requests in mads.pcap per class, method and attribute,
# and each count must equal what the row's rule gives on that fabric,
# computed here from the topology the scan recorded and the fixture;
# no request may be of a kind the table does not list.  The rule of each
# row is bound to the words the page uses for it: when the page says
# something else, this test must learn it first.
# usage: tests/ib/test_sends.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_sends.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
PAGE=$B/man/fabaudit-checks.7
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$BIN" ] || [ ! -r "$PAGE" ] || ! command -v tshark >/dev/null; then
	fa_fail "fabaudit, its page or tshark missing ($B)"
	fa_done
	exit
fi

# --- the page's table: "CLASS METHOD ATTR<TAB>rule text" per row -----------
awk '/^\.Ss MADs a scan sends/ { on = 1; next }
    on && /^\.Ss / { exit }
    on && /^\.It / { if (k != "") print k "\t" t
	l = $0; gsub(/"|\\&/, "", l); split(l, w, " ")
	a = w[5]; gsub(/[()]/, "", a)
	k = w[2] " " (w[3] == "GetTable" ? "0x12" : "0x01") " " a; t = ""
	rule = 1; next }
    on && /^\.Pp/ { rule = 0; next }
    on && /^\.El/ { if (k != "") print k "\t" t; exit }
    on && rule { t = t (t == "" ? "" : " ") $0 }' "$PAGE" >"$T/table"
expect_eq "the page lists 14 kinds of MAD" "$(wc -l <"$T/table")" 14
rule() {	# rule KEY: the page's words for that row
	awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$T/table"
}
# says KEY PHRASE: the row exists and its rule says PHRASE (what the
# computation below implements).
says() {
	rule "$1" >"$T/rule"
	expect_grep "page, $1: \"$2\"" "$2" "$T/rule"
}
DISC="as many as libibnetdisc's walk needs"
for k in "0x81 0x01 0x0011" "0x81 0x01 0x0010" "0x81 0x01 0x0015" \
    "0x81 0x01 0x0012"; do
	says "$k" "$DISC"
done
says "0x81 0x01 0x0016" "one per block of the tenant port's own table \\(PartitionCap/32 blocks, at least 1\\)"
says "0x01 0x01 0x0020" "one per SM LID \\(the tenant port's MasterSMLID, and the LID of every CA port or switch port 0 whose PortInfo advertises IsSM\\)"
says "0x01 0x01 0x0016" "one per block \\(PartitionCap/32, at most 64\\) of every other CA port with a LID"
says "0x03 0x12 0x0035" "one with the tenant port's LID as source; when its answer may have been cut, one more per other CA port with a LID"
says "0x03 0x01 0x0033" "two for the tenant port's LID: one with SM_Key 0 and one with SM_Key 1, both retried .* and, when the SA returned records to SM_Key 1 but not to SM_Key 0, one with SM_Key 1 per other CA port whose P_Key table the SMPs could not read"
says "0x03 0x12 0x0018" "^one, retried$"
says "0x03 0x01 0x0001" "^one, retried, once the audit is done"
for k in "0x21 0x01 0x0012" "0x0a 0x01 0x0017" "0x0b 0x01 0x0001"; do
	says "$k" "one per probed node \\(every node but the tenant's own and those with a port that advertises IsSM, at its LID: switch port 0 or its first CA port with a LID\\)"
done

# --- what the rules give on a scanned fabric -------------------------------
# expected SNAPSHOT: "KEY COUNT" lines, from the topology and the SA's
# observations (a row the computation has no rule for is an error).
expected() {
	jq -r '
	def obs(k): [.observations[] | select(.kind == k)];
	def blocks(cap): ((cap + 31) / 32 | floor) as $b |
	    if $b < 1 then 1 elif $b > 64 then 64 else $b end;
	(obs("ib.topology")[0].data) as $t |
	(obs("ib.local_port")[0].data) as $l |
	($l.node_guid) as $self |
	[$t.nodes[] | select(.type == "CA" and .guid != $self) | . as $n |
	    .ports[] | select(.portinfo == null and .lid != 0) |
	    {n: $n, p: .}] as $others |
	[$t.nodes[] | select(.guid != $self) |
	    select([.ports[] | select(.is_sm == true)] | length == 0) |
	    select([.ports[] | select(.portinfo == null and .lid != 0)] |
	    length > 0)] as $probed |
	([$l.sm_lid] + [$t.nodes[] | . as $n | .ports[] |
	    select(.is_sm == true and ($n.type == "CA" or .num == 0)) |
	    .lid] | map(select(. != null and . != 0)) | unique) as $sms |
	(obs("ib.sa.path_table")[0].data.per_port // false) as $pp |
	(obs("ib.sa.pkey_table_record") | map(select(.target ==
	    "sa/untrusted"))[0].state) as $u |
	(obs("ib.sa.pkey_table_record") | map(select(.target ==
	    "sa/trusted-default-key"))[0].state) as $k |
	([obs("ib.smp.pkey_table")[] | select(.data.role == "remote" and
	    .state != "complete")] | length) as $unread |
	"discovery \($t.smps_used + 2)",
	"0x81 0x01 0x0016 \(blocks([$t.nodes[] | select(.guid ==
	    $self)][0].partition_cap))",
	"0x01 0x01 0x0020 \($sms | length)",
	"0x01 0x01 0x0016 \([$others[] | blocks(.n.partition_cap)] | add // 0)",
	"0x03 0x12 0x0035 \(1 + (if $pp then ($others | length) else 0 end))",
	"0x03 0x01 0x0033 \(1 + (if $k == "no_response" then 3 else 1 end) +
	    (if $u != "complete" and $k == "complete" then $unread else 0
	    end))",
	"0x03 0x12 0x0018 1",
	"0x03 0x01 0x0001 1",
	"0x21 0x01 0x0012 \($probed | length)",
	"0x0a 0x01 0x0017 \($probed | length)",
	"0x0b 0x01 0x0001 \($probed | length)"' "$1"
}
# sent PCAP: "KEY COUNT" of the requests in the capture (not responses,
# method bit 7, nor Trap, Report or TrapRepress, which an SM sends),
# the four discovery attributes of class 0x81 summed under "discovery".
sent() {
	tshark -r "$1" -T fields -E separator=' ' -e infiniband.mad.mgmtclass \
	    -e infiniband.mad.method -e infiniband.mad.attributeid \
	    2>"$T/tshark.err" |
	    awk '{ m = $2; if (m ~ /^0x[89a-f]/ || m == "0x05" ||
	    m == "0x06" || m == "0x07") next	# answers, SM-sent
	    k = $1 " " $2 " " $3
	    if ($1 == "0x81" && ($3 == "0x0011" || $3 == "0x0010" ||
	    $3 == "0x0015" || $3 == "0x0012")) k = "discovery"
	    c[k]++ } END { for (k in c) print k, c[k] }'
}

# --- the fabrics -----------------------------------------------------------
for fx in careless careful shared-storage multi-sm; do
	tests/ib/with-fabric.sh "fixtures/ib/$fx" -- sh -c '
	"$1" scan --ib -q -c "$FA_SCENARIO_DIR/policy.conf" -o "$2" \
	    --user "$(id -un)" 2>"$2.err"
	echo $? >"$2.rc"' sh "$BIN" "$T/$fx" 2>"$T/$fx.fabric"
	expect_eq "$fx: fabric came up, scan ran" "$?" 0
	case $(cat "$T/$fx.rc" 2>/dev/null) in 0|1) ;;
	*) fa_fail "$fx: scan exit $(cat "$T/$fx.rc" 2>/dev/null)"; continue ;;
	esac
	# Fault-free: nothing lost (the SM_Key 1 query's resends where the
	# SA drops it are its expected silence, counted apart).
	expect_eq "$fx: the scan lost nothing (no resend to count)" \
	    "$(jq '[.observations[] | select(.kind == "ib.engine")][0].data |
	    .lost + .discovery.lost_sends' "$T/$fx/snapshot.json")" 0
	expected "$T/$fx/snapshot.json" | sort >"$T/$fx.want"
	sent "$T/$fx/mads.pcap" | sort >"$T/$fx.got"
	while read -r c m a n; do
		k="$c $m $a"
		[ "$c" = discovery ] && k=discovery n=$m
		got=$(awk -v k="$k" '{ n = $NF; $NF = ""; sub(/ $/, "")
		    if ($0 == k) print n }' "$T/$fx.got")
		expect_eq "$fx: $k sent as the page says" "${got:-0}" "$n"
	done <"$T/$fx.want"
	# Every request is of a kind the table lists.
	expect_eq "$fx: no request of a kind the page does not list" \
	    "$(awk 'NR == FNR { w = $1; if (w != "discovery")
		w = w " " $2 " " $3
	    k[w] = 1; next }
	    { $NF = ""; sub(/ $/, ""); if (!($0 in k)) print }' \
	    "$T/$fx.want" "$T/$fx.got")" ""
done
fa_done
