#include "dataset/index_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kLine = "{\"path\":";

void write_all(int fd, std::string_view bytes, const fs::path& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      throw_syscall_error("write", errno, __FILE__, __LINE__, "path: " + path.string());
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

int open_locked(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_RDWR | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw run_error(fmt::format("index: cannot open the resume state. path: {}: {}", path.string(),
                                errno_text(errno)));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw usage_error(fmt::format("index: another dlsize index is using the resume state '{}'. "
                                  "valid: wait for it, or another --out",
                                  path.string()));
  }
  return fd;
}

// The state's lines, one at a time (getline: a line of any length).
class state_lines {
public:
  explicit state_lines(const fs::path& path) : m_f(std::fopen(path.c_str(), "rb")) {
    if (!m_f)
      throw run_error(fmt::format("index: cannot read the resume state. path: {}: {}",
                                  path.string(), errno_text(errno)));
  }
  ~state_lines() {
    std::free(m_buf);
    std::fclose(m_f);
  }
  state_lines(const state_lines&) = delete;
  state_lines& operator=(const state_lines&) = delete;
  bool next(std::string_view& line) {
    const ssize_t n = getline(&m_buf, &m_cap, m_f);
    if (n <= 0)
      return false;
    line = std::string_view(m_buf, static_cast<std::size_t>(n));
    return true;
  }
  std::FILE* file() const { return m_f; }

private:
  std::FILE* m_f;
  char* m_buf = nullptr;
  std::size_t m_cap = 0;
};

// A chunk found on open: its bytes and its unit.
struct span {
  long start = 0, end = 0;
  std::string unit;
  std::uint64_t lines = 0, sum = 0; // its lines' count and digest sum
};

// Writes the first line and the chunks of finished units to a file beside the state and renames
// it over the state; returns it, open and locked. Throws run_error when the state cannot be
// read, and the rename's error.
int rewrite_state(const fs::path& path, std::FILE* f, const nlohmann::json& first,
                  const std::vector<span>& spans, const std::set<std::string>& done) {
  const fs::path tmp = fmt::format("{}.tmp-{}", path.string(), getpid());
  const int out = open_locked(tmp, O_CREAT | O_EXCL);
  std::string bytes = first.dump() + "\n";
  for (const auto& s : spans) {
    if (!done.count(s.unit))
      continue;
    const std::size_t at = bytes.size();
    bytes.resize(at + static_cast<std::size_t>(s.end - s.start));
    std::fseek(f, s.start, SEEK_SET);
    if (std::fread(bytes.data() + at, 1, bytes.size() - at, f) != bytes.size() - at)
      throw run_error("index: cannot read the resume state. path: " + path.string());
    if (bytes.size() > (8u << 20)) {
      write_all(out, bytes, tmp);
      bytes.clear();
    }
  }
  write_all(out, bytes, tmp);
  if (fdatasync(out) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::close(out);
    ::unlink(tmp.c_str());
    throw_syscall_error("rename", err, __FILE__, __LINE__, "path: " + path.string());
  }
  return out;
}

} // namespace

fs::path index_journal::path_for(const fs::path& out) {
  return fs::path(out.string() + ".resume");
}

index_journal::index_journal(const fs::path& out, const index_scan_identity& scan)
    : m_path(path_for(out)) {
  const nlohmann::json identity = to_json(scan);
  const nlohmann::json first = to_json(index_resume_head{kIndexResumeSchema, scan});
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(m_path, ec))) {
    m_fd = open_locked(m_path, O_CREAT | O_EXCL);
    write_all(m_fd, first.dump() + "\n", m_path);
    sync();
    return;
  }
  if (!fs::is_regular_file(fs::symlink_status(m_path, ec)))
    throw usage_error(fmt::format("index: '{}' is in the way of the resume state and not a file "
                                  "dlsize made. valid: another --out",
                                  m_path.string()));
  m_fd = open_locked(m_path, 0);
  if (fs::file_size(m_path, ec) == 0 && !ec) {
    // A scan killed between creating the state and writing its first line: nothing to lose.
    write_all(m_fd, first.dump() + "\n", m_path);
    sync();
    return;
  }
  m_resumed = true;
  load(identity);
}

index_journal::~index_journal() {
  if (m_fd >= 0)
    ::close(m_fd);
}

