#pragma once
// The optional CPU preprocessing stage: real work on each sample's bytes, as a loader's
// decode and augmentation would do. Every byte is checksummed (CRC32C) and converted into a
// float buffer ((b − 127.5) / 127.5, as a normalization); when that costs less CPU time than
// --preprocess asks per sample, further passes over the float buffer (scale and shift, as an
// augmentation) make up the rest. Runs on the reader threads as completions arrive, so more
// --readers also means more preprocessing workers. One instance per reader thread.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlsize::pipeline {

class preprocessor {
public:
  // cost_ns: CPU time to spend per sample (0: the stage is off); max_chunk: the largest piece
  // of bytes fed at once (the request size).
  preprocessor(std::uint64_t cost_ns, std::size_t max_chunk);
  bool enabled() const { return m_cost_ns > 0; }
  // Works on a piece of a sample's bytes.
  void feed(const std::byte* data, std::size_t bytes);
  // A sample is complete: spends what is left of its CPU budget.
  void finish_sample();

  std::uint64_t samples() const { return m_samples; }
  std::uint64_t bytes() const { return m_bytes; }
  std::uint64_t cpu_ns() const { return m_cpu_ns; }
  std::uint64_t extra_passes() const { return m_passes; }
  // Folds every checksum and float sum so the work cannot be optimized away; reported.
  std::uint64_t digest() const;

private:
  std::uint64_t m_cost_ns;
  std::vector<float> m_floats;
  std::size_t m_valid = 0; // floats of the last piece
  std::uint32_t m_crc = 0;
  double m_sum = 0;
  std::uint64_t m_spent_ns = 0; // of the current sample(s)
  std::uint64_t m_budget_ns = 0;
  std::uint64_t m_samples = 0, m_bytes = 0, m_cpu_ns = 0, m_passes = 0;
};

} // namespace dlsize::pipeline
