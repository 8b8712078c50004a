#include "s3/aws_settings.hpp"

#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "s3/aws_ini.hpp"
#include "s3/location.hpp"

namespace dlsize::s3 {
namespace {

constexpr std::string_view kDefaultRegion = "us-east-1";

// The two shared files, read once per resolution.
struct shared_files {
  aws_ini credentials, config;
};

std::string file_path(const environment& env, const char* variable, const char* name) {
  std::string path = env(variable);
  const std::string home = env("HOME");
  if (!path.empty())
    // The AWS CLI expands a leading ~ in these variables.
    return path.rfind("~/", 0) == 0 && !home.empty() ? home + path.substr(1) : path;
  return home.empty() ? std::string() : fmt::format("{}/.aws/{}", home, name);
}

shared_files read_files(const environment& env) {
  shared_files f;
  const auto read = [](const std::string& path) {
    return path.empty() ? aws_ini{"(no HOME, so no ~/.aws)", {}} : aws_ini::read(path);
  };
  f.credentials = read(file_path(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials"));
  f.config = read(file_path(env, "AWS_CONFIG_FILE", "config"));
  return f;
}

// The profile in use and its sections: `[NAME]` of the credentials file, `[profile NAME]`
// (`[default]` for default) of the config file.
struct profile_view {
  std::string name, source; // source: --s3-profile, AWS_PROFILE or default
  const aws_ini_section* credentials = nullptr;
  const aws_ini_section* config = nullptr;
  const shared_files* files = nullptr;

  // "FILE [SECTION] KEY" of the config file's section.
  std::string config_source(std::string_view key) const {
    return fmt::format("{} [{}] {}", files->config.file, config->name, key);
  }
  // The config section's value of key, or nullptr.
  const std::string* config_value(std::string_view key) const {
    return config ? config->get(key) : nullptr;
  }
};

std::vector<std::string> profile_names(const shared_files& f) {
  std::set<std::string> seen;
  std::vector<std::string> out;
  auto add = [&](const std::string& n) {
    if (seen.insert(n).second)
      out.push_back(n);
  };
  for (const auto& s : f.credentials.sections)
    add(s.name);
  for (const auto& s : f.config.sections)
    if (s.name == "default")
      add(s.name);
    else if (s.name.rfind("profile ", 0) == 0)
      add(s.name.substr(8));
  return out;
}

profile_view choose_profile(const settings& s, const shared_files& f, const environment& env) {
  profile_view v;
  v.files = &f;
  if (!s.profile.empty()) {
    v.name = s.profile;
    v.source = s.from.profile.empty() ? "--s3-profile" : s.from.profile;
  } else if (const std::string p = env("AWS_PROFILE"); !p.empty()) {
    v.name = p;
    v.source = "AWS_PROFILE";
  } else {
    v.name = "default";
    v.source = "default";
  }
  v.credentials = f.credentials.find(v.name);
  v.config = f.config.find(fmt::format("profile {}", v.name));
  if (!v.config && v.name == "default")
    v.config = f.config.find("default");
  if (!v.credentials && !v.config && v.source != "default") {
    const auto names = profile_names(f);
    throw usage_error(
        fmt::format("{}: no profile '{}' in the credentials file or the config "
                    "file. files: {}, {}; valid: {}",
                    v.source, v.name, f.credentials.file, f.config.file,
                    names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
  }
  return v;
}

// Keys and where they came from ("AWS_ACCESS_KEY_ID", "FILE [SECTION]").
struct located_keys {
  credentials keys;
  std::string source;
};

// The first of the candidates that is set: {value, source}.
struct candidate {
  std::string value, source;
};

candidate first_set(std::initializer_list<candidate> candidates) {
  for (const auto& c : candidates)
    if (!c.value.empty())
      return c;
  return {};
}

candidate from_env(const environment& env, const char* name) {
  return {env(name), name};
}

candidate from_config(const profile_view& p, std::string_view key) {
  const std::string* v = p.config_value(key);
  return v ? candidate{*v, p.config_source(key)} : candidate{};
}

// The endpoint of the profile's `services` section (`s3 =` / `  endpoint_url = URL`), else its
// own endpoint_url. An endpoint_url inside the profile's own `s3 =` block is a plugin's
// convention the AWS CLI does not read: refused rather than silently passed over.
candidate config_endpoint(const profile_view& p) {
  if (!p.config)
    return {};
  if (const auto nested = p.config->nested.find("s3");
      nested != p.config->nested.end() && nested->second.count("endpoint_url"))
    throw usage_error(fmt::format(
        "{}: endpoint_url inside 's3 =' is not an AWS CLI setting (awscli-plugin-endpoint's). "
        "valid: endpoint_url at the profile's top level, or in a [services NAME] section named by "
        "the profile's 'services = NAME'",
        p.config_source("s3")));
  if (const std::string* name = p.config_value("services")) {
    const std::string section = fmt::format("services {}", *name);
    const aws_ini_section* svc = p.files->config.find(section);
    if (!svc)
      throw usage_error(fmt::format("{}: no [{}] section in the config file. valid: a [services "
                                    "NAME] section whose 's3 =' block sets endpoint_url",
                                    p.config_source("services"), section));
    if (const auto s3 = svc->nested.find("s3"); s3 != svc->nested.end())
      if (const auto url = s3->second.find("endpoint_url"); url != s3->second.end())
        return {url->second, fmt::format("{} [{}] s3.endpoint_url", p.files->config.file, section)};
  }
  return from_config(p, "endpoint_url");
}

bool is_true(const std::string& v) {
  return v == "true" || v == "True" || v == "TRUE";
}

void resolve_endpoints(settings& s, const profile_view& p, const environment& env) {
  if (!s.endpoints.empty() || !s.from.endpoints.empty()) {
    if (s.from.endpoints.empty())
      s.from.endpoints = "--s3-endpoint";
    return;
  }
  const std::string* ignore = p.config_value("ignore_configure_endpoint_urls");
  if (is_true(env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) || (ignore && is_true(*ignore)))
    return; // as the AWS CLI: only --s3-endpoint is taken
  const candidate c = first_set({from_env(env, "AWS_ENDPOINT_URL_S3"),
                                 from_env(env, "AWS_ENDPOINT_URL"), config_endpoint(p)});
  s.endpoints = split_endpoints(c.value);
  if (!s.endpoints.empty())
    s.from.endpoints = c.source;
}

void resolve_addressing(settings& s, const profile_view& p) {
  if (!s.from.addressing.empty())
    return;
  s.from.addressing = "default";
  if (!p.config)
    return;
  const auto nested = p.config->nested.find("s3");
  if (nested == p.config->nested.end())
    return;
  const auto style = nested->second.find("addressing_style");
  if (style == nested->second.end())
    return;
  const std::string where = p.config_source("s3.addressing_style");
  if (style->second != "path" && style->second != "virtual")
    throw usage_error(fmt::format("{}: '{}' is not an addressing dlsize chooses by. valid: path "
                                  "or virtual (or --s3-addressing)",
                                  where, style->second));
  s.style = parse_addressing(style->second);
  s.from.addressing = where;
}

// A setting of its own: kept when the option gave it, else the first candidate that is set.
void resolve_one(std::string& value, std::string& source, const char* option,
                 std::initializer_list<candidate> candidates) {
  if (!source.empty())
    return;
  if (!value.empty()) {
    source = option;
    return;
  }
  const candidate c = first_set(candidates);
  value = c.value;
  source = c.source;
}

// Why a profile's keys cannot be read: it gets them some other way than static keys. Empty when
// nothing stands in the way.
std::string unsupported_keys(const aws_ini_section& s) {
  static const std::pair<const char*, const char*> kWays[] = {
      {"role_arn", "assumes a role (role_arn)"},
      {"web_identity_token_file", "assumes a role with a web identity token"},
      {"sso_session", "signs in through IAM Identity Center (sso_session)"},
      {"sso_start_url", "signs in through IAM Identity Center (sso_start_url)"},
      {"credential_process", "runs a credential_process"}};
  for (const auto& [key, way] : kWays)
    if (s.get(key))
      return way;
  return {};
}

[[noreturn]] void refuse_unsupported(const profile_view& p, const std::string& file,
                                     const std::string& way) {
  const bool sso = way.find("Identity Center") != std::string::npos;
  throw usage_error(fmt::format(
      "{}: profile '{}' of {} {}, which dlsize does not do (it signs with static keys, without "
      "an AWS SDK). valid: export the profile's keys first: {}eval \"$(aws configure "
      "export-credentials --profile {} --format env)\", then run dlsize without the profile",
      p.source, p.name, file, way, sso ? fmt::format("aws sso login --profile {}; ", p.name) : "",
      p.name));
}

// The keys of one section when it holds any; both keys are needed.
std::optional<located_keys> section_keys(const aws_ini_section* s, const std::string& file,
                                         const profile_view& p) {
  if (!s || (!s->get("aws_access_key_id") && !s->get("aws_secret_access_key")))
    return std::nullopt;
  for (const char* key : {"aws_access_key_id", "aws_secret_access_key"})
    if (!s->get(key) || s->get(key)->empty())
      throw usage_error(
          fmt::format("{}: profile '{}' has no {}. file: {}", p.source, p.name, key, file));
  located_keys k;
  k.keys.access_key = *s->get("aws_access_key_id");
  k.keys.secret_key = *s->get("aws_secret_access_key");
  if (const std::string* token = s->get("aws_session_token"))
    k.keys.session_token = *token;
  k.source = fmt::format("{} [{}]", file, s->name);
  return k;
}

// The profile's keys, in the AWS CLI's order: a role or IAM Identity Center first (refused),
// the credentials file, a credential_process (refused), the config file.
located_keys profile_keys(const profile_view& p) {
  const auto& f = *p.files;
  for (const auto& [s, file] :
       {std::pair{p.config, &f.config.file}, std::pair{p.credentials, &f.credentials.file}})
    if (s)
      if (const std::string way = unsupported_keys(*s);
          !way.empty() && way.find("credential_process") == std::string::npos)
        refuse_unsupported(p, *file, way);
  if (auto k = section_keys(p.credentials, f.credentials.file, p))
    return *k;
  for (const auto& [s, file] :
       {std::pair{p.credentials, &f.credentials.file}, std::pair{p.config, &f.config.file}})
    if (s && s->get("credential_process"))
      refuse_unsupported(p, *file, unsupported_keys(*s));
  if (auto k = section_keys(p.config, f.config.file, p))
    return *k;
  throw usage_error(fmt::format(
      "no S3 credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and profile "
      "'{}' ({}) has no aws_access_key_id in {} or {}. valid: set AWS_ACCESS_KEY_ID and "
      "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials), or name a "
      "profile with keys with --s3-profile or AWS_PROFILE",
      p.name, p.source, f.credentials.file, f.config.file));
}

located_keys locate(const settings& s, const shared_files& f, const environment& env) {
  const profile_view p = choose_profile(s, f, env);
  // A profile given on the command line is used alone; otherwise keys in the environment come
  // first, as the AWS CLI takes them.
  if (p.source != "--s3-profile" &&
      (!env("AWS_ACCESS_KEY_ID").empty() || !env("AWS_SECRET_ACCESS_KEY").empty())) {
    located_keys k;
    k.keys = credentials::from_environment(env);
    k.source = "AWS_ACCESS_KEY_ID";
    return k;
  }
  return profile_keys(p);
}

} // namespace

std::map<std::string, std::string> setting_sources::as_map() const {
  std::map<std::string, std::string> out;
  for (const auto& [name, source] : {std::pair<const char*, const std::string&>{"profile", profile},
                                     {"endpoints", endpoints},
                                     {"region", region},
                                     {"addressing", addressing},
                                     {"ca_bundle", ca_bundle},
                                     {"credentials", credentials}})
    if (!source.empty())
      out.emplace(name, source);
  return out;
}

void resolve_aws_settings(settings& s, const environment& env) {
  const shared_files f = read_files(env);
  const profile_view p = choose_profile(s, f, env);
  s.profile = p.name;
  s.from.profile = p.source;
  resolve_endpoints(s, p, env);
  resolve_one(s.region, s.from.region, "--s3-region",
              {from_env(env, "AWS_REGION"),
               from_env(env, "AWS_DEFAULT_REGION"),
               from_config(p, "region"),
               {std::string(kDefaultRegion), "default"}});
  resolve_one(s.ca_bundle, s.from.ca_bundle, "--s3-ca-bundle",
              {from_env(env, "AWS_CA_BUNDLE"), from_config(p, "ca_bundle")});
  resolve_addressing(s, p);
  if (s.from.credentials.empty()) {
    try {
      s.from.credentials = locate(s, f, env).source;
    } catch (const usage_error&) {
      // No keys yet is not an error here: a command that makes no request needs none, and one
      // that does is refused when its client is made (resolve_aws_credentials).
    }
  }
}

credentials resolve_aws_credentials(const settings& s, const environment& env) {
  return locate(s, read_files(env), env).keys;
}

} // namespace dlsize::s3
