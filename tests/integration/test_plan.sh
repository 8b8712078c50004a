#!/usr/bin/env bash
# dlsize plan: demand, bandwidth and dataset size from a profile alone; bad input refused.
source "$(dirname "$0")/lib.sh"
expect_rc 0 "plan for 16 h100s" -- "$DLSIZE" plan --workload unet3d --accelerator h100 --accelerators 16 --out "$SCRATCH/p.json"
expect_text "16 accelerators" "says the accelerator count"
[[ $(json "$SCRATCH/p.json" "r['schema'] == 'dlsize.plan/1' and abs(r['demand_bytes_per_s_per_accelerator'] - 7 * 146600628 / 0.323) < 1 and abs(r['required_bytes_per_s'] - 16 * 0.9 * 7 * 146600628 / 0.323) < 16") == True ]] \
  && pass "plan JSON has the hand-computed demand" || fail "plan JSON: $(cat "$SCRATCH/p.json")"
expect_rc 0 "plan for a bandwidth" -- "$DLSIZE" plan --workload resnet50 --accelerator emulated:h100 --storage-bandwidth 20GB/s
expect_text "supports 108 accelerators" "20 GB/s supports 108 resnet50 h100s at AU 90 %"
expect_rc 2 "unknown accelerator type" -- "$DLSIZE" plan --workload resnet50 --accelerator tpu9
expect_text "emulated:a100" "message lists the known types"
expect_rc 2 "bad bandwidth" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --storage-bandwidth fast
expect_text "--storage-bandwidth" "message names the option"
expect_rc 2 "bad AU threshold" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --au-threshold 1.5
expect_rc 2 "existing --out is not overwritten" -- "$DLSIZE" plan --workload unet3d --accelerator h100 --out "$SCRATCH/p.json"
finish
