#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The deployment examples under deploy/ are syntactically valid for the
# tool that reads each (YAML for Kubernetes, systemd-analyze, sh, cron),
# keep the privileges they document, use only fabaudit options the binary
# lists in its -h output, and the Slurm script reports failed nodes and
# passes on the merge's exit status (run against stand-in srun/scontrol).
# usage: tests/report/test_deploy.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_deploy.sh BUILD_DIR}
case $B in /*) ;; *) B=$PWD/$B ;; esac
FA=$B/fabaudit
SNAP=$PWD/fixtures/reports/careless.snapshot.json
D=deploy
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$FA" ]; then
	fa_fail "$FA is not built"
	fa_done
	exit
fi

# ---------------------------------------------------------------------------
# YAML, Kubernetes objects, cron lines and fabaudit options: python3-yaml.
# Each check is a function so that it can also be shown to reject bad input.
cat >"$T/check.py" <<'EOF'
import os, re, subprocess, sys
import yaml

deploy, fa, snap, tmp, man = sys.argv[1:6]
fails = 0

def ok(name):
    print("PASS: " + name)

def bad(name):
    global fails
    fails += 1
    print("FAIL: " + name)

def expect(cond, name, why=""):
    if cond:
        ok(name)
    else:
        bad(name + (" (" + why + ")" if why else ""))

def files(exts=None):
    out = []
    for root, dirs, names in os.walk(deploy):
        dirs.sort()
        for n in sorted(names):
            if exts is None or n.endswith(exts):
                out.append(os.path.join(root, n))
    return out

# --- Kubernetes -------------------------------------------------------------
def pod_specs(obj):
    """Every pod spec in an object: Pod, workload template, CronJob."""
    kind = obj.get("kind")
    spec = obj.get("spec") or {}
    if kind == "Pod":
        return [spec]
    if kind == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec")) or {}
    tpl = (spec.get("template") or {}).get("spec")
    return [tpl] if isinstance(tpl, dict) else []

def containers(ps):
    return [c for k in ("initContainers", "containers")
            for c in (ps.get(k) or []) if isinstance(c, dict)]

CRON_FIELD = re.compile(r"^(\*|\d+(-\d+)?)(/\d+)?(,(\*|\d+(-\d+)?)(/\d+)?)*$")
CRON_RANGE = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]

def cron_times_ok(fields):
    """Five cron time fields, numbers within range; returns a reason."""
    if len(fields) != 5:
        return "%d time fields, not 5" % len(fields)
    for f, (lo, hi) in zip(fields, CRON_RANGE):
        if not CRON_FIELD.match(f):
            return "bad time field %r" % f
        for n in re.findall(r"\d+", re.sub(r"/\d+", "", f)):
            if not lo <= int(n) <= hi:
                return "%s out of range in %r" % (n, f)
    return ""

def privileged_ok(text, lineno_hint):
    """privileged: true is allowed only next to a comment saying it is
    REQUIRED (within the 12 lines before it, or on its line)."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if re.match(r"^\s*privileged:\s*true\b", l):
            ctx = "\n".join(lines[max(0, i - 12):i + 1])
            if not re.search(r"#.*\brequired\b", ctx, re.I):
                return "privileged: true on line %d without a comment " \
                    "saying it is required" % (i + 1)
    return ""

def check_container(f, text, c, name):
    sc = c.get("securityContext")
    expect(isinstance(sc, dict), "%s: container %s has a securityContext"
           % (f, name))
    if not isinstance(sc, dict):
        return
    if sc.get("privileged") is True:
        why = privileged_ok(text, 0)
        expect(not why, "%s: container %s privileged only where commented "
               "as required" % (f, name), why)
    else:
        ok("%s: container %s is not privileged" % (f, name))
    expect(sc.get("allowPrivilegeEscalation") is False,
           "%s: container %s has allowPrivilegeEscalation false" % (f, name))
    caps = sc.get("capabilities") or {}
    drop = [str(x).upper() for x in caps.get("drop") or []]
    add = [str(x).upper() for x in caps.get("add") or []]
    expect("ALL" in drop, "%s: container %s drops ALL capabilities"
           % (f, name), "drop=%r" % drop)
    expect(set(add) <= {"NET_RAW", "NET_ADMIN"},
           "%s: container %s adds no capability but NET_RAW/NET_ADMIN"
           % (f, name), "add=%r" % add)
    expect(str(c.get("image", "")).startswith("registry.example.com/"),
           "%s: container %s image is the placeholder registry" % (f, name),
           repr(c.get("image")))

def shell_scripts_of(c):
    """Scripts given to a shell with -c in a container's command/args."""
    argv = [str(x) for x in (c.get("command") or []) + (c.get("args") or [])]
    return [argv[i + 1] for i in range(len(argv) - 1)
            if re.search(r"(^|/)(ba|da)?sh$", argv[i - 1] if i else "")
            and argv[i] == "-c"]

def check_yaml():
    ys = files((".yaml", ".yml"))
    expect(len(ys) >= 3, "deploy/ has Kubernetes YAML files", str(ys))
    kinds = {}
    invocations = []
    for f in ys:
        text = open(f, encoding="utf-8").read()
        try:
            docs = [d for d in yaml.safe_load_all(text) if d is not None]
        except yaml.YAMLError as e:
            bad("%s parses as YAML (%s)" % (f, str(e).replace("\n", " ")))
            continue
        ok("%s parses as YAML (%d document(s))" % (f, len(docs)))
        for d in docs:
            md = d.get("metadata") if isinstance(d, dict) else None
            good = isinstance(d, dict) and \
                isinstance(d.get("apiVersion"), str) and \
                isinstance(d.get("kind"), str) and \
                isinstance(md, dict) and isinstance(md.get("name"), str) \
                and md["name"]
            expect(good, "%s: %s has apiVersion, kind and metadata.name"
                   % (f, d.get("kind") if isinstance(d, dict) else "?"))
            if not good:
                continue
            kinds.setdefault(d["kind"], []).append((f, text, d))
            if d["kind"] == "CronJob":
                s = str((d.get("spec") or {}).get("schedule", ""))
                why = cron_times_ok(s.split())
                expect(not why, "%s: CronJob %s schedule %r has 5 valid "
                       "fields" % (f, md["name"], s), why)
            pss = pod_specs(d)
            if d["kind"] in ("CronJob", "DaemonSet", "Job", "Deployment"):
                expect(len(pss) == 1 and containers(pss[0]),
                       "%s: %s %s has a pod template with containers"
                       % (f, d["kind"], md["name"]))
            for ps in pss:
                for c in containers(ps):
                    check_container(f, text, c, c.get("name"))
                    argv = [str(x) for x in (c.get("command") or []) +
                            (c.get("args") or [])]
                    invocations.append((f, " ".join(argv)))
                    for i, sc in enumerate(shell_scripts_of(c)):
                        p = os.path.join(tmp, "yaml-sh-%d-%s.sh" %
                                         (i, os.path.basename(f)))
                        open(p, "w").write(sc)
                        print("SCRIPT: %s %s" % (f, p))
                        invocations.extend((f, l) for l in logical(sc))
    return kinds, invocations

def check_k8s_roles(kinds):
    """What the brief asks of each workload."""
    cj = [x for x in kinds.get("CronJob", [])
          if "--ib" in yaml.safe_dump(x[2])]
    expect(len(cj) == 1, "one CronJob runs the IB scan", str(len(cj)))
    for f, text, d in cj:
        ps = pod_specs(d)[0]
        expect(ps.get("hostNetwork") is True,
               "%s: IB CronJob uses hostNetwork" % f)
        res = yaml.safe_dump([c.get("resources") for c in containers(ps)])
        vols = yaml.safe_dump(ps.get("volumes"))
        expect("rdma/" in res or "/dev/infiniband" in vols,
               "%s: IB CronJob gets the umad device (RDMA device plugin "
               "resource or hostPath /dev/infiniband)" % f)
        expect(d["spec"].get("concurrencyPolicy") == "Forbid",
               "%s: IB CronJob never overlaps (concurrencyPolicy Forbid)" % f)
    ds = kinds.get("DaemonSet", [])
    expect(len(ds) == 1, "one DaemonSet runs the per-node scans",
           str(len(ds)))
    for f, text, d in ds:
        ps = pod_specs(d)[0]
        expect(ps.get("hostNetwork") is True and ps.get("hostPID") is False,
               "%s: DaemonSet has hostNetwork true, hostPID false" % f)
        vols = {v.get("name"): v for v in ps.get("volumes") or []}
        root = [n for n, v in vols.items()
                if (v.get("hostPath") or {}).get("path") == "/"]
        mounts = [m for c in containers(ps)
                  for m in c.get("volumeMounts") or []
                  if m.get("name") in root]
        expect(bool(mounts) and all(m.get("readOnly") is True and
                                    m.get("mountPath") == "/host"
                                    for m in mounts),
               "%s: DaemonSet mounts the node's / read-only at /host" % f,
               repr(mounts))
        cmd = yaml.safe_dump([c.get("command") for c in containers(ps)])
        expect(re.search(r"--eth\b", cmd) and "--host=/host" in cmd,
               "%s: DaemonSet scans --eth and --host=/host" % f)
        caps = [a for c in containers(ps) for a in
                ((c.get("securityContext") or {}).get("capabilities")
                 or {}).get("add") or []]
        expect("NET_RAW" in caps, "%s: DaemonSet adds NET_RAW" % f)
    cm = kinds.get("ConfigMap", [])
    pol = [d["data"]["fabaudit.conf"] for f, t, d in cm
           if isinstance(d.get("data"), dict) and
           isinstance(d["data"].get("fabaudit.conf"), str)]
    expect(len(pol) == 1, "a ConfigMap holds fabaudit.conf")
    for p in pol:
        path = os.path.join(tmp, "policy.conf")
        open(path, "w").write(p)
        r = subprocess.run([fa, "check", "-q", "-c", path, "-o",
                            os.path.join(tmp, "policy-out"), snap],
                           capture_output=True, text=True)
        expect(r.returncode in (0, 1), "the ConfigMap's policy is accepted "
               "by fabaudit check -c", "exit %d: %s" %
               (r.returncode, r.stderr.strip()))
    for kind in ("CronJob", "DaemonSet", "Job"):
        for f, text, d in kinds.get(kind, []):
            expect("no fabaudit image is published" in
                   re.sub(r"\s*\n#\s*", " ", text).lower(),
                   "%s: says that no image is published" % f)

# --- cron ---------------------------------------------------------------
def cron_line_ok(line):
    """An /etc/cron.d line: 5 time fields, a user, a command; returns a
    reason, empty when good."""
    f = line.split()
    if len(f) < 7:
        return "%d fields, want 5 time fields + user + command" % len(f)
    why = cron_times_ok(f[:5])
    if why:
        return why
    if not re.match(r"^[a-z_][a-z0-9_-]*$", f[5]):
        return "bad user field %r" % f[5]
    cmd = line.split(None, 6)[6]
    if "%" in cmd:
        return "unescaped %% in the command (cron turns it into a newline)"
    if not f[6].startswith("/"):
        return "command %r is not an absolute path" % f[6]
    return ""

def check_cron():
    cs = [f for f in files() if "/cron/" in f]
    expect(len(cs) >= 1, "deploy/cron has a cron file")
    invocations = []
    for f in cs:
        n = 0
        for i, l in enumerate(open(f, encoding="utf-8").read()
                              .splitlines(), 1):
            s = l.strip()
            commented = False
            if s.startswith("#"):
                # A commented-out variant is checked too, when it is one.
                s = s.lstrip("#").strip()
                if not re.match(r"^[\d*]\S*(\s+\S+){5}.*fabaudit", s):
                    continue
                commented = True
            if not s or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", s):
                continue
            why = cron_line_ok(s)
            expect(not why, "%s:%d: %scron line has 5 time fields, a user "
                   "and a command" % (f, i, "commented " if commented
                                      else ""), why)
            if not commented:
                n += 1
            p = os.path.join(tmp, "cron-%d.sh" % i)
            open(p, "w").write(s.split(None, 6)[-1] + "\n")
            print("SCRIPT: %s:%d %s" % (f, i, p))
        expect(n >= 1, "%s has an active cron line" % f)
    return invocations

# --- fabaudit options --------------------------------------------------------
SUBCMDS = "scan|check|checks|diff|merge|verify|keygen"
INVOKE = re.compile(r"fabaudit[\"'}]*\s+(%s)\b(.*)" % SUBCMDS, re.I)
OPT = re.compile(r"(?:^|(?<=[\s\"'+\[(,]))(--[a-z][a-z0-9-]*|-[A-Za-z])"
                 r"(?=[\s=\[\]\"',}$]|$)")
CUT = re.compile(r";|&&|\|\||\s[&|]|\)|`|\s#")

def logical(text):
    """Lines with backslash-newline continuations joined."""
    return re.sub(r"\\\n\s*", " ", text).splitlines()

def options_used(line):
    """(subcommand, option) pairs of every fabaudit invocation in a line."""
    out = []
    m = INVOKE.search(line)
    while m:
        rest = CUT.split(m.group(2), 1)[0]
        out.extend((m.group(1).lower(), o) for o in OPT.findall(rest))
        m = INVOKE.search(m.group(2))
    # systemd: the families are passed through FABAUDIT_FAMILIES.
    for v in re.findall(r"FABAUDIT_FAMILIES=([^\"\n]*)", line):
        out.extend(("scan", o) for o in OPT.findall(v))
    return out

def options_listed(sub):
    r = subprocess.run([fa, sub, "-h"], capture_output=True, text=True)
    return set(OPT.findall(r.stdout + "\n" + r.stderr)), r.returncode

# Synonyms that fabaudit(8) documents as "Fl q , Fl -quiet": a usage line
# may show only one spelling of an option.
SYNONYM = re.compile(r"Fl ([A-Za-z])(?: Ar \S+)? , Fl -([a-z][a-z0-9-]*)")

def synonyms(man):
    syn = {}
    try:
        text = open(man, encoding="utf-8").read()
    except OSError:
        return syn
    for short, long in SYNONYM.findall(text):
        syn["-" + short] = "--" + long
        syn["--" + long] = "-" + short
    return syn

def check_options(invocations):
    used = {}
    for f in files():
        for l in logical(open(f, encoding="utf-8").read()):
            for so in options_used(l):
                used.setdefault(so, set()).add(f)
    for f, l in invocations:
        for so in options_used(l):
            used.setdefault(so, set()).add(f)
    subs = sorted({s for s, o in used})
    expect({"scan", "merge"} <= set(subs),
           "deploy/ invokes fabaudit scan and merge", repr(subs))
    listed = {s: options_listed(s) for s in subs}
    syn = synonyms(man)
    for (s, o), fs in sorted(used.items()):
        opts, rc = listed[s]
        alias = "" if o in opts or syn.get(o) not in opts else \
            " (as %s, its synonym in fabaudit(8))" % syn[o]
        expect(o in opts or alias, "fabaudit %s %s (used in %s) is listed "
               "by `fabaudit %s -h`%s" % (s, o, " ".join(sorted(fs)), s,
                                          alias),
               "not listed; `fabaudit %s -h` exited %d" % (s, rc))
    print("USED: " + " ".join("%s:%s" % so for so in sorted(used)))

# --- self-tests: each checker rejects what it must -------------------------
def self_tests():
    expect(cron_line_ok("17 2 * * root /bin/true").startswith("6 fields"),
           "cron check rejects a line with 4 time fields")
    expect("range" in cron_line_ok("61 2 * * * root /bin/true"),
           "cron check rejects minute 61")
    expect("%" in cron_line_ok("1 2 * * * root /bin/date +%s"),
           "cron check rejects an unescaped %")
    expect(not cron_line_ok("*/15 2-4 1,15 * 1-5 root /bin/true"),
           "cron check accepts steps, ranges and lists")
    expect(privileged_ok("a: 1\n    privileged: true\n", 0),
           "privileged: true without a comment is rejected")
    expect(not privileged_ok("# REQUIRED: a hostPath device\n"
                             "privileged: true\n", 0),
           "privileged: true under a 'required' comment is accepted")
    u = options_used('x | "$FABAUDIT" merge -q -o "$OUT" a.json || r=$?; '
                     'fabaudit scan ${k:+--sign "$k"} "--eth$e" --host &')
    expect(sorted(u) == sorted([("merge", "-q"), ("merge", "-o"),
                                ("scan", "--sign"), ("scan", "--eth"),
                                ("scan", "--host")]),
           "option extraction finds the options of each invocation only",
           repr(u))
    opts, rc = options_listed("scan")
    expect("--no-such-option" not in opts and "--ib" in opts,
           "`fabaudit scan -h` lists --ib and not an invented option",
           repr(sorted(opts)))
    syn = synonyms(man)
    expect(syn.get("--quiet") == "-q" and syn.get("-q") == "--quiet" and
           "--ib" not in syn,
           "fabaudit(8) gives -q and --quiet as synonyms, --ib alone",
           repr(sorted(syn.items())))

