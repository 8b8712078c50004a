#!/usr/bin/env bash
# dlsize plan: demand, bandwidth and dataset size from a profile alone; bad input refused.
source "$(dirname "$0")/lib.sh"
expect_rc 0 "plan for 16 h100s" -- "$DLSIZE" plan --workload unet3d --accelerator h100 --accelerators 16 --out "$SCRATCH/p.json"
expect_text "16 accelerators" "says the accelerator count"
[[ $(json "$SCRATCH/p.json" "r['schema'] == 'dlsize.plan/1' and abs(r['demand_bytes_per_s_per_accelerator'] - 7 * 146600628 / 0.323) < 1 and abs(r['required_bytes_per_s'] - 16 * 0.9 * 7 * 146600628 / 0.323 * r['read_amplification']) < 16 and 1 < r['read_amplification'] < 1.0001") == True ]] \
  && pass "plan JSON has the hand-computed demand" || fail "plan JSON: $(cat "$SCRATCH/p.json")"
expect_rc 0 "plan for a bandwidth" -- "$DLSIZE" plan --workload resnet50 --accelerator emulated:h100 --storage-bandwidth 20GB/s
expect_text "supports 104 accelerators" "20 GB/s supports 104 resnet50 h100s at AU 90 % (1.036x O_DIRECT reads)"
expect_rc 0 "plan bert-large direct" -- "$DLSIZE" plan --workload bert-large --accelerator h100 --accelerators 8 --out "$SCRATCH/bert.json"
[[ $(json "$SCRATCH/bert.json" "r['read_amplification'] > 1.4 and r['iops'] > 0 and r['files_per_s'] > 0") == True ]] \
  && pass "bert-large direct reads 1.58x its samples' bytes" || fail "bert plan: $(cat "$SCRATCH/bert.json")"
expect_text "IOPS" "the terminal gives IOPS"
expect_rc 0 "epoch time of 2.8 TB on 32 accelerators behind two 100 Gb/s NICs" -- "$DLSIZE" plan --workload resnet50 \
  --accelerator h100 --accelerators 32 --dataset-size 2.8TB --epochs 10 --storage-bandwidth 15.6GB/s \
  --nic-bandwidth 100Gb/s --clients 2 --out "$SCRATCH/epoch.json"
expect_text "expected AU" "the terminal gives the expected AU"
[[ $(json "$SCRATCH/epoch.json" "r['nic_limit_bytes_per_s'] == 100e9 / 8 * 0.8 * 2 and r['deliverable_bytes_per_s'] == 15.6e9 and
  abs(r['epoch']['epoch_s'] - 2.8e12 * r['read_amplification'] / min(15.6e9, r['reads_bytes_per_s'])) < 1e-6 * r['epoch']['epoch_s'] and
  abs(r['epoch']['time_to_train_s'] - 10 * r['epoch']['epoch_s']) < 1e-6 * r['epoch']['epoch_s']") == True ]] \
  && pass "epoch time at the lower of the bandwidth and the accelerators' reads; NIC in bits" || fail "epoch plan: $(cat "$SCRATCH/epoch.json")"
expect_rc 2 "a bare prefix is refused as a rate" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --nic-bandwidth 25G
expect_text "has no unit" "message says bytes or bits"
expect_rc 2 "unknown accelerator type" -- "$DLSIZE" plan --workload resnet50 --accelerator tpu9
expect_text "emulated:a100" "message lists the known types"
expect_rc 2 "bad bandwidth" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --storage-bandwidth fast
expect_text "--storage-bandwidth" "message names the option"
expect_rc 2 "bad AU threshold" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --au-threshold 1.5
expect_rc 2 "existing --out is not overwritten" -- "$DLSIZE" plan --workload unet3d --accelerator h100 --out "$SCRATCH/p.json"
finish
