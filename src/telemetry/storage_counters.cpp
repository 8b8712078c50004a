#include "telemetry/storage_counters.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::telemetry {
namespace {

std::string slurp(const char* path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool to_u64(std::string_view s, std::uint64_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

// Splits a line into whitespace-separated fields.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t')
      ++j;
    if (j > i)
      out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename F> void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    if (f(line))
      return;
    if (nl == std::string_view::npos)
      return;
    text.remove_prefix(nl + 1);
  }
}

} // namespace

std::optional<std::uint64_t> diskstats_read_bytes(std::string_view diskstats, unsigned major,
                                                  unsigned minor, std::string* name) {
  std::optional<std::uint64_t> result;
  for_each_line(diskstats, [&](std::string_view line) {
    const auto f = fields(line);
    std::uint64_t ma = 0, mi = 0, sectors = 0;
    // major minor name reads merged sectors_read ...
    if (f.size() >= 6 && to_u64(f[0], ma) && to_u64(f[1], mi) && ma == major && mi == minor &&
        to_u64(f[5], sectors)) {
      result = sectors * 512;
      if (name)
        *name = std::string(f[2]);
      return true;
    }
    return false;
  });
  return result;
}

std::optional<std::uint64_t> diskstats_busy_ms(std::string_view diskstats, unsigned major,
                                               unsigned minor) {
  std::optional<std::uint64_t> result;
  for_each_line(diskstats, [&](std::string_view line) {
    const auto f = fields(line);
    std::uint64_t ma = 0, mi = 0, ticks = 0;
    // ... sectors_read ms_reading writes merged sectors ms_writing in_flight io_ticks ...
    if (f.size() >= 13 && to_u64(f[0], ma) && to_u64(f[1], mi) && ma == major && mi == minor &&
        to_u64(f[12], ticks)) {
      result = ticks;
      return true;
    }
    return false;
  });
  return result;
}

std::optional<std::uint64_t> nfs_server_read_bytes(std::string_view mountstats,
                                                   std::string_view mount_point) {
  std::optional<std::uint64_t> result;
  bool in_mount = false;
  for_each_line(mountstats, [&](std::string_view line) {
    const auto f = fields(line);
    if (f.size() >= 5 && f[0] == "device" && f[2] == "mounted" && f[3] == "on") {
      in_mount = f[4] == mount_point;
      return false;
    }
    // bytes: normalread normalwrite directread directwrite serverread serverwrite readpages ...
    std::uint64_t v = 0;
    if (in_mount && f.size() >= 6 && f[0] == "bytes:" && to_u64(f[5], v)) {
      result = v;
      return true;
    }
    return false;
  });
  return result;
}

std::optional<std::uint64_t> meminfo_bytes(std::string_view meminfo, std::string_view key) {
  std::optional<std::uint64_t> result;
  for_each_line(meminfo, [&](std::string_view line) {
    const auto f = fields(line);
    std::uint64_t kib = 0;
    if (f.size() >= 2 && f[0].size() == key.size() + 1 && f[0].substr(0, key.size()) == key &&
        f[0].back() == ':' && to_u64(f[1], kib)) {
      result = kib * 1024;
      return true;
    }
    return false;
  });
  return result;
}

storage_counter::storage_counter(sysinfo::mount_info mount) : m_mount(std::move(mount)) {
  if (m_mount.fs_type == "nfs" || m_mount.fs_type == "nfs4") {
    if (nfs_server_read_bytes(slurp("/proc/self/mountstats"), m_mount.mount_point)) {
      m_nfs = true;
      m_source = "nfs mountstats " + m_mount.mount_point;
    }
    return;
  }
  if (m_mount.major == 0)
    return; // no block device behind it
  std::string name;
  if (diskstats_read_bytes(slurp("/proc/diskstats"), m_mount.major, m_mount.minor, &name))
    m_source = "diskstats " + name;
}

std::uint64_t storage_counter::read_bytes() const {
  if (m_source.empty())
    return 0;
  if (m_nfs)
    return nfs_server_read_bytes(slurp("/proc/self/mountstats"), m_mount.mount_point).value_or(0);
  return diskstats_read_bytes(slurp("/proc/diskstats"), m_mount.major, m_mount.minor).value_or(0);
}

std::optional<std::uint64_t> storage_counter::busy_ms() const {
  if (m_source.empty() || m_nfs)
    return std::nullopt;
  return diskstats_busy_ms(slurp("/proc/diskstats"), m_mount.major, m_mount.minor);
}

memory_figures memory_now() {
  const std::string mi = slurp("/proc/meminfo");
  memory_figures m;
  m.page_cache_bytes = field<std::uint64_t>::of(meminfo_bytes(mi, "Cached"));
  m.available_bytes = field<std::uint64_t>::of(meminfo_bytes(mi, "MemAvailable"));
  m.free_bytes = field<std::uint64_t>::of(meminfo_bytes(mi, "MemFree"));
  return m;
}

} // namespace dlsize::telemetry
