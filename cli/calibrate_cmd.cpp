// dlsize calibrate: measures the workload's real training step on this machine's GPU and writes
// a calibration that `--accelerator emulated:FILE` uses.
#include <cstdio>

#include <fmt/format.h>

#include "accel/calibrate.hpp"
#include "analysis/allreduce_fit.hpp"
#include "commands.hpp"
#include "config/calibrate_rules.hpp"
#include "config/interconnect_spec.hpp"
#include "config/workload.hpp"
#include "core/atomic_file.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "report/report_io.hpp"
#include "run_config.hpp"

namespace dlsize::cli {
namespace {

struct calibrate_cli {
  config::calibrate_request req;
  std::string out;
  std::uint64_t steps = 50;
  std::uint64_t warmup = 10;
  std::string precision = core::defaults::precision_text;
  int device = 0;
  double learning_rate = 0;
  std::uint64_t seed = 0;
  bool verbose = false;
  bool out_given = false;
};

// --allreduce FILE: the allreduce model's latency and bandwidth from nccl-tests' size sweep.
int run_allreduce_calibration(const calibrate_cli& o) {
  const std::string out_path = o.out.empty() ? "allreduce-calibration.json" : o.out;
  auto out = reserve_if_given(true, out_path, "--out");
  const auto sweep =
      analysis::parse_all_reduce_perf(read_text_file(o.req.allreduce), o.req.allreduce);
  const auto fit = analysis::fit_allreduce(sweep, config::kIntraHopLatencyS);
  const bool fell_back = commit_output(
      out, analysis::allreduce_calibration_json(sweep, fit, o.req.allreduce).dump(2) + "\n",
      "calibration");
  std::printf("all_reduce_perf over %llu ranks on %llu hosts (%zu sizes): L %.1f us (%.2f us "
              "per %s-node hop), bus bandwidth %.2f GB/s (highest busbw printed %.2f GB/s), "
              "largest relative residual %.1f %%\n",
              static_cast<unsigned long long>(sweep.ranks),
              static_cast<unsigned long long>(sweep.nodes), sweep.samples.size(),
              fit.latency_s * 1e6, fit.latency_per_hop_s * 1e6, fit.link.c_str(),
              fit.bus_bytes_per_s / 1e9, fit.max_busbw / 1e9, 100 * fit.max_relative_residual);
  std::printf("calibration: %s (use: bench --allreduce hierarchical --allreduce-calibration %s)\n",
              out_path.c_str(), out_path.c_str());
  return fell_back ? 1 : 0;
}

int run_calibrate(const calibrate_cli& o) {
  config::check_calibrate_request(o.req);
  if (!o.req.allreduce.empty())
    return run_allreduce_calibration(o);
  auto out = reserve_if_given(o.out_given, o.out, "--out");
  accel::calibrate_options c;
  c.workload = config::load_workload(o.req.workload);
  config::require_dataset(c.workload, "calibrate");
  c.cuda.device = o.device;
  c.cuda.batch_size = static_cast<std::uint32_t>(o.req.batch_size);
  c.cuda.precision = accel::parse_precision(o.precision, "--precision");
  c.cuda.search_algorithms = o.req.algorithms == "search";
  c.cuda.learning_rate = o.learning_rate;
  c.cuda.seed = o.seed;
  c.steps = o.steps;
  c.warmup = o.warmup;
  c.progress = o.verbose;
  const config::calibration_document cal = accel::calibrate(c);
  if (!out)
    out.emplace(
        fmt::format("calibration-{}-{}-{}.json", c.workload.name, cal.accelerator, o.precision),
        "--out");
  const output_place where = out->commit(to_json(cal).dump(2) + "\n");
  std::printf("%s on cuda:%d %s (%s, batch %llu): %.4f s per batch (stdev %.4f, p95 %.4f), "
              "%.1f samples/s; loss %.4f -> %.4f\n",
              c.workload.name.c_str(), o.device, cal.gpu_name.value_or("").c_str(),
              o.precision.c_str(), static_cast<unsigned long long>(cal.batch_size),
              cal.compute_time_s, cal.compute_time_stdev_s.value_or(0),
              cal.compute_time_p95_s.value_or(0), cal.samples_per_s.value_or(0), cal.loss->first,
              cal.loss->last);
  if (!where.path.empty())
    std::printf("calibration: %s (use: --accelerator emulated:%s)\n", where.path.c_str(),
                where.path.c_str());
  return where.fell_back ? 1 : 0;
}

} // namespace

void setup_calibrate(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<calibrate_cli>();
  auto* sub =
      app.add_subcommand("calibrate", "Measure the workload's training step on this GPU and write "
                                      "a calibration for --accelerator emulated:FILE");
  sub->add_option("--workload", o->req.workload,
                  "Workload profile name or JSON file (needs model.layers)");
  sub->add_option("--accelerator", o->req.accelerator, "The GPU backend to measure (cuda)");
  sub->add_option("--allreduce", o->req.allreduce,
                  "Instead: fit the allreduce model's latency and bandwidth to this file of "
                  "nccl-tests all_reduce_perf output");
  sub->add_option("--out", o->out,
                  "Calibration file to write (must not exist; default "
                  "calibration-WORKLOAD-GPU-PRECISION.json)");
  sub->add_option("--steps", o->steps, "Measured steps")->capture_default_str();
  sub->add_option("--warmup", o->warmup, "Warm-up steps before them")->capture_default_str();
  sub->add_option("--batch-size", o->req.batch_size,
                  "Samples per step (default: the profile's model.batch_size)");
  sub->add_option("--precision", o->precision, "fp16 (mixed precision, tensor cores), tf32 or fp32")
      ->capture_default_str();
  sub->add_option("--algorithms", o->req.algorithms,
                  "cuDNN algorithms: search (time each once) or heuristic")
      ->capture_default_str();
  sub->add_option("--device", o->device, "CUDA device index")->capture_default_str();
  sub->add_option("--learning-rate", o->learning_rate,
                  "SGD learning rate (default 0.1 x batch / 256)");
  sub->add_option("--seed", o->seed, "Seed of the initial weights and the synthetic batch")
      ->capture_default_str();
  sub->add_flag("--verbose", o->verbose, "A line per step on stderr");
  sub->callback([o, sub, &ctx] {
    o->out_given = sub->get_option("--out")->count() > 0;
    ctx.exit_code = run_calibrate(*o);
  });
}

} // namespace dlsize::cli
