#pragma once
// Facts about the job's hosts that every rank needs the same.
#include <cstdint>
#include <map>
#include <string>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

// RAM of all the job's hosts together, each host counted once (a collective): what "5x-ram"
// means for a job's dataset, as MLPerf Storage sizes datasets by the clients' total memory.
std::uint64_t ram_of_hosts(communicator& comm);

// Every host's RAM, by host name (a collective; one rank's host alone in a job of one rank).
std::map<std::string, std::uint64_t> ram_by_host(communicator& comm);

} // namespace dlsize::cluster
