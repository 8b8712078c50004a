#include "dataset/index_bucket.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "dataset/byte_source.hpp"
#include "dataset/format_probe.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_journal.hpp"
#include "dataset/index_line.hpp"
#include "dataset/index_rules.hpp"
#include "dataset/index_units.hpp"
#include "io/watched_workers.hpp"
#include "s3/client.hpp"
#include "s3/retry.hpp"
#include "s3/s3_error.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

// Requests of this run, by kind (each client's retries are added as it ends).
struct request_counts {
  std::atomic<std::uint64_t> list{0}, head{0}, get{0}, retries{0};
};

// An object's bytes for the format probes: ranged GETs, the first of 64 KiB (every probe's first
// look), later ones of at least 1 MiB, each kept until a read falls outside it, so that a probe
// walking a shard's record headers costs a GET per MiB, not one per header.
class object_source : public byte_source {
public:
  object_source(s3::client& c, const std::string& bucket, const std::string& key,
                std::uint64_t size, request_counts& n)
      : m_c(c), m_bucket(bucket), m_key(key), m_size(size), m_n(n) {}
  std::uint64_t size() const override { return m_size; }
  bool read(std::uint64_t off, void* buf, std::size_t n) const override {
    if (off > m_size || n > m_size - off)
      return false;
    if (off < m_at || off + n > m_at + m_buf.size()) {
      const std::uint64_t want = std::max<std::uint64_t>(n, m_gets ? 1u << 20 : 64u << 10);
      m_buf.resize(static_cast<std::size_t>(std::min(want, m_size - off)));
      const std::size_t got =
          m_c.get_range(m_bucket, m_key, off, std::as_writable_bytes(std::span(m_buf)));
      ++m_n.get, ++m_gets;
      m_read += got;
      m_buf.resize(got);
      m_at = off;
      if (got < n)
        return false; // shorter than listed: changed since
    }
    std::memcpy(buf, m_buf.data() + (off - m_at), n);
    return true;
  }
  std::uint64_t bytes_read() const { return m_read; }

private:
  s3::client& m_c;
  const std::string& m_bucket;
  const std::string& m_key;
  std::uint64_t m_size;
  request_counts& m_n;
  mutable std::vector<char> m_buf;
  mutable std::uint64_t m_at = 0, m_gets = 0, m_read = 0;
};

std::string unquoted(std::string etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"')
    etag = etag.substr(1, etag.size() - 2);
  return etag;
}

// Whether a key (relative to PREFIX/) is a path bench --index can name: no empty, "." or ".."
// segment (index lines are relative paths).
bool plain_path(std::string_view rel) {
  for (std::size_t at = 0;;) {
    const auto slash = rel.find('/', at);
    const auto seg = rel.substr(at, slash == std::string_view::npos ? slash : slash - at);
    if (seg.empty() || seg == "." || seg == ".." || seg.find("..") != std::string_view::npos)
      return false;
    if (slash == std::string_view::npos)
      return true;
    at = slash + 1;
  }
}

class bucket_scanner {
public:
  bucket_scanner(const bucket_index_options& opt, index_journal& journal)
      : m_opt(opt), m_journal(journal), m_credentials(s3::resolve_credentials(opt.settings)),
        m_root(opt.where.prefix.empty() ? "" : opt.where.prefix + "/") {}
  ~bucket_scanner() {
    if (m_list)
      std::fclose(m_list);
  }
  void open();
  void resume();
  io::watched_result run(progress& bar);
  const index_counts& totals() const { return m_totals; }
  bool interrupted() const { return m_queue.interrupted(); }
  const request_counts& requests() const { return m_requests; }

private:
  struct worker {
    io::worker_context* io = nullptr;
    std::unique_ptr<s3::client> c;
    index_counts n;
    index_chunk chunk;
    std::string buf;
    std::vector<std::string> prefixes; // found, not yet queued
    std::string what;
  };
  struct unit {
    std::string prefix; // relative to the root ("" the root itself, else ending in '/')
    std::vector<key_line> listed;
    std::uint64_t batch = 0;
  };
  void work(io::worker_context& io);
  bool read_batch(unit& u);
  bool scan_prefix(worker& w, const std::string& rel);
  void index_object(worker& w, const std::string& key, std::uint64_t size, bool has_size,
                    const std::string& etag);
  void flush(worker& w, bool final);
  // Runs call (a request) under the stall watch, what and the key naming it.
  template <class F> auto watched(worker& w, const char* what, const std::string& key, F&& call) {
    w.what = fmt::format("{} s3://{}/{}", what, m_opt.where.bucket, key);
    return w.io->blocking(w.what, call);
  }

  const bucket_index_options& m_opt;
  index_journal& m_journal;
  s3::credentials m_credentials;
  std::string m_root; // PREFIX/ ("" for the whole bucket)
  std::FILE* m_list = nullptr;
  std::uint64_t m_list_line = 0;
  unit_queue m_queue;
  bool m_list_done = false;
  std::uint64_t m_batch = 0;
  std::mutex m_write;
  index_counts m_totals;
  request_counts m_requests;
  std::atomic<std::uint64_t> m_seen{0};
};

