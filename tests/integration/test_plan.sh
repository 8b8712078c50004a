#!/usr/bin/env bash
# dlsize plan: demand, bandwidth and dataset size from a profile alone; bad input refused.
source "$(dirname "$0")/lib.sh"
expect_rc 0 "plan for 16 h100s" -- "$DLSIZE" plan --workload unet3d --accelerator h100 --accelerators 16 --out "$SCRATCH/p.json"
expect_text "16 accelerators" "says the accelerator count"
[[ $(json "$SCRATCH/p.json" "r['schema'] == 'dlsize.plan/1' and abs(r['demand_bytes_per_s_per_accelerator'] - 7 * 146600628 / 0.323) < 1 and abs(r['required_bytes_per_s'] - 16 * 0.9 * 7 * 146600628 / 0.323 * r['read_amplification']) < 16 and 1 < r['read_amplification'] < 1.0001") == True ]] \
  && pass "plan JSON has the hand-computed demand" || fail "plan JSON: $(cat "$SCRATCH/p.json")"
expect_rc 0 "plan for a bandwidth" -- "$DLSIZE" plan --workload resnet50 --accelerator emulated:h100 --storage-bandwidth 20GB/s
expect_text "supports 104 accelerators" "20 GB/s supports 104 resnet50 h100s at AU 90 % (1.036x O_DIRECT reads)"
# A published v3.0 row read back (docs/sizing.md): 8 b200 at 44,703.8 MiB/s ran at AU 92.5 %.
expect_rc 0 "plan of a published unet3d row" -- "$DLSIZE" plan --workload unet3d --accelerator b200 --accelerators 8 \
  --measured-bandwidth 44703.8281756063MiB/s --out "$SCRATCH/row.json"
expect_text "AU 92.50 % (meets the 90 % threshold)" "prints the row's AU"
[[ $(json "$SCRATCH/row.json" "round(100 * r['row']['accelerator_utilization'], 2)") == 92.5 ]] \
  && pass "the row's AU in JSON" || fail "row: $(json "$SCRATCH/row.json" "r['row']")"
expect_rc 2 "a row's bandwidth without its accelerators is refused" -- "$DLSIZE" plan --workload unet3d --accelerator b200 --measured-bandwidth 44GB/s
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
# The write side: llama3-70b's 911 GiB every 30 min at 5 % may take 0.05 x 1800 / 0.95 s.
expect_rc 0 "plan a llama3-70b checkpoint every 30 min at 5 %" -- "$DLSIZE" plan --workload llama3-70b \
  --checkpoint-interval 30min --max-overhead 5% --accelerators 128 --clients 16 --write-bandwidth 20GB/s \
  --storage-bandwidth 100GB/s --out "$SCRATCH/ckpt.json"
