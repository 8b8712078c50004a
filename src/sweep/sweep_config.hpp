#pragma once
// A sweep config (docs/sizing.md): one bench load on one backend, run at several accelerator
// counts and, optionally, dataset variants or cache modes, every point repeated with seeds
// from one policy, each point a `dlsize bench` process started directly or through a launcher
// (mpirun, srun) without a shell.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/engine.hpp"

namespace dlsize::sweep {

// A dataset variant: a name and the bench options it sets (dataset, generate, ...).
struct sweep_dataset {
  std::string name;
  nlohmann::json options;
};

struct sweep_config {
  std::string command = "bench"; // or "checkpoint": points are dlsize checkpoint jobs of `ranks`
  std::string source;
  nlohmann::json given; // the config as written (a resumed sweep must match it)
  nlohmann::json bench; // options of the command common to every point
  std::vector<std::uint64_t> accelerators;
  std::vector<std::uint64_t> ranks;    // checkpoint sweeps: the rank counts
  std::vector<sweep_dataset> datasets; // empty: the dataset of `bench`
  std::vector<io::cache_mode> caches;  // empty: the cache mode of `bench`
  std::uint64_t repeats = 3;
  // "repeats": every point once before the next repeat (a slow drift of the machine spreads
  // over all counts); "points": a point's repeats back to back, as MLPerf Storage v3.0 asks of
  // the runs of one point (consecutive, §2.1.18). Default: points with 6 repeats or more under
  // v3.0 rules (the bench block's "rules", v3 when not given), repeats otherwise.
  std::string order = "repeats";
  std::string order_source = "default"; // "default" or "config"
  std::uint64_t seed = 1;
  std::string seed_policy = "per-repeat";  // per-repeat: seed + repeat; fixed: seed
  std::vector<std::string> launcher;       // empty: dlsize bench is started directly
  std::uint64_t accelerators_per_rank = 0; // with a launcher: ranks = accelerators / this
};

struct sweep_point {
  std::string id; // "n4-r2", with the dataset variant and cache mode when swept
  std::uint64_t accelerators = 0, repeat = 0, seed = 0, ranks = 1; // accelerators 0: checkpoint
  bool seeded = true;                                              // a checkpoint run takes no seed
  std::string dataset;                 // empty when that axis is not swept
  std::optional<io::cache_mode> cache; // none when that axis is not swept
  // The options the config gives this point (bench's, then its dataset variant's); point_argv
  // adds those the sweep sets (cache, accelerators, seed, accelerators-per-rank).
  nlohmann::json options;
};

// Checks a config. bench_keys, checkpoint_keys: the long option names of dlsize bench and dlsize
// checkpoint (none: a "command": "checkpoint" sweep is refused). Throws usage_error naming the
// source and key for unknown keys, values of the wrong type or range, options the sweep sets
// itself (out, accelerators, seed, quiet, config) and unknown launcher variables.
sweep_config parse_sweep_config(const nlohmann::json& j, const std::string& source,
                                const std::vector<std::string>& bench_keys,
                                const std::vector<std::string>& checkpoint_keys = {});

// Every point: with order "repeats", repeats outermost (so that a slow drift of the machine
// spreads over all counts), then dataset variants, cache modes and accelerator (or, checkpoint,
// rank) counts; with order "points", the repeats innermost (a point's runs back to back).
std::vector<sweep_point> expand_points(const sweep_config& c);

// The variables a launcher's arguments may hold: {ranks}, {accelerators},
// {accelerators-per-rank}, {point}.
const std::vector<std::string>& launcher_variables();

// The point's command: the launcher (variables {ranks}, {accelerators},
// {accelerators-per-rank} and {point} substituted in its arguments only), then self, the command,
// the options as --key value, --out report and --quiet.
std::vector<std::string> point_argv(const sweep_config& c, const sweep_point& p,
                                    const std::string& self, const std::string& report);

} // namespace dlsize::sweep
