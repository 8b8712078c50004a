#include "goodput_options.hpp"

namespace dlsize::cli {

void add_goodput_options(CLI::App& cmd, analysis::goodput_request& r) {
  cmd.add_option("--mttf", r.mttf,
                 "Mean time to failure of one accelerator, e.g. 50000h (the default: MLCommons' "
                 "checkpoint framing; Llama 3's 419 interruptions in 54 days on 16,384 H100s): "
                 "the goodput of checkpoints, rework and restarts");
  cmd.add_option("--max-loss", r.max_loss,
                 "Target share of the wall time lost to checkpoints, rework and restarts "
                 "(default 5%): the write bandwidth that holds it, and up to how many "
                 "accelerators a storage does");
  cmd.add_option("--restart-overhead", r.restart_overhead,
                 "Time a restart takes besides the restore read: relaunch, NCCL init (default "
                 "5min, an assumption)");
  cmd.add_option("--goodput-accelerators", r.accelerators,
                 "Accelerator counts of the goodput table (default 1024,4096,16384,65536,100000)")
      ->delimiter(',');
}

} // namespace dlsize::cli