self_tests()
kinds, inv = check_yaml()
check_k8s_roles(kinds)
inv += check_cron()
check_options(inv)
sys.exit(1 if fails else 0)
EOF

if ! python3 -c 'import yaml' 2>/dev/null; then
	fa_fail "python3 with the yaml module (python3-yaml) is needed"
	fa_done
	exit
fi
python3 "$T/check.py" "$D" "$FA" "$SNAP" "$T" man/man8/fabaudit.8 \
    >"$T/py.out" 2>&1
py_rc=$?
grep -v '^SCRIPT: \|^USED: ' "$T/py.out"
FA_FAILS=$((FA_FAILS + $(grep -c '^FAIL: ' "$T/py.out")))
if [ "$py_rc" -ne 0 ] && ! grep -q '^FAIL: ' "$T/py.out"; then
	fa_fail "the YAML/cron/option checker exited with status $py_rc"
fi
sed -n 's/^USED: /fabaudit options used in deploy\/: /p' "$T/py.out"

# ---------------------------------------------------------------------------
# Shell: the sbatch script, other scripts, and the shell embedded in the
# YAML and cron files.
# check_sh NAME FILE: sh -n, bash -n, shellcheck (when installed).
check_sh() {
	if sh -n "$2" 2>"$T/sh.err"; then fa_pass "$1: sh -n"
	else fa_fail "$1: sh -n: $(head -n 3 "$T/sh.err" | tr '\n' ' ')"; fi
	if command -v bash >/dev/null 2>&1; then
		if bash -n "$2" 2>"$T/sh.err"; then fa_pass "$1: bash -n"
		else fa_fail "$1: bash -n: $(head -n 3 "$T/sh.err" | tr '\n' ' ')"
		fi
	fi
	if command -v shellcheck >/dev/null 2>&1; then
		if shellcheck -s sh -S warning "$2" >"$T/sc.out" 2>&1; then
			fa_pass "$1: shellcheck"
		else
			fa_fail "$1: shellcheck: $(grep -m 3 'SC[0-9]' "$T/sc.out" |
			    tr '\n' ' ')"
		fi
	fi
}
command -v shellcheck >/dev/null 2>&1 ||
    echo "NOTE: shellcheck is unavailable: shell checked with sh -n only"

