// Unit tests for src/s3/aws_ini and src/s3/aws_settings: the AWS CLI's files read as INI, and
// each S3 setting taken by the AWS CLI's precedence (options, AWS_* variables, the profile of
// ~/.aws/credentials and ~/.aws/config, a default), with a made-up HOME.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "fake_environment.hpp"
#include "s3/aws_ini.hpp"
#include "s3/location.hpp"
#include "test_support.hpp"

using namespace dlsize::s3;
using dlsize::test::fake_environment;
using dlsize::test::usage_error_message;

namespace {

constexpr std::string_view kCredentials = "[default]\n"
                                          "aws_access_key_id = AKIADEFAULT\n"
                                          "aws_secret_access_key = defaultSECRETvalue\n"
                                          "\n"
                                          "# a comment\n"
                                          "; another\n"
                                          "[bench]\n"
                                          "AWS_ACCESS_KEY_ID=AKIABENCH\n"
                                          "aws_secret_access_key =  benchSECRETvalue  \n"
                                          "aws_session_token: benchTOKENvalue\n"
                                          "[nosecret]\n"
                                          "aws_access_key_id = AKIANOSECRET\n";

constexpr std::string_view kConfig = "[default]\n"
                                     "region = eu-west-1\n"
                                     "endpoint_url = https://default.example.com\n"
                                     "[profile bench]\n"
                                     "region = eu-north-1\n"
                                     "output = json\n"
                                     "ca_bundle = /etc/bench-ca.pem\n"
                                     "services = local\n"
                                     "s3 =\n"
                                     "  max_concurrent_requests = 20\n"
                                     "  addressing_style = virtual\n"
                                     "[services local]\n"
                                     "s3 =\n"
                                     "  endpoint_url = http://127.0.0.1:9000\n"
                                     "[profile cfgkeys]\n"
                                     "aws_access_key_id = AKIACONFIG\n"
                                     "aws_secret_access_key = configSECRETvalue\n"
                                     "[profile proc]\n"
                                     "credential_process = /usr/bin/get-keys\n"
                                     "[profile sso]\n"
                                     "sso_session = corp\n"
                                     "sso_account_id = 111122223333\n"
                                     "[profile plugin]\n"
                                     "s3 =\n"
                                     "  endpoint_url = http://plugin.example.com\n"
                                     "[profile auto]\n"
                                     "s3 =\n"
                                     "  addressing_style = auto\n";

// A HOME with ~/.aws/credentials and ~/.aws/config as given.
struct fake_home {
  dlsize::test::temp_dir dir{"dlsize-aws-home"};
  fake_home(std::string_view credentials, std::string_view config) {
    std::filesystem::create_directories(dir.path / ".aws");
    std::ofstream(dir.path / ".aws" / "credentials") << credentials;
    std::ofstream(dir.path / ".aws" / "config") << config;
  }
  std::string path(const char* name) const { return (dir.path / ".aws" / name).string(); }
  environment env(std::map<std::string, std::string> vars = {}) const {
    vars.emplace("HOME", dir.path.string());
    return fake_environment(std::move(vars));
  }
};

settings resolved(const environment& env, settings s = {}) {
  resolve_aws_settings(s, env);
  return s;
}

} // namespace

TEST_CASE("the AWS files are read as INI: sections, settings, comments, nested blocks",
          "[s3][aws]") {
  const aws_ini ini = aws_ini::parse(kConfig, "config");
  REQUIRE(ini.find("profile bench"));
  const auto& bench = *ini.find("profile bench");
  CHECK(*bench.get("region") == "eu-north-1");
  CHECK(bench.nested.at("s3").at("addressing_style") == "virtual");
  CHECK(bench.nested.at("s3").at("max_concurrent_requests") == "20");
  CHECK(ini.find("services local")->nested.at("s3").at("endpoint_url") == "http://127.0.0.1:9000");
  CHECK(ini.find("profile none") == nullptr);
  // Names are lowercased (as configparser does), values trimmed, ':' taken as '='.
  const aws_ini creds = aws_ini::parse(kCredentials, "credentials");
  CHECK(*creds.find("bench")->get("aws_access_key_id") == "AKIABENCH");
  CHECK(*creds.find("bench")->get("aws_secret_access_key") == "benchSECRETvalue");
  CHECK(*creds.find("bench")->get("aws_session_token") == "benchTOKENvalue");
}

