#pragma once
// The end of a job, the same on every rank: rank 0 writes the job's report, every rank exits
// with rank 0's code, and a job that cannot end cleanly (a rank is gone) is aborted once rank 0
// has written what it has (or, without rank 0, once rank 1 has said why).
#include <functional>
#include <string>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

// How a rank's part of the run ended (from its run_outcome).
struct job_end {
  bool broken = false;    // a rank stopped answering: the job cannot end cleanly
  bool root_lost = false; // this rank lost rank 0
  std::string reason;     // why, as the run said it
};

// finish(broken) writes the report on rank 0 (a no-op elsewhere) and returns this rank's exit
// code. Returns the code every rank exits with: rank 0's, agreed over the job. A broken job does
// not return: rank 0 aborts it after finish(true); without rank 0, rank 1 aborts it; the others
// wait for that end (await_abort).
int end_job(communicator& comm, const job_end& end, const std::function<int(bool broken)>& finish);

} // namespace dlsize::cluster
