// Unit tests for src/analysis/plan_checkpoint.hpp and src/config/checkpoint_interval.hpp: the
// write bandwidth a checkpoint interval and overhead ask for, against figures worked by hand.
#include <cstdint>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/plan_checkpoint.hpp"
#include "config/checkpoint_interval.hpp"
#include "config/workload.hpp"
#include "core/error.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

constexpr double GiB = 1024.0 * 1024 * 1024;

analysis::checkpoint_plan_inputs llama70b_every_30min() {
  analysis::checkpoint_plan_inputs in;
  in.profile = config::require_checkpoint(config::load_workload("llama3-70b"));
  in.interval = config::parse_checkpoint_interval("30min", "--checkpoint-interval");
  in.max_overhead = 0.05;
  return in;
}

} // namespace

TEST_CASE("A checkpoint interval carries its unit: steps or a duration", "[checkpoint][plan]") {
  const auto steps = config::parse_checkpoint_interval("500steps", "--checkpoint-every");
  CHECK(steps.steps == 500);
  CHECK(steps.seconds_at(0.2) == Approx(100));
  CHECK(steps.text() == "500 steps");
  CHECK(config::parse_checkpoint_interval("1 step", "--x").steps == 1);
  const auto half_hour = config::parse_checkpoint_interval("30min", "--checkpoint-every");
  CHECK_FALSE(half_hour.in_steps());
  CHECK(half_hour.seconds_at(99) == 1800);
  CHECK(half_hour.text() == "30 min");
  CHECK(config::parse_checkpoint_interval("1h", "--x").text() == "1 h");
  CHECK_THAT(usage_error_message([] { config::parse_checkpoint_interval("500", "--every"); }),
             Contains("--every") && Contains("has no unit") && Contains("500steps"));
  CHECK_THAT(usage_error_message([] { config::parse_checkpoint_interval("0steps", "--every"); }),
             Contains("is zero"));
  CHECK_THAT(usage_error_message([] { config::parse_checkpoint_interval("2.5steps", "--e"); }),
             Contains("whole number"));
  CHECK_THAT(usage_error_message([] { config::parse_checkpoint_interval("0min", "--e"); }),
             Contains("is zero"));
  CHECK_THAT(usage_error_message([] { config::parse_checkpoint_interval("soon", "--e"); }),
             Contains("not an interval"));
}

TEST_CASE("Synchronous checkpoints may take o / (1 - o) of the interval", "[checkpoint][plan]") {
  const auto in = llama70b_every_30min();
  const nlohmann::json j = analysis::to_json(analysis::checkpoint_plan(in));
  const double bytes = (130 + 781) * GiB;
  const double allowed = 0.05 * 1800 / 0.95; // 94.74 s
  CHECK(j["bytes"].get<double>() == bytes);
  CHECK(j["ranks"] == 64);
  CHECK(j["allowed_s"].get<double>() == Approx(allowed));
  CHECK(j["write_bytes_per_s"].get<double>() == Approx(bytes / allowed));
  // ZeRO 3 shares evenly: each of 64 ranks writes 1/64 in the same time.
  CHECK(j["rank_write_bytes_per_s"].get<double>() == Approx(bytes / 64 / allowed).epsilon(1e-6));
  CHECK(j["client_write_bytes_per_s"].get<double>() == Approx(bytes / allowed));
  CHECK(j["mode"] == "sync");
}

TEST_CASE("An asynchronous checkpoint has the whole interval", "[checkpoint][plan]") {
  auto in = llama70b_every_30min();
  in.async = true;
  const nlohmann::json j = analysis::to_json(analysis::checkpoint_plan(in));
  CHECK(j["allowed_s"].get<double>() == 1800);
  CHECK(j["mode"] == "async");
}

TEST_CASE("Clients, NICs and bandwidths bound the checkpoint", "[checkpoint][plan]") {
  auto in = llama70b_every_30min();
  in.ranks = 128;
  in.clients = 16;
  in.client_link_bytes_per_s = 40e9;
  in.write_bandwidth = 20e9;
  in.read_bandwidth = 100e9;
  const nlohmann::json j = analysis::to_json(analysis::checkpoint_plan(in));
  const double bytes = (130 + 781) * GiB;
  CHECK(j["layout"]["data_parallel"] == 16);
  CHECK(j["busiest_client_bytes"].get<double>() == Approx(bytes / 16).epsilon(1e-6));
  CHECK(j["client_link_floor_s"].get<double>() == Approx(bytes / 16 / 40e9).epsilon(1e-6));
  CHECK(j["client_link_fits"] == true);
  const double t = bytes / 20e9;
  CHECK(j["at_write_bandwidth"]["checkpoint_s"].get<double>() == Approx(t));
  CHECK(j["at_write_bandwidth"]["overhead"].get<double>() == Approx(t / (1800 + t)));
  CHECK(j["at_write_bandwidth"]["fits"] == true);
  CHECK(j["restore"]["restore_s"].get<double>() == Approx(bytes / 100e9));
  in.write_bandwidth = 5e9; // 196 s per checkpoint: more than 94.7 s
  CHECK(analysis::checkpoint_plan(in).at_write->fits == false);
}

TEST_CASE("ZeRO 1 puts the model on the first replica: its ranks write the most",
          "[checkpoint][plan]") {
  analysis::checkpoint_plan_inputs in;
  in.profile = config::require_checkpoint(config::load_workload("llama3-405b"));
  in.interval = config::parse_checkpoint_interval("1h", "--checkpoint-interval");
  in.clients = 64; // 8 ranks per client: client 0 holds ranks 0-7 of the first replica
  const nlohmann::json j = analysis::to_json(analysis::checkpoint_plan(in));
  const double model = 755 * GiB, optimizer = 4533 * GiB;
  const double ranks = 512, mp = 256;
  CHECK(j["largest_rank_bytes"].get<double>() ==
        Approx(model / mp + optimizer / ranks).epsilon(1e-6));
  CHECK(j["busiest_client_bytes"].get<double>() ==
        Approx(8 * (model / mp + optimizer / ranks)).epsilon(1e-6));
}

TEST_CASE("A checkpoint plan refuses what cannot be planned", "[checkpoint][plan]") {
  auto in = llama70b_every_30min();
  in.max_overhead = 1;
  CHECK_THAT(usage_error_message([&] { analysis::checkpoint_plan(in); }),
             Contains("--max-overhead"));
  in = llama70b_every_30min();
  in.interval = config::parse_checkpoint_interval("500steps", "--checkpoint-interval");
  CHECK_THAT(usage_error_message([&] { analysis::checkpoint_plan(in); }), Contains("step time"));
  in = llama70b_every_30min();
  in.clients = 3;
  CHECK_THAT(usage_error_message([&] { analysis::checkpoint_plan(in); }),
             Contains("--clients") && Contains("divisor of 64"));
  in = llama70b_every_30min();
  in.ranks = 12; // TP 8 does not divide 12
  CHECK_THAT(usage_error_message([&] { analysis::checkpoint_plan(in); }),
             Contains("multiple of 8"));
}
