#include "dataset/index_scan.hpp"

#include <dirent.h>
#include <fcntl.h>
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
#include "core/input_watch.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "dataset/byte_source.hpp"
#include "dataset/format_probe.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_journal.hpp"
#include "dataset/index_line.hpp"
#include "dataset/index_units.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

using scan_counts = index_counts;

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
  scanner(const index_options& opt, index_journal& journal) : m_opt(opt), m_journal(journal) {}
  ~scanner() {
    if (m_root >= 0)
      close(m_root);
    if (m_list)
      std::fclose(m_list);
  }
  void open_root();
  void resume();
  io::watched_result run(progress& bar);
  const scan_counts& totals() const { return m_totals; }
  bool interrupted() const { return m_queue.interrupted(); }

private:
  struct worker {
    io::worker_context* io = nullptr;
    scan_counts n;     // flushed chunks
    index_chunk chunk; // the unit's chunk being filled
    std::string buf;
    std::vector<std::string> dirs; // found, not yet queued
    std::string what;              // the call in flight, for a stall's message
  };
  struct unit {
    std::string dir;
    std::vector<std::string> listed;
    std::uint64_t batch = 0;
  };
  void work(io::worker_context& io);
  bool read_batch(unit& u);
  bool scan_dir(worker& w, const std::string& rel);
  bool first_walk(worker& w, const struct stat& st);
  void scan_entry(worker& w, int at, const char* name, const std::string& rel, bool listed);
  void index_file(worker& w, int at, const char* name, const std::string& rel, struct stat st);
  void skipped(worker& w, const std::string& rel, const char* kind, const std::string& why);
  void flush(worker& w, bool final);
  void index_links(io::worker_context& io);
  // Runs call under the stall watch: what ("a stat of") and the path, for the message.
  template <class F> auto watched(worker& w, const char* what, const std::string& rel, F&& call) {
    w.what.assign(what).append(" ").append(m_opt.dir.native()).append("/").append(rel);
    return w.io->blocking(w.what, std::forward<F>(call));
  }

  const index_options& m_opt;
  index_journal& m_journal;
  int m_root = -1;
  std::FILE* m_list = nullptr;
  std::mutex m_m;
  unit_queue m_queue;
  bool m_list_done = false;  // --files-from read to its end
  std::uint64_t m_batch = 0; // the next --files-from batch
  // The names of each file with several hard links, indexed once after the walk under the
  // first name in order, so that which name is indexed does not depend on the threads' race.
  std::map<std::pair<dev_t, ino_t>, std::vector<std::string>> m_links;
  std::set<std::pair<dev_t, ino_t>> m_followed; // folders reached through symlinks
  std::mutex m_write;
  scan_counts m_totals;
  std::atomic<std::uint64_t> m_seen{0};
};

void scanner::open_root() {
  m_root = open_quiet(AT_FDCWD, m_opt.dir.c_str(), O_DIRECTORY);
  if (m_root < 0)
    throw usage_error(fmt::format("index: DIR '{}' cannot be read: {}. valid: a folder you may "
                                  "read",
                                  m_opt.dir.string(), errno_text(errno)));
  struct stat st {};
  if (m_opt.symlinks == symlink_policy::follow && fstat(m_root, &st) == 0)
    m_followed.insert({st.st_dev, st.st_ino});
  if (!m_opt.files_from.empty()) {
    m_list = std::fopen(m_opt.files_from.c_str(), "r");
    if (!m_list)
      throw usage_error(fmt::format("--files-from: cannot read '{}': {}", m_opt.files_from.string(),
                                    errno_text(errno)));
  }
}

// The state of the units an earlier run finished: the folders they found and not yet read
// make the stack, their hard links and followed folders are known again.
void scanner::resume() {
  m_queue.restore(m_journal, m_totals, m_list != nullptr);
  for (const auto& c : m_journal.finished()) {
    for (const auto& l : c.links)
      m_links[{static_cast<dev_t>(l.dev), static_cast<ino_t>(l.ino)}].push_back(l.name);
    for (const auto& [dev, ino] : c.followed)
      m_followed.insert({static_cast<dev_t>(dev), static_cast<ino_t>(ino)});
  }
}

