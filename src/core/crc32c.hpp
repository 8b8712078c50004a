#pragma once
// CRC32C (Castagnoli), the checksum of every record's payload. Uses the SSE4.2 instruction where
// the CPU has it and a table otherwise; both give identical results.
#include <cstddef>
#include <cstdint>

namespace dlsize {

// Extends crc (start with 0) over len bytes.
std::uint32_t crc32c(std::uint32_t crc, const void* data, std::size_t len);

// True when the hardware path is in use.
bool crc32c_hardware();

} // namespace dlsize
