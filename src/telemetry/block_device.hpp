#pragma once
// The block device behind a mount, from sysfs: what it is (model, vendor, transport, rotational,
// size) and how the kernel queues reads to it (scheduler, read_ahead_kb, max_sectors_kb). A
// partition is described by its disk; a device-mapper or md device by the device under it
// (sysfs "slaves"), and a loop device by its backing file.
#include <filesystem>

#include <optional>

#include "telemetry/host_facts.hpp"

namespace dlsize::telemetry {

// The device MAJ:MIN under SYS (normally /sys): its name, dev, partition, via, model, vendor,
// transport (nvme, sata, scsi, virtio, usb, mmc, loop, dm, md, or null), rotational, size_bytes,
// scheduler, read_ahead_kb, max_sectors_kb and backing_file; facts sysfs does not give are null.
// None when major is 0 (no block device: NFS, tmpfs, overlay) or SYS has no such device.
std::optional<block_device_facts> block_device_of(const std::filesystem::path& sys, unsigned major,
                                                  unsigned minor);

} // namespace dlsize::telemetry
