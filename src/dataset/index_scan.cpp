#include "dataset/index_scan.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "dataset/byte_source.hpp"
#include "dataset/format_probe.hpp"
#include "dataset/index_file.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

// What one thread counted; added up at the end.
struct scan_counts {
  std::uint64_t lines = 0, files = 0, bytes = 0, samples = 0, sample_bytes = 0, dirs = 0;
  std::uint64_t excluded = 0, problems = 0, content_bytes = 0;
  std::map<std::string, std::uint64_t> skipped;
  std::map<std::string, std::array<std::uint64_t, 3>> formats; // files, bytes, samples
  void add(const scan_counts& o) {
    lines += o.lines, files += o.files, bytes += o.bytes, samples += o.samples;
    sample_bytes += o.sample_bytes, dirs += o.dirs, excluded += o.excluded;
    problems += o.problems, content_bytes += o.content_bytes;
    for (const auto& [k, v] : o.skipped)
      skipped[k] += v;
    for (const auto& [k, v] : o.formats)
      for (std::size_t i = 0; i < 3; ++i)
        formats[k][i] += v[i];
  }
};

// Opens read-only, without touching atime where the kernel permits it (the owner or
// CAP_FOWNER); EPERM means it does not, and a plain open follows.
int open_quiet(int at, const char* name, int flags) {
  int fd = openat(at, name, flags | O_RDONLY | O_CLOEXEC | O_NOATIME);
  if (fd < 0 && errno == EPERM)
    fd = openat(at, name, flags | O_RDONLY | O_CLOEXEC);
  return fd;
}

class scanner {
public:
  explicit scanner(const index_options& opt) : m_opt(opt), m_body(opt.out) {}
  ~scanner() {
    if (m_root >= 0)
      close(m_root);
    if (m_list)
      std::fclose(m_list);
  }
  void open_root();
  void run(progress& bar);
  const scan_counts& totals() const { return m_totals; }
  const index_digest& digest() const { return m_digest; }
  const std::string& body_path() const { return m_body.temporary_path(); }
  bool interrupted() const { return m_interrupted; }

private:
  struct worker {
    scan_counts n;
    std::string buf;
    std::vector<std::string> dirs; // found, not yet queued
  };
  void work();
  bool take(std::string& dir, std::vector<std::string>& listed);
  void scan_dir(worker& w, const std::string& rel);
  void scan_entry(worker& w, int at, const char* name, const std::string& rel, bool listed);
  void index_file(worker& w, int at, const char* name, const std::string& rel, struct stat st);
  void skipped(worker& w, const std::string& rel, const char* kind, const std::string& why);
  void flush(worker& w);
  void index_links();
  bool excluded(const std::string& rel) const;

  const index_options& m_opt;
  atomic_writer m_body; // never committed: the entries until the header is known
  int m_root = -1;
  std::FILE* m_list = nullptr;
  std::mutex m_m;
  std::condition_variable m_cv;
  std::vector<std::string> m_stack{""}; // depth first, so the pending folders stay few
  unsigned m_active = 0;
  bool m_interrupted = false;
  bool m_list_done = false; // --files-from read to its end
  // The names of each file with several hard links, indexed once after the walk under the
  // first name in order, so that which name is indexed does not depend on the threads' race.
  std::map<std::pair<dev_t, ino_t>, std::vector<std::string>> m_links;
  std::set<std::pair<dev_t, ino_t>> m_followed; // folders reached through symlinks
  std::mutex m_write;
  index_digest m_digest;
  scan_counts m_totals;
  std::atomic<std::uint64_t> m_seen{0};
};

void scanner::open_root() {
  m_root = open_quiet(AT_FDCWD, m_opt.dir.c_str(), O_DIRECTORY);
  if (m_root < 0)
    throw usage_error(fmt::format("index: DIR '{}' cannot be read: {}. valid: a folder you may "
                                  "read",
                                  m_opt.dir.string(), errno_text(errno)));
  m_digest.add(m_opt.dir.string());
  m_digest.add("\n");
  if (!m_opt.files_from.empty()) {
    m_list = std::fopen(m_opt.files_from.c_str(), "r");
    if (!m_list)
      throw usage_error(fmt::format("--files-from: cannot read '{}': {}", m_opt.files_from.string(),
                                    errno_text(errno)));
    m_stack.clear();
  }
}

