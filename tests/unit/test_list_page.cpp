// Unit tests for src/s3/list_page.hpp: one page of a ListObjectsV2 answer.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "s3/list_page.hpp"

namespace s3 = dlsize::s3;

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
