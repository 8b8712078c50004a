#!/usr/bin/env bash
# labels: integration mpi
# dlsize index on a folder of foreign files written by foreign_dataset.py (TFRecord with real
# length headers and CRCs, NPY/NPZ, JPEG/PNG headers, Parquet, a WebDataset tar, nested folders,
# a symlink, a hard link, a FIFO, a GZIP TFRecord): the record boundaries against the script's,
# every skip named, index stats, bench through the index (storage only and emulated), the bad
# inputs (a resume state of another scan among them; resuming after SIGKILL and hung metadata
# calls are in test_faults.sh, which has the FUSE file system), and the tree unchanged afterwards (names, sizes, mtimes, ctimes, inodes).
source "$(dirname "$0")/lib.sh"
D=$SCRATCH/data
I=$SCRATCH/idx.json
$PY "$ROOT/tests/integration/foreign_dataset.py" "$D" "$SCRATCH/expected.json"
snapshot() {
  $PY - "$1" <<'PYEOF'
import os, sys
root = sys.argv[1]
for base, dirs, files in os.walk(root):
    for n in sorted(dirs + files):
        p = os.path.join(base, n)
        s = os.lstat(p)
        print(ascii(os.path.relpath(p, root)), s.st_mode, s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino, s.st_nlink)
PYEOF
}
snapshot "$D" | sort >"$SCRATCH/before.txt"
[[ $(wc -l <"$SCRATCH/before.txt") -gt 30 ]] && pass "snapshot of the tree" || fail "snapshot"

expect_rc 0 "index of the foreign folder" -- "$DLSIZE" index "$D" --out "$I" --threads 4 --quiet
if errors=$($PY - "$I" "$SCRATCH/expected.json" <<'PYEOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
h, rest = lines[0], lines[1:]
exp = json.load(open(sys.argv[2]))
files = {l["path"]: l for l in rest if "skipped" not in l}
skipped = {l["path"]: l["skipped"] for l in rest if "skipped" in l}
bad = []
def want(c, what):
    if not c:
        bad.append(what)
want(h["schema"] == "dlsize.index/1" and h["counts"]["lines"] == len(rest), "header lines")
want(h["counts"]["files"] == len(files), "header files")
for p, recs in exp["tfrecord"].items():
    want(files[p]["format"] == "tfrecord" and files[p]["records"] == recs, "tfrecord " + p)
for p, recs in exp["parquet"].items():
    want(files[p]["format"] == "parquet" and files[p]["records"] == recs, "parquet " + p)
for p, n in exp["tar"].items():
    want(files[p]["format"] == "tar" and files[p]["samples"] == n, "tar " + p)
for p, (w, hh) in exp["images"].items():
    d = files[p]["details"]
    want(files[p]["samples"] == 1 and (d["width"], d["height"]) == (w, hh), "image " + p)
for p, shape in exp["npy"].items():
    want(files[p]["format"] == "npy" and files[p]["details"]["shape"] == shape, "npy " + p)
for p, members in exp["npz"].items():
    got = {m["name"]: m.get("shape") for m in files[p]["details"]["listed"]}
    want(files[p]["format"] == "npz" and got == members, "npz " + p)
want(skipped.get("link.jpg") == "symlink", "symlink skipped")
want(skipped.get("pipe") == "special", "FIFO skipped")
want(skipped.get("odd\ufffdname.bin") == "unreadable", "a name that is not UTF-8 skipped")
want(skipped.get("shards/eval.tfrecord") == "compressed", "GZIP TFRecord skipped")
want(list(skipped.values()).count("hardlink") == 1, "hard link counted once")
want(sum(f["samples"] for f in files.values()) == h["counts"]["samples"], "samples add up")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PYEOF
); then pass "TFRecord boundaries, row groups, members, dimensions, shapes and skips as written"; else fail "index content: $errors"; fi

expect_rc 2 "--out under DIR is refused" -- "$DLSIZE" index "$D" --out "$D/x.json" --quiet
expect_rc 2 "an existing --out is refused" -- "$DLSIZE" index "$D" --out "$I" --quiet
[[ ! -e $I.resume ]] && pass "a finished index leaves no resume state" || fail "$I.resume left behind"
# A resume state of another scan (here another DIR) is refused, naming it, and left as it was.
printf '{"schema":"dlsize.index-resume/1","scan":{"dir":"/elsewhere","options":{}}}\n' >"$SCRATCH/r.json.resume"
cp "$SCRATCH/r.json.resume" "$SCRATCH/r.before"
expect_rc 2 "a resume state of another scan is refused" -- "$DLSIZE" index "$D" --out "$SCRATCH/r.json" --quiet
expect_text "the resume state '$SCRATCH/r.json.resume' is of another scan" "the message names the state file"
cmp -s "$SCRATCH/r.json.resume" "$SCRATCH/r.before" && [[ ! -e $SCRATCH/r.json ]] && pass "the other scan's state is kept, no index written" \
  || fail "the other scan's state changed"
