#pragma once
// The mount that holds the dataset, as a report records it: source, type, options, and the
// options that decide an NFS client's speed parsed out (a client mounted without nconnect is
// the classic slow node).
#include <filesystem>
#include <string>

#include "core/sysinfo.hpp"
#include "telemetry/host_facts.hpp"

namespace dlsize::telemetry {

// The mount of `resolved_path` in ROOT/proc/self/mountinfo (the longest mount point that
// prefixes it); empty fields when the file cannot be read.
sysinfo::mount_info mount_under(const std::filesystem::path& root,
                                const std::string& resolved_path);

// The mount as a report records it: mount point, source, type, options, super options, dev
// ("MAJ:MIN") and, for nfs and nfs4 only (else null), the NFS options that decide its speed
// (nfs_facts), numbers as numbers.
mount_facts mount_facts_of(const sysinfo::mount_info& m);

} // namespace dlsize::telemetry
