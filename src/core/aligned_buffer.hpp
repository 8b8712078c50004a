#pragma once
// Block-aligned heap memory for O_DIRECT buffers, freed with std::free.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace dlsize {

struct free_deleter {
  void operator()(void* p) const { std::free(p); }
};
using aligned_buffer = std::unique_ptr<std::byte, free_deleter>;

// bytes is rounded up to a multiple of align; throws std::bad_alloc when memory is short.
inline aligned_buffer make_aligned_buffer(std::size_t bytes, std::size_t align = 4096) {
  const std::size_t rounded = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded ? rounded : align);
  if (!p)
    throw std::bad_alloc();
  return aligned_buffer(static_cast<std::byte*>(p));
}

} // namespace dlsize
