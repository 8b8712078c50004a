#include "analysis/read_amplification.hpp"

#include <cmath>

#include <fmt/format.h>

#include "analysis/plan.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

std::string page_cache_basis(io::cache_mode mode) {
  return fmt::format("{} reads: the page cache's pages and read-ahead are not modelled (1×, "
                     "a lower bound; a run measures it)",
                     io::to_string(mode));
}

} // namespace

read_amplification amplification_of(double mean_bytes, config::file_layout layout,
                                    io::cache_mode mode) {
  if (!(mean_bytes > 0))
    throw usage_error(fmt::format("read amplification: sample size {} B is not valid. valid: "
                                  "above 0",
                                  mean_bytes));
  read_amplification a;
  if (mode != io::cache_mode::direct) {
    a.basis = page_cache_basis(mode);
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

read_amplification amplification_of(const measured_dataset& m, io::cache_mode mode) {
  if (!(m.sample_bytes > 0))
    throw usage_error(fmt::format("read amplification: the index {} holds no sample bytes. valid: "
                                  "an index of files that are not empty",
                                  m.index));
  read_amplification a;
  if (mode != io::cache_mode::direct) {
    a.factor = m.buffered_bytes / m.sample_bytes;
    a.basis = page_cache_basis(mode) + "; measured on the index's samples";
    return a;
  }
  a.factor = m.direct_bytes / m.sample_bytes;
  a.basis = fmt::format("O_DIRECT, measured on the index's {} samples: each sample's range "
                        "widened to {} B blocks where it lies, as the engines read it",
                        m.samples, io::kDirectAlign);
  return a;
}

} // namespace dlsize::analysis
