#include <catch2/catch.hpp>

#include "pipeline/bench_setup.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace dlsize::pipeline;
using namespace dlsize::test;
using dlsize::config::accelerator_kind;

namespace {

// A storage-only job on a folder, read by pread threads (no io_uring needed).
bench_job_options storage_job() {
  bench_job_options o;
  o.workload = "resnet50";
  o.dataset = "data";
  o.engine = "psync";
  return o;
}

bench_setup resolve(const bench_job_options& o, std::uint64_t ranks = 1) {
  const auto req = bench_request_of(o);
  return resolve_bench_setup(o, req, dlsize::config::check_bench_request(req, ranks), ranks, 1);
}

} // namespace

TEST_CASE("bench's rule sequence resolves a storage-only job and a training job", "[bench_setup]") {
  const bench_setup s = resolve(storage_job());
  CHECK(s.spec.kind == accelerator_kind::none);
  CHECK(s.accelerators == 0);
  CHECK(s.io.engine == "psync");
  CHECK(s.io.request_size == 1u << 20);
  CHECK(s.profile.name == "resnet50");
  CHECK(s.timing.status_interval_s == 30);
  CHECK_FALSE(s.s3);

  auto o = storage_job();
  o.accelerator = "emulated:a100";
  o.accelerators_per_rank = 2;
  o.given = {"--accelerator", "--accelerators-per-rank"};
  const bench_setup t = resolve(o, 2);
  CHECK(t.spec.kind == accelerator_kind::emulated);
  CHECK(t.accelerators == 4);
  CHECK(t.au_threshold == t.profile.au_threshold);
  o.au_threshold = "0.5";
  o.given.insert("--au-threshold");
  CHECK(resolve(o, 2).au_threshold == 0.5);
}

TEST_CASE("bench's rule sequence refuses combinations no single rule sees", "[bench_setup]") {
  auto o = storage_job();
  o.engine = "s3";
  CHECK_THAT(usage_error_message([&] { resolve(o); }),
             StartsWith("--engine s3: reads a dataset in a bucket") && Contains("'data'"));
  o = storage_job();
  o.client_ram = "1GiB";
  o.given = {"--client-ram"};
  CHECK_THAT(usage_error_message([&] { resolve(o); }),
             StartsWith("--client-ram: emulates a client's page cache"));
  o = storage_job();
  o.index = "data.index";
  o.generate = "1GiB";
  o.given = {"--index", "--generate"};
  CHECK_THAT(usage_error_message([&] { resolve(o); }),
             StartsWith("--generate: nothing is ever written"));
  o = storage_job();
  o.prefetch = 4;
  o.given = {"--prefetch"};
  CHECK_THAT(usage_error_message([&] { resolve(o); }),
             StartsWith("--prefetch: needs an accelerator"));
}
