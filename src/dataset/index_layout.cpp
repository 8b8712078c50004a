#include "dataset/index_layout.hpp"

#include <sys/stat.h>

#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/memory_budget.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_rules.hpp"
#include "dataset/index_stats.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kNamedChanges = 100;

// One file line into the listing, its records checked against its size.
void add_file(file_listing& l, const index_line& line, const std::string& where, bool objects) {
  const std::string& path = line.path;
  if (path.empty() || path.front() == '/' || path.find("..") != std::string::npos)
    throw usage_error(fmt::format("{}: path '{}' is not inside DIR", where, path));
  if (!line.size)
    throw usage_error(fmt::format("{}: size: expected a whole number", where));
  const std::uint64_t size = *line.size;
  if (!line.mtime_ns && !objects) // an object's line has its ETag instead
    throw usage_error(fmt::format("{}: mtime_ns: expected a whole number", where));
  l.paths.push_back(path);
  l.sizes.push_back(size);
  l.mtime_ns.push_back(line.mtime_ns.value_or(0));
  if (!line.has_records) {
    l.record_offset.push_back(0);
    l.record_bytes.push_back(size);
  } else {
    if (!line.records)
      throw usage_error(fmt::format("{}: records: expected [[offset, length], ...]", where));
    for (const auto& [off, len] : *line.records) {
      if (len == 0 || off > size || len > size - off)
        throw usage_error(fmt::format("{}: records: [{}, {}] lies outside the file's {} bytes",
                                      where, off, len, size));
      l.record_offset.push_back(off);
      l.record_bytes.push_back(len);
    }
  }
  l.first_record.push_back(l.record_bytes.size());
}

// Why a file line's samples are not whole TFRecord records (what --verify checks); empty when
// they are.
std::string not_tfrecord(const index_line& line) {
  if (line.format != "tfrecord")
    return fmt::format("{} (format {}) is not a TFRecord", line.path,
                       line.format.empty() ? "unknown" : line.format);
  if (!line.has_records || line.problem)
    return fmt::format("{} is a TFRecord whose records the index could not locate ({})", line.path,
                       line.problem.value_or("no records"));
  return {};
}

// The listing of every file line, checked as read (the digest last, at the end). first_other
// names the first file whose samples are not TFRecord records (empty when there is none).
file_listing read_listing(index_reader& in, std::string& first_other) {
  file_listing l;
  l.first_record.push_back(0);
  const auto files = in.header().counts.files;
  const auto samples = in.header().counts.samples;
  core::check_memory_budget(
      files * 96 + samples * 20,
      fmt::format("the file table of {} indexed files and {} samples", files, samples),
      "an index of fewer files (dlsize index --exclude, or a subfolder)");
  index_line line;
  std::uint64_t n = 1;
  while (in.next(line)) {
    ++n;
    if (line.skipped)
      continue;
    add_file(l, line, fmt::format("{} (line {})", in.source(), n), in.header().s3.has_value());
    if (first_other.empty())
      first_other = not_tfrecord(line);
  }
  l.tfrecord = first_other.empty();
  return l;
}

// The files whose size or mtime differ from the index, or that are gone: the first stops the
// run, or (skip) each leaves the listing and is named.
file_listing check_unchanged(const file_listing& l, const fs::path& dir, on_change change,
                             report::index_changes& changed) {
  file_listing kept;
  kept.first_record.push_back(0);
  kept.tfrecord = l.tfrecord;
  std::uint64_t count = 0;
  std::vector<std::string> named;
  for (std::size_t f = 0; f < l.paths.size(); ++f) {
    const fs::path p = dir / l.paths[f];
    struct stat st {};
    std::string why;
    core::note_input_progress();
    if (stat(p.c_str(), &st) != 0)
      why = errno_text(errno);
    else if (static_cast<std::uint64_t>(st.st_size) != l.sizes[f])
      why = fmt::format("{} bytes, the index says {}", st.st_size, l.sizes[f]);
    else if (std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec != l.mtime_ns[f])
      why = "modified since it was indexed (mtime)";
    if (!why.empty()) {
      if (change == on_change::stop)
        throw run_error(fmt::format("dataset changed since it was indexed: {}. file: {}. valid: "
                                    "index the folder again, or --on-change skip",
                                    why, p.string()));
      ++count;
      if (named.size() < kNamedChanges)
        named.push_back(fmt::format("{}: {}", l.paths[f], why));
      continue;
    }
    kept.paths.push_back(l.paths[f]);
    kept.sizes.push_back(l.sizes[f]);
    kept.mtime_ns.push_back(l.mtime_ns[f]);
    for (std::uint64_t r = l.first_record[f]; r < l.first_record[f + 1]; ++r) {
      kept.record_offset.push_back(l.record_offset[r]);
      kept.record_bytes.push_back(l.record_bytes[r]);
    }
    kept.first_record.push_back(kept.record_bytes.size());
  }
  changed.count = count;
  changed.files = named;
  return kept;
}

} // namespace

