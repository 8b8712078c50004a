// Unit tests for src/pipeline/job_rollup.hpp and storage_rollup.hpp: the job's figures are sums
// over ranks (host-wide counters once per host) and the storage bench's over readers, on
// numbers alone.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "pipeline/job_rollup.hpp"
#include "pipeline/storage_rollup.hpp"

namespace {

using namespace dlsize;
using namespace dlsize::pipeline;

constexpr std::uint64_t kRollupMs = 1'000'000;

// n steps of one accelerator: each waits `wait` then computes `compute` ms; batch 8.
std::vector<step_record> steps(std::uint64_t n, std::uint64_t wait, std::uint64_t compute) {
  std::vector<step_record> out;
  std::uint64_t end = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    end += (wait + compute) * kRollupMs;
    out.push_back({i, 0, wait * kRollupMs, compute * kRollupMs, 0, end, 8, 8 * 1000});
  }
  return out;
}

rank_result rank(int id, int node, std::uint64_t n_steps, std::uint64_t wait) {
  rank_result r;
  r.rank = id;
  r.node = node;
  r.host = "host" + std::to_string(node);
  r.accelerators = {figures_of(steps(n_steps, wait, 10))};
  r.steps_min = r.steps_run = n_steps;
  r.samples = n_steps * 8;
  r.io.bytes = 1000 * static_cast<std::uint64_t>(id + 1);
  r.io.errors = id == 2 ? 1 : 0;
  r.failed_samples = id == 2 ? 3 : 0;
  r.first_error = id == 2 ? "read failed" : "";
  r.wall_s = 2.0 + id;
  r.cpu.process_user_s = 1.0;
  r.cpu.process_system_s = 0.5;
  r.cpu.host_utilization = 0.2 * (node + 1);
  r.storage_counter = true;
  r.storage_bytes = 500; // the host's counter: every rank of a host sees the same
  r.pre_digest = 1u << id;
  r.warnings = {"shared warning", "rank " + std::to_string(id)};
  r.epochs = epoch_partials({steps(n_steps, wait, 10)}, 1);
  return r;
}

} // namespace

TEST_CASE("a job's rollup adds ranks up and counts host counters once per host", "[rollup]") {
  // Ranks 0 and 1 on host 0, rank 2 on host 1.
  const std::vector<rank_result> ranks = {rank(0, 0, 10, 1), rank(1, 0, 8, 2), rank(2, 1, 10, 0)};
  const job_rollup j = roll_up(ranks, 1);
  CHECK(j.accelerators.size() == 3);
  CHECK(j.samples == (10 + 8 + 10) * 8);
  CHECK(j.steps_min == 8);
  CHECK(j.steps_run == 28);
  CHECK(j.io.bytes == 1000 + 2000 + 3000);
  CHECK(j.io.errors == 1);
  CHECK(j.failed_samples == 3);
  CHECK(j.first_error == "read failed");
  CHECK(j.wall_s == 4.0);
  CHECK(j.pre_digest == (1u | 2u | 4u));
  REQUIRE(j.hosts.size() == 2);
  CHECK(j.hosts[0].ranks == std::vector<int>{0, 1});
  CHECK(j.hosts[0].read_bytes == 3000);
  CHECK(j.hosts[1].first->rank == 2);
  CHECK(j.storage_bytes == 1000); // 500 per host, not per rank
  CHECK(j.storage_everywhere);
  CHECK(j.cpu.host_utilization == Approx((0.2 + 0.4) / 2));
  CHECK(j.cpu.process_utilization == Approx(3 * 1.5 / 4.0));
  CHECK(j.warnings == std::vector<std::string>{"shared warning", "rank 0", "rank 1", "rank 2"});
  CHECK(j.epochs.at(0).steps == 28);
}

TEST_CASE("a job with no results rolls up to zeros", "[rollup]") {
  const job_rollup j = roll_up(std::vector<rank_result>{}, 2);
  CHECK(j.steps_min == 0);
  CHECK(j.hosts.empty());
  CHECK_FALSE(j.storage_everywhere);
  CHECK(j.epochs.size() == 2);
  CHECK(j.cpu.process_utilization == 0);
}

TEST_CASE("a storage bench's rollup adds readers up, epochs by index", "[rollup]") {
  reader_counts a, b;
  a.samples = 10;
  a.epoch_samples = {6, 4};
  a.epoch_bytes = {600, 400};
  a.epoch_end_ns = {100, 300};
  a.mismatches = 1;
  a.problems = {"zeta"};
  a.digest = 5;
  b.samples = 7;
  b.epoch_samples = {3, 4};
  b.epoch_bytes = {300, 400};
  b.epoch_end_ns = {150, 250};
  b.failed_jobs = 2;
  b.first_error = "EIO";
  b.problems = {"alpha"};
  b.digest = 6;
  b.records_verified = 9;
  const storage_rollup r = roll_up({a, b}, 2);
  CHECK(r.samples == 17);
  CHECK(r.failed_jobs == 2);
  CHECK(r.first_error == "EIO");
  CHECK(r.mismatches == 1);
  CHECK(r.verified == 9);
  CHECK(r.digest == 11);
  CHECK(r.problems == std::vector<std::string>{"alpha", "zeta"});
  REQUIRE(r.epochs.size() == 2);
  CHECK(r.epochs[0].samples == 9);
  CHECK(r.epochs[1].read_bytes == 800);
  CHECK(r.epochs[0].end_ns == 150);
  CHECK(r.epochs[1].end_ns == 300);
}
