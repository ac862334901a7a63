#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# report.xml and junit.xml end to end: the files `fabaudit check -f
# json,xml,junit` writes validate against data/fabaudit-report.xsd and
# data/junit.xsd and agree with report.json (every result, the JUnit counts
# equal to the summary); a snapshot and a report edited to carry hostile
# strings and every optional member (scope, previous, baseline,
# expired_waivers, merged, targets, waivers) still give valid files with the
# text kept in escaped form; hand-broken files are rejected, so the schemas
# are not vacuous.
# usage: tests/report/test_xml.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_xml.sh BUILD_DIR}
BIN=$B/fabaudit
# The unit test binary doubles as a renderer of report files no command
# writes (`test_report_xml render xml|junit FILE`).
RENDER=$B/tests/test_report_xml
XSD=data/fabaudit-report.xsd
JXSD=data/junit.xsd
SNAP=fixtures/reports/careless.snapshot.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for f in "$BIN" "$RENDER"; do
	if [ ! -x "$f" ]; then
		fa_fail "$f is not built (make B=$B all $RENDER)"
		exit 1
	fi
done

# valid NAME SCHEMA FILE / invalid NAME SCHEMA FILE
valid() {
	if xmllint --noout --schema "$2" "$3" >"$T/lint" 2>&1; then
		fa_pass "$1"
	else
		fa_fail "$1: $(tail -n 3 "$T/lint" | tr '\n' ' ')"
	fi
}
invalid() {
	if xmllint --noout --schema "$2" "$3" >"$T/lint" 2>&1; then
		fa_fail "$1: accepted"
	elif grep -q 'Schemas validity error' "$T/lint"; then
		fa_pass "$1"
	else
		fa_fail "$1: not a validity error: $(head -n 2 "$T/lint")"
	fi
}
# The string value of an XPath 1.0 expression (elements of report.xml are
# in a namespace: match them with local-name()).
xp() { xmllint --xpath "$1" "$2" 2>/dev/null; }
e() { echo "*[local-name()='$1']"; }

# junit.xml's counts against report.json's summary.  Waived failures are
# skipped, not failures.
junit_counts() {
	_j=$1 _r=$2 _what=$3
	expect_eq "$_what: junit tests = results" \
	    "$(xp 'string(/testsuites/@tests)' "$_j")" \
	    "$(jq '.summary | .pass + .fail + .not_tested + .not_applicable + .error' "$_r")"
	expect_eq "$_what: junit failures = fail - waived" \
	    "$(xp 'string(/testsuites/@failures)' "$_j")" \
	    "$(jq '.summary | .fail - .waived' "$_r")"
	expect_eq "$_what: junit errors = error" \
	    "$(xp 'string(/testsuites/@errors)' "$_j")" \
	    "$(jq '.summary.error' "$_r")"
	expect_eq "$_what: junit skipped = not_tested + not_applicable + waived" \
	    "$(xp 'string(/testsuites/@skipped)' "$_j")" \
	    "$(jq '.summary | .not_tested + .not_applicable + .waived' "$_r")"
	expect_eq "$_what: junit suites add up to the total" \
	    "$(xp 'sum(/testsuites/testsuite/@tests)' "$_j")" \
	    "$(xp 'string(/testsuites/@tests)' "$_j")"
	expect_eq "$_what: junit has one testcase per result" \
	    "$(xp 'count(//testcase)' "$_j")" "$(jq '.results | length' "$_r")"
	expect_eq "$_what: junit failure elements = failures" \
	    "$(xp 'count(//testcase/failure)' "$_j")" \
	    "$(xp 'string(/testsuites/@failures)' "$_j")"
}

# Every result of report.json, in order, with its ID and status.
results_match() {
	_x=$1 _r=$2 _what=$3
	xp "//$(e result)/$(e id)/text()" "$_x" >"$T/x.ids"
	xp "//$(e result)/$(e status)/text()" "$_x" >"$T/x.st"
	paste -d ' ' "$T/x.ids" "$T/x.st" >"$T/x.pairs"
	jq -r '.results[] | "\(.id) \(.status)"' "$_r" >"$T/j.pairs"
	if [ -s "$T/j.pairs" ] && cmp -s "$T/x.pairs" "$T/j.pairs"; then
		fa_pass "$_what: every result ID and status is in report.xml"
	else
		fa_fail "$_what: results differ: $(diff "$T/j.pairs" "$T/x.pairs" | head -n 4 | tr '\n' ' ')"
	fi
}

