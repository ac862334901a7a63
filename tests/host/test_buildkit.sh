#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The BuildKit of a host, from binaries the Go toolchain itself built
# (go build -mod=vendor, as moby builds dockerd: the vendored modules'
# versions go into the build information, `go version -m` shows them):
#
#   dockerd 24.0.7 vendoring github.com/moby/buildkit v0.12.4: BuildKit
#     0.12.4 is below 0.12.5, the fix of CVE-2024-23651..23653    -> fail
#   the same with go.mod replacing BuildKit by a fork at v0.12.5: the
#     replacement is what is linked, 0.12.5                       -> pass
#   buildkitd (main module github.com/moby/buildkit, -X version.Version=
#     v0.12.5) at /usr/local/bin                                 -> pass
#   dockerd built in GOPATH mode (no module list, as Debian builds it):
#     its BuildKit cannot be read                           -> not_tested
#
# Each expectation is checked against `go version -m` first, so a wrong
# build fails here and not as a fabaudit verdict.
# usage: tests/host/test_buildkit.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/host/test_buildkit.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
CAT=$(pwd)/fixtures/cve/buildkit/catalogue.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v go >/dev/null; then
	fa_fail "buildkit: the Go toolchain is needed (make deps: golang-go)"
	fa_done
	exit
fi
export GOPROXY=off GOFLAGS=-mod=vendor GOCACHE="$T/cache" GOPATH="$T/gopath"
export GO111MODULE=on CGO_ENABLED=0

# tree DIR MODULE BKVERSION [REPLACEMENT]: a module that vendors BuildKit.
tree() {
	mkdir -p "$1/cmd/dockerd" "$1/dockerversion" \
	    "$1/vendor/github.com/moby/buildkit/version"
	{
		printf 'module %s\n\ngo 1.19\n\n' "$2"
		printf 'require github.com/moby/buildkit %s\n' "$3"
		[ -n "${4:-}" ] && printf \
		    'replace github.com/moby/buildkit => %s\n' "$4"
	} >"$1/go.mod"
	{
		printf '# github.com/moby/buildkit %s' "$3"
		[ -n "${4:-}" ] && printf ' => %s' "$4"
		printf '\n## explicit\ngithub.com/moby/buildkit/version\n'
		# go.mod's replace of every version, as go mod vendor
		# records it
		[ -n "${4:-}" ] && printf \
		    '# github.com/moby/buildkit => %s\n' "$4"
	} >"$1/vendor/modules.txt"
	printf 'package version\n\nvar Version = "v0.0.0+unknown"\n' \
	    >"$1/vendor/github.com/moby/buildkit/version/version.go"
	printf 'package dockerversion\n\nvar Version = "library-import"\n' \
	    >"$1/dockerversion/version.go"
	cat >"$1/cmd/dockerd/main.go" <<EOF
package main

import (
	"fmt"

	"$2/dockerversion"
	"github.com/moby/buildkit/version"
)

func main() { fmt.Println(dockerversion.Version, version.Version) }
EOF
}

# root NAME: an empty host tree.
root() {
	mkdir -p "$T/$1/usr/bin" "$T/$1/usr/local/bin" "$T/$1/etc"
	printf 'ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n' \
	    >"$T/$1/etc/os-release"
}

verdict() {
	jq -r --arg c "$2" '[.results[] | select(.id == $c) |
	    "\(.status) \(.target)"] | join(",")' "$1/report.json"
}

DV="-X github.com/docker/docker/dockerversion.Version=24.0.7"

# 1. dockerd vendoring BuildKit v0.12.4.
tree "$T/moby" github.com/docker/docker v0.12.4
root vend
(cd "$T/moby" && go build -ldflags "$DV" -o "$T/vend/usr/bin/dockerd" \
    ./cmd/dockerd) || fa_fail "buildkit: go build (vendored) failed"
go version -m "$T/vend/usr/bin/dockerd" >"$T/m1"
expect_grep "buildkit: go says dockerd links BuildKit v0.12.4" \
    'dep	github.com/moby/buildkit	v0.12.4' "$T/m1"
"$BIN" scan --host="$T/vend" --cve-db "$CAT" -o "$T/s1" >/dev/null 2>&1
expect_eq "buildkit: the module version is in the observation" "$(jq -r \
    '.observations[] | select(.kind == "host.binary" and
    .target == "/usr/bin/dockerd") | .data.buildkit_module' \
    "$T/s1/snapshot.json")" v0.12.4
expect_eq "buildkit: BuildKit 0.12.4 in dockerd fails" \
    "$(verdict "$T/s1" HOST-BUILDKIT-VULN)" "fail /usr/bin/dockerd"
expect_grep "buildkit: the finding says where it was read" \
    'BuildKit v0.12.4 \(module linked into /usr/bin/dockerd\)' \
    "$T/s1/report.txt"
expect_eq "buildkit: dockerd itself is judged apart (24.0.7: no entry)" \
    "$(verdict "$T/s1" HOST-DOCKER-VULN)" "pass /usr/bin/dockerd"

# 2. The same, BuildKit replaced by a fork at v0.12.5.
tree "$T/forksrc" github.com/docker/docker v0.12.4 \
    "github.com/example/buildkit v0.12.5"
root fork
(cd "$T/forksrc" && go build -ldflags "$DV" -o "$T/fork/usr/bin/dockerd" \
    ./cmd/dockerd) || fa_fail "buildkit: go build (replaced) failed"
