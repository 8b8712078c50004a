#include "telemetry/cgroups.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace fs = std::filesystem;
namespace {

// v1 reports "no limit" as the largest page-aligned signed 64-bit number.
constexpr std::uint64_t kV1Unlimited = std::uint64_t{1} << 62;

using io_limits = std::map<std::string, std::map<std::string, std::uint64_t>>; // dev -> key -> v

void lower(std::optional<std::uint64_t>& have, std::uint64_t v) {
  if (!have || v < *have)
    have = v;
}

void lower(io_limits& have, const std::string& dev, const std::string& key, std::uint64_t v) {
  auto& d = have[dev];
  const auto it = d.find(key);
  if (it == d.end() || v < it->second)
    d[key] = v;
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() ? std::optional(v) : std::nullopt;
}

// "8:0 rbps=1048576 wbps=max riops=max wiops=max" lines of io.max.
void add_io_max(io_limits& have, std::string_view text) {
  for (const auto line : lines_of(text)) {
    std::istringstream ss{std::string(line)};
    std::string dev, kv;
    ss >> dev;
    while (ss >> kv) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos)
        continue;
      if (const auto v = to_u64(std::string_view(kv).substr(eq + 1)))
        lower(have, dev, kv.substr(0, eq), *v);
    }
  }
}

// "8:0 1048576" lines of a blkio.throttle.* file, as limit `key`.
void add_throttle(io_limits& have, std::string_view text, const std::string& key) {
  for (const auto line : lines_of(text)) {
    std::istringstream ss{std::string(line)};
    std::string dev, value;
    ss >> dev >> value;
    if (const auto v = to_u64(value); v && !dev.empty())
      lower(have, dev, key, *v);
  }
}

// The cgroup's directory and its ancestors up to the root (inside a container the path in
// /proc/self/cgroup may not exist under the namespace's root: then the root alone).
std::vector<fs::path> levels(const fs::path& root, const std::string& path) {
  std::vector<fs::path> out;
  fs::path rel = fs::path(path).relative_path();
  std::error_code ec;
  if (!fs::is_directory(root / rel, ec))
    rel.clear();
  for (;;) {
    out.push_back(root / rel);
    if (rel.empty())
      break;
    rel = rel.parent_path();
  }
  return out;
}

void lower(std::optional<double>& have, double v) {
  if (!have || v < *have)
    have = v;
}

// A CPU quota in cores from a v2 cpu.max ("max 100000" or "50000 100000").
std::optional<double> v2_quota_cores(std::string_view text) {
  std::istringstream ss{std::string(text)};
  std::string quota, period;
  ss >> quota >> period;
  const auto q = to_u64(quota), p = to_u64(period);
  return q && p && *p > 0 ? std::optional(static_cast<double>(*q) / static_cast<double>(*p))
                          : std::nullopt;
}

// The lowest CPU quota along a cgroup path, in cores (v1: cpu.cfs_quota_us ÷ cpu.cfs_period_us,
// -1 for none; v2: cpu.max); none without a quota.
std::optional<double> cpu_quota_cores(const fs::path& root, const cgroup_membership& m) {
  std::optional<double> cores;
  if (const auto it = m.v1_paths.find("cpu"); it != m.v1_paths.end()) {
    for (const auto& dir : levels(root / "cpu", it->second)) {
      const auto q = number_in(dir / "cpu.cfs_quota_us"); // "-1", no number: no quota
      const auto p = number_in(dir / "cpu.cfs_period_us");
      if (q && p && *p > 0)
        lower(cores, static_cast<double>(*q) / static_cast<double>(*p));
    }
  } else if (!m.v2_path.empty()) {
    for (const auto& dir : levels(root, m.v2_path))
      if (const auto v = v2_quota_cores(read_fact(dir / "cpu.max").value_or("")))
        lower(cores, *v);
  }
  return cores;
}

std::vector<io_limit> io_rows(const io_limits& io) {
  std::vector<io_limit> out;
  for (const auto& [dev, keys] : io) {
    const auto value = [&](const char* k) {
      const auto it = keys.find(k);
      return it == keys.end() ? field<std::uint64_t>::null() : field<std::uint64_t>(it->second);
    };
    io_limit e;
    e.device = dev;
    e.rbps = value("rbps");
    e.wbps = value("wbps");
    e.riops = value("riops");
    e.wiops = value("wiops");
    out.push_back(e);
  }
  return out;
}

} // namespace

cgroup_membership parse_proc_self_cgroup(std::string_view text) {
  cgroup_membership m;
  for (const auto line : lines_of(text)) {
    // hierarchy-id:controllers:path
    const auto a = line.find(':'), b = line.find(':', a == std::string_view::npos ? a : a + 1);
    if (a == std::string_view::npos || b == std::string_view::npos)
      continue;
    const std::string controllers(line.substr(a + 1, b - a - 1)), path(line.substr(b + 1));
    if (line.substr(0, a) == "0" && controllers.empty())
      m.v2_path = path;
    std::istringstream ss(controllers);
    for (std::string c; std::getline(ss, c, ',');)
      if (!c.empty() && c.rfind("name=", 0) != 0)
        m.v1_paths[c] = path;
  }
  return m;
}

