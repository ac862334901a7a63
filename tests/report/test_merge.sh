#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fabaudit merge: node reports made by `fabaudit check` from the careless
# fixture and jq-edited into distinct nodes (one without InfiniBand, one
# with a different finding), merged 3 and 300 at a time; bad inputs are
# refused with exit 2, a line naming the file, and nothing written.
# usage: sh tests/report/test_merge.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_merge.sh BUILD_DIR}
FA=$B/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$FA" check -q -o "$T/base" fixtures/reports/careless.snapshot.json
expect_eq "base report made (it has failures)" "$?" 1
R=$T/base/report.json
NRES=$(jq '.results | length' "$R")

# n1: as scanned.  n2: no InfiniBand (each IB check not tested, as the
# family gate writes it).  n3: HOST-PRIVILEGED passes, another kernel reason.
jq '.scan.host = "n1"' "$R" >"$T/n1.json"
jq '.scan.host = "n2" | .families.ib.state = "not_requested" |
    .scan.families = ["host"] |
    .results |= (map(select(.family != "ib")) +
	([.[] | select(.family == "ib")] | unique_by(.id) |
	 map(.status = "not_tested" | .target = "ib" | .target_name = null |
	     .evidence = [] |
	     .reason = "ib family not in the scope of this scan")))' \
    "$R" >"$T/n2.json"
jq '.scan.host = "n3" |
    (.results[] | select(.id == "HOST-PRIVILEGED")).status = "pass" |
    (.results[] | select(.id == "HOST-KERNEL-VULN")).reason = "other"' \
    "$R" >"$T/n3.json"

O=$T/out3
"$FA" merge -o "$O" "$T/n1.json" "$T/n2.json" "$T/n3.json" \
    >"$T/stdout" 2>"$T/stderr"
expect_eq "merge of 3: exit 1 (failures at or above high)" "$?" 1
expect_grep "one-line summary on stdout" \
    "^Merged 3 nodes: [0-9]+ fail .* Report: $O\$" "$T/stdout"
expect_eq "stdout is one line" "$(wc -l <"$T/stdout")" 1
expect_eq "nothing on stderr" "$(wc -c <"$T/stderr")" 0
J=$O/report.json
expect_eq "report.json schema" "$(jq -r .schema "$J")" "fabaudit-report/2"
expect_eq "evaluation mode" "$(jq -r .evaluation.mode "$J")" "merge"
expect_eq "merged.reports" "$(jq .merged.reports "$J")" 3
expect_eq "nodes named by scan.host" \
    "$(jq -c '[.merged.nodes[].host]' "$J")" '["n1","n2","n3"]'
expect_eq "node sha256 is of the input bytes" \
    "$(jq -r '.merged.nodes[1].sha256' "$J")" \
    "$(sha256sum "$T/n2.json" | cut -d' ' -f1)"
expect_eq "n2 scanned host only" \
    "$(jq -c '.merged.nodes[1].families' "$J")" '["host"]'
expect_eq "ib not collected on n2 only" \
    "$(jq -c '[.merged.families.ib.not_collected[] | .node]' "$J")" '["n2"]'
expect_eq "HOST-PRIVILEGED fail on n1 and n2" \
    "$(jq -c '[.results[] | select(.id == "HOST-PRIVILEGED" and
	.status == "fail") | .targets[] | (.node_set.names // [.node]) |
	.[]]' "$J")" '["n1","n2"]'
expect_eq "HOST-PRIVILEGED pass on n3" \
    "$(jq -c '[.results[] | select(.id == "HOST-PRIVILEGED" and
	.status == "pass") | .targets[].node]' "$J")" '["n3"]'
expect_eq "HOST-PRIVILEGED decided on 3 nodes" \
    "$(jq -c '[.results[] | select(.id == "HOST-PRIVILEGED") |
	.coverage.decided] | unique' "$J")" '[3]'
expect_eq "HOST-KERNEL-VULN: 2 distinct reasons" \
    "$(jq '.results[] | select(.id == "HOST-KERNEL-VULN") | .reasons' \
	"$J")" 2
