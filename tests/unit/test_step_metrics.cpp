// Unit tests for src/pipeline/step_metrics.hpp: AU, throughput and data wait from step records.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "pipeline/step_metrics.hpp"

namespace {

using namespace dlsize::pipeline;

constexpr std::uint64_t kMs = 1'000'000; // ns

struct spec {
  std::uint64_t wait_ms, compute_ms;
};

// Consecutive steps of one accelerator from t0: each waits, then computes; end = previous
// end + wait + compute. steps_per_epoch sets the epoch of each run step.
std::vector<step_record> make_steps(const std::vector<spec>& specs, std::uint64_t t0_ns = 1000,
                                    std::uint64_t steps_per_epoch = 1000,
                                    std::uint64_t samples = 32, std::uint64_t bytes = 4096) {
  std::vector<step_record> out;
  std::uint64_t end = t0_ns;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    step_record r;
    r.step = i;
    r.epoch = i / steps_per_epoch;
    r.wait_ns = specs[i].wait_ms * kMs;
    r.compute_ns = specs[i].compute_ms * kMs;
    end += r.wait_ns + r.compute_ns;
    r.end_ns = end;
    r.samples = samples;
    r.bytes = bytes;
    out.push_back(r);
  }
  return out;
}

// Epoch rows as the report writes them.
nlohmann::json rows_json(const std::vector<dlsize::report::epoch_row>& rows) {
  dlsize::report::bench_report r;
  r.epochs = rows;
  return r.to_json().at("epochs");
}

} // namespace

TEST_CASE("figures_of excludes the first step, so a slow first step does not lower AU",
          "[step_metrics]") {
  // The first step waits 5 s for the pipeline to fill; later steps never wait.
  std::vector<spec> s = {{5000, 100}};
  for (int i = 0; i < 9; ++i)
    s.push_back({0, 100});
  const auto f = figures_of(make_steps(s));
  CHECK(f.steps == 10);
  CHECK(f.measured_steps == 9);
  CHECK(f.measured);
  CHECK(f.utilization == Approx(1.0));
  CHECK(f.compute_s == Approx(0.9));
  CHECK(f.window_s == Approx(0.9));
  CHECK(f.first_step_wait_s == Approx(5.0));
  CHECK(f.data_wait_s == Approx(0.0).margin(1e-12));
}

TEST_CASE("figures_of gives AU 0.5 when every step waits as long as it computes",
          "[step_metrics]") {
  const auto f = figures_of(make_steps({{10, 30}, {30, 30}, {30, 30}, {30, 30}}));
  CHECK(f.utilization == Approx(0.5));
  CHECK(f.compute_s == Approx(0.09));
  CHECK(f.data_wait_s == Approx(0.09));
  CHECK(f.window_s == Approx(0.18));
}

TEST_CASE("figures_of computes AU as compute over the window from the end of step 0",
          "[step_metrics]") {
  // Measured: waits 10+20+70 ms, compute 40+40+40 ms; window 220 ms.
  const auto f = figures_of(make_steps({{900, 40}, {10, 40}, {20, 40}, {70, 40}}));
  CHECK(f.window_s == Approx(0.22));
  CHECK(f.utilization == Approx(0.12 / 0.22));
}

TEST_CASE("figures_of counts throughput as samples of measured steps over the window",
          "[step_metrics]") {
  const auto f = figures_of(
      make_steps({{100, 100}, {50, 50}, {50, 50}, {50, 50}, {50, 50}}, 1000, 1000, 32, 1 << 20));
  CHECK(f.samples == 4 * 32); // step 0's samples are outside the window
  CHECK(f.bytes == 4u << 20);
  CHECK(f.samples_per_s == Approx(128.0 / 0.4));
}

