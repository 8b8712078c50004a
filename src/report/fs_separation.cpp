#include "report/fs_separation.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <optional>

#include <fmt/format.h>

#include "core/input_watch.hpp"

namespace dlsize::report {
namespace fs = std::filesystem;
namespace {

// The stat of path, or of its nearest existing parent (where a new folder or file will land).
std::optional<struct stat> stat_of_place(fs::path p) {
  p = fs::absolute(p).lexically_normal();
  for (;;) {
    int err = 0;
    if (auto st = core::watched_stat(p, &err))
      return st;
    if (err != ENOENT || !p.has_relative_path())
      return std::nullopt;
    p = p.parent_path();
  }
}

std::string device_text(const struct stat& st) {
  return fmt::format("{}:{}", major(st.st_dev), minor(st.st_dev));
}

} // namespace

nlohmann::json fs_separation_json(const std::string& data, const fs::path& out,
                                  const std::string& what) {
  if (data.empty() || data.rfind("s3://", 0) == 0)
    return nullptr;
  const fs::path folder = fs::absolute(out).parent_path();
  const auto d = stat_of_place(data), r = stat_of_place(folder);
  if (!d || !r)
    return nullptr;
  return {{what, data},
          {what + "_device", device_text(*d)},
          {"results", folder.string()},
          {"results_device", device_text(*r)},
          {"separate", d->st_dev != r->st_dev},
          {"method", fmt::format("stat st_dev of the {} and of the report's folder (or of the "
                                 "nearest existing parent of either)",
                                 what)}};
}

validity_rule fs_separation_rule(const nlohmann::json& recorded, const std::string& what,
                                 const std::string& source, const std::string& judge,
                                 bool object_store) {
  validity_rule v;
  v.rule = fmt::format("{} and results on different file systems", what);
  v.source = source;
  v.judge = judge;
  if (object_store) {
    v.measured = fmt::format("the {} are in a bucket, not on a file system (the rule is for "
                             "POSIX access)",
                             what);
    v.verdict = rule_verdict::pass;
    return v;
  }
  if (!recorded.is_object() || !recorded.contains("separate") ||
      !recorded["separate"].is_boolean()) {
    v.measured = fmt::format("the report does not record the file systems of the {} and the "
                             "results",
                             what);
    return v;
  }
  const auto device = [&](const std::string& key) {
    const auto it = recorded.find(key);
    return it != recorded.end() && it->is_string() ? it->get<std::string>() : std::string("?");
  };
  v.measured = fmt::format("{} on {}, results on {}", what, device(what + "_device"),
                           device("results_device"));
  v.verdict = recorded["separate"].get<bool>() ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

} // namespace dlsize::report