TEST_CASE("a line of an AWS file that is not INI is named by its number, never quoted",
          "[s3][aws]") {
  const std::string bad = usage_error_message(
      [] { aws_ini::parse("[default]\naws_secret_access_key sEcReT\n", "creds"); });
  CHECK(bad.rfind("creds: line 2: neither [SECTION] nor NAME = VALUE", 0) == 0);
  CHECK(bad.find("sEcReT") == std::string::npos);
  CHECK(usage_error_message([] {
          aws_ini::parse("region = x\n", "f");
        }).find("line 1: a setting before any [section]") != std::string::npos);
  CHECK(usage_error_message([] {
          aws_ini::parse("[a]\n[b]\n[a]\n", "f");
        }).find("line 3: the section [a] is given twice") != std::string::npos);
  CHECK(usage_error_message([] {
          aws_ini::parse("[a]\nregion = x\nREGION = y\n", "f");
        }).find("line 3: 'region' is set twice in [a]") != std::string::npos);
  CHECK(usage_error_message([] {
          aws_ini::parse("[a\n", "f");
        }).find("line 1: a section header without its closing ']'") != std::string::npos);
  // A file that is not there is an empty one; a folder is refused, named.
  dlsize::test::temp_dir dir;
  CHECK(aws_ini::read((dir.path / "none").string()).sections.empty());
  CHECK(usage_error_message([&] { aws_ini::read(dir.path.string()); }).find(dir.path.string()) !=
        std::string::npos);
}

TEST_CASE("without options or variables, the default profile of ~/.aws gives every setting",
          "[s3][aws]") {
  const fake_home home(kCredentials, kConfig);
  const settings s = resolved(home.env());
  CHECK(s.profile == "default");
  CHECK(s.from.profile == "default");
  CHECK(s.endpoints == std::vector<std::string>{"https://default.example.com"});
  CHECK(s.from.endpoints == home.path("config") + " [default] endpoint_url");
  CHECK(s.region == "eu-west-1");
  CHECK(s.from.region == home.path("config") + " [default] region");
  CHECK(s.style == addressing::path);
  CHECK(s.from.addressing == "default");
  CHECK(s.ca_bundle.empty());
  CHECK(s.from.ca_bundle.empty());
  CHECK(s.from.credentials == home.path("credentials") + " [default]");
  const credentials k = resolve_aws_credentials(s, home.env());
  CHECK(k.access_key == "AKIADEFAULT");
  CHECK(k.secret_key == "defaultSECRETvalue");
}

TEST_CASE("AWS_PROFILE and --s3-profile pick a profile of both files", "[s3][aws]") {
  const fake_home home(kCredentials, kConfig);
  for (const auto& [env, given, source] :
       {std::tuple{home.env({{"AWS_PROFILE", "bench"}}), std::string(), "AWS_PROFILE"},
        std::tuple{home.env({{"AWS_PROFILE", "nosecret"}}), std::string("bench"),
                   "--s3-profile"}}) {
    settings in;
    in.profile = given;
    const settings s = resolved(env, in);
    CHECK(s.profile == "bench");
    CHECK(s.from.profile == source);
    // The profile's services section gives the S3 endpoint, before its own endpoint_url.
    CHECK(s.endpoints == std::vector<std::string>{"http://127.0.0.1:9000"});
    CHECK(s.from.endpoints == home.path("config") + " [services local] s3.endpoint_url");
    CHECK(s.region == "eu-north-1");
    CHECK(s.ca_bundle == "/etc/bench-ca.pem");
    CHECK(s.from.ca_bundle == home.path("config") + " [profile bench] ca_bundle");
    CHECK(s.style == addressing::virtual_host);
    CHECK(s.from.addressing == home.path("config") + " [profile bench] s3.addressing_style");
    const credentials k = resolve_aws_credentials(s, env);
    CHECK(k.access_key == "AKIABENCH");
    CHECK(k.session_token == "benchTOKENvalue");
  }
  // Keys may be in the config file's profile too.
  const settings c = resolved(home.env({{"AWS_PROFILE", "cfgkeys"}}));
  CHECK(c.from.credentials == home.path("config") + " [profile cfgkeys]");
  CHECK(resolve_aws_credentials(c, home.env({{"AWS_PROFILE", "cfgkeys"}})).secret_key ==
        "configSECRETvalue");
}

