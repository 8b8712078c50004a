#pragma once
// The one reader of JSON inputs (configs, workload profiles, calibrations, reports, manifests,
// sweep indexes). A file written by a script or by hand can be anything, so each input is
// bounded: it must be a regular file or a pipe (`--config <(jq ...)`), it is read up to a size
// limit of its kind, its nesting is limited while it is parsed (a 100000-deep `[[[...` neither
// recurses nor builds), and an object that gives a key twice is refused (the library would keep
// one silently). Every refusal is a usage_error (exit 2) naming the file, the key path (a JSON
// pointer) and what was expected; no library exception text reaches the user.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dlsize::core {

// The kind of a JSON input, for messages, and its limits.
struct json_limits {
  const char* kind;
  std::uint64_t max_bytes;
  std::size_t max_depth = 64;
  // A pipe that gives no byte for this long is refused, so a writer that never comes cannot
  // hang the command.
  std::chrono::milliseconds pipe_idle = std::chrono::seconds(30);
};

inline constexpr std::uint64_t kSmallJsonBytes = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kLargeJsonBytes = std::uint64_t{256} << 20;
inline constexpr json_limits kConfigJson{"config", kSmallJsonBytes};
inline constexpr json_limits kWorkloadJson{"workload profile", kSmallJsonBytes};
inline constexpr json_limits kCalibrationJson{"calibration", kSmallJsonBytes};
inline constexpr json_limits kReportJson{"report", kLargeJsonBytes};
inline constexpr json_limits kManifestJson{"dataset manifest", kLargeJsonBytes};
inline constexpr json_limits kIndexJson{"sweep index", kLargeJsonBytes};
inline constexpr json_limits kSchemaJson{"schema", kSmallJsonBytes};

// The bytes of a regular file or a pipe, at most limits.max_bytes of them. Throws usage_error
// for anything else (a folder, a device, a socket), for a missing or unreadable file, for an
// input over the limit (the figure named) and for a pipe idle past limits.pipe_idle.
std::string read_input_file(const std::filesystem::path& path, const json_limits& limits);

// Parses JSON text under the depth limit, refusing duplicate keys; throws usage_error
// "SOURCE: KEY PATH: what is wrong" (the path a JSON pointer, "/" for the top level).
nlohmann::json parse_json(std::string_view text, const std::string& source,
                          const json_limits& limits);

// read_input_file, then parse_json with the path as the source.
nlohmann::json read_json_file(const std::filesystem::path& path, const json_limits& limits);

// The text of a library exception without its "[json.exception.type_error.302] " prefix.
std::string json_error_text(const std::exception& e);

// A JSON pointer's text for a path of keys and indexes ("/summary/read_bytes_per_s"; "/" for
// the top level), escaping '~' and '/' in keys.
std::string pointer_text(const nlohmann::json::json_pointer& p);

} // namespace dlsize::core
