// Unit tests for src/analysis/goodput_curve.hpp: a checkpoint's time at N ranks from a storage's
// rates (the slowest rank's share, the aggregate), the table over N, the most accelerators
// within the target loss, and the JSON of the section.
#include <algorithm>
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/goodput_curve.hpp"
#include "config/checkpoint_profile.hpp"
#include "config/workload.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize;
using Catch::Matchers::Contains;

config::checkpoint_profile profile_of(const char* workload) {
  return config::require_checkpoint(config::load_workload(workload));
}

analysis::goodput_setup llama70b_at(double write_bytes_per_s) {
  analysis::goodput_setup s;
  s.workload = "llama3-70b";
  s.profile = profile_of("llama3-70b");
  s.write = {write_bytes_per_s, std::numeric_limits<double>::infinity(), "--write-bandwidth"};
  s.restore = s.write;
  return s;
}

double largest_share(const config::checkpoint_profile& p, unsigned ranks) {
  const auto layout = config::checkpoint_shares(p, ranks, {});
  std::uint64_t most = 0;
  for (const auto& s : layout.shares)
    most = std::max(most, s.bytes());
  return static_cast<double>(most);
}

} // namespace

TEST_CASE("A rank's largest share follows the profile's rule at any rank count", "[goodput]") {
  for (const auto& [workload, ranks] : {std::pair{"llama3-70b", 64u},
                                        {"llama3-70b", 16384u},
                                        {"llama3-405b", 512u},
                                        {"llama3-405b", 4096u},
                                        {"resnet50", 8u},
                                        {"llama3-8b", 8u}}) {
    CAPTURE(workload, ranks);
    const auto p = profile_of(workload);
    // checkpoint_shares gives the first ranks the bytes that do not divide: at most one more.
    CHECK(std::abs(analysis::largest_rank_bytes(p, ranks) - largest_share(p, ranks)) <= 1.0);
  }
}

TEST_CASE("A checkpoint takes its slowest rank's share or the job's bytes at the aggregate",
          "[goodput]") {
  const auto p = profile_of("llama3-70b");
  const double total = static_cast<double>(p.total_bytes());
  // One rank writes 1 GB/s, the storage 8 GB/s in all: 8 ranks are rank-bound, more are not.
  const analysis::phase_rates r{8e9, 1e9, "measured"};
  CHECK(analysis::phase_seconds(r, p, 8) == Approx(total / 8 / 1e9));
  CHECK(analysis::phase_seconds(r, p, 64) == Approx(total / 8e9));
  CHECK(analysis::phase_seconds(r, p, 16384) == Approx(total / 8e9));
  CHECK(analysis::phase_seconds(r, p, 4) == Approx(total / 4 / 1e9));
}

TEST_CASE("The goodput table gives each count its interval, loss and bandwidth for the target",
          "[goodput]") {
  const analysis::goodput_document d =
      analysis::goodput_curve(llama70b_at(100e9), analysis::default_goodput_counts(), 16384);
  REQUIRE(d.rows.size() == 5);
  CHECK(d.rows.front().accelerators == 1024);
  CHECK(d.rows.back().accelerators == 100000);
  const analysis::goodput_row_document* row = d.planned();
  REQUIRE(row);
  // As test_goodput.cpp's hand-worked llama3-70b: 911 GiB at 100 GB/s, R = δ + 300 s.
  CHECK(row->pause_s == Approx(9.78178801664));
  REQUIRE(row->interval_s);
  CHECK(*row->interval_s == Approx(457.1091878158798).epsilon(1e-9));
  REQUIRE(row->loss);
  CHECK(row->loss->total == Approx(1 - 0.9317465040272561).epsilon(1e-9));
  CHECK_FALSE(row->meets_max_loss);
  // The bandwidth for 5 %, fed back, gives 5 %.
  REQUIRE(row->write_bytes_per_s_for_max_loss);
  const double bw = *row->write_bytes_per_s_for_max_loss;
  CHECK(bw > 100e9);
  const auto again = analysis::goodput_row(llama70b_at(100e9), 16384);
  const double at_bw =
      analysis::estimate_goodput(analysis::costs_at(llama70b_at(100e9), 16384, bw),
                                 analysis::system_mttf(analysis::kDefaultMttfS, 16384))
          .loss();
  CHECK(at_bw == Approx(0.05).epsilon(1e-3));
  CHECK(again.write_bytes_per_s_for_max_loss == row->write_bytes_per_s_for_max_loss);
  // Losses grow with the count; the curve ends at the largest count.
  for (std::size_t i = 1; i < d.rows.size(); ++i)
    CHECK(d.rows[i].loss->total > d.rows[i - 1].loss->total);
  CHECK(d.curve.back().accelerators == 100000);
}