TEST_CASE("figures_of of a single step is not measured", "[step_metrics]") {
  const auto f = figures_of(make_steps({{100, 50}}));
  CHECK(f.steps == 1);
  CHECK_FALSE(f.measured);
  CHECK(f.measured_steps == 0);
  CHECK(f.utilization == 0.0);
  CHECK(f.samples_per_s == 0.0);
  CHECK(f.window_s == 0.0);
  CHECK(f.data_wait.count() == 0);
  CHECK(f.first_step_wait_s == Approx(0.1));

  const auto none = figures_of({});
  CHECK(none.steps == 0);
  CHECK_FALSE(none.measured);
}

TEST_CASE("figures_of records one data-wait value per measured step", "[step_metrics]") {
  const auto f = figures_of(make_steps({{999, 10}, {1, 10}, {2, 10}, {3, 10}, {4, 10}, {5, 10}}));
  CHECK(f.data_wait.count() == f.measured_steps);
  CHECK(f.data_wait.count() == 5);
  CHECK(f.data_wait.min() == 1 * kMs); // step 0's 999 ms is not recorded
  CHECK(f.data_wait.max() == 5 * kMs);
}

TEST_CASE("overall_of sums compute over summed windows across accelerators", "[step_metrics]") {
  // Accelerator 0: AU 1.0 over 0.1 s; accelerator 1: AU 0.25 over 0.8 s.
  const auto a0 = figures_of(make_steps({{0, 50}, {0, 50}, {0, 50}}));
  const auto a1 = figures_of(make_steps({{0, 50}, {300, 100}, {300, 100}}));
  REQUIRE(a0.utilization == Approx(1.0));
  REQUIRE(a1.utilization == Approx(0.25));
  const auto o = overall_of({a0, a1});
  CHECK(o.measured_accelerators == 2);
  CHECK(o.compute_s == Approx(0.3));
  CHECK(o.window_s == Approx(0.9));
  CHECK(o.utilization == Approx(0.3 / 0.9)); // not the mean of 1.0 and 0.25
  CHECK(o.min_utilization == Approx(0.25));
  CHECK(o.data_wait_s == Approx(0.6));
  CHECK(o.samples_per_s == Approx(a0.samples_per_s + a1.samples_per_s));
  CHECK(o.data_wait.count() == 4);
}

TEST_CASE("overall_of skips accelerators that measured nothing", "[step_metrics]") {
  const auto a0 = figures_of(make_steps({{0, 50}, {50, 50}, {50, 50}}));
  const auto lone = figures_of(make_steps({{10, 10}}));
  REQUIRE_FALSE(lone.measured);
  const auto o = overall_of({lone, a0, lone});
  CHECK(o.measured_accelerators == 1);
  CHECK(o.utilization == Approx(0.5));
  CHECK(o.min_utilization == Approx(0.5)); // the unmeasured 0 does not count
  CHECK(o.window_s == Approx(a0.window_s));

  const auto empty = overall_of({lone});
  CHECK(empty.measured_accelerators == 0);
  CHECK(empty.utilization == 0.0);
  CHECK(empty.min_utilization == 0.0);
}

TEST_CASE("epoch_figures reports steps, samples and AU per epoch with run step 0 excluded",
          "[step_metrics]") {
  // Two accelerators, 3 steps per epoch, 2 epochs. Step 0 waits long; later steps wait 10 ms
  // and compute 30 ms; accelerator 1 runs the same schedule.
  const std::vector<spec> s = {{500, 30}, {10, 30}, {10, 30}, {10, 30}, {10, 30}, {10, 30}};
  const std::uint64_t t0 = 1000;
  const auto steps = make_steps(s, t0, 3, 16, 100);
  const auto j_rows = epoch_figures({steps, steps}, 2, t0);
  const auto j = rows_json(j_rows);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 2);
  for (std::size_t e = 0; e < 2; ++e) {
    INFO("epoch " << e);
    CHECK(j[e].at("epoch") == e);
    CHECK(j[e].at("steps_total") == 6); // 3 steps × 2 accelerators, step 0 included
    CHECK(j[e].at("samples") == 96);    // 6 × 16
    CHECK(j[e].at("read_bytes") == 600);
    // AU 0.75: a slow step 0 would pull epoch 0 down if it counted.
    CHECK(j[e].at("accelerator_utilization").get<double>() == Approx(0.75));
  }
  // Epoch 0's window runs from the end of step 0 (530 ms) to the end of step 2 (610 ms).
  CHECK(j[0].at("wall_s").get<double>() == Approx(0.08));
  CHECK(j[0].at("start_s").get<double>() == Approx(0.53));
  CHECK(j[0].at("samples_per_s").get<double>() == Approx(64 / 0.08)); // measured steps only
  // Epoch 1 starts where epoch 0 ended and covers its three steps.
  CHECK(j[1].at("wall_s").get<double>() == Approx(0.12));
  CHECK(j[1].at("start_s").get<double>() == Approx(0.61));
  CHECK(j[1].at("end_s").get<double>() == Approx(0.73));
  CHECK(j[1].at("samples_per_s").get<double>() == Approx(96 / 0.12));
}

