#pragma once
// The MPI communicator (built with MPICH only): MPI_Init_thread at SERIALIZED (one thread at a
// time calls MPI: the main thread outside runs, the run link's thread during them), a private
// duplicate of MPI_COMM_WORLD with errors returned, not fatal, and every collective made
// non-blocking and waited for with a timeout, so that a rank that hung or died ends the job
// with a message instead of a hang.
#include <memory>
#include <string>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

std::unique_ptr<communicator> make_mpi_communicator(int& argc, char**& argv);
// MPI_Finalize under a watchdog: past timeout_s (0: no limit) the process says so on stderr,
// naming who, and exits with exit_code. Over TCP, MPICH's finalize can spin forever after a
// complete job (a UCX progress loop, or hydra's barrier through a host whose link is down), and
// by then the job's report is written and its exit code agreed.
void finalize_mpi(double timeout_s, int exit_code, const std::string& who);

} // namespace dlsize::cluster