bool scanner::excluded(const std::string& rel) const {
  const auto slash = rel.rfind('/');
  const char* base = rel.c_str() + (slash == std::string::npos ? 0 : slash + 1);
  return std::any_of(m_opt.exclude.begin(), m_opt.exclude.end(), [&](const std::string& p) {
    return fnmatch(p.c_str(), rel.c_str(), 0) == 0 || fnmatch(p.c_str(), base, 0) == 0;
  });
}

void scanner::skipped(worker& w, const std::string& rel, const char* kind, const std::string& why) {
  ++w.n.skipped[kind];
  ++w.n.lines;
  // A name that is not UTF-8 is said with U+FFFD for its odd bytes (a reason cannot be one).
  w.buf += nlohmann::json{{"path", rel}, {"skipped", kind}, {"reason", why}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  w.buf += '\n';
}

void scanner::flush(worker& w) {
  if (w.buf.empty())
    return;
  std::lock_guard lk(m_write);
  m_digest.add(w.buf);
  m_body.write(w.buf);
  w.buf.clear();
}

// st: the entry's stat, replaced by the open file's (the file read is the file described).
void scanner::index_file(worker& w, int at, const char* name, const std::string& rel,
                         struct stat st) {
  int fd = -1;
  if (!m_opt.metadata_only) {
    fd = open_quiet(at, name, m_opt.symlinks == symlink_policy::follow ? 0 : O_NOFOLLOW);
    if (fd < 0 || fstat(fd, &st) != 0) {
      skipped(w, rel, "unreadable", errno_text(errno));
      if (fd >= 0)
        close(fd);
      return;
    }
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  probe_result r;
  if (fd < 0) {
    r.format = "unprobed"; // --metadata-only
  } else {
    const fd_source src(fd, size, rel);
    try {
      r = probe_format(src, name);
    } catch (const run_error& e) {
      close(fd);
      return skipped(w, rel, "unreadable", e.what());
    }
    close(fd);
    w.n.content_bytes += src.bytes_read();
  }
  if (size == 0)
    return skipped(w, rel, "empty", "no bytes to read");
  if (!r.skip.empty())
    return skipped(w, rel, "compressed", r.skip);
  const std::size_t line_start = w.buf.size();
  w.buf += "{\"path\":";
  if (!append_json_string(w.buf, rel)) {
    w.buf.resize(line_start);
    return skipped(w, rel, "unreadable",
                   "a name that is not valid UTF-8 (an index line cannot hold it)");
  }
  const std::uint64_t samples = r.records.empty() ? 1 : r.records.size();
  fmt::format_to(std::back_inserter(w.buf),
                 ",\"size\":{},\"mtime_ns\":{},\"ino\":{},\"dev\":{},\"format\":\"{}\","
                 "\"samples\":{}",
                 size, std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec,
                 st.st_ino, st.st_dev, r.format, samples);
  std::uint64_t sample_bytes = r.records.empty() ? size : 0;
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    fmt::format_to(std::back_inserter(w.buf), "{}[{},{}]", i ? "," : ",\"records\":[",
                   r.records[i].offset, r.records[i].length);
    sample_bytes += r.records[i].length;
  }
  if (!r.records.empty())
    w.buf += ']';
  if (!r.details.is_null())
    w.buf +=
        ",\"details\":" + r.details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!r.problem.empty()) {
    w.buf += ",\"problem\":" + nlohmann::json(r.problem).dump();
    ++w.n.problems;
  }
  w.buf += "}\n";
  auto& f = w.n.formats[r.format];
  f[0] += 1, f[1] += size, f[2] += samples;
  ++w.n.files, ++w.n.lines;
  w.n.bytes += size, w.n.samples += samples, w.n.sample_bytes += sample_bytes;
}

