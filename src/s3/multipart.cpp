#include "s3/multipart.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/markup_escape.hpp"
#include "s3/xml_text.hpp"

namespace dlsize::s3 {

std::string parse_upload_id(std::string_view xml) {
  std::string id = xml_text(xml, "UploadId");
  if (id.empty())
    throw run_error("an S3 CreateMultipartUpload answer has no UploadId");
  return id;
}

std::string complete_multipart_body(const std::vector<completed_part>& parts) {
  if (parts.empty())
    throw usage_error("a multipart upload completes with at least one part");
  std::string body = "<CompleteMultipartUpload>";
  int previous = 0;
  for (const auto& p : parts) {
    if (p.number <= previous || p.number > 10000)
      throw usage_error(fmt::format("multipart part numbers must ascend from 1 to 10000. part: {}; "
                                    "after: {}",
                                    p.number, previous));
    previous = p.number;
    body += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>{}</ETag></Part>", p.number,
                        core::markup_escape(p.etag));
  }
  body += "</CompleteMultipartUpload>";
  return body;
}

} // namespace dlsize::s3
