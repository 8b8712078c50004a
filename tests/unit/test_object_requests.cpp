// Unit tests for the object store's formulas (analysis/object_requests.hpp): GETs per sample,
// the GET rate, Little's law, and which ceiling binds, on hand-computed resnet50-like (114,660 B
// records) and unet3d-like (146,600,628 B objects) samples at the h100 presets.
#include <catch2/catch.hpp>

#include "analysis/object_requests.hpp"

using namespace dlsize::analysis;

namespace object_requests_test {

constexpr double kResnetBytes = 114660, kResnetSamplesPerS = 400 / 0.224;
constexpr double kUnetBytes = 146600628, kUnetSamplesPerS = 7 / 0.323;
constexpr double kMiB = 1 << 20;

object_plan_inputs inputs(double bytes, double samples_per_s, double request_bytes) {
  object_plan_inputs in;
  in.samples_per_s_per_accelerator = samples_per_s;
  in.au_threshold = 0.9;
  in.sample_bytes = bytes;
  in.request_bytes = request_bytes;
  in.accelerators = 8;
  in.clients = 2;
  in.bandwidth_needed_per_accelerator = samples_per_s * bytes * 0.9;
  in.deliverable_bytes_per_s = 20e9;
  in.store.max_requests_per_s = 5500;
  return in;
}

} // namespace object_requests_test

using namespace object_requests_test;

TEST_CASE("an object costs ceil(S / R) GETs, a packed shard about S / R per sample") {
  CHECK(get_requests_per_sample(kResnetBytes, kMiB) == 1);
  CHECK(get_requests_per_sample(kUnetBytes, kMiB) == 140); // 139.8 MiB
  CHECK(get_requests_per_sample(kUnetBytes, 8 * kMiB) == 18);
  CHECK(get_requests_per_sample(kUnetBytes, 0) == 1); // a GET per object
  // 1,251 records of 114,660 B streamed as a 143.4 MB shard in 1 MiB GETs: 137 GETs a shard.
  CHECK(get_requests_per_sample(kResnetBytes, kMiB, 1251) == Approx(137.0 / 1251));
  CHECK(get_requests_per_sample(kResnetBytes, 0, 1251) == Approx(1.0 / 1251));
}

TEST_CASE("the GET rate is samples/s times GETs per sample; Little's law gives those in flight") {
  CHECK(get_request_rate(kUnetSamplesPerS, 140) == Approx(3034.055727554));
  // 12,857.14 GET/s of 114,660 B at 100 ms to first byte and 85 MB/s: 0.1013489 s each.
  CHECK(requests_in_flight(12857.142857, 0.1, kResnetBytes, 85e6) == Approx(1303.0578));
  CHECK(requests_in_flight(100, 0, 1e6, 1e8) == Approx(1));
  CHECK(accelerators_within(20e9, 5e9) == 4);
  CHECK(accelerators_within(20e9 - 1, 5e9) == 3);
}

TEST_CASE("resnet50-like records are request-bound on a 5,500 GET/s store of 20 GB/s") {
  const object_plan p = make_object_plan(inputs(kResnetBytes, kResnetSamplesPerS, 0));
  CHECK(p.requests_per_sample == 1);
  CHECK(p.bytes_per_request == kResnetBytes);
  CHECK(p.requests_per_s_per_accelerator == Approx(1607.142857));
  CHECK(p.requests_per_s == Approx(12857.142857));
  CHECK(p.requests_per_s_at_full_au == Approx(14285.714286));
  CHECK(p.request_time_s == Approx(0.1013489412));
  CHECK(p.requests_in_flight == Approx(1303.0578));
  CHECK(p.requests_in_flight_per_client == Approx(651.5289));
  CHECK(*p.accelerators_by_requests == 3);    // 5500 / 1607.1
  CHECK(*p.accelerators_by_bandwidth == 108); // 20e9 / 184.27e6
  CHECK(p.limit == "requests");
}

TEST_CASE("unet3d-like objects are bandwidth-bound on the same store, read whole or in 8 MiB") {
  for (const double r : {0.0, 8 * kMiB}) {
    const object_plan p = make_object_plan(inputs(kUnetBytes, kUnetSamplesPerS, r));
    CHECK(p.requests_per_sample == (r > 0 ? 18 : 1));
    CHECK(*p.accelerators_by_bandwidth == 6); // 20e9 / 2.8594e9
    CHECK(*p.accelerators_by_requests == (r > 0 ? 15 : 281));
    CHECK(p.limit == "bandwidth");
  }
  // In 1 MiB GETs it takes 140 a sample: 2,730.6 GET/s per accelerator, and requests bind.
  const object_plan small = make_object_plan(inputs(kUnetBytes, kUnetSamplesPerS, kMiB));
  CHECK(small.requests_per_s_per_accelerator == Approx(2730.650155));
  CHECK(small.bytes_per_request == Approx(kUnetBytes / 140));
  CHECK(small.limit == "requests");
}

TEST_CASE("which limit binds is not judged without both ceilings") {
  object_plan_inputs in = inputs(kResnetBytes, kResnetSamplesPerS, 0);
  in.store.max_requests_per_s = 0;
  object_plan p = make_object_plan(in);
  CHECK(p.limit == "not judged");
  CHECK(p.limit_reason.find("--max-requests-per-s") != std::string::npos);
  CHECK(!p.accelerators_by_requests);
  in.store.max_requests_per_s = 5500;
  in.deliverable_bytes_per_s = 0;
  p = make_object_plan(in);
  CHECK(p.limit == "not judged");
  CHECK(p.limit_reason.find("--storage-bandwidth") != std::string::npos);
  CHECK(to_json(p)["bandwidth_bytes_per_s"].is_null());
  CHECK(to_json(p)["accelerators_by_requests"] == 3);
}
