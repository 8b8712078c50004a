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

field<text_or_count> number_or_text(const std::map<std::string, std::string>& opts,
                                    const char* key) {
  const auto it = opts.find(key);
  if (it == opts.end())
    return field<text_or_count>::null();
  text_or_count out;
  std::uint64_t v = 0;
  const auto& s = it->second;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size())
    out.count = v;
  else
    out.text = s;
  return out;
}

} // namespace

sysinfo::mount_info mount_under(const std::filesystem::path& root,
                                const std::string& resolved_path) {
  return sysinfo::mount_in(read_fact(root / "proc/self/mountinfo").value_or(""), resolved_path);
}

mount_facts mount_facts_of(const sysinfo::mount_info& m) {
  mount_facts out{.mount_point = m.mount_point,
                  .source = m.source,
                  .fs_type = m.fs_type,
                  .options = m.options,
                  .super_options = m.super_options,
                  .dev = fmt::format("{}:{}", m.major, m.minor),
                  .nfs = field<nfs_facts>::null()};
  if (m.fs_type == "nfs" || m.fs_type == "nfs4") {
    const auto opts = options_of(m.super_options);
    const auto vers = opts.find("vers"); // vers stays text ("4.2", "3")
    out.nfs = nfs_facts{
        .vers = vers != opts.end() ? field<std::string>(vers->second) : field<std::string>::null(),
        .proto = number_or_text(opts, "proto"),
        .nconnect = opts.count("nconnect") ? number_or_text(opts, "nconnect")
                                           : field<text_or_count>(text_or_count{1, {}}),
        .rsize = number_or_text(opts, "rsize"),
        .wsize = number_or_text(opts, "wsize")};
  }
  return out;
}

} // namespace dlsize::telemetry
