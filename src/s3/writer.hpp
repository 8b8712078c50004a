#pragma once
// The S3 writer: objects put by multipart upload on one curl multi handle driven by epoll (the
// reader's transfer loop, s3/multi_loop), requests built by build_request, failures retried
// under the target's retry policy (s3/retry.hpp) and counted by cause. Built only with libcurl
// (DLSIZE_HAVE_S3).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "io/inflight_board.hpp"
#include "s3/target.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

// An object to upload: its key (in the target's bucket) and its size.
struct upload_object {
  std::string key;
  std::uint64_t size = 0;
};

// Writes bytes [offset, offset + len) of object `object` at dst; offset is a multiple of
// upload_options::fill_block and len at most that (less only at the object's end). The same
// bytes must come for the same place every time: a retried part is made again.
using upload_filler =
    std::function<void(std::size_t object, std::uint64_t offset, std::byte* dst, std::size_t len)>;

struct upload_options {
  std::uint64_t part_size = 64u << 20; // every part but an object's last; a multiple of fill_block
  unsigned parts_in_flight = 4;        // requests at once (one connection each)
  std::uint32_t fill_block = 1u << 20; // the filler's unit
  // After a stop, how long the aborts (and a create or complete already sent) may take before
  // the writer gives up on them (a hung server); their uploads are then named in abort_error.
  std::uint64_t abort_grace_ns = 5'000'000'000;
};

// What one writer's uploads did.
struct upload_result {
  transfer_stats xs;       // every request (create, part, complete, abort): latency, retries
  histogram part_latency;  // per UploadPart request answered
  histogram upload_time;   // per object: CreateMultipartUpload sent to CompleteMultipartUpload done
  std::uint64_t bytes = 0; // part bytes the server took (a part answered 200)
  std::uint64_t parts = 0, objects = 0, aborted = 0;
  std::uint64_t run_ns = 0, cpu_ns = 0, fill_ns = 0;
  bool interrupted = false; // the stop flag ended the uploads before the last object completed
  std::string error;        // the first failure: the request, the key and S3's reason ("": none)
  // Uploads whose abort failed or did not finish: their parts stay on the server (invisible)
  // until a lifecycle rule removes them ("" when every started upload completed or was aborted).
  std::string abort_error;
};

// Uploads objects by multipart upload from one thread: CreateMultipartUpload, up to
// parts_in_flight UploadPart requests at once (bodies made by the filler as curl sends them: no
// part is held in memory), CompleteMultipartUpload. No object is ever half visible: a stop or a
// failure aborts (AbortMultipartUpload) every upload started and not completed.
class writer {
public:
  // Throws usage_error for a target build_request refuses or without an endpoint, and for a part
  // size that is not a multiple of fill_block.
  writer(target where, upload_options opt);
  ~writer();
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  // Failures are in the result, not thrown (but usage_error for a refused request).
  upload_result upload(const std::vector<upload_object>& objects, const upload_filler& fill,
                       const std::atomic<bool>& stop);
  // "writer 0 has waited 2.0 s for a write of s3://BUCKET/KEY at offset O (L bytes)", or "" when
  // no request has been in flight for min_age_ns. Any thread.
  std::string stuck_write(std::uint64_t min_age_ns) const;
  // Part bytes handed to curl so far (any thread): a stall watch's sign of progress; retries
  // that send nothing add nothing.
  std::uint64_t progress() const { return m_progress.load(std::memory_order_relaxed); }

  struct run; // one upload()'s state (writer.cpp)
  friend struct run;

private:
  target m_target;
  upload_options m_opt;
  io::inflight_board m_inflight;
  mutable std::mutex m_mutex;
  std::vector<std::string> m_keys; // of the running upload, for stuck_write
  std::atomic<std::uint64_t> m_progress{0};
};

} // namespace dlsize::s3
