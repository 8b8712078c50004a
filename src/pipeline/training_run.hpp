#pragma once
// A training run with emulated (or, later, real) accelerators: the pipeline of DESIGN.md.
// The sampler shards each epoch over all accelerators; the engine's readers read each batch's
// samples into the batch's slot of a prefetch queue (--prefetch slots per accelerator), with
// optional CPU preprocessing on the bytes; each accelerator thread waits for its next batch,
// holds it for the step's compute time, optionally meets the others at a per-step barrier
// (--sync-steps, standing in for the gradient allreduce), and records the step.
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "io/engine.hpp"

namespace dlsize::pipeline {

struct training_options {
  config::workload_profile workload;
  config::accelerator_spec accelerator;
  std::filesystem::path dataset;
  io::engine_options io;
  std::uint64_t accelerators = 1;
  std::uint64_t prefetch = 2;     // batches loaded ahead per accelerator
  bool sync_steps = false;
  double preprocess_s = 0;        // CPU time per sample; 0: no preprocessing
  std::uint64_t epochs = 1;
  std::uint64_t seed = 0;
  double sample_interval_s = 1.0;
  double time_limit_s = 0;        // 0: none
  bool progress = true;
  nlohmann::json config;          // the effective options, for the report
};

struct training_result {
  nlohmann::json report;
  bool failed = false;  // read errors or an interruption
  std::string summary_text;
};

// Runs the training emulation. Throws usage_error for a dataset that does not fit the
// workload or the topology; read errors end the run with an incomplete report.
training_result run_training(const training_options& opt, const nlohmann::json& command_line);

}  // namespace dlsize::pipeline
