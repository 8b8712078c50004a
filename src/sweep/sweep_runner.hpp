#pragma once
// `dlsize sweep`: runs every point of a sweep config that is not done yet, one after the
// other, each as its own bench process, recording each in the folder's index as it ends.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::sweep {

struct sweep_options {
  std::string config_file;
  std::string out_dir;
  std::string self;                         // the dlsize executable the points run
  std::vector<std::string> bench_keys;      // dlsize bench's long option names
  std::vector<std::string> checkpoint_keys; // dlsize checkpoint's
  nlohmann::json command_line;
  bool dry_run = false; // print the points' commands, run nothing, write nothing
};

// Returns the exit code: 0 every point done; 1 a point failed or the sweep was interrupted
// (SIGINT/SIGTERM: the running point is stopped and marked interrupted); 2 a point's bench
// refused its options (a config error: the sweep stops at once). Throws usage_error for a bad
// config or folder.
int run_sweep(const sweep_options& o);

} // namespace dlsize::sweep