expect_eq "SM_Key port seen from n1 and n3: one target, seen_by 2" \
    "$(jq -c '.results[] | select(.id == "IB-SMKEY-DISCLOSED" and
	.status == "fail") | [(.targets | length), .targets[0].seen_by,
	.target]' "$J")" '[1,2,"H-0x0002c90300f1e000/1"]'
expect_eq "IB-SMKEY-DISCLOSED coverage: decided 2, not tested 1" \
    "$(jq -c '.results[] | select(.id == "IB-SMKEY-DISCLOSED" and
	.status == "fail") | [.coverage.decided, .coverage.not_tested]' "$J")" \
    '[2,1]'
expect_eq "IB not_tested of n2 kept (node-local target 'ib')" \
    "$(jq -c '[.results[] | select(.id == "IB-SMKEY-DISCLOSED" and
	.status == "not_tested") | .targets[].node]' "$J")" '["n2"]'
expect_eq "summary counts equal the results by status" \
    "$(jq -c '[.summary.pass, .summary.fail, .summary.not_tested,
	.summary.not_applicable, .summary.error]' "$J")" \
    "$(jq -c '[("pass", "fail", "not_tested", "not_applicable", "error")
	as $s | [.results[] | select(.status == $s)] | length]' "$J")"
expect_eq "every input result is a target or a sighting (seen_by)" \
    "$(jq '[.results[].targets[] | (.seen_by // .node_set.count // 1)] |
    add' "$J")" \
    "$(cat "$T/n1.json" "$T/n2.json" "$T/n3.json" |
	jq -s '[.[].results | length] | add')"
expect_eq "failing_at_or_above as counted" \
    "$(jq .summary.failing_at_or_above "$J")" \
    "$(jq '[.results[] | select(.status == "fail" and .waived == null and
	(.severity == "critical" or .severity == "high"))] | length' "$J")"
expect_eq "scan.families is the union" \
    "$(jq -c .scan.families "$J")" '["ib","host"]'
expect_grep "report.txt: node table row of n2 without IB" \
    '^  n2 +scanned +unchecked +-    -    yes ' "$O/report.txt"
expect_grep "report.txt: family coverage line" \
    '^ib: not collected on 1 of 3 nodes: n2 \(not_requested\)$' \
    "$O/report.txt"
expect_grep "report.txt: finding with its node count" \
    'HOST-PRIVILEGED  2 targets on 2 of 3 nodes' "$O/report.txt"
expect_grep "report.txt: summary line" '^Merged 3 nodes: ' "$O/report.txt"

# Formats, quiet, exit codes.
"$FA" merge -q -f json -o "$T/oj" "$T/n1.json" "$T/n2.json" >"$T/stdout"
expect_eq "-q -f json: exit 1" "$?" 1
expect_eq "-q: nothing on stdout" "$(wc -c <"$T/stdout")" 0
if [ -f "$T/oj/report.json" ] && [ ! -e "$T/oj/report.txt" ]; then
	fa_pass "-f json writes report.json only"
else fa_fail "-f json writes report.json only"; fi
"$FA" merge -q -f txt -o "$T/ot" "$T/n1.json"
if [ -f "$T/ot/report.txt" ] && [ ! -e "$T/ot/report.json" ]; then
	fa_pass "-f txt writes report.txt only"
else fa_fail "-f txt writes report.txt only"; fi
jq '.scan.host = "ok1" | .results |= map(.status = "pass" | del(.waived))' \
    "$R" >"$T/ok1.json"
jq '.scan.host = "ok2" | .results |= map(.status = "pass" | del(.waived))' \
    "$R" >"$T/ok2.json"
"$FA" merge -q -o "$T/ok" "$T/ok1.json" "$T/ok2.json"
expect_eq "all passing: exit 0" "$?" 0
expect_eq "all passing: one result per check" \
    "$(jq '.results | length' "$T/ok/report.json")" \
    "$(jq '[.results[].id] | unique | length' "$R")"
