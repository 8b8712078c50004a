#pragma once
// dlsize index: a read-only, parallel scan of a foreign dataset folder into an index
// (dataset/index_file.hpp). Several threads read directories at once (as elbencho and fd do: a
// filer answers many metadata calls in parallel far faster than one after another), each file's
// format is recognised from its first bytes (dataset/format_probe.hpp), and nothing is ever
// written under DIR: files are opened read-only with O_NOATIME where permitted, there are no lock
// files, and the index's temporary files sit beside --out.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/defaults.hpp"
#include "core/enum_names.hpp"
#include "dataset/index_document.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {

class index_journal;

enum class symlink_policy { skip, follow };
inline constexpr core::enum_table<symlink_policy, 2> kSymlinkPolicyNames{
    {{symlink_policy::skip, "skip"}, {symlink_policy::follow, "follow"}}};
constexpr const auto& names_of(symlink_policy) {
  return kSymlinkPolicyNames;
}

struct index_options {
  std::filesystem::path dir;
  std::filesystem::path out;
  std::filesystem::path files_from; // a list of paths (relative to dir) instead of a walk
  unsigned threads = 8;
  std::vector<std::string> exclude; // fnmatch patterns on the relative path or the name
  symlink_policy symlinks = symlink_policy::skip;
  bool metadata_only = false; // names and stats only: no file is opened, formats "unprobed"
  bool progress = true;
  double stall_timeout_s =
      core::defaults::stall_timeout_s; // a metadata call or probe read hung this long ends the scan
  nlohmann::json tool;                 // report::tool_json()
  std::string created_at;              // UTC, ISO 8601
};

struct index_summary {
  index_header header; // the index's header line
  double seconds = 0;
  bool interrupted = false;           // a signal stopped the scan; no index was written
  std::string stalled;                // set when --stall-timeout stopped it: who waited on what
  std::vector<std::string> abandoned; // readers left in the kernel, each with its call
  std::filesystem::path resume_state; // beside --out: what a rerun continues from
  bool resumed = false;               // this run continued an interrupted one
  std::uint64_t units_resumed = 0;    // folders (or list batches) a rerun did not read again
  bool stopped() const { return interrupted || !stalled.empty(); }
};

// The end of a scan's watched run, as both scans (a folder's and a bucket's) settle it: a
// worker's error synced and thrown as run_error (the rerun continues); a stall or signal noted
// in out, the state synced, and true returned (no index is written then). what: what a stall
// waited on ("metadata call or probe read").
bool scan_stopped(const io::watched_result& ran, bool interrupted, double stall_timeout_s,
                  const char* what, index_journal& journal, index_summary& out);

// The summary's resume fields of a journal just opened, said on stderr when it resumes; units:
// what a unit is ("folders or list batches").
index_summary summary_of(const index_journal& journal, const char* units);
// Opens (or resumes) the scan's journal beside OUT under the pre-run watch: its resume state is
// read before any worker runs, so a hung mount there ends the command as any input does.
std::unique_ptr<index_journal> open_journal(const std::filesystem::path& out,
                                            const index_scan_identity& identity);

// The header of a finished scan, its counts and digest not yet set (write_index does).
index_header scan_header(const index_options& opt, const index_scan_identity& identity,
                         const index_summary& out);

// Scans and writes the index atomically. An interrupted or stalled scan leaves its resume state
// (dataset/index_journal.hpp) beside --out, and the same command continues from it. Throws
// usage_error for a missing or unreadable DIR, an --out that exists or lies under DIR, a resume
// state of another scan; run_error for a failure to write.
index_summary build_index(const index_options& opt);

} // namespace dlsize::dataset
