#include "cluster/job_end.hpp"

#include <cstdio>

namespace dlsize::cluster {

int end_job(communicator& comm, const job_end& end, const std::function<int(bool broken)>& finish) {
  if (end.broken) {
    if (comm.rank() == 0) {
      finish(true);
      comm.abort(1);
    }
    if (end.root_lost && comm.rank() == 1) {
      // Rank 1 stands in for the rank that writes: a report of its own results.
      std::fprintf(stderr, "dlsize: failed: %s (rank 1 writes the report in its stead)\n",
                   end.reason.c_str());
      finish(true);
      comm.abort(1);
    }
    await_abort(comm);
  }
  const int code = finish(false);
  // Every rank ends as rank 0's report says, and only once every rank got here: a rank lost now
  // would hang the others in MPI_Finalize; this wait has the rank timeout (then rank 0, whose
  // report is written, ends the job).
  return std::stoi(comm.allgather(std::to_string(code)).at(0));
}

} // namespace dlsize::cluster
