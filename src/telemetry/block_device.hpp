#pragma once
// The block device behind a mount, from sysfs: what it is (model, vendor, transport, rotational,
// size) and how the kernel queues reads to it (scheduler, read_ahead_kb, max_sectors_kb). A
// partition is described by its disk; a device-mapper or md device by the device under it
// (sysfs "slaves"), and a loop device by its backing file.
#include <filesystem>

#include <nlohmann/json.hpp>

namespace dlsize::telemetry {

// The device MAJ:MIN under SYS (normally /sys): {"name", "dev", "partition", "via", "model",
// "vendor", "transport" (nvme, sata, scsi, virtio, usb, mmc, loop, dm, md, or null), "rotational",
// "size_bytes", "scheduler", "read_ahead_kb", "max_sectors_kb", "backing_file"}; facts sysfs
// does not give are null. Null when major is 0 (no block device: NFS, tmpfs, overlay) or SYS
// has no such device.
nlohmann::json block_device_json(const std::filesystem::path& sys, unsigned major, unsigned minor);

} // namespace dlsize::telemetry
