// The checkpoint folder's manifest (dlsize-checkpoint.json, schema dlsize.checkpoint/1): the only
// place its JSON is made and read.
#include <fmt/format.h>

#include "core/json_checks.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "dlsize/build_config.hpp"

namespace dlsize::dataset {

nlohmann::json checkpoint_set::to_json() const {
  return {{"schema", "dlsize.checkpoint/1"},
          {"run", fmt::format("{:016x}", run)},
          {"workload", workload},
          {"ranks", ranks()},
          {"request_size", request_size},
          {"files_per_rank", files_per_rank},
          {"rank_bytes", rank_bytes},
          {"checkpoint_bytes", bytes()},
          {"checkpoints", checkpoints},
          {"content",
           {{"dedupe_percent", written.content.dedupe_percent},
            {"compress_percent", written.content.compress_percent},
            {"scale", written.scale},
            {"subset", written.subset}}},
          {"block_format", "dlsize checkpoint block v1: 64-byte header (magic DLCK, version, "
                           "header bytes, rank, file, run, checkpoint, offset, block bytes, "
                           "payload crc32c), payload from a pre-filled pool"},
          {"created_by", "dlsize " DLSIZE_VERSION}};
}

checkpoint_set checkpoint_set::from_json(const nlohmann::json& j, const std::string& source) {
  core::json_checker c(source);
  if (!j.is_object() || j.value("schema", "") != "dlsize.checkpoint/1")
    c.fail("schema", "is not dlsize.checkpoint/1: not a dlsize checkpoint folder");
  checkpoint_set s;
  const std::string run = c.string(j, "", "run");
  try {
    s.run = std::stoull(run, nullptr, 16);
  } catch (const std::exception&) {
    c.fail("run", "must be 16 hex digits");
  }
  s.workload = c.string(j, "", "workload");
  s.request_size = static_cast<std::uint32_t>(c.integer(j, "", "request_size", 4096, 1u << 30));
  s.files_per_rank = static_cast<unsigned>(c.integer(j, "", "files_per_rank", 1, 4096));
  try {
    s.rank_bytes = j.at("rank_bytes").get<std::vector<std::uint64_t>>();
    s.checkpoints = j.at("checkpoints").get<std::vector<std::uint64_t>>();
  } catch (const nlohmann::json::exception&) {
    c.fail("rank_bytes", "rank_bytes and checkpoints must be arrays of counts");
  }
  if (s.rank_bytes.empty())
    c.fail("rank_bytes", "must list at least one rank");
  s.written_recorded = j.contains("content");
  if (s.written_recorded) {
    const auto& w = c.object(j, "", "content");
    s.written.content.dedupe_percent =
        static_cast<unsigned>(c.integer(w, "content", "dedupe_percent", 0, 100));
    s.written.content.compress_percent =
        static_cast<unsigned>(c.integer(w, "content", "compress_percent", 0, 100));
    s.written.scale = c.number(w, "content", "scale", 0, 1);
    if (!w.contains("subset") || !w["subset"].is_boolean())
      c.fail("content.subset", "must be true or false");
    s.written.subset = w["subset"].get<bool>();
  }
  return s;
}

} // namespace dlsize::dataset
