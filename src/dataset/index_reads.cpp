#include "dataset/index_reads.hpp"

#include "dataset/index_stats.hpp"
#include "io/engine.hpp"

namespace dlsize::dataset {

index_read_shape_result index_read_shape(const std::filesystem::path& index,
                                         std::uint32_t request_size) {
  // Sums of up to 2^53 bytes stay exact in a double; an index of more is beyond what a plan
  // needs to the byte.
  index_read_shape_result r;
  index_reads& n = r.reads;
  n.request_size = request_size;
  r.stats = index_stats(index, [&](const indexed_sample& s) {
    n.sample_bytes += static_cast<double>(s.length);
    const io::read_span d = io::span_of(s.offset, s.length, s.file_size, true);
    const io::read_span b = io::span_of(s.offset, s.length, s.file_size, false);
    n.direct.bytes += static_cast<double>(d.bytes());
    n.direct.requests += static_cast<double>(d.requests(request_size));
    n.buffered.bytes += static_cast<double>(b.bytes());
    n.buffered.requests += static_cast<double>(b.requests(request_size));
  });
  return r;
}

} // namespace dlsize::dataset
