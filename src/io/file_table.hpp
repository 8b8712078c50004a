#pragma once
// Files held open for a whole run (the keep-open mode, as fio does), with the descriptor limit
// raised as far as the hard limit allows. Closes them on destruction.
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "io/engine.hpp"

namespace dlsize::io {

class file_table {
public:
  // Opens every path with flags; throws usage_error when the descriptor limit is too low and
  // run_error naming the file when one cannot be opened.
  file_table(const file_set& files, int flags);
  ~file_table();
  file_table(const file_table&) = delete;
  file_table& operator=(const file_table&) = delete;
  const std::vector<int>& fds() const { return m_fds; }
  int fd(std::size_t i) const { return m_fds[i]; }

private:
  std::vector<int> m_fds;
};

// Opens one file for reading with flags (and O_NOATIME where permitted, io/noatime.hpp); returns
// the fd or throws run_error naming the file.
int open_for_read(const std::string& path, int flags);

// Drops a file's pages from the page cache (the uncached fallback where RWF_DONTCACHE is absent).
void drop_cached(int fd, std::uint64_t offset, std::uint64_t bytes);

// Drops a whole file from the page cache through a fresh descriptor (per-sample opens).
void drop_cached_file(const std::string& path);

// RWF_DONTCACHE (Linux 6.14, first named RWF_UNCACHED); older headers lack it.
inline constexpr int kRwfDontcache = 0x00000080;

// True when preadv2(RWF_DONTCACHE) works on this file with these flags.
bool dontcache_supported(const std::string& path, int flags);

} // namespace dlsize::io
