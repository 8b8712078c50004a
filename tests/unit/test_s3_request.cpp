#include <algorithm>

#include <catch2/catch.hpp>

#include "s3/request.hpp"
#include "test_support.hpp"

using namespace dlsize::s3;
using namespace dlsize::test;

namespace {

request_spec get_spec(std::string_view key) {
  return {.method = "GET", .endpoint = "http://127.0.0.1:7480", .bucket = "data", .key = key};
}

long count_headers(const std::vector<std::string>& headers, std::string_view prefix) {
  return std::count_if(headers.begin(), headers.end(),
                       [&](const std::string& h) { return h.rfind(prefix, 0) == 0; });
}

} // namespace

TEST_CASE("uri encoding leaves unreserved characters alone and writes uppercase hex",
          "[s3][request]") {
  CHECK(uri_encode("AZaz09-._~", false) == "AZaz09-._~");
  CHECK(uri_encode("a b+c=d", false) == "a%20b%2Bc%3Dd");
  CHECK(uri_encode("\xab\xff", false) == "%AB%FF");
  CHECK(uri_encode("caf\xc3\xa9", false) == "caf%C3%A9");
  CHECK(uri_encode("%2b", false) == "%252b");
  CHECK(uri_encode("&?#:@!$'()*,;", false) == "%26%3F%23%3A%40%21%24%27%28%29%2A%2C%3B");
}

TEST_CASE("a slash is kept in a key's path but encoded in a query value", "[s3][request]") {
  CHECK(uri_encode("dir/sub/file", true) == "dir/sub/file");
  CHECK(uri_encode("dir/sub/file", false) == "dir%2Fsub%2Ffile");
  CHECK(canonical_query({{"prefix", "dir/"}}) == "prefix=dir%2F");
}

TEST_CASE("query parameters are sorted and empty values written with '='", "[s3][request]") {
  CHECK(canonical_query({{"prefix", "6"}, {"list-type", "2"}}) == "list-type=2&prefix=6");
  CHECK(canonical_query({{"uploads", ""}}) == "uploads=");
  CHECK(canonical_query({{"uploadId", "x y"}, {"partNumber", "3"}}) ==
        "partNumber=3&uploadId=x%20y");
  // Sorted by the encoded names, then values, as the server sorts them.
  CHECK(canonical_query({{"b", "2"}, {"a~", "1"}, {"a b", "0"}, {"b", "1"}}) ==
        "a%20b=0&a~=1&b=1&b=2");
  CHECK(canonical_query({}).empty());
}

TEST_CASE("keys with spaces, '+', '=' and '~' make canonical paths", "[s3][request]") {
  CHECK(canonical_path("data", "a b+c=d~e.bin", addressing::path) == "/data/a%20b%2Bc%3Dd~e.bin");
  CHECK(canonical_path("data", "dir/x y", addressing::virtual_host) == "/dir/x%20y");
  CHECK(canonical_path("data", "", addressing::path) == "/data");
  CHECK(canonical_path("data", "", addressing::virtual_host) == "/");
  CHECK(canonical_path("data", "/lead//dots/../x", addressing::path) == "/data//lead//dots/../x");
}

TEST_CASE("a request sends x-amz-content-sha256 exactly once, UNSIGNED-PAYLOAD by default",
          "[s3][request]") {
  const auto r = build_request(get_spec("train/sample 1+2=3~.bin"));
  CHECK(r.method == "GET");
  CHECK(r.url == "http://127.0.0.1:7480/data/train/sample%201%2B2%3D3~.bin");
  REQUIRE(r.headers.size() == 1);
  CHECK(r.headers[0] == "x-amz-content-sha256: UNSIGNED-PAYLOAD");
  CHECK(r.sigv4 == "aws:amz:us-east-1:s3");

  auto spec = get_spec("k");
  const std::string empty_sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  spec.payload_sha256 = empty_sha;
  spec.headers = {{"Range", "bytes=0-99"}, {"x-amz-security-token", "tok"}};
  const auto h = build_request(spec);
  CHECK(count_headers(h.headers, "x-amz-content-sha256:") == 1);
  CHECK(h.headers[0] == "x-amz-content-sha256: " + empty_sha);
  CHECK(h.headers[1] == "Range: bytes=0-99");
  CHECK(h.headers[2] == "x-amz-security-token: tok");

  // A range [begin, end) is sent with its last byte inclusive; an empty one is refused.
  auto ranged = get_spec("k");
  ranged.range_begin = 4096;
  ranged.range_end = 8192;
  CHECK(build_request(ranged).headers.back() == "Range: bytes=4096-8191");
  ranged.range_begin = 8192;
  CHECK_THAT(usage_error_message([&] { build_request(ranged); }),
             Catch::Contains("range read of 0 bytes") && Catch::Contains("key: k"));
}