// Checks the chunks up to the first incomplete or damaged one and keeps those of finished units
// (a rewrite beside the state, renamed over it, when anything is dropped).
void index_journal::load(const nlohmann::json& identity) {
  state_lines in(m_path);
  std::FILE* f = in.file();
  std::string_view line;
  nlohmann::json first;
  if (in.next(line))
    first = nlohmann::json::parse(line, nullptr, false);
  const std::optional<nlohmann::json> state_scan = resume_scan_of(first);
  if (!state_scan)
    throw usage_error(fmt::format("index: '{}' is not a dlsize index resume state. valid: "
                                  "another --out (dlsize never overwrites a file it did not make)",
                                  m_path.string()));
  if (*state_scan != identity)
    throw usage_error(fmt::format(
        "index: the resume state '{}' is of another scan ({}); this command scans {}. valid: "
        "the interrupted command's DIR and options, or remove '{}' to scan afresh",
        m_path.string(), state_scan->dump(), identity.dump(), m_path.string()));
  std::vector<span> spans;
  std::set<std::string> done;
  long start = std::ftell(f), valid_end = start;
  std::uint64_t lines = 0;
  index_digest hash;
  while (in.next(line)) {
    if (line.back() != '\n')
      break; // a SIGKILL during the last write
    if (line.rfind(kLine, 0) == 0) {
      ++lines, hash.add(line);
      continue;
    }
    if (!is_trailer_line(line))
      break;
    index_chunk_trailer t;
    try {
      t = trailer_from_json(nlohmann::json::parse(line, nullptr, false));
    } catch (const std::exception&) {
      break; // damaged: this chunk and what follows are read again
    }
    if (t.lines != lines || t.hash != fmt::format("{:016x}", hash.sum()))
      break;
    index_chunk& c = t.chunk;
    valid_end = std::ftell(f);
    spans.push_back({start, valid_end, c.unit, lines, hash.sum()});
    if (c.final && done.insert(c.unit).second)
      m_finished.push_back(std::move(c));
    start = valid_end, lines = 0, hash = {};
  }
  for (const auto& s : spans)
    if (done.count(s.unit))
      m_lines += s.lines, m_digest.add_sum(s.sum);
  const long size = (std::fseek(f, 0, SEEK_END), std::ftell(f));
  bool drop = valid_end != size;
  for (const auto& s : spans)
    drop = drop || !done.count(s.unit);
  if (!drop)
    return;
  const int out = rewrite_state(m_path, f, first, spans, done);
  ::close(m_fd);
  m_fd = out;
}

void index_journal::append(std::string_view lines, const index_chunk& chunk) {
  const auto n = static_cast<std::uint64_t>(std::count(lines.begin(), lines.end(), '\n'));
  index_digest d;
  d.add(lines);
  m_lines += n;
  m_digest.add_sum(d.sum());
  std::string bytes(lines);
  bytes += to_json(index_chunk_trailer{chunk, n, fmt::format("{:016x}", d.sum())}).dump();
  bytes += '\n';
  write_all(m_fd, bytes, m_path);
  if (now_ns() - m_last_sync_ns > 1'000'000'000ull)
    sync();
}

void index_journal::sync() {
  if (fdatasync(m_fd) != 0)
    throw_syscall_error("fdatasync", errno, __FILE__, __LINE__, "path: " + m_path.string());
  m_last_sync_ns = now_ns();
}

void index_journal::for_each_line(const std::function<void(std::string_view)>& each) const {
  state_lines in(m_path);
  std::string_view line;
  in.next(line); // the scan's identity
  while (in.next(line))
    if (!is_trailer_line(line))
      each(line);
}

void index_journal::remove() {
  // Only the file this scan holds open: one put under its name meanwhile is not ours to remove.
  struct stat held {
  }, named{};
  if (m_fd >= 0 && fstat(m_fd, &held) == 0 && lstat(m_path.c_str(), &named) == 0 &&
      held.st_dev == named.st_dev && held.st_ino == named.st_ino)
    ::unlink(m_path.c_str());
  else if (m_fd >= 0)
    std::fprintf(stderr, "dlsize: left '%s' in place: it is not the resume state this scan wrote\n",
                 m_path.c_str());
  if (m_fd >= 0)
    ::close(m_fd);
  m_fd = -1;
}

void write_index(const fs::path& out, const std::string& dir, const index_journal& journal,
                 index_header& header, const index_counts& totals) {
  index_digest digest;
  digest.add(dir + "\n");
  digest.add_sum(journal.lines_digest().sum());
  if (journal.lines() != totals.lines)
    throw run_error(fmt::format("index: the resume state holds {} lines, its chunks count {}. "
                                "path: {}",
                                journal.lines(), totals.lines, journal.path().string()));
  header.counts = totals;
  header.digest = digest.text();
  atomic_writer index(out);
  index.write(to_json(header).dump() + "\n");
  std::string chunk;
  journal.for_each_line([&](std::string_view l) {
    chunk += l;
    if (chunk.size() > (1u << 20)) {
      index.write(chunk);
      chunk.clear();
    }
  });
  index.write(chunk);
  index.commit();
}

} // namespace dlsize::dataset
