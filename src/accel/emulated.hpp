#pragma once
// The emulated accelerator: holds each batch for a compute time drawn from its model, sleeping
// to an absolute deadline (start + compute), so the oversleep of one step never shifts the
// next: a step that finds its batch ready starts at the previous deadline, not at wake-up.
#include <cstdint>
#include <string>

#include "accel/accelerator.hpp"
#include "accel/compute_model.hpp"

namespace dlsize::accel {

class emulated_accelerator final : public accelerator {
public:
  emulated_accelerator(std::string type, compute_model model, std::string source);
  std::string kind() const override { return "emulated"; }
  std::string device() const override { return "emulated:" + m_type; }
  std::uint64_t step(std::uint64_t start_ns) override;
  std::uint64_t last_busy_ns() const override { return m_last_ns; }
  nlohmann::json describe() const override;

private:
  std::string m_type;
  compute_model m_model;
  std::string m_source;
  std::uint64_t m_last_ns = 0;
};

} // namespace dlsize::accel
