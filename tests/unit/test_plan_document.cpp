// Unit tests for the typed plan (analysis/plan_document.hpp): make_plan, add_scaling,
// plan_objects and checkpoint_plan fill typed fields, and to_json (analysis/plan_json.cpp)
// writes them under docs/plan.schema.json's keys, nulls where a figure was not asked for and
// integers where counts are.
#include <string>

#include <catch2/catch.hpp>

#include "analysis/plan.hpp"
#include "analysis/plan_checkpoint.hpp"
#include "analysis/plan_document.hpp"
#include "config/accelerator_spec.hpp"
#include "config/checkpoint_interval.hpp"
#include "config/workload.hpp"
#include "report/schemas.hpp"

using namespace dlsize;

namespace {

analysis::plan_inputs unet3d_on_h100() {
  analysis::plan_inputs in;
  in.workload = config::load_workload("unet3d");
  in.accelerator = config::resolve_accelerator("emulated:h100", in.workload, {});
  in.au_threshold = in.workload.au_threshold;
  return in;
}

void check_valid(const nlohmann::json& j) {
  const auto* schema = report::schema_for("dlsize.plan/1");
  REQUIRE(schema != nullptr);
  std::string problems;
  for (const auto& p : schema->validate(j))
    problems += p.path + ": " + p.message + "\n";
  CHECK(problems.empty());
}

} // namespace

TEST_CASE("a plan's read side is typed, and its JSON holds the same figures", "[plan]") {
  auto in = unet3d_on_h100();
  in.storage_bandwidth = 20e9;
  in.nic_bandwidth = 100e9 / 8;
  in.clients = 4;
  in.row_bandwidth = 30e9;
  in.accelerators = 4;
  in.accelerators_per_host = 2;
  in.dataset_bytes = 1e12;
  analysis::plan_document d;
  d.workload = in.workload.name;
  d.reads = analysis::make_plan(in);
  const auto& r = *d.reads;
  // unet3d on h100: 7 samples of 146,600,628 B per 0.323 s; the count is the one given.
  CHECK(r.accelerator.type == "h100");
  CHECK(r.samples_per_s_per_accelerator == Approx(7 / 0.323));
  CHECK(r.demand_bytes_per_s_per_accelerator == Approx(7 * 146600628.0 / 0.323));
  CHECK(r.accelerators == 4);
  CHECK(r.required_bytes_per_s ==
        Approx(4 * r.reads_bytes_per_s_per_accelerator * in.au_threshold));
  REQUIRE(r.nic_limit_bytes_per_s);
  CHECK(*r.nic_limit_bytes_per_s == Approx(4 * 0.8 * 100e9 / 8));
  REQUIRE(r.storage);
  CHECK(r.storage->deliverable_bytes_per_s == 20e9); // below the NICs' 40 GB/s
  REQUIRE(r.row);
  REQUIRE(r.per_host);
  CHECK(r.per_host->one_nic.size() == 3);
  REQUIRE(r.epoch);
  CHECK_FALSE(r.epoch->epochs);
  CHECK_FALSE(r.dataset.ram);
  CHECK_FALSE(r.index);
  CHECK_FALSE(r.scaling);
  CHECK_FALSE(d.checkpoint);

  const nlohmann::json j = analysis::to_json(d);
  CHECK(j["schema"] == "dlsize.plan/1");
  CHECK(j["workload"] == "unet3d");
  CHECK(j["accelerators"].is_number_unsigned());
  CHECK(j["accelerators"] == 4);
  CHECK(j["required_bytes_per_s"].get<double>() == r.required_bytes_per_s);
  CHECK(j["deliverable_bytes_per_s"].get<double>() == 20e9);
  CHECK(j["storage_bandwidth_bytes_per_s"].get<double>() == 20e9);
  CHECK(j["max_accelerators_at_threshold"] == r.storage->max_accelerators_at_threshold);
  CHECK(j["expected_accelerator_utilization"].get<double>() == *r.expected_accelerator_utilization);
  CHECK(j["row"]["accelerator_utilization"].get<double>() == r.row->accelerator_utilization);
  CHECK(j.at("per_host").at("one_nic").at(0).at("gbe").is_number_float()); // 100.0, as before
  CHECK(j.at("epoch").at("epochs").is_null());
  CHECK(j.at("epoch").at("time_to_train_s").is_null());
  CHECK(j.at("dataset").at("min_bytes_for_ram").is_null());
  CHECK_FALSE(j["dataset"].contains("client_ram_bytes"));
  CHECK_FALSE(j.contains("index"));
  CHECK_FALSE(j.contains("s3"));
  CHECK_FALSE(j.contains("checkpoint"));
  // The figures the text alone quotes stay out of the JSON.
  CHECK_FALSE(j.contains("request_size"));
  CHECK_FALSE(j.contains("clients"));
  check_valid(j);
}

