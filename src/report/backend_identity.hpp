#pragma once
// Which backend a bench report measured: its name (--label, or "PATH (FS_TYPE)") and the facts
// that make two runs at one path different storage: file system type, mount source, block
// device, cgroup I/O limits on that device, --max-read-rate and the cache mode; for a dataset in
// a bucket, the endpoints, bucket, region, addressing and the server's Server header. compare and
// size group runs by key(), so two labelled backends at one path stay two series, and a run
// behind a cap or through the page cache is never pooled with one without.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"

namespace dlsize::report {

struct backend_identity {
  std::string label;          // --label, or "PATH (FS_TYPE)" when none was given
  std::string fs_type;        // dataset.fs_type
  std::string mount_source;   // storage.mount.source (older reports: dataset.device)
  std::string device;         // storage.device: "NAME (MODEL)", "" without a block device
  std::string io_limits;      // storage.io_limits as compact JSON, "" when none (for key())
  std::string io_limits_text; // the same as a person writes it: "read cap 500 MB/s on 7:0"
  double max_read_rate = 0;   // bytes/s; 0: not capped
  std::string cache_mode;     // io.cache_mode
  // A dataset in a bucket (storage.s3): "endpoints=URL,URL;bucket=B;region=R;addressing=A", and
  // the server's Server header; both "" for files.
  std::string object_store;
  std::string server;

  // Every field, "label=…;fs=…;…": equal exactly for runs of one backend.
  std::string key() const;
  // The label, with ", capped at X MB/s" when --max-read-rate stood in for a slower storage.
  std::string display_name() const;
};

// Reads the identity from a report (bench reports of any dlsize.report/1 version: fields that
// an older report lacks are empty).
backend_identity backend_identity_of(const bench_report& report);

// "PATH (FS_TYPE)": the name of a backend run without --label.
std::string default_label(const bench_report& report);

// Display names of several identities, one each: where two different identities share a name,
// the fields that tell them apart are added ("/data (ext4), cache buffered").
std::vector<std::string> distinct_names(const std::vector<backend_identity>& ids);

// cgroup I/O limits (storage.io_limits) as a person writes them: "read cap 500 MB/s on 7:0,
// 2000 read IOPS on 8:0"; "" for none.
std::string io_limits_text(const std::vector<telemetry::io_limit>& limits);
// The same as the report holds them, for key().
nlohmann::json io_limits_json(const std::vector<telemetry::io_limit>& limits);

// The report's `backend` block: label, label_given and identity (= key()).
backend_section backend_of(const bench_report& report);

} // namespace dlsize::report
