#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# SA_Key scenarios on the real stack (ibsim + opensm + umad2sim), one scan
# each, with the verdicts OpenSM's own code decides (osm_sa_mad_ctrl.c drops
# a request whose non-zero SM_Key is not sa_key and logs ERR 1A04 for it;
# osm_sa_pkey_record.c refuses a PKeyTableRecord request whose SM_Key is
# not sa_key with 0x0200 and logs ERR 4608, and answers it otherwise):
#
#   sa_key 0x0      the untrusted query (SM_Key 0) is answered with the
#                   record, the SM_Key 1 query dropped: IB-SAKEY-DEFAULT
#                   and IB-SA-DISCLOSURE fail;
#   sa_key 1        OpenSM's default (careless fixture): the SM_Key 1 query
#                   is answered: IB-SAKEY-DEFAULT fails;
#   a random key    (careful fixture): the SM_Key 1 query is dropped, the
#                   untrusted one refused: both pass.
#
# In each, the SM_Key 1 query of the tenant's own port is retried like any
# request (one lost send must not read as a refused key): where OpenSM's
# key is not 1 it drops all 3 sends (the default --retries 2), logging ERR
# 1A04 for each, so 4 PKeyTableRecord Gets of LID 4 go out and OpenSM's
# log has 3 such lines; where its key is 1, 2 Gets and no line.  And each
# failing finding's reproduce command is run against the same fabric and
# must exit 0 and print the tenant port's P_Key table record.
# usage: tests/ib/test_sakey.sh FABAUDIT
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MADLOG=$(dirname "$BIN")/tests/madlog.so
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -r "$MADLOG" ] || ! command -v ibsim >/dev/null 2>&1 ||
    ! command -v opensm >/dev/null 2>&1 || ! command -v saquery >/dev/null ||
    ! command -v jq >/dev/null; then
	fa_skip "SA_Key scenarios: needs $MADLOG, ibsim, opensm, saquery, jq"
	exit 0
fi

status() {	# ID REPORT
	jq -r --arg id "$1" '[.results[] | select(.id == $id) | .status] | join(" ")' "$2"
}
repro() {	# ID REPORT: the finding's reproduce command
	jq -r --arg id "$1" '.results[] | select(.id == $id) | .evidence[] | select(.field == "reproduce") | .value' "$2"
}

# The sa_key 0x0 fabric: the careful one with only its SA_Key changed.
mkdir -p "$T/sakey0"
cp fixtures/ib/careful/* "$T/sakey0/"
sed 's/^sa_key .*/sa_key 0x0000000000000000/' fixtures/ib/careful/opensm.conf \
    >"$T/sakey0/opensm.conf"

