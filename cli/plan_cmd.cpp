// dlsize plan: the bandwidth N accelerators need, and the accelerators a bandwidth supports,
// from a workload profile alone (no runs).
#include <cstdio>

#include <fmt/format.h>

#include "allreduce_options.hpp"
#include "analysis/plan.hpp"
#include "analysis/plan_checkpoint.hpp"
#include "analysis/plan_rules.hpp"
#include "analysis/plan_scaling.hpp"
#include "commands.hpp"
#include "config/workload.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/units.hpp"
#include "dataset/index_reads.hpp"
#include "render/human_number.hpp"
#include "report/report_io.hpp"
#include "run_config.hpp"

namespace dlsize::cli {
namespace {

struct plan_cli : analysis::plan_options {
  std::string out;
  config::allreduce_request allreduce;
  bool out_given = false;
};

std::string duration_text(double s) {
  if (s < 120)
    return fmt::format("{:.1f} s", s);
  if (s < 7200)
    return fmt::format("{:.1f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

void print_extras(const nlohmann::json& plan, const analysis::plan_inputs& in) {
  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("  reads             %.3g x the samples' bytes (%s): %s per accelerator\n",
              plan["read_amplification"].get<double>(),
              plan["read_amplification_basis"].get<std::string>().c_str(),
              both(plan["reads_bytes_per_s_per_accelerator"].get<double>()).c_str());
  std::printf("  requests          %s IOPS (requests of up to %s), %s files/s\n",
              render::human(plan["iops"].get<double>()).c_str(),
              units::format_bytes_binary(in.request_size).c_str(),
              render::human(plan["files_per_s"].get<double>()).c_str());
  if (!plan["nic_limit_bytes_per_s"].is_null())
    std::printf("  network           %s: %llu clients x %s x %.0f %% efficiency\n",
                both(plan["nic_limit_bytes_per_s"].get<double>()).c_str(),
                static_cast<unsigned long long>(in.clients), both(in.nic_bandwidth).c_str(),
                100 * in.nic_efficiency);
  if (plan.contains("expected_accelerator_utilization"))
    std::printf("  expected AU       %s for %llu accelerators at %s\n",
                render::au_text(plan["expected_accelerator_utilization"].get<double>()).c_str(),
                static_cast<unsigned long long>(plan["accelerators"].get<std::uint64_t>()),
                both(plan["deliverable_bytes_per_s"].get<double>()).c_str());
  if (plan.contains("row")) {
    const auto& r = plan["row"];
    std::printf("  row               %s over %llu accelerators: %s per accelerator of a %s "
                "demand: AU %.2f %% (%s the %.0f %% threshold)\n",
                both(r["bandwidth_bytes_per_s"].get<double>()).c_str(),
                static_cast<unsigned long long>(r["accelerators"].get<std::uint64_t>()),
                both(r["bandwidth_bytes_per_s_per_accelerator"].get<double>()).c_str(),
                both(r["demand_bytes_per_s_per_accelerator"].get<double>()).c_str(),
                100 * r["accelerator_utilization"].get<double>(),
                r["meets_au_threshold"].get<bool>() ? "meets" : "below",
                100 * plan["au_threshold"].get<double>());
    if (r.contains("note"))
      std::printf("                    %s\n", r["note"].get<std::string>().c_str());
  }
  if (plan.contains("epoch")) {
    const auto& e = plan["epoch"];
    std::printf("  epoch             %s over %s at %s%s\n",
                duration_text(e["epoch_s"].get<double>()).c_str(),
                units::format_bytes_decimal(e["dataset_bytes"].get<double>()).c_str(),
                both(e["bytes_per_s"].get<double>()).c_str(),
                e["time_to_train_s"].is_null()
                    ? ""
                    : fmt::format("; {} epochs: {}", e["epochs"].get<double>(),
                                  duration_text(e["time_to_train_s"].get<double>()))
                          .c_str());
  }
}

// The efficiency curve next to the bandwidth it asks of storage.
void print_scaling(const nlohmann::json& plan) {
  const auto& a = plan["allreduce"];
  std::printf("  allreduce   %s of %.0f MB (%s gradients); %s; efficiency at %llu: %.1f %%\n",
              a["algorithm"].get<std::string>().c_str(), a["gradient_bytes"].get<double>() / 1e6,
              a["dtype"].get<std::string>().c_str(), a["note"].get<std::string>().c_str(),
              static_cast<unsigned long long>(plan["accelerators"].get<std::uint64_t>()),
              100 * plan["scaling_efficiency"].get<double>());
  std::printf("  %12s %7s %12s %11s %12s  %s\n", "accelerators", "layout", "allreduce ms",
              "efficiency", "samples/s", "storage at the AU threshold");
  for (const auto& p : plan["scaling"])
    std::printf("  %12llu %7s %12.2f %10.1f%% %12.0f  %s\n",
                static_cast<unsigned long long>(p["accelerators"].get<std::uint64_t>()),
                fmt::format("{}x{}", p["nodes"].get<std::uint64_t>(),
                            p["accelerators_per_node"].get<std::uint64_t>())
                    .c_str(),
                1e3 * p["exposed_allreduce_s"].get<double>(),
                100 * p["scaling_efficiency"].get<double>(), p["samples_per_s"].get<double>(),
                units::format_rate_both(p["required_bytes_per_s"].get<double>()).c_str());
}

// The read side: what the accelerators' data loading asks of storage. Prints it and returns the
// plan's JSON.
nlohmann::json read_plan(const plan_cli& o, const CLI::App& cmd, analysis::plan_inputs& in) {
  analysis::parse_read_inputs(o, in);
  if (!o.index.empty())
    in.measured = analysis::measured_dataset::from_json(
        dataset::index_read_shape(o.index, in.request_size), "--index " + o.index);
  nlohmann::json plan = analysis::make_plan(in);
  config::require_allreduce_for_inputs(o.allreduce, given_long_options(cmd));
  const config::allreduce_setup allreduce =
      config::resolve_allreduce(o.allreduce, in.workload, in.accelerator);
  if (allreduce.active()) {
    analysis::scaling_inputs si;
    si.allreduce = allreduce;
    si.per_node = o.allreduce.accelerators_per_node ? o.allreduce.accelerators_per_node
                                                    : allreduce.accelerators_per_node;
    si.compute_s = in.accelerator.preset.compute_time_s;
    si.batch = static_cast<double>(in.accelerator.preset.batch_size);
    si.sample_bytes = in.sample_bytes();
    si.au_threshold = in.au_threshold;
    analysis::add_scaling(plan, si, in.storage_bandwidth, in.accelerators);
  }

  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("%s on %s (batch %llu, %.4g s per batch; %s)\n", in.workload.name.c_str(),
              in.accelerator.type.c_str(),
              static_cast<unsigned long long>(in.accelerator.preset.batch_size),
              in.accelerator.preset.compute_time_s, in.accelerator.preset.source.c_str());
  std::printf("  dataset           %s\n", plan["dataset_source"].get<std::string>().c_str());
  if (in.measured) {
    const auto& d = in.measured->sample_distribution;
    std::printf("  indexed samples   %s in all; mean %.0f B, p50 %s, p99 %s, max %s\n",
                units::format_bytes_decimal(in.measured->sample_bytes).c_str(), in.sample_bytes(),
                units::format_bytes_binary(d.at("p50").get<double>()).c_str(),
                units::format_bytes_binary(d.at("p99").get<double>()).c_str(),
                units::format_bytes_binary(d.at("max").get<double>()).c_str());
  }
  std::printf(
      "  per accelerator   %.1f samples/s of %.0f B: demand %s of samples at AU 100 %%; reads %s "
      "at AU %.0f %%\n",
      plan["samples_per_s_per_accelerator"].get<double>(), in.sample_bytes(),
      both(plan["demand_bytes_per_s_per_accelerator"].get<double>()).c_str(),
      both(plan["bytes_per_s_per_accelerator_at_threshold"].get<double>()).c_str(),
      100 * in.au_threshold);
  std::printf("  %llu accelerators   need %s (AU %.0f %%); %s at AU 100 %%\n",
              static_cast<unsigned long long>(plan["accelerators"].get<std::uint64_t>()),
              both(plan["required_bytes_per_s"].get<double>()).c_str(), 100 * in.au_threshold,
              both(plan["reads_bytes_per_s"].get<double>()).c_str());
  if (plan.contains("max_accelerators_at_threshold"))
    std::printf(
        "  %s supports %llu accelerators at AU >= %.0f %%\n",
        fmt::format("{} {}", in.storage_bandwidth > 0 ? "storage" : "the network",
                    both(plan["deliverable_bytes_per_s"].get<double>()))
            .c_str(),
        static_cast<unsigned long long>(plan["max_accelerators_at_threshold"].get<std::uint64_t>()),
        100 * in.au_threshold);
  if (allreduce.active())
    print_scaling(plan);
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
  if (in.measured)
    std::printf("  the index holds   %s: %s\n",
                units::format_bytes_binary(ds["indexed_bytes"].get<double>()).c_str(),
                ds["indexed_is_enough"].get<bool>() ? "enough for a valid run"
                                                    : "less than a valid run needs");
  if (plan.contains("per_host")) {
    const auto& h = plan["per_host"];
    std::printf("  one client host   %llu accelerators need %s (AU %.0f %%), %.0f requests/s\n",
                static_cast<unsigned long long>(h["accelerators"].get<std::uint64_t>()),
                both(h["required_bytes_per_s"].get<double>()).c_str(), 100 * in.au_threshold,
                h["iops"].get<double>());
    for (const auto& nic : h["one_nic"])
      std::printf("    one %3.0f GbE NIC  %s at %.0f %% of line rate: %s (%.0f %% loaded)\n",
                  nic["gbe"].get<double>(), both(nic["usable_bytes_per_s"].get<double>()).c_str(),
                  100 * h["nic_efficiency"].get<double>(),
                  nic["carries"].get<bool>() ? "carries it" : "does not carry it",
                  100 * nic["load"].get<double>());
  }
  print_extras(plan, in);
  return plan;
}

void print_checkpoint(const nlohmann::json& c, const std::string& name) {
  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("%s checkpoint: %s over %llu ranks (TP %u x PP %u x DP %u, ZeRO %u)%s\n",
              name.c_str(), units::format_bytes_binary(c["bytes"].get<double>()).c_str(),
              static_cast<unsigned long long>(c["ranks"].get<std::uint64_t>()),
              c["layout"]["tensor_parallel"].get<unsigned>(),
              c["layout"]["pipeline_parallel"].get<unsigned>(),
              c["layout"]["data_parallel"].get<unsigned>(),
              c["layout"]["zero_stage"].get<unsigned>(),
              c["estimate"].get<bool>() ? " (dlsize's estimate)" : "");
  std::printf("  every %s (%s), %s: at most %s per checkpoint\n",
              c["interval"].get<std::string>().c_str(),
              duration_text(c["interval_s"].get<double>()).c_str(),
              c["mode"] == "async" ? "written in the background"
                                   : fmt::format("at most {:.3g} % of the time",
                                                 100 * c["max_overhead"].get<double>())
                                         .c_str(),
              duration_text(c["allowed_s"].get<double>()).c_str());
  std::printf("  writes need       %s in all; %s for the largest rank (%s), %s per client\n",
              both(c["write_bytes_per_s"].get<double>()).c_str(),
              both(c["rank_write_bytes_per_s"].get<double>()).c_str(),
              units::format_bytes_binary(c["largest_rank_bytes"].get<double>()).c_str(),
              both(c["client_write_bytes_per_s"].get<double>()).c_str());
  if (c.contains("client_link_floor_s"))
    std::printf("  client NIC        %s at least per checkpoint: %s\n",
                duration_text(c["client_link_floor_s"].get<double>()).c_str(),
                c["client_link_fits"].get<bool>() ? "fits" : "does not fit, whatever the storage");
  if (c.contains("at_write_bandwidth")) {
    const auto& w = c["at_write_bandwidth"];
    std::printf("  writing at %s: a checkpoint takes %s, %.2f %% of the time (%s)\n",
                both(w["bytes_per_s"].get<double>()).c_str(),
                duration_text(w["checkpoint_s"].get<double>()).c_str(),
                100 * w["overhead"].get<double>(), w["fits"].get<bool>() ? "fits" : "too slow");
  }
  if (c.contains("restore"))
    std::printf("  restore           %s at %s\n",
                duration_text(c["restore"]["restore_s"].get<double>()).c_str(),
                both(c["restore"]["bytes_per_s"].get<double>()).c_str());
}

// The write side: the checkpoint every --checkpoint-interval.
nlohmann::json checkpoint_plan(const plan_cli& o, const analysis::plan_inputs& in,
                               const nlohmann::json& reads) {
  const analysis::checkpoint_plan_inputs c = analysis::checkpoint_inputs_of(o, in, reads);
  nlohmann::json j = analysis::checkpoint_plan(c);
  print_checkpoint(j, in.workload.name);
  return j;
}

int run_plan(const plan_cli& o, const CLI::App& cmd) {
  auto out = reserve_if_given(o.out_given, o.out, "--out");
  analysis::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  analysis::parse_shared_inputs(o, in);
  analysis::check_plan_sides(o, in.workload);
  const bool checkpoint = !o.checkpoint_interval.empty();
  nlohmann::json plan;
  if (in.workload.has_dataset)
    plan = read_plan(o, cmd, in);
  else
    plan = {{"schema", analysis::kPlanSchema}, {"workload", in.workload.name}};
  if (checkpoint)
    plan["checkpoint"] = checkpoint_plan(o, in, in.workload.has_dataset ? plan : nlohmann::json());
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
                  "(a calibration); required for a profile with a dataset");
  sub->add_option("--storage-bandwidth", o->storage_bandwidth,
                  "Storage read bandwidth to plan against, e.g. 20GB/s");
  sub->add_option("--accelerators", o->accelerators,
                  "Accelerators to plan for (default: what --storage-bandwidth supports, else 1)");
  sub->add_option("--measured-bandwidth", o->measured_bandwidth,
                  "A row's bandwidth of samples (a published MLPerf Storage row's MiB/s, or a "
                  "run's) over --accelerators: prints the AU it ran at (bandwidth = AU x demand "
                  "x accelerators)");
  sub->add_option("--client-ram", o->client_ram,
                  "RAM per client, for the 5 x RAM dataset rule, e.g. 512GiB");
  sub->add_option("--clients", o->clients, "Client nodes")->capture_default_str();
  sub->add_option("--accelerators-per-host", o->accelerators_per_host,
                  "Accelerators one client host runs: prints what the host must sustain and "
                  "whether one 100, 200 or 400 GbE NIC (at --nic-efficiency) carries it");
  sub->add_option("--au-threshold", o->au_threshold, "AU to plan for (default: the profile's)");
  sub->add_option("--batch-size", o->batch_size, "Override the preset's batch size");
  sub->add_option("--compute-time", o->compute_time,
                  "Override the preset's compute time per batch, e.g. 224ms");
  sub->add_option("--cache", o->cache,
                  "Cache mode of the reads (direct, buffered, uncached): the read amplification")
      ->capture_default_str();
  sub->add_option("--request-size", o->request_size, "Bytes per read request, for IOPS")
      ->capture_default_str();
  sub->add_option("--dataset-size", o->dataset_size,
                  "Dataset size, e.g. 2.8TB: the epoch time at the bandwidth and count");
  sub->add_option("--epochs", o->epochs, "Epochs to train, with --dataset-size: time to train");
  sub->add_option("--nic-bandwidth", o->nic_bandwidth,
                  "Line rate of one client's NIC, e.g. 100Gb/s or 400GbE: caps the bandwidth");
  sub->add_option("--nic-efficiency", o->nic_efficiency,
                  "Share of the line rate reached in practice (0.8, or 80%)")
      ->capture_default_str();
  sub->add_option("--checkpoint-interval", o->checkpoint_interval,
                  "Save the checkpoint every interval of training, e.g. 30min or 500steps: the "
                  "write bandwidth it needs");
  sub->add_option("--max-overhead", o->max_overhead,
                  "Share of the training time checkpoints may take (5%, or 0.05)")
      ->capture_default_str();
  sub->add_flag("--async", o->async,
                "The checkpoint is written in the background and has only to finish within the "
                "interval");
  sub->add_option("--write-bandwidth", o->write_bandwidth,
                  "Storage write bandwidth, e.g. 50GB/s: the checkpoint's time and overhead");
  sub->add_option("--index", o->index,
                  "Index of a dataset (dlsize index): plan from its measured sample sizes, "
                  "samples and files instead of the profile's; --workload gives the compute side");
  sub->add_option("--out", o->out, "JSON file to write (dlsize.plan/1; must not exist)");
  add_allreduce_options(*sub, o->allreduce, false);
  sub->callback([o, sub, &ctx] {
    o->out_given = sub->get_option("--out")->count() > 0;
    ctx.exit_code = run_plan(*o, *sub);
  });
}

} // namespace dlsize::cli
