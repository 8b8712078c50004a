#include "dataset/index_reads.hpp"

#include "dataset/index_stats.hpp"
#include "io/engine.hpp"

namespace dlsize::dataset {

nlohmann::json index_read_shape(const std::filesystem::path& index, std::uint32_t request_size) {
  // Sums of up to 2^53 bytes stay exact in a double; an index of more is beyond what a plan
  // needs to the byte.
  double sample_bytes = 0, direct = 0, direct_requests = 0, buffered = 0, buffered_requests = 0;
  nlohmann::json stats = index_stats(index, [&](const indexed_sample& s) {
    sample_bytes += static_cast<double>(s.length);
    const io::read_span d = io::span_of(s.offset, s.length, s.file_size, true);
    const io::read_span b = io::span_of(s.offset, s.length, s.file_size, false);
    direct += static_cast<double>(d.bytes());
    direct_requests += static_cast<double>(d.requests(request_size));
    buffered += static_cast<double>(b.bytes());
    buffered_requests += static_cast<double>(b.requests(request_size));
  });
  stats["reads"] = {{"request_size", request_size},
                    {"sample_bytes", sample_bytes},
                    {"direct", {{"bytes", direct}, {"requests", direct_requests}}},
                    {"buffered", {{"bytes", buffered}, {"requests", buffered_requests}}}};
  return stats;
}

} // namespace dlsize::dataset