void scanner::skipped(worker& w, const std::string& rel, const char* kind, const std::string& why) {
  append_skipped_line(w.buf, w.chunk.counts, rel, kind, why);
}

// Writes the unit's lines so far as one chunk of the resume state; final: the unit is done.
void scanner::flush(worker& w, bool final) {
  flush_unit(m_journal, m_write, w.buf, w.chunk, w.n, final);
}

// st: the entry's stat, replaced by the open file's (the file read is the file described).
void scanner::index_file(worker& w, int at, const char* name, const std::string& rel,
                         struct stat st) {
  int fd = -1;
  if (!m_opt.metadata_only) {
    const int flags = m_opt.symlinks == symlink_policy::follow ? 0 : O_NOFOLLOW;
    fd = watched(w, "an open of", rel, [&] { return open_quiet(at, name, flags); });
    if (fd < 0 || watched(w, "a stat of", rel, [&] { return fstat(fd, &st); }) != 0) {
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
    std::string failed;
    watched(w, "a read (format probe) of", rel, [&] {
      try {
        r = probe_format(src, name);
      } catch (const run_error& e) {
        failed = e.what();
      }
      return 0;
    });
    close(fd);
    if (!failed.empty())
      return skipped(w, rel, "unreadable", failed);
    w.chunk.counts.content_bytes += src.bytes_read();
  }
  if (size == 0)
    return skipped(w, rel, "empty", "no bytes to read");
  if (!r.skip.empty())
    return skipped(w, rel, "compressed", r.skip);
  const std::string fields = fmt::format(
      ",\"size\":{},\"mtime_ns\":{},\"ino\":{},\"dev\":{}", size,
      std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec, st.st_ino, st.st_dev);
  if (!append_file_line(w.buf, w.chunk.counts, rel, size, fields, r))
    skipped(w, rel, "unreadable", "a name that is not valid UTF-8 (an index line cannot hold it)");
}

void scanner::scan_entry(worker& w, int at, const char* name, const std::string& rel, bool listed) {
  ++m_seen;
  if (index_excluded(m_opt.exclude, rel)) {
    ++w.chunk.counts.excluded;
    return;
  }
  struct stat st {};
  if (watched(w, "a stat of", rel, [&] { return fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW); }))
    return skipped(w, rel, "unreadable", errno_text(errno));
  if (S_ISLNK(st.st_mode)) {
    if (m_opt.symlinks == symlink_policy::skip)
      return skipped(w, rel, "symlink", "a symbolic link (--symlinks skip)");
    if (watched(w, "a stat of", rel, [&] { return fstatat(at, name, &st, 0); }) != 0)
      return skipped(w, rel, "unreadable", "a dangling symbolic link: " + errno_text(errno));
    if (S_ISDIR(st.st_mode) && !first_walk(w, st))
      return skipped(w, rel, "symlink", "a link to a folder already walked (a loop or a twin)");
  } else if (S_ISDIR(st.st_mode) && m_opt.symlinks == symlink_policy::follow &&
             !first_walk(w, st)) {
    return skipped(w, rel, "symlink", "a folder already walked through a symbolic link");
  }
  if (S_ISDIR(st.st_mode)) {
    ++w.chunk.counts.dirs;
    w.dirs.push_back(rel);
    w.chunk.subdirs.push_back(rel);
  } else if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
    std::lock_guard lk(m_m);
    m_links[{st.st_dev, st.st_ino}].push_back(rel);
    w.chunk.links.push_back({st.st_dev, st.st_ino, rel});
  } else if (S_ISREG(st.st_mode)) {
    index_file(w, at, name, rel, st);
  } else {
    skipped(w, rel, "special",
            S_ISFIFO(st.st_mode)   ? "a FIFO"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "a device file");
  }
  if (listed && w.buf.size() > (256u << 10))
    flush(w, false);
}

// With --symlinks follow, every folder is walked once by (device, inode), however many links
// reach it (the root included: a `self -> .` link is not walked again). False when it was.
bool scanner::first_walk(worker& w, const struct stat& st) {
  std::lock_guard lk(m_m);
  if (!m_followed.insert({st.st_dev, st.st_ino}).second)
    return false;
  w.chunk.followed.emplace_back(st.st_dev, st.st_ino);
  return true;
}

