#!/usr/bin/env bash
# The S3 client (src/s3) against radosgw, the CTest fixture s3 (scripts/s3-server.sh): the server
# started within a minute and checks signatures (a signed request passes, an unsigned one and a
# wrong secret get 403); then the client's tests ([.s3-server] in tests/unit/test_s3_client.cpp): put,
# get whole and by range, head, delete, a listing of several pages, a multipart upload and an
# aborted one, and a wrong secret refused with a message that shows no secret.
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3

start_ms=$(cat "$DLSIZE_S3_FIXTURE/start_ms")
((start_ms < 60000)) && pass "the S3 server started in $start_ms ms (under a minute)" \
  || fail "the S3 server took $start_ms ms to start (more than a minute)"

sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[[ $(status "${sign[@]}" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$DLSIZE_S3_ENDPOINT/") == 200 ]] \
  && pass "a signed request is answered 200" || fail "a signed request was refused"
[[ $(status -X PUT "$DLSIZE_S3_ENDPOINT/dlsize-anonymous-bucket") == 403 ]] \
  && pass "an unsigned bucket creation is refused (403)" || fail "an unsigned request was not refused"
[[ $(status "${sign[@]}" --user "$AWS_ACCESS_KEY_ID:wrong$AWS_SECRET_ACCESS_KEY" "$DLSIZE_S3_ENDPOINT/") == 403 ]] \
  && pass "a wrong secret is refused (403)" || fail "a wrong secret was accepted"

if out=$("$DLSIZE_UNIT_TESTS" "[.s3-server]" 2>&1); then
  pass "the client's tests against radosgw: $(echo "$out" | tail -1)"
else
  fail "the client's tests against radosgw:"
  echo "$out"
fi
finish