TEST_CASE("epoch_figures gives null AU for an epoch with nothing measured", "[step_metrics]") {
  // One step per epoch: epoch 0 holds only run step 0; epoch 1 none of accelerator 0's steps.
  auto steps = make_steps({{100, 30}, {10, 30}, {10, 30}}, 0, 1);
  steps.erase(steps.begin() + 1);
  const auto j_rows = epoch_figures({steps}, 3, 0);
  const auto j = rows_json(j_rows);
  REQUIRE(j.size() == 3);
  CHECK(j[0].at("steps_total") == 1);
  CHECK(j[0].at("accelerator_utilization").is_null());
  CHECK(j[0].at("wall_s").is_null());
  CHECK(j[0].at("samples_per_s").is_null());
  CHECK(j[1].at("steps_total") == 0);
  CHECK(j[1].at("samples") == 0);
  CHECK(j[1].at("accelerator_utilization").is_null());
  CHECK(j[1].at("read_bytes_per_s").is_null());
  CHECK(j[2].at("accelerator_utilization").get<double>() == Approx(30.0 / 80));
}

TEST_CASE("epoch_figures gives rows only for epochs that ran", "[step_metrics]") {
  // A time limit stopped a run of 100,000 epochs in its third: no row for the 99,997 unrun.
  constexpr std::uint64_t epochs = 100'000;
  const auto steps = make_steps({{10, 30}, {10, 30}, {10, 30}, {10, 30}, {10, 30}}, 0, 2);
  const auto j_rows = epoch_figures(epoch_partials({steps}, epochs), 1, 0, 3);
  const auto j = rows_json(j_rows);
  REQUIRE(j.size() == 3);
  CHECK(j[2].at("steps_total") == 1);
  CHECK_FALSE(j[2].contains("epochs_in_row"));
}

