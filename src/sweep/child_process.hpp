#pragma once
// A sweep point's process: started with posix_spawnp (no shell, PATH searched for argv[0]) in
// its own process group, stdin from /dev/null, stdout and stderr into a log file. A stop
// request (SIGINT or SIGTERM to dlsize) is forwarded to it once as SIGINT, so that a bench
// writes its incomplete report; SIGKILL follows if it has not ended after a grace period.
#include <filesystem>
#include <string>
#include <vector>

namespace dlsize::sweep {

struct child_result {
  int exit_code = -1; // -1 when ended by a signal
  int signal = 0;     // the signal that ended it, or 0
  bool forwarded_stop = false;
  double wall_s = 0;
};

// Runs argv to its end. Throws usage_error when argv[0] cannot be found or started (a launcher
// not on PATH) and run_error when the log cannot be opened.
child_result run_child(const std::vector<std::string>& argv, const std::filesystem::path& log,
                       double grace_s = 60);

} // namespace dlsize::sweep