namespace {

// mountinfo escapes blanks in paths as octal (\040).
std::string unescape_mount_path(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && s.size() - i >= 4) {
      const int v = (s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0');
      out.push_back(static_cast<char>(v));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

struct cgroup_mount {
  std::string root, point;
};

// The mount of the v1 hierarchy holding `controller`, or of cgroup2 when controller is empty.
std::optional<cgroup_mount> find_cgroup_mount(std::string_view mountinfo,
                                              const std::string& controller) {
  for (const auto line : lines_of(mountinfo)) {
    // ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS
    std::istringstream ss{std::string(line)};
    std::vector<std::string> f;
    for (std::string w; ss >> w;)
      f.push_back(w);
    const auto dash = std::find(f.begin(), f.end(), "-");
    if (f.size() < 5 || dash == f.end() || f.end() - dash < 4)
      continue;
    const std::string& type = dash[1];
    bool match = controller.empty() && type == "cgroup2";
    if (!controller.empty() && type == "cgroup") {
      std::istringstream opts(dash[3]);
      for (std::string o; std::getline(opts, o, ',');)
        match = match || o == controller;
    }
    if (match)
      return cgroup_mount{unescape_mount_path(f[3]), unescape_mount_path(f[4])};
  }
  return std::nullopt;
}

// The directory of cgroup `path` in a mount of its hierarchy, when the path lies under the
// mount's root.
std::optional<fs::path> dir_in_mount(const cgroup_mount& m, const std::string& path) {
  const fs::path rel = fs::path(path).lexically_relative(m.root);
  if (rel.empty() || *rel.begin() == "..")
    return std::nullopt;
  return (fs::path(m.point) / rel).lexically_normal();
}

} // namespace

memory_cgroup_location locate_memory_cgroup(std::string_view proc_self_cgroup,
                                            std::string_view mountinfo) {
  const cgroup_membership m = parse_proc_self_cgroup(proc_self_cgroup);
  memory_cgroup_location loc;
  const auto try_one = [&](int version, const std::string& path, const std::string& controller) {
    const auto mount = find_cgroup_mount(mountinfo, controller);
    const std::string what = version == 1 ? "v1 memory hierarchy" : "v2 (cgroup2) hierarchy";
    if (!mount) {
      loc.tried.push_back(fmt::format("{} of cgroup {}: not mounted", what, path));
      return false;
    }
    const auto dir = dir_in_mount(*mount, path);
    if (!dir) {
      loc.tried.push_back(fmt::format("{} of cgroup {}: mounted at {} from {}, which does not "
                                      "hold the cgroup",
                                      what, path, mount->point, mount->root));
      return false;
    }
    loc.version = version;
    loc.cgroup_path = path;
    loc.dir = *dir;
    return true;
  };
  if (const auto it = m.v1_paths.find("memory"); it != m.v1_paths.end()) {
    if (try_one(1, it->second, "memory"))
      return loc;
  } else {
    loc.tried.push_back("v1 memory controller: not in /proc/self/cgroup");
  }
  if (m.v2_path.empty())
    loc.tried.push_back("v2: no 0:: line in /proc/self/cgroup");
  else
    try_one(2, m.v2_path, "");
  return loc;
}

cgroup_facts cgroup_limits_of(std::string_view proc_self_cgroup, const fs::path& root) {
  const cgroup_membership m = parse_proc_self_cgroup(proc_self_cgroup);
  const std::string& v2_path = m.v2_path;
  const auto v1 = [&](const char* c) {
    const auto it = m.v1_paths.find(c);
    return it == m.v1_paths.end() ? std::string() : it->second;
  };
  const std::string memory_path = v1("memory"), blkio_path = v1("blkio");
  std::optional<std::uint64_t> memory;
  io_limits io;
  cgroup_facts out;
  out.version = field<std::uint64_t>::null();
  out.path = field<std::string>::null();
  if (!memory_path.empty() || !blkio_path.empty()) { // v1 (or hybrid: v1 holds the controllers)
    out.version = 1;
    out.path = memory_path.empty() ? blkio_path : memory_path;
    for (const auto& dir : levels(root / "memory", memory_path))
      if (const auto v = number_in(dir / "memory.limit_in_bytes"); v && *v < kV1Unlimited)
        lower(memory, *v);
    const std::map<std::string, std::string> throttles = {
        {"blkio.throttle.read_bps_device", "rbps"},
        {"blkio.throttle.write_bps_device", "wbps"},
        {"blkio.throttle.read_iops_device", "riops"},
        {"blkio.throttle.write_iops_device", "wiops"}};
    for (const auto& dir : levels(root / "blkio", blkio_path))
      for (const auto& [file, key] : throttles)
        add_throttle(io, read_fact(dir / file).value_or(""), key);
  } else if (!v2_path.empty()) {
    out.version = 2;
    out.path = v2_path;
    for (const auto& dir : levels(root, v2_path)) {
      if (const auto v = number_in(dir / "memory.max")) // "max" is no number: no limit
        lower(memory, *v);
      add_io_max(io, read_fact(dir / "io.max").value_or(""));
    }
  }
  out.memory_max_bytes = field<std::uint64_t>::of(memory);
  out.cpu_max_cores = field<double>::of(cpu_quota_cores(root, m));
  out.io_max = io_rows(io);
  return out;
}

} // namespace dlsize::telemetry