expect_rc 2 "--stall-timeout below 1s is refused" -- "$DLSIZE" index "$D" --out "$SCRATCH/st.json" --stall-timeout 200ms --quiet
expect_rc 2 "a missing DIR is refused" -- "$DLSIZE" index "$SCRATCH/nope" --out "$SCRATCH/n.json" --quiet
expect_rc 0 "--exclude" -- "$DLSIZE" index "$D" --out "$SCRATCH/ex.json" --exclude '*.txt' --exclude wds --quiet
[[ $(grep -c -e notes.txt -e wds/ "$SCRATCH/ex.json") -eq 0 && $(head -1 "$SCRATCH/ex.json" | json /dev/stdin 'r["counts"]["excluded"]') -eq 2 ]] \
  && pass "excluded names and folders are left out and counted" || fail "--exclude"
expect_rc 0 "--symlinks follow" -- "$DLSIZE" index "$D" --out "$SCRATCH/fl.json" --symlinks follow --quiet
grep -q '"path":"link.jpg".*"format":"jpeg"' "$SCRATCH/fl.json" && pass "a followed symlink is indexed" || fail "--symlinks follow"
# A link to the root (self -> .) and a twin link to a folder: each folder is walked once, by
# (device, inode), so no file is listed twice.
L=$SCRATCH/loop && mkdir -p "$L/sub" && head -c 4096 /dev/urandom >"$L/a.bin" && head -c 4096 /dev/urandom >"$L/sub/b.bin"
ln -s . "$L/self" && ln -s sub "$L/twin"
expect_rc 0 "--symlinks follow with a self -> . link" -- "$DLSIZE" index "$L" --out "$SCRATCH/loop.json" --symlinks follow --quiet
[[ $(head -1 "$SCRATCH/loop.json" | json /dev/stdin 'r["counts"]["files"]') == 2 && $(grep -c '"size":4096' "$SCRATCH/loop.json") -eq 2 ]] \
  && pass "every file listed once (the root and sub walked once each)" || fail "loop: $(cat "$SCRATCH/loop.json")"
expect_rc 0 "--metadata-only" -- "$DLSIZE" index "$D" --out "$SCRATCH/md.json" --metadata-only --quiet
[[ $(head -1 "$SCRATCH/md.json" | json /dev/stdin '"%d %s" % (r["counts"]["content_bytes_read"], list(r["counts"]["formats"]))') == "0 ['unprobed']" ]] \
  && pass "a metadata-only scan reads no content" || fail "--metadata-only: $(head -c 300 "$SCRATCH/md.json")"
printf 'shards/train-00000-of-00003.tfrecord\n./images/a/img000.jpg\n../etc/passwd\n' >"$SCRATCH/list.txt"
expect_rc 0 "--files-from" -- "$DLSIZE" index "$D" --out "$SCRATCH/list.json" --files-from "$SCRATCH/list.txt" --quiet
[[ $(head -1 "$SCRATCH/list.json" | json /dev/stdin '"%d %s" % (r["counts"]["files"], r["counts"]["skipped"])') == "2 {'outside': 1}" ]] \
  && pass "a file list indexes the paths given and refuses one outside DIR" || fail "--files-from: $(head -c 300 "$SCRATCH/list.json")"

# A file that disappears during the scan: readdir named it, and by the time of its stat it is
# gone (ENOENT). A --files-from list naming a file that does not exist takes that same path (the
# name comes first, the stat finds nothing) deterministically, where a real race would not.
printf 'images/a/img000.jpg\nimages/a/gone.jpg\n' >"$SCRATCH/gone.txt"
expect_rc 0 "a listed file that is not there" -- "$DLSIZE" index "$D" --out "$SCRATCH/gone.json" --files-from "$SCRATCH/gone.txt" --quiet
grep -q '"path":"images/a/gone.jpg","reason":"No such file or directory","skipped":"unreadable"' "$SCRATCH/gone.json" \
  && [[ $(head -1 "$SCRATCH/gone.json" | json /dev/stdin 'r["counts"]["files"]') == 1 ]] \
  && pass "a file gone before its stat is a named skip, the rest indexed" || fail "gone: $(cat "$SCRATCH/gone.json")"

