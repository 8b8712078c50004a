#include "s3/list_page.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/error.hpp"
#include "s3/xml_text.hpp"

namespace dlsize::s3 {

list_page parse_list_page(std::string_view xml) {
  const auto result = xml_element(xml, "ListBucketResult");
  if (!result)
    throw run_error("an S3 listing is not a ListBucketResult document");
  list_page page;
  for (std::string_view contents : xml_elements(*result, "Contents")) {
    object_entry e;
    e.key = xml_text(contents, "Key");
    const std::string size = xml_text(contents, "Size");
    const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), e.size);
    if (e.key.empty() || ec != std::errc() || end != size.data() + size.size())
      throw run_error(fmt::format("an S3 listing has an entry without a key or size. key: '{}'; "
                                  "size: '{}'",
                                  e.key, size));
    e.etag = xml_text(contents, "ETag");
    page.objects.push_back(std::move(e));
  }
  for (std::string_view prefix : xml_elements(*result, "CommonPrefixes"))
    page.common_prefixes.push_back(xml_text(prefix, "Prefix"));
  page.truncated = xml_text(*result, "IsTruncated") == "true";
  if (page.truncated) {
    page.next_token = xml_text(*result, "NextContinuationToken");
    if (page.next_token.empty())
      throw run_error("an S3 listing is truncated but has no NextContinuationToken");
  }
  return page;
}

} // namespace dlsize::s3
