#pragma once
// A report's run_id: 128 random bits as 32 lowercase hex digits. Two reports with one run_id
// are copies of one run, which compare and size must not count as repeats.
#include <string>

namespace dlsize::report {

// Reads the kernel's random source; throws run_error when it fails.
std::string new_run_id();

} // namespace dlsize::report
