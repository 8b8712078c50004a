#!/usr/bin/env bash
# Training runs with emulated accelerators: AU follows the storage (a read cap at half the
# demand gives AU about 0.5), a page-cached dataset passes, the report carries every field the
# schema promises, run configs merge under the command line, and bad input is refused.
# labels: integration serial
# Serial: AU is the share of the window the accelerators compute, so it measures whether the
# loader's threads got the CPU; beside two other tests on 2 cores a page-cached run read 0.82.
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 512MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }
warm() { cat "$ds"/data/*/*.rec >/dev/null; }
# 4 accelerators × batch 16 × 114,692 B / 20 ms = 367 MB/s of demand.
train=(bench --workload resnet50 --dataset "$ds" --accelerator emulated:h100 --accelerators 4
       --batch-size 16 --compute-time 20ms --cache buffered --quiet)

# No cap, page-cached: the storage is not the limit, AU passes.
warm
expect_rc 0 "uncapped training run" -- "$DLSIZE" "${train[@]}" --epochs 2 --out "$SCRATCH/free.json"
au=$(json "$SCRATCH/free.json" "r['summary']['accelerator_utilization']")
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.9 else 1)" "$au" && pass "page-cached AU $au >= 0.9" || fail "page-cached AU $au < 0.9"
[[ $(json "$SCRATCH/free.json" "r['summary']['au_pass']") == True ]] && pass "au_pass is true" || fail "au_pass not true"

# Cap at half the demand: AU about 0.5 and the read rate about the cap.
demand=$(json "$SCRATCH/free.json" "r['summary']['demand_bytes_per_s']")
cap=$("$PY" -c "import sys; print(int(float(sys.argv[1]) / 2))" "$demand")
warm
expect_rc 0 "capped training run" -- "$DLSIZE" "${train[@]}" --epochs 2 --max-read-rate "$cap" --out "$SCRATCH/cap.json"
au=$(json "$SCRATCH/cap.json" "r['summary']['accelerator_utilization']")
bw=$(json "$SCRATCH/cap.json" "r['summary']['read_bytes_per_s']")
"$PY" -c "import sys; au=float(sys.argv[1]); sys.exit(0 if 0.42 <= au <= 0.55 else 1)" "$au" && pass "capped AU $au about 0.5" || fail "capped AU $au not about 0.5"
"$PY" -c "import sys; bw, cap = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if 0.85 * cap <= bw <= 1.03 * cap else 1)" "$bw" "$cap" \
  && pass "read rate $bw about the cap $cap" || fail "read rate $bw not about the cap $cap"
[[ $(json "$SCRATCH/cap.json" "r['summary']['au_pass']") == False ]] && pass "capped run fails AU" || fail "capped run passed AU"

# The report has every field the schema promises, as numbers where they are numbers.
check=$(json "$SCRATCH/cap.json" "all([
  r['schema'] == 'dlsize.report/1', isinstance(r['tool']['version'], str), 'features' in r['tool'],
  isinstance(r['command_line'], list), r['config']['accelerators'] == 4, r['workload']['name'] == 'resnet50',
  all(k in r['dataset'] for k in ['path', 'fs_type', 'bytes', 'files', 'samples', 'client_ram_bytes']),
  all(k in r['system']['hosts'][0] for k in ['cpus', 'ram_bytes', 'kernel', 'nics', 'gpus']),
  r['topology'] == {**r['topology'], 'ranks': 1, 'nodes': 1, 'accelerators': 4, 'accelerators_per_node': 4},
  all(k in r['summary'] for k in ['samples_per_s', 'samples_per_s_per_accelerator', 'read_bytes_per_s',
      'accelerator_utilization', 'au_threshold', 'au_pass', 'cpu_utilization', 'wall_s', 'epochs']),
  len(r['accelerators']) == 4,
  all(all(k in a for k in ['id', 'rank', 'host', 'device', 'samples_per_s', 'utilization', 'data_wait_s']) for a in r['accelerators']),
  len(r['epochs']) == 2 and all(e['accelerator_utilization'] is not None for e in r['epochs']),
  all(k in r['io'] for k in ['engine', 'cache_mode', 'latency', 'histogram']) and r['io']['latency']['p99_s'] > 0,
  len(r['timeseries']) >= 2 and 'cpu_host' in r['timeseries'][0] and 'accelerator_utilization' in r['timeseries'][0],
  isinstance(r['warnings'], list), r['status'] == 'complete'])")
[[ $check == True ]] && pass "report has the schema's fields" || fail "report fields missing"
steps=$(json "$SCRATCH/cap.json" "r['summary']['steps'] == 2 * r['summary']['steps_per_epoch'] and r['summary']['steps_total'] == 4 * r['summary']['steps'] and r['summary']['epochs_completed'] == 2")
[[ $steps == True ]] && pass "every accelerator ran every step of both epochs" || fail "steps missing"

# Run config: keys are long option names; the command line overrides the file.
cat >"$SCRATCH/run.json" <<EOF
{"workload": "resnet50", "dataset": "$ds", "accelerator": "emulated:a100", "accelerators": 2,
 "batch-size": 8, "compute-time": "5ms", "epochs": 3, "cache": "buffered", "sync-steps": true, "quiet": true}
EOF
expect_rc 0 "run from a config file" -- "$DLSIZE" bench --config "$SCRATCH/run.json" --epochs 1 --time-limit 3s --out "$SCRATCH/cfg.json"
[[ $(json "$SCRATCH/cfg.json" "(r['config']['epochs'], r['topology']['accelerators'], r['topology']['sync_steps'], r['workload']['accelerator']['batch_size'])") == "(1, 2, True, 8)" ]] \
  && pass "config applied, command line wins" || fail "config merge: $(json "$SCRATCH/cfg.json" "r['config']")"

# SIGINT: an incomplete report within about a second.
interrupt_after 2 -- "$DLSIZE" "${train[@]}" --epochs 50 --out "$SCRATCH/int.json"
[[ $(json "$SCRATCH/int.json" "r['status'] == 'incomplete' and 'signal' in r['reason'] and r['summary']['steps'] > 0") == True ]] \
  && pass "incomplete report of what ran" || fail "interrupted report"

# Bad input: exit 2 and a message naming what is wrong.
expect_rc 2 "negative compute time" -- "$DLSIZE" "${train[@]}" --compute-time -5ms
expect_text "--compute-time" "message names --compute-time"
expect_rc 2 "unknown accelerator type" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator emulated:tpu9
expect_text "emulated:h100" "message lists the known types"
expect_rc 2 "dataset of another workload" -- "$DLSIZE" bench --workload unet3d --dataset "$ds" --accelerator emulated:h100
expect_text "generated for workload 'resnet50'" "message names the dataset's workload"
echo '{"workload": "resnet50", "acclerators": 4}' >"$SCRATCH/bad.json"
expect_rc 2 "config key that does not exist" -- "$DLSIZE" bench --config "$SCRATCH/bad.json" --dataset "$ds"
expect_text "unknown key 'acclerators'" "message names the key"
expect_text "bad.json" "message names the file"
echo '{"accelerators": "many"}' >"$SCRATCH/badtype.json"
expect_rc 2 "config value of the wrong type" -- "$DLSIZE" bench --config "$SCRATCH/badtype.json" --workload resnet50 --dataset "$ds"
expect_text "badtype.json: accelerators" "message names the file and key"
expect_rc 2 "unknown embedded config" -- "$DLSIZE" bench --config nothere
expect_text "known: quickstart" "message lists the embedded configs"
expect_rc 2 "too many accelerators for the dataset" -- "$DLSIZE" "${train[@]}" --accelerators 400
expect_text "do not fill one step" "message says the dataset is too small"
expect_rc 2 "prefetch 0" -- "$DLSIZE" "${train[@]}" --prefetch 0
expect_rc 2 "training options without an accelerator" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerators 4
expect_rc 2 "a calibration of another workload" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator "emulated:$SCRATCH/cal.json"
echo '{"schema": "dlsize.calibration/1", "workload": "unet3d", "accelerator": "h200", "batch_size": 4, "compute_time_s": 0.1}' >"$SCRATCH/cal.json"
expect_rc 2 "a calibration of another workload" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator "emulated:$SCRATCH/cal.json"
expect_text "calibrated for 'unet3d'" "message names the calibration's workload"

finish
