#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Signed output directories end to end: keygen for each key type, check
# --sign, verify (and what it must catch: a changed byte, a missing file,
# a wrong key, a truncated or missing signature, a bad SHA256SUMS line),
# interoperability with sha256sum(1) and the openssl(1) commands the man
# page gives, keys that must be refused, and verify --chain on a history
# directory built here by hand (copies of one report, "previous" set
# with jq from the prior copy's sha256sum).
# usage: tests/report/test_sign.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$(cd "$1" && pwd)
BIN=$B/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
SNAP=fixtures/reports/careless.snapshot.json
HEX='[0-9a-f]{64}'

# rc CMD...: run CMD with output in $T/out; print its exit status.
rc() {
	"$@" >"$T/out" 2>&1 </dev/null
	echo $?
}

# The openssl(1) verification the man page documents, by key type.
ossl_verify() { # TYPE PUB DIR
	if [ "$1" = ed25519 ]; then
		openssl pkeyutl -verify -pubin -inkey "$2" -rawin \
		    -in "$3/SHA256SUMS" -sigfile "$3/SHA256SUMS.sig"
	else
		openssl dgst -sha256 -verify "$2" -signature \
		    "$3/SHA256SUMS.sig" "$3/SHA256SUMS"
	fi
}

# flip DIR/FILE: change one byte (the 10th) of a file.
flip() {
	c=$(dd if="$1" bs=1 skip=9 count=1 2>/dev/null)
	if [ "$c" = X ]; then c=Y; else c=X; fi
	printf %s "$c" | dd of="$1" bs=1 seek=9 count=1 conv=notrunc \
	    2>/dev/null
}

for t in ed25519 rsa ecdsa; do
	K=$T/$t
	expect_eq "keygen -t $t" "$(rc "$BIN" keygen -t "$t" -o "$K")" 0
	fp=$(openssl pkey -pubin -in "$K.pub.pem" -outform DER |
	    sha256sum | cut -d' ' -f1)
	expect_grep "keygen $t prints the DER SPKI fingerprint" \
	    "^fingerprint  .* key SHA256:$fp\$" "$T/out"
	expect_eq "keygen $t: private key mode 0600" \
	    "$(stat -c %a "$K.pem")" 600
	expect_eq "keygen $t: PKCS#8 PEM" "$(head -n 1 "$K.pem")" \
	    "-----BEGIN PRIVATE KEY-----"
	expect_eq "keygen $t: public key is the private key's" \
	    "$(openssl pkey -in "$K.pem" -pubout)" "$(cat "$K.pub.pem")"
	openssl pkey -in "$K.pem" -noout -text >"$T/text" 2>&1
	case $t in
	ed25519) want="ED25519 Private-Key" ;;
	rsa) want="Private-Key: \(3072 bit" ;;
	ecdsa) want="NIST CURVE: P-256" ;;
	esac
	expect_grep "keygen $t: openssl reads it as $want" "$want" "$T/text"

	O=$T/o-$t
	expect_eq "check --sign ($t) exits 1 on the careless fixture" \
	    "$(rc "$BIN" check -q -f json,txt --sign "$K.pem" -o "$O" \
	    "$SNAP")" 1
	expect_eq "SHA256SUMS lists the files written, sorted ($t)" \
	    "$(cut -c67- "$O/SHA256SUMS" | tr '\n' ' ')" \
	    "report.json report.txt "
	expect_eq "verify ($t)" \
	    "$(rc "$BIN" verify --pubkey "$K.pub.pem" "$O")" 0
	expect_grep "verify ($t) names the signer" \
	    "^verified 2 files signed by .* key SHA256:$fp\$" "$T/out"
	(cd "$O" && sha256sum -c --strict SHA256SUMS) >"$T/sc" 2>&1
	expect_eq "sha256sum -c accepts SHA256SUMS ($t)" $? 0
	ossl_verify "$t" "$K.pub.pem" "$O" >"$T/ov" 2>&1
	expect_eq "openssl verifies SHA256SUMS.sig ($t)" $? 0
	# The openssl command is no rubber stamp: a changed SHA256SUMS fails.
	# A forger who rewrites a line of SHA256SUMS: the signature catches it.
	cp -p "$O/SHA256SUMS" "$T/sums.keep"
	sed -i "1s/^[0-9a-f]*/$(printf x | sha256sum | cut -c1-64)/" \
	    "$O/SHA256SUMS"
	ossl_verify "$t" "$K.pub.pem" "$O" >"$T/ov" 2>&1
	expect_eq "openssl rejects a changed SHA256SUMS ($t)" $? 1
	expect_eq "verify rejects a changed SHA256SUMS ($t)" \
	    "$(rc "$BIN" verify -p "$K.pub.pem" "$O")" 1
	expect_grep "... as a bad signature ($t)" \
	    "^FAILED: SHA256SUMS.sig: bad signature" "$T/out"
	# A malformed one is an input error, and the signature still shows.
	echo >>"$O/SHA256SUMS"
	expect_eq "verify, malformed SHA256SUMS ($t)" \
	    "$(rc "$BIN" verify -p "$K.pub.pem" "$O")" 2
	expect_grep "... the signature named ($t)" \
	    "^FAILED: SHA256SUMS.sig: bad signature" "$T/out"
	expect_grep "... the line named ($t)" "/SHA256SUMS:3: not " "$T/out"
	cp -p "$T/sums.keep" "$O/SHA256SUMS"

	# A truncated signature.
	cp -p "$O/SHA256SUMS.sig" "$T/sig.keep"
	head -c "$(($(wc -c <"$T/sig.keep") - 1))" "$T/sig.keep" \
	    >"$O/SHA256SUMS.sig"
	expect_eq "truncated signature ($t)" \
	    "$(rc "$BIN" verify -p "$K.pub.pem" "$O")" 1
	expect_grep "... named ($t)" "^FAILED: SHA256SUMS.sig: bad signature" \
	    "$T/out"
	cp -p "$T/sig.keep" "$O/SHA256SUMS.sig"
