#pragma once
// The config block of a bench report: the options in effect as a run config (docs/options.md),
// made so that --replay (or --config) of it reruns the run.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"

namespace dlsize::pipeline {

// From every option in effect (keyed by long name without dashes): absolute paths (the dataset,
// index, workload and calibration files, a checkpoint folder), the accelerators and AU threshold
// as resolved, and no option the run's kind refuses (storage-only runs have no accelerators,
// emulated ones no precision; an s3:// dataset no file options); unset optional options, where
// the report goes and the rules it is judged by are left out.
nlohmann::json replayable_config(nlohmann::json effective, config::accelerator_kind kind,
                                 std::uint64_t accelerators, std::uint64_t ranks,
                                 double au_threshold);

} // namespace dlsize::pipeline