# 1. A real offline evaluation.
O=$T/out
"$BIN" check -q -f json,xml,junit -o "$O" "$SNAP" >"$T/stdout" 2>"$T/stderr"
expect_eq "check -f json,xml,junit exits 1 (failures)" "$?" 1
expect_eq "check writes report.json, report.xml and junit.xml only" \
    "$(ls "$O" | tr '\n' ' ')" "junit.xml report.json report.xml "
valid "report.xml validates against $XSD" "$XSD" "$O/report.xml"
valid "junit.xml validates against $JXSD" "$JXSD" "$O/junit.xml"
expect_grep "report.xml is in the report namespace" \
    '<report format="2" xmlns="urn:fabaudit:report:1">' "$O/report.xml"
results_match "$O/report.xml" "$O/report.json" "check"
# Each result's remediation and clause: its own element in report.xml, or
# else its check's in <checks>; either way report.json's.
texts_match() {
	_x=$1 _r=$2 _what=$3 _n=$(jq '.results | length' "$2") _i=1 _bad=
	_ck="/$(e report)/$(e checks)/$(e check)"
	while [ "$_i" -le "$_n" ]; do
		_res="/$(e report)/$(e results)/$(e result)[$_i]"
		for _k in remediation msa_clause rationale; do
			_got=$(xp "string($_res/$(e $_k))" "$_x")
			[ -n "$_got" ] || _got=$(xp "string($_ck[$(e id) = string($_res/$(e id))]/$(e $_k))" "$_x")
			[ "$_got" = "$(jq -r --argjson i $((_i - 1)) --arg k $_k '.results[$i] as $r | $r[$k] // (.checks[] | select(.id == $r.id) | .[$k])' "$_r")" ] ||
			    _bad="$_bad $_i:$_k"
		done
		_i=$((_i + 1))
	done
	if [ -z "$_bad" ]; then
		fa_pass "$_what: every result's texts are report.json's ($_n results)"
	else
		fa_fail "$_what: texts differ at$_bad"
	fi
	expect_eq "$_what: each check's texts stated once" \
	    "$(xp "count($_ck)" "$_x")" "$(jq '[.results[].id] | unique | length' "$_r")"
}
texts_match "$O/report.xml" "$O/report.json" "check"
junit_counts "$O/junit.xml" "$O/report.json" "check"
for k in pass fail not_tested not_applicable error failing_at_or_above \
    waived fail_on catalogue_stale; do
	expect_eq "report.xml summary $k = report.json's" \
	    "$(xp "string(/$(e report)/$(e summary)/$(e "$k"))" "$O/report.xml")" \
	    "$(jq -r ".summary.$k" "$O/report.json")"
