// datagen into a bucket: one object per file of the layout, several in flight, the manifest
// object last; resumable from its journal object, and never replacing an object it did not write.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/datagen_journal.hpp"
#include "dataset/record.hpp"
#include "dataset/s3_dataset.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {
namespace {

constexpr double kJournalEvery_s = 2;

std::span<const std::byte> bytes_of(const std::string& text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// What a generation wrote: the files whose objects are complete, as ranges [from, to).
class object_journal {
public:
  object_journal(const dataset_params& params, std::uint64_t files)
      : m_params(params), m_done(files, false) {}

  // Takes an earlier run's journal; throws usage_error naming source when it is not a dlsize
  // journal or belongs to another dataset.
  void load(std::string_view text, const std::string& source) {
    const object_journal_document d = object_journal_from_text(text, source, m_done.size());
    if (!(d.params == m_params))
      throw usage_error(fmt::format("--dataset: {} is the journal of a different dataset ({}); "
                                    "dlsize never overwrites one. valid: another prefix, or the "
                                    "same parameters to resume it",
                                    source, d.params.to_json().dump()));
    for (const auto& [from, to] : d.written)
      for (auto f = from; f < to; ++f)
        m_done[f] = true;
  }

  void mark(std::uint64_t file) {
    std::lock_guard lk(m_mu);
    m_done[file] = true;
    m_dirty = true;
  }
  bool lists(std::uint64_t file) const {
    std::lock_guard lk(m_mu);
    return m_done[file];
  }
  // The journal's text, and whether it changed since the last call.
  std::pair<std::string, bool> take_text() {
    std::lock_guard lk(m_mu);
    object_journal_document d{m_params, {}};
    for (std::uint64_t f = 0; f < m_done.size(); ++f) {
      if (!m_done[f])
        continue;
      const std::uint64_t from = f;
      while (f < m_done.size() && m_done[f])
        ++f;
      d.written.emplace_back(from, f);
    }
    const bool changed = m_dirty;
    m_dirty = false;
    return {object_journal_text(d), changed};
  }

private:
  dataset_params m_params;
  mutable std::mutex m_mu;
  std::vector<bool> m_done;
  bool m_dirty = false;
};

// An object this generation did not write, in its way: the generation stops (exit 2).
struct foreign_object : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bytes of file f in order, record after record, in pieces of any size.
class file_bytes_stream {
public:
  file_bytes_stream(const dataset_layout& layout, std::uint64_t file)
      : m_layout(layout), m_next(layout.first_record(file)),
        m_end(m_next + layout.records_in(file)) {}

  // Fills out with the next out.size() bytes (fewer at the end); returns how many.
  std::size_t fill(std::span<std::byte> out) {
    std::size_t n = 0;
    while (n < out.size()) {
      if (m_at == m_record.size()) {
        if (m_next == m_end)
          break;
        m_record.resize(m_layout.record_bytes(m_next));
        make_record(m_layout.params().dataset_id(), m_next, m_record.size(), m_record.data());
        ++m_next;
        m_at = 0;
      }
      const std::size_t take = std::min(out.size() - n, m_record.size() - m_at);
      std::copy_n(m_record.data() + m_at, take, out.data() + n);
      m_at += take;
      n += take;
    }
    return n;
  }

private:
  const dataset_layout& m_layout;
  std::uint64_t m_next, m_end;
  std::vector<std::byte> m_record;
  std::size_t m_at = 0;
};

class object_writer {
public:
  object_writer(const dataset_layout& layout, const s3::location& where, s3::client& c,
                std::uint64_t part_size)
      : m_layout(layout), m_where(where), m_client(c), m_part_size(part_size) {}

  // One PUT up to the part size, else a multipart upload (aborted when a part fails).
  std::uint64_t write(std::uint64_t file, io::worker_context& io) {
    const std::string key = m_where.key(m_layout.relative_path(file));
    const std::uint64_t bytes = m_layout.file_bytes(file);
    file_bytes_stream stream(m_layout, file);
    m_buf.resize(static_cast<std::size_t>(std::min(bytes, m_part_size)));
    if (bytes <= m_part_size) {
      const std::size_t n = stream.fill(m_buf);
      io.blocking("a PUT of " + key, [&] {
        m_client.put_object(m_where.bucket, key, std::span(m_buf.data(), n));
        return 0;
      });
      return n;
    }
    const std::string id = io.blocking("the start of an upload of " + key, [&] {
      return m_client.create_multipart_upload(m_where.bucket, key);
    });
    try {
      std::vector<s3::completed_part> parts;
      for (std::size_t n; (n = stream.fill(m_buf)) > 0;) {
        const int number = static_cast<int>(parts.size()) + 1;
        parts.push_back({number, io.blocking(fmt::format("part {} of {}", number, key), [&] {
                           return m_client.upload_part(m_where.bucket, key, id, number,
                                                       std::span(m_buf.data(), n));
                         })});
      }
      io.blocking("the completion of an upload of " + key, [&] {
        m_client.complete_multipart_upload(m_where.bucket, key, id, parts);
        return 0;
      });
    } catch (...) {
      try {
        m_client.abort_multipart_upload(m_where.bucket, key, id);
      } catch (const std::exception&) {
        // The first failure is the one to report.
      }
      throw;
    }
    return bytes;
  }

  // What is at file's key before it is written: true when it holds the file already (whole and
  // this dataset's), false when nothing (or an incomplete object of ours) is there. Throws
  // foreign_object for an object the journal does not list and that is not this dataset's.
  bool complete_at(std::uint64_t file, const object_journal& journal, io::worker_context& io) {
    const std::string key = m_where.key(m_layout.relative_path(file));
    const auto info =
        io.blocking("a HEAD of " + key, [&] { return m_client.head_object(m_where.bucket, key); });
    const std::uint64_t want = m_layout.file_bytes(file);
    if (!info)
      return false;
    if (journal.lists(file))
      return info->size == want;
    if (info->size != want)
      throw foreign_object(fmt::format("'{}' holds {} bytes, not the {} of this dataset's object",
                                       key, info->size, want));
    std::array<std::byte, kHeaderBytes> head{};
    const std::size_t n = io.blocking("a GET of the start of " + key, [&] {
      return m_client.get_range(m_where.bucket, key, 0, head);
    });
    if (!starts_with_first_record(m_layout, file, head.data(), n))
      throw foreign_object(fmt::format("'{}' does not start with record {} of dataset {:016x}", key,
                                       m_layout.first_record(file),
                                       m_layout.params().dataset_id()));
    return true;
  }

private:
  const dataset_layout& m_layout;
  const s3::location& m_where;
  s3::client& m_client;
  std::uint64_t m_part_size;
  std::vector<std::byte> m_buf;
};

// Before any object: true when the prefix holds this dataset complete already (a journal of
// its own left by a run stopped after its manifest is removed); otherwise the journal is loaded
// from an earlier run or written new, which claims the prefix. Throws usage_error for another
// dataset's manifest or journal there.
bool prepare_prefix(const s3_datagen_options& opt, s3::client& c, object_journal& journal) {
  const std::string manifest_key = opt.where.key(kManifestName);
  const std::string journal_key = opt.where.key(kS3JournalName);
  const auto url = [&](const std::string& key) {
    return fmt::format("s3://{}/{}", opt.where.bucket, key);
  };
  const auto journal_text =
      get_text_object(c, opt.where.bucket, journal_key, core::kManifestJson.max_bytes);
  if (journal_text)
    journal.load(*journal_text, url(journal_key));
  if (const auto manifest =
          get_text_object(c, opt.where.bucket, manifest_key, core::kManifestJson.max_bytes)) {
    const std::string source = url(manifest_key);
    const auto theirs = params_of_manifest(
        core::parse_json(*manifest, url(manifest_key), core::kManifestJson), source);
    if (!(theirs == opt.params))
      throw usage_error(fmt::format("--dataset: '{}' holds a different dataset ({}: {}); dlsize "
                                    "never overwrites one. valid: another prefix, or the same "
                                    "parameters to reuse it",
                                    opt.where.url(), source, theirs.to_json().dump()));
    if (journal_text)
      c.delete_object(opt.where.bucket, journal_key);
    return true;
  }
  if (!journal_text)
    c.put_object(opt.where.bucket, journal_key, bytes_of(journal.take_text().first));
  return false;
}

// One generation's run: the writers, the journal saved every few seconds, the outcome.
class s3_generation {
public:
  s3_generation(const s3_datagen_options& opt, const s3::credentials& keys, s3::client& main,
                const dataset_layout& layout, object_journal& journal)
      : m_opt(opt), m_keys(keys), m_main(main), m_layout(layout), m_journal(journal),
        m_journal_key(opt.where.key(kS3JournalName)) {
    m_main.set_stop(&m_failed);
  }

  io::watched_result run(progress& bar) {
    const double t0 = now_s();
    double saved_at = t0;
    auto ran = io::run_watched(
        m_opt.threads ? m_opt.threads : sysinfo::online_cpus(),
        [this](io::worker_context& io) { write_objects(io); }, m_opt.stall_timeout_s, "writer",
        [&] {
          const double el = now_s() - t0;
          const double done = static_cast<double>(m_bytes.load());
          const double all = static_cast<double>(m_layout.total_bytes());
          bar.update(fmt::format("datagen: {} of {} ({:.0f} %), {}",
                                 units::format_bytes_binary(done), units::format_bytes_binary(all),
                                 all > 0 ? 100.0 * done / all : 100.0,
                                 units::format_rate_both(el > 0 ? done / el : 0)));
          if (now_s() - saved_at >= kJournalEvery_s && m_journal_error.empty()) {
            saved_at = now_s();
            save_journal();
          }
        });
    // What was written is journalled whatever stopped the run, so that a rerun keeps it; but not
    // after a failed request or a stall: the server may not answer, and a rerun HEADs what the
    // journal does not list anyway.
    if (m_journal_error.empty() && !m_failed.load() && ran.stalled.empty())
      save_journal();
    return ran;
  }

  // Throws for what stopped the run: a foreign object (usage_error), the journal, a stall or a
  // writer's failure (run_error).
  void check(const io::watched_result& ran) const {
    if (!m_foreign.empty())
      throw usage_error(fmt::format(
          "datagen: an object it did not write is in its way: {}; dlsize never replaces or "
          "deletes an object it did not write, and nothing of it was touched. valid: remove it "
          "from '{}' yourself, then run the same command again to resume",
          m_foreign, m_opt.where.url()));
    if (!m_journal_error.empty())
      throw run_error("datagen failed: the journal could not be written: " + m_journal_error);
    if (!ran.stalled.empty())
      throw run_error(fmt::format("datagen stalled: no request finished for {:g} s "
                                  "(--stall-timeout); {}; rerun the same command to resume",
                                  m_opt.stall_timeout_s, ran.stalled));
    if (!ran.first_error().empty())
      throw run_error("datagen failed: " + ran.first_error());
  }

  std::uint64_t written() const { return m_written.load(); }
  std::uint64_t kept() const { return m_kept.load(); }
  std::uint64_t bytes() const { return m_bytes.load(); }

private:
  void write_objects(io::worker_context& io) {
    s3::client c(s3::client_options_for(m_opt.settings, m_connections.fetch_add(1)), m_keys);
    c.set_stop(&io.halt_flag());
    object_writer w(m_layout, m_opt.where, c, m_opt.part_size);
    while (!io.halted() && !m_stop.load()) {
      const std::uint64_t f = m_next.fetch_add(1);
      if (f >= m_layout.files())
        return;
      try {
        if (w.complete_at(f, m_journal, io)) {
          m_kept.fetch_add(1);
          m_bytes.fetch_add(m_layout.file_bytes(f));
        } else {
          m_bytes.fetch_add(w.write(f, io));
          m_written.fetch_add(1);
        }
        m_journal.mark(f);
      } catch (const foreign_object& e) {
        std::lock_guard lk(m_foreign_mu);
        if (m_foreign.empty())
          m_foreign = e.what();
        m_stop = true;
        return;
      } catch (...) {
        m_failed = true; // ends the journal's request too: the writer's failure is the news
        throw;
      }
    }
  }

  void save_journal() {
    try {
      auto [text, changed] = m_journal.take_text();
      if (changed)
        m_main.put_object(m_opt.where.bucket, m_journal_key, bytes_of(text));
    } catch (const std::exception& e) {
      if (m_failed.load())
        return; // a writer's failure stopped it: that failure is the one to report
      m_journal_error = e.what();
      m_stop = true;
    }
  }

  const s3_datagen_options& m_opt;
  const s3::credentials& m_keys;
  s3::client& m_main; // the journal's, on the watching thread
  const dataset_layout& m_layout;
  object_journal& m_journal;
  const std::string m_journal_key;
  std::atomic<std::uint64_t> m_next{0}, m_bytes{0}, m_written{0}, m_kept{0};
  std::atomic<unsigned> m_connections{1};
  std::atomic<bool> m_stop{false};
  std::atomic<bool> m_failed{false}; // a writer failed: the main client's request ends too
  std::mutex m_foreign_mu;
  std::string m_foreign;       // the first foreign object met, which stops every writer
  std::string m_journal_error; // the watching thread's own
};

} // namespace

datagen_result generate_s3_dataset(const s3_datagen_options& opt) {
  const auto t0 = now_s();
  const s3::credentials keys = s3::resolve_credentials(opt.settings);
  s3::client main_client(s3::client_options_for(opt.settings, 0), keys);
  const dataset_layout layout(opt.where.url(), opt.params);
  object_journal journal(opt.params, layout.files());
  datagen_result res;
  if (prepare_prefix(opt, main_client, journal)) {
    res.already_complete = true;
    return res;
  }
  s3_generation gen(opt, keys, main_client, layout, journal);
  progress bar(opt.progress);
  const io::watched_result ran = gen.run(bar);
  bar.finish();
  for (const auto& a : ran.abandoned)
    std::fprintf(stderr, "dlsize: left waiting on the S3 server: %s\n", a.c_str());
  gen.check(ran);
  res.files_written = gen.written();
  res.files_kept = gen.kept();
  res.bytes_written = gen.bytes();
  res.interrupted = ran.interrupted || stop_requested();
  if (!res.interrupted) {
    // The manifest is the dataset's "complete" mark: one PUT of the whole, after every object.
    main_client.put_object(opt.where.bucket, opt.where.key(kManifestName),
                           bytes_of(manifest_json(layout, "complete").dump(2) + "\n"));
    main_client.delete_object(opt.where.bucket, opt.where.key(kS3JournalName));
  }
  res.s3_requests = s3::client_figures(); // the writers' clients have ended; the main one not
  res.s3_requests->merge(main_client.stats());
  res.seconds = now_s() - t0;
  return res;
}

} // namespace dlsize::dataset
