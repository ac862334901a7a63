#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every failing IB finding's "reproduce" command, run against the fabric it
# was found on (ibsim + opensm + umad2sim), must exit 0 and show the fact
# the finding claims.  For each fixture: one scan from the tenant node,
# then, in the same fabric session, every "reproduce" evidence entry of
# every IB result with status fail, run as the provider's engineer would
# paste it; afterwards each output is checked against what the IBA and
# the fixture's configuration (fixtures/ib/README, its opensm.conf) say it
# must show, never against what fabaudit printed:
#
#   IB-PKEY-ENFORCE-OFF    PortInfo of the switch LID and port named, with
#                          PartEnforceInb or PartEnforceOutb 0 (IBA vol. 1
#                          14.2.5.6; ibsim stores no enforcement bits)
#   IB-MKEY-*              PortInfo of the LID named, its Mkey (-K) the
#                          fixture's m_key, ProtectBits its
#                          m_key_protection_level (OpenSM defaults: 0, 0)
#   IB-PKEY-DEFAULT-FULL   0xffff in the P_Key table
#   IB-SMKEY-DISCLOSED,    SM_Key (SMInfo bytes 8-15, MAD bytes 72-79 of the
#   IB-SMKEY-DEFAULT       received MAD) equal to the fixture's sm_key
#                          (OpenSM default 0x0000000000000001)
#   IB-CCKEY-UNSET         CC_Key 0x0000000000000000 (OpenSM sets none)
#   IB-SMP-UNRESTRICTED    a NodeInfo answer over the directed route named
#   IB-XTENANT-REACHABLE,  a PathRecord whose dlid is the one asked for (and
#   IB-PKEY-SHARED         whose pkey is, when --pkey is given)
#   IB-SAKEY-DEFAULT,      a PKeyTableRecord
#   IB-SA-DISCLOSURE
#   IB-SM-UNEXPECTED       sminfo's answer from the LID named, from an SM
#                          the policy's sm_guid lines leave out or a MASTER
#
# A failing result without a reproduce command fails the test unless its
# "reproduce_note" says why no command exists ("no command: ...").
# usage: tests/ib/test_repro.sh FABAUDIT
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
AGENT=$(dirname "$BIN")/tests/agent.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TAB=$(printf '\t')

for tool in ibsim opensm smpquery saquery sminfo ibccquery jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		fa_skip "reproduce commands: needs $tool"
		exit 0
	fi
done

