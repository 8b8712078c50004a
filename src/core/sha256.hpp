#pragma once
// SHA-256 (FIPS 180-4), for provenance: the hash of a run's workload-defining settings, so that
// two runs of the same load can be shown to be the same. Not on any hot path.
#include <string>
#include <string_view>

namespace dlsize {

// The SHA-256 of the bytes, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

} // namespace dlsize