nscripts=0
for f in $(find "$D" -type f | sort); do
	case $f in
	*.sbatch|*.sh) ;;
	*) head -n 1 "$f" | grep -q '^#!.*sh' || continue ;;
	esac
	nscripts=$((nscripts + 1))
	check_sh "$f" "$f"
done
expect_eq "deploy/ has shell scripts to check" "$([ "$nscripts" -ge 1 ] &&
    echo yes)" yes
grep '^SCRIPT: ' "$T/py.out" | while read -r _ name file; do
	# Embedded snippets: syntax only (shellcheck would flag the YAML's
	# own variables as unassigned).
	if sh -n "$file" 2>"$T/sh.err"; then echo "PASS: $name: sh -n"
	else echo "FAIL: $name: sh -n: $(head -n 3 "$T/sh.err" | tr '\n' ' ')"
	fi
done >"$T/emb.out"
cat "$T/emb.out"
FA_FAILS=$((FA_FAILS + $(grep -c '^FAIL: ' "$T/emb.out")))
expect_eq "embedded shell found in the YAML and cron files" \
    "$(grep -c '^PASS: ' "$T/emb.out" | awk '{ print ($1 >= 2) }')" 1

S=$D/slurm/fabaudit-cluster.sbatch
expect_grep "sbatch script has #SBATCH lines" '^#SBATCH --' "$S"
expect_grep "sbatch script asks one task per node" \
    '^#SBATCH --ntasks-per-node=1$' "$S"
