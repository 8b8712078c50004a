#include "analysis/object_requests.hpp"

// The JSON of an object store's request plan (a sizing's and a plan's object_requests block).
namespace dlsize::analysis {
namespace {

template <class T> nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json to_json(const object_plan& p) {
  return {{"request_bytes", p.request_bytes},
          {"requests_per_sample", p.requests_per_sample},
          {"requests_basis", p.requests_basis},
          {"bytes_per_request", p.bytes_per_request},
          {"requests_per_s_per_accelerator", p.requests_per_s_per_accelerator},
          {"accelerators", p.accelerators},
          {"requests_per_s", p.requests_per_s},
          {"requests_per_s_at_full_au", p.requests_per_s_at_full_au},
          {"first_byte_s", p.first_byte_s},
          {"first_byte_source", p.first_byte_source},
          {"connection_bytes_per_s", p.connection_bytes_per_s},
          {"connection_source", p.connection_source},
          {"request_time_s", p.request_time_s},
          {"requests_in_flight", p.requests_in_flight},
          {"clients", p.clients},
          {"requests_in_flight_per_client", p.requests_in_flight_per_client},
          {"max_requests_per_s", or_null(p.max_requests_per_s)},
          {"accelerators_by_requests", or_null(p.accelerators_by_requests)},
          {"bandwidth_bytes_per_s", or_null(p.bandwidth_bytes_per_s)},
          {"accelerators_by_bandwidth", or_null(p.accelerators_by_bandwidth)},
          {"limit", p.limit},
          {"limit_reason", p.limit_reason}};
}

} // namespace dlsize::analysis
