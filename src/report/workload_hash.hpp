#pragma once
// Provenance of a training load (MLPerf Storage v3.0's core-config hash, in kind): the settings
// that define the load a run put on storage, read from its report, and their SHA-256. Site
// tunables (readers, queue depth, engine, paths, seeds) are left out, so two runs of the same
// load hash alike wherever they ran, and the keys hashed are written beside the hash so that it
// can be recomputed from the report alone.
#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"

namespace dlsize::report {

// The allowlist's name: which keys are hashed (docs/report-schema.md, workload_hash).
inline constexpr const char* kWorkloadHashKeys = "dlsize-load-v1";

// {"algorithm": "sha256", "allowlist", "keys": {path: value or null}, "sha256"} for a bench
// report's JSON; the hash is over keys.dump() (sorted keys, no spaces).
nlohmann::json workload_hash_json(const nlohmann::json& report);
// The same block, typed, for a bench report.
workload_hash_section workload_hash_of(const bench_report& report);

} // namespace dlsize::report