on_change parse_on_change(const std::string& text) {
  return core::parse_enum<on_change>(text, "--on-change");
}

dataset_layout open_any_dataset(const fs::path& dir, index_request req,
                                const std::string& workload) {
  if (req.index.empty())
    return open_dataset(dir);
  req.dir = dir;
  // The index is read, and every file it lists looked up for changes, before the run: all of it
  // under the pre-run watch (a line or a file is progress), so a hung server stops it too.
  return core::watched_call(
      req.index, core::watched_action{"reading", "a read of it or a lookup of a file it lists"},
      [req, workload] { return open_indexed_dataset(req, workload); });
}

void check_index_use(const index_use& use) {
  const char* why = use.generate     ? "--generate: nothing is ever written into an indexed "
                                       "dataset's folder"
                    : use.client_ram ? "--client-ram: the cache emulation sizes a generated "
                                       "dataset; not yet an indexed one"
                    : use.stream ? "--shard-read stream with --accelerator none: a storage-only "
                                   "run streams whole files and counts records per file as "
                                   "a generated dataset's; indexed shards are streamed by "
                                   "training runs (--accelerator emulated:TYPE)"
                                 : nullptr;
  if (why)
    throw usage_error(fmt::format("{}. valid: leave it out with --index", why));
}

// The layout of the files (or objects) left to read, with the index's origin for the report.
dataset_layout indexed_layout(const index_reader& in, const index_request& req,
                              const std::string& workload, const file_listing& all, file_listing l,
                              const report::index_changes& changed) {
  if (l.paths.empty())
    throw usage_error(fmt::format("--index: '{}' leaves no file to read ({} listed, {} changed)",
                                  req.index.string(), all.paths.size(), changed.count.value_or(0)));
  size_distribution sizes;
  for (auto b : l.record_bytes)
    sizes.add(b);
  const auto& h = in.header();
  dataset_params p;
  p.workload = workload;
  const bool shards = l.record_bytes.size() > l.paths.size();
  p.layout = shards ? config::file_layout::shards : config::file_layout::files;
  p.format = "indexed";
  p.records_per_file =
      shards ? std::max<std::uint64_t>(1, l.record_bytes.size() / l.paths.size()) : 1;
  p.sample_bytes_mean = sizes.mean();
  p.sample_bytes_stdev = sizes.stdev();
  l.watch = std::make_shared<io::change_watch>(l.sizes, l.mtime_ns, l.paths,
                                               req.change == on_change::skip);
  const std::string& digest = h.digest;
  l.id = std::stoull(digest.substr(digest.find(':') + 1), nullptr, 16);
  report::index_origin o;
  o.path = fs::absolute(req.index).string();
  o.digest = digest;
  o.created_at = h.created_at;
  o.files_indexed = std::uint64_t{all.paths.size()};
  o.files_read = std::uint64_t{l.paths.size()};
  o.on_change = std::string(core::name_of(req.change));
  o.changed = changed;
  o.skipped_when_indexed = nlohmann::json(h.counts.skipped);
  o.formats = formats_json(h.counts);
  o.sample_bytes = to_json(sizes.summary());
  l.origin = std::move(o);
  return dataset_layout(in.dir(), p, std::move(l));
}

