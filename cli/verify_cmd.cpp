// dlsize verify: re-read every record of a dataset and check it.
#include <cstdio>

#include "commands.hpp"
#include "core/units.hpp"
#include "dataset/verify.hpp"

namespace dlsize::cli {

void setup_verify(CLI::App& app, cli_context& ctx) {
  struct opts {
    std::string dataset;
    unsigned threads = 0;
    bool quiet = false;
  };
  auto o = std::make_shared<opts>();
  auto* sub = app.add_subcommand(
      "verify", "Re-read every record of a dataset and check headers and checksums");
  sub->add_option("dataset", o->dataset, "Dataset folder")->required();
  sub->add_option("--threads", o->threads, "Reader threads (default: one per CPU)");
  sub->add_flag("--quiet", o->quiet, "No progress line");
  sub->callback([o, &ctx] {
    auto r = dataset::verify_dataset(o->dataset, o->threads, !o->quiet);
    for (const auto& p : r.problems)
      std::fprintf(stderr, "mismatch: %s\n", p.c_str());
    std::printf("verify %s: %llu files, %llu records checked, %s in %.1f s: %s\n",
                o->dataset.c_str(), static_cast<unsigned long long>(r.files),
                static_cast<unsigned long long>(r.records_checked),
                units::format_bytes_binary(static_cast<double>(r.bytes)).c_str(), r.seconds,
                r.interrupted        ? "INTERRUPTED"
                : r.problems.empty() ? "OK"
                                     : "FAILED");
    if (!r.problems.empty())
      std::printf("%llu bad records in %zu files\n", static_cast<unsigned long long>(r.bad_records),
                  r.problems.size());
    ctx.exit_code = r.problems.empty() && !r.interrupted ? 0 : 1;
  });
}

} // namespace dlsize::cli
