#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for fuzz_diff: report.json of the real scan
# fixtures/reports/careless.snapshot.json, made by `fabaudit check` (the
# binary $FABAUDIT, default build/fabaudit; without it only the committed
# fuzz/corpus/diff is used): in full, alone (compared with itself); and
# without the members of a result the comparison does not read (the
# catalogue's texts, the reason and the evidence), whole and cut down to
# a few results, each alone and paired NUL-separated with a changed copy:
# failures resolved, passes failing, a severity changed, a result removed,
# one waived.  (Pairs of full reports made each run parse 230 KB, most of
# the run's time in jansson's parser.)
# usage: fuzz/seeds/diff.sh OUTDIR   (from the repo root)
set -eu
out=$1
bin=${FABAUDIT:-build/fabaudit}
mkdir -p "$out"
if [ ! -x "$bin" ]; then
	echo "diff.sh: no $bin: committed corpus only" >&2
	exit 0
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$bin" check -q -f json -o "$t" fixtures/reports/careless.snapshot.json ||
    [ $? -eq 1 ]
notext='del(.rationale, .remediation, .msa_clause, .references, .title,
    .reason, .evidence)'
small=".results |= (.[0:6] + .[-6:] | map($notext))"
all=".results |= map($notext)"
change='.results |= (to_entries | map(
    if .key % 5 == 0 and .value.status == "fail" then .value.status = "pass"
    elif .key % 5 == 1 then .value.status = "fail"
    elif .key % 5 == 2 then .value.severity = "low"
    elif .key % 5 == 3 then .value.waived = {"reason": "r",
        "expires": "2030-01-01", "policy_line": 3}
    else . end) | map(.value) | .[1:])'
jq -c . "$t/report.json" >"$t/full"
jq -c "$small" "$t/report.json" >"$t/small"
jq -c "$all" "$t/report.json" >"$t/all"
for v in full small all; do
	cp "$t/$v" "$out/$v-self"
	[ "$v" != full ] || continue
	jq -c "$change" "$t/$v" >"$t/$v-changed"
	{ cat "$t/$v"; printf '\000'; cat "$t/$v-changed"; } >"$out/$v-pair"
	{ cat "$t/$v-changed"; printf '\000'; cat "$t/$v"; } >"$out/$v-back"
done
