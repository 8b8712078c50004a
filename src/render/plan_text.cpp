#include "render/plan_text.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/human_number.hpp"

namespace dlsize::render {
namespace {

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
  if (!in.object_store) // plan --s3 prints its GETs instead
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

// What the accelerators ask of an object store beside the bandwidth (plan --s3).
void print_objects(const analysis::object_plan& o) {
  std::printf("  S3 GETs           %s GET/s (AU %.0f %%): %.4g per sample of %s each, %s GET/s "
              "per accelerator\n",
              human(o.requests_per_s).c_str(), 100 * o.requests_per_s / o.requests_per_s_at_full_au,
              o.requests_per_sample, units::format_bytes_binary(o.bytes_per_request).c_str(),
              human(o.requests_per_s_per_accelerator).c_str());
  std::printf("  in flight         %s GETs (Little's law: %s GET/s x (%.0f ms to first byte + "
              "%.1f ms at %s per connection)), %s per client\n",
              human(o.requests_in_flight).c_str(), human(o.requests_per_s).c_str(),
              1e3 * o.first_byte_s, 1e3 * (o.request_time_s - o.first_byte_s),
              units::format_rate_both(o.connection_bytes_per_s).c_str(),
              human(o.requests_in_flight_per_client).c_str());
  if (o.accelerators_by_requests)
    std::printf("  %s GET/s       hold %llu accelerators at AU >= %.0f %%\n",
                human(*o.max_requests_per_s).c_str(),
                static_cast<unsigned long long>(*o.accelerators_by_requests),
                100 * o.requests_per_s / o.requests_per_s_at_full_au);
  std::printf("  limit             %s: %s\n", o.limit.c_str(), o.limit_reason.c_str());
}

// The dataset a valid run needs, the index's, and one client host's share.
void print_dataset(const nlohmann::json& plan, const analysis::plan_inputs& in) {
  auto both = [](double v) { return units::format_rate_both(v); };
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
}

} // namespace

void print_read_plan(const nlohmann::json& plan, const analysis::plan_inputs& in,
                     const analysis::object_plan* objects) {
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
  if (objects)
    print_objects(*objects);
  if (plan.contains("allreduce"))
    print_scaling(plan);
  print_dataset(plan, in);
  print_extras(plan, in);
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

} // namespace dlsize::render
