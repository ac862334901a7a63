#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Bad invocations and inputs, for every command: each must exit 2 (usage
# or input error) or 3 (as fabaudit(8) EXIT STATUS says), print exactly
# one line on stderr naming the option, or the file (and line, for a
# policy or JSON input), and write nothing: an output directory holding a
# previous report is left as it was, a new one is not made, and no
# default directory appears in the working directory.
# The table below is the list; each row is
#   STATUS <tab> REGEX <tab> ARGUMENTS
# REGEX (extended, matched against the one line) must name what is at
# fault; ARGUMENTS are expanded by the shell ($vars, quotes).
# usage: tests/robust/test_errors.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$1
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
FIX=$(pwd)/fixtures

# ---- inputs ---------------------------------------------------------------
H=$FIX/host/vm				# a host sysroot that scans quickly
S=$T/snap.json				# a good snapshot
cp "$FIX/reports/careless.snapshot.json" "$S"
chmod 644 "$S"		# whatever the checkout's mode: nobody reads it below
"$BIN" check -q -o "$T/good" "$S" >/dev/null 2>&1
R=$T/good/report.json			# a good report
[ -s "$R" ] || fa_fail "setup: no report from check"
"$BIN" keygen -o "$T/key" >/dev/null 2>&1 || fa_fail "setup: keygen"
cp -r "$T/good" "$T/signed"
rm -f "$T/signed/SHA256SUMS"*
: >"$T/empty"
mkdir "$T/adir"
mkfifo "$T/fifo"
head -c 4096 /dev/urandom >"$T/binary"
printf '\0\0\0' >>"$T/binary"		# surely not text
printf '{"schema": "fabaudit-snapshot/1",\n  "families": {' >"$T/trunc.json"
truncate -s 200M "$T/huge"		# sparse, over every JSON limit
truncate -s 2M "$T/huge2m"		# over the policy and SHA256SUMS limits
printf '[1, 2, 3]\n' >"$T/array.json"
printf '{"schema": "fabaudit-snapshot/1",\n "a": 1,\n "a": 2}\n' \
    >"$T/dupkey.json"
printf '{"schema": "\377\376"}\n' >"$T/badutf8.json"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; print "" }' \
    >"$T/deep.json"
jq '.schema = "fabaudit-snapshot/9"' "$S" >"$T/schema9.json"
jq '.families = "yes"' "$S" >"$T/famtype.json"
jq '.observations = {}' "$S" >"$T/obstype.json"
jq '.results = "none"' "$R" >"$T/restype.json"
jq '.results[0].severity = "extreme"' "$R" >"$T/badsev.json"
jq '.results[0].status = "maybe"' "$R" >"$T/badstatus.json"
jq '.results += [.results[0]]' "$R" >"$T/dupresult.json"
jq 'del(.schema)' "$R" >"$T/noschema.json"
printf 'tenant_node acme-*\nfrobnicate yes\n' >"$T/badkw.conf"
printf 'tenant_guid 0xZZ\n' >"$T/badguid.conf"
printf 'tenant_vlan 5000\n' >"$T/badvlan.conf"
printf 'waive IB-NOPE * 2099-01-01 "x"\n' >"$T/badwaive.conf"
printf 'tenant_node "unterminated\n' >"$T/badquote.conf"
awk 'BEGIN { printf "tenant_node "; for (i = 0; i < 70000; i++)
    printf "a"; print "" }' >"$T/longline.conf"
printf '{"schema": "x"}\n' >"$T/cve-bad.json"
openssl genpkey -algorithm x25519 -out "$T/x25519.pem" 2>/dev/null
openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:1024 \
    -out "$T/rsa1024.pem" 2>/dev/null
[ -s "$T/x25519.pem" ] && [ -s "$T/rsa1024.pem" ] ||
    fa_fail "setup: openssl keys"
