#include "core/typed_value.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace dlsize::core {

nlohmann::json typed_value(const std::string& s) {
  if (s == "true")
    return true;
  if (s == "false")
    return false;
  if (!s.empty()) {
    char* end = nullptr;
    // Unsigned first, so that every seed up to 2^64 - 1 is recorded exactly (strtoll clamped
    // those above 2^63 - 1); an out-of-range integer is kept as text, not clamped.
    errno = 0;
    if (s[0] != '-') {
      const unsigned long long u = std::strtoull(s.c_str(), &end, 10);
      if (*end == '\0' && errno == 0)
        return static_cast<std::uint64_t>(u);
    } else {
      const long long i = std::strtoll(s.c_str(), &end, 10);
      if (*end == '\0' && errno == 0)
        return static_cast<std::int64_t>(i);
    }
    if (*end == '\0' && errno == ERANGE)
      return s;
    const double d = std::strtod(s.c_str(), &end);
    if (*end == '\0')
      return d;
  }
  return s;
}

} // namespace dlsize::core