TEST_CASE("options come before variables, variables before the files, files before defaults",
          "[s3][aws]") {
  const fake_home home(kCredentials, kConfig);
  const auto env = home.env({{"AWS_ENDPOINT_URL_S3", "http://s3-only.example.com"},
                             {"AWS_ENDPOINT_URL", "http://all.example.com"},
                             {"AWS_REGION", "ap-south-1"},
                             {"AWS_DEFAULT_REGION", "ap-east-1"},
                             {"AWS_CA_BUNDLE", "/env/ca.pem"},
                             {"AWS_ACCESS_KEY_ID", "AKIAENV"},
                             {"AWS_SECRET_ACCESS_KEY", "envSECRETvalue"}});
  const settings s = resolved(env);
  CHECK(s.endpoints == std::vector<std::string>{"http://s3-only.example.com"});
  CHECK(s.from.endpoints == "AWS_ENDPOINT_URL_S3");
  CHECK(s.region == "ap-south-1");
  CHECK(s.from.region == "AWS_REGION");
  CHECK(s.ca_bundle == "/env/ca.pem");
  CHECK(s.from.ca_bundle == "AWS_CA_BUNDLE");
  // Keys in the environment come before the default profile's...
  CHECK(s.from.credentials == "AWS_ACCESS_KEY_ID");
  CHECK(resolve_aws_credentials(s, env).access_key == "AKIAENV");
  // ...but a profile named on the command line is used alone.
  settings named;
  named.profile = "bench";
  named = resolved(env, named);
  CHECK(resolve_aws_credentials(named, env).access_key == "AKIABENCH");
  CHECK(named.from.credentials == home.path("credentials") + " [bench]");

  const settings without_s3 = resolved(home.env(
      {{"AWS_ENDPOINT_URL", "http://all.example.com"}, {"AWS_DEFAULT_REGION", "ap-east-1"}}));
  CHECK(without_s3.from.endpoints == "AWS_ENDPOINT_URL");
  CHECK(without_s3.region == "ap-east-1");
  CHECK(without_s3.from.region == "AWS_DEFAULT_REGION");

  settings given;
  given.endpoints = {"http://option.example.com"};
  given.region = "sa-east-1";
  given.ca_bundle = "/option/ca.pem";
  given.style = addressing::path;
  given.from.addressing = "--s3-addressing";
  given.profile = "bench";
  given = resolved(env, given);
  CHECK(given.endpoints == std::vector<std::string>{"http://option.example.com"});
  CHECK(given.from.endpoints == "--s3-endpoint");
  CHECK(given.from.region == "--s3-region");
  CHECK(given.from.ca_bundle == "--s3-ca-bundle");
  CHECK(given.style == addressing::path);
  CHECK(given.from.addressing == "--s3-addressing");

  // Nothing anywhere: us-east-1, named as the default; no endpoint, no CA bundle.
  const settings bare = resolved(fake_environment({}));
  CHECK(bare.region == "us-east-1");
  CHECK(bare.from.region == "default");
  CHECK(bare.endpoints.empty());
  CHECK(bare.from.credentials.empty());
  // AWS_IGNORE_CONFIGURED_ENDPOINT_URLS leaves only --s3-endpoint.
  CHECK(resolved(home.env({{"AWS_ENDPOINT_URL", "http://all.example.com"},
                           {"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"}}))
            .endpoints.empty());
}

TEST_CASE("AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE name other files", "[s3][aws]") {
  const fake_home home("", "");
  dlsize::test::temp_dir other;
  const std::string creds = (other.path / "c").string(), config = (other.path / "k").string();
  std::ofstream(creds) << kCredentials;
  std::ofstream(config) << kConfig;
  const auto env = home.env({{"AWS_SHARED_CREDENTIALS_FILE", creds}, {"AWS_CONFIG_FILE", config}});
  const settings s = resolved(env);
  CHECK(s.region == "eu-west-1");
  CHECK(s.from.region == config + " [default] region");
  CHECK(s.from.credentials == creds + " [default]");
  // A leading ~ is the HOME, as the AWS CLI expands it.
  std::ofstream(home.path("config"), std::ios::trunc) << "[default]\nregion = me-south-1\n";
  CHECK(resolved(home.env({{"AWS_CONFIG_FILE", "~/.aws/config"}})).region == "me-south-1");
}

