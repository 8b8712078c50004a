// The report's topology.allreduce block: what bench writes of the modelled allreduce, and how
// size reads it back to model other counts of the same job.
#include "config/allreduce_config.hpp"

#include "core/error.hpp"
#include "core/json_checks.hpp"

namespace dlsize::config {

nlohmann::json allreduce_setup::to_json(const model::job_layout& l, double compute_s) const {
  const model::allreduce_cost c = cost(l);
  return {{"algorithm", model::to_string(algorithm)},
          {"dtype", dtype},
          {"parameters", parameters},
          {"gradient_bytes", gradient_bytes},
          {"nodes", l.nodes},
          {"accelerators_per_node", l.per_node},
          {"intra_node_bytes_per_s", fabric.intra_bytes_per_s},
          {"inter_node_bytes_per_s", fabric.inter_bytes_per_s},
          {"nics_per_node", nics_per_node},
          {"intra_node_latency_s", fabric.intra_latency_s},
          {"inter_node_latency_s", fabric.inter_latency_s},
          {"latency_s", c.latency_s},
          {"intra_node_s", c.intra_s},
          {"inter_node_s", c.inter_s},
          {"comm_s", c.total_s()},
          {"backward_fraction", backward_fraction},
          {"backward_s", backward_fraction * compute_s},
          {"overlap", overlap},
          {"exposed_s", exposed_s(l, compute_s)},
          {"sources", sources},
          {"note", overlap_note()}};
}

recorded_allreduce allreduce_from_json(const nlohmann::json& section, const std::string& source) {
  const json_checker c(source);
  const std::string at = "topology.allreduce";
  if (!section.is_object())
    c.fail(at, "must be an object (the section bench --allreduce writes)");
  recorded_allreduce r;
  allreduce_setup& s = r.setup;
  s.algorithm = model::parse_allreduce_algorithm(c.string(section, at, "algorithm"),
                                                 source + ": " + at + ".algorithm");
  s.dtype = c.string(section, at, "dtype");
  s.parameters = c.number(section, at, "parameters", 0, 1e16);
  s.gradient_bytes = c.number(section, at, "gradient_bytes", 0, 1e17);
  s.fabric.intra_bytes_per_s = c.number(section, at, "intra_node_bytes_per_s", 0, 1e15);
  s.fabric.inter_bytes_per_s = c.number(section, at, "inter_node_bytes_per_s", 0, 1e15);
  s.fabric.intra_latency_s = c.number(section, at, "intra_node_latency_s", 0, 1);
  s.fabric.inter_latency_s = c.number(section, at, "inter_node_latency_s", 0, 1);
  s.nics_per_node = c.integer(section, at, "nics_per_node", 0, 1024);
  if (s.nics_per_node > 0)
    s.nic_bytes_per_s = s.fabric.inter_bytes_per_s / static_cast<double>(s.nics_per_node);
  s.overlap = c.number(section, at, "overlap", 0, 1);
  s.backward_fraction = c.number(section, at, "backward_fraction", 1e-6, 1);
  r.layout.nodes = c.integer(section, at, "nodes", 1, 1u << 24);
  r.layout.per_node = c.integer(section, at, "accelerators_per_node", 1, 1u << 20);
  s.accelerators_per_node = r.layout.per_node;
  r.compute_s = c.number(section, at, "backward_s", 0, 1e6) / s.backward_fraction;
  if (section.contains("sources") && section["sources"].is_object())
    s.sources = section["sources"];
  return r;
}

} // namespace dlsize::config