void scanner::scan_entry(worker& w, int at, const char* name, const std::string& rel, bool listed) {
  ++m_seen;
  if (excluded(rel)) {
    ++w.n.excluded;
    return;
  }
  struct stat st {};
  if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return skipped(w, rel, "unreadable", errno_text(errno));
  if (S_ISLNK(st.st_mode)) {
    if (m_opt.symlinks == symlink_policy::skip)
      return skipped(w, rel, "symlink", "a symbolic link (--symlinks skip)");
    if (fstatat(at, name, &st, 0) != 0)
      return skipped(w, rel, "unreadable", "a dangling symbolic link: " + errno_text(errno));
    if (S_ISDIR(st.st_mode)) {
      std::lock_guard lk(m_m);
      if (!m_followed.insert({st.st_dev, st.st_ino}).second)
        return skipped(w, rel, "symlink", "a link to a folder already walked (a loop or a twin)");
    }
  }
  if (S_ISDIR(st.st_mode)) {
    ++w.n.dirs;
    w.dirs.push_back(rel);
  } else if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
    std::lock_guard lk(m_m);
    m_links[{st.st_dev, st.st_ino}].push_back(rel);
  } else if (S_ISREG(st.st_mode)) {
    index_file(w, at, name, rel, st);
  } else {
    skipped(w, rel, "special",
            S_ISFIFO(st.st_mode)   ? "a FIFO"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "a device file");
  }
  if (listed && w.buf.size() > (256u << 10))
    flush(w);
}

void scanner::scan_dir(worker& w, const std::string& rel) {
  const int dfd = open_quiet(m_root, rel.empty() ? "." : rel.c_str(), O_DIRECTORY);
  DIR* d = dfd >= 0 ? fdopendir(dfd) : nullptr;
  if (!d) {
    skipped(w, rel + "/", "unreadable", errno_text(errno));
    if (dfd >= 0)
      close(dfd);
    return;
  }
  while (const dirent* e = readdir(d)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
      continue;
    scan_entry(w, dfd, e->d_name, rel.empty() ? e->d_name : rel + "/" + e->d_name, false);
    if (w.buf.size() > (256u << 10))
      flush(w);
    if (stop_requested())
      break;
  }
  closedir(d);
}

// The next folder, or the next lines of --files-from; false when all work is done.
bool scanner::take(std::string& dir, std::vector<std::string>& listed) {
  std::unique_lock lk(m_m);
  for (;;) {
    if (stop_requested()) {
      m_interrupted = true;
      m_cv.notify_all();
      return false;
    }
    if (!m_stack.empty()) {
      dir = std::move(m_stack.back());
      m_stack.pop_back();
      ++m_active;
      return true;
    }
    char line[4096];
    while (m_list && !m_list_done && listed.size() < 256) {
      if (!std::fgets(line, sizeof line, m_list)) {
        m_list_done = true;
        break;
      }
      std::string p(line);
      while (!p.empty() && (p.back() == '\n' || p.back() == '\r'))
        p.pop_back();
      if (!p.empty())
        listed.push_back(p.rfind("./", 0) == 0 ? p.substr(2) : p);
    }
    if (!listed.empty()) {
      ++m_active;
      return true;
    }
    if (m_active == 0)
      return false;
    m_cv.wait_for(lk, std::chrono::milliseconds(100));
  }
}

void scanner::work() {
  worker w;
  std::string dir;
  std::vector<std::string> listed;
  while (take(dir, listed)) {
    if (listed.empty())
      scan_dir(w, dir);
    for (const auto& p : listed) {
      if (p.front() == '/' || p.find("..") != std::string::npos)
        skipped(w, p, "outside", "not a path inside DIR (relative, without ..)");
      else
        scan_entry(w, m_root, p.c_str(), p, true);
    }
    listed.clear();
    flush(w);
    std::lock_guard lk(m_m);
    for (auto& d : w.dirs)
      m_stack.push_back(std::move(d));
    w.dirs.clear();
    --m_active;
    m_cv.notify_all();
  }
  flush(w);
  std::lock_guard lk(m_write);
  m_totals.add(w.n);
}

void scanner::index_links() {
  worker w;
  for (auto& [key, names] : m_links) {
    std::sort(names.begin(), names.end());
    struct stat st {};
    if (fstatat(m_root, names[0].c_str(), &st, 0) != 0)
      skipped(w, names[0], "unreadable", errno_text(errno));
    else
      index_file(w, m_root, names[0].c_str(), names[0], st);
    for (std::size_t i = 1; i < names.size(); ++i)
      skipped(w, names[i], "hardlink",
              fmt::format("a hard link to {} (inode {}), indexed once", names[0], key.second));
  }
  flush(w);
  m_totals.add(w.n);
}

