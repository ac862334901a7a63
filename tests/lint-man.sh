#!/bin/sh
# lint-man.sh: lint fabaudit's manual pages with mandoc(1).
#
#   sh tests/lint-man.sh
#
# Runs `mandoc -T lint -W style` on man/man5/fabaudit.conf.5 and
# man/man8/fabaudit.8 from the repository root, with ./man added to the
# manual search path (-m) so that .Xr references between the two pages
# resolve like references to installed pages (mandoc 1.14: -m and -M are
# honoured for the "referenced manual not found" check at -W style).
#
# Prints every message and exits 1 if there is any, 0 if there is none,
# 2 if a page is missing or mandoc is not installed.
#
# One kind of line is not a lint message and is dropped: when a referenced
# page is found on disk but no makewhatis(8) database lists it, mandoc says
#   mandoc: outdated mandoc.db lacks NAME(SEC) entry, run makewhatis DIR
# on stderr and still exits 0.  Systems without mandoc.db (Debian's
# man-db does not build one) print it for every .Xr.

prog=lint-man.sh
pages="man/man5/fabaudit.conf.5 man/man8/fabaudit.8"

root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2

if ! command -v mandoc >/dev/null 2>&1; then
	echo "$prog: mandoc not found (Debian: apt-get install mandoc)" >&2
	exit 2
fi

missing=
present=
for p in $pages; do
	if [ -f "$p" ]; then
		present="$present $p"
	else
		missing="$missing $p"
	fi
done

status=0
if [ -n "$present" ]; then
	tmp=$(mktemp "${TMPDIR:-/tmp}/lint-man.XXXXXX") || exit 2
	trap 'rm -f "$tmp"' EXIT
	trap 'exit 2' HUP INT TERM
	# shellcheck disable=SC2086  # word splitting of $present is wanted
	mandoc -T lint -W style -m ./man $present >"$tmp" 2>&1
	rc=$?
	msgs=$(grep -v -E '^mandoc: outdated mandoc\.db lacks [^ ]+\([^ ]+\) entry, run makewhatis ' "$tmp")
	if [ -n "$msgs" ]; then
		printf '%s\n' "$msgs"
		status=1
	fi
	if [ "$rc" -ne 0 ]; then
		# mandoc found something: never pass, even if it said nothing
		# that got through the filter.
		[ -n "$msgs" ] || echo "$prog: mandoc exited with status $rc" >&2
		status=1
	fi
	for p in $present; do
		if [ "$status" -eq 0 ]; then
			echo "$prog: $p: clean"
		fi
	done
fi

if [ -n "$missing" ]; then
	for p in $missing; do
		echo "$prog: $p: missing (not written yet?); cannot lint it" >&2
	done
	exit 2
fi
if [ "$status" -ne 0 ]; then
	echo "$prog: mandoc -T lint -W style reported problems" >&2
fi
exit "$status"