TEST_CASE("a request's query is canonical in its URL", "[s3][request]") {
  request_spec spec{.method = "GET",
                    .endpoint = "https://s3.example.com/",
                    .bucket = "data",
                    .query = {{"prefix", "train/a b"}, {"list-type", "2"}, {"delimiter", "/"}},
                    .region = "eu-west-3"};
  const auto r = build_request(spec);
  CHECK(r.url == "https://s3.example.com/data?delimiter=%2F&list-type=2&prefix=train%2Fa%20b");
  CHECK(r.sigv4 == "aws:amz:eu-west-3:s3");
  request_spec post{.method = "POST",
                    .endpoint = "http://h:1",
                    .bucket = "data",
                    .key = "big",
                    .query = {{"uploads", ""}}};
  CHECK(build_request(post).url == "http://h:1/data/big?uploads=");
}

TEST_CASE("virtual-hosted addressing puts the bucket in the host", "[s3][request]") {
  request_spec spec{.method = "HEAD",
                    .endpoint = "https://s3.example.com:8443",
                    .bucket = "data",
                    .key = "x y",
                    .style = addressing::virtual_host};
  CHECK(build_request(spec).url == "https://data.s3.example.com:8443/x%20y");
  spec.endpoint = "http://127.0.0.1:7480";
  CHECK_THAT(usage_error_message([&] { build_request(spec); }),
             Catch::Contains("needs a DNS name") && Catch::Contains("--s3-addressing path"));
}

TEST_CASE("headers the builder or curl makes cannot be given", "[s3][request]") {
  for (const char* name :
       {"x-amz-content-sha256", "X-Amz-Content-Sha256", "Host", "authorization", "x-amz-date"}) {
    auto spec = get_spec("k");
    spec.headers = {{name, "v"}};
    CHECK_THAT(usage_error_message([&] { build_request(spec); }),
               Catch::Contains("made by the request builder") && Catch::Contains(name));
  }
  auto spec = get_spec("k");
  spec.headers = {{"Range", "bytes=0-1\r\nx-evil: 1"}};
  CHECK_THAT(usage_error_message([&] { build_request(spec); }), Catch::Contains("line break"));
  spec.headers = {{"Range", ""}};
  CHECK_THAT(usage_error_message([&] { build_request(spec); }), Catch::Contains("no value"));
}

TEST_CASE("endpoints, buckets, regions and hashes S3 cannot take are refused, named",
          "[s3][request]") {
  auto with = [](auto change) {
    auto spec = get_spec("k");
    change(spec);
    return usage_error_message([&] { build_request(spec); });
  };
  CHECK_THAT(with([](request_spec& s) { s.endpoint = "ftp://h"; }),
             Catch::Contains("not http or https") && Catch::Contains("ftp://h"));
  CHECK_THAT(with([](request_spec& s) { s.endpoint = "http://AK:SECRET@h"; }),
             Catch::Contains("user info"));
  CHECK_THAT(with([](request_spec& s) { s.endpoint = "http://h/prefix"; }),
             Catch::Contains("path"));
  CHECK_THAT(with([](request_spec& s) { s.endpoint = "http://h:99999"; }), Catch::Contains("port"));
  CHECK_THAT(with([](request_spec& s) { s.bucket = "Bad_Bucket"; }),
             Catch::Contains("bucket: 'Bad_Bucket'"));
  CHECK_THAT(with([](request_spec& s) { s.bucket = "ab"; }), Catch::Contains("3 to 63"));
  CHECK_THAT(with([](request_spec& s) { s.region = "us:east"; }), Catch::Contains("region"));
  CHECK_THAT(with([](request_spec& s) { s.payload_sha256 = "ABCDEF"; }),
             Catch::Contains("64 lowercase hex"));
  CHECK_THAT(with([](request_spec& s) { s.method = "get"; }), Catch::Contains("HTTP method"));
  const std::string long_key(1025, 'k');
  CHECK_THAT(with([&](request_spec& s) { s.key = long_key; }), Catch::Contains("1024 bytes"));
}

TEST_CASE("addressing is parsed from its option words", "[s3][request]") {
  CHECK(dlsize::s3::parse_addressing("path") == addressing::path);
  CHECK(dlsize::s3::parse_addressing("virtual") == addressing::virtual_host);
  CHECK(dlsize::s3::addressing_name(addressing::virtual_host) == "virtual");
  CHECK_THAT(usage_error_message([] { dlsize::s3::parse_addressing("vhost"); }),
             Catch::Contains("valid: path, virtual"));
}