expect_text "writes need" "the terminal gives the write bandwidth"
expect_text "restore" "the terminal gives the restore time"
[[ $(json "$SCRATCH/ckpt.json" "abs(r['checkpoint']['write_bytes_per_s'] - 911 * 2**30 / (0.05 * 1800 / 0.95)) < 1 and
  r['checkpoint']['ranks'] == 128 and r['checkpoint']['layout']['data_parallel'] == 16 and
  abs(r['checkpoint']['restore']['restore_s'] - 911 * 2**30 / 100e9) < 1e-6 and r['checkpoint']['at_write_bandwidth']['fits']") == True ]] \
  && pass "checkpoint plan JSON has the hand-computed write bandwidth and restore time" || fail "checkpoint plan: $(cat "$SCRATCH/ckpt.json")"
expect_rc 0 "unet3d plans its reads and its checkpoint every 500 steps" -- "$DLSIZE" plan --workload unet3d --accelerator h100 \
  --accelerators 8 --checkpoint-interval 500steps --out "$SCRATCH/u.json"
[[ $(json "$SCRATCH/u.json" "r['required_bytes_per_s'] > 0 and r['checkpoint']['bytes'] == 499153191 and
  abs(r['checkpoint']['interval_s'] - 500 * 0.323) < 1e-9 and r['checkpoint']['ranks'] == 8") == True ]] \
  && pass "steps are timed at the preset's step time" || fail "unet3d checkpoint plan: $(cat "$SCRATCH/u.json")"
expect_rc 2 "a checkpoint-only profile without an interval" -- "$DLSIZE" plan --workload llama3-8b
expect_text "--checkpoint-interval" "message says what to give"
expect_rc 2 "a bare number as an interval" -- "$DLSIZE" plan --workload llama3-8b --checkpoint-interval 500
expect_text "has no unit" "message asks for a unit"
expect_rc 2 "ranks that do not hold the layout" -- "$DLSIZE" plan --workload llama3-70b --checkpoint-interval 30min --accelerators 12
expect_text "multiple of 8" "message says which counts would"
expect_rc 2 "a dataset profile without --accelerator" -- "$DLSIZE" plan --workload resnet50 --storage-bandwidth 1GB/s
expect_text "--accelerator is required" "message names the option"
# plan --index: the sizes, samples and amplification of the indexed files, not the profile's.
mkdir -p "$SCRATCH/own/sub"
head -c 5000 /dev/zero >"$SCRATCH/own/a.bin"
head -c 10000 /dev/zero >"$SCRATCH/own/sub/b.bin"
head -c 15000 /dev/zero >"$SCRATCH/own/sub/c.bin"
expect_rc 0 "index of three files" -- "$DLSIZE" index "$SCRATCH/own" --out "$SCRATCH/own.index.json" --quiet
expect_rc 0 "plan from the index" -- "$DLSIZE" plan --index "$SCRATCH/own.index.json" --workload resnet50 --accelerator h100 --accelerators 4 --out "$SCRATCH/pi.json"
expect_text "the profile resnet50 gives the compute side only" "the text says the dataset came from the index"
[[ $(json "$SCRATCH/pi.json" "r['sample_bytes_mean'] == 10000 and abs(r['read_amplification'] - (8192 + 12288 + 16384) / 30000) < 1e-12
  and r['index']['files'] == 3 and r['index']['samples'] == 3 and r['index']['digest'] in r['dataset_source']
  and r['epoch']['dataset_bytes'] == 30000 and abs(r['files_per_s'] - 4 * 400 / 0.224) < 1e-6") == True ]] \
  && pass "plan --index has the indexed files' mean, amplification and files/s" || fail "plan --index: $(cat "$SCRATCH/pi.json")"
cp "$SCRATCH/own.index.json" "$SCRATCH/edited.index.json"
sed -i 's/"size":5000/"size":5001/' "$SCRATCH/edited.index.json"
expect_rc 2 "an edited index is refused" -- "$DLSIZE" plan --index "$SCRATCH/edited.index.json" --workload resnet50 --accelerator h100
expect_text "edited.index.json" "message names the index"
expect_rc 2 "--index with --dataset-size" -- "$DLSIZE" plan --index "$SCRATCH/own.index.json" --dataset-size 1TB --workload resnet50 --accelerator h100
# plan --s3: resnet50's 112 KiB records are request-bound on a 20 GB/s store of 5,500 GET/s,
# unet3d's 140 MB objects in 8 MiB GETs bandwidth-bound (docs/s3.md, Sizing for objects).
s3=(--s3 --accelerator h100 --accelerators 8 --storage-bandwidth 20GB/s --max-requests-per-s 5500)
expect_rc 0 "plan --s3 of resnet50" -- "$DLSIZE" plan --workload resnet50 "${s3[@]}" --out "$SCRATCH/s3r.json"
expect_text "limit             requests: 5500 GET/s hold 3 accelerators" "resnet50 on objects is request-bound"
expect_rc 0 "plan --s3 of unet3d in 8 MiB GETs" -- "$DLSIZE" plan --workload unet3d "${s3[@]}" --request-size 8MiB --out "$SCRATCH/s3u.json"
expect_text "limit             bandwidth" "unet3d on objects is bandwidth-bound"
[[ $(json "$SCRATCH/s3r.json" "r['cache_mode'] == 'none' and r['read_amplification'] == 1 and r['s3']['requests_per_sample'] == 1 and
  abs(r['s3']['requests_per_s'] - 8 * 400 / 0.224 * 0.9) < 1e-6 and abs(r['s3']['requests_in_flight'] - r['s3']['requests_per_s'] * (0.1 + 114660 / 85e6)) < 1e-6
  and r['s3']['accelerators_by_requests'] == 3 and r['s3']['accelerators_by_bandwidth'] == 108 and r['s3']['limit'] == 'requests'") == True &&
   $(json "$SCRATCH/s3u.json" "r['s3']['requests_per_sample'] == 18 and r['s3']['accelerators_by_bandwidth'] == 6 and r['s3']['accelerators_by_requests'] == 15") == True ]] \
  && pass "plan --s3 JSON: GET/s, Little's law and the binding limit, hand-computed" || fail "plan --s3: $(json "$SCRATCH/s3r.json" "r['s3']")"
# Its 1,251-record shards streamed whole in 8 MiB GETs: 18 GETs a shard, and the bandwidth binds.
expect_rc 0 "plan --s3 of resnet50's shards streamed" -- "$DLSIZE" plan --workload resnet50 "${s3[@]}" --shard-read stream --request-size 8MiB --out "$SCRATCH/s3s.json"
[[ $(json "$SCRATCH/s3s.json" "abs(r['s3']['requests_per_sample'] - 18 / 1251) < 1e-15 and r['s3']['limit'] == 'bandwidth'") == True ]] \
  && pass "streamed shards cost ceil(k S / R) / k GETs a sample" || fail "stream: $(json "$SCRATCH/s3s.json" "r['s3']")"
expect_rc 2 "--shard-read stream of a profile of files" -- "$DLSIZE" plan --workload unet3d --s3 --accelerator h100 --shard-read stream
expect_rc 0 "plan --s3 JSON validates against docs/plan.schema.json" -- "$DLSIZE" validate "$SCRATCH/s3r.json" "$SCRATCH/s3u.json" "$SCRATCH/s3s.json"
expect_rc 2 "--cache beside --s3" -- "$DLSIZE" plan --workload resnet50 --s3 --accelerator h100 --cache buffered
expect_text "--cache" "message names the option"
expect_rc 2 "--first-byte without --s3" -- "$DLSIZE" plan --workload resnet50 --accelerator h100 --first-byte 10ms
expect_text "valid: with --s3" "message says what it needs"
finish
