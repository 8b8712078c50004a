#pragma once
// Bounded reads of a file's bytes for the format probes: a descriptor in the scan, a buffer in
// the unit tests. Every read is checked against the size, so a header that points past the end
// of a file is an answer (false), never a read out of bounds.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dlsize::dataset {

// Integers of n bytes in a header, little-endian (most formats) or big-endian (JPEG, PNG).
inline std::uint64_t little_endian(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
inline std::uint32_t big_endian(const unsigned char* p, int n) {
  std::uint32_t v = 0;
  for (int i = 0; i < n; ++i)
    v = (v << 8) | p[i];
  return v;
}

class byte_source {
public:
  virtual ~byte_source() = default;
  virtual std::uint64_t size() const = 0;
  // True when all n bytes at off were read into buf; false when they lie past the end.
  // Throws run_error for an I/O error.
  virtual bool read(std::uint64_t off, void* buf, std::size_t n) const = 0;
};

// A file open for reading (the scan's descriptor; not closed here). Its first 4 KiB are read
// once, so the probes that each look at the first bytes cost one read, not one each.
class fd_source : public byte_source {
public:
  fd_source(int fd, std::uint64_t size, std::string_view path)
      : m_fd(fd), m_size(size), m_path(path) {}
  std::uint64_t size() const override { return m_size; }
  bool read(std::uint64_t off, void* buf, std::size_t n) const override;
  // Bytes read so far (the content scan's cost, kept apart from the metadata scan's).
  std::uint64_t bytes_read() const { return m_read; }

private:
  int m_fd;
  std::uint64_t m_size;
  std::string_view m_path;
  mutable std::uint64_t m_read = 0;
  mutable std::size_t m_head_bytes = 0;
  mutable bool m_head_read = false;
  mutable std::array<unsigned char, 4096> m_head;
  bool pread_all(std::uint64_t off, void* buf, std::size_t n) const;
};

// Bytes in memory.
class memory_source : public byte_source {
public:
  explicit memory_source(std::string_view bytes) : m_bytes(bytes) {}
  std::uint64_t size() const override { return m_bytes.size(); }
  bool read(std::uint64_t off, void* buf, std::size_t n) const override;

private:
  std::string_view m_bytes;
};

// A window [offset, offset + size) of another source (a stored member of a zip file).
class window_source : public byte_source {
public:
  window_source(const byte_source& inner, std::uint64_t offset, std::uint64_t size)
      : m_inner(inner), m_offset(offset), m_size(size) {}
  std::uint64_t size() const override { return m_size; }
  bool read(std::uint64_t off, void* buf, std::size_t n) const override {
    return off <= m_size && n <= m_size - off && m_inner.read(m_offset + off, buf, n);
  }

private:
  const byte_source& m_inner;
  std::uint64_t m_offset, m_size;
};

} // namespace dlsize::dataset
