#pragma once
// Which gradients an allreduce bucket holds: a run of layers whose gradients lie contiguously
// in both parameter groups, closed once it reaches the bucket size, from the last layer back
// (the order the backward pass produces them). Pure logic, tested without a GPU.
#include <cstddef>
#include <vector>

namespace dlsize::cuda {

struct grad_bucket {
  int lowest_layer = 0;             // the bucket starts after this layer's backward
  std::size_t h_off = 0, h_len = 0; // range of the weight group (activation type)
  std::size_t f_off = 0, f_len = 0; // range of the fp32 group (biases, norm parameters)
};

// Buckets of about bucket_bytes from the last layer back; h_off/h_len and f_off/f_len are each
// layer's ranges in the weight group (elements of h_elem_bytes) and in the fp32 group.
inline std::vector<grad_bucket> plan_buckets(const std::vector<std::size_t>& h_off,
                                             const std::vector<std::size_t>& h_len,
                                             const std::vector<std::size_t>& f_off,
                                             const std::vector<std::size_t>& f_len,
                                             std::size_t h_elem_bytes, std::size_t bucket_bytes) {
  std::vector<grad_bucket> out;
  std::size_t bytes = 0;
  int hi = -1;
  for (int i = static_cast<int>(h_off.size()) - 1; i >= 0; --i) {
    const auto u = static_cast<std::size_t>(i);
    if (h_len[u] + f_len[u] == 0)
      continue;
    if (hi < 0)
      hi = i;
    bytes += h_len[u] * h_elem_bytes + f_len[u] * 4;
    if (bytes >= bucket_bytes || i == 0) {
      grad_bucket b;
      b.lowest_layer = i;
      const auto top = static_cast<std::size_t>(hi);
      b.h_off = h_off[u];
      b.h_len = h_off[top] + h_len[top] - h_off[u];
      b.f_off = f_off[u];
      b.f_len = f_off[top] + f_len[top] - f_off[u];
      out.push_back(b);
      bytes = 0;
      hi = -1;
    }
  }
  // Layers without parameters below the last bucket: close it at the lowest layer with some.
  if (hi >= 0) {
    int lo = hi;
    for (int i = hi; i >= 0; --i)
      if (h_len[static_cast<std::size_t>(i)] + f_len[static_cast<std::size_t>(i)])
        lo = i;
    const auto u = static_cast<std::size_t>(lo), top = static_cast<std::size_t>(hi);
    out.push_back({lo, h_off[u], h_off[top] + h_len[top] - h_off[u], f_off[u],
                   f_off[top] + f_len[top] - f_off[u]});
  }
  return out;
}

} // namespace dlsize::cuda