TEST_CASE("The target holds up to the count where the loss first exceeds it", "[goodput]") {
  auto s = llama70b_at(100e9);
  const analysis::goodput_document d = analysis::goodput_curve(s, {1024}, 0);
  const std::uint64_t n = d.holds_max_loss_up_to;
  CHECK(n > 1024);
  CHECK(n < 16384);
  CHECK_FALSE(d.holds_beyond_search);
  CHECK(analysis::goodput_row(s, n).loss->total <= 0.05);
  CHECK(analysis::goodput_row(s, n + 1).loss->total > 0.05);
  // A faster storage holds more.
  CHECK(analysis::goodput_curve(llama70b_at(1e12), {1024}, 0).holds_max_loss_up_to > n);
}

TEST_CASE("Asynchronous checkpoints pause for the staging copy of the largest share", "[goodput]") {
  auto s = llama70b_at(100e9);
  s.async = true;
  s.staging_bytes_per_s = 50e9;
  const auto row = analysis::goodput_row(s, 16384);
  const auto p = profile_of("llama3-70b");
  CHECK(row.pause_s == Approx(static_cast<double>(p.total_bytes()) / 16384 / 50e9));
  CHECK(row.drain_s == Approx(9.78178801664));
  CHECK(row.write_s == row.drain_s);
  CHECK(row.loss->total < analysis::goodput_row(llama70b_at(100e9), 16384).loss->total);
}

TEST_CASE("Checkpoints that cannot keep up have no interval and miss any target", "[goodput]") {
  // 911 GiB at 10 MB/s is a day per checkpoint; 100,000 accelerators fail every 30 minutes.
  const auto row = analysis::goodput_row(llama70b_at(10e6), 100000);
  CHECK_FALSE(row.keeps_up);
  CHECK_FALSE(row.interval_s);
  CHECK_FALSE(row.loss);
  CHECK_FALSE(row.meets_max_loss);
  const nlohmann::json j = analysis::to_json(
      analysis::goodput_curve(llama70b_at(10e6), analysis::default_goodput_counts()));
  CHECK(j["rows"].back()["loss"].is_null());
  CHECK(j["rows"].back()["interval_s"].is_null());
  CHECK(j["holds_max_loss_up_to"] < 16); // a job of a few accelerators fails rarely enough
  CHECK(j["mode"] == "sync");
  CHECK(j["accelerators"].is_null());
}

TEST_CASE("A goodput setup outside its ranges is refused, naming the option", "[goodput]") {
  using test::usage_error_message;
  auto s = llama70b_at(100e9);
  s.max_loss = 1.5;
  CHECK_THAT(usage_error_message([&] { analysis::goodput_curve(s, {1024}); }),
             Contains("--max-loss") && Contains("5%"));
  s = llama70b_at(100e9);
  s.mttf_s = 0;
  CHECK_THAT(usage_error_message([&] { analysis::goodput_curve(s, {1024}); }), Contains("--mttf"));
  s = llama70b_at(100e9);
  s.async = true;
  CHECK_THAT(usage_error_message([&] { analysis::goodput_curve(s, {1024}); }),
             Contains("--staging-bandwidth"));
}
