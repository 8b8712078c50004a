#pragma once
// Bytes the storage returns per byte a sample holds, from the request rule the I/O engine uses
// (io::basic_engine::read_range): O_DIRECT reads the sample's range widened to 4 KiB blocks,
// so a record that starts anywhere in a block costs its length plus about one block (resnet50's
// 114,660 B: 1.04×; bert-large's 7,060 B: 1.58×), and a sample that is a whole file costs its
// length rounded up to a block. Buffered and uncached reads go through the page cache, whose
// page granularity and read-ahead are not modelled: 1×, a lower bound, to be measured.
#include <cstdint>
#include <string>

#include "config/workload.hpp"
#include "io/engine.hpp"

namespace dlsize::analysis {

struct measured_dataset; // analysis/plan.hpp

struct read_amplification {
  double factor = 1; // bytes read ÷ sample bytes
  std::string basis; // how it was derived, in words
};

// For samples of mean_bytes in the layout, read in cache mode. Throws usage_error when
// mean_bytes is not positive.
read_amplification amplification_of(double mean_bytes, config::file_layout layout,
                                    io::cache_mode mode);

// Measured on an index: the bytes the engines' rule reads for every indexed sample over the
// samples' bytes, exactly (no mean), for the cache mode.
read_amplification amplification_of(const measured_dataset& m, io::cache_mode mode);

} // namespace dlsize::analysis
