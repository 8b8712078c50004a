#pragma once
// The MPI communicator (built with MPICH only): MPI_Init_thread at SERIALIZED (one thread at a
// time calls MPI: the main thread outside runs, the run link's thread during them), a private
// duplicate of MPI_COMM_WORLD with errors returned, not fatal, and every collective made
// non-blocking and waited for with a timeout, so that a rank that hung or died ends the job
// with a message instead of a hang.
#include <memory>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

std::unique_ptr<communicator> make_mpi_communicator(int& argc, char**& argv);
void finalize_mpi();

} // namespace dlsize::cluster
