#pragma once
// Reading samples from an object store: what a sample costs in GET requests, the request rate N
// accelerators need, and the requests in flight that sustain that rate. The one home of these
// formulas (docs/metrics.md, "Requests to an object store"): plan --s3 and size of S3 runs both
// call them, so a plan and a measurement count requests the same way.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/defaults.hpp"

namespace dlsize::analysis {

// Defaults of plan --s3, from Amazon S3's published performance guidelines ("Performance
// guidelines for Amazon S3", docs.aws.amazon.com/AmazonS3/latest/userguide/
// optimizing-performance-guidelines.html; docs/s3.md, "Sizing for objects"): a first byte in
// roughly 100 to 200 ms (the low end taken), one connection per 85 to 90 MB/s.
inline constexpr double kDefaultFirstByteS = 0.1;
inline constexpr double kDefaultConnectionBytesPerS = 85e6;

// GETs per sample: samples of `sample_bytes` held `samples_per_object` to an object (1: an
// object per sample, or a record read as a range of its own; k > 1: a shard streamed whole),
// read in requests of at most `request_bytes`: ceil(k·S / R) / k. So an object of S bytes costs
// ceil(S / R) GETs, and a packed layout about S / R per sample (bytes/s ÷ R per second).
// request_bytes 0: one GET per object, whatever its size (1 / k). The sizes must be above 0.
double get_requests_per_sample(double sample_bytes, double request_bytes,
                               double samples_per_object = 1);

// The GET rate of a sample rate: samples/s × GETs per sample.
double get_request_rate(double samples_per_s, double requests_per_sample);

// Little's law: the requests in flight that sustain `requests_per_s` when each request takes
// its time to first byte plus its body at one connection's bandwidth:
// rate × (first_byte_s + bytes_per_request / connection_bytes_per_s).
double requests_in_flight(double requests_per_s, double first_byte_s, double bytes_per_request,
                          double connection_bytes_per_s);

// The most accelerators a ceiling holds when each needs `need_per_accelerator` of it:
// floor(ceiling / need), with a relative slack of 1e-12 so that a ceiling of exactly N × need
// holds N.
std::uint64_t accelerators_within(double ceiling, double need_per_accelerator);

// What plan --s3 assumes of the store, and where each figure came from.
struct object_store_assumptions {
  double first_byte_s = kDefaultFirstByteS;
  double connection_bytes_per_s = kDefaultConnectionBytesPerS;
  double max_requests_per_s = 0; // the store's GET ceiling; 0: not given
  double samples_per_object = 1; // plan --shard-read stream: a shard's records
  std::string first_byte_source, connection_source;
};

// The read side of a plan as an object store sees it, for plan --s3.
struct object_plan_inputs {
  double samples_per_s_per_accelerator = 0; // at AU 100 %
  double au_threshold = core::defaults::au_threshold;
  double sample_bytes = 0;
  double request_bytes = 0;       // the largest GET (--request-size); 0: one per object
  double requests_per_sample = 0; // 0: get_requests_per_sample of the sizes below
  double samples_per_object = 1;  // see get_requests_per_sample
  std::string requests_basis;     // how requests_per_sample was found, in words
  std::uint64_t accelerators = 1; // the plan's count
  // The plan's bytes/s for them at the AU threshold (a modelled allreduce's efficiency
  // included); 0: accelerators × bandwidth_needed_per_accelerator.
  double required_bytes_per_s = 0;
  std::uint64_t clients = 1;                   // client hosts sharing the requests in flight
  double bandwidth_needed_per_accelerator = 0; // bytes/s at the AU threshold
  double deliverable_bytes_per_s = 0; // the store's bandwidth (NICs included); 0: not given
  object_store_assumptions store;
};

// What N accelerators ask of an object store beside the bandwidth: the GET rate at the AU
// threshold, the requests in flight that sustain it, and, given the store's ceilings, the
// accelerators each ceiling holds and which one binds.
struct object_plan {
  double request_bytes = 0, requests_per_sample = 0, bytes_per_request = 0;
  std::string requests_basis;
  double requests_per_s_per_accelerator = 0; // at the AU threshold
  std::uint64_t accelerators = 0;
  double requests_per_s = 0;            // the accelerators at the AU threshold
  double requests_per_s_at_full_au = 0; // the same at AU 100 %
  double first_byte_s = 0, connection_bytes_per_s = 0;
  std::string first_byte_source, connection_source;
  double request_time_s = 0; // first byte + body at one connection's bandwidth
  double requests_in_flight = 0;
  std::uint64_t clients = 1;
  double requests_in_flight_per_client = 0;
  std::optional<double> max_requests_per_s, bandwidth_bytes_per_s;
  std::optional<std::uint64_t> accelerators_by_requests, accelerators_by_bandwidth;
  std::string limit;        // "requests", "bandwidth" or "not judged"
  std::string limit_reason; // why, in words
};

object_plan make_object_plan(const object_plan_inputs& in);
nlohmann::json to_json(const object_plan& p);

} // namespace dlsize::analysis
