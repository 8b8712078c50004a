#pragma once
// The lines of an index (dataset/index_file.hpp) as both scans write them, a folder's and a
// bucket's: a file's line from its probe, and a line for what was skipped, each counted.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/format_probe.hpp"
#include "dataset/index_journal.hpp"

namespace dlsize::dataset {

// Appends {"path": rel, FIELDS, "format", "samples", "records", "details", "problem"} and counts
// it in n. fields: the scan's own fields, written as `,"name":value...` (a file's size, mtime,
// inode; an object's size and ETag); it must hold "size". False, with nothing appended or
// counted, when rel is not valid UTF-8 (a JSON line cannot hold it).
bool append_file_line(std::string& buf, index_counts& n, std::string_view rel, std::uint64_t size,
                      std::string_view fields, const probe_result& r);

// Appends {"path", "skipped": kind, "reason": why} and counts it; a name that is not UTF-8 is
// written with U+FFFD for its odd bytes.
void append_skipped_line(std::string& buf, index_counts& n, std::string_view rel,
                         std::string_view kind, std::string_view why);

// Whether --exclude leaves rel out: a pattern (fnmatch) that matches the path or its last name.
bool index_excluded(const std::vector<std::string>& patterns, const std::string& rel);

// The JSON of a skipped file's line, {"path", "skipped", "reason"} (index_json.cpp), without its
// newline; bytes that are not UTF-8 are replaced.
std::string skipped_line_json(std::string_view rel, std::string_view kind, std::string_view why);

} // namespace dlsize::dataset
