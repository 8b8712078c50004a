#include "worker_options.hpp"

#include <fmt/format.h>

#include "s3_options.hpp"

namespace dlsize::cli {

void add_worker_options(CLI::App& cmd, unsigned& threads, std::string& stall_timeout, bool& quiet,
                        s3::settings& s3, std::string_view worker, std::string_view op) {
  cmd.add_option("--threads", threads, fmt::format("{} threads (default: one per CPU)", worker));
  cmd.add_option("--stall-timeout", stall_timeout,
                 fmt::format("Stop, naming the file, when no {} finished this long while one "
                             "waits (a hung mount); 0: never",
                             op))
      ->capture_default_str();
  cmd.add_flag("--quiet", quiet, "No progress line");
  add_s3_options(cmd, s3);
}

} // namespace dlsize::cli
