#pragma once
// The mount that holds the dataset, as a report records it: source, type, options, and the
// options that decide an NFS client's speed parsed out (a client mounted without nconnect is
// the classic slow node).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sysinfo.hpp"

namespace dlsize::telemetry {

// The mount of `resolved_path` in ROOT/proc/self/mountinfo (the longest mount point that
// prefixes it); empty fields when the file cannot be read.
sysinfo::mount_info mount_under(const std::filesystem::path& root,
                                const std::string& resolved_path);

// {"mount_point", "source", "fs_type", "options", "super_options", "dev" ("MAJ:MIN"), "nfs"}:
// nfs (nfs and nfs4 only, else null) is {"vers", "proto", "nconnect", "rsize", "wsize"} from
// the super options, numbers as numbers; nconnect is 1 where the kernel lists none (it lists
// it only above 1), other absent ones null.
nlohmann::json mount_json(const sysinfo::mount_info& m);

} // namespace dlsize::telemetry
