#!/usr/bin/env bash
# labels: lint
# Paths the project names stay true: every row of docs/architecture.md's "Where is…" table names
# files that exist and hold the row's symbol, and every repository path named in README.md,
# docs/*.md and the comments of src/, cli/, scripts/ and tests/ exists, and scripts/README.md groups
# every script (a path may name a file
# without its extension, or the start of several). A few names are not ours (a file of
# mlcommons/storage or NCCL) or placeholders; they are listed below.
source "$(dirname "$0")/lib.sh"
out=$("$PY" - "$ROOT" <<'PY'
import glob, os, re, sys
root = sys.argv[1]
os.chdir(root)
problems = []
# The "Where is…" table.
text = open("docs/architecture.md").read()
section = text.split("## Where is…", 1)
if len(section) < 2:
    problems.append("docs/architecture.md has no '## Where is…' section")
else:
    rows = [l for l in section[1].split("\n## ", 1)[0].splitlines() if l.startswith("| ") and "`" in l]
    if len(rows) < 10:
        problems.append(f"the Where is table has {len(rows)} rows")
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        files = re.findall(r"`([^`]+)`", cells[1])
        symbol = re.findall(r"`([^`]+)`", cells[2])
        for f in files:
            if not os.path.isfile(f):
                problems.append(f"Where is: {f} does not exist")
        if symbol and files:
            name = symbol[0].split("::")[-1]
            if not any(os.path.isfile(f) and re.search(r"\b" + re.escape(name) + r"\b", open(f).read()) for f in files):
                problems.append(f"Where is: {symbol[0]} not in {', '.join(files)}")
# scripts/README.md groups every script by purpose, and names only scripts that exist.
listed = set(re.findall(r"`([\w.-]+\.(?:sh|py))`", open("scripts/README.md").read()))
present = {f for f in os.listdir("scripts") if f.endswith((".sh", ".py"))}
for f in sorted(present - listed):
    problems.append(f"scripts/README.md does not group scripts/{f}")
for f in sorted(listed - present):
    problems.append(f"scripts/README.md names scripts/{f}, which does not exist")
# Paths named anywhere.
foreign = {"configs/dlio/workload", "src/graph/tuning.cc", "src/FILE.cpp", "src/NAME", "src/href",
           "workloads/x.json"}
sources = ["README.md"] + glob.glob("docs/*.md")
for d in ("src", "cli", "scripts", "tests"):
    sources += [f for f in glob.glob(d + "/**/*", recursive=True)
                if os.path.isfile(f) and f.endswith((".cpp", ".hpp", ".cu", ".sh", ".py", ".txt"))]
pattern = re.compile(r"(?<![\w/.$-])((?:src|cli|scripts|tests|configs|workloads|docs)/[\w./-]*\w)")
for f in sources:
    for m in pattern.finditer(open(f, errors="replace").read()):
        p = m.group(1)
        if p in foreign or os.path.exists(p) or glob.glob(glob.escape(p) + "*"):
            continue
        problems.append(f"{f} names {p}, which does not exist")
print("\n".join(sorted(set(problems))))
PY
)
[[ -z $out ]] && pass "the Where is table and every path named in docs and comments exist" \
  || fail "paths: $out"
finish