# run NAME DIR: scan once, logging the MADs sent; keep the SM log; run the
# reproduce commands of the IB-SA* results that failed, in the fabric.
run() {
	name=$1 dir=$2 out=$T/$1
	mkdir -p "$out"
	FA_MADLOG=$out/mads.log LD_PRELOAD=$MADLOG \
	tests/ib/with-fabric.sh "$dir" -- sh -c '
		"$1" scan --ib -q -c "$2/policy.conf" -o "$3/scan"
		echo $? >"$3/scan.rc"
		for id in IB-SAKEY-DEFAULT IB-SA-DISCLOSURE; do
			st=$(jq -r --arg id "$id" ".results[] | select(.id == \$id) | .status" "$3/scan/report.json")
			[ "$st" = fail ] || continue
			cmd=$(jq -r --arg id "$id" ".results[] | select(.id == \$id) | .evidence[] | select(.field == \"reproduce\") | .value" "$3/scan/report.json")
			# saquery alone, without the MAD log shim.
			LD_PRELOAD=${LD_PRELOAD#*:} FA_MADLOG= sh -c "$cmd" \
			    >"$3/$id.out" 2>&1
			echo $? >"$3/$id.rc"
		done
		cp "$FA_WORKDIR/osm.log" "$3/osm.log"
		' sh "$BIN" "$dir" "$out" 2>"$T/$name.err"
	wf=$?
	expect_eq "$name: fabric came up and the scan ran" "$wf" 0
	[ "$wf" -eq 0 ] || sed 's/^/    /' "$T/$name.err"
}

# pktr_gets NAME: PKeyTableRecord Gets (class 0x03, method 0x01, attribute
# 0x0033) the scan sent.
pktr_gets() {
	grep -c 'class=0x03 method=0x01 attr=0x0033 ' "$T/$1/mads.log"
}
err1a04() {
	grep -c 'ERR 1A04' "$T/$1/osm.log"
}
# shows_record NAME ID: the reproduce command exited 0 and printed the
# tenant port's (LID 4) PKeyTableRecord.
shows_record() {
	expect_eq "$1: $2's reproduce command exits 0" "$(cat "$T/$1/$2.rc")" 0
	expect_grep "$1: $2's reproduce command prints LID 4's P_Key record" \
	    'LID\.+4$' "$T/$1/$2.out"
	expect_grep "$1: ... as a PKeyTableRecord" '^PKeyTableRecord dump:' \
	    "$T/$1/$2.out"
}

# --- sa_key 0x0 -------------------------------------------------------------
run sakey0 "$T/sakey0"
r=$T/sakey0/scan/report.json
expect_eq "sakey0: IB-SAKEY-DEFAULT fails (SM_Key 0 is trusted)" \
    "$(status IB-SAKEY-DEFAULT "$r")" fail
expect_eq "sakey0: IB-SA-DISCLOSURE fails" "$(status IB-SA-DISCLOSURE "$r")" fail
expect_eq "sakey0: IB-SAKEY-DEFAULT reproduce is the untrusted query" \
    "$(repro IB-SAKEY-DEFAULT "$r")" "saquery PKTR 4"
shows_record sakey0 IB-SAKEY-DEFAULT
shows_record sakey0 IB-SA-DISCLOSURE
expect_eq "sakey0: four PKeyTableRecord Gets, the SM_Key 1 one sent 3 times" \
    "$(pktr_gets sakey0)" 4
expect_eq "sakey0: OpenSM logged each send of the SM_Key 1 query (ERR 1A04)" \
    "$(err1a04 sakey0)" 3
expect_eq "sakey0: the SM_Key 1 query's silence through its 3 sends recorded" \
    "$(jq -r '.observations[] | select(.target == "sa/trusted-default-key") | "\(.state) \(.data.sends) \(.data.single_shot)"' "$T/sakey0/scan/snapshot.json")" \
    "no_response 3 null"

# --- OpenSM's default sa_key 1 ------------------------------------------------
run default fixtures/ib/careless
r=$T/default/scan/report.json
expect_eq "default: IB-SAKEY-DEFAULT fails (SM_Key 1 is trusted)" \
    "$(status IB-SAKEY-DEFAULT "$r")" fail
expect_eq "default: IB-SA-DISCLOSURE passes (0x0200 to SM_Key 0)" \
    "$(status IB-SA-DISCLOSURE "$r")" pass
expect_eq "default: IB-SAKEY-DEFAULT reproduce is the keyed query" \
    "$(repro IB-SAKEY-DEFAULT "$r")" "saquery --smkey 1 PKTR 4"
shows_record default IB-SAKEY-DEFAULT
expect_eq "default: no ERR 1A04 (the key is right)" "$(err1a04 default)" 0
expect_eq "default: two PKeyTableRecord Gets, one per key" \
    "$(pktr_gets default)" 2

# --- a random sa_key ----------------------------------------------------------
run random fixtures/ib/careful
r=$T/random/scan/report.json
expect_eq "random: IB-SAKEY-DEFAULT passes" "$(status IB-SAKEY-DEFAULT "$r")" pass
expect_eq "random: IB-SA-DISCLOSURE passes" "$(status IB-SA-DISCLOSURE "$r")" pass
expect_eq "random: four PKeyTableRecord Gets, the SM_Key 1 one sent 3 times" \
    "$(pktr_gets random)" 4
expect_eq "random: OpenSM logged each send of the SM_Key 1 query (ERR 1A04)" \
    "$(err1a04 random)" 3
expect_eq "random: the SM_Key 1 query's silence through its 3 sends recorded" \
    "$(jq -r '.observations[] | select(.target == "sa/trusted-default-key") | "\(.state) \(.data.sends) \(.reason | test("any of its 3 sends, as expected of a key the SA refuses"))"' "$T/random/scan/snapshot.json")" \
    "no_response 3 true"
expect_eq "random: its silence counted silent, not lost (ib.engine)" \
    "$(jq -r '.observations[] | select(.kind == "ib.engine") | .data | "\(.silent >= 1) \(.lost_sends) \(.unanswered)"' "$T/random/scan/snapshot.json")" \
    "true 0 0"

fa_done
