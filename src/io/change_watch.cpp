#include "io/change_watch.hpp"

#include <sys/stat.h>

#include <cerrno>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::io {
namespace {

constexpr std::size_t kNamedChanges = 100; // as the report's pre-run list

std::int64_t mtime_of(const struct stat& st) {
  return std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
}

} // namespace

change_watch::change_watch(std::vector<std::uint64_t> sizes, std::vector<std::int64_t> mtime_ns,
                           std::vector<std::string> names, bool skip)
    : m_sizes(std::move(sizes)), m_mtime_ns(std::move(mtime_ns)), m_names(std::move(names)),
      m_skip(skip), m_changed(std::make_unique<std::atomic<std::uint8_t>[]>(m_sizes.size())) {}

bool change_watch::changed(std::uint32_t file, const std::string& path, const std::string& why) {
  if (!m_skip)
    throw run_error(fmt::format("dataset changed while it was read: {}. file: {}. valid: index "
                                "the folder again, or --on-change skip",
                                why, path));
  // Counted once per file, however many of its samples were asked for.
  if (m_changed[file].exchange(1) == 0) {
    std::lock_guard lk(m_m);
    ++m_count;
    if (m_named.size() < kNamedChanges)
      m_named.push_back(fmt::format("{}: {}", m_names[file], why));
  }
  return true;
}

bool change_watch::check(std::uint32_t file, const std::string& path, std::uint64_t size,
                         std::int64_t mtime) {
  if (size != m_sizes[file])
    return changed(file, path,
                   fmt::format("{} bytes at open, the index says {}", size, m_sizes[file]));
  if (mtime != m_mtime_ns[file])
    return changed(file, path, "modified since it was indexed (mtime at open)");
  return skipped(file);
}

bool change_watch::at_open(int fd, std::uint32_t file, const std::string& path) {
  struct stat st {};
  if (fstat(fd, &st) != 0)
    return changed(file, path, fmt::format("fstat failed: {}", errno_text(errno)));
  return check(file, path, static_cast<std::uint64_t>(st.st_size), mtime_of(st));
}

bool change_watch::at_open_path(std::uint32_t file, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return changed(file, path, fmt::format("gone at open ({})", errno_text(errno)));
  return check(file, path, static_cast<std::uint64_t>(st.st_size), mtime_of(st));
}

bool change_watch::at_failed_open(int err, std::uint32_t file, const std::string& path) {
  if (err != ENOENT && err != ENOTDIR)
    return false;
  return changed(file, path, fmt::format("gone at open ({})", errno_text(err)));
}

change_watch::changes change_watch::changes_seen() const {
  std::lock_guard lk(m_m);
  return {m_count, m_named};
}

std::uint64_t change_watch::count() const {
  std::lock_guard lk(m_m);
  return m_count;
}

} // namespace dlsize::io
