#!/usr/bin/env bash
# Datasets in a bucket (radosgw, the CTest fixture s3): datagen of one object per sample and of
# shards by multipart upload, verify passing; a flipped byte named by verify (exit 1); a foreign
# object in the dataset's key space stopping datagen (exit 2) untouched; a SIGKILLed datagen
# resumed to a dataset that verifies; a wrong secret, a missing profile and a missing endpoint
# refused (exit 2) without the secret.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
tmp=$SCRATCH
# check_rc WANT GOT WHAT
check_rc() { [[ $2 == "$1" ]] && pass "$3" || fail "$3 (exit $2, expected $1)"; }

ep=$DLSIZE_S3_ENDPOINT
bucket=dlsize-datagen-$$-$RANDOM
s3=(--s3-endpoint "$ep")
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY")
s3curl() { curl -s "${sign[@]}" "$@"; }
code() { s3curl -o /dev/null -w '%{http_code}' "$@"; }
[[ $(code -X PUT "$ep/$bucket") == 200 ]] || { fail "cannot create bucket $bucket"; finish; exit 1; }
files=(--workload resnet50 --layout files --quiet)

# One object per sample, then verify.
out=$("$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/r50" --files 20 "${s3[@]}" 2>&1)
check_rc 0 $? "datagen of 20 objects into s3://$bucket/r50: $out"
[[ $(code "$ep/$bucket/r50/dlsize-dataset.json") == 200 && \
   $(code "$ep/$bucket/r50/dlsize-datagen-journal.json") == 404 ]] \
  && pass "the manifest object is written and the journal object removed" \
  || fail "manifest or journal object not as expected"
out=$("$DLSIZE" verify "s3://$bucket/r50" "${s3[@]}" --quiet 2>&1)
check_rc 0 $? "verify of the bucket's dataset: $out"
[[ $out == *"20 objects, 20 records checked"*OK* ]] && pass "verify read 20 objects" \
  || fail "verify: $out"
out=$("$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/r50" --files 20 "${s3[@]}" 2>&1)
[[ $? == 0 && $out == *"already complete"* ]] && pass "a second datagen finds it complete" \
  || fail "second datagen: $out"

# Shards above --s3-part-size (5 MiB, S3's smallest part) go by multipart upload.
out=$("$DLSIZE" datagen --workload resnet50 --records-per-file 64 --files 2 --s3-part-size 5MiB \
  --dataset "s3://$bucket/shards" "${s3[@]}" --quiet 2>&1)
check_rc 0 $? "datagen of 2 shards of 7 MiB: $out"
etag=$(s3curl -I "$ep/$bucket/shards/data/00000/file-00000000.rec" | tr -d '\r' | grep -i '^etag:')
[[ $etag == *'-2"'* ]] && pass "a 7 MiB shard was put in 2 parts ($etag)" \
  || fail "the shard's ETag is not a 2-part upload's: $etag"
out=$("$DLSIZE" verify "s3://$bucket/shards" "${s3[@]}" --quiet 2>&1)
check_rc 0 $? "verify of the multipart shards: $out"

# A flipped byte is named by key and record offset.
key=r50/data/00000/file-00000003.rec
s3curl -o "$tmp/obj" "$ep/$bucket/$key"
printf '\xff' | dd of="$tmp/obj" bs=1 seek=5000 conv=notrunc status=none
[[ $(code -T "$tmp/obj" "$ep/$bucket/$key") == 200 ]] || fail "cannot put the flipped copy"
out=$("$DLSIZE" verify "s3://$bucket/r50" "${s3[@]}" --quiet 2>&1)
check_rc 1 $? "verify of a flipped byte"
[[ $out == *"mismatch: $key record 3 (offset 0): payload checksum mismatch"* ]] \
  && pass "verify names the object's key and the record" || fail "verify: $out"

# A foreign object in the key space stops datagen (exit 2) and is left as it was; removed by
# its owner, the same command resumes and completes.
echo "not dlsize's" >"$tmp/foreign"
fkey=fo/data/00000/file-00000007.rec
s3curl -T "$tmp/foreign" "$ep/$bucket/$fkey" >/dev/null
out=$("$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/fo" --files 12 "${s3[@]}" 2>&1)
check_rc 2 $? "datagen meeting a foreign object: $out"
[[ $out == *"an object it did not write is in its way: '$fkey'"* ]] \
  && pass "the foreign object's key is named" || fail "datagen: $out"