jq '.scan.host = "med" | .results |= map(.status = "pass") |
    .results[0].status = "fail" | .results[0].severity = "medium"' \
    "$R" >"$T/med.json"
"$FA" merge -q -o "$T/med" "$T/med.json"
expect_eq "a medium failure: exit 0 at --fail-on high" "$?" 0
"$FA" merge -q --fail-on medium -o "$T/med" "$T/med.json"
expect_eq "a medium failure: exit 1 at --fail-on medium" "$?" 1
"$FA" merge -q -f json,html -o "$T/oh" "$T/n1.json" 2>"$T/stderr"
rc=$?
if grep -q "not implemented yet" "$T/stderr"; then
	expect_eq "html writer still a placeholder: exit 3" "$rc" 3
else
	expect_eq "-f json,html: exit 1" "$rc" 1
	if [ -s "$T/oh/report.html" ]; then fa_pass "report.html written"
	else fa_fail "report.html written"; fi
fi

# Mixed versions: a warning on stderr and in merged.warnings.
jq '.scan.host = "old" | .scanned_by.version = "0.0.9"' "$R" >"$T/old.json"
"$FA" merge -o "$T/ow" "$T/n1.json" "$T/old.json" >/dev/null 2>"$T/stderr"
expect_eq "mixed versions: exit 1" "$?" 1
expect_grep "mixed versions: warning on stderr" \
    '^fabaudit: warning: the nodes were scanned by different fabaudit '\
'versions: 0\.1\.0 \(1 report\), 0\.0\.9 \(1 report\)$' \
    "$T/stderr"
expect_eq "mixed versions: merged.warnings" \
    "$(jq '.merged.warnings | length' "$T/ow/report.json")" 1

# A hostile host name reaches no terminal or text file raw.
jq '.scan.host = "evil\u001b[2J\u0007"' "$R" >"$T/evil.json"
"$FA" merge -o "$T/oe" "$T/evil.json" >"$T/stdout" 2>&1
expect_eq "hostile host: exit 1" "$?" 1
esc=$(printf '\033')
expect_nogrep "hostile host: no raw ESC in report.txt or stdout" "$esc" \
    "$T/oe/report.txt" "$T/stdout"
expect_grep "hostile host: escaped in report.txt" 'evil\\x1b\[2J\\x07' \
    "$T/oe/report.txt"

# 300 nodes, one jq run: the same finding on all is one result.
mkdir "$T/many"
jq -c 'range(1; 301) as $i | .scan.host = "node\($i)"' "$R" |
    split -l 1 -d -a 3 --additional-suffix=.json - "$T/many/r"
expect_eq "300 node reports made" "$(ls "$T/many" | wc -l)" 300
"$FA" merge -o "$T/o300" "$T"/many/r*.json >"$T/stdout"
expect_eq "merge of 300: exit 1" "$?" 1
J=$T/o300/report.json
expect_eq "300: merged.reports" "$(jq .merged.reports "$J")" 300
expect_eq "300: one result per (id, status, severity)" \
    "$(jq '.results | length' "$J")" \
    "$(jq '[.results[] | [.id, .status, .severity]] | unique | length' "$R")"
expect_eq "300: HOST-PRIVILEGED is one result with 300 targets" \
    "$(jq -c '[.results[] | select(.id == "HOST-PRIVILEGED") |
	[(.targets | map(.node_set.count // 1) | add), .nodes, .target,
	.coverage.decided]]' "$J")" \
    '[[300,300,"300 targets on 300 nodes",300]]'
expect_eq "300: ... one row: on every scanned node, none named" \
    "$(jq -c '[.results[] | select(.id == "HOST-PRIVILEGED") | .targets |
	length, .[0].node_set]' "$J")" \
    '[1,{"all_scanned_but":[],"count":300}]'
expect_eq "300: HOST-CGROUP-ESCAPE: 6 targets on each node" \
    "$(jq -r '.results[] | select(.id == "HOST-CGROUP-ESCAPE") | .target' \
	"$J")" "1800 targets on 300 nodes"
