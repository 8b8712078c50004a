#include "telemetry/mounts.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace {

std::map<std::string, std::string> options_of(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto comma = std::min(text.find(',', at), text.size());
    const std::string opt = text.substr(at, comma - at);
    const auto eq = opt.find('=');
    if (!opt.empty())
      out[opt.substr(0, eq)] = eq == std::string::npos ? "" : opt.substr(eq + 1);
    at = comma + 1;
  }
  return out;
}

nlohmann::json number_or_text(const std::map<std::string, std::string>& opts, const char* key) {
  const auto it = opts.find(key);
  if (it == opts.end())
    return nullptr;
  std::uint64_t v = 0;
  const auto& s = it->second;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() ? nlohmann::json(v) : nlohmann::json(s);
}

} // namespace

sysinfo::mount_info mount_under(const std::filesystem::path& root,
                                const std::string& resolved_path) {
  return sysinfo::mount_in(read_fact(root / "proc/self/mountinfo").value_or(""), resolved_path);
}

nlohmann::json mount_json(const sysinfo::mount_info& m) {
  nlohmann::json nfs = nullptr;
  if (m.fs_type == "nfs" || m.fs_type == "nfs4") {
    const auto opts = options_of(m.super_options);
    // vers stays text ("4.2", "3").
    nfs = {
        {"vers", opts.count("vers") ? nlohmann::json(opts.at("vers")) : nlohmann::json(nullptr)},
        {"proto", number_or_text(opts, "proto")},
        {"nconnect", opts.count("nconnect") ? number_or_text(opts, "nconnect") : nlohmann::json(1)},
        {"rsize", number_or_text(opts, "rsize")},
        {"wsize", number_or_text(opts, "wsize")}};
  }
  return {{"mount_point", m.mount_point},
          {"source", m.source},
          {"fs_type", m.fs_type},
          {"options", m.options},
          {"super_options", m.super_options},
          {"dev", fmt::format("{}:{}", m.major, m.minor)},
          {"nfs", nfs}};
}

} // namespace dlsize::telemetry
