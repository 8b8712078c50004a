// The S3 client against a real server: the radosgw of scripts/s3-server.sh, which checks SigV4
// signatures as AWS does. Hidden ([.s3-server]): they run only through the CTest
// integration.test_s3_client, which starts the server (the fixture `s3`) and sets
// AWS_ENDPOINT_URL_S3 and the AWS_ keys.
#include "dlsize/build_config.hpp"

#if DLSIZE_HAVE_S3
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "s3/client.hpp"
#include "s3/s3_error.hpp"
#include "s3_fixture.hpp"

namespace s3 = dlsize::s3;

using dlsize::test::fixture_options;
using dlsize::test::random_bytes;
using dlsize::test::scratch_bucket;

TEST_CASE("objects put to S3 come back whole, by byte range and by HEAD", "[.s3-server]") {
  s3::client c(fixture_options(), s3::credentials::from_environment());
  scratch_bucket b(c, "objects");
  const auto data = random_bytes((1u << 20) + 7, 1);
  for (const std::string key : {"plain.bin", "dir/a b+c=d~e.bin", "dir/%2b&?#.bin"}) {
    c.put_object(b.name, key, data);
    std::vector<std::byte> whole(data.size());
    CHECK(c.get_object(b.name, key, whole) == data.size());
    CHECK(whole == data);
    const auto info = c.head_object(b.name, key);
    REQUIRE(info);
    CHECK(info->size == data.size());
    CHECK_FALSE(info->etag.empty());
  }
  std::vector<std::byte> range(1000);
  CHECK(c.get_range(b.name, "plain.bin", 1000, range) == 1000);
  CHECK(std::equal(range.begin(), range.end(), data.begin() + 1000));
  // A range past the end gives what there is.
  CHECK(c.get_range(b.name, "plain.bin", data.size() - 10, range) == 10);
  CHECK(std::equal(range.begin(), range.begin() + 10, data.end() - 10));

  std::vector<std::byte> small(100);
  CHECK_THROWS_WITH(c.get_object(b.name, "plain.bin", small),
                    Catch::Contains("larger than the buffer of 100 bytes") &&
                        Catch::Contains("key: plain.bin"));
  CHECK_FALSE(c.head_object(b.name, "missing"));
  try {
    c.get_object(b.name, "missing", small);
    FAIL("a missing object was read");
  } catch (const s3::request_error& e) {
    CHECK(e.details().http_status == 404);
    CHECK(e.details().code == "NoSuchKey");
    CHECK_THAT(e.what(), Catch::Contains("S3 GET failed: HTTP 404 NoSuchKey") &&
                             Catch::Contains("key: missing"));
  }
  c.delete_object(b.name, "plain.bin");
  CHECK_FALSE(c.head_object(b.name, "plain.bin"));
}

TEST_CASE("a listing of several pages gives every key once", "[.s3-server]") {
  s3::client c(fixture_options(), s3::credentials::from_environment());
  scratch_bucket b(c, "listing");
  const auto data = random_bytes(10, 2);
  std::set<std::string> written;
  for (int i = 0; i < 7; ++i)
    written.insert(fmt::format("list/{} x+y=z~{}", i % 2 == 0 ? "even" : "odd", i));
  for (const auto& key : written)
    c.put_object(b.name, key, data);
  c.put_object(b.name, "other/not-listed", data);
  std::set<std::string> listed;
  std::string token;
  int pages = 0;
  do {
    const auto page = c.list_objects(b.name, "list/", token, 3);
    ++pages;
    for (const auto& o : page.objects) {
      CHECK(listed.insert(o.key).second);
      CHECK(o.size == data.size());
    }
    token = page.next_token;
  } while (!token.empty() && pages < 10);
  CHECK(pages == 3);
  CHECK(listed == written);
  const auto top = c.list_objects(b.name, "", "", 1000, "/");
  CHECK(top.objects.empty());
  CHECK(top.common_prefixes == std::vector<std::string>{"list/", "other/"});
}

TEST_CASE("a multipart upload round trips its content and an aborted one leaves nothing",
          "[.s3-server]") {
  s3::client c(fixture_options(), s3::credentials::from_environment());
  scratch_bucket b(c, "multipart");
  const std::size_t part_bytes = 5u << 20; // S3's smallest part but the last
  const auto data = random_bytes(part_bytes + 12345, 3);
  const std::string key = "ckpt/model part.bin";
  const std::string id = c.create_multipart_upload(b.name, key);
  std::vector<s3::completed_part> parts;
  const std::span<const std::byte> all(data);
  parts.push_back({1, c.upload_part(b.name, key, id, 1, all.first(part_bytes))});
  parts.push_back({2, c.upload_part(b.name, key, id, 2, all.subspan(part_bytes))});
  c.complete_multipart_upload(b.name, key, id, parts);
  std::vector<std::byte> back(data.size());
  CHECK(c.get_object(b.name, key, back) == data.size());
  CHECK(back == data);

  const std::string aborted = "ckpt/aborted.bin";
  const std::string id2 = c.create_multipart_upload(b.name, aborted);
  c.upload_part(b.name, aborted, id2, 1, all.first(1000));
  c.abort_multipart_upload(b.name, aborted, id2);
  CHECK_FALSE(c.head_object(b.name, aborted));
  try {
    c.upload_part(b.name, aborted, id2, 2, all.first(1000));
    FAIL("a part was uploaded to an aborted upload");
  } catch (const s3::request_error& e) {
    CHECK(e.details().http_status == 404);
    CHECK(e.details().code == "NoSuchUpload");
  }
}

TEST_CASE("a wrong secret is refused with 403 and a message that shows no secret", "[.s3-server]") {
  auto keys = s3::credentials::from_environment();
  s3::client good(fixture_options(), keys);
  scratch_bucket b(good, "secret");
  const std::string real_secret = keys.secret_key;
  keys.secret_key = "wrong" + real_secret.substr(5);
  const std::string wrong_secret = keys.secret_key;
  s3::client bad(fixture_options(), keys);
  const auto data = random_bytes(100, 4);
  for (const char* method : {"PUT", "GET"}) {
    try {
      if (std::string_view(method) == "PUT") {
        bad.put_object(b.name, "k", data);
      } else {
        std::vector<std::byte> into(100);
        bad.get_object(b.name, "k", into);
      }
      FAIL("a request signed with a wrong secret was accepted: " << method);
    } catch (const s3::request_refused& e) {
      const std::string message = e.what();
      CHECK(e.details().http_status == 403);
      CHECK(e.details().code == "SignatureDoesNotMatch");
      CHECK_THAT(message, Catch::Contains(fmt::format("S3 {} failed: HTTP 403", method)) &&
                              Catch::Contains("AWS_SECRET_ACCESS_KEY"));
      CHECK(message.find(wrong_secret) == std::string::npos);
      CHECK(message.find(real_secret) == std::string::npos);
    }
  }
  CHECK_FALSE(good.head_object(b.name, "k"));
}

#endif
