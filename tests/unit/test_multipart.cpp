// Unit tests for src/s3/multipart.hpp: the documents of a multipart upload.
#include <catch2/catch.hpp>

#include "s3/multipart.hpp"
#include "test_support.hpp"

using dlsize::test::usage_error_message;
namespace s3 = dlsize::s3;

TEST_CASE("multipart documents carry the upload id and the parts in order", "[s3][xml]") {
  CHECK(s3::parse_upload_id("<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
                            "<UploadId>2~abc&amp;d</UploadId></InitiateMultipartUploadResult>") ==
        "2~abc&d");
  CHECK_THROWS_WITH(s3::parse_upload_id("<X/>"), Catch::Contains("UploadId"));
  CHECK(s3::complete_multipart_body({{1, "\"e1\""}, {2, "\"e2\""}}) ==
        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;e1&quot;</ETag>"
        "</Part><Part><PartNumber>2</PartNumber><ETag>&quot;e2&quot;</ETag></Part>"
        "</CompleteMultipartUpload>");
  CHECK_THAT(usage_error_message([] { s3::complete_multipart_body({}); }),
             Catch::Contains("at least one part"));
  CHECK_THAT(usage_error_message([] {
               s3::complete_multipart_body({{2, "a"}, {1, "b"}});
             }),
             Catch::Contains("ascend"));
}