go version -m "$T/fork/usr/bin/dockerd" >"$T/m2"
expect_grep "buildkit: go says the fork replaces it" \
    '=>	github.com/example/buildkit	v0.12.5' "$T/m2"
"$BIN" scan --host="$T/fork" --cve-db "$CAT" -o "$T/s2" >/dev/null 2>&1
expect_eq "buildkit: the replacement's version is the one read" "$(jq -r \
    '.observations[] | select(.target == "/usr/bin/dockerd") |
    .data.buildkit_module' "$T/s2/snapshot.json")" v0.12.5
expect_eq "buildkit: BuildKit 0.12.5 passes" \
    "$(verdict "$T/s2" HOST-BUILDKIT-VULN)" "pass /usr/bin/dockerd"

# 3. buildkitd itself, its version set by -X as BuildKit's Makefile does.
mkdir -p "$T/bk/cmd/buildkitd" "$T/bk/version"
printf 'module github.com/moby/buildkit\n\ngo 1.19\n' >"$T/bk/go.mod"
printf 'package version\n\nvar Version = "v0.0.0+unknown"\n' \
    >"$T/bk/version/version.go"
cat >"$T/bk/cmd/buildkitd/main.go" <<'EOF'
package main

import (
	"fmt"

	"github.com/moby/buildkit/version"
)

func main() { fmt.Println(version.Version) }
EOF
root bkd
(cd "$T/bk" && GOFLAGS=-mod=mod go build -ldflags \
    "-X github.com/moby/buildkit/version.Version=v0.12.5" \
    -o "$T/bkd/usr/local/bin/buildkitd" ./cmd/buildkitd) ||
    fa_fail "buildkit: go build (buildkitd) failed"
"$BIN" scan --host="$T/bkd" --cve-db "$CAT" -o "$T/s3" >/dev/null 2>&1
expect_eq "buildkit: buildkitd v0.12.5 passes" \
    "$(verdict "$T/s3" HOST-BUILDKIT-VULN)" "pass /usr/local/bin/buildkitd"
expect_grep "buildkit: by its ldflags" 'buildkitd v0.12.5 \(/usr/local/bin/'\
'buildkitd, Go build information: ldflags version.Version\)' "$T/s3/report.txt"

# 4. dockerd built in GOPATH mode: no module list.
mkdir -p "$T/gopath/src/github.com/docker/docker"
cp -r "$T/moby/cmd" "$T/moby/dockerversion" \
    "$T/gopath/src/github.com/docker/docker/"
mkdir -p "$T/gopath/src/github.com/moby"
cp -r "$T/moby/vendor/github.com/moby/buildkit" \
    "$T/gopath/src/github.com/moby/"
root plain
(cd "$T/gopath/src/github.com/docker/docker" && GO111MODULE=off GOFLAGS= \
    go build -ldflags "$DV" -o "$T/plain/usr/bin/dockerd" ./cmd/dockerd) ||
    fa_fail "buildkit: go build (GOPATH) failed"
go version -m "$T/plain/usr/bin/dockerd" >"$T/m4"
expect_nogrep "buildkit: go lists no module of the GOPATH build" \
    "$(printf '\tdep\t')" \
    "$T/m4"
"$BIN" scan --host="$T/plain" --cve-db "$CAT" -o "$T/s4" >/dev/null 2>&1
expect_eq "buildkit: a GOPATH dockerd is not tested" \
    "$(verdict "$T/s4" HOST-BUILDKIT-VULN)" "not_tested /usr/bin/dockerd"
expect_grep "buildkit: ... saying why" \
    'lists no module version of it' "$T/s4/report.txt"

# 5. A pseudo-version: a commit before v0.12.5 (Go's own ordering puts
#    it below v0.12.5), as moby's vendor.mod often pins BuildKit.
PV=v0.12.5-0.20231208203051-3b6880d2a00f
tree "$T/pseudo" github.com/docker/docker "$PV"
root pv
(cd "$T/pseudo" && go build -ldflags "$DV" -o "$T/pv/usr/bin/dockerd" \
    ./cmd/dockerd) || fa_fail "buildkit: go build (pseudo-version) failed"
go version -m "$T/pv/usr/bin/dockerd" >"$T/m5"
expect_grep "buildkit: go says the pseudo-version" "$PV" "$T/m5"
"$BIN" scan --host="$T/pv" --cve-db "$CAT" -o "$T/s6" >/dev/null 2>&1
expect_eq "buildkit: a commit before 0.12.5 fails" \
    "$(verdict "$T/s6" HOST-BUILDKIT-VULN)" "fail /usr/bin/dockerd"

# 6. buildkitd at the fix beside a GOPATH dockerd: the dockerd's BuildKit
#    (the one "docker build" uses) is still unknown, and said so.
cp "$T/bkd/usr/local/bin/buildkitd" "$T/plain/usr/local/bin/buildkitd"
"$BIN" scan --host="$T/plain" --cve-db "$CAT" -o "$T/s7" >/dev/null 2>&1
expect_eq "buildkit: buildkitd passes and the dockerd is not tested" \
    "$(verdict "$T/s7" HOST-BUILDKIT-VULN)" \
    "pass /usr/local/bin/buildkitd,not_tested /usr/bin/dockerd"

# 7. Nothing at all.
root none
"$BIN" scan --host="$T/none" --cve-db "$CAT" -o "$T/s5" >/dev/null 2>&1
expect_eq "buildkit: no BuildKit: not tested" \
    "$(verdict "$T/s5" HOST-BUILDKIT-VULN)" "not_tested buildkit"
fa_done
