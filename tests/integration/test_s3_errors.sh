#!/usr/bin/env bash
# One classification of S3 failures for every command (radosgw, the CTest fixture s3): a
# missing bucket is the same usage error (exit 2, NoSuchBucket, a hint) for bench, datagen,
# verify, index and checkpoint; virtual addressing against a server that serves buckets by path
# says so (not "not a dlsize dataset"); a TLS failure names --s3-ca-bundle; no S3 request is
# called a kernel call. About 5 s.
# labels: s3
source "$(dirname "$0")/lib.sh"
s3_bucket errors
s3_resnet50 d 4
# refused WHAT TEXT... -- command...: exit 2, every TEXT in the message, never "kernel".
refused() {
  local what=$1
  shift
  local texts=()
  while [[ $1 != -- ]]; do texts+=("$1"); shift; done
  shift
  expect_rc 2 "$what" -- "$@"
  for t in "${texts[@]}"; do expect_text "$t" "$what: the message says '$t'"; done
  [[ $ERR != *kernel* ]] || fail "$what: an S3 request called a kernel call: $ERR"
}

none=no-such-bucket-$$
for cmd in "bench --workload resnet50 --accelerator none --quiet --dataset s3://$none/d --out $SCRATCH/b.json" \
  "datagen --workload resnet50 --files 4 --quiet --dataset s3://$none/d" \
  "verify s3://$none/d --quiet" "index s3://$none/d --out $SCRATCH/i.index --quiet" \
  "checkpoint --workload llama3-8b --scale 0.0001 --quiet --dir s3://$none/c --out $SCRATCH/c.json"; do
  refused "${cmd%% *} of a missing bucket" "NoSuchBucket" "no bucket '$none'" "endpoint: $ep" \
    -- "$DLSIZE" $cmd --s3-endpoint "$ep" --s3-retry-budget 2s
done
[[ ! -e $SCRATCH/b.json && ! -e $SCRATCH/c.json ]] && pass "no report for a usage error" \
  || fail "a report was written for a usage error"

# Virtual addressing (http://BUCKET.localhost:PORT/KEY) against radosgw, which serves buckets by
# path here: the server reads the key's first segment as the bucket.
port=${ep##*:}
refused "virtual addressing against a path server" "--s3-addressing" "not '$bucket'" \
  -- "$DLSIZE" verify "s3://$bucket/d" --s3-endpoint "http://localhost:$port" \
  --s3-addressing virtual --quiet
[[ $ERR != *"not a dlsize dataset"* ]] && pass "the mismatch is not called 'not a dlsize dataset'" \
  || fail "addressing: $ERR"

# https to a server that speaks http: the TLS handshake fails, and the message names the option.
expect_rc 1 "https to an http server" -- "$DLSIZE" verify "s3://$bucket/d" \
  --s3-endpoint "https://127.0.0.1:$port" --quiet
expect_text "--s3-ca-bundle" "the TLS failure names --s3-ca-bundle"
finish