# sbatch reads #SBATCH only before the first command.
first_cmd=$(grep -n -v -e '^#' -e '^[[:space:]]*$' "$S" | head -n 1 |
    cut -d: -f1)
last_sb=$(grep -n '^#SBATCH' "$S" | tail -n 1 | cut -d: -f1)
expect_eq "every #SBATCH line comes before the first command" \
    "$([ "${last_sb:-0}" -lt "${first_cmd:-0}" ] && echo yes)" yes
expect_grep "sbatch script runs with set -eu" '^set -eu$' "$S"
# The per-node task is a string given to sh -c: check it on its own.
sed -n "/^node_task='/,/^'/p" "$S" | sed '1d;$d' >"$T/node_task.sh"
expect_eq "sbatch per-node task extracted" \
    "$(grep -c 'scan' "$T/node_task.sh" | awk '{ print ($1 >= 1) }')" 1
check_sh "sbatch per-node task" "$T/node_task.sh"

# ---------------------------------------------------------------------------
# The Kubernetes manifests against the Kubernetes API schema, offline: the
# model classes of Debian's python3-kubernetes (generated from the
# Kubernetes OpenAPI specification) give every field's name and type
# (tests/report/k8s_schema.py).  Then the same check must refuse a
# misspelt field, a wrong type and a missing required field.
K8S="/usr/bin/python3 tests/report/k8s_schema.py"
if ! /usr/bin/python3 -c 'import kubernetes.client' 2>/dev/null; then
	fa_fail "Debian's python3-kubernetes is needed (make deps installs it)"
