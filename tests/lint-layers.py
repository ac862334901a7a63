#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# The dependency picture holds (issue 24, fabaudit-internals(7)): core/
# includes only core/; fabric/, checks/ and reports/ include only
# themselves and core/; no two files include each other in a loop; and no
# two object files of the libraries call each other in a loop (read from
# the symbols each defines and needs, nm(1), so a call through a header
# of a third file counts too).  Checks are units: each a designated-
# initialiser struct fa_check (no macro makes one), each listed in
# checks/registry.c once, each named by a C unit test in tests/unit/.
# The observation schema covers the code: every kind a define names and
# every field the checks and reports read from observation data is
# declared in core/obs_schema_table.c.  Below scanner/ a function returns 0 (or a count,
# a boolean, an index) or a negative FA_ERR_* of core/errors.h, so a bare
# `return -1;` (FA_ERR_NOMEM's value) says "not an error" on its line.
# One PASS: or FAIL: line per rule.
# usage: tests/lint-layers.py BUILD_DIR
import collections
import glob
import os
import re
import subprocess
import sys

LIBS = ["core", "fabric", "checks", "reports"]
MAY = {"core": {"core"}, "fabric": {"fabric", "core"},
       "checks": {"checks", "core"}, "reports": {"reports", "core"},
       "scanner": {"scanner", "reports", "checks", "fabric", "core"}}
# A loop the code still has, with the reason; printed as SKIP, never as a
# pass, until it is gone (then this entry must go too: a FAIL says so).
KNOWN = {
    # frozenset({"dir/file", "dir/other"}): "why the loop is still there",
}

fails = 0


def result(ok, name, detail=""):
    global fails
    if ok:
        print("PASS: " + name)
    else:
        fails += 1
        print("FAIL: " + name + (": " + detail if detail else ""))


def loops(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))
    nodes = set(graph) | {w for ws in graph.values() for w in ws}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def report_loops(kind, found):
    bad = [c for c in found if c not in KNOWN]
    for c in found:
        if c in KNOWN:
            print("SKIP: %s loop %s: %s" % (kind, " <-> ".join(sorted(c)),
                                            KNOWN[c]))
    result(not bad, "no %s loop between files" % kind,
           "; ".join(" <-> ".join(sorted(c)) for c in bad))
    return set(found)


def checks_as_units():
    """Each check a designated-initialiser struct fa_check, no macro that
    makes one, and the registry lists each exactly once."""
    made, macros = [], []
    for f in sorted(glob.glob("checks/*.[ch]")):
        text = open(f, encoding="utf-8").read()
        for m in re.finditer(r"#\s*define\s+(\w+)\((?:[^\n]*\\\n)*[^\n]*",
                             text):
            if re.search(r"struct fa_check\s+\w+\s*=", m.group(0)):
                macros.append("%s: %s" % (f, m.group(1)))
        for m in re.finditer(r"^const struct fa_check (\w+) = \{\n"
                             r"\t\.id = ", text, re.M):
            made.append(m.group(1))
    result(not macros, "no macro defines a check (designated initialisers)",
           "; ".join(macros))
    reg = re.findall(r"&(fa_chk_\w+),", open("checks/registry.c").read())
    dup = sorted({r for r in reg if reg.count(r) > 1})
    tested = set()
    for f in glob.glob("tests/unit/*.c"):
        tested |= set(re.findall(r"fa_chk_\w+", open(f, encoding="utf-8",
                                                      errors="replace").read()))
    untested = sorted(set(made) - tested)
    result(made and not untested, "every check has a C unit test "
           "(tests/unit/ names it)", " ".join(untested))
    result(sorted(made) == sorted(set(reg)) and not dup and made,
           "the registry lists every check defined, once",
           "defined not listed: %s; listed not defined: %s; twice: %s" % (
               sorted(set(made) - set(reg)), sorted(set(reg) - set(made)),
               dup))


BARE_RETURN = re.compile(r"\breturn\s*(?:-1|\(\s*-1\s*\))\s*;")
NOT_AN_ERROR = re.compile(r"/\*\s*not an error:\s*\S[^*]*\*/")


