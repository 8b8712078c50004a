#pragma once
// The gradient allreduce an emulated job models (--allreduce and its options), resolved against
// the workload profile (model.parameters, model.backward_fraction), the accelerator type's
// interconnect (interconnect_spec), an allreduce calibration (dlsize calibrate --allreduce) and
// the command line, in that order of precedence from last to first. Every input keeps its
// source for the report. The job's layout (which accelerators share a node) is apart: real
// hosts, or declared with --ranks-per-node / --accelerators-per-node on one host.
#include <array>
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "model/allreduce_model.hpp"

namespace dlsize::config {

inline constexpr const char* kAllreduceCalibrationSchema = "dlsize.allreduce-calibration/1";

// The options as given; empty strings and zeros: not given.
struct allreduce_request {
  std::string algorithm = "none";
  std::string dtype = "fp32";
  std::string overlap;
  std::string intra_bandwidth, inter_bandwidth;
  std::uint64_t nics_per_node = 0;
  std::string intra_latency, inter_latency;
  std::string calibration; // files, comma-separated
  std::uint64_t ranks_per_node = 0, accelerators_per_node = 0;
};

// The options that are inputs of the model: each is refused without --allreduce.
inline constexpr std::array<const char*, 10> kAllreduceInputs = {
    "--allreduce-dtype",      "--allreduce-overlap",     "--intra-node-bandwidth",
    "--inter-node-bandwidth", "--nics-per-node",         "--intra-node-latency",
    "--inter-node-latency",   "--allreduce-calibration", "--ranks-per-node",
    "--accelerators-per-node"};

// Throws usage_error naming the first input of the model among given (long options, "--nics-
// per-node") when r's --allreduce is none: an input nothing uses would be silently ignored.
void require_allreduce_for_inputs(const allreduce_request& r, const std::set<std::string>& given);

// A run config (long option names without dashes) without the allreduce model keeps none of its
// inputs: their defaults would read as given when the config is replayed, and be refused.
void drop_unused_allreduce_inputs(nlohmann::json& config);

struct allreduce_setup {
  model::allreduce_algorithm algorithm = model::allreduce_algorithm::none;
  std::string dtype = "fp32";
  double parameters = 0;
  double gradient_bytes = 0; // parameters × bytes per gradient
  model::fabric fabric;
  std::uint64_t nics_per_node = 0;
  double nic_bytes_per_s = 0;
  double overlap = 0;
  double backward_fraction = 2.0 / 3.0;
  std::uint64_t accelerators_per_node = 8;           // the spec's server, for plans
  nlohmann::json sources = nlohmann::json::object(); // input -> where it came from

  bool active() const { return algorithm != model::allreduce_algorithm::none; }
  model::allreduce_cost cost(const model::job_layout& l) const;
  // The time each step waits for, for steps of compute_s.
  double exposed_s(const model::job_layout& l, double compute_s) const;
  // The report's allreduce section: inputs, sources, the cost's parts and the exposed time.
  nlohmann::json to_json(const model::job_layout& l, double compute_s) const;
  // How much of the allreduce the backward pass hides (--allreduce-overlap), in words.
  std::string overlap_note() const;
};

// What a report's topology.allreduce section (allreduce_setup::to_json) records: the setup, the
// run's layout and the compute time per step it was computed for (backward_s ÷
// backward_fraction). For size, which models other counts of the same job. Throws usage_error
// naming source and key for a section that is not what to_json writes.
struct recorded_allreduce {
  allreduce_setup setup;
  model::job_layout layout;
  double compute_s = 0;
};
recorded_allreduce allreduce_from_json(const nlohmann::json& section, const std::string& source);

// Throws usage_error naming the option: --allreduce without model.parameters (or with
// --accelerator none or cuda), a type without interconnect defaults and no bandwidths given,
// bad values, a bad calibration file.
allreduce_setup resolve_allreduce(const allreduce_request& r, const workload_profile& w,
                                  const accelerator_spec& a);

// The job's layout: declared (--ranks-per-node, --accelerators-per-node; refused on several
// real hosts) or the real hosts'. Throws usage_error for a layout that does not divide the job.
struct layout_choice {
  model::job_layout layout;
  bool declared = false;
};
layout_choice resolve_layout(const allreduce_request& r, std::uint64_t accelerators,
                             std::uint64_t ranks, std::uint64_t real_nodes);

} // namespace dlsize::config
