#pragma once
// A child memory cgroup the whole process moves into, so that a memory limit bounds the page
// cache its reads build up (cgroup v1: memory.limit_in_bytes; v2: memory.max). The child is
// made under the process's own cgroup by its owner, which other processes (the ranks of one
// host) may join as members; each moves back when the object ends, and whoever leaves last
// removes the child.
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

// owner: makes the child; member: joins the child an owner made.
enum class cgroup_role { owner, member };

class memory_cgroup {
public:
  // owner: makes WHERE.dir/NAME and moves every thread of the process into it. Empty siblings
  // named like it that a killed run left (NAME's prefix up to the last '-', their pid gone) are
  // removed first. member: moves into WHERE.dir/NAME, which must exist. Throws usage_error,
  // naming the directory and what was tried, when no child can be made or joined (not mounted,
  // read-only, no permission, v2 without the controller, a member's child missing).
  memory_cgroup(const memory_cgroup_location& where, const std::string& name,
                cgroup_role role = cgroup_role::owner);
  ~memory_cgroup(); // release(), errors ignored
  memory_cgroup(const memory_cgroup&) = delete;
  memory_cgroup& operator=(const memory_cgroup&) = delete;

  // Throws run_error when the kernel refuses the limit.
  void set_limit(std::uint64_t bytes);
  // Throws run_error when the counters cannot be read.
  memory_charge charge() const;
  // Moves the process back to its cgroup and removes the child once no process is left in it:
  // a member tries once (others are still inside: the last to leave removes it); the owner
  // waits for its members to leave, up to 10 s. Throws run_error when the process cannot move
  // back, or the owner cannot remove the child (naming the processes still in it). Does
  // nothing the second time.
  void release();

  int version() const { return m_version; }
  const std::filesystem::path& dir() const { return m_dir; }
  // The child's path in the hierarchy (/proc/self/cgroup's form).
  const std::string& cgroup_path() const { return m_cgroup_path; }

private:
  int m_version;
  cgroup_role m_role;
  std::filesystem::path m_parent, m_dir;
  std::string m_cgroup_path;
  bool m_joined = false;
};

} // namespace dlsize::telemetry
