#pragma once
// What makes two bench reports the same load on the same or another backend: the workload,
// accelerator type and count, the dataset's shape, the backend's label and the settings that
// may differ. Shared by compare (several backends, one load) and size (one backend, several
// accelerator counts). Each reads the typed fields (bench_report::fields_of for a report that
// is not bench's), never the report's JSON.
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"

namespace dlsize::report {

// How the run's accelerators were spread: "1 process", or "2 nodes × 8 ranks × 1 accelerator"
// ("ranks per node" given as a list when nodes differ: "2 nodes (8, 4 ranks)").
std::string topology_label(const bench_report& report);

std::string workload_of(const bench_report& report);
// The accelerator type ("h100"), or "none" for a storage-only run.
std::string accelerator_type_of(const bench_report& report);
std::uint64_t accelerators_of(const bench_report& report);

// "18765 samples in 15 files of 1251 records, 114660 B per sample": equal for the same
// dataset generated on two backends.
std::string dataset_shape(const bench_report& report);

// Options that differ between two reports' effective configs ("queue-depth differs: 16 in a,
// 64 in b"), leaving out the keys in `may_differ`.
std::vector<std::string> setting_differences(const bench_report& a, const std::string& a_file,
                                             const bench_report& b, const std::string& b_file,
                                             const std::set<std::string>& may_differ);

// Options that say where and how a backend is reached, never what the load is: they may
// differ between the runs that compare and size line up.
const std::set<std::string>& backend_settings();

// A value of a config as text (strings without quotes).
std::string text_of(const nlohmann::json& j);

} // namespace dlsize::report
