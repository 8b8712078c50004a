#pragma once
// Shared parts of every dlsize report: the schema name, the tool and host sections, and
// writing a report atomically without overwriting.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "telemetry/host_facts.hpp"

namespace dlsize::report {

inline constexpr const char* kReportSchema = "dlsize.report/1";

// The git commit this binary was built from (`git describe --always --dirty` at build time,
// "-dirty" with uncommitted changes), or "unknown" when built outside git.
std::string tool_commit();
// {"name", "version", "commit", "build_type", "features": {...}} of this build.
nlohmann::json tool_json();
// One line per feature for --version; uring_unusable: why this kernel refuses io_uring rings
// now (io::uring_engine::available), empty when it takes them.
std::vector<std::string> feature_lines(const std::string& uring_unusable = {});
// The command line as given, one string per argument.
nlohmann::json command_line_json(int argc, const char* const* argv);
// This host's facts (telemetry::this_host), with gpus (an array, empty when none), nvml (how
// GPUs were seen) and, where given, its provenance (telemetry::host_provenance: OS, mount,
// device, cgroup limits, ...).
telemetry::host_facts host_of(std::vector<telemetry::gpu_device> gpus, telemetry::nvml_status nvml,
                              std::optional<telemetry::host_provenance_facts> provenance = {});
// Current UTC time, ISO 8601.
std::string utc_now();
// Current time in seconds since the Unix epoch, to the millisecond: a report's created_unix_s,
// which places its run in time (MLPerf Storage v3.0's consecutive runs, point_validity).
double unix_now_s();

void write_report(const std::filesystem::path& path, const nlohmann::json& report);

// A top-level string of a document ("schema", "kind"); "" for anything else, never throws.
std::string top_level_text(const nlohmann::json& doc, const char* key);

} // namespace dlsize::report
