#pragma once
// Where a run's dataset is and what reads it: a folder (or an index) read by io's engines
// (io_uring, psync), or a bucket (s3://BUCKET/PREFIX) read by the s3 engine, whose jobs name
// object keys (PREFIX/<the file's relative path>). Bench's storage-only and training runs open
// their dataset, list its files and make their engine here, so the two kinds never part ways.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sysinfo.hpp"
#include "dataset/index_layout.hpp"
#include "dataset/layout.hpp"
#include "io/engine.hpp"
#include "report/bench_report.hpp"
#include "s3/location.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::pipeline {

// A dataset in a bucket: where, and how to reach it.
struct s3_dataset {
  s3::location where;
  s3::settings settings; // completed (s3::complete_settings)
};

// The dataset's layout: the bucket's manifest object, else the folder's manifest or the index.
dataset::dataset_layout open_run_dataset(const std::filesystem::path& dataset,
                                         const dataset::index_request& index,
                                         const std::string& workload,
                                         const std::optional<s3_dataset>& s3);

// The files the engine reads: object keys and the manifest's sizes for a bucket; for a folder,
// paths checked to exist with the manifest's sizes (check_files).
io::file_set run_files(const dataset::dataset_layout& layout, const std::optional<s3_dataset>& s3);

// The engine: s3 for a bucket (any other --engine is refused before this), else io's
// make_engine (fallback: why io_uring was not used).
std::unique_ptr<io::engine> make_run_engine(const io::engine_options& opt,
                                            const io::file_set& files,
                                            const std::optional<s3_dataset>& s3,
                                            std::string& fallback);

// The mount the dataset is on; for a bucket, fs_type "s3" and the bucket's URL as source.
sysinfo::mount_info run_mount(const std::filesystem::path& dataset,
                              const std::optional<s3_dataset>& s3);

// The host's provenance (telemetry::host_provenance); a bucket has no mount or block device.
telemetry::host_provenance_facts run_provenance(const std::filesystem::path& dataset,
                                                const std::optional<s3_dataset>& s3);

// The S3 figures of an s3 engine's run; nullopt for any other engine.
std::optional<s3::transfer_stats> s3_figures(const io::engine& eng);

// storage.s3: the bucket's identity and what the reads asked of it.
report::s3_section s3_section_of(const s3_dataset& s3, const s3::transfer_stats& figures);

} // namespace dlsize::pipeline