# run NAME DIR: scan from the tenant node, then run every reproduce
# command of every failing IB result in the same fabric: $T/NAME/N.cmd
# holds "ID<TAB>COMMAND", N.out its output (stdout and stderr), N.rc its
# exit status.  A fixture with an agent.conf runs under the test agent
# (tests/agent/README), the scan and the commands alike.  --user keeps the
# scan as this user (as root it would drop to nobody, and could not use
# the agent's state file).
run() {
	out=$T/$1
	mkdir -p "$out"
	if [ -r "$2/agent.conf" ]; then
		set -- "$1" "$2" FA_AGENT_SCENARIO="$2/agent.conf" \
		    LD_PRELOAD="$AGENT"
	else
		set -- "$1" "$2" FA_AGENT_SCENARIO=
	fi
	env "$3" ${4:+"$4"} tests/ib/with-fabric.sh "$2" -- sh -c '
		"$1" scan --ib -q --user "$(id -un)" -c "$2/policy.conf" \
		    -o "$3/scan"
		echo $? >"$3/scan.rc"
		jq -r ".results[] | select(.family == \"ib\" and
		    .status == \"fail\") | .id as \$id | .evidence[] |
		    select(.field == \"reproduce\") | \"\(\$id)\t\(.value)\"" \
		    "$3/scan/report.json" >"$3/cmds" || exit 1
		n=0
		while IFS= read -r line; do
			n=$((n + 1))
			printf "%s\n" "$line" >"$3/$n.cmd"
			sh -c "${line#*	}" >"$3/$n.out" 2>&1 </dev/null
			echo $? >"$3/$n.rc"
		done <"$3/cmds"
		' sh "$BIN" "$2" "$out" 2>"$T/$1.err"
	wf=$?
	expect_eq "$1: fabric came up, scanned, commands ran" "$wf" 0
	[ "$wf" -eq 0 ] || sed 's/^/    /' "$T/$1.err"
}

# conf FILE OPTION DEFAULT: an OpenSM options file's value, or OpenSM's
# default.
conf() {
	v=$(sed -n "s/^$2[[:space:]][[:space:]]*\([^[:space:]]*\).*/\1/p" \
	    "$1" | tail -n 1)
	echo "${v:-$3}"
}

# ca_port_guid NET NODE: port 1 GUID of an ibsim CA (node GUID + 1).
ca_port_guid() {
	c=$(awk -v n="\"$2\"" '/^caguid=/ { g = substr($0, 8) }
	    /^Hca/ && $3 == n { print g; exit }' "$1")
	[ -n "$c" ] || return 0
	hi=${c%????????}
	printf '%s%08x\n' "$hi" $((0x${c#"$hi"} + 1))
}

# sm_conf DIR GUID: the options file of the SM whose port GUID this is:
# one of the scenario's EXTRA_SMS (fixtures/ib/README), else the master's.
sm_conf() {
	(
		EXTRA_SMS=
		. "$1/scenario"
		for e in $EXTRA_SMS; do
			opts=${e#*:}
			if [ "$(key64 "$(ca_port_guid "$1/net" "${e%%:*}")")" = \
			    "$2" ]; then
				echo "$1/${opts%%:*}"
				exit 0
			fi
		done
		echo "$1/opensm.conf"
	)
}

# key64 VALUE: a 64-bit key as 0x and 16 lower-case hex digits.
key64() {
	h=$(echo "${1#0x}" | tr 'A-F' 'a-f')
	while [ ${#h} -lt 16 ]; do h=0$h; done
	echo "0x$h"
}

# dump_smkey FILE: the SM_Key in sminfo's dump of the received MAD: SMInfo
# starts at MAD byte 64 (the SMP data), the key is its bytes 8-15, so MAD
# bytes 72-79: words 5-8 of the fifth 16-byte line after "rcv buf".
dump_smkey() {
	awk '/^rcv buf$/ { f = 1; n = 0; next }
	    f && ++n == 5 { print "0x" $5 $6 $7 $8; exit }' "$1"
}

# field NAME FILE: the value of an infiniband-diags "Name:....value" line.
field() {
	sed -n "s/^$1:\.*//p" "$2" | head -n 1
}

# arg OPTION COMMAND: the word after OPTION in a command.
arg() {
	echo "$2" | awk -v o="$1" '{ for (i = 1; i < NF; i++)
	    if ($i == o) { print $(i + 1); exit } }'
}

# policy_sm DIR GUID: whether the fixture's policy lists GUID as sm_guid.
policy_sm() {
	want=$(key64 "$2")
	for g in $(sed -n 's/^sm_guid[[:space:]]*//p' "$1/policy.conf"); do
		[ "$(key64 "$g")" = "$want" ] && return 0
	done
	return 1
}

# mkey_agent WHAT DIR ID COMMAND OUT: an M_Key finding on a fixture whose
# keys the test agent holds (agent.conf "mkey NODE KEY protect P"): the
# port read answers with what the finding claims, a readable key being
# one agent.conf sets at protection 0.
mkey_agent() {
	mk=$(field Mkey "$5") pb=$(field ProtectBits "$5")
	expect_grep "$1 reads LID ${4##* }" "^Lid:\.+${4##* }\$" "$5"
	case $3 in
	IB-MKEY-UNSET)
		expect_eq "$1: M_Key 0" "$mk" 0x0000000000000000 ;;
	IB-MKEY-READABLE)
		expect_eq "$1: protection 0" "$pb" 0
		expect_eq "$1: a key agent.conf sets at protection 0" \
		    "$(awk -v k="$mk" '$1 == "mkey" && $3 == k &&
		    $5 == 0 { print "yes"; exit }' "$2/agent.conf")" yes ;;
	*)
		expect_eq "$1: below level 2, or no key" \
		    "$({ [ "${pb:-9}" -lt 2 ] ||
		    [ "$mk" = 0x0000000000000000 ]; } && echo yes)" yes ;;
	esac
}

# fact NAME DIR ID COMMAND OUT: the output shows what finding ID claims.
fact() {
	name=$1 dir=$2 id=$3 cmd=$4 o=$5 what="$1: $3: '$4'"
	case $id in
	IB-PKEY-ENFORCE-OFF)
		lid=$(echo "$cmd" | awk '{ print $(NF - 1) }')
		port=$(echo "$cmd" | awk '{ print $NF }')
		expect_grep "$what reads switch LID $lid port $port" \
		    "^# Port info: Lid $lid port $port\$" "$o"
		expect_grep "$what shows partitions not enforced" \
		    '^PartEnforce(Inb|Outb):\.+0$' "$o"
		;;
	IB-MKEY-*)
		if [ -r "$dir/agent.conf" ]; then
			mkey_agent "$what" "$dir" "$id" "$cmd" "$o"
			return
		fi
		mkey=$(key64 "$(conf "$dir/opensm.conf" m_key 0)")
		prot=$(conf "$dir/opensm.conf" m_key_protection_level 0)
		lid=$(echo "$cmd" | awk '{ print $NF }')
		expect_grep "$what reads LID $lid" "^Lid:\.+$lid\$" "$o"
		expect_eq "$what shows the fixture's M_Key" \
		    "$(field Mkey "$o")" "$mkey"
		expect_eq "$what shows the fixture's protection level" \
		    "$(field ProtectBits "$o")" "$prot"
		case $id in
		IB-MKEY-UNSET)
			expect_eq "$what: the M_Key is 0" "$mkey" \
			    0x0000000000000000 ;;
		IB-MKEY-READABLE)
			expect_eq "$what: a non-zero key at level 0" \
			    "$([ "$mkey" != 0x0000000000000000 ] &&
			    [ "$prot" -eq 0 ] && echo yes)" yes ;;
		*)
			expect_eq "$what: below level 2, or no key" \
			    "$([ "$prot" -lt 2 ] ||
			    [ "$mkey" = 0x0000000000000000 ] && echo yes)" yes ;;
		esac
		;;
	IB-PKEY-DEFAULT-FULL)
		expect_grep "$what shows 0xffff in the P_Key table" \
		    '^ *[0-9]+: .*0xffff' "$o"
		;;
	IB-SMKEY-DISCLOSED|IB-SMKEY-DEFAULT)
		# The SM that answered, by the port GUID sminfo prints.
		g=$(sed -n 's/^sminfo: sm lid [0-9]* sm guid \(0x[0-9a-f]*\),.*/\1/p' \
		    "$o")
		f=$(sm_conf "$dir" "$(key64 "${g:-0}")")
		expect_eq "$what dumps the SM_Key of $(basename "$f")" \
		    "$(dump_smkey "$o")" \
		    "$(key64 "$(conf "$f" sm_key 0x0000000000000001)")"
		;;
	IB-CCKEY-UNSET)
		expect_eq "$what shows CC_Key 0" "$(field CC_Key "$o")" \
		    0x0000000000000000
		;;
	IB-SMP-UNRESTRICTED)
		expect_grep "$what: a node answered over the route" \
		    '^NodeType:\.+(Switch|Channel Adapter|Router)$' "$o"
		;;
	IB-XTENANT-REACHABLE|IB-PKEY-SHARED)
		expect_grep "$what returns a PathRecord" '^PathRecord dump:' "$o"
		expect_grep "$what: to the dlid asked for" \
		    "^[[:space:]]*dlid\.+$(arg --dlid "$cmd")\$" "$o"
		pk=$(arg --pkey "$cmd")
		[ -z "$pk" ] || expect_eq "$what: in the P_Key asked for" \
		    "$(key64 "$(sed -n 's/^[[:space:]]*pkey\.*//p' "$o" |
		    head -n 1)")" "$(key64 "$pk")"
		;;
	IB-SAKEY-DEFAULT|IB-SA-DISCLOSURE)
		expect_grep "$what returns a PKeyTableRecord" \
		    '^PKeyTableRecord dump:' "$o"
		;;
	IB-VSKEY-UNSET)
		# vendstat -N prints the GeneralInfo the agent answered.
		expect_grep "$what: the vendor class answered" '^hw_dev_rev' "$o"
		;;
	IB-SM-UNEXPECTED)
		lid=$(echo "$cmd" | awk '{ print $NF }')
		g=$(sed -n "s/^sminfo: sm lid $lid sm guid \(0x[0-9a-f]*\),.*/\1/p" \
		    "$o")
		expect_eq "$what: an unlisted SM, or a master" \
		    "$([ -n "$g" ] && { ! policy_sm "$dir" "$g" ||
		    grep -q 'state 3 SMINFO_MASTER$' "$o"; } && echo yes)" yes
		;;
	*)
		fa_fail "$what: no expected fact is known for $id"
		;;
	esac
}

