#!/usr/bin/env bash
# Both engines, every cache mode and both open modes read identical bytes (same content digest,
# every record verified); the psync fallback runs when asked for.
source "$(dirname "$0")/lib.sh"
require_io_uring
for layout in files shards; do
  ds=$SCRATCH/$layout
  "$DLSIZE" datagen --workload resnet50 --layout $layout --records-per-file $([[ $layout == shards ]] && echo 97 || echo 1) --dataset "$ds" --size 96MiB --quiet >/dev/null
  ref=""
  for engine in io_uring psync; do
    for open in keep per-sample; do
      for cache in direct buffered uncached; do
        r=$SCRATCH/$layout-$engine-$open-$cache.json
        expect_rc 0 "$layout $engine $open $cache" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --engine $engine --open $open --cache $cache --verify --quiet --out "$r"
        [[ $(json "$r" "r['io']['engine']") == "$engine" ]] && pass "engine $engine recorded" || fail "engine not recorded"
        d=$(json "$r" "r['verify']['content_digest'] if r['verify']['records_checked'] == r['dataset']['samples'] else 'incomplete'")
        # O_DIRECT reads whole blocks around a record, so digests compare within a cache class.
        key=$([[ $cache == direct ]] && echo direct || echo cached)
        eval "want=\${ref_$key:-}"
        if [[ -z $want ]]; then eval "ref_$key=$d"; pass "reference digest $d ($key)";
        elif [[ $d == "$want" ]]; then pass "$engine/$open/$cache read the same bytes";
        else fail "$engine/$open/$cache digest $d != $want"; fi
      done
    done
  done
  unset ref_direct ref_cached
  if [[ $layout == shards ]]; then
    expect_rc 0 "shard streaming verifies" -- "$DLSIZE" bench --workload resnet50 --dataset "$ds" --shard-read stream --verify --quiet --out "$SCRATCH/stream.json"
    [[ $(json "$SCRATCH/stream.json" "r['verify']['records_checked'] == r['dataset']['samples']") == True ]] && pass "stream checked all records" || fail "stream records"
  fi
done
expect_rc 0 "many readers and deep queues verify" -- "$DLSIZE" bench --workload resnet50 --dataset "$SCRATCH/shards" --readers 3 --queue-depth 64 --request-size 8KiB --epochs 2 --verify --quiet --out "$SCRATCH/deep.json"
[[ $(json "$SCRATCH/deep.json" "r['verify']['records_checked'] == 2 * r['dataset']['samples']") == True ]] && pass "two epochs checked" || fail "two epochs"
finish