expect_eq "300: SM_Key port one target seen by 300 nodes" \
    "$(jq -c '[.results[] | select(.id == "IB-SMKEY-DISCLOSED") |
	.targets[] | [.node, .seen_by]]' "$J")" '[["node1",300]]'
expect_eq "300: every input result accounted for" \
    "$(jq '[.results[].targets[] | (.seen_by // .node_set.count // 1)] |
    add' "$J")" "$((300 * NRES))"
expect_eq "300: summary.fail as in one node's report (grouped)" \
    "$(jq .summary.fail "$J")" \
    "$(jq '[.results[] | select(.status == "fail") | [.id, .severity]] |
	unique | length' "$R")"
expect_eq "300: every node failing" "$(jq .summary.nodes_failing "$J")" 300
expect_grep "300: report.txt: a row for all 300 nodes, none listed" \
    '^      300 nodes +host$' "$T/o300/report.txt"
expect_grep "300: ... said to be every scanned node" \
    '^        on every scanned node$' "$T/o300/report.txt"
expect_grep "300: stdout summary" '^Merged 300 nodes: ' "$T/stdout"

# Bad inputs: exit 2, a line naming the file, no output directory.
# bad NAME WANT-REGEX FILE...
bad() {
	_name=$1 _want=$2
	shift 2
	rm -rf "$T/obad"
	"$FA" merge -o "$T/obad" "$@" >"$T/stdout" 2>"$T/stderr"
	expect_eq "$_name: exit 2" "$?" 2
	expect_grep "$_name: diagnostic" "$_want" "$T/stderr"
	if [ -e "$T/obad" ]; then fa_fail "$_name: nothing written"
	else fa_pass "$_name: nothing written"; fi
}
echo "not json" >"$T/nonjson.json"
bad "non-JSON" "^fabaudit: $T/nonjson.json:1:[0-9]+: " "$T/n1.json" \
    "$T/nonjson.json"
jq '.schema = "fabaudit-report/9"' "$R" >"$T/schema.json"
bad "wrong schema" "^fabaudit: $T/schema.json: not a fabaudit-report/2 or fabaudit-report/1 report" \
    "$T/schema.json"
jq '.results[3].status = "broken"' "$R" >"$T/status.json"
bad "invalid status" "^fabaudit: $T/status.json: results\[3\]: " \
    "$T/status.json"
jq '.results[5] |= del(.id)' "$R" >"$T/noid.json"
bad "missing id" "^fabaudit: $T/noid.json: results\[5\]: " "$T/noid.json"
jq '.results = {}' "$R" >"$T/nores.json"
bad "results not an array" "$T/nores.json: no results array" \
    "$T/nores.json"
bad "same file twice" \
    "^fabaudit: $T/n2.json: the same report as $T/n2.json " \
    "$T/n1.json" "$T/n2.json" "$T/n2.json"
cp "$T/n1.json" "$T/copy.json"
bad "same bytes under another name" \
    "^fabaudit: $T/copy.json: the same report as $T/n1.json " \
    "$T/n1.json" "$T/copy.json"
jq '(.results[0].reason) = "edited"' "$T/n1.json" >"$T/n1b.json"
bad "same host and start time" \
    "^fabaudit: $T/n1b.json: the same scan as $T/n1.json \(host n1, started " \
    "$T/n1.json" "$T/n1b.json"
bad "missing file" "^fabaudit: $T/nope.json: No such file" "$T/n1.json" \
    "$T/nope.json"
mkdir "$T/nothing"
bad "a directory without reports" "^fabaudit: $T/nothing: holds no report" \
    "$T/nothing"
bad "a merged report" "$T/out3/report.json: already a merged report" \
    "$T/out3/report.json"
