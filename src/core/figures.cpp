#include "core/figures.hpp"

#include <algorithm>

namespace dlsize::core {

double share(double part, double whole) {
  return part / whole;
}

double capped_share(double part, double whole) {
  return std::min(1.0, share(part, whole));
}

double accelerator_utilization(double compute_s, double window_s) {
  return capped_share(compute_s, window_s);
}

double storage_au(double compute_s, double comm_s, double window_s) {
  return capped_share(compute_s + comm_s, window_s);
}

double au_at_bandwidth(double deliverable_bytes_per_s, double required_bytes_per_s) {
  return capped_share(deliverable_bytes_per_s, required_bytes_per_s);
}

double demand_bytes_per_s(double samples_per_s, double sample_bytes) {
  return samples_per_s * sample_bytes;
}

double batch_demand_bytes_per_s(double batch_size, double sample_bytes, double step_s) {
  return step_s > 0 ? batch_size * sample_bytes / step_s : 0.0;
}

double required_bandwidth(double read_bytes_per_s, double au) {
  return read_bytes_per_s / au;
}

double bandwidth_at_threshold(double demand_bytes_per_s, double au_threshold) {
  return demand_bytes_per_s * au_threshold;
}

} // namespace dlsize::core
