// dlsize plan: the bandwidth N accelerators need, and the accelerators a bandwidth supports,
// from a workload profile alone (no runs).
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/units.hpp"
#include "report/report_io.hpp"
#include "sizing/plan.hpp"

namespace dlsize::cli {
namespace {

struct plan_cli {
  std::string workload;
  std::string accelerator;
  std::string storage_bandwidth;
  std::uint64_t accelerators = 0;
  std::string client_ram;
  std::uint64_t clients = 1;
  std::string au_threshold;
  std::uint64_t batch_size = 0;
  std::string compute_time;
  std::string out;
  bool out_given = false;
};

int run_plan(const plan_cli& o) {
  auto out = reserve_if_given(o.out_given, o.out, "--out");
  sizing::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  config::preset_overrides over;
  if (o.batch_size)
    over.batch_size = o.batch_size;
  if (!o.compute_time.empty())
    over.compute_time_s = units::parse_duration(o.compute_time, "--compute-time");
  const std::string spec =
      o.accelerator.rfind("emulated:", 0) == 0 ? o.accelerator : "emulated:" + o.accelerator;
  in.accelerator = config::resolve_accelerator(spec, in.workload, over);
  in.au_threshold = in.workload.au_threshold;
  if (!o.au_threshold.empty())
    in.au_threshold = units::parse_fraction(o.au_threshold, "--au-threshold");
  if (!o.storage_bandwidth.empty())
    in.storage_bandwidth = units::parse_rate(o.storage_bandwidth, "--storage-bandwidth");
  in.accelerators = o.accelerators;
  if (!o.client_ram.empty())
    in.client_ram = units::parse_size(o.client_ram, "--client-ram");
  if (o.clients < 1)
    throw usage_error("--clients: must be at least 1");
  in.clients = o.clients;
  const nlohmann::json plan = sizing::make_plan(in);

  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("%s on %s (batch %llu, %.4g s per batch; %s)\n", in.workload.name.c_str(),
              in.accelerator.type.c_str(),
              static_cast<unsigned long long>(in.accelerator.preset.batch_size),
              in.accelerator.preset.compute_time_s, in.accelerator.preset.source.c_str());
  std::printf(
      "  per accelerator   %.1f samples/s of %.0f B: demand %s at AU 100 %%, %s at AU %.0f %%\n",
      plan["samples_per_s_per_accelerator"].get<double>(), in.workload.sample_bytes_mean,
      both(plan["demand_bytes_per_s_per_accelerator"].get<double>()).c_str(),
      both(plan["bytes_per_s_per_accelerator_at_threshold"].get<double>()).c_str(),
      100 * in.au_threshold);
  std::printf("  %llu accelerators   need %s (AU %.0f %%); %s at AU 100 %%\n",
              static_cast<unsigned long long>(plan["accelerators"].get<std::uint64_t>()),
              both(plan["required_bytes_per_s"].get<double>()).c_str(), 100 * in.au_threshold,
              both(plan["demand_bytes_per_s"].get<double>()).c_str());
  if (plan.contains("max_accelerators_at_threshold"))
    std::printf(
        "  storage %s supports %llu accelerators at AU >= %.0f %%\n",
        both(in.storage_bandwidth).c_str(),
        static_cast<unsigned long long>(plan["max_accelerators_at_threshold"].get<std::uint64_t>()),
        100 * in.au_threshold);
  const auto& ds = plan["dataset"];
  std::printf("  a valid run needs %s (%.0f samples): 500 steps per epoch need %s%s\n",
              units::format_bytes_binary(ds["min_bytes"].get<double>()).c_str(),
              ds["min_samples"].get<double>(),
              units::format_bytes_binary(ds["min_bytes_for_steps"].get<double>()).c_str(),
              ds["min_bytes_for_ram"].is_null()
                  ? "; give --client-ram and --clients for the 5 x RAM rule"
                  : fmt::format(", 5 x the clients' RAM {}",
                                units::format_bytes_binary(ds["min_bytes_for_ram"].get<double>()))
                        .c_str());
  return commit_output(out, plan.dump(2) + "\n", "plan") ? 1 : 0;
}

} // namespace

void setup_plan(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<plan_cli>();
  auto* sub = app.add_subcommand("plan", "What-if sizing from a workload profile alone: bandwidth "
                                         "for N accelerators, accelerators for a bandwidth");
  sub->add_option("--workload", o->workload, "Workload profile name or JSON file")->required();
  sub->add_option("--accelerator", o->accelerator,
                  "Accelerator type of the profile (h100 or emulated:h100), or emulated:FILE.json "
                  "(a calibration)")
      ->required();
  sub->add_option("--storage-bandwidth", o->storage_bandwidth,
                  "Storage read bandwidth to plan against, e.g. 20GB/s");
  sub->add_option("--accelerators", o->accelerators,
                  "Accelerators to plan for (default: what --storage-bandwidth supports, else 1)");
  sub->add_option("--client-ram", o->client_ram,
                  "RAM per client, for the 5 x RAM dataset rule, e.g. 512GiB");
  sub->add_option("--clients", o->clients, "Client nodes")->capture_default_str();
  sub->add_option("--au-threshold", o->au_threshold, "AU to plan for (default: the profile's)");
  sub->add_option("--batch-size", o->batch_size, "Override the preset's batch size");
  sub->add_option("--compute-time", o->compute_time,
                  "Override the preset's compute time per batch, e.g. 224ms");
  sub->add_option("--out", o->out, "JSON file to write (dlsize.plan/1; must not exist)");
  sub->callback([o, sub, &ctx] {
    o->out_given = sub->get_option("--out")->count() > 0;
    ctx.exit_code = run_plan(*o);
  });
}

} // namespace dlsize::cli