// One LIST of the root before any thread starts: a missing bucket or refused keys end the
// command at once (exit 2), not in a worker's error. Every line of --keys is checked too.
void bucket_scanner::open() {
  s3::client c(s3::client_options_for(m_opt.settings, 0), m_credentials);
  ++m_requests.list;
  try {
    c.list_objects(m_opt.where.bucket, m_root, "", 1000, "/");
  } catch (...) {
    m_requests.retries += c.stats().retries;
    throw;
  }
  m_requests.retries += c.stats().retries;
  if (m_opt.keys.empty())
    return;
  m_list = std::fopen(m_opt.keys.c_str(), "r");
  if (!m_list)
    throw usage_error(
        fmt::format("--keys: cannot read '{}': {}", m_opt.keys.string(), errno_text(errno)));
  char* line = nullptr;
  std::size_t cap = 0;
  std::uint64_t n = 0;
  try {
    while (getline(&line, &cap, m_list) > 0)
      parse_key_line(line, m_root, fmt::format("{} line {}", m_opt.keys.string(), ++n));
  } catch (...) {
    std::free(line);
    throw;
  }
  std::free(line);
  std::rewind(m_list);
}

void bucket_scanner::resume() {
  m_queue.restore(m_journal, m_totals, m_list != nullptr);
}

void bucket_scanner::flush(worker& w, bool final) {
  flush_unit(m_journal, m_write, w.buf, w.chunk, w.n, final);
}

void bucket_scanner::index_object(worker& w, const std::string& key, std::uint64_t size,
                                  bool has_size, const std::string& etag) {
  ++m_seen;
  const std::string rel = key.substr(m_root.size());
  auto& n = w.chunk.counts;
  if (index_excluded(m_opt.scan.exclude, rel)) {
    ++n.excluded;
    return;
  }
  if (has_size && size == 0 && !rel.empty() && rel.back() == '/')
    return; // a folder's marker object, not data
  if (!plain_path(rel))
    return append_skipped_line(w.buf, n, rel, "outside",
                               "a key with an empty, '.' or '..' segment: not a relative path");
  std::string tag = etag;
  if (!has_size) {
    ++m_requests.head;
    const auto info =
        watched(w, "a HEAD of", key, [&] { return w.c->head_object(m_opt.where.bucket, key); });
    if (!info)
      return append_skipped_line(w.buf, n, rel, "missing", "no such object (HEAD: 404)");
    size = info->size, tag = info->etag;
  }
  if (size == 0)
    return append_skipped_line(w.buf, n, rel, "empty", "no bytes to read");
  probe_result r;
  if (m_opt.scan.metadata_only) {
    r.format = "unprobed";
  } else {
    const object_source src(*w.c, m_opt.where.bucket, key, size, m_requests);
    const auto slash = rel.rfind('/');
    try {
      watched(w, "a ranged GET (format probe) of", key, [&] {
        r = probe_format(src, std::string_view(rel).substr(slash + 1));
        return 0;
      });
    } catch (const s3::request_error& e) {
      // A server that answers no more ends the scan (resumable); an object it refuses is skipped.
      if (s3::classify(e.details()).kind == s3::failure_class::retry)
        throw;
      return append_skipped_line(
          w.buf, n, rel, e.details().http_status == 404 ? "missing" : "unreadable", e.what());
    }
    n.content_bytes += src.bytes_read();
  }
  if (!r.skip.empty())
    return append_skipped_line(w.buf, n, rel, "compressed", r.skip);
  std::string fields = fmt::format(",\"size\":{}", size);
  tag = unquoted(tag);
  if (!tag.empty()) {
    fields += ",\"etag\":";
    append_json_string(fields, tag);
  }
  if (!append_file_line(w.buf, n, rel, size, fields, r))
    append_skipped_line(w.buf, n, rel, "unreadable",
                        "a key that is not valid UTF-8 (an index line cannot hold it)");
}

// Every page of one prefix, delimited by '/': its objects indexed, its common prefixes queued
// for any thread. False when a stop left it half read.
bool bucket_scanner::scan_prefix(worker& w, const std::string& rel) {
  const std::string prefix = m_root + rel;
  std::string token;
  for (;;) {
    ++m_requests.list;
    const s3::list_page page = watched(w, "a LIST of", prefix, [&] {
      return w.c->list_objects(m_opt.where.bucket, prefix, token, 1000, "/");
    });
    for (const auto& p : page.common_prefixes) {
      if (p.size() <= m_root.size() || p.rfind(m_root, 0) != 0)
        continue;
      ++w.chunk.counts.dirs;
      w.chunk.subdirs.push_back(p.substr(m_root.size()));
      m_queue.push(p.substr(m_root.size()));
    }
    for (const auto& o : page.objects) {
      if (o.key.size() > m_root.size())
        index_object(w, o.key, o.size, true, o.etag);
      if (w.buf.size() > (256u << 10))
        flush(w, false);
      if (stop_requested() || w.io->halted())
        return false;
    }
    if (!page.truncated)
      return true;
    token = page.next_token;
  }
}

