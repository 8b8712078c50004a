#include "core/memory_budget.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"

namespace dlsize::core {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t p = 0;
  return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

void check_memory_budget(std::uint64_t bytes, const std::string& what, const std::string& valid,
                         std::uint64_t ram_bytes) {
  const std::uint64_t ram = ram_bytes ? ram_bytes : sysinfo::ram_bytes();
  if (ram == 0 || bytes <= ram)
    return;
  const std::string figure =
      bytes == UINT64_MAX ? std::string("more than 2^64 bytes")
                          : fmt::format("{} bytes ({})", bytes,
                                        units::format_bytes_binary(static_cast<double>(bytes)));
  throw usage_error(fmt::format("{} need {} of memory, more than this host's RAM ({} bytes, {}). "
                                "valid: {}",
                                what, figure, ram,
                                units::format_bytes_binary(static_cast<double>(ram)), valid));
}

} // namespace dlsize::core
