#pragma once
// A synchronous S3 client on one libcurl easy handle (its connection is kept alive between
// requests): objects put, got whole or by byte range into the caller's buffer, headed, deleted
// and listed, multipart uploads, buckets made and removed. Requests are built by build_request
// and signed by curl (SigV4). TLS is verified (the system's CA store or options.ca_bundle), and
// only the endpoint's scheme is allowed, so https never falls back to http. One thread uses a
// client at a time; the reader and the writer drive many transfers on a curl multi handle
// instead. Every request is retried under the options' retry_policy (s3/retry.hpp), a GET whose
// body was cut resuming by a range GET from the first byte it lacks. Every failure throws an
// s3_error: request_refused for what the user must fix, request_error otherwise.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/defaults.hpp"
#include "s3/credentials.hpp"
#include "s3/list_page.hpp"
#include "s3/multipart.hpp"
#include "s3/request.hpp"
#include "s3/retry.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

struct client_options {
  std::string endpoint = {}; // http[s]://host[:port]
  std::string region = "us-east-1";
  addressing style = addressing::path;
  std::string ca_bundle = {};       // empty: the system's CA store
  long connect_timeout_ms = 10'000; // per connection
  long stall_timeout_s = static_cast<long>(
      core::defaults::stall_timeout_s); // a try under 1 byte/s for this long fails (timeout)
  retry_policy retry = {};
};

struct object_info {
  std::uint64_t size = 0;
  std::string etag;
};

class client {
public:
  // Throws usage_error for an endpoint or region build_request refuses.
  client(client_options options, credentials keys);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  void create_bucket(std::string_view bucket);
  void delete_bucket(std::string_view bucket);

  void put_object(std::string_view bucket, std::string_view key, std::span<const std::byte> body);
  // The whole object into `into`; returns its size. An object larger than `into` fails.
  std::size_t get_object(std::string_view bucket, std::string_view key, std::span<std::byte> into);
  // into.size() bytes from `offset` (fewer at the object's end); returns how many came.
  std::size_t get_range(std::string_view bucket, std::string_view key, std::uint64_t offset,
                        std::span<std::byte> into);
  // nullopt when there is no such object (404).
  std::optional<object_info> head_object(std::string_view bucket, std::string_view key);
  void delete_object(std::string_view bucket, std::string_view key);

  // One page of ListObjectsV2; `token` empty for the first page, then the page's next_token.
  list_page list_objects(std::string_view bucket, std::string_view prefix, std::string_view token,
                         int max_keys = 1000, std::string_view delimiter = {});

  std::string create_multipart_upload(std::string_view bucket, std::string_view key);
  // Returns the part's ETag, for complete_multipart_upload.
  std::string upload_part(std::string_view bucket, std::string_view key, std::string_view upload_id,
                          int part_number, std::span<const std::byte> body);
  void complete_multipart_upload(std::string_view bucket, std::string_view key,
                                 std::string_view upload_id,
                                 const std::vector<completed_part>& parts);
  void abort_multipart_upload(std::string_view bucket, std::string_view key,
                              std::string_view upload_id);

  // A flag that, once set, ends the request in flight and its retries (a request_error saying
  // so): a watched worker's halt. nullptr: none.
  void set_stop(const std::atomic<bool>* stop) { m_stop = stop; }
  // Every request so far: tries, retries and failures by cause, latency.
  const transfer_stats& stats() const { return m_stats; }

  struct exchange; // one try's state, shared with curl's callbacks (client.cpp)

private:
  struct call;
  struct answer;
  answer perform(const call& c);
  // One try; a failure is returned, not thrown. `have` body bytes are in c.into already.
  answer try_once(const call& c, std::size_t have, std::optional<failure>& failed);

  client_options m_options;
  credentials m_keys;
  void* m_easy = nullptr; // CURL*, kept out of this header
  const std::atomic<bool>* m_stop = nullptr;
  transfer_stats m_stats;
  std::uint64_t m_random = 0; // the backoff's jitter
};

} // namespace dlsize::s3
