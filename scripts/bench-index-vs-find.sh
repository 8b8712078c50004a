#!/usr/bin/env bash
# dlsize index against `find DIR -printf '%s\n'` on the same tree of small files, back to back,
# several runs each: find (names and sizes), `dlsize index --metadata-only` (the same metadata
# scan, several directory readers), and `dlsize index` (the metadata scan plus the content
# probes: each file opened and its first bytes read). Warm (page and dentry caches full) and,
# with COLD=1 as root, cold (`echo 3 > /proc/sys/vm/drop_caches` before every run). Prints
# medians of files/s and the ratios against find.
# Usage: scripts/bench-index-vs-find.sh [SCRATCH_DIR]   env: FILES (200000), RUNS (5),
#        THREADS (8), COLD (0)
set -euo pipefail
cd "$(dirname "$0")/.."
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
scratch=${1:-bench-data/index}
[[ -x $dlsize ]] || scripts/build.sh >/dev/null
mkdir -p "$scratch"
exec /usr/bin/python3 - "$dlsize" "$scratch" "${FILES:-200000}" "${RUNS:-5}" "${THREADS:-8}" "${COLD:-0}" <<'PYEOF'
import os, random, statistics, subprocess, sys, time

dlsize, scratch, files, runs, threads, cold = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
tree = os.path.join(scratch, "tree-%d" % files)
if not os.path.exists(os.path.join(tree, ".complete")):
    rnd = random.Random(16)
    for i in range(files):
        d = os.path.join(tree, "%03d" % (i // 1000))
        if i % 1000 == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "img%06d.jpg" % i), "wb") as f:
            # A JPEG start and frame header, so the content probe does a JPEG's work.
            f.write(b"\xff\xd8\xff\xc0\x00\x11\x08\x00\xe0\x01\x00\x03" + bytes(rnd.randint(100, 4000)))
    open(os.path.join(tree, ".complete"), "w").close()

def drop():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")

out = os.path.join(scratch, "index.json")
tools = {
    "find -printf '%s\\n'": lambda: subprocess.run(["find", tree, "-printf", "%s\n"], stdout=subprocess.DEVNULL, check=True),
    "dlsize index --metadata-only": lambda: subprocess.run([dlsize, "index", tree, "--out", out, "--quiet", "--metadata-only", "--threads", str(threads)], stdout=subprocess.DEVNULL, check=True),
    "dlsize index": lambda: subprocess.run([dlsize, "index", tree, "--out", out, "--quiet", "--threads", str(threads)], stdout=subprocess.DEVNULL, check=True),
}
modes = ["warm"] + (["cold"] if cold else [])
for mode in modes:
    times = {k: [] for k in tools}
    for name, run in tools.items():  # one warm-up, so "warm" means warm
        if mode == "warm":
            run()
            if os.path.exists(out):
                os.unlink(out)
    for r in range(runs):
        for name, run in tools.items():
            if mode == "cold":
                drop()
            t = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t)
            if os.path.exists(out):
                os.unlink(out)
    base = statistics.median(times["find -printf '%s\\n'"])
    print("\n%s, %d files, %d runs, --threads %d" % (mode, files, runs, threads))
    print("| tool | median s | files/s | runs (s) | files/s vs find |")
    print("|---|---|---|---|---|")
    for name, ts in times.items():
        m = statistics.median(ts)
        print("| `%s` | %.3f | %.0f | %s | %.2f |" % (name, m, files / m, ", ".join("%.2f" % x for x in ts), base / m))
PYEOF