# SHA256SUMS variants, each in its own directory with the report files.
sums() {
	cp -r "$T/good" "$T/$1"
	printf "$2" >"$T/$1/SHA256SUMS"
}
HEX=$(sha256sum "$R" | cut -c1-64)
sums sums-bad 'not a sums line\n'
sums sums-empty ''
sums sums-nul "$HEX  report.json\n\0\n"
sums sums-dup "$HEX  report.json\n$HEX  report.json\n"
sums sums-slash "$HEX  ../report.json\n"
sums sums-upper "$(echo "$HEX" | tr a-f A-F)  report.json\n"
cp -r "$T/good" "$T/sums-dir" && mkdir "$T/sums-dir/SHA256SUMS"
cp -r "$T/good" "$T/sums-fifo" && mkfifo "$T/sums-fifo/SHA256SUMS"
cp -r "$T/good" "$T/sums-huge" && truncate -s 2M "$T/sums-huge/SHA256SUMS"
mkdir "$T/hist-empty"
# A pcap that is not Ethernet: a DLT_RAW header (RFC 9555 link type 101).
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\145\000\000\000' >"$T/raw.pcap"

# ---- where outputs would go ----------------------------------------------
OUT=$T/out		# holds a previous report: must stay as it is
NEW=$T/new		# does not exist: must not be made
mkdir "$T/cwd"		# the working directory: must stay empty
cp -r "$T/good" "$OUT"
ls -lR --time-style=+%s.%N "$OUT" >"$T/out.before"
md5sum "$OUT"/* >"$T/out.md5"

cases=0
# run ROW: one case of the table.
run() {
	want=$(printf '%s' "$1" | cut -f1)
	re=$(printf '%s' "$1" | cut -f2)
	args=$(printf '%s' "$1" | cut -f3-)
	cases=$((cases + 1))
	name="[$cases] fabaudit $args"
	(cd "$T/cwd" && eval "timeout 60 $BIN $args" \
	    </dev/null >"$T/stdout" 2>"$T/stderr")
	rc=$?
	expect_eq "$name: exit status" "$rc" "$want"
	n=$(wc -l <"$T/stderr")
	if [ "$n" -eq 1 ]; then
		fa_pass "$name: one line on stderr"
	else
		fa_fail "$name: $n lines on stderr"
		sed 's/^/    /' "$T/stderr" | head -5
	fi
	if grep -Eq -- "^fabaudit: .*($re)" "$T/stderr"; then
		fa_pass "$name: names what is at fault"
	else
		fa_fail "$name: '$(head -1 "$T/stderr")' does not match '$re'"
	fi
	# Nothing written, nothing changed.
	if [ -n "$(ls -d "$NEW"* 2>/dev/null)" ]; then
		fa_fail "$name: made $(ls -d "$NEW"* | tr '\n' ' ')"
		rm -rf "$NEW"*
	fi
	if [ -n "$(ls -A "$T/cwd")" ]; then
		fa_fail "$name: wrote $(ls -A "$T/cwd") in the working directory"
		rm -rf "$T/cwd"/* "$T/cwd"/.[!.]*
	fi
	ls -lR --time-style=+%s.%N "$OUT" >"$T/out.after"
	if cmp -s "$T/out.before" "$T/out.after" &&
	    md5sum -c --quiet "$T/out.md5" >/dev/null 2>&1; then
		fa_pass "$name: the previous report is untouched"
	else
		fa_fail "$name: the previous report changed"
		diff "$T/out.before" "$T/out.after" | head -5
		rm -rf "$OUT"
		cp -r "$T/good" "$OUT"
		ls -lR --time-style=+%s.%N "$OUT" >"$T/out.before"
		md5sum "$OUT"/* >"$T/out.md5"
	fi
}

TAB=$(printf '\t')
while IFS= read -r row; do
	case $row in ''|'#'*) continue ;; esac
	# The table is written with " | " for readability: make it tabs.
	row=$(printf '%s' "$row" | sed "s/ | /$TAB/; s/ | /$TAB/")
	run "$row"
done <<'TABLE'
# ---- the command line -----------------------------------------------------
2 | no command given | 
2 | unknown command 'frob' | frob
2 | unknown command '-x' | -x
# unknown options, every command
2 | scan: unknown option --bogus | scan --bogus -o $OUT
2 | scan: unknown option -Z | scan -Z -o $OUT
2 | check: unknown option --bogus | check --bogus -o $OUT $S
2 | check: unknown option -Z | check -Z $S
2 | diff: unknown option --bogus | diff --bogus $R $R
2 | merge: unknown option --bogus | merge --bogus -o $NEW $R
2 | verify: unknown option --bogus | verify --bogus $OUT
2 | keygen: unknown option --bogus | keygen --bogus -o $NEW
2 | checks: unknown option --bogus | checks --bogus
2 | checks: unknown option -Z | checks -Z
# a missing argument, every option that takes one
2 | option -o needs an argument | scan --host=$H -o
2 | option -c needs an argument | scan --host=$H -o $OUT -c
2 | option -C needs an argument | scan --host=$H -o $OUT -C
2 | option -P needs an argument | scan --host=$H -o $OUT -P
2 | option -f needs an argument | scan --host=$H -o $OUT -f
2 | option --fail-on needs an argument | scan --host=$H -o $OUT --fail-on
2 | option --listen needs an argument | scan --host=$H -o $OUT --listen
2 | option --pcap needs an argument | scan --host=$H -o $OUT --pcap
2 | option --cve-db needs an argument | scan --host=$H -o $OUT --cve-db
2 | option --sign needs an argument | scan --host=$H -o $OUT --sign
2 | option --baseline needs an argument | scan --host=$H -o $OUT --baseline
2 | option --history needs an argument | scan --host=$H --history
2 | option --keep needs an argument | scan --host=$H -o $OUT --keep
2 | option --metrics needs an argument | scan --host=$H -o $OUT --metrics
2 | option --retries needs an argument | scan --host=$H -o $OUT --retries
2 | option --timeout needs an argument | scan --host=$H -o $OUT --timeout
2 | option --max-outstanding needs an argument | scan --host=$H -o $OUT --max-outstanding
2 | option --key-probes needs an argument | scan --host=$H -o $OUT --key-probes
2 | option -o needs an argument | check $S -o
2 | option -c needs an argument | check -o $OUT $S -c
2 | option --baseline needs an argument | check -o $OUT $S --baseline
2 | option --sign needs an argument | check -o $OUT $S --sign
2 | option -f needs an argument | diff $R $R -f
2 | option --fail-on needs an argument | diff $R $R --fail-on
2 | option -o needs an argument | merge $R -o
2 | option --sign needs an argument | merge -o $NEW $R --sign
2 | option -p needs an argument | verify $OUT -p
2 | option --pubkey needs an argument | verify $OUT --pubkey
2 | option -o needs an argument | keygen -o
2 | option -t needs an argument | keygen -o $NEW -t
2 | option --family needs an argument | checks --family
2 | option --format needs an argument | checks --format
# an option given twice would silently replace the first
2 | option -o is given twice | scan --host=$H -o $OUT -o $NEW
2 | option --output is given twice | scan --host=$H --output $OUT --output=$NEW
2 | option --key-probes is given twice | scan --host=$H -o $OUT --key-probes cc --key-probes vs
2 | option -c is given twice | scan --host=$H -o $OUT -c $T/badkw.conf -c $T/badkw.conf
2 | option -f is given twice | scan --host=$H -o $OUT -f json -f txt
2 | option --eth is given twice | scan -o $OUT --eth=lo --eth=lo
2 | option --host is given twice | scan -o $OUT --host=$H --host=$H
2 | option --listen is given twice | scan --host=$H -o $OUT --listen 1 --listen 2
2 | option --sign is given twice | scan --host=$H -o $OUT --sign $T/key.pem --sign $T/key.pem
2 | option -o is given twice | check -o $OUT -o $NEW $S
2 | option --baseline is given twice | check -o $OUT --baseline $R --baseline $R $S
2 | option --fail-on is given twice | check -o $OUT --fail-on high --fail-on low $S
2 | option -f is given twice | diff --format json -f txt $R $R
2 | option --format is given twice | diff -f json --format=txt $R $R
2 | option -o is given twice | merge -o $NEW -o $NEW $R
2 | option -p is given twice | verify -p $T/key.pub.pem -p $T/key.pub.pem $OUT
2 | option -t is given twice | keygen -t rsa -t ecdsa -o $NEW
2 | option --family is given twice | checks --family ib --family eth
# values out of range or malformed
2 | --listen: '0' is too small | scan --host=$H -o $OUT --listen 0
2 | --listen: '3601' is too large | scan --host=$H -o $OUT --listen 3601
2 | --listen: 'abc' is invalid | scan --host=$H -o $OUT --listen abc
2 | --max-frames: '0' is too small | scan -o $OUT --pcap $T/raw.pcap --max-frames 0
2 | --max-frames: '-1' is | scan -o $OUT --pcap $T/raw.pcap --max-frames -1
2 | --max-frames: 'abc' is invalid | scan -o $OUT --pcap $T/raw.pcap --max-frames abc
2 | --max-frames: .*it needs --pcap | scan --host=$H -o $OUT --max-frames 5
2 | option --max-frames is given twice | scan -o $OUT --pcap $T/raw.pcap --max-frames 1 --max-frames 2
2 | --listen: '-1' is invalid | scan --host=$H -o $OUT --listen -1
2 | --listen: '1e3' is invalid | scan --host=$H -o $OUT --listen 1e3
2 | --listen: '' is invalid | scan --host=$H -o $OUT --listen ''
2 | --listen: '99999999999999999999999' is | scan --host=$H -o $OUT --listen 99999999999999999999999
2 | --timeout: '0' is too small | scan --host=$H -o $OUT --timeout 0
2 | --timeout: '60001' is too large | scan --host=$H -o $OUT --timeout 60001
2 | --retries: '0' is too small | scan --host=$H -o $OUT --retries 0
2 | --retries: '11' is too large | scan --host=$H -o $OUT --retries 11
2 | -P: '0' is too small | scan --host=$H -o $OUT -P 0
2 | -P: '255' is too large | scan --host=$H -o $OUT -P 255
2 | --max-outstanding: '0' is too small | scan --host=$H -o $OUT --max-outstanding 0
2 | --max-outstanding: '4294967296' is too large | scan --host=$H -o $OUT --max-outstanding 4294967296
2 | --keep: '0' is too small | scan --host=$H -o $OUT --keep 0
2 | --key-probes: unknown class 'xx' | scan --host=$H -o $OUT --key-probes cc,xx
2 | --key-probes: unknown class 'none' | scan --host=$H -o $OUT --key-probes none,cc
2 | --key-probes: no class given | scan --host=$H -o $OUT --key-probes ,
2 | --key-probes: no class given | scan --host=$H -o $OUT --key-probes ''
2 | -f: unknown format 'pdf' | scan --host=$H -o $OUT -f json,pdf
2 | -f: no format given | scan --host=$H -o $OUT -f ,
2 | -f: no format given | scan --host=$H -o $OUT -f ''
2 | --fail-on: unknown severity 'bogus' | scan --host=$H -o $OUT --fail-on bogus
2 | --fail-on: unknown severity 'HIGH ' | check -o $OUT --fail-on 'HIGH ' $S
2 | -f: unknown format 'xml' | diff -f xml $R $R
2 | --fail-on: unknown severity 'x' | diff --fail-on x $R $R
2 | -f: unknown format 'pdf' | merge -f pdf -o $NEW $R
2 | --family: unknown family 'bogus' | checks --family bogus
2 | --format: unknown format 'bogus' | checks --format bogus
2 | -t: unknown key type 'dsa' | keygen -t dsa -o $NEW
2 | --host: empty sysroot | scan --host= -o $OUT
2 | --eth: empty interface list | scan --eth=, -o $OUT
2 | --history: empty directory name | scan --host=$H --history ''
# operands and conflicts
2 | scan takes no operands \('extra'\) | scan --host=$H -o $OUT extra
2 | checks takes no operands | checks extra
2 | check takes exactly one snapshot file | check -o $OUT
2 | check takes exactly one snapshot file | check -o $OUT $S $S
2 | diff takes two reports | diff $R
2 | diff takes two reports | diff $R $R $R
2 | merge needs an output directory \(-o\) | merge $R
2 | merge takes one or more reports | merge -o $NEW
2 | verify: takes exactly one directory | verify
2 | verify: takes exactly one directory | verify $OUT $OUT
2 | keygen: needs -o prefix | keygen
2 | keygen: needs -o prefix | keygen -o ''
2 | keygen: needs -o prefix | keygen -o $NEW extra
2 | -o: '.*adir/' is a directory | keygen -o $T/adir/
2 | --pcap: a capture file and --eth interfaces exclude | scan -o $OUT --pcap $T/raw.pcap --eth=lo
2 | --history: .*-o cannot be given too | scan --host=$H --history $T/hist -o $OUT
2 | --sign: needs an output directory \(-o\) | check --sign $T/key.pem $S
2 | --metrics: .*adir: not a regular file | scan --host=$H -o $OUT --metrics $T/adir
2 | --metrics: .*nonexistent: No such file | scan --host=$H -o $OUT --metrics $T/nonexistent/m.prom
2 | --metrics: .*empty: not a directory | scan --host=$H -o $OUT --metrics $T/empty/m.prom
2 | --metrics: empty file name | scan --host=$H -o $OUT --metrics ''
2 | --history: .*empty: Not a directory | scan --host=$H --history $T/empty
# ---- output paths ---------------------------------------------------------
2 | report.json: not a directory | scan --host=$H -o $OUT/report.json
2 | report.json: not a directory | check -o $OUT/report.json $S
2 | report.json: not a directory | merge -o $OUT/report.json $R
2 | report.json/sub: cannot create output directory | check -o $OUT/report.json/sub $S
2 | the output directory name is empty | check -o '' $S
2 | /proc/version/x: cannot create | scan --host=$H -o /proc/version/x
2 | k.pem: No such file or directory | keygen -o $T/nonexistent/k
2 | key.pem exists; use -f | keygen -o $T/key
# ---- the policy (FILE:LINE: message) ----------------------------------------
2 | badkw.conf:2: unknown keyword 'frobnicate' | scan --host=$H -o $OUT -c $T/badkw.conf
2 | badguid.conf:1: invalid GUID | check -o $OUT -c $T/badguid.conf $S
2 | badvlan.conf:1: invalid VLAN ID | check -o $OUT -c $T/badvlan.conf $S
2 | badwaive.conf:1: .*IB-NOPE | check -o $OUT -c $T/badwaive.conf $S
2 | badquote.conf:1: unterminated | check -o $OUT -c $T/badquote.conf $S
2 | longline.conf:1: line too long | check -o $OUT -c $T/longline.conf $S
2 | binary:[0-9]+: NUL byte | check -o $OUT -c $T/binary $S
2 | nonexistent.conf: No such file | scan --host=$H -o $OUT -c $T/nonexistent.conf
2 | adir: not a regular file | check -o $OUT -c $T/adir $S
2 | fifo: not a regular file | check -o $OUT -c $T/fifo $S
2 | huge2m: larger than | check -o $OUT -c $T/huge2m $S
# ---- the snapshot for check (FILE:LINE:COLUMN: message) --------------------
2 | none.json: No such file | check -o $OUT $T/none.json
2 | empty:1:[0-9]+: | check -o $OUT $T/empty
2 | adir: not a regular file | check -o $OUT $T/adir
2 | fifo: not a regular file | check -o $OUT $T/fifo
2 | binary:1:[0-9]+: | check -o $OUT $T/binary
2 | trunc.json:2:[0-9]+: | check -o $OUT $T/trunc.json
2 | huge: larger than | check -o $OUT $T/huge
2 | dupkey.json:3:[0-9]+: duplicate object key | check -o $OUT $T/dupkey.json
2 | badutf8.json:1:[0-9]+: | check -o $OUT $T/badutf8.json
2 | deep.json:1:[0-9]+: .*depth | check -o $OUT $T/deep.json
2 | array.json: not a fabaudit snapshot | check -o $OUT $T/array.json
2 | schema9.json: not a fabaudit snapshot: snapshot format fabaudit-snapshot/9: this fabaudit reads fabaudit-snapshot/1 only | check -o $OUT $T/schema9.json
2 | famtype.json: not a fabaudit snapshot | check -o $OUT $T/famtype.json
2 | obstype.json: not a fabaudit snapshot | check -o $OUT $T/obstype.json
2 | report.json: not a fabaudit snapshot | check -o $OUT $R
# ---- reports for diff, merge and --baseline --------------------------------
2 | snap.json: not a fabaudit-report/2 or fabaudit-report/1 report | diff $S $R
2 | empty:1:[0-9]+: | diff $T/empty $R
2 | trunc.json:2:[0-9]+: | diff $R $T/trunc.json
2 | adir: not a regular file | diff $T/adir $R
2 | huge: larger than | diff $R $T/huge
2 | restype.json: | diff $T/restype.json $R
2 | badsev.json: results\[0\] | diff $T/badsev.json $R
2 | badstatus.json: results\[0\] | diff $R $T/badstatus.json
2 | dupresult.json: results\[[0-9]+\] | diff $T/dupresult.json $R
2 | dupresult.json: | merge -o $NEW $T/dupresult.json
2 | noschema.json: not a fabaudit-report/2 or fabaudit-report/1 report | diff $T/noschema.json $R
2 | none.json: No such file | merge -o $NEW $T/none.json
2 | trunc.json:2:[0-9]+: | merge -o $NEW $R $T/trunc.json
2 | snap.json: | merge -o $NEW $S
2 | binary:1:[0-9]+: | merge -o $NEW $T/binary
2 | fifo: not a regular file | merge -o $NEW $T/fifo
2 | the same report as | merge -o $NEW $R $R
2 | trunc.json:2:[0-9]+: | scan --host=$H -o $OUT --baseline $T/trunc.json
2 | snap.json: not a fabaudit-report/2 or fabaudit-report/1 report | check -o $OUT --baseline $S $S
2 | adir: not a regular file | check -o $OUT --baseline $T/adir $S
2 | none.json: No such file | check -o $OUT --baseline $T/none.json $S
# ---- the CVE catalogue -----------------------------------------------------
2 | --cve-db: .*none.json: No such file | scan --host=$H -o $OUT --cve-db $T/none.json
2 | --cve-db: .*empty: line 1, column [0-9]+: | scan --host=$H -o $OUT --cve-db $T/empty
2 | --cve-db: .*adir: not a regular file | scan --host=$H -o $OUT --cve-db $T/adir
2 | --cve-db: .*binary: line 1, column [0-9]+: | scan --host=$H -o $OUT --cve-db $T/binary
2 | --cve-db: .*cve-bad.json: | scan --host=$H -o $OUT --cve-db $T/cve-bad.json
2 | --cve-db: .*huge: larger than | scan --host=$H -o $OUT --cve-db $T/huge
2 | --cve-db: .*report.json: | scan --host=$H -o $OUT --cve-db $R
# ---- keys ------------------------------------------------------------------
2 | --sign: .*empty: not a PEM private key | scan --host=$H -o $OUT --sign $T/empty
2 | --sign: .*binary: not a PEM private key | check -o $OUT --sign $T/binary $S
2 | --sign: .*adir: not a regular file | check -o $OUT --sign $T/adir $S
2 | --sign: .*none.pem: missing | merge -o $NEW --sign $T/none.pem $R
2 | --sign: .*key.pub.pem: not a PEM private key | check -o $OUT --sign $T/key.pub.pem $S
2 | --sign: .*x25519.pem: .*(X25519|unsupported|not a signing) | check -o $OUT --sign $T/x25519.pem $S
2 | --sign: .*rsa1024.pem: .*(1024|2048) | check -o $OUT --sign $T/rsa1024.pem $S
2 | --sign: .*huge2m: | check -o $OUT --sign $T/huge2m $S
2 | --pubkey: .*empty: not a PEM public key | verify -p $T/empty $T/signed
2 | --pubkey: .*key.pem: not a PEM public key | verify -p $T/key.pem $T/signed
2 | --pubkey: .*adir: not a regular file | verify -p $T/adir $T/signed
2 | --pubkey: .*none.pem: | verify -p $T/none.pem $T/signed
2 | --sign: .*fifo: not a regular file | check -o $OUT --sign $T/fifo $S
2 | --pubkey: .*fifo: not a regular file | verify -p $T/fifo $T/signed
2 | --cve-db: .*fifo: not a regular file | scan --host=$H -o $OUT --cve-db $T/fifo
2 | fifo: not a regular file | check -o $OUT --baseline $T/fifo $S
# ---- SHA256SUMS (FILE:LINE: message) ------------------------------------------
2 | nonexistent: No such file | verify $T/nonexistent
2 | signed/SHA256SUMS: missing | verify $T/signed
2 | sums-bad/SHA256SUMS:1: | verify $T/sums-bad
2 | sums-empty/SHA256SUMS: no entries | verify $T/sums-empty
2 | sums-nul/SHA256SUMS:2: .*NUL | verify $T/sums-nul
2 | sums-dup/SHA256SUMS:2: | verify $T/sums-dup
2 | sums-slash/SHA256SUMS:1: | verify $T/sums-slash
2 | sums-upper/SHA256SUMS:1: | verify $T/sums-upper
2 | sums-dir/SHA256SUMS: not a regular file | verify $T/sums-dir
2 | sums-fifo/SHA256SUMS: not a regular file | verify $T/sums-fifo
2 | sums-huge/SHA256SUMS: | verify $T/sums-huge
2 | empty: | verify $T/empty
2 | hist-empty: no runs | verify --chain $T/hist-empty
2 | nonexistent: No such file | verify --chain $T/nonexistent
# ---- Ethernet captures -------------------------------------------------------
2 | --pcap: .*none.pcap: No such file | scan -o $OUT --pcap $T/none.pcap
2 | --pcap: .*empty: | scan -o $OUT --pcap $T/empty
2 | --pcap: .*binary: | scan -o $OUT --pcap $T/binary
2 | --pcap: .*adir: not a regular file | scan -o $OUT --pcap $T/adir
2 | --pcap: .*fifo: not a regular file | scan -o $OUT --pcap $T/fifo
2 | --pcap: .*raw.pcap: link type | scan -o $OUT --pcap $T/raw.pcap
2 | --pcap: .*none.pcap: No such file | scan -o $NEW --pcap $T/none.pcap
TABLE

# Unreadable inputs: root reads any file, so these run as nobody.
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
if [ "$(id -u)" -eq 0 ] && $NOBODY true 2>/dev/null; then
	for f in snap.json good/report.json key.pem; do
		cp "$T/$f" "$T/locked-$(basename "$f")"
		chmod 000 "$T/locked-$(basename "$f")"
	done
	chmod -R a+rX "$T/good" "$T/out" "$T/signed"
	chmod 777 "$T/cwd"
	ls -lR --time-style=+%s.%N "$OUT" >"$T/out.before"
	BIN0=$BIN
	BIN="$NOBODY $BIN0"
	while IFS= read -r row; do
		row=$(printf '%s' "$row" | sed "s/ | /$TAB/; s/ | /$TAB/")
		run "$row"
	done <<'TABLE'
2 | locked-snap.json: Permission denied | check -o $OUT $T/locked-snap.json
2 | locked-report.json: Permission denied | diff $T/locked-report.json $R
2 | locked-report.json: Permission denied | merge -o $NEW $T/locked-report.json
2 | locked-report.json: Permission denied | check -o $OUT --baseline $T/locked-report.json $S
2 | --sign: .*locked-key.pem: | check -o $OUT --sign $T/locked-key.pem $S
2 | locked-snap.json: Permission denied | scan --host=$H -o $OUT -c $T/locked-snap.json
TABLE
	BIN=$BIN0
else
	fa_fail "unreadable inputs need root and setpriv"
fi

echo "FIGURE error_cases $cases"
fa_done
