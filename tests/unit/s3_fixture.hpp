#pragma once
// What the unit tests against the S3 fixture share (tests labelled s3 set AWS_ENDPOINT_URL_S3
// and the AWS_ keys): the endpoint, random bodies, and a bucket of the test's own.
#include <unistd.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "s3/client.hpp"

namespace dlsize::test {

namespace s3 = dlsize::s3;

inline s3::client_options fixture_options() {
  const char* endpoint = std::getenv("AWS_ENDPOINT_URL_S3");
  if (endpoint == nullptr)
    FAIL("AWS_ENDPOINT_URL_S3 is not set: run through ctest -R s3 (scripts/s3-server.sh)");
  return {.endpoint = endpoint};
}

inline std::vector<std::byte> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::byte> v(n);
  for (auto& b : v)
    b = static_cast<std::byte>(rng());
  return v;
}

// A bucket of this test alone, emptied and removed when the test ends.
struct scratch_bucket {
  s3::client& c;
  std::string name;
  scratch_bucket(s3::client& cl, std::string_view what)
      : c(cl), name(fmt::format("dlsize-{}-{}", what, ::getpid())) {
    c.create_bucket(name);
  }
  ~scratch_bucket() {
    try {
      std::string token;
      do {
        const auto page = c.list_objects(name, "", token);
        for (const auto& o : page.objects)
          c.delete_object(name, o.key);
        token = page.next_token;
      } while (!token.empty());
      c.delete_bucket(name);
    } catch (const std::exception& e) {
      WARN("bucket " << name << " not removed: " << e.what());
    }
  }
};

} // namespace dlsize::test
