#!/usr/bin/env bash
# A frozen S3 server (the fault proxy in front of radosgw answers nothing for 11 s) under the
# default --stall-timeout (60 s): the storage-only bench completes, and its report warns of the
# pause, longer than the lesser of --stall-timeout and 10 s, naming the object it waited on.
# (An MPI rank's pause, on files: test_pause_warning.) About 14 s.
# labels: s3
source "$(dirname "$0")/lib.sh"
s3_bucket pause
s3_resnet50 d 12

proxy "freeze:GET /$bucket/d/data/00000/file-00000005:1:11"
expect_rc 0 "bench through a server frozen 11 s" -- "$DLSIZE" bench --workload resnet50 \
  --accelerator none --queue-depth 2 --readers 1 --quiet --epochs 2 \
  --dataset "s3://$bucket/d" --s3-endpoint "$PROXY" --out "$SCRATCH/p.json"
check=$(json "$SCRATCH/p.json" "(r['status'], r['summary']['samples'],
  [w for w in r['warnings'] if w.startswith('paused 1') and 'lesser of --stall-timeout and 10 s' in w
   and 's3://$bucket/d/data/' in w] != [])")
[[ $check == "('complete', 24, True)" ]] && pass "complete, with a warning of the 11 s pause" \
  || fail "pause: $check $(json "$SCRATCH/p.json" "r['warnings']")"
finish
