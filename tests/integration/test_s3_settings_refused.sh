#!/usr/bin/env bash
# S3 settings that cannot be used are refused before any request (no S3 server needed), exit 2
# naming where they came from: every --s3-* option given with a folder instead of a bucket
# (bench, datagen, verify, index, checkpoint); an unreadable AWS_CA_BUNDLE or ca_bundle of the
# profile; a profile of ~/.aws that gets its keys by credential_process or IAM Identity Center
# (the message says how to export keys instead, and holds no key); a line of ~/.aws/config that
# is not INI (named by its number, never quoted).
source "$(dirname "$0")/lib.sh"
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --files 2 --quiet >/dev/null || { echo "datagen failed"; exit 1; }

for opt in "--s3-ca-bundle /no/such.pem" "--s3-profile x" "--s3-region eu-west-1" \
  "--s3-endpoint http://127.0.0.1:9" "--s3-addressing virtual"; do
  name=${opt%% *}
  # shellcheck disable=SC2086
  expect_rc 2 "bench $name with a folder" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" \
    --accelerator none --quiet --out "$SCRATCH/b.json" $opt
  expect_text "$name: only for a bucket" "bench names $name"
done
expect_rc 2 "verify --s3-profile with a folder" -- "$DLSIZE" verify "$ds" --s3-profile x
expect_text "--s3-profile: only for a bucket" "verify names --s3-profile"
expect_rc 2 "datagen --s3-part-size with a folder" -- "$DLSIZE" datagen --workload resnet50 \
  --dataset "$SCRATCH/new" --files 2 --quiet --s3-part-size 8MiB
expect_text "--s3-part-size: only for a bucket" "datagen names --s3-part-size"
[[ ! -e $SCRATCH/new ]] && pass "nothing written" || fail "datagen wrote $SCRATCH/new"
expect_rc 2 "index --s3-region with a folder" -- "$DLSIZE" index "$ds" --out "$SCRATCH/ix.json" \
  --s3-region eu-west-1 --quiet
expect_text "--s3-region: only for a bucket" "index names --s3-region"
expect_rc 2 "checkpoint --s3-ca-bundle with a folder" -- "$DLSIZE" checkpoint --workload llama3-8b \
  --scale 0.0001 --dir "$SCRATCH/ck" --s3-ca-bundle /no/such.pem --quiet --out "$SCRATCH/ck.json"
expect_text "--s3-ca-bundle: only for a bucket" "checkpoint names --s3-ca-bundle"

home=$SCRATCH/home
mkdir -p "$home/.aws"
cat >"$home/.aws/config" <<'EOF'
[default]
endpoint_url = http://127.0.0.1:9
ca_bundle = /no/profile-ca.pem

[profile corp]
endpoint_url = http://127.0.0.1:9
credential_process = /usr/bin/false

[profile sso]
endpoint_url = http://127.0.0.1:9
sso_session = corp
EOF
run() { env -i PATH="$PATH" HOME="$home" "$@"; }
expect_rc 2 "the profile's unreadable ca_bundle" -- run "$DLSIZE" verify s3://bkt/p
expect_text "$home/.aws/config [default] ca_bundle: cannot read the CA bundle" "names the file's setting"
expect_rc 2 "AWS_CA_BUNDLE before the profile's" -- run AWS_CA_BUNDLE=/no/env-ca.pem "$DLSIZE" verify s3://bkt/p
expect_text "AWS_CA_BUNDLE: cannot read the CA bundle" "names AWS_CA_BUNDLE"
expect_rc 2 "--s3-ca-bundle before AWS_CA_BUNDLE" -- run AWS_CA_BUNDLE=/no/env-ca.pem "$DLSIZE" verify \
  s3://bkt/p --s3-ca-bundle /no/option-ca.pem
expect_text "--s3-ca-bundle: cannot read the CA bundle" "names --s3-ca-bundle"

secret=doNotPrintThisSecret0000000000000000000
expect_rc 2 "a profile with credential_process" -- run AWS_PROFILE=corp "$DLSIZE" verify s3://bkt/p
expect_text "runs a credential_process, which dlsize does not do" "says it is not supported"
expect_text "aws configure export-credentials --profile corp --format env" "says how to export keys"
expect_rc 2 "a profile of IAM Identity Center" -- run AWS_PROFILE=sso "$DLSIZE" verify s3://bkt/p
expect_text "aws sso login --profile sso" "says to sign in, then export"
printf '[default]\naws_access_key_id AKIAQUOTED %s\n' "$secret" >"$home/.aws/credentials"
expect_rc 2 "a credentials line that is not INI" -- run "$DLSIZE" verify s3://bkt/p
expect_text "$home/.aws/credentials: line 2: neither [SECTION] nor NAME = VALUE" "named by its number"
[[ "$ERR$OUT" != *"$secret"* && "$ERR$OUT" != *AKIAQUOTED* ]] && pass "the line is not quoted" \
  || fail "the line was quoted: $ERR"
finish
