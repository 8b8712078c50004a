#include "analysis/plan_goodput.hpp"

#include <limits>

#include <fmt/format.h>

#include "analysis/goodput_curve.hpp"
#include "analysis/goodput_evidence.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// The storage the plan is for: a bandwidth given, or the backend a report measured.
void storage_of(const plan_options& o, const plan_inputs& in, goodput_setup& g) {
  if (!o.checkpoint_report.empty() && !o.write_bandwidth.empty())
    throw usage_error("--checkpoint-report: the report gives the write bandwidth. valid: one of "
                      "--checkpoint-report and --write-bandwidth");
  if (!o.checkpoint_report.empty()) {
    const checkpoint_series_document s = report_series(o.checkpoint_report);
    g.backend = fmt::format("{} ({})", s.backend, o.checkpoint_report);
    g.write = series_write_rates(s);
    g.restore = series_restore_rates(s);
  } else if (!o.write_bandwidth.empty()) {
    const double bw = units::parse_rate(o.write_bandwidth, "--write-bandwidth");
    if (!(bw > 0))
      throw usage_error("--write-bandwidth: must be above 0 for the goodput. valid: the "
                        "storage's write bandwidth, e.g. 100GB/s");
    g.backend = "a storage writing " + units::format_rate_both(bw);
    g.write = {bw, kUnlimited, "--write-bandwidth " + o.write_bandwidth};
    g.restore = {bw, kUnlimited, "at the write bandwidth (no --storage-bandwidth)"};
  } else {
    throw usage_error("--mttf: the goodput needs the storage's write bandwidth. valid: "
                      "--write-bandwidth RATE (e.g. 100GB/s) or --checkpoint-report FILE (a "
                      "report of dlsize checkpoint)");
  }
  if (in.storage_bandwidth > 0)
    g.restore = {in.storage_bandwidth, kUnlimited, "--storage-bandwidth (the restore read)"};
}

void staging_of(const plan_options& o, goodput_setup& g) {
  if (!o.async) {
    if (!o.staging_bandwidth.empty())
      throw usage_error("--staging-bandwidth: the copy to host memory of an asynchronous "
                        "checkpoint. valid: with --async");
    return;
  }
  if (o.staging_bandwidth.empty())
    throw usage_error("--async: an asynchronous checkpoint pauses training for the copy to host "
                      "memory. valid: --staging-bandwidth RATE, what one accelerator copies its "
                      "share at (e.g. 25GB/s)");
  g.async = true;
  g.staging_bytes_per_s = units::parse_rate(o.staging_bandwidth, "--staging-bandwidth");
}

} // namespace

bool plan_asks_goodput(const plan_options& o) {
  return goodput_asked(o.goodput) || !o.checkpoint_report.empty() || !o.staging_bandwidth.empty();
}

goodput_document goodput_plan(const plan_options& o, const plan_inputs& in,
                              const plan_reads* reads) {
  const goodput_options opts = parse_goodput_options(o.goodput);
  goodput_setup g;
  g.workload = in.workload.name;
  g.profile = config::require_checkpoint(in.workload);
  g.checkpoint_source =
      fmt::format("the {} profile: {}", in.workload.name,
                  g.profile.published.empty()
                      ? units::format_bytes_binary(static_cast<double>(g.profile.total_bytes()))
                      : g.profile.published);
  storage_of(o, in, g);
  staging_of(o, g);
  opts.apply_to(g);
  const std::uint64_t planned = reads ? reads->accelerators : o.accelerators;
  return goodput_curve(g, opts.counts, planned);
}

} // namespace dlsize::analysis