# Unreadable files and folders: root reads anything, so as nobody where setpriv allows it.
if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
  nb=$(mktemp -d /tmp/dlsize-index.XXXXXX)
  mkdir -p "$nb/d/sub" "$nb/closed" && echo secret >"$nb/d/locked.bin" && echo open >"$nb/d/open.bin"
  echo hidden >"$nb/d/sub/in.bin" && echo hidden >"$nb/closed/in.bin"
  cp "$DLSIZE" "$nb/dlsize" && chmod 755 "$nb" "$nb/d" && chmod 000 "$nb/d/locked.bin" "$nb/d/sub" "$nb/closed"
  chown 65534 "$nb"
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if "${as_nobody[@]}" "$nb/dlsize" index "$nb/d" --out "$nb/i.json" --quiet >/dev/null 2>&1; then
    grep -q '"path":"locked.bin","reason":"Permission denied","skipped":"unreadable"' "$nb/i.json" \
      && pass "an unreadable file is skipped with the reason" || fail "unreadable: $(cat "$nb/i.json")"
    grep -q '"path":"sub/","reason":"Permission denied","skipped":"unreadable"' "$nb/i.json" \
      && pass "an unreadable folder under DIR is skipped with the reason" || fail "unreadable folder: $(cat "$nb/i.json")"
    expect_rc 2 "an unreadable DIR is refused" -- "${as_nobody[@]}" "$nb/dlsize" index "$nb/closed" --out "$nb/c.json" --quiet
    expect_text "index: DIR '$nb/closed' cannot be read: Permission denied" "the refusal names DIR and the reason"
    [[ ! -e $nb/c.json && ! -e $nb/c.json.resume ]] && pass "a refused DIR leaves no index or resume state" || fail "left: $(ls "$nb")"
  else
    skip_part "an unprivileged user cannot run dlsize from /tmp here"
  fi
  rm -rf "$nb"
else
  skip_part "the unreadable file and folder cases need root and setpriv (as another user, chmod 000 is not unreadable to root)"
fi

expect_rc 0 "index stats" -- "$DLSIZE" index stats "$I" --json --emit-workload "$SCRATCH/shape.json"
samples=$(head -1 "$I" | json /dev/stdin 'r["counts"]["samples"]')
[[ $(json "$SCRATCH/stdout" '"%d %d %d" % (r["samples"], r["sample_bytes"]["count"], r["files_per_folder"]["max"])') == "$samples $samples 12" ]] \
  && pass "stats count every sample; files per folder" || fail "stats: $(head -c 400 "$SCRATCH/stdout")"
expect_rc 0 "datagen makes a synthetic copy from the emitted profile" -- "$DLSIZE" datagen --workload "$SCRATCH/shape.json" --dataset "$SCRATCH/copy" --files 3 --quiet
[[ $(json "$SCRATCH/shape.json" 'len(r["dataset"]["sample_bytes"]["histogram"])') -gt 5 && \
   $(json "$SCRATCH/copy/dlsize-dataset.json" 'r["params"]["sample_bytes"]["histogram"] == json.load(open(sys.argv[1].replace("copy/dlsize-dataset.json", "shape.json")))["dataset"]["sample_bytes"]["histogram"]') == True ]] \
  && pass "the profile and the copy's manifest carry the measured size histogram" || fail "histogram in profile or manifest"

digest=$(head -1 "$I" | json /dev/stdin 'r["digest"]')
expect_rc 0 "bench --index alone, storage only" -- "$DLSIZE" bench --index "$I" --workload resnet50 --accelerator none --out "$SCRATCH/s.json" --quiet
[[ $(json "$SCRATCH/s.json" '"%s %d %s %d" % (r["status"], r["summary"]["samples"], r["dataset"]["index"]["digest"], r["dataset"]["index"]["sample_bytes"]["count"])') == "complete $samples $digest $samples" ]] \
  && pass "every indexed sample read; the report has the digest and the size distribution" || fail "storage-only report"
expect_rc 0 "bench --dataset --index, emulated" -- "$DLSIZE" bench --dataset "$D" --index "$I" --workload resnet50 --accelerator emulated:h100 --accelerators 2 --batch-size 8 --compute-time 1ms --epochs 2 --out "$SCRATCH/e.json" --quiet
[[ $(json "$SCRATCH/e.json" '"%s %s" % (r["status"], r["dataset"]["index"]["digest"])') == "complete $digest" ]] && pass "emulated run over the index" || fail "emulated report"
validate_json "$SCRATCH/s.json" "$SCRATCH/e.json"

