// The JSON of a plan_document ("schema": "dlsize.plan/1", docs/plan.schema.json): the one
// place a plan's keys are written. Nothing reads a plan back but `dlsize validate`, which checks
// it against the schema.
#include <fmt/format.h>

#include "analysis/plan.hpp"
#include "analysis/plan_document.hpp"

namespace dlsize::analysis {
namespace {

template <typename T> nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const plan_per_host& h) {
  nlohmann::json nics = nlohmann::json::array();
  for (const auto& n : h.one_nic)
    nics.push_back({{"gbe", n.gbe},
                    {"line_bytes_per_s", n.line_bytes_per_s},
                    {"usable_bytes_per_s", n.usable_bytes_per_s},
                    {"load", n.load},
                    {"carries", n.carries}});
  return {
      {"accelerators", h.accelerators},           {"required_bytes_per_s", h.required_bytes_per_s},
      {"reads_bytes_per_s", h.reads_bytes_per_s}, {"iops", h.iops},
      {"nic_efficiency", h.nic_efficiency},       {"one_nic", nics}};
}

nlohmann::json to_json(const plan_epoch& e) {
  return {{"dataset_bytes", e.dataset_bytes},
          {"bytes_per_s", e.bytes_per_s},
          {"epoch_s", e.epoch_s},
          {"epochs", or_null(e.epochs)},
          {"time_to_train_s", or_null(e.time_to_train_s)}};
}

nlohmann::json to_json(const plan_dataset& d) {
  nlohmann::json j = {{"min_bytes_for_steps", d.min_bytes_for_steps},
                      {"min_samples_for_steps", d.min_samples_for_steps},
                      {"min_bytes_for_ram", nullptr},
                      {"min_bytes", d.min_bytes},
                      {"min_samples", d.min_samples},
                      {"rules", d.rules}};
  if (d.ram) {
    j["min_bytes_for_ram"] = d.ram->min_bytes;
    j["client_ram_bytes"] = d.ram->client_ram_bytes;
    j["clients"] = d.ram->clients;
  }
  if (d.indexed) {
    j["indexed_bytes"] = d.indexed->bytes;
    j["indexed_is_enough"] = d.indexed->is_enough;
  }
  return j;
}

nlohmann::json to_json(const plan_index& i) {
  return {{"path", i.path},
          {"dir", i.dir},
          {"digest", i.digest},
          {"files", i.files},
          {"samples", i.samples},
          {"file_bytes", i.file_bytes},
          {"sample_bytes", i.sample_bytes},
          {"samples_per_file", i.samples_per_file},
          {"sample_bytes_distribution", dataset::to_json(i.sample_bytes_distribution)},
          {"request_size", i.request_size},
          {"read_bytes", i.read_bytes},
          {"requests", i.requests}};
}

// The allreduce's block, its scaled figures and the curve, beside the read side's keys.
void add_scaling_json(nlohmann::json& j, const plan_scaling& s) {
  j["allreduce"] = s.allreduce.to_json(s.layout, s.compute_s);
  j["required_bytes_per_s_linear"] = s.required_bytes_per_s_linear;
  j["demand_bytes_per_s_linear"] = s.demand_bytes_per_s_linear;
  j["scaling_efficiency"] = s.scaling_efficiency;
  j["samples_per_s"] = s.samples_per_s;
  nlohmann::json curve = nlohmann::json::array();
  for (const auto& p : s.curve)
    curve.push_back(to_json(p));
  j["scaling"] = curve;
}

void add_storage_json(nlohmann::json& j, const plan_storage& s) {
  j["storage_bandwidth_bytes_per_s"] = or_null(s.storage_bandwidth_bytes_per_s);
  j["deliverable_bytes_per_s"] = s.deliverable_bytes_per_s;
  j["max_accelerators_at_threshold"] = s.max_accelerators_at_threshold;
  if (s.max_accelerators_at_threshold_linear)
    j["max_accelerators_at_threshold_linear"] = *s.max_accelerators_at_threshold_linear;
}

// The read side's keys, at the top level of the plan.
void add_reads_json(nlohmann::json& j, const plan_reads& r) {
  j["accelerator"] = {{"type", r.accelerator.type},
                      {"batch_size", r.accelerator.batch_size},
                      {"compute_time_s", r.accelerator.compute_time_s},
                      {"source", r.accelerator.source}};
  j["sample_bytes_mean"] = r.sample_bytes_mean;
  j["au_threshold"] = r.au_threshold;
  j["samples_per_s_per_accelerator"] = r.samples_per_s_per_accelerator;
  j["demand_bytes_per_s_per_accelerator"] = r.demand_bytes_per_s_per_accelerator;
  j["cache_mode"] = r.cache_mode;
  j["read_amplification"] = r.read_amplification;
  j["read_amplification_basis"] = r.read_amplification_basis;
  j["reads_bytes_per_s_per_accelerator"] = r.reads_bytes_per_s_per_accelerator;
  j["bytes_per_s_per_accelerator_at_threshold"] = r.bytes_per_s_per_accelerator_at_threshold;
  j["nic_limit_bytes_per_s"] = or_null(r.nic_limit_bytes_per_s);
  if (r.storage)
    add_storage_json(j, *r.storage);
  j["accelerators"] = r.accelerators;
  j["required_bytes_per_s"] = r.required_bytes_per_s;
  j["demand_bytes_per_s"] = r.demand_bytes_per_s;
  j["reads_bytes_per_s"] = r.reads_bytes_per_s;
  j["iops"] = r.iops;
  if (r.per_host)
    j["per_host"] = to_json(*r.per_host);
  j["files_per_s"] = r.files_per_s;
  if (r.expected_accelerator_utilization)
    j["expected_accelerator_utilization"] = *r.expected_accelerator_utilization;
  if (r.row)
    j["row"] = to_json(*r.row);
  if (r.epoch)
    j["epoch"] = to_json(*r.epoch);
  j["dataset"] = to_json(r.dataset);
  j["dataset_source"] = r.dataset_source;
  if (r.index)
    j["index"] = to_json(*r.index);
  if (r.scaling)
    add_scaling_json(j, *r.scaling);
  if (r.s3)
    j["s3"] = to_json(*r.s3);
}

} // namespace

