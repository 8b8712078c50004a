#include "dataset/byte_source.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace dlsize::dataset {

bool fd_source::read(std::uint64_t off, void* buf, std::size_t n) const {
  if (off > m_size || n > m_size - off)
    return false;
  if (!m_head_read) {
    m_head_read = true;
    m_head_bytes = static_cast<std::size_t>(std::min<std::uint64_t>(m_size, m_head.size()));
    if (!pread_all(0, m_head.data(), m_head_bytes))
      return false;
  }
  if (off + n <= m_head_bytes) {
    std::memcpy(buf, m_head.data() + off, n);
    return true;
  }
  return pread_all(off, buf, n);
}

bool fd_source::pread_all(std::uint64_t off, void* buf, std::size_t n) const {
  auto* p = static_cast<char*>(buf);
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = pread(m_fd, p + done, n - done, static_cast<off_t>(off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      throw_syscall_error("pread", errno, __FILE__, __LINE__, fmt::format("file: {}", m_path));
    if (r == 0)
      return false; // shorter than its size said: changed while read
    done += static_cast<std::size_t>(r);
  }
  m_read += n;
  return true;
}

bool memory_source::read(std::uint64_t off, void* buf, std::size_t n) const {
  if (off > m_bytes.size() || n > m_bytes.size() - off)
    return false;
  std::memcpy(buf, m_bytes.data() + off, n);
  return true;
}

} // namespace dlsize::dataset