// The next batch of 64 keys of --keys (small: a key without a size costs a HEAD, and batches are
// what the threads share), numbered in file order (the same batches on a rerun).
bool bucket_scanner::read_batch(unit& u) {
  char* line = nullptr;
  std::size_t cap = 0;
  while (!m_list_done && u.listed.empty()) {
    while (u.listed.size() < 64) {
      if (getline(&line, &cap, m_list) <= 0) {
        m_list_done = true;
        break;
      }
      ++m_list_line;
      if (auto k = parse_key_line(line, m_root, std::to_string(m_list_line)))
        u.listed.push_back(std::move(*k));
    }
    if (!u.listed.empty()) {
      u.batch = m_batch++;
      if (m_queue.done(fmt::format("list:{}", u.batch)))
        u.listed.clear();
    }
  }
  std::free(line);
  return !u.listed.empty();
}

void bucket_scanner::work(io::worker_context& io) {
  worker w;
  w.io = &io;
  w.c =
      std::make_unique<s3::client>(s3::client_options_for(m_opt.settings, io.id()), m_credentials);
  w.c->set_stop(&io.halt_flag());
  // The client's retries count whatever ends the worker.
  struct count_retries {
    const s3::client& c;
    std::atomic<std::uint64_t>& retries;
    ~count_retries() { retries += c.stats().retries; }
  } counted{*w.c, m_requests.retries};
  unit u;
  while (m_queue.take(io, u.prefix, [&] { return m_list && read_batch(u); })) {
    bool whole = true;
    if (u.listed.empty()) {
      w.chunk.unit = "dir:" + u.prefix;
      whole = scan_prefix(w, u.prefix);
    } else {
      w.chunk.unit = fmt::format("list:{}", u.batch);
      for (const auto& k : u.listed) {
        index_object(w, k.key, k.size, k.has_size, "");
        if (stop_requested() || io.halted()) {
          whole = false;
          break;
        }
      }
    }
    u.listed.clear();
    if (whole)
      flush(w, true);
    m_queue.finished();
    if (!whole)
      break;
  }
  std::lock_guard lk(m_write);
  m_totals.add(w.n);
}

io::watched_result bucket_scanner::run(progress& bar) {
  const std::uint64_t t0 = now_ns();
  auto ran = io::run_watched(
      std::max(1u, m_opt.scan.threads), [this](io::worker_context& io) { work(io); },
      m_opt.scan.stall_timeout_s, "reader",
      [&] {
        const double el = static_cast<double>(now_ns() - t0) * 1e-9;
        bar.update(fmt::format("index: {} objects, {:.0f}/s", m_seen.load(),
                               el > 0 ? static_cast<double>(m_seen.load()) / el : 0));
      });
  bar.finish();
  return ran;
}

void check_out(const fs::path& out) {
  std::error_code ec;
  if (out.empty())
    throw usage_error("--out: required (the index file to write)");
  if (fs::exists(fs::symlink_status(out, ec)))
    throw usage_error(
        fmt::format("--out: '{}' exists; dlsize never overwrites a file", out.string()));
}

index_scan_options options_of(const bucket_index_options& opt) {
  index_scan_options o;
  o.exclude = opt.scan.exclude;
  o.metadata_only = opt.scan.metadata_only;
  o.bucket = true;
  if (!opt.keys.empty())
    o.keys = fs::absolute(opt.keys).string();
  return o;
}

} // namespace

index_summary build_bucket_index(const bucket_index_options& opt) {
  check_out(opt.scan.out);
  const std::uint64_t t0 = now_ns();
  const index_scan_identity identity{opt.where.url(), bucket_identity(opt.where, opt.settings),
                                     options_of(opt)};
  const auto held = open_journal(opt.scan.out, identity);
  index_journal& journal = *held;
  index_summary out = summary_of(journal, "prefixes or key batches");
  bucket_scanner s(opt, journal);
  try {
    s.open();
  } catch (...) {
    if (!out.resumed)
      journal.remove();
    throw;
  }
  s.resume();
  progress bar(opt.scan.progress);
  const auto ran = s.run(bar);
  out.seconds = static_cast<double>(now_ns() - t0) * 1e-9;
  if (scan_stopped(ran, s.interrupted(), opt.scan.stall_timeout_s, "S3 request", journal, out))
    return out;
  const auto& n = s.requests();
  out.header = scan_header(opt.scan, identity, out);
  out.header.requests =
      index_requests{n.list.load(), n.head.load(), n.get.load(), n.retries.load()};
  write_index(opt.scan.out, opt.where.url(), journal, out.header, s.totals());
  journal.remove();
  return out;
}

} // namespace dlsize::dataset
