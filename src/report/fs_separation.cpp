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

std::optional<fs_separation_section> fs_separation_of(const std::string& data, const fs::path& out,
                                                      const std::string& what) {
  if (data.empty() || data.rfind("s3://", 0) == 0)
    return std::nullopt;
  const fs::path folder = fs::absolute(out).parent_path();
  const auto d = stat_of_place(data), r = stat_of_place(folder);
  if (!d || !r)
    return std::nullopt;
  fs_separation_section s;
  (what == "dataset" ? s.dataset : s.checkpoints) = data;
  (what == "dataset" ? s.dataset_device : s.checkpoints_device) = device_text(*d);
  s.results = folder.string();
  s.results_device = device_text(*r);
  s.separate = d->st_dev != r->st_dev;
  s.method = fmt::format("stat st_dev of the {} and of the report's folder (or of the nearest "
                         "existing parent of either)",
                         what);
  return s;
}

validity_rule fs_separation_rule(const std::optional<fs_separation_section>& recorded,
                                 const std::string& what, const std::string& source,
                                 const std::string& judge, bool object_store) {
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
  if (!recorded || !recorded->separate.has_value()) {
    v.measured = fmt::format("the report does not record the file systems of the {} and the "
                             "results",
                             what);
    return v;
  }
  const auto device = [](const field<std::string>& f) { return f.value_or("?"); };
  v.measured = fmt::format(
      "{} on {}, results on {}", what,
      device(what == "dataset" ? recorded->dataset_device : recorded->checkpoints_device),
      device(recorded->results_device));
  v.verdict = *recorded->separate ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

} // namespace dlsize::report