TEST_CASE("a profile that cannot be used is refused, naming where it was asked for", "[s3][aws]") {
  const fake_home home(kCredentials, kConfig);
  settings absent;
  absent.profile = "prod";
  const std::string m = usage_error_message([&] { resolved(home.env(), absent); });
  CHECK(m.rfind("--s3-profile: no profile 'prod'", 0) == 0);
  CHECK(m.find("valid: default, bench, nosecret, cfgkeys, proc, sso, plugin, auto") !=
        std::string::npos);
  CHECK(usage_error_message([&] {
          resolved(home.env({{"AWS_PROFILE", "prod"}}));
        }).rfind("AWS_PROFILE: no profile 'prod'", 0) == 0);

  const auto keys_of = [&](const char* profile) {
    return usage_error_message([&] {
      const auto env = home.env({{"AWS_PROFILE", profile}});
      resolve_aws_credentials(resolved(env), env);
    });
  };
  const std::string proc = keys_of("proc");
  CHECK(proc.find("runs a credential_process, which dlsize does not do") != std::string::npos);
  CHECK(proc.find("aws configure export-credentials --profile proc --format env") !=
        std::string::npos);
  const std::string sso = keys_of("sso");
  CHECK(sso.find("IAM Identity Center (sso_session)") != std::string::npos);
  CHECK(sso.find("aws sso login --profile sso") != std::string::npos);
  const std::string partial = keys_of("nosecret");
  CHECK(partial.find("has no aws_secret_access_key") != std::string::npos);
  CHECK(usage_error_message([&] {
          resolved(home.env({{"AWS_PROFILE", "plugin"}}));
        }).find("endpoint_url inside 's3 =' is not an AWS CLI setting") != std::string::npos);
  CHECK(usage_error_message([&] {
          resolved(home.env({{"AWS_PROFILE", "auto"}}));
        }).find("'auto' is not an addressing dlsize chooses by") != std::string::npos);
  // No keys anywhere: every place named.
  const std::string none = usage_error_message([] {
    const auto env = fake_environment({});
    resolve_aws_credentials(resolved(env), env);
  });
  CHECK(none.find("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set") != std::string::npos);
  // A key set without its secret is named, never echoed.
  const std::string half = usage_error_message([] {
    const auto env = fake_environment({{"AWS_ACCESS_KEY_ID", "AKIAHALF"}});
    resolve_aws_credentials(resolved(env), env);
  });
  CHECK(half.find("AWS_SECRET_ACCESS_KEY is not set") != std::string::npos);
  for (const std::string& msg : {m, proc, sso, partial, none, half})
    for (std::string_view secret :
         {"defaultSECRETvalue", "benchSECRETvalue", "benchTOKENvalue", "AKIAHALF"})
      CHECK(msg.find(secret) == std::string::npos);
}

TEST_CASE("a wrong value is named by the variable or file setting it came from", "[s3][aws]") {
  const fake_home home("", "[default]\nregion = EU_WEST\nendpoint_url = example.com\n");
  settings s;
  s.endpoints = {"http://127.0.0.1:1"};
  CHECK(usage_error_message([&] {
          complete_settings(s, home.env());
        }).rfind(home.path("config") + " [default] region:", 0) == 0);
  CHECK(usage_error_message([&] {
          settings t;
          complete_settings(t, home.env({{"AWS_REGION", "eu-west-1"}}));
        }).rfind(home.path("config") + " [default] endpoint_url: not an S3", 0) == 0);
  CHECK(usage_error_message([&] {
          settings t;
          complete_settings(t, home.env({{"AWS_REGION", "eu-west-1"},
                                         {"AWS_ENDPOINT_URL_S3", "http://127.0.0.1:1"},
                                         {"AWS_CA_BUNDLE", "/no/such/ca.pem"}}));
        }).rfind("AWS_CA_BUNDLE: cannot read the CA bundle", 0) == 0);
}

TEST_CASE("the sources a report holds name no value", "[s3][aws]") {
  const fake_home home(kCredentials, kConfig);
  const settings s = resolved(home.env({{"AWS_PROFILE", "bench"}}));
  const auto m = s.from.as_map();
  CHECK(m.at("profile") == "AWS_PROFILE");
  CHECK(m.at("credentials") == home.path("credentials") + " [bench]");
  CHECK(m.size() == 6);
  for (const auto& [k, v] : m)
    for (std::string_view secret : {"AKIABENCH", "benchSECRETvalue", "benchTOKENvalue"})
      CHECK(v.find(secret) == std::string::npos);
  CHECK(resolved(fake_environment({})).from.as_map().count("ca_bundle") == 0);
}
