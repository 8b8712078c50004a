#!/usr/bin/env bash
# labels: lint
# Paths the project names stay true: every row of docs/architecture.md's "Where is…" table names
# files that exist and hold the row's symbol, each function of docs/metrics.md's formula table is
# in the file its row names, scripts/README.md groups every script, every unit test file is named
# after a file of src/ or cli/, and every repository path
# named in README.md, docs/*.md and the comments of src/, cli/, scripts/ and tests/ exists (a path may name a file
# without its extension, or the start of several). A few names are not ours (a file of
# mlcommons/storage or NCCL) or stand for any file in an example message; the set `foreign` names them.
source "$(dirname "$0")/lib.sh"
out=$("$PY" - "$ROOT" <<'PY'
import glob, os, re, sys
root = sys.argv[1]
os.chdir(root)
problems = []
def table_rows(doc, heading):
    """The rows of the table under heading in doc that name something in backticks."""
    section = open(doc).read().split(heading, 1)
    if len(section) < 2:
        problems.append(f"{doc} has no '{heading}' section")
        return []
    return [[c.strip() for c in l.strip("|").split("|")]
            for l in section[1].split("\n## ", 1)[0].splitlines() if l.startswith("| ") and "`" in l]

def holds(files, name):
    return any(os.path.isfile(f) and re.search(r"\b" + re.escape(name) + r"\b", open(f).read()) for f in files)

# The "Where is…" table.
rows = table_rows("docs/architecture.md", "## Where is…")
if len(rows) < 10:
    problems.append(f"the Where is table has {len(rows)} rows")
for cells in rows:
    files = re.findall(r"`([^`]+)`", cells[1])
    symbol = re.findall(r"`([^`]+)`", cells[2])
    for f in files:
        if not os.path.isfile(f):
            problems.append(f"Where is: {f} does not exist")
    if symbol and files and not holds(files, symbol[0].split("::")[-1]):
        problems.append(f"Where is: {symbol[0]} not in {', '.join(files)}")
# docs/metrics.md's formula table: each row's function is in the file it names.
for cells in table_rows("docs/metrics.md", "## Formulas, in one place"):
    names = re.findall(r"`([^`]+)`", cells[-1])
    files = [n for n in names if "/" in n]
    for name in (n for n in names if "/" not in n):
        if not holds(files, name):
            problems.append(f"metrics.md formulas: {name} not in {', '.join(files)}")
# scripts/README.md groups every script by purpose, and names only scripts that exist.
listed = set(re.findall(r"`([\w.-]+\.(?:sh|py))`", open("scripts/README.md").read()))
present = {f for f in os.listdir("scripts") if f.endswith((".sh", ".py"))}
for f in sorted(present - listed):
    problems.append(f"scripts/README.md does not group scripts/{f}")
for f in sorted(listed - present):
    problems.append(f"scripts/README.md names scripts/{f}, which does not exist")
# Unit tests are named after the file they test: tests/unit/test_X.cpp for src/D/X or cli/X, or
# test_D_X.cpp where the stem alone is ambiguous (test_s3_client.cpp for src/s3/client.cpp).
stems = {os.path.splitext(os.path.basename(f))[0] for f in glob.glob("src/**/*.[ch]pp", recursive=True) + glob.glob("cli/*.cpp")}
stems |= {os.path.basename(os.path.dirname(f)) + "_" + os.path.splitext(os.path.basename(f))[0]
          for f in glob.glob("src/**/*.[ch]pp", recursive=True)}
for t in sorted(glob.glob("tests/unit/test_*.cpp")):
    name = os.path.basename(t)[len("test_"):-len(".cpp")]
    if name not in stems and name != "support":
        problems.append(f"{t} is named after no file of src/ or cli/ (valid: test_X.cpp for src/D/X.cpp, or test_D_X.cpp)")
# Paths named anywhere.
foreign = {"configs/dlio/workload", "cli/X", "src/D/X", "src/D/X.cpp", "tests/unit/test_X.cpp", "src/graph/tuning.cc", "src/FILE.cpp", "src/NAME", "src/href",
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
[[ -z $out ]] && pass "the Where is table, the formula table and every path named in docs and comments exist" \
  || fail "paths: $out"
finish
