#include "s3/listing.hpp"

#include <random>
#include <thread>

namespace dlsize::s3 {

bool retryable(const failure& f) {
  return f.http_status == 0 || f.http_status == 500 || f.http_status == 502 ||
         f.http_status == 503 || f.http_status == 504;
}

void wait_before_retry(const retry_policy& p, unsigned failed) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::this_thread::sleep_for(std::chrono::nanoseconds(backoff_ns(p, failed, rng())));
}

list_page list_page_retried(client& c, std::string_view bucket, std::string_view prefix,
                            std::string_view token, std::string_view delimiter,
                            std::atomic<std::uint64_t>& retries, const retry_policy& policy) {
  return with_retries(policy, retries,
                      [&] { return c.list_objects(bucket, prefix, token, 1000, delimiter); });
}

} // namespace dlsize::s3
