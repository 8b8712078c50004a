#include "io/basic_engine.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "io/change_watch.hpp"

namespace dlsize::io {

basic_engine::basic_engine(const engine_options& opt, const file_set& files)
    : m_opt(opt), m_files(files), m_flags(open_flags(opt.cache)),
      m_inflight(opt.readers, std::max(1u, opt.queue_depth)) {
  if (m_opt.cache == cache_mode::uncached && !files.paths.empty())
    m_dontcache = dontcache_supported(files.paths.front(), m_flags);
  if (m_opt.keep_open) {
    const std::uint64_t t0 = now_ns();
    m_table = std::make_unique<file_table>(files, m_flags);
    m_open_s = static_cast<double>(now_ns() - t0) / 1e9;
  }
}

std::string basic_engine::uncached_method() const {
  if (m_opt.cache != cache_mode::uncached)
    return "";
  return m_dontcache ? "RWF_DONTCACHE" : "fadvise DONTNEED";
}

void basic_engine::read_range(const read_job& job, std::uint64_t& begin, std::uint64_t& end) const {
  const read_span s = span_of(job.offset, job.length, m_files.sizes[job.file], direct());
  begin = s.begin;
  end = s.end;
}

std::string basic_engine::stuck_read(std::uint64_t min_age_ns) const {
  const auto r = m_inflight.oldest();
  const std::uint64_t now = now_ns();
  if (!r || now - std::min(now, r->since_ns) < min_age_ns)
    return "";
  return describe(*r, m_files.paths.at(r->file), now);
}

void basic_engine::finish_result(const pool_result& pr, engine_result& res) const {
  for (std::size_t i = 0; i < pr.errors.size(); ++i)
    if (!pr.errors[i].empty() && res.error.empty())
      res.error = fmt::format("{} reader {} failed: {}", name(), i, pr.errors[i]);
  const std::uint64_t now = now_ns();
  for (const unsigned r : pr.abandoned) {
    const auto what = m_inflight.oldest_of(r);
    res.abandoned.push_back((what ? describe(*what, m_files.paths.at(what->file), now)
                                  : fmt::format("reader {} is blocked in the kernel", r)) +
                            "; the kernel does not release it, so it was abandoned");
  }
}

bool basic_engine::skip_changed(std::uint32_t file, int fd, int open_errno) const {
  if (!m_files.watch)
    return false;
  if (m_table)
    return m_files.watch->skipped(file);
  const std::string& path = m_files.paths[file];
  if (fd < 0)
    return m_files.watch->at_failed_open(open_errno, file, path);
  try {
    return m_files.watch->at_open(fd, file, path);
  } catch (...) {
    close(fd);
    throw;
  }
}

void basic_engine::drop_file(std::uint32_t file) const {
  drop_cached_file(m_files.paths[file]);
}

} // namespace dlsize::io