else
	for f in "$D"/kubernetes/*.yaml; do
		if $K8S "$f" >"$T/k8s.out" 2>&1; then
			fa_pass "$f: valid against the Kubernetes API schema"
		else
			fa_fail "$f: $(grep ERROR "$T/k8s.out" | head -n 3 |
			    tr '\n' ' ')"
		fi
		grep '^NEWER: ' "$T/k8s.out" || :
	done
	W=$D/kubernetes/workload-view.yaml
	sed 's/^\( *\)restartPolicy:/\1restartPolicyy:/' "$W" >"$T/k8s-1.yaml"
	$K8S "$T/k8s-1.yaml" >"$T/k8s-1.out" 2>&1
	expect_eq "k8s schema: a misspelt field fails" "$?" 1
	expect_grep "... naming it" \
	    "spec.template.spec.restartPolicyy: no such field in V1PodSpec" \
	    "$T/k8s-1.out"
	sed 's/backoffLimit: 0$/backoffLimit: "0"/' "$W" >"$T/k8s-2.yaml"
	$K8S "$T/k8s-2.yaml" >"$T/k8s-2.out" 2>&1
	expect_eq "k8s schema: a string for an integer fails" "$?" 1
	expect_grep "... naming it" "spec.backoffLimit: '0' is not of type int" \
	    "$T/k8s-2.out"
	/usr/bin/python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
del d["spec"]["template"]["spec"]["containers"]
yaml.safe_dump(d, open(sys.argv[2], "w"))' "$W" "$T/k8s-3.yaml"
	$K8S "$T/k8s-3.yaml" >"$T/k8s-3.out" 2>&1
	expect_eq "k8s schema: a missing required field fails" "$?" 1
	expect_grep "... naming it" "containers., must not be .None" \
	    "$T/k8s-3.out"
	sed 's/recursiveReadOnly: IfPossible/recursiveReadOnly: Always/' \
	    "$D/kubernetes/daemonset-node.yaml" >"$T/k8s-4.yaml"
	$K8S "$T/k8s-4.yaml" >"$T/k8s-4.out" 2>&1
	expect_eq "k8s schema: a bad value of a newer field fails" "$?" 1
fi

# ---------------------------------------------------------------------------
# systemd units.
U=$D/systemd
# ini_ok FILE: sections and Key=value lines only, known sections; a line
# ending in a backslash continues on the next.
ini_ok() {
	awk '
	cont { cont = /\\$/; next }
	/^[[:space:]]*([#;].*)?$/ { next }
	/^\[(Unit|Service|Timer|Install)\]$/ { sec = 1; next }
	/^\[/ { print FILENAME ":" NR ": unknown section " $0; bad = 1; next }
	!sec { print FILENAME ":" NR ": key before any section"; bad = 1; next }
	!/^[A-Za-z][A-Za-z0-9]*=/ { print FILENAME ":" NR ": not Key=value: " $0
	    bad = 1 }
	{ cont = /\\$/ }
	END { exit bad }' "$1"
}
for f in "$U/fabaudit.service" "$U/fabaudit.timer"; do
	if ini_ok "$f" >"$T/ini.out"; then fa_pass "$f: INI sections and keys"
	else fa_fail "$f: $(head -n 3 "$T/ini.out" | tr '\n' ' ')"; fi
done
printf '[Service]\nExecStart /bin/true\n' >"$T/bad.service"
expect_eq "INI check rejects a line without =" \
    "$(ini_ok "$T/bad.service" >/dev/null && echo accepted || echo rejected)" \
    rejected

if command -v systemd-analyze >/dev/null 2>&1; then
	# verify needs ExecStart's binary to exist: point it at the build.
	mkdir "$T/units"
	sed "s#/usr/local/bin/fabaudit#$FA#" "$U/fabaudit.service" \
	    >"$T/units/fabaudit.service"
	cp "$U/fabaudit.timer" "$T/units/fabaudit.timer"
	# verify exits 0 on unknown keys: any message about our units fails.
	systemd-analyze verify --man=no "$T/units/fabaudit.service" \
	    "$T/units/fabaudit.timer" >"$T/sa.out" 2>&1
	sa_rc=$?
	if [ "$sa_rc" -eq 0 ] && ! grep -q 'fabaudit' "$T/sa.out"; then
		fa_pass "systemd-analyze verify fabaudit.service fabaudit.timer"
	else
		fa_fail "systemd-analyze verify (status $sa_rc): $(head -n 5 \
		    "$T/sa.out" | tr '\n' ' ')"
	fi
	# The same check catches a misspelt key.
	mkdir "$T/units-bad"
	sed 's/^ProtectSystem=/ProtectSystems=/' "$T/units/fabaudit.service" \
	    >"$T/units-bad/fabaudit.service"
	systemd-analyze verify --man=no "$T/units-bad/fabaudit.service" \
	    >"$T/sa-bad.out" 2>&1
	expect_grep "systemd-analyze verify reports a misspelt key" \
	    "Unknown key.*ProtectSystems" "$T/sa-bad.out"
else
	echo "NOTE: systemd-analyze is unavailable: the units were checked" \
	    "for INI syntax only, not verified"
fi
SV=$U/fabaudit.service
TM=$U/fabaudit.timer
expect_grep "service is a oneshot" '^Type=oneshot$' "$SV"
expect_grep "service: ProtectSystem=strict" '^ProtectSystem=strict$' "$SV"
expect_grep "service: history dir writable (StateDirectory=fabaudit)" \
    '^StateDirectory=fabaudit$' "$SV"
expect_grep "service: metrics dir writable" \
    '^ReadWritePaths=.*/var/lib/prometheus/node-exporter' "$SV"
expect_grep "service: the umad devices are allowed" \
    '^DeviceAllow=char-infiniband_mad rw$' "$SV"
expect_grep "service: capabilities bounded to CAP_NET_RAW/NET_ADMIN" \
    '^CapabilityBoundingSet=CAP_NET_RAW( CAP_NET_ADMIN)?$' "$SV"
