#pragma once
// What reading an indexed dataset costs as the engines read it (plan --index): every sample's
// range through io::span_of, the one rule both engines read by, so that the read amplification
// and the requests come from the real sizes and offsets instead of a mean.
#include <cstdint>
#include <filesystem>

#include "dataset/index_stats_document.hpp"

namespace dlsize::dataset {

// An index's statistics and the reads of its samples.
struct index_read_shape_result {
  index_stats_document stats;
  index_reads reads;
};

// index_stats(index) with the reads: the bytes the reads of every sample return and the
// requests of at most request_size they take, with O_DIRECT (blocks) and without. One pass over
// the index. Throws usage_error for a bad or edited index, naming the file.
index_read_shape_result index_read_shape(const std::filesystem::path& index,
                                         std::uint32_t request_size);

} // namespace dlsize::dataset
