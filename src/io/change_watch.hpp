#pragma once
// A dataset that must not change while it is read (a user's own files, read through their
// index): each file is checked when a reader opens it, its size and mtime against what the index
// recorded, so that a file replaced, truncated, touched or removed after the run began is named
// instead of measured. The first change stops the run (the reader throws run_error naming the
// file: the engine's fatal error) unless changes are skipped, where the file's samples are left
// out, counted and the first files named. Shared by every reader of a run: the checks are a
// fstat (or a stat, for io_uring's direct descriptors) and a relaxed load per open.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::io {

class change_watch {
public:
  // sizes and mtime_ns per file, as the index recorded them; names: each file's path as the
  // report names it (relative to DIR). skip: leave a changed file's samples out instead of
  // stopping the run.
  change_watch(std::vector<std::uint64_t> sizes, std::vector<std::int64_t> mtime_ns,
               std::vector<std::string> names, bool skip);

  // After a successful open of file `file` at path: fstat(fd) against the index. True when the
  // job's samples are to be skipped (the file changed, skip mode); throws run_error naming the
  // file when it changed and changes stop the run.
  bool at_open(int fd, std::uint32_t file, const std::string& path);
  // The same by path, where the descriptor is io_uring's direct one (no fstat from user space).
  bool at_open_path(std::uint32_t file, const std::string& path);
  // After an open that failed with errno err: a file gone (ENOENT, ENOTDIR) is a change; other
  // errors are the caller's read error (false, nothing recorded).
  bool at_failed_open(int err, std::uint32_t file, const std::string& path);
  // A file found changed before (keep-open mode checks every file once, at the start).
  bool skipped(std::uint32_t file) const {
    return m_changed[file].load(std::memory_order_relaxed) != 0;
  }

  // The changes seen while reading: how many, and the first ones named ("PATH: why").
  struct changes {
    std::uint64_t count = 0;
    std::vector<std::string> files;
  };
  changes changes_seen() const;
  std::uint64_t count() const;

private:
  bool changed(std::uint32_t file, const std::string& path, const std::string& why);
  bool check(std::uint32_t file, const std::string& path, std::uint64_t size, std::int64_t mtime);

  std::vector<std::uint64_t> m_sizes;
  std::vector<std::int64_t> m_mtime_ns;
  std::vector<std::string> m_names;
  bool m_skip;
  std::unique_ptr<std::atomic<std::uint8_t>[]> m_changed;
  mutable std::mutex m_m;
  std::uint64_t m_count = 0;
  std::vector<std::string> m_named;
};

} // namespace dlsize::io
