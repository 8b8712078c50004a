#include "report/run_id.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::report {

std::string new_run_id() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      throw_syscall_error("getrandom", errno, __FILE__, __LINE__, "a report's run_id");
    got += static_cast<std::size_t>(n);
  }
  std::string out;
  for (const auto b : bytes)
    out += fmt::format("{:02x}", b);
  return out;
}

} // namespace dlsize::report
