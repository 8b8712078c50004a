#pragma once
// What a host contributes to a report's provenance, beside CPUs, RAM and NICs: the OS, the
// dataset's mount and block device, NUMA nodes, the MPI library, the NCCL_* and UCX_*
// environment and the cgroup limits on the process. Every rank gathers its host's facts, so
// rank 0 can record each host and warn where they differ.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/host_facts.hpp"

namespace dlsize::telemetry {

// Where the facts are read; tests point them at fixture trees.
struct fact_roots {
  std::filesystem::path root = "/";                // etc/os-release, proc/self/*
  std::filesystem::path sys = "/sys";              // dev/block, devices/system/node
  std::filesystem::path cgroup = "/sys/fs/cgroup"; // the cgroup file system
  char** environment = nullptr;                    // nullptr: this process's environ
};

// The host's os, mount, device, numa_nodes, mpi_library, environment and cgroup for its entry in
// system.hosts[]; `dataset` is resolved on this host before its mount is looked up.
host_provenance_facts host_provenance(const std::filesystem::path& dataset,
                                      const fact_roots& roots = {});

// Each node of SYS/devices/system/node: its number, cpulist ("0-7,16-23") and memory.
std::vector<numa_node> numa_of(const std::filesystem::path& sys);

// The NCCL_* and UCX_* variables of an environment (a null-terminated array), by name.
std::map<std::string, std::string> fabric_environment(char** environment);

// The network interfaces of SYS/class/net other than lo, by name.
std::vector<nic_facts> nics_of(const std::filesystem::path& sys);

// This host: its name, CPUs, CPU model, RAM, kernel and NICs, and its provenance where given;
// the caller adds what its GPUs say (gpus, nvml).
host_facts this_host(std::optional<host_provenance_facts> provenance, const fact_roots& roots = {});

} // namespace dlsize::telemetry
