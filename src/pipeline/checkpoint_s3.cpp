#include "pipeline/checkpoint_s3.hpp"

#include <atomic>
#include <cstdio>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "dlsize/build_config.hpp"
#include "pipeline/checkpoint_watch.hpp"
#include "s3/retry.hpp"
#include "s3/s3_error.hpp"
#if DLSIZE_HAVE_S3
#include "s3/client.hpp"
#include "s3/reader.hpp"
#include "s3/writer.hpp"
#endif

namespace dlsize::pipeline {
using dataset::checkpoint_set;
using nlohmann::json;

std::string s3_shard_key(const s3_checkpoint& c, std::uint64_t k, unsigned rank, unsigned file) {
  return c.place.where.key(fmt::format("{}/{}", dataset::checkpoint_path("", k).string(),
                                       dataset::shard_name(rank, file)));
}

#if DLSIZE_HAVE_S3
namespace {

std::string manifest_key(const s3_checkpoint& c) {
  return c.place.where.key(dataset::kCheckpointManifest);
}

s3::client make_client(const s3_checkpoint& c) {
  return s3::client(s3::client_options_for(c.place.settings, 0),
                    s3::resolve_credentials(c.place.settings));
}

s3::target target_of(const s3_checkpoint& c) {
  return s3::target_for(c.place.settings, c.place.where.bucket);
}

// Why an object under a shard's key is not this run's ("" when it is): its size is not the
// shard's, or its first bytes are not a block header of (run, rank, file).
std::string not_our_object(s3::client& cl, const s3_checkpoint& c, const std::string& key,
                           const checkpoint_set& set, unsigned rank, unsigned file,
                           std::uint64_t size, std::uint64_t have) {
  if (have != size)
    return fmt::format("{} bytes, where this run's shard has {}", have, size);
  std::byte head[dataset::kShardIdBytes];
  const std::size_t n =
      static_cast<std::size_t>(std::min<std::uint64_t>(sizeof head, size == 0 ? 1 : size));
  const std::size_t got = size == 0 ? 0 : cl.get_range(c.place.where.bucket, key, 0, {head, n});
  if (!dataset::begins_shard(head, got, set.run, rank, file))
    return "its first bytes are not a block header of this run, rank and file";
  return "";
}

// A GET that ended before the bytes asked for: the object under a shard's key is shorter than
// the checkpoint's manifest says (cut, or replaced since it was written). The engine's message
// knows neither the manifest nor the shard, so the sizes are headed and the error says which.
void explain_short_shard(const s3_checkpoint& c, const io::file_set& files, std::uint64_t k,
                         rank_phase& out) {
  try {
    s3::client cl = make_client(c);
    for (std::size_t f = 0; f < files.paths.size(); ++f) {
      const auto info = cl.head_object(c.place.where.bucket, files.paths[f]);
      const std::uint64_t have = info ? info->size : 0;
      if (have < files.sizes[f]) {
        out.error = fmt::format(
            "checkpoint {}: the shard s3://{}/{} holds {} bytes, not the {} the checkpoint's "
            "manifest says: it was cut or replaced after it was written",
            k, c.place.where.bucket, files.paths[f], have, files.sizes[f]);
        return;
      }
    }
  } catch (const std::exception&) {
    // The HEAD failing too leaves the read's own error, which names the object.
  }
}

// Calls fn(rank, file, key, bytes) for every object of checkpoint k.
void for_each_shard(
    const s3_checkpoint& c, const checkpoint_set& set, std::uint64_t k,
    const std::function<void(unsigned, unsigned, const std::string&, std::uint64_t)>& fn,
    unsigned only_rank = kEveryRank) {
  for (unsigned r = 0; r < set.ranks(); ++r) {
    if (set.rank_bytes[r] == 0 || (only_rank != kEveryRank && r != only_rank))
      continue;
    const auto sizes = set.file_bytes(r);
    for (unsigned f = 0; f < set.files_per_rank; ++f)
      fn(r, f, s3_shard_key(c, k, r, f), sizes[f]);
  }
}

void fill_write_figures(rank_phase& out, const s3::upload_result& r) {
  out.bytes = r.bytes;
  out.requests = r.xs.requests;
  out.seconds = static_cast<double>(r.run_ns) * 1e-9;
  out.cpu_s = static_cast<double>(r.cpu_ns) * 1e-9;
  out.fill_s = static_cast<double>(r.fill_ns) * 1e-9;
  out.latency = r.part_latency;
  out.engine = "s3";
  out.s3 = rank_s3_figures{r.xs, r.upload_time};
}

} // namespace

void s3_claim(const s3_checkpoint& c, const checkpoint_set& set) {
  s3::client cl = make_client(c);
  if (cl.head_object(c.place.where.bucket, manifest_key(c)))
    throw usage_error(fmt::format("--dir: {} holds a dlsize checkpoint (s3://{}/{}); dlsize never "
                                  "writes over one. valid: an empty prefix, or --writes 0 to "
                                  "read it",
                                  c.place.where.url(), c.place.where.bucket, manifest_key(c)));
  const std::string& prefix = c.place.where.prefix;
  const s3::list_page page =
      cl.list_objects(c.place.where.bucket, prefix.empty() ? "" : prefix + "/", "", 1);
  if (!page.objects.empty())
    throw usage_error(fmt::format("--dir: {} is not empty: it holds s3://{}/{}. valid: a prefix "
                                  "with nothing under it (dlsize never writes over objects it did "
                                  "not write)",
                                  c.place.where.url(), c.place.where.bucket, page.objects[0].key));
  s3_write_manifest(c, set);
}

checkpoint_set s3_open(const s3_checkpoint& c) {
  s3::client cl = make_client(c);
  std::vector<std::byte> buf(16u << 20);
  std::size_t n = 0;
  try {
    n = cl.get_object(c.place.where.bucket, manifest_key(c), buf);
  } catch (const s3::request_error& e) {
    if (e.details().http_status != 404)
      throw;
    throw usage_error(fmt::format("--dir: {} holds no dlsize checkpoint (no {}). valid: a prefix "
                                  "written by dlsize checkpoint --keep",
                                  c.place.where.url(), manifest_key(c)));
  }
  const std::string text(reinterpret_cast<const char*>(buf.data()), n);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw usage_error(fmt::format("--dir: s3://{}/{} does not parse: {}", c.place.where.bucket,
                                  manifest_key(c), e.what()));
  }
  return checkpoint_set::from_json(j, "s3://" + c.place.where.bucket + "/" + manifest_key(c));
}

