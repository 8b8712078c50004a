#include "dataset/checkpoint_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dlsize/build_config.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;

std::uint64_t checkpoint_set::bytes() const {
  std::uint64_t total = 0;
  for (auto b : rank_bytes)
    total += b;
  return total;
}

std::vector<std::uint64_t> checkpoint_set::file_bytes(unsigned rank) const {
  const std::uint64_t b = rank_bytes.at(rank);
  std::vector<std::uint64_t> sizes(files_per_rank);
  for (unsigned f = 0; f < files_per_rank; ++f)
    sizes[f] = b / files_per_rank + (f < b % files_per_rank ? 1 : 0);
  return sizes;
}

fs::path checkpoint_path(const fs::path& dir, std::uint64_t k) {
  return dir / fmt::format("checkpoint-{:06d}", k);
}

fs::path partial_checkpoint_path(const fs::path& dir, std::uint64_t k) {
  return dir / fmt::format(".checkpoint-{:06d}.partial", k);
}

std::string shard_name(unsigned rank, unsigned file) {
  return fmt::format("rank-{:05d}.file-{:03d}.shard", rank, file);
}

bool claim_checkpoint_folder(const fs::path& dir, std::uint64_t need_bytes,
                             const std::string& coexist) {
  std::error_code ec;
  const bool existed = fs::exists(dir, ec);
  if (existed && !fs::is_directory(dir, ec))
    throw usage_error(fmt::format("--dir: '{}' exists and is not a folder", dir.string()));
  if (existed && fs::exists(dir / kCheckpointManifest, ec))
    throw usage_error(fmt::format(
        "--dir: '{}' already holds dlsize checkpoints; dlsize never writes over them. valid: a "
        "new or empty folder, or --writes 0 --reads N to read those checkpoints back",
        dir.string()));
  if (existed && !fs::is_empty(dir, ec))
    throw usage_error(fmt::format("--dir: folder '{}' is not empty and is not a dlsize checkpoint "
                                  "folder; dlsize never writes among foreign files. valid: a new "
                                  "or empty folder",
                                  dir.string()));
  fs::path probe = dir;
  while (!fs::exists(probe, ec) && probe.has_parent_path() && probe != probe.parent_path())
    probe = probe.parent_path();
  const std::uint64_t have = sysinfo::available_bytes(probe.empty() ? "." : probe.string());
  if (need_bytes > have)
    throw usage_error(fmt::format(
        "--dir: checkpoint would write {} bytes ({}: {}) but the file system of '{}' has {} bytes "
        "({}) free for this user (statvfs f_bavail); nothing was written. valid: a smaller "
        "--scale, fewer coexisting checkpoints (--keep-last N) or a folder on a file system "
        "with room",
        need_bytes, units::format_bytes_binary(static_cast<double>(need_bytes)), coexist,
        dir.string(), have, units::format_bytes_binary(static_cast<double>(have))));
  if (!existed) {
    fs::create_directories(dir, ec);
    if (ec)
      throw usage_error(fmt::format("--dir: cannot create '{}': {}", dir.string(), ec.message()));
  }
  if (access(dir.c_str(), W_OK) != 0)
    throw usage_error(fmt::format("--dir: folder '{}' is not writable", dir.string()));
  return !existed;
}

checkpoint_set open_checkpoint_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::path m = dir / kCheckpointManifest;
  if (!fs::is_directory(dir, ec))
    throw usage_error(fmt::format("--dir: '{}' is not a folder; --writes 0 reads the checkpoints "
                                  "of a folder an earlier dlsize checkpoint --keep wrote",
                                  dir.string()));
  if (!fs::exists(m, ec))
    throw usage_error(fmt::format("--dir: '{}' has no {}: it is not a dlsize checkpoint folder. "
                                  "valid: a folder written by dlsize checkpoint --keep",
                                  dir.string(), kCheckpointManifest));
  return checkpoint_set::from_json(core::read_json_file(m, core::kManifestJson), m.string());
}

void write_checkpoint_manifest(const fs::path& dir, const checkpoint_set& set) {
  write_file_atomic(dir / kCheckpointManifest, set.to_json().dump(2) + "\n", true);
}

namespace {

// Why p is not rank's shard f of this run, or "" when it is (or is gone): a regular file of at
// most the shard's size whose first bytes are a block header of this run, rank and file, or
// still a hole (blocks land out of order; a shard cut short may not have its first one yet).
std::string not_our_shard(const fs::path& p, const checkpoint_set& set, unsigned rank, unsigned f) {
  struct stat st {};
  if (lstat(p.c_str(), &st) != 0)
    return errno == ENOENT ? "" : errno_text(errno);
  if (!S_ISREG(st.st_mode))
    return "not a regular file";
  const std::uint64_t want = set.file_bytes(rank).at(f);
  if (static_cast<std::uint64_t>(st.st_size) > want)
    return fmt::format("{} bytes, more than the {} of this run's shard", st.st_size, want);
  std::array<std::byte, kShardIdBytes> head{};
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return errno_text(errno);
  const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  const bool hole =
      std::all_of(head.begin(), head.end(), [](std::byte b) { return b == std::byte{0}; });
  if (n < 0 || (!hole && !begins_shard(head.data(), static_cast<std::size_t>(n), set.run, rank, f)))
    return fmt::format("its first bytes are not a block header of run {:016x}", set.run);
  return "";
}

} // namespace

std::vector<std::string> remove_rank_shards(const fs::path& folder, const checkpoint_set& set,
                                            unsigned rank) {
  std::vector<std::string> left;
  for (unsigned f = 0; f < set.files_per_rank; ++f) {
    const fs::path p = folder / shard_name(rank, f);
    if (const std::string why = not_our_shard(p, set, rank, f); !why.empty()) {
      left.push_back(fmt::format("'{}' (dlsize did not write it: {})", p.string(), why));
      std::fprintf(stderr, "dlsize: left %s in place\n", left.back().c_str());
      continue;
    }
    std::error_code ec;
    fs::remove(p, ec);
  }
  return left;
}

std::vector<std::string> remove_empty_folder(const fs::path& folder) {
  std::error_code ec;
  if (!fs::exists(folder, ec) || rmdir(folder.c_str()) == 0)
    return {};
  // The first names in it, so that whoever reads the warning knows what to look for.
  std::vector<std::string> names;
  std::size_t more = 0;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (names.size() < 3)
      names.push_back(e.path().filename().string());
    else
      ++more;
  std::vector<std::string> left{fmt::format("'{}' (it holds files dlsize did not write: {}{})",
                                            folder.string(), fmt::join(names, ", "),
                                            more ? fmt::format(" and {} more", more) : "")};
  std::fprintf(stderr, "dlsize: left %s in place\n", left.back().c_str());
  return left;
}

} // namespace dlsize::dataset
