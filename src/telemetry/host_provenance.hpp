#pragma once
// What a host contributes to a report's provenance, beside CPUs, RAM and NICs: the OS, the
// dataset's mount and block device, NUMA nodes, the MPI library, the NCCL_* and UCX_*
// environment and the cgroup limits on the process. Every rank gathers its host's facts, so
// rank 0 can record each host and warn where they differ.
#include <filesystem>

#include <nlohmann/json.hpp>

namespace dlsize::telemetry {

// Where the facts are read; tests point them at fixture trees.
struct fact_roots {
  std::filesystem::path root = "/";                // etc/os-release, proc/self/*
  std::filesystem::path sys = "/sys";              // dev/block, devices/system/node
  std::filesystem::path cgroup = "/sys/fs/cgroup"; // the cgroup file system
  char** environment = nullptr;                    // nullptr: this process's environ
};

// {"os", "mount", "device", "numa_nodes", "mpi_library", "environment", "cgroup"} for the host's
// entry in system.hosts[]; `dataset` is resolved on this host before its mount is looked up.
nlohmann::json host_provenance(const std::filesystem::path& dataset, const fact_roots& roots = {});

// [{"node", "cpus" (a cpulist such as "0-7,16-23"), "memory_bytes"}] from SYS/devices/system/node.
nlohmann::json numa_json(const std::filesystem::path& sys);

// The NCCL_* and UCX_* variables of an environment (a null-terminated array), by name.
nlohmann::json fabric_environment(char** environment);

} // namespace dlsize::telemetry
