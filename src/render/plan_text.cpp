#include "render/plan_text.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "core/units.hpp"
#include "model/allreduce_model.hpp"
#include "render/human_number.hpp"

namespace dlsize::render {
namespace {

void print_extras(const analysis::plan_reads& plan) {
  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("  reads             %.3g x the samples' bytes (%s): %s per accelerator\n",
              plan.read_amplification, plan.read_amplification_basis.c_str(),
              both(plan.reads_bytes_per_s_per_accelerator).c_str());
  if (!plan.s3) // plan --s3 prints its GETs instead
    std::printf("  requests          %s IOPS (requests of up to %s), %s files/s\n",
                render::human(plan.iops).c_str(),
                units::format_bytes_binary(plan.request_size).c_str(),
                render::human(plan.files_per_s).c_str());
  if (plan.nic_limit_bytes_per_s)
    std::printf("  network           %s: %llu clients x %s x %.0f %% efficiency\n",
                both(*plan.nic_limit_bytes_per_s).c_str(),
                static_cast<unsigned long long>(plan.clients), both(plan.nic_bandwidth).c_str(),
                100 * plan.nic_efficiency);
  if (plan.expected_accelerator_utilization)
    std::printf("  expected AU       %s for %llu accelerators at %s\n",
                render::au_text(*plan.expected_accelerator_utilization).c_str(),
                static_cast<unsigned long long>(plan.accelerators),
                both(plan.storage->deliverable_bytes_per_s).c_str());
  if (plan.row) {
    const auto& r = *plan.row;
    std::printf("  row               %s over %llu accelerators: %s per accelerator of a %s "
                "demand: AU %.2f %% (%s the %.0f %% threshold)\n",
                both(r.bandwidth_bytes_per_s).c_str(),
                static_cast<unsigned long long>(r.accelerators),
                both(r.bandwidth_bytes_per_s_per_accelerator).c_str(),
                both(r.demand_bytes_per_s_per_accelerator).c_str(), 100 * r.accelerator_utilization,
                r.meets_au_threshold ? "meets" : "below", 100 * plan.au_threshold);
    if (!r.note.empty())
      std::printf("                    %s\n", r.note.c_str());
  }
  if (plan.epoch) {
    const auto& e = *plan.epoch;
    std::printf("  epoch             %s over %s at %s%s\n", human_duration(e.epoch_s).c_str(),
                units::format_bytes_decimal(e.dataset_bytes).c_str(), both(e.bytes_per_s).c_str(),
                !e.time_to_train_s
                    ? ""
                    : fmt::format("; {} epochs: {}", *e.epochs, human_duration(*e.time_to_train_s))
                          .c_str());
  }
}

// The efficiency curve next to the bandwidth it asks of storage.
void print_scaling(const analysis::plan_reads& plan) {
  const auto& s = *plan.scaling;
  const auto& a = s.allreduce;
  std::printf("  allreduce   %s of %.0f MB (%s gradients); %s; efficiency at %llu: %.1f %%\n",
              model::to_string(a.algorithm).c_str(), a.gradient_bytes / 1e6, a.dtype.c_str(),
              a.overlap_note().c_str(), static_cast<unsigned long long>(plan.accelerators),
              100 * s.scaling_efficiency);
  std::printf("  %12s %7s %12s %11s %12s  %s\n", "accelerators", "layout", "allreduce ms",
              "efficiency", "samples/s", "storage at the AU threshold");
  for (const auto& p : s.curve)
    std::printf("  %12llu %7s %12.2f %10.1f%% %12.0f  %s\n",
                static_cast<unsigned long long>(p.accelerators),
                fmt::format("{}x{}", p.layout.nodes, p.layout.per_node).c_str(), 1e3 * p.exposed_s,
                100 * p.efficiency, p.samples_per_s,
                units::format_rate_both(p.required_bytes_per_s).c_str());
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
void print_dataset(const analysis::plan_reads& plan) {
  auto both = [](double v) { return units::format_rate_both(v); };
  const auto& ds = plan.dataset;
  std::printf("  a valid run needs %s (%.0f samples): 500 steps per epoch need %s%s\n",
              units::format_bytes_binary(ds.min_bytes).c_str(), ds.min_samples,
              units::format_bytes_binary(ds.min_bytes_for_steps).c_str(),
              !ds.ram ? "; give --client-ram and --clients for the 5 x RAM rule"
                      : fmt::format(", 5 x the clients' RAM {}",
                                    units::format_bytes_binary(ds.ram->min_bytes))
                            .c_str());
  if (ds.indexed)
    std::printf("  the index holds   %s: %s\n",
                units::format_bytes_binary(ds.indexed->bytes).c_str(),
                ds.indexed->is_enough ? "enough for a valid run" : "less than a valid run needs");
  if (plan.per_host) {
    const auto& h = *plan.per_host;
    std::printf("  one client host   %llu accelerators need %s (AU %.0f %%), %.0f requests/s\n",
                static_cast<unsigned long long>(h.accelerators),
                both(h.required_bytes_per_s).c_str(), 100 * plan.au_threshold, h.iops);
    for (const auto& nic : h.one_nic)
      std::printf("    one %3.0f GbE NIC  %s at %.0f %% of line rate: %s (%.0f %% loaded)\n",
                  nic.gbe, both(nic.usable_bytes_per_s).c_str(), 100 * h.nic_efficiency,
                  nic.carries ? "carries it" : "does not carry it", 100 * nic.load);
  }
}

} // namespace

void print_read_plan(const std::string& workload, const analysis::plan_reads& plan) {
  auto both = [](double v) { return units::format_rate_both(v); };
  const auto& acc = plan.accelerator;
  std::printf("%s on %s (batch %llu, %.4g s per batch; %s)\n", workload.c_str(), acc.type.c_str(),
              static_cast<unsigned long long>(acc.batch_size), acc.compute_time_s,
              acc.source.c_str());
  std::printf("  dataset           %s\n", plan.dataset_source.c_str());
  if (plan.index) {
    const auto& i = *plan.index;
    std::printf("  indexed samples   %s in all; mean %.0f B, p50 %s, p99 %s, max %s\n",
                units::format_bytes_decimal(i.sample_bytes).c_str(), plan.sample_bytes_mean,
                units::format_bytes_binary(i.p50).c_str(),
                units::format_bytes_binary(i.p99).c_str(),
                units::format_bytes_binary(i.max).c_str());
  }
  std::printf(
      "  per accelerator   %.1f samples/s of %.0f B: demand %s of samples at AU 100 %%; reads %s "
      "at AU %.0f %%\n",
      plan.samples_per_s_per_accelerator, plan.sample_bytes_mean,
      both(plan.demand_bytes_per_s_per_accelerator).c_str(),
      both(plan.bytes_per_s_per_accelerator_at_threshold).c_str(), 100 * plan.au_threshold);
  std::printf("  %llu accelerators   need %s (AU %.0f %%); %s at AU 100 %%\n",
              static_cast<unsigned long long>(plan.accelerators),
              both(plan.required_bytes_per_s).c_str(), 100 * plan.au_threshold,
              both(plan.reads_bytes_per_s).c_str());
  if (plan.storage)
    std::printf("  %s supports %llu accelerators at AU >= %.0f %%\n",
                fmt::format("{} {}",
                            plan.storage->storage_bandwidth_bytes_per_s ? "storage" : "the network",
                            both(plan.storage->deliverable_bytes_per_s))
                    .c_str(),
                static_cast<unsigned long long>(plan.storage->max_accelerators_at_threshold),
                100 * plan.au_threshold);
  if (plan.s3)
    print_objects(*plan.s3);
  if (plan.scaling)
    print_scaling(plan);
  print_dataset(plan);
  print_extras(plan);
}

void print_checkpoint(const std::string& name, const analysis::checkpoint_plan_document& c) {
  auto both = [](double v) { return units::format_rate_both(v); };
  std::printf("%s checkpoint: %s over %llu ranks (TP %u x PP %u x DP %u, ZeRO %u)%s\n",
              name.c_str(), units::format_bytes_binary(static_cast<double>(c.bytes)).c_str(),
              static_cast<unsigned long long>(c.ranks), c.tensor_parallel, c.pipeline_parallel,
              c.data_parallel, c.zero_stage, c.estimate ? " (dlsize's estimate)" : "");
  std::printf("  every %s (%s), %s: at most %s per checkpoint\n", c.interval.c_str(),
              human_duration(c.interval_s).c_str(),
              c.async ? "written in the background"
                      : fmt::format("at most {:.3g} % of the time", 100 * c.max_overhead).c_str(),
              human_duration(c.allowed_s).c_str());
  std::printf("  writes need       %s in all; %s for the largest rank (%s), %s per client\n",
              both(c.write_bytes_per_s).c_str(), both(c.rank_write_bytes_per_s).c_str(),
              units::format_bytes_binary(static_cast<double>(c.largest_rank_bytes)).c_str(),
              both(c.client_write_bytes_per_s).c_str());
  if (c.link)
    std::printf("  client NIC        %s at least per checkpoint: %s\n",
                human_duration(c.link->floor_s).c_str(),
                c.link->fits ? "fits" : "does not fit, whatever the storage");
  if (c.at_write)
    std::printf("  writing at %s: a checkpoint takes %s, %.2f %% of the time (%s)\n",
                both(c.at_write->bytes_per_s).c_str(),
                human_duration(c.at_write->checkpoint_s).c_str(), 100 * c.at_write->overhead,
                c.at_write->fits ? "fits" : "too slow");
  if (c.restore)
    std::printf("  restore           %s at %s\n", human_duration(c.restore->restore_s).c_str(),
                both(c.restore->bytes_per_s).c_str());
}

} // namespace dlsize::render
