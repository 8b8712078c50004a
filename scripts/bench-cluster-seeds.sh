#!/usr/bin/env bash
# The seeds' scale-out and scale-up claims, measured on the cluster bed (scripts/cluster-bed.sh,
# docs/cluster.md "Scale-out and scale-up on the bed"): on GlusterFS and on S3,
#   scale-out: 1, 2 and 4 hosts, K emulated accelerators each, each host's data NIC at RATE;
#   scale-up:  the same total accelerators on 1 host whose NIC carries the summed rate;
# then `dlsize size` over each series, and `dlsize plan --clients N --accelerators-per-host K
# --nic-bandwidth RATE` beside each measured aggregate. Prints a Markdown table; the reports,
# sizing and plans stay under OUT.
#
# Usage: scripts/bench-cluster-seeds.sh OUT [RATE_MBIT (40)] [K (2)] [SECONDS (4)]
# Needs a bed of 4 hosts with the s3 and gluster stores up (scripts/cluster-bed.sh up 4; store
# s3 up; store gluster up) and build/dlsize.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: scripts/bench-cluster-seeds.sh OUT [RATE_MBIT] [K] [SECONDS]}
RATE=${2:-40}
K=${3:-2}
SECS=${4:-4}
BED=$ROOT/scripts/cluster-bed.sh
DLSIZE=${DLSIZE:-$ROOT/build/dlsize}
[[ -e $OUT ]] && { echo "seeds: $OUT exists; give a new folder" >&2; exit 2; }
mkdir -p "$OUT"
eval "$("$BED" env)" || exit 1
bucket=seeds-$$-$RANDOM
"$BED" exec h1 curl -sf -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" \
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
  -X PUT "$DLSIZE_S3_ENDPOINT/$bucket" || { echo "seeds: cannot create bucket $bucket" >&2; exit 1; }
hosts=(h1 h2 h3 h4)
for h in "${hosts[@]}" st; do "$BED" cap "$h" none; done
# One epoch never runs out in SECONDS: 4 hosts at RATE read 4 × RATE/8 × SECONDS bytes.
data=(--workload resnet50 --files 24 --records-per-file 48 --quiet)
"$DLSIZE" --version >/dev/null || exit 1
"$BED" exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "$DLSIZE_BED_GLUSTER/seeds" >/dev/null &&
  "$BED" exec h1 "$DLSIZE" datagen "${data[@]}" --dataset "s3://$bucket/ds" \
    --s3-endpoint "$DLSIZE_S3_ENDPOINT" >/dev/null || { echo "seeds: datagen failed" >&2; exit 1; }

# run STORE SHAPE N_HOSTS ACCELERATORS_PER_HOST NIC_MBIT
run() {
  local store=$1 shape=$2 n=$3 k=$4 mbit=$5 where list
  [[ $store == gluster ]] && where=(--dataset "$DLSIZE_BED_GLUSTER/seeds") ||
    where=(--dataset "s3://$bucket/ds" --s3-endpoint "$DLSIZE_S3_ENDPOINT")
  list=$(IFS=,; echo "${hosts[*]:0:n}")
  for h in "${hosts[@]:0:n}"; do "$BED" cap "$h" "${mbit}mbit"; done
  timeout -k 5 120 "$BED" mpiexec -hosts "$list" -np "$n" -ppn 1 "$DLSIZE" bench "${where[@]}" \
    --workload resnet50 --accelerator emulated:h100 --accelerators-per-rank "$k" --batch-size 16 \
    --compute-time 20ms --epochs 100 --time-limit "${SECS}s" --readers 2 --rank-timeout 5s \
    --nic-bandwidth "eth0=${mbit}Mb/s" --label "$store-$shape" --quiet \
    --out "$OUT/$store-$shape-$n.json" >"$OUT/$store-$shape-$n.out" 2>&1
  for h in "${hosts[@]:0:n}"; do "$BED" cap "$h" none; done
}

for store in gluster s3; do
  for n in 1 2 4; do run "$store" out "$n" "$K" "$RATE"; done
  run "$store" up 1 $((4 * K)) $((4 * RATE))
  mkdir -p "$OUT/$store-out" && cp "$OUT/$store"-out-*.json "$OUT/$store-out/"
  "$DLSIZE" size "$OUT/$store-out" --out "$OUT/$store-out-size" --clients 4 \
    --nic-bandwidth "${RATE}Mb/s" --nic-efficiency 0.94 --target-accelerators $((8 * K)) \
    >/dev/null 2>"$OUT/$store-out-size.err"
done
for n in 1 2 4; do
  "$DLSIZE" plan --workload resnet50 --accelerator h100 --accelerators $((n * K)) --clients "$n" \
    --accelerators-per-host "$K" --nic-bandwidth "${RATE}Mb/s" --nic-efficiency 0.94 \
    --out "$OUT/plan-$n.json" >"$OUT/plan-$n.txt" 2>&1
done
/usr/bin/python3 - "$OUT" "$RATE" "$K" <<'EOF'
import json, os, sys
out, rate, k = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
print("| store | shape | hosts × accelerators | NIC per host | aggregate MB/s | per host MB/s | NIC rx (share of rate) | limited_by | plan's cap MB/s |")
print("|---|---|---|---|---|---|---|---|---|")
for store in ("gluster", "s3"):
    for shape, n in (("out", 1), ("out", 2), ("out", 4), ("up", 1)):
        f = f"{out}/{store}-{shape}-{n}.json"
        if not os.path.exists(f):
            print(f"| {store} | {shape} | {n} | | no report | | | | |")
            continue
        r = json.load(open(f))
        acc = r["topology"]["accelerators"]
        agg = r["summary"]["read_bytes_per_s"] / 1e6
        per = [h["read_bytes_per_s"] / 1e6 for h in r["hosts"]]
        nic = [next(x for x in h["nics"] if x["name"] == "eth0") for h in r["hosts"]]
        share = ", ".join(f"{x['utilization'] * 100:.0f} %" for x in nic)
        mbit = rate * (4 if shape == "up" else 1)
        plan = ""
        pf = f"{out}/plan-{n}.json"
        if shape == "out" and os.path.exists(pf):
            plan = f"{json.load(open(pf))['nic_limit_bytes_per_s'] / 1e6:.2f}"
        lb = r["summary"]["limited_by"]
        signs = "+".join(s["name"] for s in lb.get("signs", []))
        print(f"| {store} | scale-{shape} | {n} × {acc // n} | {mbit:.0f} Mbit/s | {agg:.2f} | "
              f"{', '.join(f'{x:.2f}' for x in per)} | {share} | {lb['verdict']} ({signs}) | {plan} |")
EOF
