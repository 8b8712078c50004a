#pragma once
// Facts about the job's hosts that every rank needs the same.
#include <cstdint>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

// RAM of all the job's hosts together, each host counted once (a collective): what "5x-ram"
// means for a job's dataset, as MLPerf Storage sizes datasets by the clients' total memory.
std::uint64_t ram_of_hosts(communicator& comm);

} // namespace dlsize::cluster
