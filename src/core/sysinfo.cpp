#include "core/sysinfo.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace dlsize::sysinfo {

std::uint64_t ram_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
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
      if (pos != std::string::npos) return line.substr(pos + 2);
    }
  }
  return "unknown";
}

mount_info mount_of(const std::string& path) {
  std::error_code ec;
  std::string resolved = std::filesystem::weakly_canonical(path, ec).string();
  if (ec) resolved = path;
  mount_info best;
  std::size_t best_len = 0;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mount_point options [optional...] - fstype source superopts
    std::istringstream ss(line);
    std::string id, parent, majmin, root, mp, opts, tok;
    ss >> id >> parent >> majmin >> root >> mp >> opts;
    while (ss >> tok && tok != "-") {
    }
    std::string type, source, super;
    ss >> type >> source >> super;
    const bool prefix = resolved.rfind(mp, 0) == 0 &&
                        (mp == "/" || resolved.size() == mp.size() || resolved[mp.size()] == '/');
    if (prefix && mp.size() >= best_len) {
      best_len = mp.size();
      best.fs_type = type;
      best.mount_point = mp;
      best.source = source;
      best.options = opts;
      unsigned ma = 0, mi = 0;
      if (std::sscanf(majmin.c_str(), "%u:%u", &ma, &mi) == 2) {
        best.major = ma;
        best.minor = mi;
      }
    }
  }
  return best;
}

nlohmann::json host_json() {
  return {{"hostname", hostname()},
          {"cpus", online_cpus()},
          {"cpu_model", cpu_model()},
          {"ram_bytes", ram_bytes()},
          {"kernel", kernel_release()}};
}

}  // namespace dlsize::sysinfo