bad "no report" "merge takes one or more reports"
rm -rf "$T/obad"
"$FA" merge "$T/n1.json" >/dev/null 2>"$T/stderr"
expect_eq "no -o: exit 2" "$?" 2
expect_grep "no -o: diagnostic" "needs an output directory" "$T/stderr"
expect_eq "no -o: one line" "$(wc -l <"$T/stderr")" 1
bad "bad format" "unknown format 'pdf'" -f pdf "$T/n1.json"
bad "bad --fail-on" "unknown severity 'urgent'" --fail-on urgent "$T/n1.json"
# An existing report stays as it was when an input is bad.
cp -r "$T/out3" "$T/keep"
"$FA" merge -o "$T/keep" "$T/n1.json" "$T/nonjson.json" 2>/dev/null
expect_eq "bad input: exit 2 with an existing output dir" "$?" 2
if cmp -s "$T/keep/report.json" "$T/out3/report.json"; then
	fa_pass "bad input: the existing report.json is untouched"
else fa_fail "bad input: the existing report.json is untouched"; fi

# Unwritable output: exit 3.
: >"$T/afile"
"$FA" merge -o "$T/afile" "$T/n1.json" >/dev/null 2>"$T/stderr"
expect_eq "output is a file: exit 2" "$?" 2
expect_grep "output is a file: diagnostic" "$T/afile" "$T/stderr"

"$FA" merge -h >"$T/stdout"
expect_grep "-h prints the usage" '^usage: fabaudit merge \[-q\]' "$T/stdout"

# Cluster diff: findings are matched by check, node and target, so a
# check failing on one node and passing on another is two findings, and
# the diff names the node that changed.
jq '.scan.host = "d1" | .scan.started = "2026-01-01T00:00:00Z"' "$R" \
    >"$T/d1.json"
jq '.scan.host = "d2" | .scan.started = "2026-01-01T00:00:01Z"' "$R" \
    >"$T/d2.json"
jq '.results |= map(if .id == "IB-SMP-UNRESTRICTED" then .status = "pass"
    else . end)' "$T/d2.json" >"$T/d2fixed.json"
"$FA" merge -q -o "$T/c1" "$T/d1.json" "$T/d2.json" >/dev/null 2>&1
"$FA" merge -q -o "$T/c2" "$T/d1.json" "$T/d2fixed.json" >/dev/null 2>&1
expect_eq "cluster diff: a check with statuses differing by node is fine" \
    "$("$FA" diff "$T/c2/report.json" "$T/c2/report.json" >/dev/null \
    2>&1; echo $?)" 0
"$FA" diff -f json "$T/c1/report.json" "$T/c2/report.json" \
    >"$T/cd.json" 2>/dev/null
expect_eq "cluster diff: the fix on d2 is resolved, on d2 only" \
    "$(jq -r '[.resolved[] | select(.id == "IB-SMP-UNRESTRICTED") |
    .node] | join(",")' "$T/cd.json")" d2
"$FA" diff "$T/c2/report.json" "$T/c1/report.json" >"$T/cd.txt" 2>&1
expect_eq "cluster diff: a node's new failure exits 1" "$?" 1
expect_grep "cluster diff: ... naming the node" \
    '^new +high +IB-SMP-UNRESTRICTED +d2: ' "$T/cd.txt"
"$FA" diff "$R" "$T/c1/report.json" >/dev/null 2>"$T/cd.err"
expect_eq "cluster diff: a node report against a cluster report: 2" \
    "$?" 2
expect_grep "cluster diff: ... saying so" 'compare two of a kind' \
    "$T/cd.err"
# Inputs from a directory (the sbatch layout nodes/NODE/report.json) or
# a list on standard input merge as the same files given one by one.
mkdir -p "$T/tree/n1" "$T/tree/n2" "$T/tree/.hidden" "$T/tree/empty"
cp "$T/d1.json" "$T/tree/n1/report.json"
cp "$T/d2.json" "$T/tree/n2/report.json"
"$FA" merge -q -f json -o "$T/fromdir" "$T/tree" >/dev/null 2>&1
expect_eq "merge of a directory: exit as for the files" "$?" \
    "$("$FA" merge -q -f json -o "$T/fromargs" "$T/tree/n1/report.json" \
    "$T/tree/n2/report.json" >/dev/null 2>&1; echo $?)"
