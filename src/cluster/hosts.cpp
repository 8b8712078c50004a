#include "cluster/hosts.hpp"

#include "core/sysinfo.hpp"

namespace dlsize::cluster {

std::map<std::string, std::uint64_t> ram_by_host(communicator& comm) {
  std::map<std::string, std::uint64_t> by_host;
  if (comm.size() == 1) {
    const auto& hosts = comm.where().rank_hosts;
    by_host[hosts.empty() ? std::string("this host") : hosts.front()] = sysinfo::ram_bytes();
    return by_host;
  }
  const auto all = comm.allgather(std::to_string(sysinfo::ram_bytes()));
  for (std::size_t r = 0; r < all.size(); ++r)
    by_host[comm.where().rank_hosts.at(r)] = std::stoull(all[r]);
  return by_host;
}

std::uint64_t ram_of_hosts(communicator& comm) {
  std::uint64_t total = 0;
  for (const auto& [host, ram] : ram_by_host(comm))
    total += ram;
  return total;
}

} // namespace dlsize::cluster
