#include "model/allreduce_model.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::model {
namespace {

void check(const job_layout& l) {
  if (l.nodes == 0 || l.per_node == 0)
    throw std::invalid_argument(
        fmt::format("allreduce: a layout of {} nodes × {} accelerators", l.nodes, l.per_node));
}

double over(double bytes, double bandwidth, const char* link) {
  if (!(bandwidth > 0))
    throw std::invalid_argument(fmt::format("allreduce: the {} bandwidth is not above 0", link));
  return bytes / bandwidth;
}

} // namespace

std::string to_string(allreduce_algorithm a) {
  return std::string(core::name_of(a));
}

allreduce_algorithm parse_allreduce_algorithm(std::string_view text, std::string_view option) {
  return core::parse_enum<allreduce_algorithm>(text, option);
}

allreduce_cost ring_allreduce(double bytes, const job_layout& l, const fabric& f) {
  check(l);
  const std::uint64_t n = l.accelerators();
  allreduce_cost c;
  if (n == 1)
    return c;
  const double hops = 2.0 * static_cast<double>(n - 1);
  const double inter_hops = 2.0 * static_cast<double>(l.nodes - 1);
  c.latency_s = (hops - inter_hops) * f.intra_latency_s + inter_hops * f.inter_latency_s;
  const double moved = hops / static_cast<double>(n) * bytes;
  const bool intra = l.per_node > 1, inter = l.nodes > 1;
  // The slowest link sets the pace of every step of the ring; its time is booked to that link.
  const bool nic_slowest = inter && (!intra || f.inter_bytes_per_s < f.intra_bytes_per_s);
  if (nic_slowest)
    c.inter_s = over(moved, f.inter_bytes_per_s, "inter-node");
  else
    c.intra_s = over(moved, f.intra_bytes_per_s, "intra-node");
  return c;
}

allreduce_cost hierarchical_allreduce(double bytes, const job_layout& l, const fabric& f) {
  check(l);
  allreduce_cost c;
  const auto k = static_cast<double>(l.per_node), nodes = static_cast<double>(l.nodes);
  if (l.per_node > 1) {
    c.latency_s += 2 * (k - 1) * f.intra_latency_s;
    c.intra_s = over(2 * (k - 1) / k * bytes, f.intra_bytes_per_s, "intra-node");
  }
  if (l.nodes > 1) {
    c.latency_s += 2 * (nodes - 1) * f.inter_latency_s;
    c.inter_s = over(2 * (nodes - 1) / nodes * bytes, f.inter_bytes_per_s, "inter-node");
  }
  return c;
}

allreduce_cost allreduce_time(allreduce_algorithm a, double bytes, const job_layout& l,
                              const fabric& f) {
  switch (a) {
  case allreduce_algorithm::ring:
    return ring_allreduce(bytes, l, f);
  case allreduce_algorithm::hierarchical:
    return hierarchical_allreduce(bytes, l, f);
  case allreduce_algorithm::none:
    break;
  }
  return {};
}

double exposed_time(double comm_s, double backward_s, double overlap) {
  return std::max(0.0, comm_s - overlap * backward_s);
}

} // namespace dlsize::model
