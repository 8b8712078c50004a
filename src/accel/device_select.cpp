#include "accel/device_select.hpp"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::accel {

int device_for_local_rank(int local_rank, int visible) {
  if (visible < 1)
    throw usage_error("--accelerator cuda: the driver sees no GPU");
  if (local_rank < 0)
    throw usage_error(fmt::format("--accelerator cuda: local rank {} (not a rank)", local_rank));
  return local_rank % visible;
}

std::optional<std::string> duplicate_gpu(const std::vector<std::string>& hosts,
                                         const std::vector<std::string>& pci) {
  std::map<std::pair<std::string, std::string>, std::size_t> first;
  for (std::size_t r = 0; r < hosts.size() && r < pci.size(); ++r) {
    const auto [it, fresh] = first.emplace(std::pair{hosts[r], pci[r]}, r);
    if (!fresh)
      return fmt::format("ranks {} and {} on host {} both drive GPU {}", it->second, r, hosts[r],
                         pci[r]);
  }
  return std::nullopt;
}

} // namespace dlsize::accel