// False when a stop left the folder half read.
bool scanner::scan_dir(worker& w, const std::string& rel) {
  const int dfd = watched(w, "an open of the folder", rel, [&] {
    return open_quiet(m_root, rel.empty() ? "." : rel.c_str(), O_DIRECTORY);
  });
  DIR* d = dfd >= 0 ? fdopendir(dfd) : nullptr;
  if (!d) {
    skipped(w, rel + "/", "unreadable", errno_text(errno));
    if (dfd >= 0)
      close(dfd);
    return true;
  }
  bool whole = true;
  while (const dirent* e = watched(w, "a readdir of", rel, [&] { return readdir(d); })) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
      continue;
    scan_entry(w, dfd, e->d_name, rel.empty() ? e->d_name : rel + "/" + e->d_name, false);
    if (w.buf.size() > (256u << 10))
      flush(w, false);
    if (stop_requested() || w.io->halted()) {
      whole = false;
      break;
    }
  }
  closedir(d);
  return whole;
}

// The next batch of 256 paths of --files-from (under the queue's lock), numbered in list order
// (the same batches on a rerun, so that those finished before are skipped); false at its end.
bool scanner::read_batch(unit& u) {
  while (m_list && !m_list_done && u.listed.empty()) {
    char line[4096];
    while (u.listed.size() < 256) {
      if (!std::fgets(line, sizeof line, m_list)) {
        m_list_done = true;
        break;
      }
      std::string p(line);
      while (!p.empty() && (p.back() == '\n' || p.back() == '\r'))
        p.pop_back();
      if (!p.empty())
        u.listed.push_back(p.rfind("./", 0) == 0 ? p.substr(2) : p);
    }
    if (!u.listed.empty()) {
      u.batch = m_batch++;
      if (m_queue.done(fmt::format("list:{}", u.batch)))
        u.listed.clear();
    }
  }
  return !u.listed.empty();
}

void scanner::work(io::worker_context& io) {
  worker w;
  w.io = &io;
  unit u;
  while (m_queue.take(io, u.dir, [&] { return read_batch(u); })) {
    bool whole = true;
    if (u.listed.empty()) {
      w.chunk.unit = "dir:" + u.dir;
      whole = scan_dir(w, u.dir);
    } else {
      w.chunk.unit = fmt::format("list:{}", u.batch);
    }
    for (const auto& p : u.listed) {
      if (p.front() == '/' || p.find("..") != std::string::npos)
        skipped(w, p, "outside", "not a path inside DIR (relative, without ..)");
      else
        scan_entry(w, m_root, p.c_str(), p, true);
    }
    u.listed.clear();
    if (whole)
      flush(w, true);
    for (auto& d : w.dirs)
      m_queue.push(std::move(d));
    w.dirs.clear();
    m_queue.finished();
    if (!whole)
      break;
  }
  std::lock_guard lk(m_write);
  m_totals.add(w.n);
}

void scanner::index_links(io::worker_context& io) {
  worker w;
  w.io = &io;
  w.chunk.unit = "links";
  for (auto& [key, names] : m_links) {
    std::sort(names.begin(), names.end());
    struct stat st {};
    if (watched(w, "a stat of", names[0],
                [&] { return fstatat(m_root, names[0].c_str(), &st, 0); }) != 0)
      skipped(w, names[0], "unreadable", errno_text(errno));
    else
      index_file(w, m_root, names[0].c_str(), names[0], st);
    for (std::size_t i = 1; i < names.size(); ++i)
      skipped(w, names[i], "hardlink",
              fmt::format("a hard link to {} (inode {}), indexed once", names[0], key.second));
    if (io.halted())
      return;
  }
  flush(w, true);
  m_totals.add(w.n);
}

io::watched_result scanner::run(progress& bar) {
  const std::uint64_t t0 = now_ns();
  auto ran = io::run_watched(
      std::max(1u, m_opt.threads), [this](io::worker_context& io) { work(io); },
      m_opt.stall_timeout_s, "reader",
      [&] {
        const double el = static_cast<double>(now_ns() - t0) * 1e-9;
        bar.update(fmt::format("index: {} entries, {:.0f}/s", m_seen.load(),
                               el > 0 ? static_cast<double>(m_seen.load()) / el : 0));
      });
  const bool walked = ran.first_error().empty() && ran.stalled.empty() && !ran.interrupted &&
                      !m_queue.interrupted() && !stop_requested();
  if (walked && !m_links.empty() && !m_queue.done("links"))
    ran = io::run_watched(
        1, [this](io::worker_context& io) { index_links(io); }, m_opt.stall_timeout_s, "reader",
        nullptr);
  bar.finish();
  return ran;
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
}