expect_grep "service: idle I/O class" '^IOSchedulingClass=idle$' "$SV"
expect_grep "service: Nice" '^Nice=1[0-9]$' "$SV"
# The ExecStart line, its continuations joined.
sed -n '/^ExecStart=/,/[^\\]$/p' "$SV" | sed 's/\\$//' | tr -s '\n ' '  ' \
    >"$T/execstart"
expect_grep "service: history, quiet, metrics, syslog, sign" \
    "^ExecStart=.* --history /var/lib/fabaudit/history .*--quiet .*\
--metrics .*--syslog .*--sign " "$T/execstart"
expect_grep "timer: Persistent=true" '^Persistent=true$' "$TM"
expect_grep "timer: RandomizedDelaySec" '^RandomizedDelaySec=' "$TM"
expect_grep "timer: OnCalendar" '^OnCalendar=' "$TM"

# ---------------------------------------------------------------------------
# The service's own command, run for real on this machine, with its paths
# moved into $T: the families become the loopback interface (listened on
# for 1 s) and the host, and --syslog is left out so that the test writes
# nothing to this machine's log.  A second run finds nothing new, so
# --quiet must keep it silent with status 0; a run while another holds the
# lock must exit 3.
R=$T/run
mkdir -p "$R/metrics"
printf 'tenant_node test-*\n' >"$R/policy.conf"
openssl genpkey -algorithm ed25519 -out "$R/signing.pem" 2>/dev/null ||
    fa_fail "openssl could not make a test signing key"
set -f
# shellcheck disable=SC2046 # split into words on purpose
set -- $(sed 's/^ExecStart=//' "$T/execstart")
set +f
for a do
	shift
	case $a in
	/usr/local/bin/fabaudit) set -- "$@" "$FA" ;;
	'$FABAUDIT_FAMILIES') set -- "$@" --eth=lo --listen 1 --host ;;
	/etc/fabaudit/fabaudit.conf) set -- "$@" "$R/policy.conf" ;;
	/var/lib/fabaudit/history) set -- "$@" "$R/history" ;;
	/var/lib/prometheus/node-exporter/fabaudit.prom)
		set -- "$@" "$R/metrics/fabaudit.prom" ;;
	/etc/fabaudit/signing.pem) set -- "$@" "$R/signing.pem" ;;
	--syslog) ;;
	*) set -- "$@" "$a" ;;
	esac
done
case " $* " in
*" /etc/"*|*" /var/"*|*" /usr/"*)
	fa_fail "service command: a path was not moved into the test dir: $*" ;;
*)
	"$@" >"$R/out1" 2>"$R/err1"
	rc1=$?
	expect_eq "service command: first run works (exit 0 or 1)" \
	    "$(case $rc1 in 0|1) echo yes ;; *) echo "$rc1: $(head -n 2 \
	    "$R/err1" | tr '\n' ' ')" ;; esac)" yes
	"$@" >"$R/out2" 2>"$R/err2"
	rc2=$?
	expect_eq "service command: second run, nothing new, exits 0" "$rc2" 0
	expect_eq "service command: --quiet keeps the second run silent" \
	    "$(wc -c <"$R/out2" | tr -d ' ')" 0
	expect_eq "service command: two runs kept in the history" \
	    "$(find "$R/history" -mindepth 1 -maxdepth 1 -type d \
	    -name '[0-9]*T[0-9]*Z' | grep -c .)" 2
	expect_eq "service command: history/latest has report.json" \
	    "$(test -L "$R/history/latest" &&
	    test -s "$R/history/latest/report.json" && echo yes)" yes
	expect_eq "service command: the run is signed (SHA256SUMS)" \
	    "$(test -s "$R/history/latest/SHA256SUMS" && echo yes)" yes
	expect_eq "service command: metrics file readable by node_exporter" \
	    "$(ls -l "$R/metrics/fabaudit.prom" 2>/dev/null | cut -c1-10)" \
	    -rw-r--r--
	# Overlap: hold the lock as another run would.
	flock "$R/history/.lock" sh -c ': >"$1"; sleep 30' sh "$R/held" &
	holder=$!
	i=0
	while [ ! -e "$R/held" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$@" >"$R/out3" 2>"$R/err3"
	expect_eq "service command: a run while the lock is held exits 3" \
	    "$?" 3
	expect_grep "service command: ... and says so" 'lock' "$R/err3"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	;;
esac


# ---------------------------------------------------------------------------
# The Slurm script, end to end, against stand-ins: srun runs its command
# once per node of FAKE_NODES (or of --nodelist) with SLURMD_NODENAME set,
# except FAKE_DEAD nodes, where the task never runs; scontrol lists
# FAKE_NODES.  The fabaudit stand-in logs every call, turns a scan into
# `fabaudit check` of the careless-provider snapshot with the node as
# scan.host (FAKE_BROKEN nodes' scans fail with status 3) and runs the real
# merge, or exits with
# FAKE_MERGE_RC instead when it is set.
mkdir "$T/bin"
cat >"$T/bin/srun" <<'EOF'
#!/bin/sh
nodes=$FAKE_NODES
while [ "$#" -gt 0 ]; do
	case $1 in
	--nodelist=*) nodes=${1#--nodelist=} ;;
	-w) nodes=$2; shift ;;
	-*) ;;
	*) break ;;
	esac
	shift
done
rc=0
for n in $nodes; do
	case " ${FAKE_DEAD:-} " in *" $n "*) rc=1; continue ;; esac
	SLURMD_NODENAME=$n "$@"
	r=$?
	[ "$r" -le "$rc" ] || rc=$r
