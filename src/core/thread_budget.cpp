#include "core/thread_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize {
namespace {

std::uint64_t own_threads() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "Threads:") {
      std::uint64_t n = 0;
      in >> n;
      return n;
    }
    in.ignore(1 << 16, '\n');
  }
  return 1;
}

} // namespace

void check_thread_budget(std::uint64_t threads, const std::string& what) {
  if (geteuid() == 0)
    return;
  rlimit lim{};
  if (getrlimit(RLIMIT_NPROC, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return;
  const std::uint64_t need = threads + own_threads();
  if (need > lim.rlim_cur)
    throw usage_error(fmt::format(
        "{} need about {} threads, more than the limit on processes and threads allows "
        "(ulimit -u: {}). valid: fewer readers or accelerators per rank, or a higher limit",
        what, need, static_cast<std::uint64_t>(lim.rlim_cur)));
}

} // namespace dlsize