index_scan_options options_of(const index_options& opt) {
  index_scan_options o;
  o.exclude = opt.exclude;
  o.metadata_only = opt.metadata_only;
  o.symlinks = core::name_of(opt.symlinks);
  if (!opt.files_from.empty())
    o.files_from = opt.files_from.string();
  return o;
}

} // namespace

std::unique_ptr<index_journal> open_journal(const fs::path& out,
                                            const index_scan_identity& identity) {
  return core::watched_call(index_journal::path_for(out), core::watched_action{}, [out, identity] {
    return std::make_unique<index_journal>(out, identity);
  });
}

index_summary summary_of(const index_journal& journal, const char* units) {
  index_summary out;
  out.resume_state = journal.path();
  out.resumed = journal.resumed();
  out.units_resumed = journal.finished().size();
  if (out.resumed)
    std::fprintf(stderr, "index: resuming from %s: %llu %s already indexed\n",
                 journal.path().c_str(), static_cast<unsigned long long>(out.units_resumed), units);
  return out;
}

bool scan_stopped(const io::watched_result& ran, bool interrupted, double stall_timeout_s,
                  const char* what, index_journal& journal, index_summary& out) {
  if (!ran.first_error().empty()) {
    journal.sync();
    throw run_error(fmt::format("index failed: {}; rerun the same command to continue (resume "
                                "state: {})",
                                ran.first_error(), journal.path().string()));
  }
  out.abandoned = ran.abandoned;
  if (!ran.stalled.empty())
    out.stalled = fmt::format("no {} finished for {:g} s (--stall-timeout); {}", what,
                              stall_timeout_s, ran.stalled);
  out.interrupted = ran.interrupted || interrupted || stop_requested();
  if (out.stopped())
    journal.sync(); // a finished scan syncs the index instead, not its lines twice
  return out.stopped();
}

index_header scan_header(const index_options& opt, const index_scan_identity& identity,
                         const index_summary& out) {
  index_header h;
  h.tool = opt.tool;
  h.dir = identity.dir;
  h.s3 = identity.s3;
  h.created_at = opt.created_at;
  h.scan_s = out.seconds;
  h.resumed = out.resumed;
  h.options = identity.options;
  h.options.threads = opt.threads;
  return h;
}

index_summary build_index(const index_options& given) {
  index_options opt = given;
  // DIR looked up and the resume state read before the scan: under the pre-run watch, as every
  // input is (the scan's own calls are under its workers' watch).
  opt.dir = core::watched_call(opt.dir, core::kLookup, [opt] {
    index_options checked = opt;
    check_paths(checked);
    return fs::canonical(checked.dir);
  });
  const std::uint64_t t0 = now_ns();
  // What a rerun must match to continue: DIR and what changes the lines (not --threads).
  const index_scan_identity identity{opt.dir.string(), std::nullopt, options_of(opt)};
  const auto held = open_journal(opt.out, identity);
  index_journal& journal = *held;
  index_summary out = summary_of(journal, "folders or list batches");
  scanner s(opt, journal);
  try {
    s.open_root();
  } catch (...) {
    // A DIR or --files-from that cannot be read: no scan began, so a fresh state is not left
    // behind (an earlier scan's stays for its rerun).
    if (!out.resumed)
      journal.remove();
    throw;
  }
  s.resume();
  progress bar(opt.progress);
  const auto ran = s.run(bar);
  out.seconds = static_cast<double>(now_ns() - t0) * 1e-9;
  if (scan_stopped(ran, s.interrupted(), opt.stall_timeout_s, "metadata call or probe read",
                   journal, out))
    return out;
  out.header = scan_header(opt, identity, out);
  write_index(opt.out, opt.dir.string(), journal, out.header, s.totals());
  journal.remove();
  return out;
}

} // namespace dlsize::dataset
