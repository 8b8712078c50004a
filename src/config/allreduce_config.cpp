#include "config/allreduce_config.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "config/interconnect_spec.hpp"
#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/units.hpp"

namespace dlsize::config {

using core::json_checker;
using core::parse_json;
namespace {

double gradient_size(const std::string& dtype) {
  if (dtype == "fp32")
    return 4;
  if (dtype == "fp16" || dtype == "bf16")
    return 2;
  throw usage_error(fmt::format("--allreduce-dtype: invalid value '{}'. valid: fp32 (DDP's "
                                "gradients, under AMP too), fp16, bf16",
                                dtype));
}

double overlap_of(const std::string& text) {
  double v = -1;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !(v >= 0 && v <= 1))
    throw usage_error(fmt::format("--allreduce-overlap: '{}' is not valid. valid: a fraction of "
                                  "the backward pass from 0 (none) to 1, such as 0.5",
                                  text));
  return v;
}

// One calibration file's link: its fitted per-hop latency and bus bandwidth.
void apply_calibration(const std::string& file, allreduce_setup& s) {
  json_checker c(file);
  const nlohmann::json j = core::read_json_file(file, core::kCalibrationJson);
  if (!j.is_object())
    c.fail("", "must be a JSON object");
  const std::string schema = c.string(j, "", "schema");
  if (schema != kAllreduceCalibrationSchema)
    c.fail("schema", fmt::format("'{}' is not an allreduce calibration. valid: {} (dlsize "
                                 "calibrate --allreduce)",
                                 schema, kAllreduceCalibrationSchema));
  const std::string link = c.string(j, "", "link");
  const double alpha = c.number(j, "", "latency_per_hop_s", 0, 1);
  const double bw = c.number(j, "", "bus_bandwidth_bytes_per_s", 1, 1e15);
  const std::string from = "calibration " + file;
  if (link == "intra") {
    s.fabric.intra_latency_s = alpha;
    s.fabric.intra_bytes_per_s = bw;
    s.sources["intra_latency"] = s.sources["intra_bandwidth"] = from;
  } else if (link == "inter") {
    s.fabric.inter_latency_s = alpha;
    s.fabric.inter_bytes_per_s = bw;
    s.sources["inter_latency"] = s.sources["inter_bandwidth"] = from;
  } else {
    c.fail("link", fmt::format("'{}' is not a link. valid: intra, inter", link));
  }
}

void apply_options(const allreduce_request& r, allreduce_setup& s) {
  if (!r.intra_bandwidth.empty()) {
    s.fabric.intra_bytes_per_s = units::parse_rate(r.intra_bandwidth, "--intra-node-bandwidth");
    s.sources["intra_bandwidth"] = "--intra-node-bandwidth";
  }
  const bool nic_given = !r.inter_bandwidth.empty() || r.nics_per_node;
  if (!r.inter_bandwidth.empty())
    s.nic_bytes_per_s = units::parse_rate(r.inter_bandwidth, "--inter-node-bandwidth");
  if (r.nics_per_node) {
    if (r.nics_per_node > 64)
      throw usage_error("--nics-per-node: valid: 1 to 64");
    s.nics_per_node = r.nics_per_node;
  }
  if (nic_given) {
    if (!(s.nic_bytes_per_s > 0))
      throw usage_error("--nics-per-node: needs --inter-node-bandwidth (one port's rate, such as "
                        "100Gb/s) for an accelerator type without interconnect defaults");
    s.fabric.inter_bytes_per_s = s.nic_bytes_per_s * static_cast<double>(s.nics_per_node);
    s.sources["inter_bandwidth"] =
        fmt::format("{} x {} per port (--inter-node-bandwidth, --nics-per-node)", s.nics_per_node,
                    units::format_rate_both(s.nic_bytes_per_s));
  }
  if (!r.intra_latency.empty()) {
    s.fabric.intra_latency_s = units::parse_duration(r.intra_latency, "--intra-node-latency");
    s.sources["intra_latency"] = "--intra-node-latency";
  }
  if (!r.inter_latency.empty()) {
    s.fabric.inter_latency_s = units::parse_duration(r.inter_latency, "--inter-node-latency");
    s.sources["inter_latency"] = "--inter-node-latency";
  }
}

} // namespace

void require_allreduce_for_inputs(const allreduce_request& r, const std::set<std::string>& given) {
  if (r.algorithm != "none")
    return;
  for (const char* name : kAllreduceInputs)
    if (given.count(name) > 0)
      throw usage_error(fmt::format("{}: an input of the allreduce model. valid: with "
                                    "--allreduce ring or hierarchical",
                                    name));
}

model::allreduce_cost allreduce_setup::cost(const model::job_layout& l) const {
  return model::allreduce_time(algorithm, gradient_bytes, l, fabric);
}

double allreduce_setup::exposed_s(const model::job_layout& l, double compute_s) const {
  return model::exposed_time(cost(l).total_s(), backward_fraction * compute_s, overlap);
}

std::string allreduce_setup::overlap_note() const {
  return overlap > 0 ? "the allreduce overlaps this fraction of the backward pass "
                       "(--allreduce-overlap)"
                     : "no overlap with the backward pass (--allreduce-overlap 0, the default): "
                       "the whole allreduce is exposed, an upper bound";
}

