#!/usr/bin/env bash
# AWS conventions against the S3 fixture (radosgw), with a made-up HOME and no AWS_* variable but
# those each case sets: a profile of ~/.aws/config gives the endpoint (its own endpoint_url, or a
# [services] section's) and the region, ~/.aws/credentials its keys, picked by AWS_PROFILE or
# --s3-profile, or the default profile when none is named; AWS_ENDPOINT_URL_S3 comes before the
# profile's endpoint and --s3-endpoint before both; the report's storage.s3.settings_from names
# each source, never a key. An S3 name is held to S3's key rule (a 600-byte name between
# slashes is taken), not the 255-byte rule of file names.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
ep=$DLSIZE_S3_ENDPOINT
ak=$AWS_ACCESS_KEY_ID sk=$AWS_SECRET_ACCESS_KEY
bucket=aws-settings-$$-$RANDOM
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --user "$ak:$sk")
[[ $(curl -s "${sign[@]}" -o /dev/null -w '%{http_code}' -X PUT "$ep/$bucket") == 200 ]] \
  || { fail "cannot create bucket $bucket"; finish; exit 1; }

home=$SCRATCH/home
mkdir -p "$home/.aws"
cat >"$home/.aws/config" <<EOF
[default]
endpoint_url = $ep
region = eu-west-1

[profile lab]
region = eu-north-1
services = lab-store
s3 =
  max_concurrent_requests = 20

[services lab-store]
s3 =
  endpoint_url = $ep

[profile broken-endpoint]
endpoint_url = http://127.0.0.1:9
EOF
cat >"$home/.aws/credentials" <<EOF
[default]
aws_access_key_id = $ak
aws_secret_access_key = $sk

[lab]
aws_access_key_id = $ak
aws_secret_access_key = $sk

[broken-endpoint]
aws_access_key_id = $ak
aws_secret_access_key = $sk
EOF
# Only HOME and PATH: every setting comes from the files or from what a case adds.
run() { env -i PATH="$PATH" HOME="$home" "$@"; }
from() { json "$1" "r['storage']['s3']['settings_from'].get('$2')"; }

expect_rc 0 "datagen with the default profile's endpoint, region and keys" -- \
  run "$DLSIZE" datagen --workload resnet50 --dataset "s3://$bucket/r50" --layout files --files 16 --quiet
out=$SCRATCH/default.json
expect_rc 0 "bench with the default profile" -- run "$DLSIZE" bench --workload resnet50 \
  --dataset "s3://$bucket/r50" --accelerator none --epochs 1 --quiet --out "$out"
[[ $(from "$out" endpoints) == "$home/.aws/config [default] endpoint_url" &&
  $(from "$out" region) == "$home/.aws/config [default] region" &&
  $(from "$out" credentials) == "$home/.aws/credentials [default]" &&
  $(from "$out" profile) == default &&
  $(json "$out" 'r["storage"]["s3"]["region"]') == eu-west-1 ]] \
  && pass "the report names each setting's source: the default profile's" \
  || fail "default profile: $(json "$out" 'r["storage"]["s3"]')"
! grep -qF -- "$sk" "$out" && pass "the report holds no secret" || fail "a secret in $out"

out=$SCRATCH/lab.json
expect_rc 0 "AWS_PROFILE=lab: the endpoint of its [services] section" -- run AWS_PROFILE=lab \
  "$DLSIZE" bench --workload resnet50 --dataset "s3://$bucket/r50" --accelerator none --epochs 1 \
  --quiet --out "$out"
[[ $(from "$out" endpoints) == "$home/.aws/config [services lab-store] s3.endpoint_url" &&
  $(from "$out" profile) == AWS_PROFILE && $(from "$out" credentials) == "$home/.aws/credentials [lab]" &&
  $(json "$out" 'r["storage"]["s3"]["region"]') == eu-north-1 ]] \
  && pass "AWS_PROFILE picks the profile of both files" || fail "lab: $(json "$out" 'r["storage"]["s3"]')"

expect_rc 0 "--s3-profile lab over AWS_PROFILE=broken-endpoint" -- run AWS_PROFILE=broken-endpoint \
  "$DLSIZE" verify "s3://$bucket/r50" --s3-profile lab --quiet

out=$SCRATCH/env.json
expect_rc 0 "AWS_ENDPOINT_URL_S3 before the profile's endpoint, AWS_REGION before its region" -- \
  run AWS_PROFILE=broken-endpoint AWS_ENDPOINT_URL_S3="$ep" AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID="$ak" AWS_SECRET_ACCESS_KEY="$sk" "$DLSIZE" bench --workload resnet50 \
  --dataset "s3://$bucket/r50" --accelerator none --epochs 1 --quiet --out "$out"
[[ $(from "$out" endpoints) == AWS_ENDPOINT_URL_S3 && $(from "$out" region) == AWS_REGION &&
  $(from "$out" credentials) == AWS_ACCESS_KEY_ID ]] \
  && pass "the variables' sources are named" || fail "env: $(json "$out" 'r["storage"]["s3"]')"

out=$SCRATCH/option.json
expect_rc 0 "--s3-endpoint before AWS_ENDPOINT_URL_S3" -- run AWS_ENDPOINT_URL_S3=http://127.0.0.1:9 \
  "$DLSIZE" bench --workload resnet50 --dataset "s3://$bucket/r50" --accelerator none --epochs 1 \
  --quiet --out "$out" --s3-endpoint "$ep" --s3-region us-east-1
[[ $(from "$out" endpoints) == --s3-endpoint && $(from "$out" region) == --s3-region ]] \
  && pass "the options' sources are named" || fail "options: $(json "$out" 'r["storage"]["s3"]')"

expect_rc 2 "AWS_PROFILE naming no profile" -- run AWS_PROFILE=prod "$DLSIZE" verify "s3://$bucket/r50"
expect_text "AWS_PROFILE: no profile 'prod'" "names AWS_PROFILE and the profile"

# S3's key rule: a 600-byte name between slashes is an S3 name (refused before by the 255-byte
# rule of file names).
long=$(printf 'n%.0s' $(seq 600))
expect_rc 0 "datagen under a 600-byte name" -- run "$DLSIZE" datagen --workload resnet50 \
  --dataset "s3://$bucket/$long" --layout files --files 2 --quiet
expect_rc 0 "verify it" -- run "$DLSIZE" verify "s3://$bucket/$long" --quiet
finish
