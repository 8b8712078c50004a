#include "config/option_table.hpp"

#include <array>

namespace dlsize::config {
namespace {

using namespace core;

constexpr std::uint64_t kU64 = ~std::uint64_t{0};
constexpr std::uint64_t kMillion = 1000000;
constexpr std::uint64_t kAccelerators = std::uint64_t{1} << 20;
constexpr double kBytes = 9223372036854775808.0; // 2^63 bytes (8 EiB)
constexpr double kRate = 1e16;                   // 10 PB/s
constexpr double kDay = 86400;
constexpr double kYear = 366 * kDay;

constexpr value_rule kPath = path_rule();
constexpr value_rule kText = text_rule();
constexpr value_rule kFlag = flag_rule();
constexpr value_rule kSeed = count_rule(0, kU64);
constexpr value_rule kTimeout = duration_rule(0, kYear);
constexpr value_rule kQueueDepth = count_rule(1, 4096);
constexpr value_rule kBatch = count_rule(0, kMillion); // 0: the profile's
constexpr value_rule kShare = real_rule(0, 1, true);

// Ranges are the widest that make sense; a command's own rules (bench_rules, check_engine_options,
// ...) may refuse more inside them, with their reasons.
constexpr std::array kTable{
    // The allreduce model's options (bench and plan).
    option_entry{"", "--allreduce", kText},
    option_entry{"", "--allreduce-dtype", kText},
    option_entry{"", "--allreduce-overlap", fraction_rule(true)},
    option_entry{"", "--intra-node-bandwidth", rate_rule(0, kRate)},
    option_entry{"", "--inter-node-bandwidth", rate_rule(0, kRate)},
    option_entry{"", "--nics-per-node", count_rule(0, 64)}, // 0: the server's
    option_entry{"", "--intra-node-latency", duration_rule(0, 10)},
    option_entry{"", "--inter-node-latency", duration_rule(0, 10)},
    option_entry{"", "--allreduce-calibration", kText}, // files, comma-separated
    option_entry{"", "--accelerators-per-node", count_rule(0, kAccelerators)},
    // The goodput model's (plan, size, compare).
    option_entry{"", "--mttf", duration_rule(0, 1000 * kYear)},
    option_entry{"", "--max-loss", fraction_rule(false)},
    option_entry{"", "--restart-overhead", duration_rule(0, kDay)},
    option_entry{"", "--goodput-accelerators", real_rule(1, 1048576)},
    option_entry{"", "--ranks-per-node", count_rule(0, kAccelerators)},
    option_entry{"", "--version", kFlag},
    option_entry{"", "--option-table", kFlag},
    // Where an s3:// dataset is (datagen, verify, bench and a sweep's bench block).
    option_entry{"", "--s3-endpoint", kText}, // URL[,URL...]: s3::complete_settings checks each
    option_entry{"", "--s3-region", kText},
    option_entry{"", "--s3-addressing", kText},
    option_entry{"", "--s3-profile", kText},
    option_entry{"", "--s3-ca-bundle", kPath},
    option_entry{"", "--s3-max-retries", count_rule(0, 100)},
    option_entry{"", "--s3-retry-budget", duration_rule(1, kDay)},

    option_entry{"datagen", "--workload", kText},
    option_entry{"datagen", "--dataset", kPath},
    option_entry{"datagen", "--size", size_rule(0, kBytes, true)},
    option_entry{"datagen", "--files", count_rule(1, 1000 * kMillion)},
    option_entry{"datagen", "--seed", kSeed},
    option_entry{"datagen", "--layout", kText},
    option_entry{"datagen", "--records-per-file",
                 count_rule(1, 8388608)},                     // dataset::kMaxRecordsPerFile
    option_entry{"datagen", "--threads", count_rule(0, 256)}, // 0: one per CPU
    option_entry{"datagen", "--stall-timeout", kTimeout},
    option_entry{"datagen", "--s3-part-size", size_rule(5 << 20, 5.0 * (1 << 30))}, // S3's limits
    option_entry{"datagen", "--quiet", kFlag},

    option_entry{"verify", "dataset", kPath},
    option_entry{"verify", "--threads", count_rule(0, 256)}, // 0: one per CPU
    option_entry{"verify", "--stall-timeout", kTimeout},
    option_entry{"verify", "--quiet", kFlag},

    option_entry{"bench", "--config", kPath},
    option_entry{"bench", "--replay", kPath},
    option_entry{"bench", "--workload", kText},
    option_entry{"bench", "--dataset", kPath},
    option_entry{"bench", "--index", kPath},
    option_entry{"bench", "--on-change", kText},
    option_entry{"bench", "--generate", size_rule(0, kBytes, true)},
    option_entry{"bench", "--accelerator", kText},
    option_entry{"bench", "--accelerators", count_rule(0, kAccelerators)}, // 0: per rank
    option_entry{"bench", "--accelerators-per-rank", count_rule(0, 4096)}, // 0: the share
    option_entry{"bench", "--rank-timeout", duration_rule(1, kYear)},
    option_entry{"bench", "--stall-timeout", kTimeout},
    option_entry{"bench", "--batch-size", kBatch},
    option_entry{"bench", "--compute-time", duration_rule(0, kDay)},
    option_entry{"bench", "--compute-time-stdev", duration_rule(0, kDay)},
    option_entry{"bench", "--au-threshold", fraction_rule(false)},
    option_entry{"bench", "--prefetch", count_rule(1, 1024)},
    option_entry{"bench", "--sync-steps", kFlag},
    option_entry{"bench", "--preprocess", duration_rule(0, 3600)},
    option_entry{"bench", "--precision", kText},
    option_entry{"bench", "--out", kPath},
    option_entry{"bench", "--status-interval", duration_rule(1, kYear)},
    option_entry{"bench", "--engine", kText},
    option_entry{"bench", "--cache", kText},
    option_entry{"bench", "--client-ram", size_rule(0, kBytes)},
    option_entry{"bench", "--queue-depth", kQueueDepth},
    option_entry{"bench", "--request-size", size_rule(4096, 64 << 20)},
    option_entry{"bench", "--readers", count_rule(1, 256)},
    option_entry{"bench", "--epochs", count_rule(1, 1000 * kMillion)},
    option_entry{"bench", "--seed", kSeed},
    option_entry{"bench", "--max-read-rate", rate_rule(0, kRate)},
    option_entry{"bench", "--nic-bandwidth", kText}, // RATE or [HOST:]NIC=RATE,...: parse_nic_rates
    option_entry{"bench", "--open", kText},
    option_entry{"bench", "--shard-read", kText},
    option_entry{"bench", "--time-limit", duration_rule(0, kYear)},
    option_entry{"bench", "--sample-interval", duration_rule(0.05, kDay)},
    option_entry{"bench", "--label", kText},
    option_entry{"bench", "--checkpoint-every", kText}, // STEPS or DURATION: its own rule
    option_entry{"bench", "--checkpoint-dir", kPath},
    option_entry{"bench", "--checkpoint-scale", kShare},
    option_entry{"bench", "--verify", kFlag},
    option_entry{"bench", "--check-only", count_rule(0, kAccelerators)}, // 0: a run
    option_entry{"bench", "--rules", kText},
    option_entry{"bench", "--quiet", kFlag},

    option_entry{"checkpoint", "--workload", kText},
    option_entry{"checkpoint", "--dir", kPath},
    option_entry{"checkpoint", "--writes", count_rule(0, kMillion)},
    option_entry{"checkpoint", "--reads", count_rule(0, kMillion)},
    option_entry{"checkpoint", "--scale", kShare},
    option_entry{"checkpoint", "--subset", kFlag},
    option_entry{"checkpoint", "--files-per-rank", count_rule(1, 4096)},
    option_entry{"checkpoint", "--keep", kFlag},
    option_entry{"checkpoint", "--keep-last", count_rule(0, kMillion)},       // 0: all
    option_entry{"checkpoint", "--check-only", count_rule(0, kAccelerators)}, // 0: a run
    option_entry{"checkpoint", "--read-shift", count_rule(0, kAccelerators)},
    option_entry{"checkpoint", "--out", kPath},
    option_entry{"checkpoint", "--label", kText},
    option_entry{"checkpoint", "--cache", kText},
    option_entry{"checkpoint", "--queue-depth", kQueueDepth},
    option_entry{"checkpoint", "--request-size", size_rule(4096, 1 << 30)},
    option_entry{"checkpoint", "--dedupe-percent", count_rule(0, 100)},
    option_entry{"checkpoint", "--compress-percent", count_rule(0, 100)},
    option_entry{"checkpoint", "--time-limit", duration_rule(0, kYear)},
    option_entry{"checkpoint", "--stall-timeout", kTimeout},
    option_entry{"checkpoint", "--no-verify", kFlag},
    option_entry{"checkpoint", "--drop-caches", kFlag},
    option_entry{"checkpoint", "--quiet", kFlag},
    option_entry{"checkpoint", "--rules", kText},
    option_entry{"checkpoint", "--accelerator", kText},
    option_entry{"checkpoint", "--s3-part-size", size_rule(5 << 20, 5.0 * (1 << 30))},

    option_entry{"plan", "--workload", kText},
    option_entry{"plan", "--accelerator", kText},
    option_entry{"plan", "--storage-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--measured-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--accelerators", count_rule(0, kAccelerators)},          // 0: what fits
    option_entry{"plan", "--accelerators-per-host", count_rule(0, kAccelerators)}, // 0: not asked
    option_entry{"plan", "--client-ram", size_rule(0, kBytes)},
    option_entry{"plan", "--clients", count_rule(1, kAccelerators)},
    option_entry{"plan", "--au-threshold", fraction_rule(false)},
    option_entry{"plan", "--batch-size", kBatch},
    option_entry{"plan", "--compute-time", duration_rule(0, kDay)},
    option_entry{"plan", "--cache", kText},
    option_entry{"plan", "--request-size", size_rule(1, 1 << 30)},
    option_entry{"plan", "--dataset-size", size_rule(0, kBytes)},
    option_entry{"plan", "--epochs", real_rule(0, 1e9)},
    option_entry{"plan", "--nic-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--nic-efficiency", fraction_rule(false)},
    option_entry{"plan", "--checkpoint-interval", kText}, // STEPS or DURATION: its own rule
    option_entry{"plan", "--max-overhead", fraction_rule(false)},
    option_entry{"plan", "--async", kFlag},
    option_entry{"plan", "--write-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--checkpoint-report", kPath},
    option_entry{"plan", "--staging-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--index", kPath},
    option_entry{"plan", "--s3", kFlag},
    option_entry{"plan", "--first-byte", duration_rule(0, 60)},
    option_entry{"plan", "--connection-bandwidth", rate_rule(0, kRate)},
    option_entry{"plan", "--max-requests-per-s", real_rule(0, 1e12)},
    option_entry{"plan", "--shard-read", kText},
    option_entry{"plan", "--out", kPath},
    option_entry{"plan", "--runs", kPath},

    option_entry{"compare", "reports", kPath},
    option_entry{"compare", "--out", kPath},
    option_entry{"compare", "--rules", kText},
    option_entry{"compare", "--markdown", kPath},
    option_entry{"compare", "--html", kPath},

    option_entry{"calibrate", "--workload", kText},
    option_entry{"calibrate", "--accelerator", kText},
    option_entry{"calibrate", "--allreduce", kPath},
    option_entry{"calibrate", "--out", kPath},
    option_entry{"calibrate", "--steps", count_rule(1, kMillion)},
    option_entry{"calibrate", "--warmup", count_rule(0, kMillion)},
    option_entry{"calibrate", "--batch-size", kBatch},
    option_entry{"calibrate", "--precision", kText},
    option_entry{"calibrate", "--algorithms", kText},
    option_entry{"calibrate", "--device", count_rule(0, 1023)},
    option_entry{"calibrate", "--learning-rate", real_rule(0, 1e6)}, // 0: 0.1 x batch / 256
    option_entry{"calibrate", "--seed", kSeed},
    option_entry{"calibrate", "--verbose", kFlag},

    option_entry{"sweep", "--config", kPath},
    option_entry{"sweep", "--out", kPath},
    option_entry{"sweep", "--dry-run", kFlag},

    option_entry{"size", "reports", kPath},
    option_entry{"size", "--out", kPath},
    // The target cluster and the buyer's prices: size and compare alike (cli/sizing_options).
    option_entry{"size|compare", "--target-accelerators", real_rule(1, 1e9)},
    option_entry{"size", "--rules", kText},
    option_entry{"size|compare", "--data-growth", real_rule(0, 1e6, true)},
    option_entry{"size|compare", "--headroom", real_rule(1, 1000)},
    option_entry{"size|compare", "--nic-bandwidth", rate_rule(0, kRate)},
    option_entry{"size|compare", "--nic-efficiency", fraction_rule(false)},
    option_entry{"size|compare", "--clients", count_rule(1, kAccelerators)},
    option_entry{"size|compare", "--client-ram", size_rule(0, kBytes)},
    option_entry{"size|compare", "--front-end-bandwidth", rate_rule(0, kRate)},
    option_entry{"size|compare", "--cache-model", kText},
    option_entry{"size|compare", "--accelerators-per-node", count_rule(1, kAccelerators)},
    option_entry{"size|compare", "--cache-bytes", kText}, // renamed: refused with the new name
    option_entry{"size|compare", "--dataset-size", size_rule(0, kBytes)},
    option_entry{"size|compare", "--backend", kText}, // LABEL:key=N,...: parse_backend_option
    option_entry{"size|compare", "--backends", kPath},

    option_entry{"validate", "files", kPath},
    option_entry{"validate", "--quiet", kFlag},

    option_entry{"export", "reports", kPath},
    option_entry{"export", "--csv", kPath}, // "-": stdout

    option_entry{"index", "dir", kPath},
    option_entry{"index", "--out", kPath},
    option_entry{"index", "--threads", count_rule(1, 256)},
    option_entry{"index", "--exclude", kText},
    option_entry{"index", "--symlinks", kText},
    option_entry{"index", "--files-from", kPath},
    option_entry{"index", "--keys", kPath},
    option_entry{"index", "--metadata-only", kFlag},
    option_entry{"index", "--stall-timeout", kTimeout},
    option_entry{"index", "--quiet", kFlag},
    option_entry{"index stats", "index", kPath},
    option_entry{"index stats", "--emit-workload", kPath},
    option_entry{"index stats", "--json", kFlag},
};

} // namespace

std::span<const option_entry> option_table() {
  return kTable;
}

namespace {

// Whether an entry's command ("size", or several as "size|compare") names command.
bool names_command(std::string_view entry, std::string_view command) {
  while (!entry.empty()) {
    const auto bar = entry.find('|');
    if (entry.substr(0, bar) == command)
      return true;
    entry = bar == std::string_view::npos ? std::string_view() : entry.substr(bar + 1);
  }
  return false;
}

} // namespace

const core::value_rule* option_rule(std::string_view command, std::string_view option) {
  const core::value_rule* shared = nullptr;
  for (const auto& e : kTable) {
    if (e.option != option)
      continue;
    if (names_command(e.command, command))
      return &e.rule;
    if (e.command.empty())
      shared = &e.rule;
  }
  return shared;
}

} // namespace dlsize::config
