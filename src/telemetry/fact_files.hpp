#pragma once
// Reading the small text files of /proc, /sys and /etc that host facts come from, under a root
// so that tests read fixture trees. A fact that cannot be read is absent, never an error: a
// report must be written on any host.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::telemetry {

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> read_fact(const std::filesystem::path& file);
// Its first line without surrounding white space, or nullopt.
std::optional<std::string> first_line_of(const std::filesystem::path& file);
// Its first line as an unsigned number, or nullopt when absent or not a number.
std::optional<std::uint64_t> number_in(const std::filesystem::path& file);
// The lines of a text, without their newlines.
std::vector<std::string_view> lines_of(std::string_view text);

} // namespace dlsize::telemetry
