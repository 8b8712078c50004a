#include "s3/s3_error.hpp"

#include <fmt/format.h>

#include "s3/retry.hpp"
#include "s3/xml_text.hpp"

namespace dlsize::s3 {

namespace {

// Server text as one short line: a body may be long or hold line breaks.
std::string one_line(std::string text) {
  constexpr std::size_t max_chars = 300;
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20)
      c = ' ';
  if (text.size() > max_chars)
    text = text.substr(0, max_chars) + "...";
  return text;
}

} // namespace

request_error::request_error(failure f) : run_error(failure_text(f)), s3_error(std::move(f)) {}

request_refused::request_refused(failure f)
    : usage_error(failure_text(f)), s3_error(std::move(f)) {}

std::string failure_text(const failure& f) {
  std::string what =
      f.http_status == 0 ? std::string("no answer") : fmt::format("HTTP {}", f.http_status);
  if (!f.code.empty())
    what += " " + f.code;
  if (!f.message.empty())
    what += " (" + f.message + ")";
  std::string text = fmt::format("S3 {} failed: {}. bucket: {}", f.method, what, f.bucket);
  if (!f.key.empty())
    text += "; key: " + f.key;
  text += "; endpoint: " + f.endpoint;
  const std::string hint = classify(f).hint;
  if (!hint.empty())
    text += "; " + hint;
  return text;
}

failure failure_from_answer(std::string_view method, std::string_view bucket, std::string_view key,
                            std::string_view endpoint, long http_status, std::string_view body) {
  failure f;
  f.method = method;
  f.bucket = bucket;
  f.key = key;
  f.endpoint = endpoint;
  f.http_status = http_status;
  const auto error = xml_element(body, "Error");
  if (error) {
    f.code = one_line(xml_text(*error, "Code"));
    f.message = one_line(xml_text(*error, "Message"));
    f.server_bucket = one_line(xml_text(*error, "BucketName"));
  }
  return f;
}

void throw_failure(failure f) {
  if (classify(f).kind == failure_class::usage)
    throw request_refused(std::move(f));
  throw request_error(std::move(f));
}

} // namespace dlsize::s3
