// Unit tests for src/core/enum_names.hpp and the enums' tables: every enum's names are the ones
// reports, options and configs have always written (a renamed value fails here), and a refused
// name gets the message that names the valid ones.
#include <string>

#include <catch2/catch.hpp>

#include "accel/cuda_accelerator.hpp"
#include "analysis/projection.hpp"
#include "config/workload.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "dataset/index_layout.hpp"
#include "dataset/index_scan.hpp"
#include "io/engine.hpp"
#include "model/allreduce_model.hpp"
#include "report/limit_verdict.hpp"
#include "report/mlperf_validity.hpp"
#include "report/rules_edition.hpp"
#include "report/run_status.hpp"
#include "s3/request.hpp"

using namespace dlsize;
using Catch::Matchers::Equals;

namespace {

template <typename E> std::string all_names() {
  return core::name_list<E>();
}

template <typename E> std::string refusal(const std::string& text, const std::string& where) {
  try {
    core::parse_enum<E>(text, where);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "accepted";
}

} // namespace

TEST_CASE("every enum's names are the ones the reports and options use", "[enum_names]") {
  CHECK(all_names<model::allreduce_algorithm>() == "none, ring, hierarchical");
  CHECK(all_names<config::file_layout>() == "files, shards");
  CHECK(all_names<stop_cause>() == "none, signal, time_limit, stall");
  CHECK(all_names<report::run_status>() == "complete, incomplete");
  CHECK(all_names<report::rank_status>() == "complete, stopped, failed, missing");
  CHECK(all_names<report::limit_kind>() == "nothing, storage, client, mixed, harness, unknown");
  CHECK(all_names<report::rules_edition>() == "v1, v2, v3");
  CHECK(all_names<report::rule_verdict>() == "PASS, FAIL, not judged");
  CHECK(all_names<io::cache_mode>() == "direct, buffered, uncached");
  CHECK(all_names<io::job_outcome>() == "done, failed, interrupted, skipped");
  CHECK(all_names<s3::addressing>() == "path, virtual");
  CHECK(all_names<dataset::on_change>() == "stop, skip");
  CHECK(all_names<accel::cuda_precision>() == "fp16, tf32, fp32");
  CHECK(all_names<analysis::cache_model_kind>() == "auto, measured, lru, never-evict");
  CHECK(all_names<dataset::symlink_policy>() == "skip, follow");
}

TEST_CASE("name_of and find_enum are each other's inverse over a table", "[enum_names]") {
  for (const auto& n : names_of(io::cache_mode{})) {
    CHECK(core::name_of(n.value) == n.name);
    CHECK(core::find_enum<io::cache_mode>(n.name) == n.value);
  }
  CHECK(core::name_of(analysis::cache_model_kind::never_evict) == "never-evict");
  CHECK(core::name_of(s3::addressing::virtual_host) == "virtual");
  CHECK_FALSE(core::find_enum<io::cache_mode>("Direct").has_value());
  CHECK_FALSE(core::find_enum<io::cache_mode>("").has_value());
  CHECK(core::name_of(static_cast<io::cache_mode>(7)) == "?");
}

TEST_CASE("a refused name is answered with every valid name and its meaning", "[enum_names]") {
  CHECK_THAT(refusal<io::cache_mode>("dirct", "--cache"),
             Equals("--cache: invalid value 'dirct'. valid: direct (O_DIRECT, the default), "
                    "buffered (page cache), uncached (read through the page cache and drop the "
                    "pages)"));
  CHECK_THAT(refusal<model::allreduce_algorithm>("tree", "--allreduce-algorithm"),
             Equals("--allreduce-algorithm: invalid value 'tree'. valid: none, ring (one ring "
                    "over every accelerator), hierarchical (inside nodes, then across them)"));
  CHECK_THAT(refusal<dataset::on_change>("go", "--on-change"),
             Equals("--on-change: invalid value 'go'. valid: stop (the first changed file ends "
                    "the run), skip (changed files are left out, counted and named)"));
}

TEST_CASE("the enums' own parsers keep their words", "[enum_names]") {
  CHECK_THROWS_WITH(config::parse_layout("tar", "w.json: dataset.layout"),
                    "w.json: dataset.layout: invalid layout 'tar'. valid: files (one sample per "
                    "file), shards (many records per file)");
  CHECK_THROWS_WITH(accel::parse_precision("bf16", "--precision"),
                    "--precision: invalid precision 'bf16'. valid: fp16 (mixed precision, tensor "
                    "cores), tf32, fp32");
  CHECK_THROWS_WITH(report::parse_rules_edition("v9", "--rules"),
                    "--rules: 'v9' is not an edition of MLPerf Storage's rules. valid: v1 (v1.0), "
                    "v2 (v2.0), v3 (v3.0, the default)");
  CHECK_THROWS_WITH(s3::parse_addressing("host"),
                    "unknown S3 addressing. value: 'host'; valid: path, virtual");
  CHECK_THROWS_AS(report::stop_cause_from_string("sigint"), run_error);
  CHECK_THROWS_WITH(report::stop_cause_from_string("sigint"),
                    "unknown stop cause. value: sigint; valid: none, signal, time_limit, stall");
  CHECK_THROWS_WITH(io::parse_job_outcome("lost"),
                    "unknown job outcome. value: lost; valid: done, failed, interrupted, skipped");
  CHECK(report::parse_rules_edition("2.0", "--rules") == report::rules_edition::v2);
  CHECK(report::parse_limit_kind("client") == report::limit_kind::client);
  // The client verdict's name in reports made before `mixed` existed.
  CHECK(report::parse_limit_kind("client_cpu") == report::limit_kind::client);
  CHECK(report::parse_limit_kind("cpu") == report::limit_kind::unknown);
  CHECK(std::string(analysis::cache_model_name(analysis::cache_model_kind::automatic)) == "auto");
}