done

# Every other type's public key is the wrong key.
for s in ed25519 rsa ecdsa; do
	for p in ed25519 rsa ecdsa; do
		[ "$s" = "$p" ] && continue
		expect_eq "$s signature, $p public key" \
		    "$(rc "$BIN" verify -p "$T/$p.pub.pem" "$T/o-$s")" 1
		expect_grep "... bad signature ($s/$p)" \
		    "^FAILED: SHA256SUMS.sig: bad signature" "$T/out"
	done
done
# Another key of the same type.
"$BIN" keygen -o "$T/other" >/dev/null
expect_eq "another ed25519 key" \
    "$(rc "$BIN" verify -p "$T/other.pub.pem" "$T/o-ed25519")" 1
expect_grep "... bad signature" "^verification FAILED: 1 problem in " \
    "$T/out"

# Tampering, on a copy of the Ed25519 directory.
PUB=$T/ed25519.pub.pem
O=$T/tamper
cp -rp "$T/o-ed25519" "$O"
flip "$O/report.json"
expect_eq "one byte of report.json changed" "$(rc "$BIN" verify -p "$PUB" \
    "$O")" 1
expect_grep "... report.json named" \
    "^FAILED: report.json: changed \(sha256 $HEX, SHA256SUMS lists $HEX\)\$" \
    "$T/out"
expect_nogrep "... report.txt not named" "report.txt" "$T/out"
(cd "$O" && sha256sum -c --strict SHA256SUMS) >"$T/sc" 2>&1
expect_eq "... and sha256sum -c agrees" $? 1
rm "$O/report.txt"
expect_eq "report.txt deleted" "$(rc "$BIN" verify -p "$PUB" "$O")" 1
expect_grep "... named" "^FAILED: report.txt: missing\$" "$T/out"
expect_grep "... both problems" "^verification FAILED: 2 problems in " \
    "$T/out"
cp -p "$T/o-ed25519/report.json" "$T/o-ed25519/report.txt" "$O/"
expect_eq "restored" "$(rc "$BIN" verify -p "$PUB" "$O")" 0
ln -sf report.txt "$O/report.json.link"
mv "$O/report.json" "$O/report.json.real"
ln -s report.json.real "$O/report.json"
expect_eq "a symlink in place of a signed file" \
    "$(rc "$BIN" verify -p "$PUB" "$O")" 1
