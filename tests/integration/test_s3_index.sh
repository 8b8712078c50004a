#!/usr/bin/env bash
# dlsize index of a bucket (radosgw, the CTest fixture s3): 10,000 objects over 100 prefixes
# indexed by listing equal the set written; a SIGINT mid-listing leaves a resume state and the
# same command completes the same set; a --keys index (sizes given) equals the listed one, and
# keys without sizes are headed (a missing one skipped, named); formats probed by ranged GETs;
# bench --index reads it through the s3 engine and refuses another endpoint or prefix (exit 2
# naming the option); bad --keys lines and file options refused (exit 2).
# labels: s3
source "$(dirname "$0")/lib.sh"
require_s3
ep=$DLSIZE_S3_ENDPOINT
bucket=ix-index-$$-$RANDOM
s3=(--s3-endpoint "$ep")
sign=(--aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY")
[[ $(curl -s "${sign[@]}" -o /dev/null -w '%{http_code}' -X PUT "$ep/$bucket") == 200 ]] \
  || { fail "cannot create bucket $bucket"; finish; exit 1; }

# 10,000 objects of 1 byte, 100 a prefix, by one curl of 16 parallel PUTs in the background
# (radosgw-bound, most of the test's time); the checks that need none of them run meanwhile.
printf x >"$SCRATCH/obj"
for p in $(seq -w 0 99); do for o in $(seq -w 0 99); do
  echo "p$p/o$o.bin"
done; done >"$SCRATCH/want"
awk -v ep="$ep/$bucket/ds" -v f="$SCRATCH/obj" \
  '{ printf "url = \"%s/%s\"\nupload-file = \"%s\"\noutput = \"/dev/null\"\n", ep, $0, f }' \
  "$SCRATCH/want" >"$SCRATCH/put.cfg"
curl -s -Z --parallel-max 16 "${sign[@]}" -K "$SCRATCH/put.cfg" 2>"$SCRATCH/put.err" &
put_pid=$!
sort "$SCRATCH/want" | sed 's/$/ 1 unprobed/' >"$SCRATCH/want.lines"

# A key list with sizes: no LIST of the prefix, no HEAD or GET (compared with the listing below).
sed "s#^#ds/#; s#\$# 1#" "$SCRATCH/want" >"$SCRATCH/keys"
K=$SCRATCH/keys.json
expect_rc 0 "an index of a key list" -- "$DLSIZE" index "s3://$bucket/ds" --keys "$SCRATCH/keys" \
  --out "$K" --metadata-only --quiet "${s3[@]}"
expect_text "0 HEAD, 0 GET" "sizes given: no HEAD or GET"

# Keys without sizes are headed; formats probed by ranged GETs; a missing key is skipped (under
# a prefix of their own, apart from the 10,000).
printf '\x93NUMPY\x01\x00\x76\x00{"descr": "<f4", "fortran_order": False, "shape": (4,), }' >"$SCRATCH/a.npy"
printf '%*s\n' $((128 - 10 - 59 - 1)) '' | tr -d '\n' >>"$SCRATCH/a.npy"; echo >>"$SCRATCH/a.npy"
head -c 16 /dev/zero >>"$SCRATCH/a.npy"
head -c 100 /dev/urandom >"$SCRATCH/o.bin"
for f in a.npy o.bin; do
  curl -s "${sign[@]}" -T "$SCRATCH/$f" "$ep/$bucket/probe/$f" -o /dev/null
done
printf 'probe/a.npy\nprobe/o.bin\nprobe/gone.bin\n' >"$SCRATCH/few"
F=$SCRATCH/few.json
expect_rc 0 "an index of keys without sizes, probed" -- "$DLSIZE" index "s3://$bucket/probe" \
  --keys "$SCRATCH/few" --out "$F" --quiet "${s3[@]}"
expect_text "3 HEAD" "each key without a size is headed"

# Bad input.
echo "elsewhere/k 5" >"$SCRATCH/bad"
expect_rc 2 "a key outside the prefix" -- "$DLSIZE" index "s3://$bucket/ds" --keys "$SCRATCH/bad" \
  --out "$SCRATCH/bad.json" "${s3[@]}"
expect_text "line 1: key 'elsewhere/k' is not under the prefix" "names --keys, the line and the key"
[[ ! -e $SCRATCH/bad.json && ! -e $SCRATCH/bad.json.resume ]] && pass "nothing left by a refused --keys" \
  || fail "left: $(ls "$SCRATCH")"
expect_rc 2 "--symlinks with a bucket" -- "$DLSIZE" index "s3://$bucket/ds" --symlinks follow \
  --out "$SCRATCH/s.json" "${s3[@]}"
expect_rc 2 "--keys with a folder" -- "$DLSIZE" index "$SCRATCH" --keys "$SCRATCH/keys" \
  --out "$SCRATCH/f.json"
expect_text "--keys: names objects of a bucket" "names --keys"

wait $put_pid || fail "the parallel PUT failed: $(head -c 300 "$SCRATCH/put.err")"
I=$SCRATCH/list.json
expect_rc 0 "an index of the bucket by listing" -- "$DLSIZE" index "s3://$bucket/ds" --out "$I" \
  --metadata-only --quiet "${s3[@]}"
expect_text "10000 objects" "10,000 objects indexed"
expect_text "100 prefixes" "over 100 prefixes"

# SIGINT once the resume state holds a few prefixes (about 11 KB each, of 100), then the same
# command resumes and completes the same set.
R=$SCRATCH/resumed.json
one=("$DLSIZE" index "s3://$bucket/ds" --out "$R" --metadata-only --threads 4 --quiet "${s3[@]}")
interrupt_when_grown "$R.resume" 40000 -- "${one[@]}"
[[ -s $R.resume && ! -e $R ]] && pass "an interrupted index leaves its resume state, no index" \
  || fail "after SIGINT: $(ls "$SCRATCH")"
expect_rc 0 "the same command resumes" -- "${one[@]}"
expect_text "resumed (" "it says it resumed"
[[ ! -e $R.resume ]] && pass "the resume state is gone once complete" || fail "$R.resume left"

# bench --index reads the bucket's index through the s3 engine.
expect_rc 0 "bench --index of the bucket's index" -- "$DLSIZE" bench --index "$I" \
  --workload resnet50 --time-limit 1s --quiet --out "$SCRATCH/b.json" "${s3[@]}"
expect_rc 2 "an index of another endpoint is refused" -- "$DLSIZE" bench --index "$I" \
  --workload resnet50 --time-limit 1s --quiet --s3-endpoint http://127.0.0.1:1
expect_text "--s3-endpoint: the index" "the message names --s3-endpoint"
expect_rc 2 "an index of another prefix is refused" -- "$DLSIZE" bench --index "$I" \
  --dataset "s3://$bucket/other" --workload resnet50 --time-limit 1s --quiet "${s3[@]}"
expect_text "--dataset: the index" "the message names --dataset"
# plan --index plans from a bucket's index as from a folder's: 10,000 samples of 1 byte.
expect_rc 0 "plan --index of the bucket's index" -- "$DLSIZE" plan --index "$I" --workload resnet50 --accelerator h100
expect_text "10.00 kB in all; mean 1 B" "plan reads the bucket index's sample sizes"

# The indexes' lines (path, size, format) against the set written, in one Python run.
check=$("$PY" - "$SCRATCH/want.lines" "$I" "$K" "$R" "$F" "$SCRATCH/b.json" <<'PY'
import json, sys
def lines(path):
    rows = [json.loads(l) for l in open(path).read().splitlines()[1:]]
    return sorted(f'{j["path"]} {j["size"]} {j["format"]}' for j in rows if "skipped" not in j)
want = open(sys.argv[1]).read().splitlines()
listed, keys, resumed = (lines(p) for p in sys.argv[2:5])
header = json.loads(open(sys.argv[2]).readline())["s3"]
probed = [json.loads(l) for l in open(sys.argv[5]).read().splitlines()[1:]]
s3 = json.load(open(sys.argv[6]))["storage"]["s3"]
print("listed", listed == want, "keys", keys == listed, "resumed", resumed == want,
      "header", header["bucket"], header["prefix"], header["endpoints"][0],
      "probed", ",".join(sorted(f'{j["path"]}:{j.get("format", j.get("skipped"))}' for j in probed)),
      "bench", s3["requests"] > 0 and s3["errors"] == 0)
PY
)
want="listed True keys True resumed True header $bucket ds $ep probed a.npy:npy,gone.bin:missing,o.bin:other bench True"
read -ra got <<<"$check"
read -ra exp <<<"$want"
names=("the index equals the set written" "the --keys index equals the listed one"
  "the resumed index equals the set written" "the header records the bucket, prefix and endpoint"
  "formats from ranged GETs (npy, other), the missing key skipped" "bench read objects of the index, no error")
fields=(1 3 5 "7 8 9" 11 13)
for i in "${!names[@]}"; do
  ok=1
  for f in ${fields[$i]}; do [[ ${got[$f]:-} == "${exp[$f]}" ]] || ok=0; done
  ((ok)) && pass "${names[$i]}" || fail "${names[$i]}: got '$check'"
done
finish