# check NAME DIR: every command exited 0 and showed its finding's fact;
# every failing result has a command or says why it has none.
check() {
	name=$1 dir=$2 out=$T/$1 n=0
	[ -r "$out/scan/report.json" ] || { fa_fail "$name: no report"; return; }
	while [ -r "$out/$((n + 1)).cmd" ]; do
		n=$((n + 1))
		IFS= read -r line <"$out/$n.cmd"
		id=${line%%"$TAB"*} cmd=${line#*"$TAB"}
		rc=$(cat "$out/$n.rc")
		expect_eq "$name: $id: '$cmd' exits 0" "$rc" 0
		[ "$rc" -eq 0 ] || sed 's/^/    /' "$out/$n.out" | tail -n 5
		fact "$name" "$dir" "$id" "$cmd" "$out/$n.out"
	done
	expect_eq "$name: every reproduce command of a failing result ran" \
	    "$n" "$(wc -l <"$out/cmds" | tr -d ' ')"
	jq -r '.results[] | select(.family == "ib" and .status == "fail") |
	    select([.evidence[] | select(.field == "reproduce")] | length == 0)
	    | "\(.id)\t\([.evidence[] | select(.field == "reproduce_note") |
	    .value] | join(" "))"' "$out/scan/report.json" >"$out/nocmd"
	while IFS= read -r line; do
		case ${line#*"$TAB"} in
		"no command: "*)
			fa_pass "$name: ${line%%"$TAB"*}: no command, and why" ;;
		*)
			fa_fail "$name: ${line%%"$TAB"*} fails without a reproduce command or a reason" ;;
		esac
	done <"$out/nocmd"
	echo "$name: ran $n reproduce commands"
	TOTAL=$((TOTAL + n))
}

TOTAL=0
for fx in careless shared-storage careful multi-sm protected; do
	if [ -r "fixtures/ib/$fx/agent.conf" ] && [ ! -r "$AGENT" ]; then
		fa_skip "$fx: needs the test agent $AGENT"
		continue
	fi
	run "$fx" "fixtures/ib/$fx"
	check "$fx" "fixtures/ib/$fx"
done
echo "ran $TOTAL reproduce commands in all"
fa_done
