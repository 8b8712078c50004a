#include "accel/emulated.hpp"

#include <utility>

#include "core/clock.hpp"

namespace dlsize::accel {

emulated_accelerator::emulated_accelerator(std::string type, compute_model model,
                                           std::string source)
    : m_type(std::move(type)), m_model(model), m_source(std::move(source)) {}

std::uint64_t emulated_accelerator::step(std::uint64_t start_ns) {
  m_last_ns = m_model.draw_ns();
  const std::uint64_t end = start_ns + m_last_ns;
  sleep_until_ns(end);
  return end;
}

} // namespace dlsize::accel