expect_grep "... named" "^FAILED: report.json: not a regular file\$" \
    "$T/out"
rm "$O/report.json"
mv "$O/report.json.real" "$O/report.json"
expect_eq "an extra file is not a failure" \
    "$(rc "$BIN" verify -p "$PUB" "$O")" 0
expect_grep "... but it is named as not covered" \
    "^not covered: report.json.link \(not listed in SHA256SUMS, so not \
certified\)\$" "$T/out"
rm "$O/report.json.link"
rm "$O/SHA256SUMS.sig"
expect_eq "no signature, with --pubkey" "$(rc "$BIN" verify -p "$PUB" \
    "$O")" 1
expect_grep "... named" "^FAILED: SHA256SUMS.sig: missing" "$T/out"
expect_eq "no --pubkey: the sums alone" "$(rc "$BIN" verify "$O")" 0
expect_grep "... says the signature was not checked" \
    "signature was NOT checked \(no --pubkey\)" "$T/out"
expect_nogrep "... never says verified" "verified" "$T/out"
flip "$O/report.txt"
expect_eq "no --pubkey still catches a change" "$(rc "$BIN" verify "$O")" 1
expect_grep "... named" "^FAILED: report.txt: changed" "$T/out"

# Input that cannot be checked: exit 2, naming the file (and line).
O=$T/bad
cp -rp "$T/o-ed25519" "$O"
echo "garbage" >>"$O/SHA256SUMS"
expect_eq "a bad SHA256SUMS line" "$(rc "$BIN" verify "$O")" 2
expect_grep "... file:line" "SHA256SUMS:3: not \"<64 lower-case hex" \
    "$T/out"
cp -p "$T/o-ed25519/SHA256SUMS" "$O/"
printf '%s  ../../etc/passwd\n' "$(sha256sum </etc/passwd | cut -c1-64)" \
    >>"$O/SHA256SUMS"
expect_eq "a path in SHA256SUMS" "$(rc "$BIN" verify "$O")" 2
expect_grep "... refused" \
    "SHA256SUMS:3: \"../../etc/passwd\" is not a plain file name" "$T/out"
rm "$O/SHA256SUMS"
expect_eq "no SHA256SUMS" "$(rc "$BIN" verify -p "$PUB" "$O")" 2
expect_grep "... named" "/bad/SHA256SUMS: missing" "$T/out"
expect_eq "verify without a directory" "$(rc "$BIN" verify)" 2
expect_eq "verify, unknown option" "$(rc "$BIN" verify --bogus "$O")" 2
expect_grep "... named" "unknown option --bogus" "$T/out"
expect_eq "verify, absent public key" \
    "$(rc "$BIN" verify -p "$T/none.pem" "$T/o-ed25519")" 2
expect_eq "verify, a private key as --pubkey" \
    "$(rc "$BIN" verify -p "$T/ed25519.pem" "$T/o-ed25519")" 2
expect_grep "... refused" "not a PEM public key" "$T/out"

# keygen: no silent overwrite; -f replaces, still 0600.
sum=$(sha256sum <"$T/ed25519.pem")
expect_eq "keygen refuses to overwrite" \
    "$(rc "$BIN" keygen -o "$T/ed25519")" 2
expect_grep "... says why" "ed25519.pem exists; use -f" "$T/out"
expect_eq "... the key is unchanged" "$(sha256sum <"$T/ed25519.pem")" "$sum"
rm "$T/other.pem"
expect_eq "keygen refuses when only the public key exists" \
    "$(rc "$BIN" keygen -o "$T/other")" 2
expect_eq "... and writes no private key" "$(ls "$T/other.pem" 2>&1 |
    grep -c 'No such')" 1
expect_eq "keygen -f" "$(rc "$BIN" keygen -f -o "$T/ed25519")" 0
expect_eq "... replaced the key" \
    "$([ "$(sha256sum <"$T/ed25519.pem")" != "$sum" ] && echo yes)" yes