nlohmann::json to_json(const scaling_point& p) {
  return {{"accelerators", p.accelerators},
          {"nodes", p.layout.nodes},
          {"accelerators_per_node", p.layout.per_node},
          {"exposed_allreduce_s", p.exposed_s},
          {"scaling_efficiency", p.efficiency},
          {"samples_per_s", p.samples_per_s},
          {"demand_bytes_per_s", p.demand_bytes_per_s},
          {"required_bytes_per_s", p.required_bytes_per_s}};
}

nlohmann::json to_json(const plan_row& r) {
  nlohmann::json j = {
      {"bandwidth_bytes_per_s", r.bandwidth_bytes_per_s},
      {"accelerators", r.accelerators},
      {"bandwidth_bytes_per_s_per_accelerator", r.bandwidth_bytes_per_s_per_accelerator},
      {"demand_bytes_per_s_per_accelerator", r.demand_bytes_per_s_per_accelerator},
      {"accelerator_utilization", r.accelerator_utilization},
      {"samples_per_s", r.samples_per_s},
      {"meets_au_threshold", r.meets_au_threshold}};
  if (!r.note.empty())
    j["note"] = r.note;
  return j;
}

nlohmann::json to_json(const checkpoint_plan_document& c) {
  nlohmann::json j = {{"bytes", c.bytes},
                      {"ranks", c.ranks},
                      {"layout",
                       {{"tensor_parallel", c.tensor_parallel},
                        {"pipeline_parallel", c.pipeline_parallel},
                        {"data_parallel", c.data_parallel},
                        {"zero_stage", c.zero_stage}}},
                      {"largest_rank_bytes", c.largest_rank_bytes},
                      {"clients", c.clients},
                      {"busiest_client_bytes", c.busiest_client_bytes},
                      {"interval", c.interval},
                      {"interval_s", c.interval_s},
                      {"mode", c.async ? "async" : "sync"},
                      {"max_overhead", c.max_overhead},
                      {"allowed_s", c.allowed_s},
                      {"write_bytes_per_s", c.write_bytes_per_s},
                      {"rank_write_bytes_per_s", c.rank_write_bytes_per_s},
                      {"client_write_bytes_per_s", c.client_write_bytes_per_s},
                      {"estimate", c.estimate},
                      {"source", c.source}};
  if (c.link) {
    j["client_link_floor_s"] = c.link->floor_s;
    j["client_link_fits"] = c.link->fits;
  }
  if (c.at_write)
    j["at_write_bandwidth"] = {{"bytes_per_s", c.at_write->bytes_per_s},
                               {"checkpoint_s", c.at_write->checkpoint_s},
                               {"overhead", c.at_write->overhead},
                               {"fits", c.at_write->fits}};
  if (c.restore)
    j["restore"] = {{"bytes_per_s", c.restore->bytes_per_s}, {"restore_s", c.restore->restore_s}};
  return j;
}

nlohmann::json to_json(const plan_document& d) {
  nlohmann::json j = {{"schema", kPlanSchema}, {"workload", d.workload}};
  if (d.reads)
    add_reads_json(j, *d.reads);
  if (d.checkpoint)
    j["checkpoint"] = to_json(*d.checkpoint);
  if (d.answer && d.measured)
    j["answer"] = to_json(*d.answer, *d.measured);
  if (d.goodput)
    j["goodput"] = to_json(*d.goodput);
  return j;
}

} // namespace dlsize::analysis
