#pragma once
// Where the reader and the writer send their requests: one bucket, the options of each endpoint
// (connections take them round-robin), the keys and the one retry policy (s3/retry.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "s3/client.hpp"
#include "s3/credentials.hpp"
#include "s3/location.hpp"
#include "s3/retry.hpp"

namespace dlsize::s3 {

struct target {
  std::string bucket;
  std::vector<client_options> endpoints;
  credentials keys;
  retry_policy retry;
};

// The target of `bucket` under completed settings: every endpoint's options, the keys
// (resolve_credentials: throws usage_error as it does) and the settings' retry policy.
target target_for(const settings& s, const std::string& bucket);

// Checks a target before its first request: throws usage_error naming `what` ("an S3 dataset")
// without an endpoint, and what build_request refuses (bucket, endpoint, region) for `method`.
void check_target(const target& t, std::string_view method, std::string_view what);

} // namespace dlsize::s3