TEST_CASE("a plan without a bandwidth has nulls, and --s3 its object store's side", "[plan]") {
  auto in = unet3d_on_h100();
  in.object_store = analysis::object_store_assumptions{};
  in.object_store->first_byte_source = "default";
  in.object_store->connection_source = "default";
  in.client_ram = 1ull << 30;
  analysis::plan_document d;
  d.workload = in.workload.name;
  d.reads = analysis::plan_read_side(in, {}, {});
  const auto& r = *d.reads;
  CHECK(r.accelerators == 1);
  CHECK(r.cache_mode == "none");
  CHECK(r.read_amplification == 1);
  CHECK_FALSE(r.storage);
  CHECK_FALSE(r.nic_limit_bytes_per_s);
  CHECK_FALSE(r.expected_accelerator_utilization);
  REQUIRE(r.dataset.ram);
  CHECK(r.dataset.ram->min_bytes == Approx(5.0 * (1ull << 30)));
  REQUIRE(r.s3);
  CHECK(r.s3->accelerators == 1);
  CHECK(r.s3->limit == "not judged");

  const nlohmann::json j = analysis::to_json(d);
  CHECK(j.at("nic_limit_bytes_per_s").is_null());
  CHECK_FALSE(j.contains("deliverable_bytes_per_s"));
  CHECK_FALSE(j.contains("max_accelerators_at_threshold"));
  CHECK_FALSE(j.contains("epoch"));
  CHECK(j["dataset"]["client_ram_bytes"] == (1ull << 30));
  CHECK(j["dataset"]["clients"].is_number_unsigned());
  CHECK(j["s3"]["requests_per_s"].get<double>() == r.s3->requests_per_s);
  CHECK(j.at("s3").at("max_requests_per_s").is_null());
  check_valid(j);
}

TEST_CASE("a checkpoint-only plan holds its write side alone", "[plan][checkpoint]") {
  analysis::checkpoint_plan_inputs c;
  c.profile = config::require_checkpoint(config::load_workload("llama3-8b"));
  c.interval = config::parse_checkpoint_interval("30min", "--checkpoint-interval");
  c.write_bandwidth = 10e9;
  analysis::plan_document d;
  d.workload = "llama3-8b";
  d.checkpoint = analysis::checkpoint_plan(c);
  const auto& k = *d.checkpoint;
  CHECK(k.ranks == 8);
  CHECK(k.interval_s == 1800);
  CHECK(k.allowed_s == Approx(0.05 * 1800 / 0.95));
  CHECK(k.write_bytes_per_s == Approx(static_cast<double>(k.bytes) / k.allowed_s));
  REQUIRE(k.at_write);
  CHECK_FALSE(k.link);
  CHECK_FALSE(k.restore);

  const nlohmann::json j = analysis::to_json(d);
  CHECK(j.size() == 3); // schema, workload, checkpoint
  CHECK(j["checkpoint"]["bytes"].is_number_unsigned());
  CHECK(j["checkpoint"]["bytes"] == k.bytes);
  CHECK(j["checkpoint"]["mode"] == "sync");
  CHECK(j["checkpoint"]["layout"]["zero_stage"] == 3);
  CHECK(j["checkpoint"]["at_write_bandwidth"]["fits"] == k.at_write->fits);
  CHECK_FALSE(j["checkpoint"].contains("restore"));
  CHECK_FALSE(j["checkpoint"].contains("client_link_floor_s"));
  check_valid(j);
}
