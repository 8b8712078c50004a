#!/usr/bin/python3
"""Validates dlsize JSON files against docs/*.schema.json, picking each file's schema by its
`schema` field (dlsize.report/1 -> docs/report.schema.json). Needs python3-jsonschema (Debian's
4.10 is enough). Exit 0 when every file is valid, 1 when one is not, 2 when one cannot be read
or names no known schema.

    scripts/validate_json.py FILE...            # each must be valid; errors are printed
    scripts/validate_json.py --invalid FILE...  # each must be refused (tests of broken copies)
    scripts/validate_json.py --list DIR         # the dlsize documents under DIR, NUL-separated,
                                                # leaving out folders named broken*
"""
import json
import os
import sys

import jsonschema
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
SCHEMAS = {"dlsize.report/1": "report", "dlsize.compare/1": "compare", "dlsize.sizing/1": "sizing",
           "dlsize.plan/1": "plan", "dlsize.sweep/1": "sweep",
           "dlsize.calibration/1": "calibration", "dlsize.workload/1": "workload",
           "dlsize.dataset/1": "manifest", "dlsize.checkpoint/1": "checkpoint-manifest",
           "dlsize.allreduce-calibration/1": "allreduce-calibration",
           "dlsize.s3-datagen-journal/1": "s3-datagen-journal"}


def validator(name, cache={}):
    if name not in cache:
        with open(os.path.join(DOCS, name + ".schema.json")) as f:
            schema = json.load(f)
        cls = validator_for(schema)
        cls.check_schema(schema)
        cache[name] = cls(schema)
    return cache[name]


def dlsize_documents(top):
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("broken"))
        for name in sorted(files):
            path = os.path.join(root, name)
            if not name.endswith(".json"):
                continue
            try:
                with open(path) as f:
                    doc = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and doc.get("schema") in SCHEMAS:
                yield path


def main(argv):
    if argv and argv[0] == "--list":
        sys.stdout.write("".join(p + "\0" for p in dlsize_documents(argv[1])))
        return 0
    want_valid = True
    if argv and argv[0] == "--invalid":
        want_valid, argv = False, argv[1:]
    rc = 0
    for path in argv:
        try:
            with open(path) as f:
                doc = json.load(f)
            name = SCHEMAS[doc.get("schema")] if isinstance(doc, dict) else None
            if name is None:
                raise KeyError(doc.get("schema") if isinstance(doc, dict) else "not an object")
        except (OSError, ValueError, KeyError) as e:
            print(f"{path}: cannot validate: {e!r}")
            return 2
        # A oneOf error (which kind of report) is told by its most relevant branch error.
        errors = [best_match([e]) for e in validator(name).iter_errors(doc)]
        errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
        if want_valid:
            for e in errors[:20]:
                print(f"{path}: /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
            rc |= 1 if errors else 0
        elif errors:
            print(f"{path}: refused: /{'/'.join(map(str, errors[0].absolute_path))}: "
                  f"{errors[0].message[:200]}")
        else:
            print(f"{path}: accepted, but should have been refused")
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
