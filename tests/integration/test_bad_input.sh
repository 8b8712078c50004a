#!/usr/bin/env bash
# labels: faults
# Bad input gets a clear error and exit 2 (usage) or 1 (run failure), and nothing is overwritten.
source "$(dirname "$0")/lib.sh"
expect_rc 2 "unknown workload" -- "$DLSIZE" datagen --workload nosuch --dataset "$SCRATCH/x" --size 1MiB
expect_text "known: " "message lists the known workloads"
expect_text "resnet50" "message lists resnet50"
expect_text "unet3d" "message lists unet3d too"
echo hello >"$SCRATCH/afile"
expect_rc 2 "dataset folder under a regular file" -- "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/afile/sub" --size 1MiB
expect_text "--dataset" "message names --dataset"
expect_rc 2 "unwritable folder" -- "$DLSIZE" datagen --workload resnet50 --dataset /proc/dlsize-test --size 1MiB
expect_rc 2 "size below one record" -- "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/small" --size 100B
expect_text "smaller than one record" "message says why"
expect_rc 2 "bad size unit" -- "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/small" --size 3parsecs
expect_text "--size" "message names --size"
mkdir -p "$SCRATCH/foreign"; echo keep >"$SCRATCH/foreign/mine.txt"
expect_rc 2 "foreign non-empty folder" -- "$DLSIZE" datagen --workload resnet50 --dataset "$SCRATCH/foreign" --size 1MiB
[[ $(ls "$SCRATCH/foreign") == mine.txt && $(cat "$SCRATCH/foreign/mine.txt") == keep ]] && pass "foreign file untouched" || fail "foreign folder changed"
ds=$SCRATCH/ds
"$DLSIZE" datagen --workload resnet50 --layout files --dataset "$ds" --size 8MiB --quiet >/dev/null
expect_rc 2 "other parameters on an existing dataset" -- "$DLSIZE" datagen --workload resnet50 --layout files --dataset "$ds" --size 8MiB --seed 9
expect_text "different dataset" "message says it holds a different dataset"
expect_rc 2 "dataset of another workload" -- "$DLSIZE" bench --workload unet3d --dataset "$ds"
expect_text "generated for workload 'resnet50'" "message names the dataset's workload"
expect_rc 2 "not a dataset" -- "$DLSIZE" bench --workload resnet50 --dataset "$SCRATCH/foreign"
expect_text "dlsize-dataset.json is missing" "message names the manifest"
echo precious >"$SCRATCH/report.json"
expect_rc 2 "existing --out" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --out "$SCRATCH/report.json"
[[ $(cat "$SCRATCH/report.json") == precious ]] && pass "existing report untouched" || fail "report overwritten"
expect_rc 2 "bad --cache" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --cache sometimes
expect_text "valid: direct" "message lists cache modes"
expect_rc 2 "bad --engine" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --engine aio
expect_text "valid: io_uring, psync" "message lists engines"
expect_rc 2 "bad --request-size" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --request-size 1000
expect_rc 2 "bad --max-read-rate" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --max-read-rate fast
expect_rc 2 "unknown option" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --no-such-option
expect_rc 2 "accelerator not built" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator cuda
# A truncated and a missing data file.
f=$ds/data/00000/file-00000003.rec
truncate -s 5000 "$f"
expect_rc 1 "truncated data file (bench)" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --quiet
expect_text "file-00000003.rec" "bench names the truncated file"
expect_rc 1 "truncated data file (verify)" -- "$DLSIZE" verify "$ds" --quiet
expect_text "file-00000003.rec: truncated" "verify names the truncated file"
rm "$f"
expect_rc 1 "missing data file (bench)" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --quiet
expect_text "file-00000003.rec" "bench names the missing file"
expect_rc 1 "missing data file (verify)" -- "$DLSIZE" verify "$ds" --quiet
expect_text "file-00000003.rec: cannot open" "verify names the missing file"
# libcurl is loaded at the first S3 call, not linked: a host without it runs dlsize on files, and
# an S3 command there says what is missing (DLSIZE_LIBCURL names a library file that is not there).
if "$DLSIZE" --version | grep -q "^  s3: yes"; then
  ldd "$DLSIZE" | grep -q libcurl && fail "dlsize links libcurl: $(ldd "$DLSIZE" | grep libcurl)" \
    || pass "dlsize does not link libcurl"
  expect_rc 1 "an S3 command where libcurl cannot be loaded" -- env DLSIZE_LIBCURL="$SCRATCH/no/libcurl.so.4" \
    AWS_ACCESS_KEY_ID=k AWS_SECRET_ACCESS_KEY=s "$DLSIZE" verify s3://bucket/prefix --s3-endpoint http://127.0.0.1:9 --quiet
  expect_text "the S3 client needs libcurl" "the message names libcurl"
  expect_text "apt-get install libcurl4" "and says how to install it"
fi
finish