s3curl -o "$tmp/after" "$ep/$bucket/$fkey"
cmp -s "$tmp/foreign" "$tmp/after" && pass "the foreign object is untouched" \
  || fail "the foreign object was changed"
s3curl -X DELETE "$ep/$bucket/$fkey" >/dev/null
out=$("$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/fo" --files 12 "${s3[@]}" 2>&1)
[[ $? == 0 && $out == *"12 objects ("*"kept from an earlier run)"* ]] \
  && pass "once it is removed the same command completes: $out" || fail "resume: $out"

# A SIGKILLed datagen, resumed, completes a dataset that verifies. It is killed once its first
# data object is there (the journal is saved only every 2 s, which a fast server outruns): the
# resume keeps what it finds of its own dataset, journal or not.
"$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/kill" --files 800 --threads 1 "${s3[@]}" \
  >"$tmp/kill.out" 2>&1 &
pid=$!
for _ in $(seq 200); do
  s3curl "$ep/$bucket?prefix=kill%2Fdata%2F" | grep -q '<Key>' && break
  sleep 0.05
done
kill -KILL $pid
wait $pid 2>/dev/null
got=$(code "$ep/$bucket/kill/dlsize-dataset.json")
[[ $got == 404 ]] && pass "killed before its manifest was written" \
  || fail "datagen finished before the kill (HTTP $got for its manifest; $(cat "$tmp/kill.out"))"
out=$("$DLSIZE" datagen "${files[@]}" --dataset "s3://$bucket/kill" --files 800 "${s3[@]}" 2>&1)
check_rc 0 $? "the resumed datagen: $out"
kept=$(sed -n 's/.*written, \([0-9]*\) kept.*/\1/p' <<<"$out")
((kept > 0)) && pass "the resume kept $kept objects of the killed run" || fail "resume: $out"
out=$("$DLSIZE" verify "s3://$bucket/kill" "${s3[@]}" --quiet 2>&1)
[[ $? == 0 && $out == *"800 objects"*OK* ]] && pass "the resumed dataset verifies" \
  || fail "verify after resume: $out"

# Credentials: a wrong secret (exit 2, the cause named, no secret), a profile, a missing one.
secret=wrongSecretValue0000000000000000000000042
out=$(AWS_SECRET_ACCESS_KEY=$secret "$DLSIZE" verify "s3://$bucket/r50" "${s3[@]}" 2>&1)
check_rc 2 $? "verify with a wrong secret"
[[ $out == *SignatureDoesNotMatch* && $out != *"$secret"* && $out != *"$AWS_SECRET_ACCESS_KEY"* ]] \
  && pass "a wrong secret is named as the cause, without either secret" || fail "wrong secret: $out"
printf '[bench]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$AWS_ACCESS_KEY_ID" \
  "$AWS_SECRET_ACCESS_KEY" >"$tmp/credentials"
out=$(env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_SHARED_CREDENTIALS_FILE="$tmp/credentials" \
  "$DLSIZE" verify "s3://$bucket/shards" "${s3[@]}" --s3-profile bench --quiet 2>&1)
check_rc 0 $? "verify signed with --s3-profile bench: $out"
out=$(AWS_SHARED_CREDENTIALS_FILE="$tmp/credentials" "$DLSIZE" verify "s3://$bucket/shards" \
  "${s3[@]}" --s3-profile prod 2>&1)
[[ $? == 2 && $out == *"--s3-profile: no profile 'prod'"* && $out != *"$AWS_SECRET_ACCESS_KEY"* ]] \
  && pass "a missing profile is refused naming --s3-profile" || fail "missing profile: $out"
out=$(env -u AWS_ENDPOINT_URL -u AWS_ENDPOINT_URL_S3 HOME="$tmp" "$DLSIZE" verify "s3://$bucket/r50" 2>&1)
[[ $? == 2 && $out == *"--s3-endpoint: an s3:// dataset needs an endpoint"* ]] \
  && pass "no endpoint is refused naming --s3-endpoint" || fail "no endpoint: $out"
finish
