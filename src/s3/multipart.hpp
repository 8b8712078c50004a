#pragma once
// The documents of a multipart upload: the upload id of CreateMultipartUpload's answer and the
// body of CompleteMultipartUpload.
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::s3 {

// A part uploaded: its number (1 to 10000) and the ETag UploadPart answered.
struct completed_part {
  int number = 0;
  std::string etag;
};

// The UploadId of an InitiateMultipartUploadResult; throws run_error when there is none.
std::string parse_upload_id(std::string_view xml);

// The CompleteMultipartUpload body for the parts, in the order given (S3 wants them ascending);
// throws usage_error for no parts or numbers out of order or range.
std::string complete_multipart_body(const std::vector<completed_part>& parts);

} // namespace dlsize::s3
