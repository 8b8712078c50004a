#pragma once
// A host's facts as a report records them (system.hosts[], and the dataset's mount, device and
// I/O limits that storage repeats for rank 0's host): what the telemetry readers gather, typed.
// Their JSON is written and read by report/bench_report_json.cpp; every struct keeps the keys it
// does not type in `extra`, so a report read and written again is unchanged.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/field.hpp"
#include "telemetry/nvml.hpp"

namespace dlsize::telemetry {

// A mount option's value: a number where the option is one (rsize=1048576), else its text.
struct text_or_count {
  std::optional<std::uint64_t> count;
  std::string text;
};

struct os_facts { // etc/os-release
  field<std::string> name, version_id, pretty_name;
  nlohmann::json extra = nlohmann::json::object();
};

// The options that decide an NFS client's speed, from the mount's super options; nconnect is 1
// where the kernel lists none (it lists it only above 1), other absent ones null.
struct nfs_facts {
  field<std::string> vers; // text: "4.2", "3"
  field<text_or_count> proto, nconnect, rsize, wsize;
  nlohmann::json extra = nlohmann::json::object();
};

struct mount_facts { // the mount that holds the dataset (telemetry/mounts.hpp)
  field<std::string> mount_point, source, fs_type, options, super_options;
  field<std::string> dev; // "MAJ:MIN"
  field<nfs_facts> nfs;   // null: not NFS
  nlohmann::json extra = nlohmann::json::object();
};

// The block device behind a mount (telemetry/block_device.hpp); facts sysfs does not give are
// null.
struct block_device_facts {
  field<std::string> name, dev, partition, model, vendor, transport, scheduler, backing_file;
  field<std::vector<std::string>> via; // the stacked devices (dm, md) above it
  field<bool> rotational;
  field<std::uint64_t> size_bytes, read_ahead_kb, max_sectors_kb;
  nlohmann::json extra = nlohmann::json::object();
};

struct io_limit {            // one device's cgroup I/O limits; null: no limit of that kind
  field<std::string> device; // "MAJ:MIN"
  field<std::uint64_t> rbps, wbps, riops, wiops;
  nlohmann::json extra = nlohmann::json::object();
};

struct cgroup_facts { // the lowest limits along the process's cgroup path (telemetry/cgroups.hpp)
  field<std::uint64_t> version; // 1 or 2; null: none found
  field<std::string> path;
  field<std::uint64_t> memory_max_bytes;       // null: no limit
  field<double> cpu_max_cores;                 // the CPU quota in cores; null: no limit
  std::optional<std::vector<io_limit>> io_max; // sorted by device
  nlohmann::json extra = nlohmann::json::object();
};

struct numa_node {
  field<std::uint64_t> node;
  field<std::string> cpus; // a cpulist such as "0-7,16-23"
  field<std::uint64_t> memory_bytes;
  nlohmann::json extra = nlohmann::json::object();
};

struct nic_facts { // a network interface other than lo
  field<std::string> name, state;
  field<double> speed_bits_per_s; // null: unknown (virtual NICs)
  field<std::uint64_t> mtu;
  nlohmann::json extra = nlohmann::json::object();
};

// What a host contributes beside CPUs, RAM and NICs (telemetry/host_provenance.hpp).
struct host_provenance_facts {
  field<os_facts> os;
  field<mount_facts> mount;         // null: no mount (a dataset in a bucket)
  field<block_device_facts> device; // null: no block device (NFS, tmpfs, a bucket)
  std::optional<std::vector<numa_node>> numa_nodes;
  field<std::string> mpi_library;                        // null: built without MPI
  field<std::map<std::string, std::string>> environment; // NCCL_* and UCX_*
  field<cgroup_facts> cgroup;
};

// One host of system.hosts[].
struct host_facts {
  field<std::string> hostname, cpu_model, kernel;
  field<std::uint64_t> cpus, ram_bytes;
  std::optional<std::vector<nic_facts>> nics;
  std::optional<std::vector<gpu_device>> gpus; // as NVML sees them (empty: none)
  field<nvml_status> nvml;                     // how GPUs were seen
  host_provenance_facts provenance;            // its keys stand beside the others
  nlohmann::json extra = nlohmann::json::object();
};

} // namespace dlsize::telemetry
