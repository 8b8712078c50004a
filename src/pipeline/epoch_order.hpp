#pragma once
// The order in which an epoch visits its units (samples or files): a new permutation every
// epoch, drawn from seed + epoch, identical on every host and in every run with that seed.
#include <cstdint>
#include <vector>

namespace dlsize::pipeline {

std::vector<std::uint32_t> epoch_permutation(std::uint64_t units, std::uint64_t seed,
                                             std::uint64_t epoch);

} // namespace dlsize::pipeline
