# Sourced by the S3 benchmarks (bench-s3.sh, bench-s3-checkpoint.sh, bench-s3-index.sh) after
# `cd` to the repository and with $scratch set: installs the peers, builds dlsize ($dlsize), and
# where AWS_ENDPOINT_URL_S3 and the AWS_ keys are not set, starts scripts/s3-server.sh under
# $scratch/server (stopped on exit). Then $ep is the endpoint, `s3_bucket NAME` makes the bucket
# NAME, and s3_gc has radosgw free the objects deleted so far (it does so only at its garbage
# collection, hours later; the memstore of scripts/s3-server.sh holds 2 GiB) when the server's
# folder is known (S3_SERVER_DIR, or the one started here).
scripts/deps.sh --bench
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
mkdir -p "$scratch"
if [[ -z ${AWS_ENDPOINT_URL_S3:-} ]]; then
  S3_SERVER_DIR=$scratch/server
  scripts/s3-server.sh start "$scratch/server"
  trap 'scripts/s3-server.sh stop "$scratch/server"' EXIT
  eval "$(scripts/s3-server.sh env "$scratch/server")"
fi
ep=$AWS_ENDPOINT_URL_S3
s3_bucket() {
  curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -X PUT "$ep/$1" >/dev/null
}
s3_gc() {
  [[ -n ${S3_SERVER_DIR:-} ]] || return 0
  radosgw-admin -c "$S3_SERVER_DIR/ceph.conf" gc process --include-all >/dev/null 2>&1 || true
}
