#pragma once
// Owned device (cudaMalloc) and pinned host (cudaHostAlloc) allocations. A failed allocation
// names what it was for, its size and the device memory free, as an out-of-memory failure
// (exit 2: the batch does not fit).
#include <cstddef>
#include <string>
#include <utility>

namespace dlsize::cuda {

template <bool Pinned> class buffer {
public:
  buffer() = default;
  buffer(std::size_t bytes, const std::string& what);
  ~buffer() { release(); }
  buffer(buffer&& o) noexcept : m_p(std::exchange(o.m_p, nullptr)), m_bytes(o.m_bytes) {}
  buffer& operator=(buffer&& o) noexcept {
    if (this != &o) {
      release();
      m_p = std::exchange(o.m_p, nullptr);
      m_bytes = o.m_bytes;
    }
    return *this;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  void* get() const { return m_p; }
  template <typename T> T* as() const { return static_cast<T*>(m_p); }
  std::size_t bytes() const { return m_bytes; }

private:
  void release() noexcept;
  void* m_p = nullptr;
  std::size_t m_bytes = 0;
};

using device_buffer = buffer<false>;
using pinned_buffer = buffer<true>;

} // namespace dlsize::cuda