done
expect_eq "report.xml keeps the snapshot digest" \
    "$(xp "string(//$(e snapshot)/$(e sha256))" "$O/report.xml")" \
    "$(jq -r '.snapshot.sha256' "$O/report.json")"
expect_eq "report.xml has as many evidence items as report.json" \
    "$(xp "count(//$(e evidence)/$(e item))" "$O/report.xml")" \
    "$(jq '[.results[].evidence | length] | add' "$O/report.json")"
expect_eq "report.xml marks every redacted secret" \
    "$(xp "count(//$(e value)[@secret='true'])" "$O/report.xml")" \
    "$(jq '[.results[].evidence[].value | objects | select(.secret == true)] | length' "$O/report.json")"
expect_eq "report.xml's only <other> is scan.ib_options" \
    "$(xp "//$(e other)/$(e key)/text()" "$O/report.xml")" "ib_options"
expect_eq "junit.xml: a failure below --fail-on is still a failure" \
    "$(xp 'count(//failure[@type="medium" or @type="low" or @type="info"])' "$O/junit.xml")" \
    "$(jq '[.results[] | select(.status == "fail" and (.severity == "medium" or .severity == "low" or .severity == "info"))] | length' "$O/report.json")"
expect_eq "junit.xml: classname and name of the first test case" \
    "$(xp 'string(//testcase[1]/@classname)' "$O/junit.xml") $(xp 'string(//testcase[1]/@name)' "$O/junit.xml")" \
    "fabaudit.$(jq -r '.results[0].family' "$O/report.json") $(jq -r '.results[0] | "\(.id) \(.target)"' "$O/report.json")"

# -f xml alone still renders (from the report in memory).
"$BIN" check -q -f xml -o "$T/xmlonly" "$SNAP" >/dev/null 2>&1
expect_eq "check -f xml writes report.xml only" "$(ls "$T/xmlonly")" \
    "report.xml"
valid "report.xml of -f xml validates" "$XSD" "$T/xmlonly/report.xml"

# 2. Hostile strings in a snapshot, through check.  jq writes the bytes.
H='x<y & z]]> \"q\" \u0001\u001b[31m\u007f\u0085\ufffe tab\t é \\ end'
jq ".scan.host = \"$H\" |
    (.. | objects | select(.desc? == \"ufm-sm01 mlx5_0\") | .desc) |= \"$H\"" \
    "$SNAP" >"$T/hostile.snapshot.json"
"$BIN" check -q -f json,xml,junit -o "$T/hs" "$T/hostile.snapshot.json" \
    >/dev/null 2>"$T/hs.err"
expect_eq "check of the hostile snapshot exits 1" "$?" 1
valid "report.xml of a hostile snapshot validates" "$XSD" "$T/hs/report.xml"
valid "junit.xml of a hostile snapshot validates" "$JXSD" "$T/hs/junit.xml"
results_match "$T/hs/report.xml" "$T/hs/report.json" "hostile snapshot"
junit_counts "$T/hs/junit.xml" "$T/hs/report.json" "hostile snapshot"
xp "string(/$(e report)/$(e scan)/$(e host))" "$T/hs/report.xml" >"$T/host"
expect_grep "the host name keeps <, &, ]]> and quotes" \
    '^x<y & z]]> "q" ' "$T/host"
expect_grep "control bytes, C1 and U+FFFE become \\xNN" \
    '\\x01\\x1b\[31m\\x7f\\xc2\\x85\\xef\\xbf\\xbe tab' "$T/host"
expect_grep "valid UTF-8 stays, the backslash becomes \\x5c" \
    'é \\x5c end$' "$T/host"
expect_eq "the escaped host is marked" \
    "$(xp "string(/$(e report)/$(e scan)/$(e host)/@escaped)" "$T/hs/report.xml")" \
    "true"
expect_eq "a target name with the hostile node description is escaped" \
    "$(xp "count(//$(e target_name)[@escaped='true'])" "$T/hs/report.xml")" \
    "$(jq '[.results[] | select(.target_name != null and (.target_name | test("\u0001")))] | length' "$T/hs/report.json")"
expect_eq "junit.xml carries the escaped host name" \
    "$(xp 'string(//testsuite[1]/@hostname)' "$T/hs/junit.xml")" \
    "$(cat "$T/host")"

# 3. A report with every optional member, edited by hand.
jq --arg sha "$(jq -r .snapshot.sha256 "$O/report.json")" "
    def h: \"$H\";
    .scope = {tenant: h, provider: \"gpucloud\", run_by: \"ops@acme\",
      host: \"gpu-01\", started: .scan.started, finished: \"not a date\",
      tool_version: \"0.1.0\", catalogue: {date: \"2026-08-23\",
      age_days: 101, stale: true}, snapshot_sha256: \$sha,
      policy: \"acme.conf\", fabric: {local_port_guid: \"0x0002c90300a1b2c1\",
      local_node_desc: h, local_lid: 8, subnet_prefix: \"0xfe80000000000000\",
      sm_guids: [\"0x0002c90300f1e001\", 5]}}
    | .previous = {file: \"old/report.json\", sha256: \$sha}
    | .baseline = {file: \"base/report.json\", sha256: \$sha,
      new_failures: 1, resolved: 2, changed: 0, unchanged_failures: 39}
    | .expired_waivers = [{check_id: \"IB-MKEY-UNSET\", target: \"*\",
      expires: \"2026-11-30\", reason: h, policy_line: 14}, \"junk\"]
    | .merged = {reports: 2, nodes: [{host: \"a\", file: \"a/report.json\",
      sha256: \$sha, started: .scan.started, families: [\"ib\", \"host\"],
      summary: .summary}, {host: h, file: \"b\", sha256: \"bad\",
      started: \"x\", families: [\"ib\", \"nvlink\"], summary: {}}]}
    | .results[0].reason = h
    | .results[0].baseline = \"new\"
    | .results[0].targets = [{node: \"a\", target: \"local\",
      target_name: null}, {node: h, target: \"local\", target_name: h}]
    | .results[0].evidence += [{observation: h, field: \"reproduce\",
      value: h}]
    | .results[1].waived = {reason: h, expires: \"2027-01-31\",
      policy_line: 9}
    | .results[0].waiver_expired = {reason: \"old\",
      expires: \"2026-11-30\", policy_line: 12}
    | .results[2].waiver_expired = .results[0].waiver_expired
    | .summary.waived = 1
    " "$O/report.json" >"$T/edited.json"
expect_eq "the edited report parses" "$(jq -r .schema "$T/edited.json")" \
    "fabaudit-report/2"
"$RENDER" render xml "$T/edited.json" >"$T/edited.xml" 2>"$T/err"
expect_eq "the edited report renders as XML" "$?" 0
"$RENDER" render junit "$T/edited.json" >"$T/edited.junit.xml" 2>"$T/err"
expect_eq "the edited report renders as JUnit" "$?" 0
valid "report.xml with every optional member validates" "$XSD" "$T/edited.xml"
valid "junit.xml of the edited report validates" "$JXSD" "$T/edited.junit.xml"
results_match "$T/edited.xml" "$T/edited.json" "edited report"
junit_counts "$T/edited.junit.xml" "$T/edited.json" "edited report"
R="/$(e report)"
for p in "$(e scope)/$(e tenant)" "$(e scope)/$(e fabric)/$(e local_lid)" \
    "$(e scope)/$(e fabric)/$(e sm_guids)/$(e guid)" \
    "$(e scope)/$(e catalogue)/$(e stale)" "$(e previous)/$(e sha256)" \
    "$(e baseline)/$(e unchanged_failures)" \
    "$(e expired_waivers)/$(e waiver)/$(e policy_line)" \
    "$(e merged)/$(e reports)" "$(e merged)/$(e nodes)/$(e node)/$(e summary)/$(e fail)" \
    "$(e results)/$(e result)[1]/$(e baseline)" \
    "$(e results)/$(e result)[1]/$(e targets)/$(e entry)[2]/$(e target_name)" \
    "$(e results)/$(e result)[2]/$(e waived)/$(e expires)" \
    "$(e results)/$(e result)[3]/$(e waiver_expired)/$(e policy_line)"; do
	expect_eq "typed element $(echo "$p" | sed "s/\*\[local-name()='\([a-z0-9_]*\)'\]/\1/g")" \
	    "$(xp "count($R/$p)" "$T/edited.xml")" 1
done
expect_eq "scope.finished, not a date, is kept as <other>" \
    "$(xp "string($R/$(e scope)/$(e other)/$(e value))" "$T/edited.xml")" \
    "not a date"
expect_eq "an sm_guids item of the wrong type is kept in place" \
    "$(xp "string($R/$(e scope)/$(e fabric)/$(e sm_guids)/$(e other)/$(e value)/@type)" "$T/edited.xml")" \
    "integer"
expect_eq "a merged node with a bad digest and date keeps both as <other>" \
    "$(xp "count($R/$(e merged)/$(e nodes)/$(e node)[2]/$(e other))" "$T/edited.xml")" \
    2
expect_eq "an unknown family in a list is kept in place" \
    "$(xp "string($R/$(e merged)/$(e nodes)/$(e node)[2]/$(e families)/$(e other)/$(e value))" "$T/edited.xml")" \
    "nvlink"
expect_eq "the waived failure is skipped in junit.xml with its date" \
    "$(xp "string(//testcase[@name='$(jq -r '.results[1] | "\(.id) \(.target)"' "$T/edited.json")']/skipped/@message)" "$T/edited.junit.xml" | cut -c1-25)" \
    "waived until 2027-01-31: "
expect_eq "the expired waiver is in the failure text" \
    "$(xp "count(//failure[contains(., 'waiver expired on 2026-11-30 (policy line 12): old')])" "$T/edited.junit.xml")" \
    1

# 4. Input report.json cannot describe still gives valid files.
for j in '{}' '{"results":{}}' '{"results":[1,"x",{"status":"maybe"}]}' \
    '{"scan":{"started":"2026-02-30T00:00:00Z"},"summary":{"pass":-1},"results":[]}'; do
	echo "$j" >"$T/g.json"
	"$RENDER" render xml "$T/g.json" >"$T/g.xml" 2>/dev/null
	valid "report.xml of $j validates" "$XSD" "$T/g.xml"
	"$RENDER" render junit "$T/g.json" >"$T/g.junit.xml" 2>/dev/null
	valid "junit.xml of $j validates" "$JXSD" "$T/g.junit.xml"
done
expect_eq "junit.xml of an empty result list has no error" \
    "$(xp 'string(/testsuites/@errors)' "$T/g.junit.xml")" 0
echo '{}' >"$T/g.json"
"$RENDER" render junit "$T/g.json" >"$T/g.junit.xml" 2>/dev/null
expect_eq "junit.xml of {} reports one error" \
    "$(xp 'string(/testsuites/@errors)' "$T/g.junit.xml")" 1

# 5. The schemas are not vacuous: hand-broken files are rejected.
# break NAME SCHEMA FILE SED-EXPRESSION
break_one() {
	sed "$4" "$3" >"$T/broken.xml"
	if cmp -s "$3" "$T/broken.xml"; then
		fa_fail "$1: the edit changed nothing"
	else
		invalid "$1" "$2" "$T/broken.xml"
	fi
}
X=$O/report.xml
break_one "XSD rejects status maybe" "$XSD" "$X" \
    '0,/<status>fail<\/status>/s//<status>maybe<\/status>/'
break_one "XSD rejects severity urgent" "$XSD" "$X" \
    '0,/<severity>high<\/severity>/s//<severity>urgent<\/severity>/'
break_one "XSD rejects an unknown family" "$XSD" "$X" \
    '0,/<family>ib<\/family>/s//<family>nvlink<\/family>/'
break_one "XSD rejects a started that is no xs:dateTime" "$XSD" "$X" \
    's/<started>[^<]*</<started>yesterday</'
break_one "XSD rejects a negative count" "$XSD" "$X" \
    's/<pass>[0-9]*</<pass>-1</'
break_one "XSD rejects a result without an id" "$XSD" "$X" \
    '0,/<id>[^<]*<\/id>/s///'
break_one "XSD rejects an element it does not name" "$XSD" "$X" \
    '0,/<title>/s//<bogus\/><title>/'
break_one "XSD rejects a malformed digest" "$XSD" "$X" \
    's/<sha256>[0-9a-f]*</<sha256>XYZ</'
break_one "XSD rejects a value without its type" "$XSD" "$X" \
    '0,/<value type="integer">/s//<value>/'
break_one "junit XSD rejects a count that is not a number" "$JXSD" \
    "$O/junit.xml" '0,/failures="[0-9]*"/s//failures="many"/'
break_one "junit XSD rejects an unknown failure type" "$JXSD" \
    "$O/junit.xml" '0,/type="high"/s//type="urgent"/'
break_one "junit XSD rejects a testcase without a name" "$JXSD" \
    "$O/junit.xml" '0,/ name="IB-/s// x="IB-/'
break_one "junit XSD rejects two outcomes in one testcase" "$JXSD" \
    "$O/junit.xml" '0,/<\/failure>/s//<\/failure><error message="x"\/>/'

fa_done