expect_eq "... mode 0600" "$(stat -c %a "$T/ed25519.pem")" 600
expect_eq "... no temporary left" "$(ls "$T" | grep -c XXXX)" 0
expect_eq "keygen -t dsa" "$(rc "$BIN" keygen -t dsa -o "$T/d")" 2
expect_eq "keygen without -o" "$(rc "$BIN" keygen)" 2
umask 077
expect_eq "keygen under umask 077" "$(rc "$BIN" keygen -o "$T/u")" 0
expect_eq "... public key still 0644" "$(stat -c %a "$T/u.pub.pem")" 644
umask 022

# Keys made by openssl(1) as the man page says work the same.
openssl genpkey -algorithm ed25519 -out "$T/o.pem" 2>/dev/null
openssl pkey -in "$T/o.pem" -pubout -out "$T/o.pub.pem"
expect_eq "check --sign with an openssl key" \
    "$(rc "$BIN" check -q --sign "$T/o.pem" -o "$T/o-ossl" "$SNAP")" 1
# The default formats: every report file the run wrote is covered.
expect_eq "check --sign, default formats" \
    "$(rc "$BIN" check -q --sign "$T/o.pem" -o "$T/o-all" "$SNAP")" 1
expect_eq "SHA256SUMS covers html, json, txt and xml" \
    "$(cut -c67- "$T/o-all/SHA256SUMS" | tr '\n' ' ')" \
    "report.html report.json report.txt report.xml "
expect_eq "... verify" "$(rc "$BIN" verify -p "$T/o.pub.pem" \
    "$T/o-ossl")" 0

# Keys that must be refused, with the reason and no prompt.
openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:1024 \
    -out "$T/dsap.pem" 2>/dev/null
openssl genpkey -paramfile "$T/dsap.pem" -out "$T/dsa.pem" 2>/dev/null
# (an unusable key is an input error, found before anything is written)
expect_eq "check --sign with a DSA key" \
    "$(rc "$BIN" check -q --sign "$T/dsa.pem" -o "$T/o-dsa" "$SNAP")" 2
expect_grep "... says why" "dsa.pem: DSA key: DSA is no longer approved" \
    "$T/out"
expect_eq "... no report written" "$(ls "$T/o-dsa" 2>/dev/null | wc -l)" 0
openssl genpkey -algorithm ed25519 -aes-256-cbc -pass pass:secret \
    -out "$T/enc.pem" 2>/dev/null
expect_eq "check --sign with an encrypted key" \
    "$(rc "$BIN" check -q --sign "$T/enc.pem" -o "$T/o-enc" "$SNAP")" 2
expect_grep "... says why" "the key is encrypted" "$T/out"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 \
    -out "$T/rsa1024.pem" 2>/dev/null
expect_eq "check --sign with a 1024-bit RSA key" \
    "$(rc "$BIN" check -q --sign "$T/rsa1024.pem" -o "$T/o-r" "$SNAP")" 2
expect_grep "... says why" "RSA key of 1024 bits" "$T/out"

# ---- verify --chain on a history directory built by hand ----
H=$T/hist
mkdir "$H"
R=$T/o-ed25519/report.json
prev_sha=$(printf 'pruned' | sha256sum | cut -c1-64)
prev=20261130T100000Z
# Runs in time order; "-2" is the second run in the same second.
RUNS="20261201T100000Z 20261202T100000Z 20261202T100000Z-2 20261203T100000Z"
for r in $RUNS; do
	mkdir "$H/$r"
	jq --arg f "../$prev/report.json" --arg s "$prev_sha" --arg r "$r" \
	    '.previous = {file: $f, sha256: $s} | .scan.started = $r' "$R" \
	    >"$H/$r/report.json"
	prev_sha=$(sha256sum "$H/$r/report.json" | cut -c1-64)
	prev=$r
done
ln -s 20261203T100000Z "$H/latest"
: >"$H/.lock"
mkdir "$H/notes"
expect_eq "verify --chain" "$(rc "$BIN" verify --chain "$H")" 0
expect_grep "... the first run's predecessor was pruned" \
    "^chain starts at 20261201T100000Z \(predecessor not kept\)\$" "$T/out"
