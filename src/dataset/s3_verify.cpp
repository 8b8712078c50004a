// verify for a dataset in a bucket: verify_dataset's checks, with range GETs for reads.
#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "dataset/record_verifier.hpp"
#include "dataset/s3_dataset.hpp"
#include "dataset/verify_run.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {
namespace {

constexpr std::size_t kRangeBytes = 4u << 20;

// Reads object f in order by range GETs and feeds the verifier. A missing object, or one of
// another size, is a problem of the dataset (named), not a failure of the run.
std::uint64_t check_object(const dataset_layout& layout, const s3::location& where, std::uint64_t f,
                           s3::client& c, std::vector<std::byte>& buf, record_verifier& v,
                           io::worker_context& io) {
  const std::string key = where.key(layout.relative_path(f));
  v.reset(layout, f, layout.first_record(f), layout.params().records_per_file);
  const auto info =
      io.blocking("a HEAD of " + key, [&] { return c.head_object(where.bucket, key); });
  if (!info) {
    v.fail("the object is missing");
    return 0;
  }
  const std::uint64_t want = layout.file_bytes(f);
  const std::uint64_t have = std::min(info->size, want);
  std::uint64_t off = 0;
  while (off < have && !io.halted()) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kRangeBytes, have - off));
    const std::size_t got = io.blocking(fmt::format("a GET of {} at offset {}", key, off), [&] {
      return c.get_range(where.bucket, key, off, std::span(buf.data(), n));
    });
    if (got == 0)
      break;
    v.feed(off, buf.data(), got);
    off += got;
  }
  if (info->size < want)
    v.fail(fmt::format("truncated: {} bytes, expected {}", info->size, want));
  else if (info->size > want)
    v.fail(fmt::format("too long: {} bytes, expected {}", info->size, want));
  return off;
}

} // namespace

verify_result verify_s3_dataset(const s3::location& where, const s3::settings& settings,
                                unsigned threads, bool show, double stall_timeout_s) {
  const auto t0 = now_s();
  const dataset_layout layout = open_dataset(where, settings);
  const s3::credentials keys = s3::resolve_credentials(settings);
  std::atomic<unsigned> connections{0};
  auto make_checker = [&]() -> file_checker {
    // One client (one connection) per reader, the endpoints taken in turn.
    auto c = std::make_shared<s3::client>(
        s3::client_options_for(settings, connections.fetch_add(1)), keys);
    auto buf = std::make_shared<std::vector<std::byte>>(kRangeBytes);
    return [&layout, &where, c, buf](std::uint64_t f, record_verifier& v, io::worker_context& io) {
      c->set_stop(&io.halt_flag()); // a stall or a failure elsewhere ends its requests
      return check_object(layout, where, f, *c, *buf, v, io);
    };
  };
  // The verifier names a file by its relative path, which the object's key extends.
  verify_result res = verify_layout(
      layout, threads, show, stall_timeout_s, make_checker,
      [&where](const std::string& problem) { return where.key(problem); }, "object");
  res.seconds = now_s() - t0;
  res.s3_requests = s3::client_figures(); // every client has ended: the manifest's and the readers'
  return res;
}

} // namespace dlsize::dataset
