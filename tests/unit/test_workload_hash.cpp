// Unit tests for src/core/sha256.hpp, src/report/workload_hash.hpp (provenance: the hash of a
// load's settings) and plan's per-host figures (src/analysis/plan.hpp, --accelerators-per-host).
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/plan.hpp"
#include "config/workload.hpp"
#include "core/sha256.hpp"
#include "report/workload_hash.hpp"

using namespace dlsize;

TEST_CASE("sha256 gives the FIPS 180-4 digests of the standard messages", "[sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // 55 and 56 bytes: the length fits the last block, or needs one more.
  CHECK(sha256_hex(std::string(55, 'a')) ==
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(56, 'a')) ==
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

namespace {

nlohmann::json run_report() {
  return {{"workload",
           {{"name", "unet3d"},
            {"epochs", 5},
            {"mean_sample_bytes", 146600628.0},
            {"accelerator", {{"type", "b200"}, {"batch_size", 7}, {"compute_time_s", 0.162}}}}},
          {"dataset", {{"files", 7200}, {"records_per_file", 1}, {"path", "/mnt/a"}}},
          {"topology", {{"accelerators", 8}}},
          {"io", {{"readers", 16}, {"queue_depth", 16}}},
          {"summary", {{"epochs", 5}, {"au_threshold", 0.9}}}};
}

} // namespace

TEST_CASE("two runs of the same load hash alike wherever they ran, and another load does not",
          "[workload_hash]") {
  const auto a = report::workload_hash_json(run_report());
  CHECK(a["algorithm"] == "sha256");
  CHECK(a["allowlist"] == report::kWorkloadHashKeys);
  CHECK(a["sha256"].get<std::string>().size() == 64);
  // The hash is recomputable from the keys written beside it.
  CHECK(a["sha256"] == sha256_hex(a["keys"].dump()));
  CHECK(a["keys"]["workload/accelerator/batch_size"] == 7);
  CHECK(a["keys"]["dataset/samples"].is_null());
  // Site tunables and paths are not the load.
  auto site = run_report();
  site["io"]["readers"] = 64;
  site["dataset"]["path"] = "/mnt/elsewhere";
  CHECK(report::workload_hash_json(site)["sha256"] == a["sha256"]);
  // The batch, the accelerators or the dataset's shape are.
  for (const char* ptr :
       {"/workload/accelerator/batch_size", "/topology/accelerators", "/dataset/files"}) {
    INFO(ptr);
    auto other = run_report();
    other[nlohmann::json::json_pointer(ptr)] = 9;
    CHECK(report::workload_hash_json(other)["sha256"] != a["sha256"]);
  }
}

TEST_CASE("plan --accelerators-per-host says what one host must read and which NIC carries it",
          "[plan]") {
  analysis::plan_inputs in;
  in.workload = config::load_workload("unet3d");
  in.accelerator.type = "b200";
  in.accelerator.preset = in.workload.accelerators.at("b200");
  in.au_threshold = 0.9;
  in.accelerators = 2;
  in.accelerators_per_host = 2;
  const auto plan = analysis::make_plan(in);
  REQUIRE(plan.per_host);
  const auto& h = *plan.per_host;
  // 2 × 7 × 146,600,628 B ÷ 0.162 s × 0.9 = 11.40 GB/s; one 100 GbE NIC at 80 % is 10 GB/s.
  CHECK(h.required_bytes_per_s == Approx(11.402e9).epsilon(1e-3));
  REQUIRE(h.one_nic.size() == 3);
  CHECK(h.one_nic[0].gbe == 100);
  CHECK(h.one_nic[0].carries == false);
  CHECK(h.one_nic[1].carries == true);
  in.accelerators_per_host = 1; // one b200 per host: 5.7 GB/s fits one 100 GbE NIC
  CHECK(analysis::make_plan(in).per_host->one_nic[0].carries == true);
  in.accelerators_per_host = 0;
  CHECK_FALSE(analysis::make_plan(in).per_host);
}