// An index must be of what it is read as: a folder's for a folder, a bucket's for s3://.
void check_index_kind(const index_reader& in, const index_request& req, bool objects) {
  if (in.header().s3.has_value() == objects)
    return;
  throw usage_error(
      objects ? fmt::format("--index: '{}' is an index of the folder '{}', not of a bucket. "
                            "valid: --dataset {} (a folder), or an index of the bucket (dlsize "
                            "index s3://BUCKET/PREFIX)",
                            req.index.string(), in.dir().string(), in.dir().string())
              : fmt::format("--index: '{}' is an index of the bucket {}, read through the s3 "
                            "engine. valid: --dataset {} with its --s3-endpoint, or no --dataset",
                            req.index.string(), in.dir().string(), in.dir().string()));
}

dataset_layout open_indexed_dataset(const index_request& req, const std::string& workload) {
  index_reader in(req.index);
  std::error_code ec;
  const fs::path dir = req.dir.empty() ? in.dir() : req.dir;
  if (!fs::is_directory(dir, ec))
    throw usage_error(fmt::format("--dataset: '{}' is not a folder{}. valid: the folder the index "
                                  "was made of",
                                  dir.string(), fs::exists(dir, ec) ? "" : " (missing)"));
  check_index_kind(in, req, false);
  if (fs::canonical(dir, ec) != in.dir())
    throw usage_error(fmt::format("--index: '{}' is an index of '{}', not of --dataset '{}'. "
                                  "valid: --dataset {} or an index of this folder",
                                  req.index.string(), in.dir().string(), dir.string(),
                                  in.dir().string()));
  std::string first_other;
  const file_listing all = read_listing(in, first_other);
  if (req.verify && !all.tfrecord)
    throw usage_error(fmt::format(
        "--verify: checks the masked CRC32C of TFRecord records, and every sample of an indexed "
        "dataset must be one; {}. valid: leave --verify out, or an index of TFRecord files only "
        "(dlsize index of the shards' folder, or --exclude the rest)",
        first_other));
  report::index_changes changed;
  file_listing l = check_unchanged(all, in.dir(), req.change, changed);
  return indexed_layout(in, req, workload, all, std::move(l), changed);
}

dataset_layout open_indexed_bucket(const index_request& req, const s3::location& where,
                                   const s3::settings& settings, const std::string& workload) {
  index_reader in(req.index);
  check_index_kind(in, req, true);
  check_bucket_index(in.header(), req.index.string(), where, settings);
  std::string first_other;
  const file_listing all = read_listing(in, first_other);
  if (req.verify && !all.tfrecord)
    throw usage_error(fmt::format("--verify: every sample of an indexed dataset must be a "
                                  "TFRecord record; {}. valid: leave --verify out",
                                  first_other));
  // Objects are not headed one by one before the run: one that changed size fails its read,
  // named by its key.
  report::index_changes changed;
  changed.count = std::uint64_t{0};
  changed.files = std::vector<std::string>{};
  return indexed_layout(in, req, workload, all, all, changed);
}

void check_bucket_index(const index_header& header, const std::string& index,
                        const s3::location& where, const s3::settings& settings) {
  const index_bucket_identity made = header.s3.value_or(index_bucket_identity{});
  const index_bucket_identity now = bucket_identity(where, settings);
  auto as_set = [](const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end());
  };
  struct field {
    const char* name;
    const char* option;
    bool same;
    nlohmann::json made, now;
  };
  const field fields[] = {
      {"bucket", "--dataset", made.bucket == now.bucket, made.bucket, now.bucket},
      {"prefix", "--dataset", made.prefix == now.prefix, made.prefix, now.prefix},
      {"endpoints", "--s3-endpoint", as_set(made.endpoints) == as_set(now.endpoints),
       made.endpoints, now.endpoints},
      {"region", "--s3-region", made.region == now.region, made.region, now.region},
      {"addressing", "--s3-addressing", made.addressing == now.addressing, made.addressing,
       now.addressing}};
  for (const auto& f : fields)
    if (!f.same)
      throw usage_error(fmt::format("{}: the index '{}' was made of {} with {} {}; this run has "
                                    "{}. valid: {} as the index was made, or an index made with "
                                    "this {}",
                                    f.option, index, header.dir, f.name, f.made.dump(),
                                    f.now.dump(), f.option, f.option));
}

} // namespace dlsize::dataset
