#include "io/basic_engine.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace dlsize::io {

basic_engine::basic_engine(const engine_options& opt, const file_set& files)
    : m_opt(opt), m_files(files), m_flags(open_flags(opt.cache)) {
  if (m_opt.cache == cache_mode::uncached && !files.paths.empty())
    m_dontcache = dontcache_supported(files.paths.front(), m_flags);
  if (m_opt.keep_open)
    m_table = std::make_unique<file_table>(files, m_flags);
}

std::string basic_engine::uncached_method() const {
  if (m_opt.cache != cache_mode::uncached)
    return "";
  return m_dontcache ? "RWF_DONTCACHE" : "fadvise DONTNEED";
}

void basic_engine::read_range(const read_job& job, std::uint64_t& begin, std::uint64_t& end) const {
  const std::uint64_t size = m_files.sizes[job.file];
  begin = job.offset;
  end = std::min(job.offset + job.length, size);
  if (direct()) {
    begin = align_down(begin);
    end = align_up(end);
  }
}

void basic_engine::drop_file(std::uint32_t file) const {
  drop_cached_file(m_files.paths[file]);
}

} // namespace dlsize::io
