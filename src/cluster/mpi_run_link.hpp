#pragma once
// The run link over MPI. One thread per rank makes every MPI call of the run:
//
// - Heartbeats: every rank sends rank 0 a status (its counters) every heartbeat; rank 0 sends
//   every rank an "alive". A rank silent for the communicator's timeout is given up: rank 0
//   names it (rank and host) and ends the run as broken; a rank that hears nothing from rank 0
//   does the same for rank 0.
// - Syncs: one MPI_Iallreduce (max of the end time, max of a halted flag) per sync on a
//   communicator of their own, in the same order on every rank.
// - Halt: a rank's failure or stop request goes to rank 0, which tells every rank to halt. Each
//   rank then stops issuing syncs and answers with how many it issued; rank 0 sends the most,
//   and every rank issues empty syncs up to it, so that no collective is left unmatched and the
//   job can end cleanly.
// - End: when every rank is done (or halted and answered), rank 0 says finish; after the syncs
//   drain, every rank sends its payload to rank 0, point to point.
#include <memory>

#include <mpi.h>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

std::unique_ptr<run_link> make_mpi_run_link(MPI_Comm world, const communicator& comm,
                                            run_link_options opt);

} // namespace dlsize::cluster
