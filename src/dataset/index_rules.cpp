#include "dataset/index_rules.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "config/bench_rules.hpp"
#include "core/error.hpp"

namespace dlsize::dataset {

index_options index_options_of(const index_scan_request& r) {
  if (r.dir.empty())
    throw usage_error("index: DIR required (dlsize index DIR --out INDEX.json), or `dlsize "
                      "index stats INDEX`");
  const symlink_policy symlinks = core::parse_enum<symlink_policy>(r.symlinks, "--symlinks");
  if (r.threads < 1 || r.threads > 256)
    throw usage_error(fmt::format("--threads: {} is out of range. valid: 1 to 256", r.threads));
  if (!r.keys.empty() && !s3::is_s3_url(r.dir))
    throw usage_error(fmt::format("--keys: names objects of a bucket; '{}' is a folder. valid: "
                                  "DIR s3://BUCKET/PREFIX, or --files-from for a folder's paths",
                                  r.dir));
  index_options opt;
  opt.stall_timeout_s = config::stall_timeout_of(r.stall_timeout);
  opt.dir = r.dir;
  opt.out = r.out;
  opt.files_from = r.files_from;
  opt.threads = r.threads;
  opt.exclude = r.exclude;
  opt.metadata_only = r.metadata_only;
  opt.symlinks = symlinks;
  opt.progress = !r.quiet;
  return opt;
}

bucket_index_options bucket_index_options_of(const index_scan_request& r, s3::location where,
                                             s3::settings settings) {
  if (r.symlinks != "skip")
    throw usage_error("--symlinks: means nothing for a bucket (objects are not links). valid: "
                      "leave it out with s3://");
  if (!r.files_from.empty())
    throw usage_error("--files-from: lists paths of a folder. valid: --keys FILE for the keys of "
                      "a bucket");
  index_scan_request files = r;
  files.keys.clear();
  bucket_index_options opt;
  opt.scan = index_options_of(files);
  opt.scan.dir = where.url();
  opt.where = std::move(where);
  opt.settings = std::move(settings);
  opt.keys = r.keys;
  return opt;
}

index_bucket_identity bucket_identity(const s3::location& where, const s3::settings& settings) {
  return {settings.endpoints, where.bucket, where.prefix, settings.region,
          std::string(s3::addressing_name(settings.style))};
}

std::optional<key_line> parse_key_line(std::string_view line, const std::string& root,
                                       const std::string& where) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos)
    return std::nullopt;
  key_line k;
  const auto gap = line.find_last_of(" \t");
  if (gap != std::string_view::npos && gap + 1 < line.size()) {
    const std::string_view last = line.substr(gap + 1);
    const auto [end, ec] = std::from_chars(last.data(), last.data() + last.size(), k.size);
    if (ec == std::errc() && end == last.data() + last.size()) {
      k.has_size = true;
      line = line.substr(0, gap);
    }
  }
  k.key = std::string(line);
  const auto bad = std::find_if(k.key.begin(), k.key.end(),
                                [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  const char* why = k.key.rfind(root, 0) != 0 || k.key.size() == root.size()
                        ? "is not under the prefix"
                    : bad != k.key.end()  ? "holds a control character"
                    : k.key.size() > 1024 ? "is longer than S3's 1024 bytes"
                                          : nullptr;
  if (why)
    throw usage_error(fmt::format("--keys: {}: key '{}' {}. valid: one key a line, the whole key "
                                  "under '{}', then optionally a space and its size in bytes",
                                  where, k.key.substr(0, 200), why, root));
  return k;
}

} // namespace dlsize::dataset