void s3_write_manifest(const s3_checkpoint& c, const checkpoint_set& set) {
  const std::string text = set.to_json().dump(2) + "\n";
  make_client(c).put_object(c.place.where.bucket, manifest_key(c),
                            {reinterpret_cast<const std::byte*>(text.data()), text.size()});
}

void s3_check_sealed(const s3_checkpoint& c, const checkpoint_set& set, std::uint64_t k) {
  s3::client cl = make_client(c);
  for_each_shard(c, set, k, [&](unsigned r, unsigned, const std::string& key, std::uint64_t size) {
    const auto info = cl.head_object(c.place.where.bucket, key);
    if (!info || info->size != size)
      throw run_error(fmt::format("checkpoint {}: s3://{}/{} of rank {} is {} after its upload "
                                  "completed (expected {} bytes)",
                                  k, c.place.where.bucket, key, r,
                                  info ? fmt::format("{} bytes", info->size) : "missing", size));
  });
}

std::vector<std::string> s3_remove_checkpoint(const s3_checkpoint& c, const checkpoint_set& set,
                                              std::uint64_t k, bool strict, unsigned only_rank) {
  std::vector<std::string> left;
  s3::client cl = make_client(c);
  for_each_shard(
      c, set, k,
      [&](unsigned r, unsigned f, const std::string& key, std::uint64_t size) {
        const auto info = cl.head_object(c.place.where.bucket, key);
        if (!info)
          return;
        const std::string why = not_our_object(cl, c, key, set, r, f, size, info->size);
        if (why.empty()) {
          cl.delete_object(c.place.where.bucket, key);
          return;
        }
        if (strict)
          throw usage_error(
              fmt::format("--keep-last: s3://{}/{} was not written by this run ({}); "
                          "dlsize deletes only its own checkpoints. valid: remove it, or "
                          "a prefix only dlsize writes to",
                          c.place.where.bucket, key, why));
        left.push_back(fmt::format("s3://{}/{} (dlsize did not write it: {})", c.place.where.bucket,
                                   key, why));
        std::fprintf(stderr, "dlsize: left %s in place\n", left.back().c_str());
      },
      only_rank);
  return left;
}

void s3_remove_manifest(const s3_checkpoint& c) {
  make_client(c).delete_object(c.place.where.bucket, manifest_key(c));
}

rank_phase s3_write_rank(const s3_checkpoint& c, const checkpoint_set& set, unsigned rank,
                         std::uint64_t k, const phase_io& io, const dataset::block_pool& pool) {
  rank_phase out;
  std::vector<s3::upload_object> objects;
  if (set.rank_bytes.at(rank) > 0) {
    const auto sizes = set.file_bytes(rank);
    for (unsigned f = 0; f < set.files_per_rank; ++f)
      objects.push_back({s3_shard_key(c, k, rank, f), sizes[f]});
  }
  s3::writer w(target_of(c), {.part_size = c.part_size,
                              .parts_in_flight = io.queue_depth,
                              .fill_block = set.request_size});
  const dataset::block_id base{set.run, rank, 0, k, 0};
  const s3::upload_filler fill = [&](std::size_t object, std::uint64_t offset, std::byte* dst,
                                     std::size_t len) {
    dataset::block_id id = base;
    id.file = static_cast<std::uint32_t>(object);
    id.offset = offset;
    pool.fill(id, dst, len);
  };
  const s3::upload_result r = run_watched_phase(
      [&] { return w.progress(); }, [&](std::uint64_t age) { return w.stuck_write(age); }, "write",
      io.stall_timeout_s, out.stalled,
      [&](std::atomic<bool>& stop) { return w.upload(objects, fill, stop); });
  fill_write_figures(out, r);
  if (!r.abort_error.empty())
    std::fprintf(stderr, "dlsize: rank %u: %s\n", rank, r.abort_error.c_str());
  if (!out.stalled.empty() || r.interrupted) {
    out.outcome = io::job_outcome::interrupted;
  } else if (!r.error.empty()) {
    out.outcome = io::job_outcome::failed;
    out.error = r.error;
  }
  return out;
}

