// The message that carries what one rank measured in a write or read of a checkpoint to rank 0
// (cluster::agree): the one place its keys are written and read.
#include <nlohmann/json.hpp>

#include "pipeline/checkpoint_phase.hpp"

namespace dlsize::pipeline {
namespace {

nlohmann::json s3_json(const rank_s3_figures& f) {
  nlohmann::json j = f.requests.to_json();
  if (f.upload_time)
    j["upload_time"] = f.upload_time->to_json();
  return j;
}

rank_s3_figures s3_figures_from_json(const nlohmann::json& j) {
  rank_s3_figures f;
  nlohmann::json requests = j;
  if (j.contains("upload_time")) {
    f.upload_time = histogram::from_json(j.at("upload_time"));
    requests.erase("upload_time");
  }
  f.requests = s3::transfer_stats::from_json(requests);
  return f;
}

} // namespace

nlohmann::json rank_phase::to_json() const {
  return {{"bytes", bytes},
          {"requests", requests},
          {"seconds", seconds},
          {"cpu_s", cpu_s},
          {"fill_s", fill_s},
          {"completion_wait_s", completion_wait_s},
          {"starved_s", starved_s},
          {"latency", latency.to_json()},
          {"fsync_latency", fsync_latency.to_json()},
          {"blocks", blocks},
          {"mismatches", mismatches},
          {"problems", problems},
          {"outcome", io::to_string(outcome)},
          {"registered_buffers", registered_buffers},
          {"engine", engine},
          {"stalled", stalled},
          {"in_kernel", in_kernel},
          {"error", error},
          {"s3", s3 ? s3_json(*s3) : nlohmann::json(nullptr)}};
}

rank_phase rank_phase::from_json(const nlohmann::json& j) {
  rank_phase p;
  p.bytes = j.at("bytes").get<std::uint64_t>();
  p.requests = j.at("requests").get<std::uint64_t>();
  p.seconds = j.at("seconds").get<double>();
  p.cpu_s = j.at("cpu_s").get<double>();
  p.fill_s = j.at("fill_s").get<double>();
  p.completion_wait_s = j.at("completion_wait_s").get<double>();
  p.starved_s = j.at("starved_s").get<double>();
  p.latency = histogram::from_json(j.at("latency"));
  p.fsync_latency = histogram::from_json(j.at("fsync_latency"));
  p.blocks = j.at("blocks").get<std::uint64_t>();
  p.mismatches = j.at("mismatches").get<std::uint64_t>();
  p.problems = j.at("problems").get<std::vector<std::string>>();
  p.outcome = io::parse_job_outcome(j.at("outcome").get<std::string>());
  p.registered_buffers = j.at("registered_buffers").get<bool>();
  p.engine = j.at("engine").get<std::string>();
  p.stalled = j.at("stalled").get<std::string>();
  p.in_kernel = j.at("in_kernel").get<std::vector<std::string>>();
  p.error = j.at("error").get<std::string>();
  if (const auto it = j.find("s3"); it != j.end() && !it->is_null())
    p.s3 = s3_figures_from_json(*it);
  return p;
}

} // namespace dlsize::pipeline
