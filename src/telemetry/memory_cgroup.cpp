#include "telemetry/memory_cgroup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace fs = std::filesystem;
namespace {

// Writes text to a cgroup control file in one write (the kernel takes one value per write);
// returns 0 or the errno.
int write_control(const fs::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = n < 0 ? errno : 0;
  ::close(fd);
  return err;
}

std::uint64_t stat_value(std::string_view memory_stat, std::string_view key) {
  for (const auto line : lines_of(memory_stat)) {
    std::istringstream ss{std::string(line)};
    std::string k;
    std::uint64_t v = 0;
    if (ss >> k >> v && k == key)
      return v;
  }
  return 0;
}

bool lists_memory(const fs::path& controllers_file) {
  std::istringstream ss(read_fact(controllers_file).value_or(""));
  for (std::string c; ss >> c;)
    if (c == "memory")
      return true;
  return false;
}

// Children a killed run left behind: PREFIX-PID whose process is gone. rmdir refuses a cgroup
// that still holds a task, so a live one is never removed.
void remove_stale(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) != 0 || n.size() == prefix.size() ||
        n.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
      continue;
    if (!fs::exists(fs::path("/proc") / n.substr(prefix.size()), ec))
      ::rmdir(e.path().c_str());
  }
}

} // namespace

memory_cgroup::memory_cgroup(const memory_cgroup_location& where, const std::string& name,
                             cgroup_role role)
    : m_version(where.version), m_role(role), m_parent(where.dir), m_dir(where.dir / name),
      m_cgroup_path((fs::path(where.cgroup_path) / name).string()) {
  if (where.version == 0) {
    std::string tried;
    for (const auto& t : where.tried)
      tried += (tried.empty() ? "" : "; ") + t;
    throw usage_error(fmt::format("no memory cgroup can be made. tried: {}", tried));
  }
  if (role == cgroup_role::member) {
    if (const int err = write_control(m_dir / "cgroup.procs", std::to_string(::getpid())))
      throw usage_error(fmt::format("no memory cgroup can be joined: moving the process into "
                                    "the host's (cgroup.procs) failed: {}. dir: {}",
                                    errno_text(err), m_dir.string()));
    m_joined = true;
    return;
  }
  const auto dash = name.rfind('-');
  if (dash != std::string::npos)
    remove_stale(m_parent, name.substr(0, dash + 1));
  if (::mkdir(m_dir.c_str(), 0755) != 0 && errno != EEXIST) {
    const int err = errno;
    throw usage_error(fmt::format("no memory cgroup can be made: mkdir failed: {}. dir: {}; "
                                  "cgroup v{} of this process: {}",
                                  errno_text(err), m_dir.string(), m_version, where.cgroup_path));
  }
  const auto refuse = [&](const std::string& why) {
    ::rmdir(m_dir.c_str());
    throw usage_error(
        fmt::format("no memory cgroup can be made: {}. dir: {}", why, m_dir.string()));
  };
  if (m_version == 2 && !lists_memory(m_dir / "cgroup.controllers")) {
    // The parent must pass the controller down, which v2 refuses while it holds processes.
    const int err = write_control(m_parent / "cgroup.subtree_control", "+memory");
    if (!lists_memory(m_dir / "cgroup.controllers"))
      refuse(fmt::format("the v2 memory controller is not enabled for children of {} (writing "
                         "+memory to its cgroup.subtree_control: {})",
                         m_parent.string(), err ? errno_text(err) : "accepted, yet not enabled"));
  }
  const fs::path limit = m_dir / (m_version == 1 ? "memory.limit_in_bytes" : "memory.max");
  if (!fs::exists(limit))
    refuse(fmt::format("{} is missing", limit.filename().string()));
  if (const int err = write_control(m_dir / "cgroup.procs", std::to_string(::getpid())))
    refuse(fmt::format("moving the process into it (cgroup.procs) failed: {}", errno_text(err)));
  m_joined = true;
}

memory_cgroup::~memory_cgroup() {
  try {
    release();
  } catch (...) { // NOLINT(bugprone-empty-catch): a destructor does not throw; release() said
  }
}

void memory_cgroup::set_limit(std::uint64_t bytes) {
  const char* file = m_version == 1 ? "memory.limit_in_bytes" : "memory.max";
  if (const int err = write_control(m_dir / file, std::to_string(bytes)))
    throw run_error(fmt::format("setting the cache emulation's memory limit failed: {}. file: "
                                "{}; bytes: {}",
                                errno_text(err), (m_dir / file).string(), bytes));
}

memory_charge memory_cgroup::charge() const {
  const fs::path usage = m_dir / (m_version == 1 ? "memory.usage_in_bytes" : "memory.current");
  const auto u = number_in(usage);
  const auto stat = read_fact(m_dir / "memory.stat");
  if (!u || !stat)
    throw run_error(fmt::format("reading the cache emulation's memory charge failed. files: "
                                "{}, memory.stat",
                                usage.string()));
  return {*u, stat_value(*stat, m_version == 1 ? "cache" : "file")};
}

void memory_cgroup::release() {
  if (!m_joined)
    return;
  m_joined = false;
  if (const int err = write_control(m_parent / "cgroup.procs", std::to_string(::getpid())))
    throw run_error(fmt::format("moving the process back out of the cache emulation's cgroup "
                                "failed: {}. cgroup: {}",
                                errno_text(err), m_parent.string()));
  // The kernel may hold the emptied cgroup busy for a moment while it hands its charges up;
  // the owner also waits for its members, which leave when their own run ends.
  const int tries = m_role == cgroup_role::owner ? 1000 : 1;
  for (int i = 1;; ++i) {
    const int err = ::rmdir(m_dir.c_str()) == 0 ? 0 : errno;
    if (err == 0 || err == ENOENT || (err == EBUSY && m_role == cgroup_role::member))
      return;
    if (err != EBUSY || i >= tries) {
      std::string left = read_fact(m_dir / "cgroup.procs").value_or("");
      std::replace(left.begin(), left.end(), '\n', ' ');
      throw run_error(fmt::format("removing the cache emulation's cgroup failed: {}. dir: {}; "
                                  "processes still in it: {}",
                                  errno_text(err), m_dir.string(), left.empty() ? "none" : left));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace dlsize::telemetry
