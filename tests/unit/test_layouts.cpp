// Unit tests for src/analysis/layouts.hpp: equal accelerator counts on different node counts
// side by side, declared layouts apart from real hosts.
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/layouts.hpp"

using namespace dlsize;

TEST_CASE("layouts put equal counts on different node counts side by side", "[sizing]") {
  std::vector<analysis::run_point> runs;
  auto add = [&](double n, double nodes, double sps) {
    analysis::run_point p;
    p.accelerators = n;
    p.nodes = nodes;
    p.samples_per_s = sps;
    p.samples_per_s_per_accelerator = sps / n;
    runs.push_back(p);
  };
  add(1, 1, 100);
  add(8, 1, 780);
  add(8, 2, 720);
  add(8, 2, 740);
  add(4, 1, 400); // one layout only: no row
  const auto rows = analysis::layout_rows(runs);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].nodes == 1);
  CHECK(rows[1].nodes == 2);
  CHECK(rows[1].accelerators_per_node == 4);
  CHECK(rows[1].runs == 2);
  CHECK(rows[1].samples_per_s.median == Approx(730));
  CHECK(rows[0].efficiency_vs_linear.value() == Approx(780.0 / 800));
  CHECK(rows[1].difference_vs_fewest_nodes.value() == Approx(730.0 / 780 - 1));
  CHECK(analysis::layout_rows({}).empty());
}

TEST_CASE("a layout declared on one host is never put beside real hosts", "[sizing]") {
  std::vector<analysis::run_point> runs;
  auto add = [&](double n, double nodes, bool declared, double sps) {
    analysis::run_point p;
    p.accelerators = n;
    p.nodes = nodes;
    p.declared_nodes = declared;
    p.samples_per_s = sps;
    p.samples_per_s_per_accelerator = sps / n;
    runs.push_back(p);
  };
  add(1, 1, false, 100);
  add(8, 1, false, 780);
  add(8, 2, false, 720);
  add(8, 2, true, 700);
  add(8, 4, true, 650);
  add(4, 1, false, 400); // one real layout and one declared: two kinds, no rows
  add(4, 2, true, 380);
  const auto rows = analysis::layout_rows(runs);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].declared == false);
  CHECK(rows[1].declared == false);
  CHECK(rows[1].nodes == 2);
  CHECK(rows[1].samples_per_s.median == Approx(720));
  CHECK(rows[1].difference_vs_fewest_nodes.value() == Approx(720.0 / 780 - 1));
  // The declared 2-node run is its own kind's reference, not the real 1-node run.
  CHECK(rows[2].declared == true);
  CHECK(rows[2].nodes == 2);
  CHECK(rows[2].runs == 1);
  CHECK(rows[2].difference_vs_fewest_nodes.value() == Approx(0));
  CHECK(rows[3].declared == true);
  CHECK(rows[3].difference_vs_fewest_nodes.value() == Approx(650.0 / 700 - 1));
}
