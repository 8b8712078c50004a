# Sourced by the S3 benchmarks (bench-s3.sh, bench-s3-index.sh) after `cd` to the repository and
# with $scratch set: installs the peers, builds dlsize ($dlsize), and where DLSIZE_S3_ENDPOINT and
# the AWS_ keys are not set, starts scripts/s3-server.sh under $scratch/server (stopped on exit).
scripts/deps.sh --bench
scripts/build.sh >/dev/null
dlsize=$PWD/${DLSIZE_BUILD_DIR:-build}/dlsize
mkdir -p "$scratch"
if [[ -z ${DLSIZE_S3_ENDPOINT:-} ]]; then
  scripts/s3-server.sh start "$scratch/server"
  trap 'scripts/s3-server.sh stop "$scratch/server"' EXIT
  eval "$(scripts/s3-server.sh env "$scratch/server")"
fi
ep=$DLSIZE_S3_ENDPOINT
