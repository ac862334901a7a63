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
# The observation schema covers the code: each kind is named once
# (core/obs_kinds.h) and declared once (core/obs_schema.def), no code
# spells a kind's name, and checks, reports and scanner read observation
# data only through the typed getters (core/obs_fields.h), so the
# compiler refuses a field that is not declared.  Below scanner/ a
# function returns 0 (or a count, a boolean, an index) or a negative
# FA_ERR_* of core/errors.h, so a bare
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
    makes one, and the registry (core/checks.def) lists each exactly once,
    with the ID the struct has."""
    made, macros, ids = [], [], {}
    for f in sorted(glob.glob("checks/*.[ch]")):
        text = open(f, encoding="utf-8").read()
        for m in re.finditer(r"#\s*define\s+(\w+)\((?:[^\n]*\\\n)*[^\n]*",
                             text):
            if re.search(r"struct fa_check\s+\w+\s*=", m.group(0)):
                macros.append("%s: %s" % (f, m.group(1)))
        for m in re.finditer(r"^const struct fa_check (\w+) = \{\n"
                             r"\t\.id = \"([A-Z0-9-]+)\"", text, re.M):
            made.append(m.group(1))
            ids[m.group(1)] = m.group(2)
    result(not macros, "no macro defines a check (designated initialisers)",
           "; ".join(macros))
    lines = re.findall(r'^FA_CHECK\("([A-Z0-9-]+)", (fa_chk_\w+)\)',
                       open("core/checks.def").read(), re.M)
    reg = [s for _, s in lines]
    wrong = ["%s is %s, its line says %s" % (s, ids[s], i)
             for i, s in lines if s in ids and ids[s] != i]
    result(not wrong, "each check's ID is the one core/checks.def gives it",
           "; ".join(wrong))
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
    """Each observation kind is named once, in core/obs_kinds.h, and
    declared once, in core/obs_schema.def (in strcmp order of its name:
    core/obs_schema.c looks kinds up by bsearch); no code spells a kind's
    name as a string or defines a macro of its own for it (a name typed
    twice can drift: core/snapshot.c makes an undeclared kind's
    observation an error at run time)."""
    names = dict(re.findall(r'#define\s+FA_KIND_(\w+)\s+"([a-z_.]+)"',
                            open("core/obs_kinds.h", encoding="utf-8").read()))
    spec = open("core/obs_schema.def", encoding="utf-8").read()
    order = re.findall(r'^FA_KIND\((\w+),', spec, re.M)
    bad = ["FA_KIND_%s has no FA_KIND line" % k
           for k in sorted(set(names) - set(order))]
    bad += ["%s declared %d times" % (k, order.count(k))
            for k in sorted(set(order)) if order.count(k) > 1]
    ordered = [names.get(k, "") for k in order]
    if ordered != sorted(ordered):
        bad.append("kinds not in strcmp order of their names")
    result(names and not bad, "every observation kind is named in "
           "core/obs_kinds.h and declared once in core/obs_schema.def",
           "; ".join(bad))
    spelt = []
    for f in sorted(glob.glob("*/*.[ch]")):
        if f.startswith(("tests/", "fuzz/", "bench/", "build")) or \
                f == "core/obs_kinds.h":
            continue
        for n, line in enumerate(open(f, encoding="utf-8",
                                      errors="replace"), 1):
            code = line.split("/*")[0]
            if code.lstrip().startswith("*"):
                continue
            for lit in re.findall(r'"([a-z]+\.[a-z_.]+)"', code):
                if lit in names.values():
                    spelt.append("%s:%d %s" % (f, n, lit))
            if re.match(r'\s*#\s*define\s+\w*KIND\w*\s+"', code):
                spelt.append("%s:%d defines a kind" % (f, n))
    result(not spelt, "no code spells an observation kind's name but "
           "core/obs_kinds.h", "; ".join(spelt))
    # Observation data is read through the typed getters of
    # core/obs_fields.h: a field no kind declares, or read as another
    # type, does not compile.  Code above core/ and fabric/ (which write
    # it) does not touch ->data.
    raw = []
    for f in sorted(glob.glob("checks/*.[ch]") + glob.glob("reports/*.[ch]") +
                    glob.glob("scanner/*.[ch]")):
        for n, line in enumerate(open(f, encoding="utf-8",
                                      errors="replace"), 1):
            if re.search(r'->data\b', line.split("/*")[0]):
                raw.append("%s:%d" % (f, n))
    result(not raw, "checks, reports and scanner read observation data "
           "only through core/obs_fields.h", " ".join(raw))


# The writers whose observations are built through the typed puts of
# core/obs_fields.h (fa_obs_build, fa_put_*): every acquisition file, and
# the one core file that records an observation.
TYPED_WRITERS = ("fabric/", "core/deadline.c")


def call_args(text, start):
    """The top-level arguments of the call whose '(' is at start."""
    depth, args, cur, i, q = 0, [], "", start, None
    while i < len(text):
        ch = text[i]
        if q:
            cur += ch
            if ch == "\\":
                cur += text[i + 1]
                i += 1
            elif ch == q:
                q = None
        elif ch in "\"'":
            q = ch
            cur += ch
        elif ch == "(":
            depth += 1
            if depth > 1:
                cur += ch
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return args
            cur += ch
        elif ch == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    return args


def typed_writers():
    """In the files of TYPED_WRITERS, every observation's data is NULL, a
    variable set from fa_obs_built() and tested against NULL (out of
    memory is an error returned, not an observation without data) and set
    by nothing else, or the output of the fa_host_decoder it was given
    (fabric/host_obs.c); and a decoder's output (*out, fabric/host_obs.h)
    is built so too: every decoder that fa_host_read_decode() is given is
    a typed writer's."""
    bad = []
    texts = {f: open(f, encoding="utf-8").read()
             for f in sorted(glob.glob("fabric/*.c") + glob.glob("core/*.c"))}
    for f, text in texts.items():
        for m in re.finditer(r"\bfa_host_read_decode\(", text):
            args = call_args(text, m.end() - 1)
            if len(args) != 6 or args[0].startswith("const "):
                continue    # the definition
            home = [g for g, t in texts.items()
                    if re.search(r"^%s\(" % re.escape(args[5]), t, re.M)]
            if not home or not home[0].startswith("fabric/"):
                bad.append("%s:%d (decoder %s of %s)" % (
                    f, text.count("\n", 0, m.start()) + 1, args[5],
                    home[0] if home else "no fabric/ file"))
    for f, text in texts.items():
        if not f.startswith(TYPED_WRITERS):
            continue
        # Comments out, their newlines kept for the line numbers.
        text = re.sub(r"/\*.*?\*/", lambda c: "\n" * c.group().count("\n"),
                      text, flags=re.S)
        decoders = re.findall(r"\bfa_host_decoder\s+(\w+)", text)
        for m in re.finditer(r"\*out\s*=\s*json_\w+\(", text):
            bad.append("%s:%d (a decoder's *out)" % (
                f, text.count("\n", 0, m.start()) + 1))
        for m in re.finditer(r"\bfa_snapshot_add\(", text):
            args = call_args(text, m.end() - 1)
            data = args[8] if len(args) > 8 else "?"
            line = text.count("\n", 0, m.start()) + 1
            # Not fa_obs_built() itself: its NULL (out of memory) must
            # be an error returned, not an observation without data.
            if data == "NULL":
                continue
            body = text[:m.start()]
            body = body[body.rfind("\n{\n"):]
            v = re.escape(data)
            sets = re.findall(r"\b%s\s*=(?!=)\s*(\w*)" % v, body)
            if sets and all(s in ("fa_obs_built", "NULL") for s in sets) \
                    and "fa_obs_built" in sets and \
                    re.search(r"(\b%s|fa_obs_built\([^()]*\)\))\s*[!=]=\s*"
                              r"NULL\b" % v, body):
                continue
            # Set by the decoder, and by nothing else but NULL.
            if any(re.search(r"\b%s\([^;]*&%s\b" % (d, re.escape(data)),
                             body) for d in decoders) and \
                    not re.search(r"\b%s\s*=(?!=)(?!\s*NULL\b)" %
                                  re.escape(data), body):
                continue
            bad.append("%s:%d (%s)" % (f, line, data))
    result(not bad, "the typed writers (%s) build each observation with "
           "fa_obs_build and fa_put_*" % ", ".join(TYPED_WRITERS),
           "; ".join(bad))


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
    typed_writers()
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
