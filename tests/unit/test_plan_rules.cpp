// Unit tests for src/analysis/plan_rules.hpp (plan's option rules, moved out of cli/) and for
// plan --index: the read amplification and requests measured on an index's real ranges
// (dataset/index_reads.hpp through io::span_of) against hand-worked figures.
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/plan.hpp"
#include "analysis/plan_rules.hpp"
#include "config/workload.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_reads.hpp"
#include "io/engine.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;
using namespace dlsize;
namespace fs = std::filesystem;

namespace {

analysis::plan_options resnet_options() {
  analysis::plan_options o;
  o.workload = "resnet50";
  o.accelerator = "h100";
  return o;
}

// The read side's refusal for one changed option, after the shared inputs.
template <class Change> std::string refusal(Change change) {
  analysis::plan_options o = resnet_options();
  change(o);
  analysis::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  return usage_error_message([&] {
    analysis::parse_shared_inputs(o, in);
    analysis::check_plan_sides(o, in.workload);
    analysis::parse_read_inputs(o, in);
  });
}

// The inputs of the read side, as plan parses them from o.
analysis::plan_inputs read_inputs_of(const analysis::plan_options& o) {
  analysis::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  analysis::parse_shared_inputs(o, in);
  analysis::parse_read_inputs(o, in);
  return in;
}

// An index of DIR /data with the lines given and a correct digest and counts.
fs::path write_index(const fs::path& folder, const std::vector<std::string>& lines,
                     std::uint64_t files) {
  dataset::index_digest d;
  d.add("/data\n");
  for (const auto& l : lines)
    d.add(l + "\n");
  const nlohmann::json h = {{"schema", dataset::kIndexSchema},
                            {"dir", "/data"},
                            {"digest", d.text()},
                            {"counts", {{"lines", lines.size()}, {"files", files}}}};
  const fs::path p = folder / "i.json";
  std::ofstream out(p, std::ios::trunc);
  out << h.dump() << "\n";
  for (const auto& l : lines)
    out << l << "\n";
  return p;
}

} // namespace

TEST_CASE("plan rules keep their messages for clients, the accelerator and the sides",
          "[plan_rules]") {
  CHECK_THAT(refusal([](auto& o) { o.clients = 0; }), Contains("--clients: must be at least 1"));
  CHECK_THAT(refusal([](auto& o) { o.accelerator.clear(); }),
             Contains("plan --workload resnet50: --accelerator is required for a profile with a "
                      "dataset"));
  CHECK_THAT(refusal([](auto& o) { o.request_size = "0"; }),
             Contains("--request-size: must be above 0"));
  CHECK_THAT(refusal([](auto& o) { o.epochs = -1; }), Contains("--epochs: must be at least 0"));
  CHECK_THAT(refusal([](auto& o) {
               o.index = "i.json";
               o.dataset_size = "1TB";
             }),
             Contains("--dataset-size: the index i.json gives the dataset's size"));
  CHECK_THAT(refusal([](auto& o) {
               o.workload = "llama3-8b";
               o.accelerator.clear();
             }),
             Contains("the profile saves checkpoints and reads no dataset. valid: "
                      "--checkpoint-interval"));
  CHECK_THAT(refusal([](auto& o) {
               o.workload = "llama3-8b";
               o.index = "i.json";
             }),
             Contains("--index: the profile reads no dataset"));
  analysis::plan_options o;
  o.workload = "llama3-8b";
  o.checkpoint_interval = "30min";
  o.accelerators = (1u << 20) + 1;
  analysis::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  CHECK_THAT(usage_error_message([&] { analysis::checkpoint_inputs_of(o, in, nullptr); }),
             Contains("--accelerators: at most 1048576"));
}

TEST_CASE("plan rules resolve the read side's options as given", "[plan_rules]") {
  analysis::plan_options o = resnet_options();
  o.clients = 4;
  o.nic_bandwidth = "100Gb/s";
  o.cache = "buffered";
  o.request_size = "256KiB";
  o.dataset_size = "1TB";
  o.batch_size = 100;
  analysis::plan_inputs in = read_inputs_of(o);
  CHECK(in.clients == 4);
  CHECK(in.nic_bandwidth == Approx(12.5e9));
  CHECK(in.cache == io::cache_mode::buffered);
  CHECK(in.request_size == 256u << 10);
  CHECK(in.dataset_bytes == Approx(1e12));
  CHECK(in.accelerator.preset.batch_size == 100);
  CHECK(in.sample_bytes() == in.workload.sample_bytes_mean);
}

TEST_CASE("span_of widens O_DIRECT ranges to blocks and stops at the file's aligned end",
          "[plan_rules]") {
  CHECK(io::span_of(5000, 7000, 20000, true).begin == 4096);
  CHECK(io::span_of(5000, 7000, 20000, true).end == 12288);
  CHECK(io::span_of(12000, 8000, 20000, true).bytes() == 12288);
  CHECK(io::span_of(12000, 8000, 20000, false).bytes() == 8000);
  CHECK(io::span_of(0, 100, 50, false).bytes() == 50);
  CHECK(io::span_of(0, 9000, 9000, true).requests(4096) == 3);
}

TEST_CASE("plan --index sizes from the index's real ranges, not the profile's mean",
          "[plan_rules][index]") {
  test::temp_dir t("dlsize-plan-index");
  // A shard of three records and a file that is one sample: O_DIRECT reads 8192 + 8192 +
  // 12288 + 4096 = 32768 B for 20,100 B of samples; requests of 8 KiB: 1 + 1 + 2 + 1.
  const fs::path p = write_index(
      t.path,
      {R"({"path":"s.tfrecord","size":20000,"mtime_ns":1,"records":[[0,5000],[5000,7000],[12000,8000]]})",
       R"({"path":"a.jpg","size":100,"mtime_ns":1})"},
      2);
  const dataset::index_read_shape_result shape = dataset::index_read_shape(p, 8192);
  CHECK(shape.reads.direct.bytes == 32768.0);
  CHECK(shape.reads.direct.requests == 5.0);
  CHECK(shape.reads.buffered.bytes == 20100.0);
  CHECK(shape.reads.buffered.requests == 4.0);

  analysis::plan_options o = resnet_options();
  o.index = p.string();
  o.request_size = "8KiB";
  o.accelerators = 2;
  analysis::plan_inputs in = read_inputs_of(o);
  in.measured = analysis::measured_dataset::of(shape, "--index");
  const analysis::plan_reads plan = analysis::make_plan(in);
  const double samples_per_s = 400 / 0.224;
  CHECK(plan.sample_bytes_mean == Approx(20100.0 / 4));
  CHECK(plan.read_amplification == Approx(32768.0 / 20100));
  CHECK(plan.iops == Approx(2 * samples_per_s * 5 / 4));
  CHECK(plan.files_per_s == Approx(2 * samples_per_s / 2));
  REQUIRE(plan.epoch);
  CHECK(plan.epoch->dataset_bytes == 20100.0);
  REQUIRE(plan.index);
  CHECK(plan.index->digest == shape.stats.digest);
  CHECK(plan.index->dir == "/data");
  REQUIRE(plan.dataset.indexed);
  CHECK(plan.dataset.indexed->is_enough == false);
  CHECK_THAT(plan.dataset_source, Contains("index ") && Contains("/data"));

  // An index edited after it was written is refused, naming the file.
  std::ofstream(p, std::ios::app) << R"({"path":"b.jpg","size":1,"mtime_ns":1})"
                                  << "\n";
  CHECK_THAT(usage_error_message([&] { dataset::index_read_shape(p, 8192); }),
             Contains(p.string()) && Contains("digest"));
}
