#pragma once
// The lines of `dlsize index`'s resume state (dataset/index_journal.hpp) as typed values: the
// first line naming the scan (index_resume_head) and each chunk's trailer
// (index_chunk_trailer). dataset/index_journal_json.cpp alone turns them into JSON and back.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset/index_document.hpp"

namespace dlsize::dataset {

inline constexpr const char* kIndexResumeSchema = "dlsize.index-resume/1";

// A file with several hard links, as found in a unit (indexed once after the walk).
struct index_link {
  std::uint64_t dev = 0, ino = 0;
  std::string name;
};

// One unit's chunk trailer.
struct index_chunk {
  std::string unit; // "dir:REL" or "list:N"
  bool final = false;
  index_counts counts;
  std::vector<std::string> subdirs; // folders found in it, to walk
  std::vector<index_link> links;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> followed; // folders reached via symlinks
};

// The state's first line: what scan it is of.
struct index_resume_head {
  std::string schema = kIndexResumeSchema;
  index_scan_identity scan;
};

// The line after a chunk's index lines: the chunk, its lines' count and their digest's sum
// ("{:016x}").
struct index_chunk_trailer {
  index_chunk chunk;
  std::uint64_t lines = 0;
  std::string hash;
};

nlohmann::json to_json(const index_resume_head& h);
// The scan a state's first line names, as JSON (null when it names none), to compare with this
// scan's to_json and to show when they differ; nullopt when j is not a state's first line.
std::optional<nlohmann::json> resume_scan_of(const nlohmann::json& j);

// Names in trailers are written as hex: a file name may be any bytes, JSON text only UTF-8.
nlohmann::json to_json(const index_chunk_trailer& t);
// Throws nlohmann::json's errors or std::invalid_argument for what is not a whole trailer.
index_chunk_trailer trailer_from_json(const nlohmann::json& j);
// Whether a line of the state is a trailer (else an index line).
bool is_trailer_line(std::string_view line);

} // namespace dlsize::dataset
