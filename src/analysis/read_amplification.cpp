#include "analysis/read_amplification.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {

read_amplification amplification_of(double mean_bytes, config::file_layout layout,
                                    io::cache_mode mode) {
  if (!(mean_bytes > 0))
    throw usage_error(fmt::format("read amplification: sample size {} B is not valid. valid: "
                                  "above 0",
                                  mean_bytes));
  read_amplification a;
  if (mode != io::cache_mode::direct) {
    a.basis = fmt::format("{} reads: the page cache's pages and read-ahead are not modelled (1×, "
                          "a lower bound; a run measures it)",
                          io::to_string(mode));
    return a;
  }
  const auto len = static_cast<std::uint64_t>(std::llround(mean_bytes));
  if (layout == config::file_layout::files) {
    a.factor = static_cast<double>(io::align_up(len)) / mean_bytes;
    a.basis = fmt::format("O_DIRECT: a sample is a file, read from offset 0 to its end rounded up "
                          "to {} B",
                          io::kDirectAlign);
    return a;
  }
  // Records lie back to back in a shard, so a record's start is anywhere in a block: the mean
  // over every start offset of the aligned range the engine reads.
  double sum = 0;
  for (std::uint64_t o = 0; o < io::kDirectAlign; ++o)
    sum += static_cast<double>(io::align_up(o + len) - io::align_down(o));
  a.factor = sum / static_cast<double>(io::kDirectAlign) / mean_bytes;
  a.basis = fmt::format("O_DIRECT: each record's range widened to {} B blocks, averaged over "
                        "where in a block it starts",
                        io::kDirectAlign);
  return a;
}

} // namespace dlsize::analysis
