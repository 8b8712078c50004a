#pragma once
// What a report says of the index a listed dataset came from (dataset.index): made by
// dataset/index_layout.cpp when the index is read, completed by the run with the changes its
// readers found (pipeline/run_report.cpp); its keys are listed in report/bench_report_json.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/field.hpp"

namespace dlsize::report {

// The files found changed since they were indexed: before the run (stat) and at open.
struct index_changes {
  field<std::uint64_t> count;
  field<std::vector<std::string>> files; // the first ones, each "PATH: why"
  field<std::uint64_t> while_reading;    // of count, those the readers found at open
  nlohmann::json extra = nlohmann::json::object();
};

struct index_origin {
  field<std::string> path, digest, created_at;
  field<std::string> on_change; // stop or skip (--on-change)
  field<std::uint64_t> files_indexed, files_read;
  field<index_changes> changed;
  // The index's own blocks as its header has them (dataset/index_json.cpp).
  field<nlohmann::json> skipped_when_indexed, formats, sample_bytes;
  nlohmann::json extra = nlohmann::json::object();
};

} // namespace dlsize::report
