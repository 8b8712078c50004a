#!/usr/bin/env bash
# labels: integration
# The goodput of checkpoints, rework and restarts through the CLI: plan for llama3-70b on 16,384
# accelerators at two write bandwidths (the figures checked against Daly's cost function worked
# here in Python), asynchronous checkpoints, plan --checkpoint-report on a measured checkpoint,
# and the options' refusals.
source "$(dirname "$0")/lib.sh"
# Daly (2006): τ = √(2δM)(1 + √(δ/2M)/3 + δ/(18M)) − δ; loss = 1 − τ / (M e^{R/M} (e^{(τ+δ)/M} − 1)).
daly_loss() {
  "$PY" - "$@" <<'PY'
import sys
from math import sqrt, exp, expm1
write, restore = float(sys.argv[1]), float(sys.argv[2])
B = (130 + 781) * 2**30; M = 50000 * 3600 / 16384
d = B / write; R = 300 + B / restore; x = d / (2 * M)
t = sqrt(2 * d * M) * (1 + sqrt(x) / 3 + x / 9) - d
print(1 - t / (M * exp(R / M) * expm1((t + d) / M)))
PY
}
for bw in 100 400; do
  expect_rc 0 "plan llama3-70b on 16,384 accelerators at $bw GB/s" -- "$DLSIZE" plan --workload llama3-70b \
    --mttf 50000h --accelerators 16384 --write-bandwidth ${bw}GB/s --storage-bandwidth ${bw}GB/s --out "$SCRATCH/g$bw.json"
  expect_text "16,384 accelerators: the job fails every 3.052 h" "the terminal gives the system MTTF"
  want=$(daly_loss ${bw}e9 ${bw}e9)
  [[ $(json "$SCRATCH/g$bw.json" "(lambda g, row: abs(row['loss']['total'] - $want) < 1e-9 and
      abs(sum(row['loss'][k] for k in ('checkpoints', 'rework', 'restarts')) - row['loss']['total']) < 1e-12 and
      abs(row['goodput'] + row['loss']['total'] - 1) < 1e-12 and g['accelerators'] == 16384 and
      [x['accelerators'] for x in g['rows']] == [1024, 4096, 16384, 65536, 100000])(r['goodput'],
      [x for x in r['goodput']['rows'] if x['accelerators'] == 16384][0])") == True ]] \
    && pass "the loss at $bw GB/s is Daly's cost function's ($want)" || fail "goodput at $bw: $(json "$SCRATCH/g$bw.json" "r['goodput']['rows'][2]")"
done
[[ $(json "$SCRATCH/g100.json" "r['goodput']['rows'][2]['meets_max_loss']") == False &&
  $(json "$SCRATCH/g400.json" "r['goodput']['rows'][2]['meets_max_loss']") == True ]] \
  && pass "100 GB/s misses the 5 % loss at 16,384, 400 GB/s holds it" || fail "meets_max_loss"
# The bandwidth the table says holds 5 %, given back, plans a 5.00 % loss.
need=$(json "$SCRATCH/g100.json" "r['goodput']['rows'][2]['write_bytes_per_s_for_max_loss']")
expect_rc 0 "plan at the bandwidth the table asks for" -- "$DLSIZE" plan --workload llama3-70b --mttf 50000h \
  --accelerators 16384 --write-bandwidth "${need}B/s" --storage-bandwidth 100GB/s
expect_text "loss              5.00 %" "the bandwidth for 5 % gives 5 % back"

expect_rc 0 "asynchronous checkpoints pause for the copy to host memory" -- "$DLSIZE" plan --workload llama3-70b \
  --mttf 50000h --accelerators 16384 --write-bandwidth 100GB/s --async --staging-bandwidth 25GB/s --out "$SCRATCH/async.json"
[[ $(json "$SCRATCH/async.json" "(lambda row: r['goodput']['mode'] == 'async' and
  abs(row['pause_s'] - 911 * 2**30 / 16384 / 25e9) < 1e-9 and abs(row['drain_s'] - 911 * 2**30 / 100e9) < 1e-9 and
  row['loss']['total'] < $(daly_loss 100e9 100e9))(r['goodput']['rows'][2])") == True ]] \
  && pass "async: the pause is the largest share at the staging rate, the drain the write" || fail "async: $(json "$SCRATCH/async.json" "r['goodput']['rows'][2]")"

# A measured checkpoint: the storage's own rates, per rank and in all.
if have_io_uring; then
  expect_rc 0 "a small llama3-8b checkpoint" -- "$DLSIZE" checkpoint --workload llama3-8b --scale 0.0001220703125 \
    --dir "$SCRATCH/ck" --writes 2 --reads 2 --label disk --out "$SCRATCH/ck.json" --quiet
  expect_rc 0 "plan llama3-70b on the storage the report measured" -- "$DLSIZE" plan --workload llama3-70b \
    --mttf 50000h --accelerators 16384 --checkpoint-report "$SCRATCH/ck.json" --out "$SCRATCH/gr.json"
  expect_text "measured by dlsize checkpoint on disk" "the terminal names the measurement"
  [[ $(json "$SCRATCH/gr.json" "(lambda g, c: g['write']['bytes_per_s'] == c['write']['bytes_per_s'] and
    g['write']['rank_bytes_per_s'] == c['write']['throughput_bytes_per_s'] and
    g['restore']['bytes_per_s'] == c['read']['bytes_per_s'] and
    abs(g['rows'][2]['write_s'] - 911 * 2**30 / c['write']['bytes_per_s']) < 1e-6 * g['rows'][2]['write_s'])(r['goodput'],
    json.load(open('$SCRATCH/ck.json'))['checkpoint'])") == True ]] \
    && pass "the report's aggregate and slowest-rank rates, the job's bytes at the aggregate" || fail "report rates: $(json "$SCRATCH/gr.json" "r['goodput']['write']")"
  mkdir "$SCRATCH/broken-ck"
  json "$SCRATCH/ck.json" "json.dump(dict(r, status='incomplete', reason='stopped'), open('$SCRATCH/broken-ck/ck.json', 'w'))"
  expect_rc 2 "an incomplete checkpoint report" -- "$DLSIZE" plan --workload llama3-70b --checkpoint-report "$SCRATCH/broken-ck/ck.json"
  expect_text "holds no measured checkpoint write" "the message says what the report lacks"
else
  skip_part "io_uring refused: no checkpoint report to plan from"
fi

expect_rc 2 "a write bandwidth and a report together" -- "$DLSIZE" plan --workload llama3-70b --mttf 50000h \
  --write-bandwidth 1GB/s --checkpoint-report "$SCRATCH/g100.json"
expect_text "one of --checkpoint-report and --write-bandwidth" "the message names both"
expect_rc 2 "no storage to plan the goodput on" -- "$DLSIZE" plan --workload llama3-70b --mttf 50000h
expect_text "--write-bandwidth RATE" "the message says what to give"
expect_rc 2 "a plan given as a checkpoint report" -- "$DLSIZE" plan --workload llama3-70b --checkpoint-report "$SCRATCH/g100.json"
expect_text "g100.json" "the message names the file"
expect_rc 2 "async without the staging bandwidth" -- "$DLSIZE" plan --workload llama3-70b --mttf 50000h \
  --write-bandwidth 1GB/s --async
expect_text "--staging-bandwidth" "the message names the option"
expect_rc 2 "a loss of 100 %" -- "$DLSIZE" plan --workload llama3-70b --write-bandwidth 1GB/s --max-loss 100%
expect_text "--max-loss" "the message names the option"
expect_rc 2 "an MTTF of 0" -- "$DLSIZE" plan --workload llama3-70b --write-bandwidth 1GB/s --mttf 0h
expect_text "--mttf" "the message names the option"
finish
