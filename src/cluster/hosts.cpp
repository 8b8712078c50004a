#include "cluster/hosts.hpp"

#include <map>
#include <string>

#include "core/sysinfo.hpp"

namespace dlsize::cluster {

std::uint64_t ram_of_hosts(communicator& comm) {
  if (comm.size() == 1)
    return sysinfo::ram_bytes();
  const auto all = comm.allgather(std::to_string(sysinfo::ram_bytes()));
  std::map<std::string, std::uint64_t> by_host;
  for (std::size_t r = 0; r < all.size(); ++r)
    by_host[comm.where().rank_hosts.at(r)] = std::stoull(all[r]);
  std::uint64_t total = 0;
  for (const auto& [host, ram] : by_host)
    total += ram;
  return total;
}

} // namespace dlsize::cluster