rank_phase s3_read_rank(const s3_checkpoint& c, const checkpoint_set& set, unsigned rank,
                        std::uint64_t k, const phase_io& io) {
  io::file_set files;
  if (set.rank_bytes.at(rank) == 0)
    return {};
  const auto sizes = set.file_bytes(rank);
  for (unsigned f = 0; f < set.files_per_rank; ++f) {
    files.paths.push_back(s3_shard_key(c, k, rank, f));
    files.sizes.push_back(sizes[f]);
  }
  io::engine_options eo;
  eo.engine = "s3";
  eo.readers = 1; // the checker puts a block together from one reader's pieces
  eo.queue_depth = io.queue_depth;
  eo.request_size = set.request_size;
  s3::reader engine(eo, files, target_of(c));
  range_jobs jobs(files, c.part_size); // a range GET per part
  rank_phase out = read_checked(set, rank, k, files, engine, jobs, io);
  out.s3 = rank_s3_figures{engine.stats(), std::nullopt};
  if (out.outcome == io::job_outcome::failed && out.s3->requests.errors_by_cause.count("short"))
    explain_short_shard(c, files, k, out);
  return out;
}

#else

namespace {
[[noreturn]] void no_s3() {
  throw usage_error("--dir: this dlsize is built without the S3 client (libcurl). valid: a "
                    "folder, or a dlsize built with DLSIZE_WITH_S3");
}
} // namespace

void s3_claim(const s3_checkpoint&, const checkpoint_set&) {
  no_s3();
}
checkpoint_set s3_open(const s3_checkpoint&) {
  no_s3();
}
void s3_write_manifest(const s3_checkpoint&, const checkpoint_set&) {
  no_s3();
}
void s3_check_sealed(const s3_checkpoint&, const checkpoint_set&, std::uint64_t) {
  no_s3();
}
std::vector<std::string> s3_remove_checkpoint(const s3_checkpoint&, const checkpoint_set&,
                                              std::uint64_t, bool, unsigned) {
  no_s3();
}
void s3_remove_manifest(const s3_checkpoint&) {
  no_s3();
}
rank_phase s3_write_rank(const s3_checkpoint&, const checkpoint_set&, unsigned, std::uint64_t,
                         const phase_io&, const dataset::block_pool&) {
  no_s3();
}
rank_phase s3_read_rank(const s3_checkpoint&, const checkpoint_set&, unsigned, std::uint64_t,
                        const phase_io&) {
  no_s3();
}

#endif

bool s3_unanswered(const std::vector<rank_phase>& ranks) {
  for (const auto& r : ranks)
    if (r.s3 && s3::gave_up_retrying(r.s3->requests))
      return true;
  return false;
}

bool s3_unanswered(const std::exception& e) {
  const auto* s = dynamic_cast<const s3::s3_error*>(&e);
  return s != nullptr && s3::classify(s->details()).kind == s3::failure_class::retry;
}

report::checkpoint_s3_section s3_checkpoint_section(const s3_checkpoint& c,
                                                    const std::vector<rank_s3_figures>& writes,
                                                    const std::vector<rank_s3_figures>& reads,
                                                    unsigned queue_depth) {
  histogram upload_time;
  s3::transfer_stats w, r;
  for (const auto& f : writes) {
    w.merge(f.requests);
    if (f.upload_time)
      upload_time.merge(*f.upload_time);
  }
  for (const auto& f : reads)
    r.merge(f.requests);
  const auto& st = c.place.settings;
  report::checkpoint_s3_section s;
  s.endpoints = st.endpoints;
  s.bucket = c.place.where.bucket;
  s.prefix = c.place.where.prefix;
  s.region = st.region;
  s.addressing = std::string(s3::addressing_name(st.style));
  s.server = w.server.empty() ? r.server : w.server;
  s.part_size = c.part_size;
  s.parts_in_flight = queue_depth;
  s.write = s3_section_of(c.place, w); // with rank 0's other requests (claim, seal, clean-up)
  s.read = s3_section_of(c.place, r);
  s.read.other_requests.reset();
  // Said once, for both phases.
  s.settings_from = st.from.as_map();
  s.write.settings_from = {};
  s.read.settings_from = {};
  s.upload_time = report::latency_summary_of(upload_time);
  return s;
}

} // namespace dlsize::pipeline
