#include "pipeline/checkpoint_job.hpp"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "cluster/agreement.hpp"
#include "cluster/communicator.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/output_file.hpp"
#include "core/units.hpp"
#include "render/checkpoint_summary.hpp"
#include "report/checkpoint_validity.hpp"
#include "report/fs_separation.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::pipeline {
namespace {

// --dir s3://BUCKET/PREFIX: the bucket, its settings and the part size; the options that mean
// nothing for objects are refused, naming them. nullopt for a folder.
std::optional<s3_checkpoint> s3_target_of(const checkpoint_job_options& o,
                                          std::uint32_t request_size) {
  const config::checkpoint_request& req = o.req;
  s3::settings settings = o.s3;
  const auto where = s3::dataset_location(req.dir, "--dir", settings);
  if (!where) {
    s3::refuse_s3_options(req.given, fmt::format("--dir '{}'", req.dir));
    return std::nullopt;
  }
  for (const char* option : {"--cache", "--drop-caches"})
    if (req.has(option))
      throw usage_error(fmt::format("{}: means nothing for objects in a bucket ({}). valid: leave "
                                    "{} out, or a folder as --dir",
                                    option, where->url(), option));
  const std::uint64_t part = units::parse_size(o.part_size, "--s3-part-size");
  if (part < (5u << 20) || part > (5ull << 30) || part % request_size != 0)
    throw usage_error(fmt::format("--s3-part-size: {} bytes. valid: 5 MiB to 5 GiB (S3's "
                                  "limits), a multiple of --request-size ({} bytes)",
                                  part, request_size));
  return s3_checkpoint{{*where, settings}, part};
}

// --accelerator as v3.0's Table 3 knows it; usage_error naming the types it lists otherwise.
std::optional<std::string> checkpoint_accelerator_of(const std::string& given) {
  if (given.empty())
    return std::nullopt;
  if (!report::checkpoint_accelerator(given)) {
    std::string valid;
    for (const auto& m : report::kCheckpointAcceleratorMemory)
      valid +=
          fmt::format("{}{} ({:g} GB, {})", valid.empty() ? "" : ", ", m.type, m.gib, m.divisions);
    throw usage_error(fmt::format("--accelerator: '{}' is not a simulated accelerator of MLPerf "
                                  "Storage v3.0's checkpoint rules. valid: {}",
                                  given, valid));
  }
  return given;
}

// Rank 0's report file, reserved before the run, and the file systems' record taken then.
output_file reserve_report(const checkpoint_job_options& o, checkpoint_options& opt) {
  auto reserve = [&] {
    if (o.req.has("--out"))
      return output_file(o.out, "--out");
    output_file f(default_output_path("checkpoint", opt.workload.name), "--out", true);
    std::fprintf(stderr, "checkpoint: no --out given: the report goes to %s\n", f.path().c_str());
    return f;
  };
  output_file out = reserve();
  opt.fs_separation = report::fs_separation_of(opt.dir.string(), out.path(), "checkpoints");
  return out;
}

// Rank 0 prints the summary and writes the report; the exit status of the job.
int finish(const checkpoint_job_options& o, const checkpoint_result& res,
           std::optional<output_file>& out) {
  const report::checkpoint_document& r = *res.report;
  if (!o.quiet)
    std::fputs(render::checkpoint_summary(r).c_str(), stdout);
  const bool fell_back = commit_output(out, report::to_json(r).dump(2) + "\n", "report");
  for (const auto& p : r.checkpoint.read.verify->problems)
    std::fprintf(stderr, "mismatch: %s\n", p.c_str());
  const bool complete = r.status == report::run_status::complete;
  if (!complete)
    std::fprintf(stderr, "dlsize: checkpoint incomplete: %s\n", r.reason.value_or("").c_str());
  return res.failed || fell_back || !complete ? 1 : 0;
}

} // namespace

checkpoint_options checkpoint_options_of(const checkpoint_job_options& o, bool progress) {
  const config::checkpoint_request& req = o.req;
  const config::checkpoint_values v = config::check_checkpoint_request(req);
  core::watch_inputs({v.stall_timeout_s, v.time_limit_s});
  checkpoint_options opt;
  opt.workload = config::load_workload(req.workload);
  config::require_checkpoint(opt.workload);
  opt.dir = req.dir;
  opt.s3 = s3_target_of(o, v.request_size);
  opt.writes = req.writes;
  opt.reads = req.reads;
  opt.shares = {o.scale, o.subset};
  opt.files_per_rank = req.files_per_rank;
  opt.keep = o.keep;
  opt.keep_last = req.keep_last;
  opt.read_shift = o.read_shift;
  opt.io.cache = io::parse_cache_mode(o.cache);
  opt.io.queue_depth = o.queue_depth;
  opt.io.request_size = v.request_size;
  opt.io.verify = !o.no_verify;
  opt.io.stall_timeout_s = v.stall_timeout_s;
  opt.drop_caches = o.drop_caches;
  opt.content = {req.dedupe_percent, req.compress_percent};
  opt.content_given = req.has("--dedupe-percent") || req.has("--compress-percent");
  opt.scale_given = req.has("--scale");
  opt.subset_given = req.has("--subset");
  opt.time_limit_s = v.time_limit_s;
  opt.rules = report::parse_rules_edition(o.rules, "--rules");
  opt.accelerator = checkpoint_accelerator_of(o.accelerator);
  if (req.has("--label"))
    opt.label = req.label;
  opt.progress = progress;
  nlohmann::json c = o.effective;
  c.erase("out");
  for (auto it = c.begin(); it != c.end();)
    it = it->is_null() ? c.erase(it) : std::next(it);
  opt.config = c;
  return opt;
}

int run_checkpoint_job(const checkpoint_job_options& o) {
  cluster::communicator& comm = cluster::world();
  checkpoint_options opt;
  std::optional<output_file> out;
  const auto given = cluster::agree(comm, [&] {
    opt = checkpoint_options_of(o, !o.quiet && comm.rank() == 0);
    check_checkpoint_options(opt,
                             o.check_ranks ? o.check_ranks : static_cast<unsigned>(comm.size()));
    if (comm.rank() == 0 && !o.check_ranks)
      out.emplace(reserve_report(o, opt));
    return cluster::command_given("checkpoint", opt.config);
  });
  cluster::require_same(comm, given, "command and options");
  if (o.check_ranks)
    return 0;
  const auto res = run_checkpoint(opt, comm, o.command_line);
  if (comm.rank() != 0)
    return res.failed ? 1 : 0;
  return finish(o, res, out);
}

} // namespace dlsize::pipeline