expect_eq "... the same nodes and results" \
    "$(jq -c '[.merged.nodes[]?.host // empty], [.results[] | .id, .status]' \
    "$T/fromdir/report.json" | md5sum)" \
    "$(jq -c '[.merged.nodes[]?.host // empty], [.results[] | .id, .status]' \
    "$T/fromargs/report.json" | md5sum)"
printf '%s\n' "$T/tree/n1/report.json" "" "$T/tree/n2/report.json" |
    "$FA" merge -q -f json -o "$T/fromlist" - >/dev/null 2>&1
expect_eq "merge of a list on standard input: the same results" \
    "$(jq -c '[.results[] | .id, .status]' "$T/fromlist/report.json" |
    md5sum)" \
    "$(jq -c '[.results[] | .id, .status]' "$T/fromargs/report.json" |
    md5sum)"
"$FA" merge -q -f json -o "$T/manydir" "$T/many" >/dev/null 2>&1
expect_eq "merge of a directory of 300 reports: as the 300 files" \
    "$(jq -c '[.results[] | .id, .status, (.targets | length)]' \
    "$T/manydir/report.json" | md5sum)" \
    "$(jq -c '[.results[] | .id, .status, (.targets | length)]' \
    "$T/o300/report.json" | md5sum)"
"$FA" merge -q -o "$T/none" "$T/tree/empty" >/dev/null 2>"$T/none.err"
expect_eq "a directory with no report: exit 2" "$?" 2
expect_grep "... saying so" 'holds no report' "$T/none.err"
expect_eq "... and nothing written" "$(ls -d "$T/none" 2>/dev/null)" ""

# Accounting and signatures, on reports the real scan writes and signs:
# each node's scan --node-name, one host name for all (this machine's).
openssl genpkey -algorithm ed25519 -out "$T/k.pem" 2>/dev/null
openssl pkey -in "$T/k.pem" -pubout -out "$T/k.pub" 2>/dev/null
openssl genpkey -algorithm ed25519 -out "$T/other.pem" 2>/dev/null
for n in g1 g2 g3; do
	"$FA" scan -q --host --node-name "$n" -f json,txt --sign "$T/k.pem" \
	    -o "$T/sig/$n" >/dev/null 2>&1
done
"$FA" scan -q --host --node-name g4 -f json -o "$T/sig/g4" >/dev/null 2>&1
"$FA" scan -q --host --node-name g5 -f json --sign "$T/other.pem" \
    -o "$T/sig/g5" >/dev/null 2>&1
expect_eq "five node reports scanned" \
    "$(ls "$T"/sig/g?/report.json | wc -l | tr -d ' ')" 5
printf 'g1\ng2\ng3\ng4\ng5\ng6\ng7\n# a comment\n\n' >"$T/expected"
printf 'g6\ttimed_out\tkilled after 600 s\n' >"$T/failed"
"$FA" merge -q -f json,txt --pubkey "$T/k.pub" --expect "$T/expected" \
    --failed "$T/failed" -o "$T/acc" "$T/sig" >/dev/null 2>"$T/acc.err"
expect_eq "unscanned nodes: exit 1 (not clean)" "$?" 1
expect_eq "... each node's state" \
    "$(jq -r '[.merged.nodes[] | "\(.node)=\(.state)/\(.signature)"] |
    join(" ")' "$T/acc/report.json")" \
    "g1=scanned/good g2=scanned/good g3=scanned/good g4=scanned/unsigned \
g5=scanned/bad g6=timed_out/null g7=missing/null"
jq -r '.merged.warnings[]' "$T/acc/report.json" >"$T/acc.warn"
expect_grep "... a bad signature is a warning" \
    "node g5: the signature of .* is bad" "$T/acc.warn"