expect_grep "... runs and head" \
    "^chain verified: 4 runs linked, 20261201T100000Z to \
20261203T100000Z; head sha256 $prev_sha " "$T/out"
expect_grep "... signatures not checked" "signatures NOT checked" "$T/out"

# Alter the middle report: the next run no longer links to it.
M=$H/20261202T100000Z-2/report.json
cp -p "$M" "$T/m.keep"
msha=$(sha256sum "$M" | cut -c1-64)
jq '.summary.fail = 0' "$T/m.keep" >"$M"
nsha=$(sha256sum "$M" | cut -c1-64)
expect_eq "altered middle report" "$(rc "$BIN" verify --chain "$H")" 1
expect_grep "... the break named, expected vs found" \
    "^FAILED: 20261203T100000Z: chain broken: previous.sha256 is $msha, \
expected $nsha \(sha256 of 20261202T100000Z-2/report.json\)\$" "$T/out"
cp -p "$T/m.keep" "$M"
expect_eq "restored chain" "$(rc "$BIN" verify --chain "$H")" 0

# A later run without "previous".
M=$H/20261202T100000Z/report.json
cp -p "$M" "$T/m.keep"
jq 'del(.previous)' "$T/m.keep" >"$M"
expect_eq "a run without previous" "$(rc "$BIN" verify --chain "$H")" 1
expect_grep "... named" \
    "^FAILED: 20261202T100000Z: chain broken: report.json has no \
\"previous\"; expected sha256 $HEX of 20261201T100000Z/report.json\$" \
    "$T/out"
cp -p "$T/m.keep" "$M"

# A missing run in the middle breaks the chain too.
mv "$H/20261202T100000Z" "$T/gone"
expect_eq "a run removed" "$(rc "$BIN" verify --chain "$H")" 1
expect_grep "... the next run named" \
    "^FAILED: 20261202T100000Z-2: chain broken: previous.sha256 is" "$T/out"
mv "$T/gone" "$H/20261202T100000Z"

# Signed runs: SHA256SUMS and its signature made with openssl(1) alone.
for r in $RUNS; do
	(cd "$H/$r" && sha256sum report.json >SHA256SUMS &&
	    openssl pkeyutl -sign -rawin -inkey "$T/o.pem" -in SHA256SUMS \
	    -out SHA256SUMS.sig)
done
expect_eq "verify --chain --pubkey" \
    "$(rc "$BIN" verify --chain -p "$T/o.pub.pem" "$H")" 0
expect_grep "... every run's files" \
    "^verified 4 files in 4 runs signed by Ed25519 key SHA256:" "$T/out"
expect_eq "verify --chain, wrong key" \
    "$(rc "$BIN" verify --chain -p "$PUB" "$H")" 1
expect_eq "... one bad signature per run" "$(grep -c \
    '^FAILED: 2026[0-9T]*Z[-0-9]*/SHA256SUMS.sig: bad signature' "$T/out")" 4
# The head's report changed: no later link sees it, the signature does.
flip "$H/20261203T100000Z/report.json"
expect_eq "changed head, without --pubkey" \
    "$(rc "$BIN" verify --chain "$H")" 0
expect_eq "changed head, with --pubkey" \
    "$(rc "$BIN" verify --chain -p "$T/o.pub.pem" "$H")" 1
expect_grep "... named" "^FAILED: 20261203T100000Z/report.json: changed" \
    "$T/out"
rm "$H/20261201T100000Z/SHA256SUMS"
expect_eq "an unsigned run" \
    "$(rc "$BIN" verify --chain -p "$T/o.pub.pem" "$H")" 1
expect_grep "... named" \
    "^FAILED: 20261201T100000Z/SHA256SUMS: missing: the run is not signed\$" \
    "$T/out"
mkdir "$T/empty"
expect_eq "verify --chain, no runs" \
    "$(rc "$BIN" verify --chain "$T/empty")" 2
expect_grep "... says so" "no runs" "$T/out"

fa_done
