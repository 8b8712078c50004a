#include "pipeline/bench_config.hpp"

#include <filesystem>
#include <string>

#include "config/allreduce_config.hpp"
#include "core/json_checks.hpp"
#include "s3/location.hpp"

namespace dlsize::pipeline {
namespace {

std::string absolute_path(const std::string& p) {
  return std::filesystem::absolute(p).lexically_normal().string();
}

// Paths absolute, so that a replay from another folder reads the same files; objects are read
// by the s3 engine alone, so the file options it refuses are left out.
void place_paths(nlohmann::json& c) {
  const auto ds = c.find("dataset"); // find, not []: [] would add a null "dataset" to the config
  const bool in_s3 = ds != c.end() && ds->is_string() && s3::is_s3_url(ds->get<std::string>());
  for (const char* k : {"dataset", "index"})
    if (c.contains(k) && c[k].is_string() && !(in_s3 && std::string(k) == "dataset"))
      c[k] = absolute_path(c[k].get<std::string>());
  if (in_s3) {
    c["engine"] = "s3";
    for (const char* k : {"cache", "open", "client-ram"})
      c.erase(k);
  }
  // Without --checkpoint-every its companions' defaults would be refused on a replay.
  const auto every = c.find("checkpoint-every");
  if (every == c.end() || !every->is_string() || every->get<std::string>().empty())
    for (const char* k : {"checkpoint-every", "checkpoint-dir", "checkpoint-scale", "mttf"})
      c.erase(k);
  else if (c["checkpoint-dir"].is_string() &&
           !s3::is_s3_url(c["checkpoint-dir"].get<std::string>()))
    c["checkpoint-dir"] = absolute_path(c["checkpoint-dir"].get<std::string>());
  // The S3 options' defaults mean nothing without a bucket, and a replay would give them, so
  // they would be refused there (s3::refuse_s3_options): a run with no bucket keeps none.
  const auto dir = c.find("checkpoint-dir");
  const bool dir_in_s3 =
      dir != c.end() && dir->is_string() && s3::is_s3_url(dir->get<std::string>());
  if (!in_s3 && !dir_in_s3)
    for (auto it = c.begin(); it != c.end();)
      it = it.key().rfind("s3-", 0) == 0 ? c.erase(it) : std::next(it);
  if (c["workload"].is_string() && core::names_a_file(c["workload"].get<std::string>()))
    c["workload"] = absolute_path(c["workload"].get<std::string>());
  const std::string acc = c["accelerator"].is_string() ? c["accelerator"].get<std::string>() : "";
  if (acc.rfind("emulated:", 0) == 0 && core::names_a_file(acc.substr(9)))
    c["accelerator"] = "emulated:" + absolute_path(acc.substr(9));
}

} // namespace

nlohmann::json replayable_config(nlohmann::json effective, config::accelerator_kind kind,
                                 std::uint64_t accelerators, std::uint64_t ranks,
                                 double au_threshold) {
  nlohmann::json& c = effective;
  // Where the report goes and the rules it is judged by are no part of the load.
  for (const char* k : {"out", "status-interval", "rules"})
    c.erase(k);
  config::drop_unused_allreduce_inputs(c);
  for (auto it = c.begin(); it != c.end();)
    it = it->is_null() ? c.erase(it) : std::next(it);
  place_paths(c);
  if (kind == config::accelerator_kind::none) {
    for (const char* k : {"accelerators", "accelerators-per-rank", "prefetch", "sync-steps",
                          "preprocess", "au-threshold", "precision"})
      c.erase(k);
    return c;
  }
  c["accelerators"] = accelerators;
  c["accelerators-per-rank"] = accelerators / ranks;
  c["au-threshold"] = au_threshold;
  if (kind != config::accelerator_kind::cuda)
    c.erase("precision");
  return c;
}

} // namespace dlsize::pipeline
