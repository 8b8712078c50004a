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

nlohmann::json emulated_accelerator::describe() const {
  return {{"kind", "emulated"},
          {"type", m_type},
          {"compute_time_s", m_model.mean_s()},
          {"compute_time_stdev_s", m_model.stdev_s()},
          {"source", m_source}};
}

} // namespace dlsize::accel
