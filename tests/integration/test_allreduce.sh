#!/usr/bin/env bash
# The allreduce model in emulated runs: a declared layout on one host (2 x 8 and 4 x 4 of one
# process's 16 accelerators), storage AU beside MLPerf's AU, the refusals; plan's efficiency
# curve; calibrate --allreduce on nccl-tests output; and over MPI (mpiexec -np 2), 1 x 4 against
# 2 x 2 layouts of one job with a --sync-steps control, the modelled time (about 100 ms per step)
# far above the run link's jitter.
# labels: integration mpi
source "$(dirname "$0")/lib.sh"
data=$(dirname "$0")/data

ds=$SCRATCH/r50
expect_rc 0 "datagen" -- "$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 40MiB --quiet
cat "$ds"/data/*/*.rec >/dev/null
# 1 GB/s NICs make the inter-node part of 102 MB of fp32 gradients about 100 ms a step.
slow=(--intra-node-bandwidth 100GB/s --inter-node-bandwidth 8Gb/s --nics-per-node 1)
train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:v100 --batch-size 4
       --compute-time 20ms --cache buffered --epochs 1 --seed 3 --quiet)

# One process, 16 accelerators declared as 2 x 8 and 4 x 4.
for l in 8 4; do
  expect_rc 0 "16 accelerators as nodes of $l" -- "$DLSIZE" "${train[@]}" --accelerators 16 --allreduce hierarchical \
    "${slow[@]}" --accelerators-per-node $l --out "$SCRATCH/n$l.json"
done
check=$(json "$SCRATCH/n8.json" "all([r['topology']['declared'] == {'nodes': 2, 'accelerators_per_node': 8, 'hosts': 1},
  r['topology']['nodes'] == 1, r['topology']['sync_steps'], r['topology']['allreduce']['algorithm'] == 'hierarchical',
  abs(r['topology']['allreduce']['inter_node_s'] - 102228128 / 1e9) < 1e-6])")
[[ $check == True ]] && pass "2 x 8: declared apart from the one real host, the modelled parts in the report" \
  || fail "2 x 8 topology: $(json "$SCRATCH/n8.json" "r['topology']")"
[[ $(json "$SCRATCH/n4.json" "r['topology']['allreduce']['exposed_s'] / $(json "$SCRATCH/n8.json" "r['topology']['allreduce']['exposed_s']")") > 1.4 ]] \
  && pass "4 x 4 models more exposed time than 2 x 8" || fail "exposed: $(json "$SCRATCH/n4.json" "r['topology']['allreduce']")"
# Every measured step held the modelled time; storage AU counts it, MLPerf's AU does not.
check=$(json "$SCRATCH/n4.json" "(lambda s, a: all([abs(s['comm_s'] - a['exposed_s'] * 16 * (r['summary']['steps'] - 1)) < 1e-3,
  s['comm_time_fraction'] > 0.5, s['storage_au'] > 0.9, s['accelerator_utilization'] < 0.3,
  abs(s['storage_au'] - s['accelerator_utilization'] - s['comm_time_fraction']) < 0.01, s['au_pass'],
  all(x['comm_s'] > 0 for x in r['accelerators']), any('--allreduce-overlap 0' in w for w in r['warnings'])]))(r['summary'], r['topology']['allreduce'])")
[[ $check == True ]] && pass "comm time held per step; storage AU = AU + comm fraction, and the verdict's" \
  || fail "4 x 4 summary: $(json "$SCRATCH/n4.json" "r['summary']")"
expect_rc 0 "overlap hides part of it" -- "$DLSIZE" "${train[@]}" --accelerators 16 --allreduce hierarchical "${slow[@]}" \
  --accelerators-per-node 4 --allreduce-overlap 1 --compute-time 150ms --epochs 1 --out "$SCRATCH/ov.json"
[[ $(json "$SCRATCH/ov.json" "abs(r['topology']['allreduce']['exposed_s'] - max(0, r['topology']['allreduce']['comm_s'] - 0.1)) < 1e-9") == True ]] \
  && pass "exposed = comm - overlap x 2/3 of the step" || fail "overlap: $(json "$SCRATCH/ov.json" "r['topology']['allreduce']")"

# size follows the job's scaling efficiency: 4 and 8 accelerators on nodes of 4 (1 and 2 nodes),
# projected to 64 (16 nodes): the reads are the requirement's line (bytes ÷ MLPerf AU, the job
# without its allreduce) × the modelled efficiency, and the AU knee judges storage AU.
for n in 4 8; do
  expect_rc 0 "$n accelerators on nodes of 4" -- "$DLSIZE" "${train[@]}" --accelerators $n --allreduce hierarchical \
    "${slow[@]}" --accelerators-per-node 4 --out "$SCRATCH/sz$n.json"
done
expect_rc 0 "size over allreduce runs" -- "$DLSIZE" size "$SCRATCH/sz4.json" "$SCRATCH/sz8.json" --target-accelerators 64 \
  --data-growth 1 --out "$SCRATCH/sized"
expect_text "scaling efficiency" "size prints the efficiency next to the bandwidth"
check=$(json "$SCRATCH/sized.json" "(lambda s: (lambda p, c: all([s['scaling']['algorithm'] == 'hierarchical',
  s['scaling']['accelerators_per_node'] == 4, [x['accelerators'] for x in c] == [4, 8, 64], c[2]['nodes'] == 16,
  abs(c[2]['scaling_efficiency'] - p['scaling_efficiency']) < 1e-12, p['scaling_efficiency'] < 0.5,
  abs(p['reads_bytes_per_s'] - (s['requirement']['fit']['intercept'] + 64 * s['requirement']['fit']['slope']) * p['scaling_efficiency']) < 1,
  c[0]['measured_scaling_efficiency'] == 1, s['au_knee']['all_pass']]))(s['projections'][0], s['scaling']['curve']))(r['series'][0])")
[[ $check == True ]] && pass "size: reads at 64 = the line x the modelled efficiency; storage AU judges the knee" \
  || fail "size with the allreduce: $(json "$SCRATCH/sized.json" "r['series'][0]['scaling'], r['series'][0]['projections'][0]")"
# Scale-up against scale-out: 16 accelerators as 2 x 8 and as 4 x 4 side by side in size.
expect_rc 0 "size over two layouts of 16" -- "$DLSIZE" size "$SCRATCH/sz4.json" "$SCRATCH/n8.json" "$SCRATCH/n4.json" \
  --target-accelerators 64 --data-growth 1 --out "$SCRATCH/layouts"
check=$(json "$SCRATCH/layouts.json" "(lambda l: all([[(x['accelerators'], x['nodes'], x['accelerators_per_node']) for x in l] == [(16, 2, 8), (16, 4, 4)],
  l[0]['difference_vs_fewest_nodes'] == 0, l[1]['difference_vs_fewest_nodes'] < -0.1, 0 < l[1]['efficiency_vs_linear'] < l[0]['efficiency_vs_linear']]))(r['series'][0]['layouts'])")
[[ $check == True ]] && pass "layouts: 4 x 4 gives fewer samples/s than 2 x 8 at 16" || fail "layouts: $(json "$SCRATCH/layouts.json" "r['series'][0]['layouts']")"
grep -q "Scale-up against scale-out" "$SCRATCH/layouts.md" && pass "the Markdown has the scale-up/scale-out table" || fail "no layout table in the Markdown"
# Both layouts were declared on this one host (--ranks-per-node): labelled so, never as real hosts.
[[ $(json "$SCRATCH/layouts.json" "[x['declared'] for x in r['series'][0]['layouts']]") == "[True, True]" ]] \
  && grep -q "2 × 8 (declared)" "$SCRATCH/layouts.md" && pass "the declared layouts are labelled as declared" \
  || fail "declared: $(json "$SCRATCH/layouts.json" "[x.get('declared') for x in r['series'][0]['layouts']]")"
expect_rc 0 "a run without the allreduce" -- "$DLSIZE" "${train[@]}" --accelerators 4 --out "$SCRATCH/plain4.json"
expect_rc 2 "size refuses to pool runs with and without the allreduce" -- "$DLSIZE" size "$SCRATCH/sz8.json" \
  "$SCRATCH/plain4.json" --out "$SCRATCH/mixed"
expect_text "plain4.json" "the refusal names the run without it"

expect_rc 2 "cosmoflow has no parameters" -- "$DLSIZE" bench --workload cosmoflow --dataset "$ds" --accelerator emulated:h100 --allreduce ring
expect_text "model.parameters" "the refusal names model.parameters"
expect_rc 2 "no allreduce without accelerators" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --allreduce ring
expect_text "--accelerator" "the refusal names --accelerator"
expect_rc 2 "a layout without --allreduce" -- "$DLSIZE" "${train[@]}" --accelerators 4 --accelerators-per-node 2
expect_text "--accelerators-per-node" "the refusal names the option"
expect_rc 2 "an unknown algorithm" -- "$DLSIZE" "${train[@]}" --allreduce tree
expect_text "hierarchical" "the refusal lists the algorithms"
expect_rc 2 "a layout that does not divide the job" -- "$DLSIZE" "${train[@]}" --accelerators 6 --allreduce ring --accelerators-per-node 4
expect_rc 2 "a bad bit rate" -- "$DLSIZE" "${train[@]}" --allreduce ring --inter-node-bandwidth 100Xb/s
expect_text "25Gb/s" "the refusal shows a bit rate"

# plan: the efficiency curve of the seed's V100 servers (one EDR port each), next to bandwidth.
expect_rc 0 "plan with the allreduce" -- "$DLSIZE" plan --workload resnet50 --accelerator v100 --accelerators 16 --allreduce hierarchical --out "$SCRATCH/plan.json"
expect_text "efficiency" "plan prints the efficiency curve"
check=$(json "$SCRATCH/plan.json" "(lambda c: all([[p['accelerators'] for p in c][:6] == [1, 2, 4, 8, 16, 32], c[0]['scaling_efficiency'] == 1,
  c[3]['scaling_efficiency'] > 0.99, 0.9 < c[4]['scaling_efficiency'] < 0.97, (c[4]['nodes'], c[4]['accelerators_per_node']) == (2, 8),
  r['required_bytes_per_s'] < r['required_bytes_per_s_linear'],
  abs(r['required_bytes_per_s'] - c[4]['required_bytes_per_s']) < 1]))(r['scaling'])")
[[ $check == True ]] && pass "curve: 1 to 32, near-linear to 8, a step at 16, storage follows it" || fail "plan: $(json "$SCRATCH/plan.json" "r['scaling']")"

# calibrate --allreduce: the fit finds the latency and bandwidth the fixture was made with.
expect_rc 0 "calibrate from all_reduce_perf output" -- "$DLSIZE" calibrate --allreduce "$data/all_reduce_perf_8xa100.txt" --out "$SCRATCH/cal.json"
check=$(json "$SCRATCH/cal.json" "all([r['schema'] == 'dlsize.allreduce-calibration/1', r['ranks'] == 8, r['nodes'] == 1, r['link'] == 'intra',
  abs(r['bus_bandwidth_bytes_per_s'] / 228e9 - 1) < 0.03, abs(r['latency_s'] / 28e-6 - 1) < 0.1,
  abs(r['latency_per_hop_s'] - r['latency_s'] / 14) < 1e-12, len(r['sizes']) == 28])")
[[ $check == True ]] && pass "fit: 228 GB/s and 28 us (2 us per hop) within 3 % and 10 %" || fail "calibration: $(cat "$SCRATCH/cal.json")"
expect_rc 0 "a run uses the calibration" -- "$DLSIZE" "${train[@]}" --accelerators 8 --allreduce ring --allreduce-calibration "$SCRATCH/cal.json" \
  --accelerator emulated:a100 --out "$SCRATCH/withcal.json"
[[ $(json "$SCRATCH/withcal.json" "abs(r['topology']['allreduce']['intra_node_bytes_per_s'] / 228e9 - 1) < 0.03 and 'calibration' in r['topology']['allreduce']['sources']['intra_bandwidth']") == True ]] \
  && pass "the calibrated bandwidth is the model's, with its source" || fail "with calibration: $(json "$SCRATCH/withcal.json" "r['topology']['allreduce']")"
printf '# nothing here\n' >"$SCRATCH/empty.txt"
expect_rc 2 "not all_reduce_perf output" -- "$DLSIZE" calibrate --allreduce "$SCRATCH/empty.txt" --out "$SCRATCH/x.json"
expect_text "all_reduce_perf" "the refusal says what was expected"

# Over MPI: 2 ranks of 2 accelerators as 1 node of 4 or 2 nodes of 2, and a --sync-steps control.
MPIEXEC=${DLSIZE_MPIEXEC:-}
if [[ -z $MPIEXEC ]] || ! version_has "mpi: yes"; then
  skip_part "the MPI part: this build has no MPI"
  finish
  exit
fi
mpi() { timeout -k 5 120 "$MPIEXEC" -np 2 "$@"; }
job=("${train[@]}" --accelerators-per-rank 2 --batch-size 8 --epochs 2)
expect_rc 0 "control: --sync-steps" -- mpi "$DLSIZE" "${job[@]}" --sync-steps --out "$SCRATCH/ctl.json"
expect_rc 0 "1 x 4" -- mpi "$DLSIZE" "${job[@]}" --allreduce hierarchical "${slow[@]}" --ranks-per-node 2 --out "$SCRATCH/up.json"
expect_rc 0 "2 x 2" -- mpi "$DLSIZE" "${job[@]}" --allreduce hierarchical "${slow[@]}" --ranks-per-node 1 --out "$SCRATCH/out.json"
step() { json "$1" "r['accelerators'][0]['window_s'] / r['accelerators'][0]['measured_steps']"; }
check=$("$PY" -c "
import json, sys
ctl, up, out = (json.load(open(sys.argv[i])) for i in (1, 2, 3))
step = lambda r: sum(a['window_s'] for a in r['accelerators']) / sum(a['measured_steps'] for a in r['accelerators'])
e_up, e_out = up['topology']['allreduce']['exposed_s'], out['topology']['allreduce']['exposed_s']
print(all([e_out - e_up > 0.09, out['topology']['declared']['nodes'] == 2, up['topology']['declared']['nodes'] == 1,
  ctl['summary']['comm_s'] == 0, out['summary']['comm_s'] > up['summary']['comm_s'] > 0,
  abs(step(up) - step(ctl) - e_up) < 0.01, abs(step(out) - step(ctl) - e_out) < 0.015,
  out['summary']['samples_per_s'] < up['summary']['samples_per_s'] < ctl['summary']['samples_per_s']]))
" "$SCRATCH/ctl.json" "$SCRATCH/up.json" "$SCRATCH/out.json")
[[ $check == True ]] && pass "2 x 2 waits longer than 1 x 4 per step by the modelled difference, over the --sync-steps control" \
  || fail "steps: control $(step "$SCRATCH/ctl.json"), 1x4 $(step "$SCRATCH/up.json"), 2x2 $(step "$SCRATCH/out.json"); $(json "$SCRATCH/out.json" "r['topology']['allreduce']")"
finish
