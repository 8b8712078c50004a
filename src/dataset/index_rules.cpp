#include "dataset/index_rules.hpp"

#include <fmt/format.h>

#include "config/bench_rules.hpp"
#include "core/error.hpp"

namespace dlsize::dataset {

index_options index_options_of(const index_scan_request& r) {
  if (r.dir.empty())
    throw usage_error("index: DIR required (dlsize index DIR --out INDEX.json), or `dlsize "
                      "index stats INDEX`");
  if (r.symlinks != "skip" && r.symlinks != "follow")
    throw usage_error(
        fmt::format("--symlinks: invalid value '{}'. valid: skip, follow", r.symlinks));
  if (r.threads < 1 || r.threads > 256)
    throw usage_error(fmt::format("--threads: {} is out of range. valid: 1 to 256", r.threads));
  index_options opt;
  opt.stall_timeout_s = config::stall_timeout_of(r.stall_timeout);
  opt.dir = r.dir;
  opt.out = r.out;
  opt.files_from = r.files_from;
  opt.threads = r.threads;
  opt.exclude = r.exclude;
  opt.metadata_only = r.metadata_only;
  opt.symlinks = r.symlinks == "follow" ? symlink_policy::follow : symlink_policy::skip;
  opt.progress = !r.quiet;
  return opt;
}

} // namespace dlsize::dataset
