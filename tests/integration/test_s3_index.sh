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

# 10,000 objects of 100 bytes, 100 a prefix, by one curl of 32 parallel PUTs.
head -c 100 /dev/urandom >"$SCRATCH/obj"
for p in $(seq -w 0 99); do for o in $(seq -w 0 99); do
  echo "p$p/o$o.bin"
done; done >"$SCRATCH/want"
awk -v ep="$ep/$bucket/ds" -v f="$SCRATCH/obj" \
  '{ printf "url = \"%s/%s\"\nupload-file = \"%s\"\noutput = \"/dev/null\"\n", ep, $0, f }' \
  "$SCRATCH/want" >"$SCRATCH/put.cfg"
curl -s -Z --parallel-max 32 "${sign[@]}" -K "$SCRATCH/put.cfg" || fail "the parallel PUT failed"
paths() { tail -n +2 "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    j = json.loads(l)
    if "skipped" not in j: print(j["path"], j["size"], j["format"])' | sort; }
sort "$SCRATCH/want" | sed 's/$/ 100 unprobed/' >"$SCRATCH/want.lines"

I=$SCRATCH/list.json
expect_rc 0 "an index of the bucket by listing" -- "$DLSIZE" index "s3://$bucket/ds" --out "$I" \
  --metadata-only --quiet "${s3[@]}"
expect_text "10000 objects" "10,000 objects indexed"
expect_text "100 prefixes" "over 100 prefixes"
paths "$I" >"$SCRATCH/got"
cmp -s "$SCRATCH/got" "$SCRATCH/want.lines" && pass "the index equals the set written" \
  || fail "the index differs from the set written: $(diff "$SCRATCH/got" "$SCRATCH/want.lines" | head -3)"
[[ $(head -1 "$I" | python3 -c 'import json,sys; h=json.load(sys.stdin); print(h["s3"]["bucket"], h["s3"]["prefix"], h["s3"]["endpoints"][0])') == "$bucket ds $ep" ]] \
  && pass "the header records the bucket, prefix and endpoint" || fail "header: $(head -c 400 "$I")"

# SIGINT mid-listing (one thread: a LIST at a time), then the same command resumes.
R=$SCRATCH/resumed.json
one=("$DLSIZE" index "s3://$bucket/ds" --out "$R" --metadata-only --threads 1 --quiet "${s3[@]}")
interrupt_after 0.5 -- "${one[@]}"
[[ -s $R.resume && ! -e $R ]] && pass "an interrupted index leaves its resume state, no index" \
  || fail "after SIGINT: $(ls "$SCRATCH")"
expect_rc 0 "the same command resumes" -- "${one[@]}"
expect_text "resumed (" "it says it resumed"
paths "$R" >"$SCRATCH/got"
cmp -s "$SCRATCH/got" "$SCRATCH/want.lines" && [[ ! -e $R.resume ]] \
  && pass "the resumed index equals the set written" || fail "resumed index differs"

# A key list with sizes: no LIST of the prefix, the same lines as the listing.
sed "s#^#ds/#; s#\$# 100#" "$SCRATCH/want" >"$SCRATCH/keys"
K=$SCRATCH/keys.json
expect_rc 0 "an index of a key list" -- "$DLSIZE" index "s3://$bucket/ds" --keys "$SCRATCH/keys" \
  --out "$K" --metadata-only --quiet "${s3[@]}"
expect_text "0 HEAD, 0 GET" "sizes given: no HEAD or GET"
paths "$K" >"$SCRATCH/got"
cmp -s "$SCRATCH/got" "$SCRATCH/want.lines" && pass "the --keys index equals the listed one" \
  || fail "the --keys index differs"

# Keys without sizes are headed; formats probed by ranged GETs; a missing key is skipped.
printf '\x93NUMPY\x01\x00\x76\x00{"descr": "<f4", "fortran_order": False, "shape": (4,), }' >"$SCRATCH/a.npy"
printf '%*s\n' $((128 - 10 - 59 - 1)) '' | tr -d '\n' >>"$SCRATCH/a.npy"; echo >>"$SCRATCH/a.npy"
head -c 16 /dev/zero >>"$SCRATCH/a.npy"
curl -s "${sign[@]}" -T "$SCRATCH/a.npy" "$ep/$bucket/ds/p00/a.npy" -o /dev/null
printf 'ds/p00/a.npy\nds/p01/o07.bin\nds/p01/gone.bin\n' >"$SCRATCH/few"
F=$SCRATCH/few.json
expect_rc 0 "an index of keys without sizes, probed" -- "$DLSIZE" index "s3://$bucket/ds" \
  --keys "$SCRATCH/few" --out "$F" --quiet "${s3[@]}"
expect_text "3 HEAD" "each key without a size is headed"
got=$(tail -n +2 "$F" | python3 -c '
import json, sys
for l in sys.stdin:
    j = json.loads(l); print(j["path"], j.get("format", j.get("skipped")))' | sort | tr '\n' ,)
[[ $got == "p00/a.npy npy,p01/gone.bin missing,p01/o07.bin other," ]] \
  && pass "formats from ranged GETs (npy, other), the missing key skipped" || fail "probed: $got"

# bench --index reads the bucket's index through the s3 engine.
expect_rc 0 "bench --index of the bucket's index" -- "$DLSIZE" bench --index "$I" \
  --workload resnet50 --time-limit 1s --quiet --out "$SCRATCH/b.json" "${s3[@]}"
[[ $(json "$SCRATCH/b.json" 'r["storage"]["s3"]["requests"] > 0 and r["storage"]["s3"]["errors"] == 0') == True ]] \
  && pass "bench read objects of the index, no error" || fail "bench: $(head -c 300 "$SCRATCH/b.json")"
expect_rc 2 "an index of another endpoint is refused" -- "$DLSIZE" bench --index "$I" \
  --workload resnet50 --time-limit 1s --quiet --s3-endpoint http://127.0.0.1:1
expect_text "--s3-endpoint: the index" "the message names --s3-endpoint"
expect_rc 2 "an index of another prefix is refused" -- "$DLSIZE" bench --index "$I" \
  --dataset "s3://$bucket/other" --workload resnet50 --time-limit 1s --quiet "${s3[@]}"
expect_text "--dataset: the index" "the message names --dataset"

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
finish
