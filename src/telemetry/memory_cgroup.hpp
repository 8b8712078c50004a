#pragma once
// A child memory cgroup the whole process moves into, so that a memory limit bounds the page
// cache its reads build up (cgroup v1: memory.limit_in_bytes; v2: memory.max). The child is
// made under the process's own cgroup, and removed (the process moved back first) when the
// object ends.
#include <cstdint>
#include <filesystem>
#include <string>

#include "telemetry/cgroups.hpp"

namespace dlsize::telemetry {

// What the child is charged: all of it, and the page cache's share (v1 memory.stat "cache",
// v2 "file"); the rest is the process's own memory (anonymous, kernel).
struct memory_charge {
  std::uint64_t usage_bytes = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t own_bytes() const {
    return usage_bytes > file_bytes ? usage_bytes - file_bytes : 0;
  }
};

class memory_cgroup {
public:
  // Makes WHERE.dir/NAME and moves every thread of the process into it. Empty siblings named
  // like it that a killed run left (NAME's prefix up to the last '-', their pid gone) are
  // removed first. Throws usage_error, naming the directory and what was tried, when no child
  // can be made or joined (not mounted, read-only, no permission, v2 without the controller).
  memory_cgroup(const memory_cgroup_location& where, const std::string& name);
  ~memory_cgroup(); // release(), errors ignored
  memory_cgroup(const memory_cgroup&) = delete;
  memory_cgroup& operator=(const memory_cgroup&) = delete;

  // Throws run_error when the kernel refuses the limit.
  void set_limit(std::uint64_t bytes);
  // Throws run_error when the counters cannot be read.
  memory_charge charge() const;
  // Moves the process back to its cgroup and removes the child; throws run_error on failure.
  // Does nothing the second time.
  void release();

  int version() const { return m_version; }
  const std::filesystem::path& dir() const { return m_dir; }
  // The child's path in the hierarchy (/proc/self/cgroup's form).
  const std::string& cgroup_path() const { return m_cgroup_path; }

private:
  int m_version;
  std::filesystem::path m_parent, m_dir;
  std::string m_cgroup_path;
  bool m_joined = false;
};

} // namespace dlsize::telemetry
