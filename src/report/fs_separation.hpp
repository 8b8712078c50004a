#pragma once
// MLPerf Storage v3.0's file-system separation (Rules.md §3.4.2 for training data, §4.4.2 for
// checkpoints): the storage under test and the results (the report, its logs) on different file
// systems, so that writing the results adds no I/O to what is measured. dlsize records the device
// of each (stat's st_dev) before the run's first read or write, and judges the rule on that
// record, for bench and checkpoint alike.
#include <filesystem>
#include <optional>
#include <string>

#include "report/mlperf_validity.hpp"

namespace dlsize::report {

// The devices of the data and of the report's folder: what is "dataset" (bench) or "checkpoints"
// (checkpoint), the section's fields of that name. A path not yet made (a new checkpoint folder, a
// report's folder) is placed by its nearest existing parent, where it will be made. Stats run
// under the pre-run watch (core/input_watch.hpp). None where either cannot be stat'ed or data is
// empty or an s3:// URL.
std::optional<fs_separation_section> fs_separation_of(const std::string& data,
                                                      const std::filesystem::path& out,
                                                      const std::string& what);

// The rule judged on such a record (null or partial: not judged). An object store is not a file
// system: the rule is POSIX's (§3.4 and §4.4 are "Access Via POSIX API"), so a dataset or a
// checkpoint folder in a bucket passes with that said.
validity_rule fs_separation_rule(const std::optional<fs_separation_section>& recorded,
                                 const std::string& what, const std::string& source,
                                 const std::string& judge, bool object_store = false);

} // namespace dlsize::report
