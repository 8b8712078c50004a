#!/usr/bin/env bash
# Provenance and labels: a bench report carries tool.commit, a run_id, system.os, storage.mount
# (the scratch folder's real mount) and the label, which the terminal summary shows; bad labels
# are refused naming the option and the rule; the commit header reads "unknown" on a tree
# exported by `git archive` (no .git).
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ds=$SCRATCH/r50
"$DLSIZE" datagen --workload resnet50 --dataset "$ds" --size 32MiB --quiet >/dev/null || { echo "datagen failed"; exit 1; }

expect_rc 0 "storage-only bench with --label" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --label nfs-a.v2 --out "$SCRATCH/a.json"
expect_text "  backend     nfs-a.v2" "the terminal summary names the backend by its label"
fs_type=$(findmnt -n -o FSTYPE --target "$ds")
check=$(json "$SCRATCH/a.json" "len(r['run_id']) == 32 and all(c in '0123456789abcdef' for c in r['run_id'])
  and r['tool']['commit'] != '' and r['backend']['label'] == 'nfs-a.v2' and r['backend']['label_given']
  and r['storage']['mount']['fs_type'] == '$fs_type' and r['storage']['mount']['fs_type'] == r['dataset']['fs_type']
  and r['storage']['mount']['mount_point'] == r['dataset']['mount_point']
  and r['system']['os'] == r['system']['hosts'][0]['os'] and 'cgroup' in r['system']['hosts'][0]
  and isinstance(r['system']['hosts'][0]['numa_nodes'], list) and 'io_limits' in r['storage']")
[[ $check == True ]] && pass "the report carries run_id, tool.commit, storage.mount ($fs_type), system.os" || fail "provenance: $(json "$SCRATCH/a.json" "{k: r.get(k) for k in ('run_id', 'tool', 'backend', 'storage', 'system')}")"
want_os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
[[ $(json "$SCRATCH/a.json" "r['system']['os']['pretty_name']") == "$want_os" ]] && pass "system.os is this host's os-release" || fail "system.os: $(json "$SCRATCH/a.json" "r['system']['os']")"
if [[ -n $(findmnt -n -o MAJ:MIN --target "$ds" | grep -v '^ *0:') ]] && [[ -d /sys/dev/block ]]; then
  [[ $(json "$SCRATCH/a.json" "r['storage']['device'] is not None and r['storage']['device']['name'] != ''") == True ]] \
    && pass "storage.device names the block device" || fail "storage.device: $(json "$SCRATCH/a.json" "r['storage']['device']")"
fi
expect_rc 0 "a second run without --label" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --out "$SCRATCH/b.json"
expect_text "  backend     $ds ($fs_type)" "without --label the backend is PATH (FS_TYPE)"
[[ $(json "$SCRATCH/a.json" "r['run_id']") != $(json "$SCRATCH/b.json" "r['run_id']") ]] && pass "each run has its own run_id" || fail "run_ids equal"
# MLPerf Storage v3.0 provenance: the load's hash is the same for two runs of one load and moves
# with the load; the dataset's and the results' file systems are recorded; the verdict's edition.
check=$(json "$SCRATCH/a.json" "r['workload_hash']['sha256'] == $(json "$SCRATCH/b.json" "repr(r['workload_hash']['sha256'])") and
  len(r['workload_hash']['sha256']) == 64 and r['workload_hash']['keys']['workload/name'] == 'resnet50' and
  r['fs_separation']['separate'] is False and r['fs_separation']['dataset_device'] == r['fs_separation']['results_device'] and
  r['mlperf_validity']['rules_edition'] == 'v3' and 'rules' not in r['config']")
[[ $check == True ]] && pass "two runs of one load share workload_hash; fs_separation and the v3 verdict are recorded" || fail "v3 provenance: $(json "$SCRATCH/a.json" "{k: r.get(k) for k in ('workload_hash', 'fs_separation', 'mlperf_validity')}")"
expect_rc 0 "a run of another load, judged by v2" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --epochs 2 --rules v2 --out "$SCRATCH/rules-v2.json"
check=$(json "$SCRATCH/rules-v2.json" "r['workload_hash']['sha256'] != $(json "$SCRATCH/a.json" "repr(r['workload_hash']['sha256'])") and
  r['mlperf_validity']['rules_edition'] == 'v2' and [x['rule'] for x in r['mlperf_validity']['rules']][:2] == ['≥ 500 steps per epoch', \"dataset ≥ 5 × the clients' RAM\"]")
[[ $check == True ]] && pass "another epoch count is another load; --rules v2 judges by the rules of before" || fail "v2: $(json "$SCRATCH/rules-v2.json" "r['mlperf_validity']")"
expect_rc 2 "an unknown rules edition is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --rules v9 --out "$SCRATCH/rules-v9.json"
expect_text "--rules: 'v9' is not an edition" "the message names the option and the valid editions"
expect_rc 0 "compare the two" -- "$DLSIZE" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --out "$SCRATCH/c.json"
expect_text "| nfs-a.v2 (1 runs) |" "compare's table shows the label"
[[ $(json "$SCRATCH/c.json" "len(r['backends'])") == 2 ]] && pass "two backends at one path" || fail "compare: $(cat "$SCRATCH/c.json")"

expect_rc 2 "a label with a space is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --label "nfs a"
expect_text "--label: 'nfs a' is not a valid label. valid: 1 to 64 letters, digits, '.', '_' or '-'" "the message names the option and the rule"
expect_rc 2 "a label of 65 characters is refused" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --accelerator none --label "$(printf 'x%.0s' {1..65})"
echo '{"label": "a/b"}' >"$SCRATCH/bad.json"
expect_rc 2 "a run config's label follows the same rule" -- "$DLSIZE" bench --config "$SCRATCH/bad.json" --workload resnet50 --dataset "$ds" --accelerator none
expect_text "--label: 'a/b'" "the config's label is named"

expect_rc 0 "--version" -- "$DLSIZE" --version
commit=$(json "$SCRATCH/a.json" "r['tool']['commit']")
expect_text "(commit $commit)" "--version shows the commit the reports record"
gen=$root/cmake/git_commit.cmake
if command -v git >/dev/null && git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  cmake -DSOURCE_DIR="$root" -DOUT="$SCRATCH/here.hpp" -P "$gen"
  grep -q "DLSIZE_GIT_COMMIT \"$(git -C "$root" describe --always --dirty --abbrev=12)\"" "$SCRATCH/here.hpp" \
    && pass "the generator writes git describe of the source tree" || fail "generator: $(cat "$SCRATCH/here.hpp")"
  mkdir -p "$SCRATCH/export"
  git -C "$root" archive HEAD | tar -x -C "$SCRATCH/export"
  cmake -DSOURCE_DIR="$SCRATCH/export" -DOUT="$SCRATCH/export.hpp" -P "$gen"
  grep -q 'DLSIZE_GIT_COMMIT "unknown"' "$SCRATCH/export.hpp" && pass "a git archive tree is commit unknown" || fail "archive: $(cat "$SCRATCH/export.hpp")"
  before=$(stat -c %Y "$SCRATCH/export.hpp")
  sleep 1.1
  cmake -DSOURCE_DIR="$SCRATCH/export" -DOUT="$SCRATCH/export.hpp" -P "$gen"
  [[ $(stat -c %Y "$SCRATCH/export.hpp") == "$before" ]] && pass "an unchanged commit leaves the header alone" || fail "header rewritten"
  rm -rf "$SCRATCH/export" # it holds the repository's results/, not this test's output
else
  echo "skip: the source is not a git work tree; the git archive check needs one"
  finish || exit 1
  exit 77
fi
finish
