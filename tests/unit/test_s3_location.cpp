#include <stdlib.h>

#include <fstream>

#include <catch2/catch.hpp>

#include "s3/location.hpp"
#include "test_support.hpp"

using namespace dlsize::s3;
using namespace dlsize::test;

namespace {

// Sets an environment variable for the scope, restoring the old value (or its absence) after.
struct scoped_env {
  std::string name;
  std::optional<std::string> old;
  scoped_env(const char* n, const char* value) : name(n) {
    if (const char* v = ::getenv(n))
      old = v;
    if (value)
      ::setenv(n, value, 1);
    else
      ::unsetenv(n);
  }
  ~scoped_env() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

constexpr std::string_view kFile = "[default]\n"
                                   "aws_access_key_id = AKIADEFAULT\n"
                                   "aws_secret_access_key = defaultSECRETvalue\n"
                                   "\n"
                                   "# a comment\n"
                                   "[bench]\n"
                                   "aws_access_key_id=AKIABENCH\n"
                                   "aws_secret_access_key =  benchSECRETvalue  \n"
                                   "aws_session_token = benchTOKENvalue\n"
                                   "s3 =\n"
                                   "  max_concurrent_requests = 20\n"
                                   "[nosecret]\n"
                                   "aws_access_key_id = AKIANOSECRET\n";

} // namespace

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
  scoped_env no_env("AWS_ENDPOINT_URL", nullptr);
  settings s;
  CHECK(usage_error_message([&] {
          complete_settings(s);
        }).rfind("--s3-endpoint: an s3:// dataset needs an endpoint", 0) == 0);

  s.endpoints = dlsize::s3::split_endpoints("http://127.0.0.1:7480, https://s3.example.com,");
  REQUIRE(s.endpoints.size() == 2);
  complete_settings(s);
  CHECK(dlsize::s3::client_options_for(s, 0).endpoint == "http://127.0.0.1:7480");
  CHECK(dlsize::s3::client_options_for(s, 1).endpoint == "https://s3.example.com");
  CHECK(dlsize::s3::client_options_for(s, 4).endpoint == "http://127.0.0.1:7480");

  // No scheme is never taken as plain http.
  s.endpoints = {"s3.example.com:443"};
  CHECK(usage_error_message([&] { complete_settings(s); }).rfind("--s3-endpoint: not an S3", 0) ==
        0);
  // User info is refused without the URL (it would be a secret) in the message.
  s.endpoints = {"https://AKIAUSER:pa55SECRET@s3.example.com"};
  const std::string m = usage_error_message([&] { complete_settings(s); });
  CHECK(m.rfind("--s3-endpoint: an endpoint URL holds user info", 0) == 0);
  CHECK(m.find("pa55SECRET") == std::string::npos);
  CHECK(m.find("AKIAUSER") == std::string::npos);

  s.endpoints = {"http://127.0.0.1:7480"};
  s.region = "US_EAST";
  CHECK(usage_error_message([&] { complete_settings(s); }).rfind("--s3-region:", 0) == 0);
  s.region = "eu-west-3";
  s.ca_bundle = "no/such/ca.pem";
  CHECK(usage_error_message([&] { complete_settings(s); }).rfind("--s3-ca-bundle:", 0) == 0);
}

TEST_CASE("AWS_ENDPOINT_URL stands in for --s3-endpoint", "[s3][location]") {
  scoped_env env("AWS_ENDPOINT_URL", "https://a.example.com,https://b.example.com");
  settings s;
  complete_settings(s);
  CHECK(s.endpoints == std::vector<std::string>{"https://a.example.com", "https://b.example.com"});
  settings given;
  given.endpoints = {"http://127.0.0.1:1"};
  complete_settings(given);
  CHECK(given.endpoints == std::vector<std::string>{"http://127.0.0.1:1"});
}

TEST_CASE("a profile's keys come from the credentials file", "[s3][location]") {
  const credentials d = profile_credentials(kFile, "default", "creds");
  CHECK(d.access_key == "AKIADEFAULT");
  CHECK(d.secret_key == "defaultSECRETvalue");
  CHECK(d.session_token.empty());
  const credentials b = profile_credentials(kFile, "bench", "creds");
  CHECK(b.access_key == "AKIABENCH");
  CHECK(b.secret_key == "benchSECRETvalue");
  CHECK(b.session_token == "benchTOKENvalue");

  const std::string missing =
      usage_error_message([] { profile_credentials(kFile, "prod", "creds"); });
  CHECK(missing.rfind("--s3-profile: no profile 'prod'", 0) == 0);
  CHECK(missing.find("valid: default, bench, nosecret") != std::string::npos);
  const std::string partial =
      usage_error_message([] { profile_credentials(kFile, "nosecret", "creds"); });
  CHECK(partial.find("has no aws_secret_access_key") != std::string::npos);

  // A malformed line is named by its number, never quoted (it may hold a key).
  const std::string bad = usage_error_message(
      [] { profile_credentials("[default]\naws_secret_access_key sEcReT\n", "default", "f"); });
  CHECK(bad.find("line 2") != std::string::npos);
  CHECK(bad.find("sEcReT") == std::string::npos);
  for (const std::string& m : {missing, partial})
    for (std::string_view secret : {"defaultSECRETvalue", "benchSECRETvalue", "benchTOKENvalue"})
      CHECK(m.find(secret) == std::string::npos);
}

TEST_CASE("credentials come from the environment or the named profile", "[s3][location]") {
  dlsize::test::temp_dir dir;
  const std::string file = (dir.path / "credentials").string();
  std::ofstream(file) << kFile;
  scoped_env shared("AWS_SHARED_CREDENTIALS_FILE", file.c_str());
  scoped_env id("AWS_ACCESS_KEY_ID", "AKIAENV");
  scoped_env secret("AWS_SECRET_ACCESS_KEY", "envSECRETvalue");
  scoped_env token("AWS_SESSION_TOKEN", nullptr);

  settings s;
  CHECK(resolve_credentials(s).access_key == "AKIAENV");
  s.profile = "bench";
  CHECK(resolve_credentials(s).secret_key == "benchSECRETvalue");
  s.profile = "absent";
  CHECK(usage_error_message([&] {
          resolve_credentials(s);
        }).rfind("--s3-profile: no profile 'absent'", 0) == 0);

  scoped_env no_file("AWS_SHARED_CREDENTIALS_FILE", (dir.path / "none").c_str());
  CHECK(usage_error_message([&] {
          resolve_credentials(s);
        }).rfind("--s3-profile: cannot read the credentials file", 0) == 0);

  scoped_env no_secret("AWS_SECRET_ACCESS_KEY", nullptr);
  settings env_only;
  const std::string m = usage_error_message([&] { resolve_credentials(env_only); });
  CHECK(m.find("AWS_SECRET_ACCESS_KEY is not set") != std::string::npos);
  CHECK(m.find("--s3-profile") != std::string::npos);
  CHECK(m.find("AKIAENV") == std::string::npos);
}