void scanner::run(progress& bar) {
  const unsigned n = std::max(1u, m_opt.threads);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < n; ++i)
    threads.emplace_back([this] { work(); });
  const std::uint64_t t0 = now_ns();
  for (;;) {
    {
      std::unique_lock lk(m_m);
      const bool done = m_cv.wait_for(lk, std::chrono::milliseconds(250), [&] {
        return m_interrupted || (m_active == 0 && m_stack.empty() && (!m_list || m_list_done));
      });
      if (done)
        break;
    }
    const double el = static_cast<double>(now_ns() - t0) * 1e-9;
    bar.update(fmt::format("index: {} entries, {:.0f}/s", m_seen.load(),
                           el > 0 ? static_cast<double>(m_seen.load()) / el : 0));
  }
  for (auto& t : threads)
    t.join();
  if (!m_interrupted)
    index_links();
  bar.finish();
}

nlohmann::json counts_json(const scan_counts& n) {
  nlohmann::json formats = nlohmann::json::object();
  for (const auto& [k, v] : n.formats)
    formats[k] = {{"files", v[0]}, {"bytes", v[1]}, {"samples", v[2]}};
  return {{"lines", n.lines},
          {"files", n.files},
          {"bytes", n.bytes},
          {"samples", n.samples},
          {"sample_bytes", n.sample_bytes},
          {"dirs", n.dirs},
          {"excluded", n.excluded},
          {"problems", n.problems},
          {"content_bytes_read", n.content_bytes},
          {"skipped", n.skipped},
          {"formats", formats}};
}

void check_paths(const index_options& opt) {
  std::error_code ec;
  if (!fs::is_directory(opt.dir, ec))
    throw usage_error(fmt::format("index: DIR '{}' is not a folder{}. valid: the dataset's folder",
                                  opt.dir.string(), fs::exists(opt.dir, ec) ? "" : " (missing)"));
  if (opt.out.empty())
    throw usage_error("--out: required (the index file to write, beside the dataset, not in it)");
  if (fs::exists(fs::symlink_status(opt.out, ec)))
    throw usage_error(
        fmt::format("--out: '{}' exists; dlsize never overwrites a file", opt.out.string()));
  const fs::path parent = fs::weakly_canonical(fs::absolute(opt.out).parent_path(), ec);
  const fs::path root = fs::canonical(opt.dir, ec);
  const auto mm = std::mismatch(root.begin(), root.end(), parent.begin(), parent.end());
  if (mm.first == root.end())
    throw usage_error(fmt::format("--out: '{}' lies under DIR '{}'; nothing is written into a "
                                  "dataset. valid: a path outside DIR",
                                  opt.out.string(), opt.dir.string()));
  if (opt.threads < 1 || opt.threads > 256)
    throw usage_error(fmt::format("--threads: {} is out of range. valid: 1 to 256", opt.threads));
}

} // namespace

index_summary build_index(const index_options& given) {
  index_options opt = given;
  check_paths(opt);
  opt.dir = fs::canonical(opt.dir);
  const std::uint64_t t0 = now_ns();
  scanner s(opt);
  s.open_root();
  progress bar(opt.progress);
  s.run(bar);
  index_summary out;
  out.seconds = static_cast<double>(now_ns() - t0) * 1e-9;
  out.interrupted = s.interrupted() || stop_requested();
  if (out.interrupted)
    return out;
  out.header = {{"schema", kIndexSchema},
                {"tool", opt.tool},
                {"dir", opt.dir.string()},
                {"created_at", opt.created_at},
                {"scan_s", out.seconds},
                {"options",
                 {{"exclude", opt.exclude},
                  {"symlinks", opt.symlinks == symlink_policy::follow ? "follow" : "skip"},
                  {"files_from", opt.files_from.empty() ? nlohmann::json(nullptr)
                                                        : nlohmann::json(opt.files_from.string())},
                  {"threads", opt.threads},
                  {"metadata_only", opt.metadata_only}}},
                {"counts", counts_json(s.totals())},
                {"digest", s.digest().text()}};
  atomic_writer index(opt.out);
  index.write(out.header.dump() + "\n");
  std::FILE* body = std::fopen(s.body_path().c_str(), "rb");
  if (!body)
    throw_syscall_error("fopen", errno, __FILE__, __LINE__, "path: " + s.body_path());
  std::string chunk(1u << 20, '\0');
  std::size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), body)) > 0)
    index.write(std::string_view(chunk.data(), n));
  std::fclose(body);
  index.commit();
  return out;
}

} // namespace dlsize::dataset