TEST_CASE("the rest row counts the epochs that ran, not those asked for", "[step_metrics]") {
  using namespace dlsize::pipeline;
  constexpr std::uint64_t ran = kEpochRowsCap + 20, ms = 1'000'000;
  step_accumulator acc(100'000);
  std::uint64_t end = 0;
  for (std::uint64_t i = 0; i < ran; ++i) { // one step an epoch
    end += 10 * ms;
    acc.add({i, i, 2 * ms, 8 * ms, 0, end, 4, 4000});
  }
  const auto rows_rows = epoch_figures(acc.epochs(), 1, 0, ran);
  const auto rows = rows_json(rows_rows);
  REQUIRE(rows.size() == kEpochRowsCap + 1);
  CHECK(rows.back()["last_epoch"] == ran - 1);
  CHECK(rows.back()["epochs_in_row"] == 20);
}

TEST_CASE("epoch_figures also gives DLIO's per-epoch AU, each epoch's first step excluded",
          "[step_metrics]") {
  // 3 steps per epoch. The first step of each epoch waits 90 ms (an epoch boundary stall);
  // the others wait 10 ms and compute 30 ms. DLIO's AU excludes every epoch's first step:
  // 60 ms compute over an 80 ms window = 0.75 in both epochs. The run-wide definition keeps
  // epoch 1's stall: (30 × 3) / (120 + 80) = 0.45.
  const std::vector<spec> s = {{90, 30}, {10, 30}, {10, 30}, {90, 30}, {10, 30}, {10, 30}};
  const auto j_rows = epoch_figures({make_steps(s, 0, 3)}, 2, 0);
  const auto j = rows_json(j_rows);
  REQUIRE(j.size() == 2);
  CHECK(j[0].at("dlio_accelerator_utilization").get<double>() == Approx(0.75));
  CHECK(j[1].at("dlio_accelerator_utilization").get<double>() == Approx(0.75));
  CHECK(j[1].at("accelerator_utilization").get<double>() == Approx(90.0 / 200.0));
  CHECK(*epoch_mean_au(j_rows) == Approx(0.75));
}

TEST_CASE("epoch_mean_au is null when no epoch has a measured window", "[step_metrics]") {
  const auto j_rows = epoch_figures({make_steps({{10, 30}}, 0, 1)}, 1, 0);
  const auto j = rows_json(j_rows);
  CHECK(j[0].at("dlio_accelerator_utilization").is_null());
  CHECK(!epoch_mean_au(j_rows));
}

TEST_CASE("a million steps fold into constant memory with the figures of the records",
          "[step_metrics]") {
  // 1,000,000 steps over 4 epochs: 2 ms of wait and 8 ms of compute each, 16 samples of 1 KB.
  constexpr std::uint64_t n = 1'000'000, spe = n / 4, ms = 1'000'000;
  dlsize::pipeline::step_accumulator acc(4);
  std::uint64_t end = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    end += 10 * ms;
    acc.add({i, i / spe, 2 * ms, 8 * ms, 0, end, 16, 16'000});
  }
  const auto f = acc.figures();
  CHECK(acc.steps() == n);
  CHECK(acc.epochs().size() == 4); // what it holds: one partial per epoch, not per step
  CHECK(f.measured_steps == n - 1);
  CHECK(f.utilization == Approx(0.8));
  CHECK(f.window_s == Approx((n - 1) * 0.010));
  CHECK(f.samples_per_s == Approx(1600));
  CHECK(f.data_wait.count() == n - 1);
  CHECK(acc.epochs()[1].steps == spe);
  CHECK(acc.epochs()[1].dlio_compute_ns == (spe - 1) * 8 * ms);
}

TEST_CASE("epoch rows stop at the cap: later epochs fold into one row that says so",
          "[step_metrics]") {
  using namespace dlsize::pipeline;
  constexpr std::uint64_t epochs = kEpochRowsCap + 500, ms = 1'000'000;
  step_accumulator acc(epochs);
  std::uint64_t end = 0;
  for (std::uint64_t i = 0; i < epochs * 2; ++i) { // two steps an epoch
    end += 10 * ms;
    acc.add({i, i / 2, 2 * ms, 8 * ms, 0, end, 4, 4000});
  }
  REQUIRE(acc.epochs().size() == kEpochRowsCap + 1);
  CHECK(acc.epochs()[kEpochRowsCap].steps == 2 * 500);
  const auto rows_rows = epoch_figures(acc.epochs(), 1, 0, epochs);
  const auto rows = rows_json(rows_rows);
  REQUIRE(rows.size() == kEpochRowsCap + 1);
  CHECK(rows.back()["epoch"] == kEpochRowsCap);
  CHECK(rows.back()["last_epoch"] == epochs - 1);
  CHECK(rows.back()["epochs_in_row"] == 500);
  CHECK(rows.back()["accelerator_utilization"].get<double>() == Approx(0.8));
  // DLIO's mean weighs the rest row by the epochs it holds: every epoch here is the same.
  CHECK(*epoch_mean_au(rows_rows) == Approx(0.8));
}