# The other modes through the same layout: MPI ranks, and CUDA through the fake module.
if [[ -n ${DLSIZE_MPIEXEC:-} ]] && version_has "mpi: yes"; then
  expect_rc 0 "bench --index as 2 MPI ranks" -- timeout -k 5 60 "$DLSIZE_MPIEXEC" -np 2 "$DLSIZE" bench --index "$I" --workload resnet50 --accelerator emulated:h100 --accelerators 4 --batch-size 4 --compute-time 1ms --out "$SCRATCH/m.json" --quiet
  [[ $(json "$SCRATCH/m.json" '"%s %d %s" % (r["status"], r["topology"]["ranks"], r["dataset"]["index"]["digest"])') == "complete 2 $digest" ]] \
    && pass "2 ranks read the indexed dataset" || fail "MPI report"
else
  skip_part "this build has no MPI (or DLSIZE_MPIEXEC is unset)"
fi
if version_has "cuda: yes"; then
  expect_rc 0 "bench --index on the fake GPU" -- env DLSIZE_CUDA_MODULE="$(dirname "$DLSIZE")/tests/modules/dlsize_fake_cuda.so" DLSIZE_FAKE_BUSY_MS=1 \
    "$DLSIZE" bench --index "$I" --workload resnet50 --accelerator cuda --batch-size 8 --cache buffered --out "$SCRATCH/g.json" --quiet
  [[ $(json "$SCRATCH/g.json" '"%s %s" % (r["status"], r["dataset"]["index"]["digest"])') == "complete $digest" ]] && pass "CUDA run over the index" || fail "CUDA report"
else
  skip_part "this build has no CUDA backend (the fake module needs one)"
fi

mkdir -p "$SCRATCH/other"
expect_rc 2 "an index of another folder is refused" -- "$DLSIZE" bench --dataset "$SCRATCH/other" --index "$I" --workload resnet50 --accelerator none --out "$SCRATCH/x1.json" --quiet
expect_text "is an index of" "the message names both folders"
$PY -c 'import sys; l = open(sys.argv[1]).read().split("\n"); i = next(k for k in range(1, len(l)) if "\"size\":" in l[k]); l[i] = l[i].replace("\"size\":", "\"size\":1", 1); open(sys.argv[2], "w").write("\n".join(l))' "$I" "$SCRATCH/edited.json"
expect_rc 2 "a hand-edited index is refused" -- "$DLSIZE" bench --index "$SCRATCH/edited.json" --workload resnet50 --accelerator none --out "$SCRATCH/x2.json" --quiet
expect_text "edited by hand" "the message says why"
expect_rc 2 "a missing DIR is refused by bench" -- "$DLSIZE" bench --dataset "$SCRATCH/nope" --index "$I" --workload resnet50 --accelerator none --out "$SCRATCH/x3.json" --quiet
expect_rc 2 "--verify with an index of mixed formats is refused" -- "$DLSIZE" bench --index "$I" --workload resnet50 --accelerator none --verify --out "$SCRATCH/x4.json" --quiet
expect_text "is not a TFRecord" "the refusal says which file is not a TFRecord (TFRecord-only indexes: test_index_verify.sh)"

# A changed file, in a copy of the tree (the original stays untouched).
cp -a "$D" "$SCRATCH/d2"
expect_rc 0 "index of the copy" -- "$DLSIZE" index "$SCRATCH/d2" --out "$SCRATCH/i2.json" --quiet
echo x >>"$SCRATCH/d2/images/a/img003.jpg"
expect_rc 1 "a changed file stops the run" -- "$DLSIZE" bench --index "$SCRATCH/i2.json" --workload resnet50 --accelerator none --out "$SCRATCH/x5.json" --quiet
expect_text "img003.jpg" "the changed file is named"
expect_rc 0 "--on-change skip" -- "$DLSIZE" bench --index "$SCRATCH/i2.json" --on-change skip --workload resnet50 --accelerator none --out "$SCRATCH/c.json" --quiet
[[ $(json "$SCRATCH/c.json" '"%d %d" % (r["dataset"]["index"]["changed"]["count"], r["summary"]["samples"])') == "1 $((samples - 1))" ]] \
  && pass "the changed file is counted, named and left out" || fail "--on-change skip"

snapshot "$D" | sort >"$SCRATCH/after.txt"
diff "$SCRATCH/before.txt" "$SCRATCH/after.txt" >/dev/null && pass "the tree is unchanged: names, sizes, mtimes, ctimes, inodes" \
  || fail "the tree changed: $(diff "$SCRATCH/before.txt" "$SCRATCH/after.txt" | head -5)"
finish
