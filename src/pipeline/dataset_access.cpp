#include "pipeline/dataset_access.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "dlsize/build_config.hpp"
#include "pipeline/run_report.hpp"
#include "telemetry/host_provenance.hpp"

#if DLSIZE_HAVE_S3
#include "dataset/s3_dataset.hpp"
#include "s3/reader.hpp"
#endif

namespace dlsize::pipeline {

namespace {

#if !DLSIZE_HAVE_S3
[[noreturn]] void no_s3_client(const s3_dataset& s3) {
  throw usage_error(fmt::format("--dataset: this dlsize is built without the S3 client (libcurl), "
                                "so it cannot read {}. valid: a folder, or a dlsize built with "
                                "DLSIZE_WITH_S3",
                                s3.where.url()));
}
#endif

} // namespace

dataset::dataset_layout open_run_dataset(const std::filesystem::path& dataset,
                                         const dataset::index_request& index,
                                         const std::string& workload,
                                         const std::optional<s3_dataset>& s3) {
  if (!s3)
    return dataset::open_any_dataset(dataset, index, workload);
#if DLSIZE_HAVE_S3
  if (!index.index.empty())
    return dataset::open_indexed_bucket(index, s3->where, s3->settings, workload);
  return dataset::open_dataset(s3->where, s3->settings);
#else
  no_s3_client(*s3);
#endif
}

io::file_set run_files(const dataset::dataset_layout& layout, const std::optional<s3_dataset>& s3) {
  if (!s3)
    return check_files(layout);
  // Objects are not stat'ed one by one: a missing or short object fails its read, named.
  io::file_set fs;
  fs.paths.reserve(layout.files());
  fs.sizes.reserve(layout.files());
  for (std::uint64_t f = 0; f < layout.files(); ++f) {
    fs.paths.push_back(s3->where.key(layout.relative_path(f)));
    fs.sizes.push_back(layout.file_bytes(f));
  }
  return fs;
}

std::unique_ptr<io::engine> make_run_engine(const io::engine_options& opt,
                                            const io::file_set& files,
                                            const std::optional<s3_dataset>& s3,
                                            std::string& fallback) {
  if (!s3)
    return io::make_engine(opt, files, fallback);
#if DLSIZE_HAVE_S3
  return std::make_unique<s3::reader>(opt, files, s3::target_for(s3->settings, s3->where.bucket));
#else
  no_s3_client(*s3);
#endif
}

sysinfo::mount_info run_mount(const std::filesystem::path& dataset,
                              const std::optional<s3_dataset>& s3) {
  if (!s3)
    return sysinfo::mount_of(dataset.string());
  sysinfo::mount_info m;
  m.fs_type = "s3";
  m.source = s3->where.url();
  return m;
}

telemetry::host_provenance_facts run_provenance(const std::filesystem::path& dataset,
                                                const std::optional<s3_dataset>& s3) {
  if (!s3)
    return telemetry::host_provenance(dataset);
  // The path of an s3:// URL would resolve to the working folder's mount: not the dataset's.
  auto p = telemetry::host_provenance(std::filesystem::path("/"));
  p.mount = field<telemetry::mount_facts>::null();
  p.device = field<telemetry::block_device_facts>::null();
  return p;
}

std::optional<s3::transfer_stats> s3_figures(const io::engine& eng) {
#if DLSIZE_HAVE_S3
  if (const auto* s = dynamic_cast<const s3::reader*>(&eng))
    return s->stats();
#else
  (void)eng;
#endif
  return std::nullopt;
}

report::s3_section s3_section_of(const s3_dataset& s3, const s3::transfer_stats& figures) {
  report::s3_section s;
  s.endpoints = s3.settings.endpoints;
  s.bucket = s3.where.bucket;
  s.prefix = s3.where.prefix;
  s.region = s3.settings.region;
  s.addressing = std::string(s3::addressing_name(s3.settings.style));
  s.server = figures.server;
  s.requests = figures.requests;
  s.bytes = figures.bytes;
  s.retries = figures.retries;
  s.errors = figures.errors;
  s.connections_opened = figures.connections;
  s.retries_by_cause = nlohmann::json(figures.retries_by_cause);
  s.errors_by_cause = nlohmann::json(figures.errors_by_cause);
  s.first_byte = report::latency_summary_of(figures.first_byte);
  s.latency = report::latency_summary_of(figures.latency);
  s.max_retries = std::uint64_t{s3.settings.max_retries};
  s.retry_budget_s = s3.settings.retry_budget_s;
  const s3::transfer_stats other = s3::client_figures();
  if (other.requests > 0) {
    report::s3_requests_section o;
    o.requests = other.requests;
    o.retries = other.retries;
    o.errors = other.errors;
    o.retries_by_cause = nlohmann::json(other.retries_by_cause);
    o.errors_by_cause = nlohmann::json(other.errors_by_cause);
    s.other_requests = std::move(o);
  }
  s.settings_from = s3.settings.from.as_map();
  return s;
}

} // namespace dlsize::pipeline