done
exit "$rc"
EOF
cat >"$T/bin/scontrol" <<'EOF'
#!/bin/sh
[ "$1 $2" = "show hostnames" ] || exit 1
for n in $FAKE_NODES; do echo "$n"; done
EOF
cat >"$T/bin/fabaudit-stub" <<EOF
#!/bin/sh
echo "\${SLURMD_NODENAME:-batch} \$*" >>"\$FAKE_LOG"
case \$1 in
scan)
	case " \${FAKE_BROKEN:-} " in *" \$SLURMD_NODENAME "*)
		echo "fabaudit: cannot open the umad device" >&2; exit 3 ;; esac
	while [ "\$#" -gt 0 ]; do
		[ "\$1" = -o ] && out=\$2
		shift
	done
	"$FA" check -q -o "\$out" "$SNAP"
	rc=\$?
	# One host per node, as real scans would have: merge refuses two
	# reports of the same scan.
	jq --arg h "\$SLURMD_NODENAME" '.scan.host = \$h' "\$out/report.json" \
	    >"\$out/report.json.tmp" && mv "\$out/report.json.tmp" \
	    "\$out/report.json" || exit 99
	exit "\$rc" ;;
merge)
	[ -z "\${FAKE_MERGE_RC:-}" ] || exit "\$FAKE_MERGE_RC"
	exec "$FA" "\$@" ;;
*)	exec "$FA" "\$@" ;;
esac
EOF
chmod +x "$T/bin/srun" "$T/bin/scontrol" "$T/bin/fabaudit-stub"

# run_sbatch NAME [VAR=value...]: run the script as job 42 submitted from
# $T/NAME; its status in $T/NAME.rc, standard error in $T/NAME.err.
run_sbatch() {
	_n=$1
	shift
	mkdir -p "$T/$_n"
	env PATH="$T/bin:$PATH" SLURM_JOB_ID=42 SLURM_JOB_NODELIST='n[1-3]' \
	    SLURM_SUBMIT_DIR="$T/$_n" FABAUDIT="$T/bin/fabaudit-stub" \
	    FAKE_NODES="n1 n2 n3" FAKE_LOG="$T/$_n.log" "$@" \
	    sh "$S" >"$T/$_n.out" 2>"$T/$_n.err"
	echo "$?" >"$T/$_n.rc"
}
# merge_rc FILE...: what the real merge answers for these reports, with
# the script's default threshold (or MERGE_FAIL_ON's).
merge_rc() {
	"$FA" merge -f json,txt,html --fail-on "${MERGE_FAIL_ON:-none}" -q \
	    -o "$T/m$$" "$@" >/dev/null 2>&1
	_r=$?
	rm -rf "$T/m$$"
	echo "$_r"
}

# 1. Every node scans: the exit status is the merge's, unchanged.
run_sbatch all
O=$T/all/fabaudit-42
for n in n1 n2 n3; do
	expect_eq "sbatch: $n wrote its report" \
	    "$(test -s "$O/nodes/$n/report.json" && echo yes)" yes
done
want=$(merge_rc "$O/nodes/n1/report.json" "$O/nodes/n2/report.json" \
    "$O/nodes/n3/report.json")
expect_eq "sbatch: exit status is the merge's ($want)" "$(cat "$T/all.rc")" \
    "$want"
expect_eq "sbatch: an audit that found failures succeeds by default" \
    "$(cat "$T/all.rc") $(MERGE_FAIL_ON=high merge_rc \
    "$O/nodes/n1/report.json")" "0 1"
expect_grep "sbatch: ... with --fail-on none on the merge" \
    '^batch merge .*--fail-on none ' "$T/all.log"
run_sbatch high FABAUDIT_FAIL_ON=high
expect_eq "sbatch: FABAUDIT_FAIL_ON=high fails the job on them" \
    "$(cat "$T/high.rc")" 1
expect_eq "sbatch: no failed node listed" \
    "$(wc -c <"$O/failed-nodes" | tr -d ' ')" 0
expect_eq "sbatch: --ib on the first node only" \
    "$(grep ' scan ' "$T/all.log" | grep -c -- ' --ib ')" 1
expect_grep "sbatch: the first node is the IB walker" '^n1 scan --ib ' \
    "$T/all.log"
expect_eq "sbatch: every node scans --eth --host" \
    "$(grep ' scan ' "$T/all.log" | grep -c -- ' --eth --host ')" 3
N=$O/nodes
expect_grep "sbatch: merge of the three reports into cluster/" \
    "^batch merge .* -o $O/cluster $N/n1/report.json $N/n2/report.json \
$N/n3/report.json\$" "$T/all.log"

# 2. One node's scan fails: it is named, and the job is incomplete (3)
# unless the merge itself failed.
run_sbatch broken FAKE_BROKEN=n2
O=$T/broken/fabaudit-42
expect_grep "sbatch: failed node named on stderr" \
    'n2: its scan failed with exit status 3' "$T/broken.err"
expect_grep "sbatch: failed node listed in failed-nodes" \
    '^n2	failed	its scan failed with exit status 3 \(see .*n2.log on n2\)$' \
    "$O/failed-nodes"
expect_grep "sbatch: says the cluster report is incomplete" \
    'INCOMPLETE: 1 node' "$T/broken.err"
expect_nogrep "sbatch: failed node's report not merged" \
    "nodes/n2/report.json" "$T/broken.log"
expect_grep "sbatch: the other nodes are merged" \
    "merge .*nodes/n1/report.json $O/nodes/n3/report.json\$" "$T/broken.log"
m=$(merge_rc "$O/nodes/n1/report.json" "$O/nodes/n3/report.json")
[ "$m" -ge 2 ] && want=$m || want=3
expect_eq "sbatch: incomplete cluster exits $want (merge: $m)" \
    "$(cat "$T/broken.rc")" "$want"

