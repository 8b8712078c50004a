#pragma once
// A made-up environment for the S3 settings' tests: the variables given and nothing else (no
// HOME unless given, so no ~/.aws of the machine running the tests is read).
#include <map>
#include <string>
#include <utility>

#include "s3/credentials.hpp"

namespace dlsize::test {

inline s3::environment fake_environment(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) {
    const auto it = vars.find(name);
    return it == vars.end() ? std::string() : it->second;
  };
}

} // namespace dlsize::test
