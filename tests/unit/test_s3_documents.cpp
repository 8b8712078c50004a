#include <stdlib.h>

#include <catch2/catch.hpp>

#include "core/markup_escape.hpp"
#include "s3/credentials.hpp"
#include "s3/list_page.hpp"
#include "s3/multipart.hpp"
#include "s3/s3_error.hpp"
#include "s3/xml_text.hpp"
#include "test_support.hpp"

using dlsize::test::usage_error_message;
namespace s3 = dlsize::s3;

TEST_CASE("xml text replaces entities and numeric references", "[s3][xml]") {
  CHECK(s3::xml_unescape("a&amp;b&lt;c&gt;&quot;&apos;") == "a&b<c>\"'");
  CHECK(s3::xml_unescape("&#65;&#x42;&#xe9;") == "AB\xc3\xa9");
  CHECK(s3::xml_unescape("keep &bogus; and & alone") == "keep &bogus; and & alone");
  CHECK(dlsize::core::markup_escape("<a & \"b\" 'c'>") ==
        "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;");
  CHECK(s3::xml_text("<R xmlns=\"x\"><Key>a&amp;b</Key><Keys>no</Keys></R>", "Key") == "a&b");
  CHECK(s3::xml_text("<R><Empty/></R>", "Empty").empty());
  CHECK_FALSE(s3::xml_element("<R><KeyCount>1</KeyCount></R>", "Key"));
}

TEST_CASE("a listing page gives its objects, prefixes and continuation token", "[s3][xml]") {
  const std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>data</Name>
<Prefix>train/</Prefix><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
<Contents><Key>train/a b+c.bin</Key><LastModified>2026-12-05T02:00:00.000Z</LastModified>
<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>1048576</Size>
<StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>train/x&amp;y</Key><ETag>"e"</ETag><Size>0</Size></Contents>
<CommonPrefixes><Prefix>train/sub/</Prefix></CommonPrefixes>
<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
<KeyCount>2</KeyCount></ListBucketResult>)";
  const auto page = s3::parse_list_page(xml);
  REQUIRE(page.objects.size() == 2);
  CHECK(page.objects[0].key == "train/a b+c.bin");
  CHECK(page.objects[0].size == 1048576);
  CHECK(page.objects[0].etag == "\"9b2cf535f27731c974343645a3985328\"");
  CHECK(page.objects[1].key == "train/x&y");
  CHECK(page.objects[1].size == 0);
  CHECK(page.common_prefixes == std::vector<std::string>{"train/sub/"});
  CHECK(page.truncated);
  CHECK(page.next_token == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");

  const auto last = s3::parse_list_page("<ListBucketResult><IsTruncated>false</"
                                        "IsTruncated><KeyCount>0</KeyCount></ListBucketResult>");
  CHECK(last.objects.empty());
  CHECK_FALSE(last.truncated);
  CHECK_THROWS_WITH(s3::parse_list_page("<ListBucketResult><IsTruncated>true</IsTruncated>"
                                        "</ListBucketResult>"),
                    Catch::Contains("NextContinuationToken"));
  CHECK_THROWS_WITH(s3::parse_list_page("<ListBucketResult><Contents><Key>k</Key><Size>x</Size>"
                                        "</Contents></ListBucketResult>"),
                    Catch::Contains("size: 'x'"));
  CHECK_THROWS_WITH(s3::parse_list_page("<Error/>"), Catch::Contains("ListBucketResult"));
}

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

TEST_CASE("a failed request's message names the request, the status and S3's error code",
          "[s3][errors]") {
  const auto f = s3::failure_from_answer(
      "GET", "data", "train/a", "http://127.0.0.1:7480", 404,
      "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The key\ndoes not exist"
      "</Message><BucketName>data</BucketName></Error>");
  CHECK(f.code == "NoSuchKey");
  CHECK(s3::failure_text(f) == "S3 GET failed: HTTP 404 NoSuchKey (The key does not exist). "
                               "bucket: data; key: train/a; endpoint: http://127.0.0.1:7480");
  CHECK_THROWS_AS(s3::throw_failure(f), s3::request_error);
  try {
    s3::throw_failure(f);
  } catch (const s3::s3_error& e) {
    CHECK(e.details().http_status == 404);
  }
}

TEST_CASE("a refused signature is a usage error that says what to check", "[s3][errors]") {
  const auto f = s3::failure_from_answer(
      "PUT", "data", "k", "http://h:1", 403,
      "<Error><Code>SignatureDoesNotMatch</Code><RequestId>tx1</RequestId></Error>");
  const std::string message = usage_error_message([&] { s3::throw_failure(f); });
  CHECK_THAT(message, Catch::Contains("S3 PUT failed: HTTP 403 SignatureDoesNotMatch") &&
                          Catch::Contains("AWS_SECRET_ACCESS_KEY") &&
                          Catch::Contains("never shown"));
  const auto no_body = s3::failure_from_answer("HEAD", "data", "k", "http://h:1", 403, "");
  CHECK_THAT(s3::failure_text(no_body),
             Catch::Contains("HTTP 403. bucket: data") && Catch::Contains("AWS_ACCESS_KEY_ID"));
}

TEST_CASE("credentials come from the environment and a missing one is named", "[s3][errors]") {
  ::setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t/+value", 1);
  ::unsetenv("AWS_SESSION_TOKEN");
  const auto c = s3::credentials::from_environment();
  CHECK(c.access_key == "AKIAEXAMPLE");
  CHECK(c.secret_key == "s3cr3t/+value");
  CHECK(c.session_token.empty());
  CHECK(c.access_key_hint() == "AKIA\u2026");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  const std::string message = usage_error_message([] { s3::credentials::from_environment(); });
  CHECK_THAT(message, Catch::Contains("AWS_SECRET_ACCESS_KEY is not set"));
  CHECK_THAT(message, !Catch::Contains("AKIAEXAMPLE"));
  ::unsetenv("AWS_ACCESS_KEY_ID");
}
