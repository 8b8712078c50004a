#pragma once
// One page of a ListObjectsV2 answer: the objects, the common prefixes (with a delimiter), and
// the token of the next page when the listing is truncated.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::s3 {

struct object_entry {
  std::string key;
  std::uint64_t size = 0;
  std::string etag; // as the server sent it, quotes included
};

struct list_page {
  std::vector<object_entry> objects;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string next_token; // for continuation-token; empty when not truncated
};

// Reads a ListBucketResult document; throws run_error naming the first missing or malformed
// field (a truncated page without NextContinuationToken, a Size that is not a number).
list_page parse_list_page(std::string_view xml);

} // namespace dlsize::s3
