#pragma once
// Files that appear whole or not at all, and never replace what was there.
#include <filesystem>
#include <string_view>

namespace dlsize {

// Writes content to path atomically: a temporary file in the same folder, fsync, then a
// link-into-place that fails if path exists. Throws usage_error if path exists (unless
// replace_own is true, for files dlsize itself owns, such as a dataset's state file) and
// run_error on I/O failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       bool replace_own = false);

// Whole file as a string; throws usage_error naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

} // namespace dlsize
