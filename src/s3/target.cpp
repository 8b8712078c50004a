#include "s3/target.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "s3/request.hpp"

namespace dlsize::s3 {

target target_for(const settings& s, const std::string& bucket) {
  target t{bucket, {}, resolve_credentials(s), client_options_for(s, 0).retry};
  for (std::size_t i = 0; i < s.endpoints.size(); ++i)
    t.endpoints.push_back(client_options_for(s, i));
  return t;
}

void check_target(const target& t, std::string_view method, std::string_view what) {
  if (t.endpoints.empty())
    throw usage_error(fmt::format("{} needs an endpoint. valid: --s3-endpoint URL or "
                                  "AWS_ENDPOINT_URL",
                                  what));
  for (const auto& e : t.endpoints)
    build_request({.method = method,
                   .endpoint = e.endpoint,
                   .bucket = t.bucket,
                   .style = e.style,
                   .region = e.region});
}

} // namespace dlsize::s3
