#include "core/sysinfo.hpp"

#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dlsize::sysinfo {

std::uint64_t ram_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:")
      return kib * 1024;
  }
  return 0;
}

std::uint64_t available_bytes(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  while (!p.empty() && !std::filesystem::exists(p, ec) && p != p.parent_path())
    p = p.parent_path();
  struct statvfs vfs {};
  if (statvfs(p.c_str(), &vfs) != 0)
    return UINT64_MAX;
  return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

unsigned online_cpus() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

std::string hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string kernel_release() {
  utsname u{};
  uname(&u);
  return u.release;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto pos = line.find(':');
      if (pos != std::string::npos)
        return line.substr(pos + 2);
    }
  }
  return "unknown";
}

namespace {

// mountinfo escapes space, tab, newline and backslash in paths as \ooo.
std::string unescape_octal(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

} // namespace

mount_info mount_in(const std::string& mountinfo, const std::string& resolved) {
  mount_info best;
  std::size_t best_len = 0;
  std::istringstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mount_point options [optional...] - fstype source superopts
    std::istringstream ss(line);
    std::string id, parent, majmin, root, mp, opts, tok;
    ss >> id >> parent >> majmin >> root >> mp >> opts;
    mp = unescape_octal(mp);
    while (ss >> tok && tok != "-") {
    }
    std::string type, source, super;
    ss >> type >> source >> super;
    const bool prefix = !mp.empty() && resolved.rfind(mp, 0) == 0 &&
                        (mp == "/" || resolved.size() == mp.size() || resolved[mp.size()] == '/');
    if (prefix && mp.size() >= best_len) {
      best_len = mp.size();
      best.fs_type = type;
      best.mount_point = mp;
      best.source = unescape_octal(source);
      best.options = opts;
      best.super_options = super;
      unsigned ma = 0, mi = 0;
      if (std::sscanf(majmin.c_str(), "%u:%u", &ma, &mi) == 2) {
        best.major = ma;
        best.minor = mi;
      }
    }
  }
  return best;
}

mount_info mount_of(const std::string& path) {
  std::error_code ec;
  std::string resolved = std::filesystem::weakly_canonical(path, ec).string();
  if (ec)
    resolved = path;
  std::ifstream in("/proc/self/mountinfo");
  std::ostringstream text;
  text << in.rdbuf();
  return mount_in(text.str(), resolved);
}

} // namespace dlsize::sysinfo