allreduce_setup resolve_allreduce(const allreduce_request& r, const workload_profile& w,
                                  const accelerator_spec& a) {
  allreduce_setup s;
  s.algorithm = model::parse_allreduce_algorithm(r.algorithm, "--allreduce");
  if (!s.active())
    return s;
  if (a.kind == accelerator_kind::none)
    throw usage_error("--allreduce: needs accelerators (--accelerator emulated:TYPE); with "
                      "--accelerator none only storage is read");
  if (a.kind == accelerator_kind::cuda)
    throw usage_error("--allreduce: models the allreduce of emulated accelerators; with "
                      "--accelerator cuda NCCL's real allreduce runs");
  const auto& p = w.model.is_object() && w.model.contains("parameters") ? w.model["parameters"]
                                                                        : nlohmann::json();
  if (!p.is_number() || !(p.get<double>() > 0))
    throw usage_error(fmt::format("--allreduce: workload '{}' has no model.parameters, so its "
                                  "gradients' size is unknown. valid: a profile with "
                                  "model.parameters (resnet50, unet3d, bert-large, ...)",
                                  w.name));
  s.dtype = r.dtype;
  s.parameters = p.get<double>();
  s.gradient_bytes = s.parameters * gradient_size(r.dtype);
  s.sources["parameters"] = "workload " + w.name + " model.parameters";
  if (w.model.contains("backward_fraction")) {
    s.backward_fraction = w.model["backward_fraction"].get<double>();
    s.sources["backward_fraction"] = "workload " + w.name + " model.backward_fraction";
  } else {
    s.sources["backward_fraction"] = "2/3 of the step (backward = 2 x forward)";
  }
  s.overlap = r.overlap.empty() ? 0.0 : overlap_of(r.overlap);
  s.fabric.intra_latency_s = kIntraHopLatencyS;
  s.fabric.inter_latency_s = kInterHopLatencyS;
  s.sources["intra_latency"] = s.sources["inter_latency"] = kHopLatencySource;
  if (const interconnect_spec* spec = find_interconnect(a.type)) {
    s.accelerators_per_node = spec->accelerators_per_node;
    s.fabric.intra_bytes_per_s = spec->intra_bytes_per_s;
    s.nic_bytes_per_s = spec->nic_bytes_per_s;
    s.nics_per_node = spec->nics_per_node;
    s.fabric.inter_bytes_per_s = spec->nic_bytes_per_s * static_cast<double>(spec->nics_per_node);
    s.sources["intra_bandwidth"] = spec->intra_source;
    s.sources["inter_bandwidth"] = spec->inter_source;
    s.sources["system"] = spec->system;
  }
  if (!r.calibration.empty()) {
    std::stringstream files(r.calibration);
    for (std::string f; std::getline(files, f, ',');)
      apply_calibration(f, s);
  }
  if (s.nics_per_node == 0)
    s.nics_per_node = 1;
  apply_options(r, s);
  if (!(s.fabric.intra_bytes_per_s > 0) || !(s.fabric.inter_bytes_per_s > 0))
    throw usage_error(fmt::format(
        "--allreduce: accelerator '{}' has no interconnect defaults (known: v100, a100, h100). "
        "valid: give --intra-node-bandwidth and --inter-node-bandwidth (such as 150GB/s and "
        "100Gb/s), or --allreduce-calibration",
        a.type));
  return s;
}

layout_choice resolve_layout(const allreduce_request& r, std::uint64_t accelerators,
                             std::uint64_t ranks, std::uint64_t real_nodes) {
  layout_choice c;
  if (!r.ranks_per_node && !r.accelerators_per_node) {
    c.layout.nodes = std::max<std::uint64_t>(1, real_nodes);
    if (accelerators % c.layout.nodes)
      throw usage_error(fmt::format("--accelerators: {} cannot be shared equally by {} hosts",
                                    accelerators, c.layout.nodes));
    c.layout.per_node = accelerators / c.layout.nodes;
    return c;
  }
  if (real_nodes > 1)
    throw usage_error(fmt::format("--ranks-per-node, --accelerators-per-node: declare nodes on "
                                  "one host; this job runs on {} hosts, which decide",
                                  real_nodes));
  const std::uint64_t per_rank = accelerators / ranks;
  std::uint64_t per_node = r.accelerators_per_node;
  if (r.ranks_per_node) {
    if (ranks % r.ranks_per_node)
      throw usage_error(fmt::format("--ranks-per-node: {} does not divide the job's {} ranks",
                                    r.ranks_per_node, ranks));
    if (per_node && per_node != r.ranks_per_node * per_rank)
      throw usage_error(fmt::format(
          "--accelerators-per-node {} and --ranks-per-node {} disagree: {} ranks of {} "
          "accelerators are {} per node",
          per_node, r.ranks_per_node, r.ranks_per_node, per_rank, r.ranks_per_node * per_rank));
    per_node = r.ranks_per_node * per_rank;
  }
  if (accelerators % per_node)
    throw usage_error(fmt::format("--accelerators-per-node: {} does not divide the job's {} "
                                  "accelerators",
                                  per_node, accelerators));
  c.layout = {accelerators / per_node, per_node};
  c.declared = true;
  return c;
}

void drop_unused_allreduce_inputs(nlohmann::json& config) {
  if (config.value("allreduce", std::string("none")) != "none")
    return;
  for (const char* name : kAllreduceInputs)
    config.erase(name + 2); // without the leading "--"
}

} // namespace dlsize::config
