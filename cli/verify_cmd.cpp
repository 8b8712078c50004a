// dlsize verify: re-read every record of a dataset and check it.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "config/bench_rules.hpp"
#include "core/defaults.hpp"
#include "core/input_watch.hpp"
#include "core/units.hpp"
#include "dataset/verify.hpp"
#include "dlsize/build_config.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"
#include "worker_options.hpp"
#if DLSIZE_HAVE_S3
#include "dataset/s3_dataset.hpp"
#endif

namespace dlsize::cli {

void setup_verify(CLI::App& app, cli_context& ctx) {
  struct opts {
    std::string dataset;
    unsigned threads = 0;
    std::string stall_timeout = core::defaults::stall_timeout_text;
    bool quiet = false;
    s3::settings s3;
  };
  auto o = std::make_shared<opts>();
  auto* sub = app.add_subcommand(
      "verify", "Re-read every record of a dataset and check headers and checksums");
  sub->add_option("dataset", o->dataset, "Dataset folder, or s3://BUCKET/PREFIX")->required();
  add_worker_options(*sub, o->threads, o->stall_timeout, o->quiet, o->s3, "Reader", "read");
  sub->callback([o, sub, &ctx] {
    const double stall_s = config::stall_timeout_of(o->stall_timeout);
    core::watch_inputs({stall_s, 0});
    const auto where = s3_dataset(o->dataset, "dataset", o->s3);
    if (!where)
      s3::refuse_s3_options(given_long_options(*sub), fmt::format("'{}'", o->dataset));
#if DLSIZE_HAVE_S3
    auto r = where ? dataset::verify_s3_dataset(*where, o->s3, o->threads, !o->quiet, stall_s)
                   : dataset::verify_dataset(o->dataset, o->threads, !o->quiet, stall_s);
#else
    auto r = dataset::verify_dataset(o->dataset, o->threads, !o->quiet, stall_s);
#endif
    for (const auto& p : r.problems)
      std::fprintf(stderr, "mismatch: %s\n", p.c_str());
    if (!r.stalled.empty())
      std::fprintf(stderr, "dlsize: verify stalled: %s\n", r.stalled.c_str());
    std::printf("verify %s: %llu %s, %llu records checked, %s in %.1f s: %s\n", o->dataset.c_str(),
                static_cast<unsigned long long>(r.files), where ? "objects" : "files",
                static_cast<unsigned long long>(r.records_checked),
                units::format_bytes_binary(static_cast<double>(r.bytes)).c_str(), r.seconds,
                !r.stalled.empty()   ? "STALLED"
                : r.interrupted      ? "INTERRUPTED"
                : r.problems.empty() ? "OK"
                                     : "FAILED");
    if (!r.problems.empty())
      std::printf("%llu bad records in %zu %s\n", static_cast<unsigned long long>(r.bad_records),
                  r.problems.size(), where ? "objects" : "files");
    if (r.s3_requests)
      std::printf("S3: %s\n", s3::requests_text(*r.s3_requests).c_str());
    std::fflush(stdout);
    for (const auto& a : r.abandoned)
      std::fprintf(stderr, "dlsize: %s: %s\n",
                   where ? "left waiting on the S3 server" : "stuck in the kernel", a.c_str());
    ctx.exit_code = r.problems.empty() && !r.interrupted && r.stalled.empty() ? 0 : 1;
  });
}

} // namespace dlsize::cli