def no_bare_return():
    """Every return -1; or return (-1); below scanner/ carries a
    /* not an error: WHAT -1 MEANS */ comment on its line: -1 is
    FA_ERR_NOMEM's value, and a caller that passes a bare one on reports
    out of memory for what was malformed input or an I/O failure."""
    bad = []
    for d in LIBS:
        for f in sorted(glob.glob(d + "/*.c")):
            with open(f, encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    if BARE_RETURN.search(line) and \
                            not NOT_AN_ERROR.search(line):
                        bad.append("%s:%d" % (f, n))
    result(not bad, "no bare return -1 below scanner/",
           "; ".join(bad))


def kinds_declared():
    """Every observation kind the code names by a FA_KIND_/KIND_ define is
    in the schema table (a literal kind the table lacks makes a scan's
    observation an error at run time: core/snapshot.c)."""
    table = open("core/obs_schema_table.c", encoding="utf-8").read()
    declared = set(re.findall(r'\{\s*"([a-z_.]+)",\s*(?:FA_FAM_\w+|-1),',
                              table))
    named = set()
    for f in glob.glob("*/*.[ch]"):
        if f.startswith(("tests/", "fuzz/", "bench/")):
            continue
        text = open(f, encoding="utf-8", errors="replace").read()
        named |= set(re.findall(
            r'#\s*define\s+(?:FA_)?KIND_\w+\s+"([a-z]+\.[a-z_.]+)"', text))
    missing = sorted(named - declared)
    result(declared and not missing, "every observation kind the code names "
           "is declared in core/obs_schema_table.c", " ".join(missing))
    # A field read from an observation's data (o->data, "name") that no
    # kind declares would read as absent: a typo turned into not_tested.
    fields = set(re.findall(r'\{\s*"([a-z_0-9]+)",\s*FA_FT_', table))
    read = {}
    for f in sorted(glob.glob("checks/*.c") + glob.glob("reports/*.c") +
                    glob.glob("scanner/*.c")):
        text = open(f, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r'(?:->|\.)data,\s*"([a-z_0-9]+)"', text):
            read.setdefault(m.group(1), "%s:%d" % (
                f, text.count("\n", 0, m.start()) + 1))
    undeclared = sorted("%s (%s)" % (k, v) for k, v in read.items()
                        if k not in fields)
    result(read and not undeclared, "every field the checks and reports "
           "read from an observation's data is declared",
           "; ".join(undeclared))


def main():
    b = sys.argv[1] if len(sys.argv) > 1 else "build"
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    inc = collections.defaultdict(set)
    wrong = []
    for d in LIBS + ["scanner"]:
        for f in sorted(glob.glob(d + "/*.[ch]")):
            mod = f[:-2]
            with open(f, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    t = os.path.normpath(os.path.join(d, m.group(1)))
                    if t.split("/")[0] not in MAY[d]:
                        wrong.append("%s includes %s" % (f, t))
                    if t[:-2] != mod:
                        inc[mod].add(t[:-2])
    result(not wrong, "each layer includes only the layers below it",
           "; ".join(wrong))
    checks_as_units()
    kinds_declared()
    no_bare_return()
    found = report_loops("include", loops(inc))
    # Calls: an undefined symbol of one object defined by another.
    objs = [o for d in LIBS for o in sorted(glob.glob("%s/%s/*.o" % (b, d)))
            if os.path.exists(o[len(b) + 1:-2] + ".c")]
    if not objs:
        result(False, "no call loop between files",
               "no object files in %s (build first)" % b)
        return
    defs, need = {}, collections.defaultdict(set)
    for o in objs:
        mod = o[len(b) + 1:-2]
        out = subprocess.run(["nm", "-g", o], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] == "U":
                need[mod].add(p[1])
            elif len(p) == 3 and p[1] in "TDBRVWG":
                defs.setdefault(p[2], mod)
    calls = collections.defaultdict(set)
    for mod, syms in need.items():
        for s in syms:
            if s in defs and defs[s] != mod:
                calls[mod].add(defs[s])
    found |= report_loops("call", loops(calls))
    gone = [k for k in KNOWN if k not in found]
    result(not gone, "every loop listed as known still exists",
           "; ".join(" <-> ".join(sorted(c)) for c in gone) +
           " gone: remove it from KNOWN in tests/lint-layers.py")


main()
sys.exit(1 if fails else 0)
