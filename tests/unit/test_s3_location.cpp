#include <catch2/catch.hpp>

#include "fake_environment.hpp"
#include "s3/location.hpp"
#include "test_support.hpp"

using namespace dlsize::s3;
using namespace dlsize::test;

TEST_CASE("an s3 URL names a bucket and a prefix without slashes at its ends", "[s3][location]") {
  CHECK(is_s3_url("s3://data/x"));
  CHECK_FALSE(is_s3_url("/data/s3://x"));
  CHECK_FALSE(is_s3_url("S3://data"));

  const location l = parse_location("s3://data/train/resnet/", "--dataset");
  CHECK(l.bucket == "data");
  CHECK(l.prefix == "train/resnet");
  CHECK(l.url() == "s3://data/train/resnet");
  CHECK(l.key("dlsize-dataset.json") == "train/resnet/dlsize-dataset.json");
  CHECK(l.key("d000/img_00000001.rec") == "train/resnet/d000/img_00000001.rec");

  for (std::string_view bare : {"s3://data", "s3://data/"}) {
    const location b = parse_location(bare, "--dataset");
    CHECK(b.bucket == "data");
    CHECK(b.prefix.empty());
    CHECK(b.url() == "s3://data");
    CHECK(b.key("dlsize-dataset.json") == "dlsize-dataset.json");
  }
}

TEST_CASE("a bad s3 URL is refused naming the option and what is valid", "[s3][location]") {
  for (std::string_view bad :
       {"s3://", "s3:///prefix", "s3://Data/x", "s3://ab/x", "s3://data//x", "s3://data/a/../b",
        "s3://data/./b", "s3://data/a\nb", "http://data/x"}) {
    CAPTURE(bad);
    const std::string m = usage_error_message([&] { parse_location(bad, "--dataset"); });
    CHECK(m.rfind("--dataset: not an S3 dataset location", 0) == 0);
    CHECK(m.find("valid: s3://BUCKET or s3://BUCKET/PREFIX") != std::string::npos);
  }
  CHECK(usage_error_message([] {
          parse_location("s3://data/" + std::string(800, 'a'), "dataset");
        }).find("longer than 768 bytes") != std::string::npos);
}

TEST_CASE("settings need an endpoint with its scheme written out", "[s3][location]") {
  const auto none = fake_environment({});
  settings s;
  CHECK(usage_error_message([&] {
          complete_settings(s, none);
        }).rfind("--s3-endpoint: an s3:// dataset needs an endpoint", 0) == 0);

  s.endpoints = dlsize::s3::split_endpoints("http://127.0.0.1:7480, https://s3.example.com,");
  REQUIRE(s.endpoints.size() == 2);
  complete_settings(s, none);
  CHECK(dlsize::s3::client_options_for(s, 0).endpoint == "http://127.0.0.1:7480");
  CHECK(dlsize::s3::client_options_for(s, 1).endpoint == "https://s3.example.com");
  CHECK(dlsize::s3::client_options_for(s, 4).endpoint == "http://127.0.0.1:7480");

  auto given = [&](std::vector<std::string> endpoints, std::string region, std::string ca) {
    settings g;
    g.endpoints = std::move(endpoints);
    g.region = std::move(region);
    g.ca_bundle = std::move(ca);
    return usage_error_message([&] { complete_settings(g, none); });
  };
  // No scheme is never taken as plain http.
  CHECK(given({"s3.example.com:443"}, "", "").rfind("--s3-endpoint: not an S3", 0) == 0);
  // User info is refused without the URL (it would be a secret) in the message.
  const std::string m = given({"https://AKIAUSER:pa55SECRET@s3.example.com"}, "", "");
  CHECK(m.rfind("--s3-endpoint: an endpoint URL holds user info", 0) == 0);
  CHECK(m.find("pa55SECRET") == std::string::npos);
  CHECK(m.find("AKIAUSER") == std::string::npos);

  CHECK(given({"http://127.0.0.1:7480"}, "US_EAST", "").rfind("--s3-region:", 0) == 0);
  CHECK(
      given({"http://127.0.0.1:7480"}, "eu-west-3", "no/such/ca.pem").rfind("--s3-ca-bundle:", 0) ==
      0);
}

TEST_CASE("AWS_ENDPOINT_URL stands in for --s3-endpoint", "[s3][location]") {
  const auto env =
      fake_environment({{"AWS_ENDPOINT_URL", "https://a.example.com,https://b.example.com"}});
  settings s;
  complete_settings(s, env);
  CHECK(s.endpoints == std::vector<std::string>{"https://a.example.com", "https://b.example.com"});
  CHECK(s.from.endpoints == "AWS_ENDPOINT_URL");
  settings given;
  given.endpoints = {"http://127.0.0.1:1"};
  complete_settings(given, env);
  CHECK(given.endpoints == std::vector<std::string>{"http://127.0.0.1:1"});
  CHECK(given.from.endpoints == "--s3-endpoint");
}

TEST_CASE("an option only a bucket takes is refused with a folder, named", "[s3][location]") {
  CHECK(usage_error_message([] {
          refuse_s3_options({"--dataset", "--s3-ca-bundle", "--quiet"}, "--dataset '/data'");
        }) == "--s3-ca-bundle: only for a bucket (s3://BUCKET/PREFIX); --dataset '/data' is a "
              "folder. valid: leave --s3-ca-bundle out, or name a bucket");
  refuse_s3_options({"--dataset", "--quiet"}, "--dataset '/data'"); // nothing of S3's: taken
}
