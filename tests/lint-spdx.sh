#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every source file the project tracks names its licence in its first
# three lines (SPDX-License-Identifier: BSD-2-Clause, as LICENSE says): C,
# headers, shell, Python, awk, Makefiles, debian/rules, the manuals, the
# XML schemas and the deploy examples.  A new file without it fails.
# usage: tests/lint-spdx.sh
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
TAG='SPDX-License-Identifier: BSD-2-Clause'
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
	fa_skip "SPDX lines: not a git checkout (the file list is git's)"
	exit 0
fi
n=0
bad=0
for f in $(git ls-files | grep -E '\.(c|h|sh|py|awk|sbatch|xsd)$|(^|/)Makefile$|^debian/rules$|^man/.*\.[0-9]$|^deploy/' |
    grep -v '/README$'); do
	n=$((n + 1))
	head -n 3 "$f" | grep -q "$TAG" && continue
	fa_fail "$f: no '$TAG' in its first three lines"
	bad=$((bad + 1))
done
expect_eq "source files checked for their SPDX line" \
    "$([ "$n" -ge 300 ] && echo yes)" yes
[ "$bad" -gt 0 ] || fa_pass "every one of the $n source files has it"
expect_eq "LICENSE is the BSD 2-Clause licence" \
    "$(head -n 1 LICENSE 2>/dev/null)" "BSD 2-Clause License"
fa_done
