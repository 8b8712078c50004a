#include "dataset/index_stats_text.hpp"

#include <cstdio>

#include "core/units.hpp"

namespace dlsize::dataset {
namespace {

template <class T> std::string bytes_text(T v) {
  return units::format_bytes_binary(static_cast<double>(v));
}

void print_sizes(std::FILE* out, const char* name, const size_summary& d) {
  std::fprintf(out, "  %s: mean %s, stdev %s, p10 %s, p50 %s, p90 %s, p99 %s, max %s\n", name,
               bytes_text(d.mean).c_str(), bytes_text(d.stdev).c_str(), bytes_text(d.p10).c_str(),
               bytes_text(d.p50).c_str(), bytes_text(d.p90).c_str(), bytes_text(d.p99).c_str(),
               bytes_text(d.max).c_str());
}

} // namespace

void print_index_stats(const index_stats_document& s, std::FILE* out) {
  std::fprintf(out, "index %s of %s\n", s.index.c_str(), s.dir.c_str());
  std::fprintf(out, "  files: %llu (%s), samples: %llu, bytes per sample: %.0f\n",
               static_cast<unsigned long long>(s.files), bytes_text(s.bytes).c_str(),
               static_cast<unsigned long long>(s.samples), s.bytes_per_sample);
  print_sizes(out, "file_bytes", s.file_bytes);
  print_sizes(out, "sample_bytes", s.sample_bytes);
  const auto& f = s.files_per_folder;
  std::fprintf(out, "  folders: %llu, files per folder: mean %.1f, p50 %.0f, max %llu\n",
               static_cast<unsigned long long>(f.folders), f.mean, f.p50,
               static_cast<unsigned long long>(f.max));
  std::fprintf(out, "  sample size histogram (bytes):\n");
  for (const auto& b : s.sample_bytes.buckets)
    std::fprintf(out, "    [%s, %s): %llu\n", bytes_text(b[0]).c_str(), bytes_text(b[1]).c_str(),
                 static_cast<unsigned long long>(b[2]));
  for (const auto& [k, v] : s.formats)
    std::fprintf(out, "  format %s: %llu files, %llu samples\n", k.c_str(),
                 static_cast<unsigned long long>(v.files),
                 static_cast<unsigned long long>(v.samples));
  for (const auto& [k, v] : s.skipped)
    std::fprintf(out, "  skipped when indexed (%s): %llu\n", k.c_str(),
                 static_cast<unsigned long long>(v));
}

} // namespace dlsize::dataset