# The merge's own status, whatever it is, is what the job exits with when
# every node reported; a missing node turns 0 and 1 into 3, not 2.
for m in 0 1 2 130; do
	run_sbatch "merge$m" FAKE_MERGE_RC=$m
	expect_eq "sbatch: merge status $m is passed on" \
	    "$(cat "$T/merge$m.rc")" "$m"
done
for m in 0 1 2; do
	run_sbatch "brokenmerge$m" FAKE_MERGE_RC=$m FAKE_BROKEN=n3
	[ "$m" -ge 2 ] && want=$m || want=3
	expect_eq "sbatch: merge status $m with a failed node gives $want" \
	    "$(cat "$T/brokenmerge$m.rc")" "$want"
done

# 3. A node whose task never ran is reported too.
run_sbatch dead FAKE_DEAD=n3
expect_grep "sbatch: a node that never ran is named" \
    'n3: no exit status' "$T/dead.err"
expect_grep "sbatch: srun's failure is mentioned" 'srun exited with status' \
    "$T/dead.err"

# 4. Node-local directories: reports are copied back through srun.
run_sbatch local FABAUDIT_NODE_DIR="$T/local-nodes"
O=$T/local/fabaudit-42
expect_eq "sbatch: node-local reports copied back" \
    "$(cmp -s "$T/local-nodes/n2/report.json" "$O/nodes/n2/report.json" &&
    echo yes)" yes
expect_eq "sbatch: node-local statuses copied back" \
    "$(cat "$O/nodes/n3.status" 2>/dev/null)" 1

# 5. No node at all produced a report: exit 3, and still a cluster
# report, naming the three nodes as failed.
run_sbatch none FAKE_BROKEN="n1 n2 n3"
expect_eq "sbatch: nothing scanned exits 3" "$(cat "$T/none.rc")" 3
expect_eq "sbatch: ... with a cluster report of 3 failed nodes" \
    "$(jq -r '.merged.accounting | "\(.expected) \(.scanned) \(.failed)"' \
    "$T/none/fabaudit-42/cluster/report.json")" "3 0 3"

# 6. Outside Slurm it refuses to start.
env -u SLURM_JOB_ID sh "$S" >/dev/null 2>"$T/nojob.err"
expect_eq "sbatch: refuses to run outside a job" \
    "$(grep -c 'not inside a Slurm job' "$T/nojob.err")" 1

# ---------------------------------------------------------------------------
# The DaemonSet's loop, run with stand-ins: date says 03:00:00 UTC, so the
# first sleep must last until 02:17 the next day; the second sleep stands
# for a pod shutdown (SIGTERM to the shell), which must end it with 0.
ds=$(sed -n 's/^SCRIPT: .*daemonset-node.yaml \(.*\)/\1/p' "$T/py.out")
mkdir "$T/dsbin"
cat >"$T/dsbin/date" <<'EOF'
#!/bin/sh
echo $((20000 * 86400 + 3 * 3600))
EOF
cat >"$T/dsbin/sleep" <<'EOF'
#!/bin/sh
echo "sleep $*" >>"$DS_LOG"
[ "$(grep -c '^sleep' "$DS_LOG")" -lt 2 ] || kill -TERM "$PPID"
EOF
cat >"$T/dsbin/fabaudit" <<'EOF'
#!/bin/sh
echo "fabaudit $*" >>"$DS_LOG"
if [ -n "${DS_TERM_IN_SCAN:-}" ]; then
	trap 'echo "scan got SIGTERM" >>"$DS_LOG"; exit 143' TERM
	kill -TERM "$PPID"
	while :; do /bin/sleep 0.1; done
fi
exit "$DS_RC"
EOF
chmod +x "$T/dsbin/date" "$T/dsbin/sleep" "$T/dsbin/fabaudit"
# run_ds NAME [VAR=value...]: the loop's status in $T/NAME.rc.
run_ds() {
	_n=$1
	shift
	env PATH="$T/dsbin:$PATH" DS_LOG="$T/$_n.log" NODE_NAME=gpu-007 \
	    FABAUDIT_HOUR=2 FABAUDIT_MINUTE=17 DS_RC=1 "$@" \
	    timeout 30 sh "$ds" >"$T/$_n.out" 2>"$T/$_n.err"
	echo "$?" >"$T/$_n.rc"
}
if [ -n "$ds" ] && [ -f "$ds" ]; then
	run_ds ds
	expect_eq "daemonset loop: first sleep lasts until 02:17 UTC" \
	    "$(sed -n 1p "$T/ds.log")" "sleep $((23 * 3600 + 17 * 60))"
	expect_grep "daemonset loop: scans --eth --host=/host with history" \
	    '^fabaudit scan --eth --host=/host .*--history '\
'/var/lib/fabaudit/history .*--quiet' "$T/ds.log"
	expect_grep "daemonset loop: new failures are logged with the node" \
	    'gpu-007: new failures' "$T/ds.err"
	expect_eq "daemonset loop: SIGTERM while asleep ends it with 0" \
	    "$(cat "$T/ds.rc")" 0
	run_ds dsbroken DS_RC=3
	expect_grep "daemonset loop: a scan that could not run is logged" \
	    'gpu-007: the scan could not run \(exit status 3\)' "$T/dsbroken.err"
	run_ds dsterm DS_TERM_IN_SCAN=1
	expect_grep "daemonset loop: SIGTERM is passed on to a running scan" \
	    '^scan got SIGTERM$' "$T/dsterm.log"
	expect_eq "daemonset loop: SIGTERM during a scan ends it with 0" \
	    "$(cat "$T/dsterm.rc")" 0
else
	fa_fail "daemonset loop: its shell script was not found"
fi

fa_done
