#include "analysis/object_requests.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

// Which ceiling binds: the one that holds fewer accelerators; judged only when both are given.
void judge_limit(object_plan& p) {
  if (!p.accelerators_by_requests || !p.accelerators_by_bandwidth) {
    p.limit = "not judged";
    p.limit_reason =
        fmt::format("give the store's {} to tell which limit binds",
                    !p.accelerators_by_requests && !p.accelerators_by_bandwidth
                        ? "bandwidth (--storage-bandwidth) and GET ceiling (--max-requests-per-s)"
                    : !p.accelerators_by_requests ? "GET ceiling (--max-requests-per-s)"
                                                  : "bandwidth (--storage-bandwidth)");
    return;
  }
  const std::uint64_t by_req = *p.accelerators_by_requests, by_bw = *p.accelerators_by_bandwidth;
  p.limit = by_req < by_bw ? "requests" : by_bw < by_req ? "bandwidth" : "both";
  p.limit_reason =
      fmt::format("{:.0f} GET/s hold {} accelerators, {} holds {}", *p.max_requests_per_s, by_req,
                  units::format_rate_both(*p.bandwidth_bytes_per_s), by_bw);
}

} // namespace

double get_requests_per_sample(double sample_bytes, double request_bytes,
                               double samples_per_object) {
  if (!(request_bytes > 0))
    return 1 / samples_per_object;
  return std::ceil(samples_per_object * sample_bytes / request_bytes) / samples_per_object;
}

double get_request_rate(double samples_per_s, double requests_per_sample) {
  return samples_per_s * requests_per_sample;
}

double requests_in_flight(double requests_per_s, double first_byte_s, double bytes_per_request,
                          double connection_bytes_per_s) {
  return requests_per_s * (first_byte_s + bytes_per_request / connection_bytes_per_s);
}

std::uint64_t accelerators_within(double ceiling, double need_per_accelerator) {
  return static_cast<std::uint64_t>(std::floor(ceiling / need_per_accelerator * (1 + 1e-12)));
}

object_plan make_object_plan(const object_plan_inputs& in) {
  object_plan p;
  p.request_bytes = in.request_bytes;
  p.requests_per_sample =
      in.requests_per_sample > 0
          ? in.requests_per_sample
          : get_requests_per_sample(in.sample_bytes, in.request_bytes, in.samples_per_object);
  p.requests_basis = in.requests_basis;
  p.bytes_per_request = in.sample_bytes / p.requests_per_sample;
  p.requests_per_s_per_accelerator =
      get_request_rate(in.samples_per_s_per_accelerator, p.requests_per_sample) * in.au_threshold;
  p.accelerators = in.accelerators;
  const double n = static_cast<double>(in.accelerators);
  p.requests_per_s = in.required_bytes_per_s > 0 ? in.required_bytes_per_s / p.bytes_per_request
                                                 : n * p.requests_per_s_per_accelerator;
  p.requests_per_s_at_full_au = p.requests_per_s / in.au_threshold;
  p.first_byte_s = in.store.first_byte_s;
  p.connection_bytes_per_s = in.store.connection_bytes_per_s;
  p.first_byte_source = in.store.first_byte_source;
  p.connection_source = in.store.connection_source;
  p.request_time_s = p.first_byte_s + p.bytes_per_request / p.connection_bytes_per_s;
  p.requests_in_flight = requests_in_flight(p.requests_per_s, p.first_byte_s, p.bytes_per_request,
                                            p.connection_bytes_per_s);
  p.clients = in.clients;
  p.requests_in_flight_per_client = p.requests_in_flight / static_cast<double>(in.clients);
  if (in.store.max_requests_per_s > 0) {
    p.max_requests_per_s = in.store.max_requests_per_s;
    p.accelerators_by_requests =
        accelerators_within(in.store.max_requests_per_s, p.requests_per_s_per_accelerator);
  }
  if (in.deliverable_bytes_per_s > 0) {
    p.bandwidth_bytes_per_s = in.deliverable_bytes_per_s;
    p.accelerators_by_bandwidth =
        accelerators_within(in.deliverable_bytes_per_s, in.bandwidth_needed_per_accelerator);
  }
  judge_limit(p);
  return p;
}

} // namespace dlsize::analysis
