#pragma once
// How a run reads its dataset: --shard-read (records of shards by index, or whole shards in turn)
// and --open (every file opened once, or per sample). Their names are the options' values and the
// report's config values.
#include "core/enum_names.hpp"

namespace dlsize::config {

// --shard-read: records by index (shuffled records), or whole shards in turn (streamed).
enum class shard_read { records, stream };
inline constexpr core::enum_table<shard_read, 2> kShardReadNames{
    {{shard_read::records, "records", "random record reads by index"},
     {shard_read::stream, "stream", "each shard read sequentially"}}};
constexpr const auto& names_of(shard_read) {
  return kShardReadNames;
}

// --open: keep every file open for the run (as fio does), or open and close one per sample.
enum class open_mode { keep, per_sample };
inline constexpr core::enum_table<open_mode, 2> kOpenModeNames{
    {{open_mode::keep, "keep", "open every file once, as fio does"},
     {open_mode::per_sample, "per-sample",
      "open, read, close each sample, as framework loaders do"}}};
constexpr const auto& names_of(open_mode) {
  return kOpenModeNames;
}

} // namespace dlsize::config
