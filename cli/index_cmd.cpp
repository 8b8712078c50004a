// dlsize index: index a foreign dataset folder read-only (and `index stats`: its shape and a
// workload profile of the same shape).
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "config/bench_rules.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/units.hpp"
#include "dataset/index_rules.hpp"
#include "dataset/index_scan.hpp"
#include "dataset/index_stats.hpp"
#include "dataset/index_stats_text.hpp"
#include "dlsize/build_config.hpp"
#include "report/report_io.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"

namespace dlsize::cli {
namespace {

void setup_stats(CLI::App& index) {
  struct opts {
    std::string index;
    std::string workload;
    bool json = false;
  };
  auto o = std::make_shared<opts>();
  auto* sub = index.add_subcommand("stats", "The size distribution and shape of an index");
  sub->add_option("index", o->index, "Index file (dlsize index DIR --out INDEX)")->required();
  sub->add_option("--emit-workload", o->workload,
                  "Write a workload profile of this shape (for dlsize datagen)");
  sub->add_flag("--json", o->json, "Print the statistics as JSON");
  sub->callback([o] {
    const dataset::index_stats_document s = dataset::index_stats(o->index);
    if (o->json)
      std::printf("%s\n", dataset::to_json(s).dump(2).c_str());
    else
      dataset::print_index_stats(s);
    if (!o->workload.empty()) {
      const std::string name = std::filesystem::path(o->workload).stem().string();
      write_file_atomic(o->workload,
                        dataset::to_json(dataset::workload_of_shape(s, name)).dump(2) + "\n");
      std::fprintf(o->json ? stderr : stdout, "workload profile: %s\n", o->workload.c_str());
    }
  });
}

} // namespace

// What a scan that did not finish says: why, and where a rerun continues from.
void report_stopped(const dataset::index_summary& r, bool objects) {
  if (!r.stalled.empty())
    std::fprintf(stderr, "dlsize: index stalled: %s\n", r.stalled.c_str());
  else
    std::fprintf(stderr, "index: interrupted after %.1f s\n", r.seconds);
  std::fprintf(stderr,
               "index: no index written; resume state %s: rerun the same command to continue\n",
               r.resume_state.c_str());
  std::fflush(stderr);
  for (const auto& a : r.abandoned)
    std::fprintf(stderr, "dlsize: %s: %s\n",
                 objects ? "left waiting on the S3 server" : "stuck in the kernel", a.c_str());
}

// The line a finished scan prints: what it found, how fast, where the index went.
void print_done(const dataset::index_summary& r, const std::string& out, bool objects) {
  const auto& c = r.header.counts;
  std::uint64_t skipped = 0;
  for (const auto& [k, v] : c.skipped)
    skipped += v;
  std::string requests;
  if (objects && r.header.requests) {
    const auto& n = *r.header.requests;
    requests = fmt::format("; requests: {} LIST, {} HEAD, {} GET, {} retried", n.list, n.head,
                           n.get, n.retries);
  }
  std::printf(
      "index %s: %llu %s (%s), %llu samples, %llu %s, %llu skipped, %llu excluded in %.1f s "
      "(%.0f %s/s)%s%s: %s\n",
      r.header.dir.c_str(), static_cast<unsigned long long>(c.files), objects ? "objects" : "files",
      units::format_bytes_binary(static_cast<double>(c.bytes)).c_str(),
      static_cast<unsigned long long>(c.samples), static_cast<unsigned long long>(c.dirs),
      objects ? "prefixes" : "folders", static_cast<unsigned long long>(skipped),
      static_cast<unsigned long long>(c.excluded), r.seconds,
      r.seconds > 0 ? static_cast<double>(c.files) / r.seconds : 0.0, objects ? "objects" : "files",
      r.resumed ? fmt::format(", resumed ({} {} not read again)", r.units_resumed,
                              objects ? "prefixes or key batches" : "folders or batches")
                      .c_str()
                : "",
      requests.c_str(), out.c_str());
}

void setup_index(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<dataset::index_scan_request>();
  auto s3 = std::make_shared<s3::settings>();
  auto* sub = app.add_subcommand("index", "Index a dataset folder read-only (files, formats, "
                                          "records) for bench --index");
  sub->add_option("dir", o->dir,
                  "Dataset folder, or s3://BUCKET/PREFIX (nothing is written in either)");
  sub->add_option("--out", o->out,
                  "Index file to write (outside DIR); an interrupted scan leaves OUT.resume "
                  "beside it, and the same command continues from it");
  sub->add_option("--threads", o->threads, "Directory reader threads (default 8)");
  sub->add_option("--exclude", o->exclude,
                  "Leave out paths matching this pattern (fnmatch, on the path or the name; "
                  "repeatable)");
  sub->add_option("--symlinks", o->symlinks,
                  "skip (list them as skipped) or follow (index what they point to)");
  sub->add_option("--files-from", o->files_from,
                  "Index the paths listed in this file (one per line, relative to DIR) instead "
                  "of walking DIR");
  sub->add_option("--keys", o->keys,
                  "With s3://: index the keys listed in this file (one a line, the whole key, "
                  "optionally a space and its size; without a size, a HEAD) instead of listing "
                  "the bucket");
  sub->add_flag("--metadata-only", o->metadata_only,
                "Names and stats only (as find does): no file is opened, every file is one "
                "sample of format unprobed");
  sub->add_option("--stall-timeout", o->stall_timeout,
                  "End the scan, naming the path, when a metadata call or probe read has waited "
                  "this long (a hung mount); 0: never")
      ->capture_default_str();
  sub->add_flag("--quiet", o->quiet, "No progress line");
  add_s3_options(*sub, *s3);
  setup_stats(*sub);
  sub->callback([o, s3, sub, &ctx] {
    if (sub->get_subcommand("stats")->parsed())
      return;
    core::watch_inputs({config::stall_timeout_of(o->stall_timeout), 0});
    dataset::index_summary r;
    std::string out;
    const bool objects = s3::is_s3_url(o->dir);
    if (objects) {
#if DLSIZE_HAVE_S3
      auto where = s3_dataset(o->dir, "DIR", *s3);
      auto opt = dataset::bucket_index_options_of(*o, std::move(*where), *s3);
      opt.scan.tool = report::tool_json();
      opt.scan.created_at = report::utc_now();
      out = opt.scan.out.string();
      r = dataset::build_bucket_index(opt);
#else
      s3_dataset(o->dir, "DIR", *s3); // refuses s3:// in a build without the client
#endif
    } else {
      s3::refuse_s3_options(given_long_options(*sub), fmt::format("DIR '{}'", o->dir));
      dataset::index_options opt = dataset::index_options_of(*o);
      opt.tool = report::tool_json();
      opt.created_at = report::utc_now();
      out = opt.out.string();
      r = dataset::build_index(opt);
    }
    if (r.stopped()) {
      report_stopped(r, objects);
      ctx.exit_code = 1;
      return;
    }
    print_done(r, out, objects);
  });
}

} // namespace dlsize::cli
