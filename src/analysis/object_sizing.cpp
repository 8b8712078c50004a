#include "analysis/object_sizing.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "analysis/object_requests.hpp"
#include "analysis/stats.hpp"
#include "report/run_identity.hpp"

namespace dlsize::analysis {
namespace {

// Below this share of a GET's time spent waiting for the first byte, the body's transfer (the
// bandwidth) set the rate; at or above it, the per-request cost did.
constexpr double kFirstByteShare = 0.5;

double median_of(const std::vector<object_run>& runs, double object_run::*field) {
  std::vector<double> v;
  for (const auto& r : runs)
    v.push_back(r.*field);
  return median(v);
}

// Which limit bound the runs: judged on the runs storage limited (two or more), by the share of
// a GET's time spent before its first byte; not judged on fewer.
void judge(object_sizing& s) {
  s.limit = "not judged";
  if (s.runs.size() < 2) {
    s.limit_reason = fmt::format("{} run{} with request figures: too few to tell a request limit "
                                 "from a bandwidth limit",
                                 s.runs.size(), s.runs.size() == 1 ? "" : "s");
    return;
  }
  std::vector<object_run> limited;
  std::copy_if(s.runs.begin(), s.runs.end(), std::back_inserter(limited),
               [](const object_run& r) { return r.storage_limited; });
  if (limited.size() < 2) {
    s.limit_reason =
        limited.empty()
            ? fmt::format("storage never limited AU in these runs: {:.0f} GET/s is the most "
                          "measured, a lower bound of the store's ceiling",
                          s.best_requests_per_s)
            : fmt::format("one run ({}) was limited by the storage: too few to tell which limit "
                          "binds; {:.0f} GET/s is the most measured",
                          limited.front().file, s.best_requests_per_s);
    return;
  }
  std::vector<double> shares;
  for (const auto& r : limited)
    shares.push_back(r.latency_s > 0 ? r.first_byte_s / r.latency_s : 0);
  const double share = median(shares);
  s.limit = share >= kFirstByteShare ? "requests" : "bandwidth";
  s.limit_reason = fmt::format(
      "in the {} run{} storage limited, the first byte took {:.0f} % of a GET's time (median): "
      "{}",
      limited.size(), limited.size() == 1 ? "" : "s", 100 * share,
      share >= kFirstByteShare ? "the store's cost per request set the rate"
                               : "the bodies' transfer (bandwidth) set the rate");
}

} // namespace

std::optional<object_run> object_run_of(const std::string& file, const report::bench_report& r,
                                        bool storage_limited) {
  if (!r.storage || !r.storage->s3)
    return std::nullopt;
  const auto& s3 = *r.storage->s3;
  const auto& sm = report::or_empty(r.summary);
  const double requests = static_cast<double>(s3.requests.value_or(0));
  const double wall = report::bench_report::number(sm.wall_s);
  const double samples = static_cast<double>(sm.samples.value_or(0));
  if (!(requests > 0) || !(wall > 0) || !(samples > 0) || !s3.first_byte || !s3.latency)
    return std::nullopt;
  object_run o;
  o.file = file;
  o.accelerators = static_cast<double>(report::accelerators_of(r));
  o.requests_per_s = requests / wall;
  o.requests_per_sample = requests / samples;
  o.bytes_per_request = static_cast<double>(s3.bytes.value_or(0)) / requests;
  o.first_byte_s = report::bench_report::number(s3.first_byte->mean_s);
  o.latency_s = report::bench_report::number(s3.latency->mean_s);
  o.storage_limited = storage_limited;
  return o;
}

object_sizing size_objects(std::vector<object_run> runs, std::size_t without,
                           const std::vector<std::pair<double, double>>& targets) {
  object_sizing s;
  s.runs = std::move(runs);
  s.runs_without_figures = without;
  if (s.runs.empty()) {
    s.limit = "not judged";
    s.limit_reason = "no run has request figures (storage.s3 requests, first byte, latency)";
    return s;
  }
  s.requests_per_sample = median_of(s.runs, &object_run::requests_per_sample);
  s.bytes_per_request = median_of(s.runs, &object_run::bytes_per_request);
  s.first_byte_s = median_of(s.runs, &object_run::first_byte_s);
  std::vector<double> rates;
  for (const auto& r : s.runs) {
    s.best_requests_per_s = std::max(s.best_requests_per_s, r.requests_per_s);
    if (r.latency_s > r.first_byte_s)
      rates.push_back(r.bytes_per_request / (r.latency_s - r.first_byte_s));
  }
  s.connection_bytes_per_s = rates.empty() ? 0 : median(rates);
  for (const auto& [n, bytes] : targets) {
    object_target t{n, bytes, bytes / s.bytes_per_request, 0};
    if (s.connection_bytes_per_s > 0)
      t.requests_in_flight = requests_in_flight(t.requests_per_s, s.first_byte_s,
                                                s.bytes_per_request, s.connection_bytes_per_s);
    s.targets.push_back(t);
  }
  judge(s);
  return s;
}

} // namespace dlsize::analysis
