#!/usr/bin/env bash
# labels: integration serial
# The buyer's answer on this machine's devices: tmpfs, read while a CPU burner holds the host,
# against an ext4 loop image read through a 600 MB/s blkio cap by an idle client, a sweep of 1
# to 8 emulated h100 on each, then size, compare and plan for 64, 128 and 256 accelerators.
# size's first table has one required figure per target, the same in plan's and compare's; tmpfs
# is "not determined" (its client was the limit) or holds, never "does not hold"; the capped
# image does not hold, its knee within one count of the cap's; the HTML's first chart (rendered
# by headless Chromium) draws both backends and no negative tick.
source "$(dirname "$0")/lib.sh"
source "$ROOT/scripts/loop_fs.sh"
burners=()
stop_burners() { ((${#burners[@]})) && kill "${burners[@]}" 2>/dev/null; wait 2>/dev/null; burners=(); }
shm=
trap 'stop_burners; remove_cgroups; unmount_made; rm -rf "$shm" "$SCRATCH"' EXIT
trap 'exit 130' INT TERM

[[ $(id -u) -eq 0 ]] || { echo "skip: a loop image and a blkio cgroup need root"; exit 77; }
[[ -d /dev/shm && -w /dev/shm ]] || { echo "skip: no writable tmpfs at /dev/shm"; exit 77; }
if ! command -v mkfs.ext4 >/dev/null || ! loop_fs ext4 "$SCRATCH/fs" 400M >"$SCRATCH/loop.log" 2>&1; then
  echo "skip: no ext4 loop image here: $(tail -n 2 "$SCRATCH/loop.log")"
  exit 77
fi
cap=600000000
io_cap_cgroup "${made_loops[0]}" $cap || { echo "skip: no blkio cgroup to cap the image with"; exit 77; }
capped_cgroup=$cgroup_dir
shm=$(mktemp -d /dev/shm/dlsize-answer.XXXXXX)

# resnet50's demand per h100 (205 MB/s) in batches of 8, so that a 3 s run holds many steps.
sweep_config() { # LABEL DATASET
  cat <<EOF
{"bench": {"workload": "resnet50", "dataset": "$2", "accelerator": "emulated:h100",
           "batch-size": 8, "compute-time": "4.478ms", "epochs": 50, "time-limit": "3s",
           "prefetch": 8, "label": "$1"},
 "accelerators": [1, 2, 4, 6, 8], "repeats": 2}
EOF
}
"$DLSIZE" datagen --workload resnet50 --dataset "$shm/r50" --size 192MiB --quiet >/dev/null || { fail "datagen tmpfs"; finish; }
"$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/fs/mnt/r50" --size 192MiB --quiet >/dev/null || { fail "datagen ext4"; finish; }
sweep_config tmpfs "$shm/r50" >"$SCRATCH/tmpfs.json"
sweep_config capped "$SCRATCH/fs/mnt/r50" >"$SCRATCH/capped.json"
for _ in 1 2 3; do
  yes >/dev/null &
  burners+=($!)
done
expect_rc 0 "the tmpfs sweep under a CPU burner" -- "$DLSIZE" sweep --config "$SCRATCH/tmpfs.json" --out "$SCRATCH/sw-tmpfs"
stop_burners
expect_rc 0 "the sweep of the image capped at 600 MB/s" -- in_cgroup "$capped_cgroup" \
  "$DLSIZE" sweep --config "$SCRATCH/capped.json" --out "$SCRATCH/sw-capped"

targets=(--target-accelerators 64,128,256 --clients 4 --nic-bandwidth 100Gb/s)
expect_rc 0 "size over both sweeps" -- "$DLSIZE" size "$SCRATCH/sw-tmpfs" "$SCRATCH/sw-capped" "${targets[@]}" --out "$SCRATCH/z"
expect_rc 0 "compare over both sweeps" -- "$DLSIZE" compare "$SCRATCH/sw-tmpfs" "$SCRATCH/sw-capped" "${targets[@]}" \
  --out "$SCRATCH/c.json" --html "$SCRATCH/c.html"
lines=$(wc -l <"$SCRATCH/stdout")
((lines < 40)) && pass "compare --html leaves the terminal short ($lines lines)" || fail "compare printed $lines lines"
expect_rc 0 "plan for 64 h100 with the runs" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --batch-size 8 \
  --compute-time 4.478ms --accelerators 64 --clients 4 --nic-bandwidth 100Gb/s --runs "$SCRATCH/sw-tmpfs" "$SCRATCH/sw-capped" \
  --out "$SCRATCH/p.json"

check=$("$PY" - "$SCRATCH" "$cap" <<'EOF'
import json, sys
d, cap = sys.argv[1], float(sys.argv[2])
z = json.load(open(f"{d}/z.json")); c = json.load(open(f"{d}/c.json")); p = json.load(open(f"{d}/p.json"))
out = []
a = z["answers"][0]
req = {r["accelerators"]: r["required_bytes_per_s"] for r in a["rows"]}
out.append(("one row per target", sorted(req) == [64, 128, 256] and len(a["rows"]) == 3, req))
creq = {r["accelerators"]: r["required_bytes_per_s"] for r in c["answers"][0]["rows"]}
out.append(("compare's required figures are size's", creq == req, creq))
prow = p["answer"]["rows"][0]
out.append(("plan's required figure at 64 is size's", prow["required_bytes_per_s"] == req[64], prow["required_bytes_per_s"]))
verdicts = {b["backend"]: b for b in a["rows"][0]["backends"]}
tm = next(v for k, v in verdicts.items() if k.startswith("tmpfs"))
cp = next(v for k, v in verdicts.items() if k.startswith("capped"))
out.append(("tmpfs is not determined or holds", tm["verdict"] in ("not determined", "holds"), tm["text"]))
out.append(("the capped image does not hold", cp["verdict"] == "does not hold", cp["text"]))
demand = a["requirement"]["planned"]["bytes_per_s"]
knee = cp["knee_accelerators"] if cp["knee_accelerators"] is not None else cp["most_accelerators"]
out.append(("its knee is within one count of the cap's", knee is not None and abs(knee - cap / demand) <= 1.0,
            f"knee {knee}, cap's {cap / demand:.2f}"))
for ok, what, got in ((o[1], o[0], o[2]) for o in out):
    print(("ok" if ok else "FAIL") + f"\t{what}: {got}")
EOF
)
while IFS=$'\t' read -r verdict what; do
  [[ $verdict == ok ]] && pass "$what" || fail "$what"
done <<<"$check"

# The first chart of the sizing page, as Chromium builds it: a series for each backend, no tick
# below zero.
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  [[ ${CI:-} == true ]] && fail "chromium is missing under CI=true" || skip_part "chromium is not installed"
else
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
    --user-data-dir="$SCRATCH/profile" --dump-dom "file://$(cd "$SCRATCH" && pwd)/z.html" >"$SCRATCH/dom.html" 2>/dev/null
  chart=$("$PY" - "$SCRATCH/dom.html" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
found = re.search(r"<svg.*?</svg>", dom, re.S)
svg = found.group(0) if found else ""
labels = re.findall(r'class="series" data-label="([^"]*)"', svg)
ticks = re.findall(r'class="tick-[xy]"[^>]*>([^<]*)<', svg)
backends = sorted({l.split(":")[0] for l in labels if ":" in l and not l.startswith("requirement")})
negative = [t for t in ticks if t.strip().startswith(("-", "\u2212"))]
print(f"{len(backends)}|{','.join(backends)}|{len(negative)}|{len(ticks)}")
EOF
)
  IFS='|' read -r nb names neg nticks <<<"$chart"
  [[ $nb == 2 && $names == capped*tmpfs* ]] && pass "the first chart draws both backends ($names)" \
    || fail "first chart's backends: $chart"
  [[ $neg == 0 && $nticks -gt 4 ]] && pass "no negative tick among $nticks" || fail "ticks: $chart"
fi
finish
