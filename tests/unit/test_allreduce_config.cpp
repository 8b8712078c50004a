// Unit tests for src/config/allreduce_config.hpp: the allreduce model's inputs and the layout.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "config/allreduce_config.hpp"

namespace {

using namespace dlsize::config;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

accelerator_spec emulated(const workload_profile& w, const std::string& type) {
  return resolve_accelerator("emulated:" + type, w, {});
}

} // namespace

TEST_CASE("the v100 defaults are NVLink 2 per direction and one EDR port, with sources",
          "[allreduce][config]") {
  const workload_profile w = load_workload("resnet50");
  allreduce_request r;
  r.algorithm = "hierarchical";
  const allreduce_setup s = resolve_allreduce(r, w, emulated(w, "v100"));
  CHECK(s.gradient_bytes == 25'557'032.0 * 4);
  CHECK(s.fabric.intra_bytes_per_s == 150e9);
  CHECK(s.fabric.inter_bytes_per_s == 12.1e9);
  CHECK(s.backward_fraction == Approx(2.0 / 3.0));
  CHECK_THAT(s.sources["intra_bandwidth"].get<std::string>(), Contains("V100"));
  CHECK_THAT(s.sources["inter_latency"].get<std::string>(), Contains("tuning.cc"));
  r.nics_per_node = 2;
  r.dtype = "fp16";
  const allreduce_setup two = resolve_allreduce(r, w, emulated(w, "v100"));
  CHECK(two.fabric.inter_bytes_per_s == 24.2e9);
  CHECK(two.gradient_bytes == 25'557'032.0 * 2);
}

TEST_CASE("the allreduce is refused without parameters, accelerators or known bandwidths",
          "[allreduce][config]") {
  allreduce_request r;
  r.algorithm = "ring";
  const workload_profile cosmo = load_workload("cosmoflow");
  CHECK_THAT(usage_error_message([&] { resolve_allreduce(r, cosmo, emulated(cosmo, "h100")); }),
             Contains("model.parameters"));
  const workload_profile w = load_workload("resnet50");
  CHECK_THAT(usage_error_message([&] { resolve_allreduce(r, w, accelerator_spec{}); }),
             Contains("--accelerator"));
  accelerator_spec other = emulated(w, "h100");
  other.type = "nvidia-h200";
  CHECK_THAT(usage_error_message([&] { resolve_allreduce(r, w, other); }),
             Contains("--intra-node-bandwidth"));
  r.intra_bandwidth = "400GB/s";
  r.inter_bandwidth = "400Gb/s";
  r.nics_per_node = 8;
  CHECK(resolve_allreduce(r, w, other).fabric.inter_bytes_per_s == 400e9);
  r.overlap = "1.5";
  CHECK_THAT(usage_error_message([&] { resolve_allreduce(r, w, other); }),
             Contains("--allreduce-overlap"));
}

TEST_CASE("a declared layout groups ranks or accelerators into nodes on one host",
          "[allreduce][config]") {
  allreduce_request r;
  CHECK(resolve_layout(r, 16, 4, 2).layout.nodes == 2);
  CHECK_FALSE(resolve_layout(r, 16, 4, 2).declared);
  r.ranks_per_node = 2;
  const layout_choice c = resolve_layout(r, 16, 4, 1);
  CHECK(c.declared);
  CHECK((c.layout.nodes == 2 && c.layout.per_node == 8));
  CHECK_THAT(usage_error_message([&] { resolve_layout(r, 16, 4, 2); }), Contains("2 hosts"));
  r.accelerators_per_node = 4;
  CHECK_THAT(usage_error_message([&] { resolve_layout(r, 16, 4, 1); }), Contains("disagree"));
  r.ranks_per_node = 0;
  CHECK(resolve_layout(r, 16, 1, 1).layout.nodes == 4);
  r.accelerators_per_node = 5;
  CHECK_THAT(usage_error_message([&] { resolve_layout(r, 16, 1, 1); }), Contains("divide"));
}

TEST_CASE("a report's allreduce section reads back as the setup, layout and compute time",
          "[allreduce][config]") {
  const workload_profile w = load_workload("resnet50");
  allreduce_request r;
  r.algorithm = "hierarchical";
  r.overlap = "0.5";
  const allreduce_setup s = resolve_allreduce(r, w, emulated(w, "v100"));
  const dlsize::model::job_layout l{2, 4};
  const recorded_allreduce back = allreduce_from_json(s.to_json(l, 0.12), "run.json");
  CHECK(back.setup.algorithm == s.algorithm);
  CHECK(back.setup.gradient_bytes == s.gradient_bytes);
  CHECK(back.setup.nic_bytes_per_s == Approx(s.nic_bytes_per_s));
  CHECK(back.layout.nodes == 2);
  CHECK(back.layout.per_node == 4);
  CHECK(back.compute_s == Approx(0.12));
  // The same setup gives the same time at any layout.
  const dlsize::model::job_layout big{8, 8};
  CHECK(back.setup.exposed_s(big, back.compute_s) == Approx(s.exposed_s(big, 0.12)));

  nlohmann::json bad = s.to_json(l, 0.12);
  bad["gradient_bytes"] = "lots";
  CHECK_THAT(usage_error_message([&] { allreduce_from_json(bad, "run.json"); }),
             Contains("run.json") && Contains("topology.allreduce.gradient_bytes"));
}

TEST_CASE("an input of the allreduce model is refused without --allreduce, by its name",
          "[allreduce][config]") {
  allreduce_request r;
  CHECK_NOTHROW(require_allreduce_for_inputs(r, {"--workload", "--epochs"}));
  CHECK(usage_error_message([&] {
          require_allreduce_for_inputs(r, {"--epochs", "--nics-per-node"});
        }) == "--nics-per-node: an input of the allreduce model. valid: with --allreduce ring or "
              "hierarchical");
  for (const char* input : kAllreduceInputs)
    CHECK_THAT(usage_error_message([&] { require_allreduce_for_inputs(r, {input}); }),
               Contains(input));
  r.algorithm = "ring";
  CHECK_NOTHROW(require_allreduce_for_inputs(r, {"--nics-per-node", "--allreduce-dtype"}));
}
