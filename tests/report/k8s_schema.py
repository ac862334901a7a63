#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validate Kubernetes manifests offline against the Kubernetes API schema.

The schema is the one Debian's python3-kubernetes carries: each API model
class (kubernetes.client.V1DaemonSet, ...) is generated from the Kubernetes
OpenAPI specification and declares its fields' JSON names (attribute_map)
and types (openapi_types).  Every field of every object must be one the
schema declares, with a value of its type; the client's own deserializer
then enforces the fields the schema requires.  A misspelt or misplaced
field, or a value of the wrong type, is an error naming its path.

usage: k8s_schema.py FILE.yaml...   (exit 0: valid, 1: errors, 2: usage)
"""
import re
import sys

import yaml
import kubernetes
import kubernetes.client as k8s

# Fields newer than the schema python3-kubernetes 22.6 carries (Kubernetes
# 1.22), which the manifests use and say so: their type (and values) as
# the Kubernetes API reference gives them, and the release that added
# them.  Reported as such, so that nobody takes them for schema-checked.
NEWER = {
    "V1CronJobSpec": {
        "timeZone": ("str", None, "Kubernetes 1.27 (GA; KEP-3140)"),
    },
    "V1VolumeMount": {
        "recursiveReadOnly": ("str", {"Disabled", "IfPossible", "Enabled"},
                              "Kubernetes 1.30 (alpha), 1.31 (beta; "
                              "KEP-3857)"),
    },
}
newer_seen = []

# IntOrString, Quantity and RawExtension are "object" or "str" in the
# client; Kubernetes accepts a number for a Quantity (resources).
QUANTITY_PARENTS = {"V1ResourceRequirements"}


def check(value, typ, path, errors, parent=None):
    """Append to errors every way value is not of schema type typ."""
    m = re.fullmatch(r"list\[(.+)\]", typ)
    if m:
        if not isinstance(value, list):
            errors.append("%s: a list is expected (%s)" % (path, typ))
            return
        for i, v in enumerate(value):
            check(v, m.group(1), "%s[%d]" % (path, i), errors, parent)
        return
    m = re.fullmatch(r"dict\(str, (.+)\)", typ)
    if m:
        if not isinstance(value, dict):
            errors.append("%s: a map is expected (%s)" % (path, typ))
            return
        for k, v in value.items():
            if not isinstance(k, str):
                errors.append("%s: key %r is not a string" % (path, k))
            check(v, m.group(1), "%s.%s" % (path, k), errors, parent)
        return
    if typ == "object":
        return
    if typ in ("str", "datetime", "date"):
        ok = isinstance(value, str) or (
            parent in QUANTITY_PARENTS and isinstance(value, (int, float))
            and not isinstance(value, bool))
    elif typ == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif typ == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif typ == "bool":
        ok = isinstance(value, bool)
    else:
        cls = getattr(k8s, typ, None)
        if cls is None:
            errors.append("%s: unknown schema type %s" % (path, typ))
            return
        if not isinstance(value, dict):
            errors.append("%s: an object is expected (%s)" % (path, typ))
            return
        by_json = {j: a for a, j in cls.attribute_map.items()}
        for k, v in value.items():
            if k not in by_json and k in NEWER.get(typ, {}):
                t, allowed, since = NEWER[typ][k]
                check(v, t, "%s.%s" % (path, k), errors, typ)
                if allowed is not None and v not in allowed:
                    errors.append("%s.%s: %r is not one of %s" % (
                        path, k, v, ", ".join(sorted(allowed))))
                newer_seen.append("%s.%s (%s)" % (path, k, since))
                continue
            if k not in by_json:
                errors.append("%s.%s: no such field in %s" % (path, k, typ))
                continue
            if v is None:
                continue
            check(v, cls.openapi_types[by_json[k]], "%s.%s" % (path, k),
                  errors, typ)
        return
    if not ok:
        errors.append("%s: %r is not of type %s" % (path, value, typ))


def model_for(doc):
    """The model class name of a document: apps/v1 DaemonSet -> V1DaemonSet."""
    version = str(doc.get("apiVersion", "")).split("/")[-1]
    kind = str(doc.get("kind", ""))
    name = version[:1].upper() + version[1:] + kind
    return name if getattr(k8s, name, None) is not None else None


def validate(path):
    errors = []
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if not docs:
        return ["%s: no Kubernetes object" % path]
    api = k8s.ApiClient()
    for i, doc in enumerate(docs):
        where = "%s[%d]" % (path, i)
        if not isinstance(doc, dict):
            errors.append("%s: not an object" % where)
            continue
        typ = model_for(doc)
        if typ is None:
            errors.append("%s: %s %s is not in the schema" % (
                where, doc.get("apiVersion"), doc.get("kind")))
            continue
        where = "%s %s/%s" % (where, doc.get("kind"),
                              doc.get("metadata", {}).get("name", "?"))
        before = len(errors)
        check(doc, typ, where, errors)
        if len(errors) > before:
            continue
        try:   # required fields, as the client's constructors enforce them
            api._ApiClient__deserialize(doc, typ)
        except (ValueError, TypeError) as e:
            errors.append("%s: %s" % (where, e))
    return errors


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bad = 0
    for p in argv[1:]:
        errs = validate(p)
        for e in errs:
            print("ERROR: " + e)
        if not errs:
            print("OK: %s (Kubernetes API schema of python3-kubernetes %s)"
                  % (p, kubernetes.__version__))
        for n in newer_seen:
            print("NEWER: %s: newer than that schema, checked against the "
                  "table in k8s_schema.py" % n)
        del newer_seen[:]
        bad += len(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
