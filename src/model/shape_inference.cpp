// Shapes, parameters and MACs of an expanded layer list.
#include <fmt/format.h>

#include "core/error.hpp"
#include "model/model_spec.hpp"

namespace dlsize::model {

const char* to_string(op o) {
  switch (o) {
  case op::conv:
    return "conv";
  case op::conv_transpose:
    return "conv_transpose";
  case op::batch_norm:
    return "batch_norm";
  case op::instance_norm:
    return "instance_norm";
  case op::relu:
    return "relu";
  case op::max_pool:
    return "max_pool";
  case op::global_avg_pool:
    return "global_avg_pool";
  case op::fc:
    return "fc";
  case op::add:
    return "add";
  case op::concat:
    return "concat";
  }
  return "?";
}

std::uint64_t shape::positions() const {
  std::uint64_t p = 1;
  for (auto d : spatial)
    p *= d;
  return p;
}

std::string to_string(const shape& s) {
  std::string out;
  for (auto d : s.spatial)
    out += fmt::format("{}x", d);
  return out + std::to_string(s.channels);
}

std::uint64_t model_spec::params() const {
  std::uint64_t n = 0;
  for (const auto& l : layers)
    n += l.params;
  return n;
}

std::uint64_t model_spec::forward_macs() const {
  std::uint64_t n = 0;
  for (const auto& l : layers)
    n += l.macs;
  return n;
}

std::uint64_t model_spec::count(op kind) const {
  std::uint64_t n = 0;
  for (const auto& l : layers)
    n += l.kind == kind ? 1 : 0;
  return n;
}

int model_spec::find(const std::string& n) const {
  for (std::size_t i = 0; i < layers.size(); ++i)
    if (layers[i].name == n)
      return static_cast<int>(i);
  return -1;
}

namespace {

[[noreturn]] void bad(const model_spec& m, const layer& l, const std::string& what) {
  throw usage_error(
      fmt::format("{}: model.layers: {} ({}): {}", m.source, l.name, to_string(l.kind), what));
}

std::uint64_t kernel_volume(const layer& l, std::size_t rank) {
  std::uint64_t v = 1;
  for (std::size_t d = 0; d < rank; ++d)
    v *= l.kernel;
  return v;
}

// Output size of a convolution or pooling window along one dimension.
std::uint64_t window_out(const model_spec& m, const layer& l, std::uint64_t in) {
  const std::uint64_t span = l.dilation * (l.kernel - 1) + 1;
  if (in + 2 * l.pad < span)
    bad(m, l,
        fmt::format("kernel {} (dilation {}) is larger than its padded input {}x{} + 2 x {}",
                    l.kernel, l.dilation, in, in, l.pad));
  return (in + 2 * l.pad - span) / l.stride + 1;
}

} // namespace

void infer_shapes(model_spec& m) {
  if (m.input.spatial.empty() || m.input.spatial.size() > 3)
    throw usage_error(
        fmt::format("{}: model.input: needs 2 or 3 spatial dimensions and channels", m.source));
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    layer& l = m.layers[i];
    l.in = l.input < 0 ? m.input : m.layers[static_cast<std::size_t>(l.input)].out;
    const std::size_t rank = l.in.spatial.size();
    const std::uint64_t cin = l.in.channels;
    l.out = l.in;
    l.params = 0;
    l.macs = 0;
    switch (l.kind) {
    case op::conv:
      for (auto& d : l.out.spatial)
        d = window_out(m, l, d);
      l.out.channels = l.filters;
      l.params = kernel_volume(l, rank) * cin * l.filters + (l.bias ? l.filters : 0);
      l.macs = l.out.positions() * kernel_volume(l, rank) * cin * l.filters;
      break;
    case op::conv_transpose:
      for (auto& d : l.out.spatial) {
        const std::uint64_t grown = (d - 1) * l.stride + l.dilation * (l.kernel - 1) + 1;
        if (grown <= 2 * l.pad)
          bad(m, l, fmt::format("pad {} leaves no output", l.pad));
        d = grown - 2 * l.pad;
      }
      l.out.channels = l.filters;
      l.params = kernel_volume(l, rank) * cin * l.filters + (l.bias ? l.filters : 0);
      l.macs = l.in.positions() * kernel_volume(l, rank) * cin * l.filters;
      break;
    case op::batch_norm:
    case op::instance_norm:
      l.params = 2 * cin;
      break;
    case op::relu:
      break;
    case op::max_pool:
      for (auto& d : l.out.spatial)
        d = window_out(m, l, d);
      break;
    case op::global_avg_pool:
      for (auto& d : l.out.spatial)
        d = 1;
      break;
    case op::fc:
      for (auto& d : l.out.spatial)
        d = 1;
      l.out.channels = l.filters;
      l.params = l.in.elements() * l.filters + (l.bias ? l.filters : 0);
      l.macs = l.in.elements() * l.filters;
      break;
    case op::add: {
      const shape& o = m.layers[static_cast<std::size_t>(l.other)].out;
      if (!(o == l.in))
        bad(m, l, fmt::format("adds {} to {}: the shapes differ", to_string(o), to_string(l.in)));
      break;
    }
    case op::concat: {
      const shape& o = m.layers[static_cast<std::size_t>(l.other)].out;
      if (o.spatial != l.in.spatial)
        bad(m, l,
            fmt::format("joins {} and {}: the spatial sizes differ", to_string(l.in),
                        to_string(o)));
      l.out.channels = l.in.channels + o.channels;
      break;
    }
    }
    if (l.out.elements() == 0)
      bad(m, l, "has an empty output");
  }
}

} // namespace dlsize::model
