#pragma once
// The goodput side of `dlsize plan` (--mttf and its companions): what failures, checkpoints and
// restarts cost the profile's job on a storage of a given write bandwidth, or on the storage a
// checkpoint report measured, over a table of accelerator counts (analysis/goodput_curve).
#include "analysis/goodput_document.hpp"
#include "analysis/plan_rules.hpp"

namespace dlsize::analysis {

// Whether plan's options ask for the goodput side: --mttf, --max-loss, --restart-overhead,
// --goodput-accelerators, --checkpoint-report or --staging-bandwidth.
bool plan_asks_goodput(const plan_options& o);

// The section for the profile's checkpoint at the planned count (the read side's accelerators
// when there is one, else --accelerators; 0: the table alone). The write rates come from
// --write-bandwidth or --checkpoint-report (one, not both); the restore from
// --storage-bandwidth, else the report's restore, else the write's. --async takes
// --staging-bandwidth (the copy of each rank's share to host memory). Throws usage_error naming
// the option for each rule broken.
goodput_document goodput_plan(const plan_options& o, const plan_inputs& in,
                              const plan_reads* reads);

} // namespace dlsize::analysis