expect_grep "... report.txt says INCOMPLETE" \
    "INCOMPLETE: 2 nodes not in this report \\(0 failed, 1 timed out, \
1 missing, 0 rejected\\)" "$T/acc/report.txt"
"$FA" merge -q -f junit --expect "$T/expected" --failed "$T/failed" \
    -o "$T/accj" "$T/sig" >/dev/null 2>&1
expect_eq "junit: an error per node not scanned, in fabaudit.nodes" \
    "$(xmllint --xpath 'count(//testsuite[@name="fabaudit.nodes"]/testcase/error)' \
    "$T/accj/junit.xml" 2>/dev/null)" 2
expect_grep "... naming the state and reason" \
    'name="g6".*|error message="timed_out: killed after 600 s"' \
    "$T/accj/junit.xml"
"$FA" merge -q -f json --fail-on none --pubkey "$T/k.pub" \
    --require-signature --expect "$T/expected" -o "$T/req" "$T/sig" \
    >/dev/null 2>&1
expect_eq "--fail-on none: an incomplete cluster exits 0" "$?" 0
expect_eq "--require-signature: unsigned and bad rejected, not merged" \
    "$(jq -r '[.merged.accounting.rejected, .merged.reports,
    .summary.nodes_not_scanned] | @tsv' "$T/req/report.json")" \
    "$(printf '2\t3\t4')"
"$FA" merge -q -f json --expect "$T/expected" -o "$T/only" >/dev/null 2>&1
expect_eq "--expect alone: a report of 7 missing nodes, exit 1" \
    "$?:$(jq -r .merged.accounting.missing "$T/only/report.json")" 1:7
printf 'g6\tlost\twhy\n' >"$T/badfailed"
"$FA" merge -q --failed "$T/badfailed" -o "$T/bf" "$T/sig" \
    >/dev/null 2>"$T/bf.err"
expect_eq "a bad --failed line: exit 2" "$?" 2
expect_grep "... naming FILE:LINE" "badfailed:1: state must be failed or \
timed_out" "$T/bf.err"
expect_eq "... and nothing written" "$(ls -d "$T/bf" 2>/dev/null)" ""
printf 'g1\ng1\n' >"$T/twice"
"$FA" merge -q --expect "$T/twice" -o "$T/tw" "$T/sig" >/dev/null \
    2>"$T/tw.err"
expect_eq "a node expected twice: exit 2" "$?" 2
"$FA" merge -q --require-signature -o "$T/rq" "$T/sig" >/dev/null \
    2>"$T/rq.err"
expect_eq "--require-signature without --pubkey: exit 2" "$?" 2
# The cluster directory, signed, verified as a whole.
mkdir -p "$T/cdir/nodes"
cp -r "$T/sig/g1" "$T/sig/g2" "$T/cdir/nodes/"
"$FA" merge -q -f json,txt --sign "$T/k.pem" --pubkey "$T/k.pub" \
    -o "$T/cdir/cluster" "$T/cdir/nodes" >/dev/null 2>&1
"$FA" verify --pubkey "$T/k.pub" "$T/cdir" >"$T/v.out" 2>&1
expect_eq "verify of a cluster directory: exit 0" "$?" 0
expect_grep "... node reports matched" "the 2 node reports under nodes/ are \
those the cluster report merged, each signed" "$T/v.out"
cp -r "$T/sig/g3" "$T/cdir/nodes/"
"$FA" verify --pubkey "$T/k.pub" "$T/cdir" >"$T/v2.out" 2>&1
expect_eq "verify: a node report the cluster report did not merge: 1" \
    "$?" 1
expect_grep "... named" "nodes/g3/report.json: not a report the cluster \
report merged" "$T/v2.out"
rm -rf "$T/cdir/nodes/g3" "$T/cdir/nodes/g2"
"$FA" verify --pubkey "$T/k.pub" "$T/cdir" >"$T/v3.out" 2>&1
expect_eq "verify: a merged node report gone: 1" "$?" 1
expect_grep "... named" "FAILED: g2: its report .* is not under nodes/" \
    "$T/v3.out"
fa_done
