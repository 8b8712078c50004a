#include "dataset/s3_dataset.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"
#include "s3/s3_error.hpp"

namespace dlsize::dataset {

std::optional<std::string> get_text_object(s3::client& c, const std::string& bucket,
                                           const std::string& key, std::uint64_t max_bytes) {
  // A GET first, not a HEAD: a refusal then comes with the server's reason
  // (SignatureDoesNotMatch names a wrong secret), which a HEAD's empty answer lacks.
  constexpr std::size_t kFirst = 64u << 10;
  std::string text(kFirst, '\0');
  try {
    text.resize(c.get_range(bucket, key, 0, std::as_writable_bytes(std::span(text))));
  } catch (const s3::request_error& e) {
    if (e.details().http_status == 404)
      return std::nullopt;
    if (e.details().http_status != 416) // an empty object has no first byte to range
      throw;
    text.clear();
  }
  if (text.size() < kFirst)
    return text;
  const auto info = c.head_object(bucket, key);
  if (!info)
    return std::nullopt;
  if (info->size > max_bytes)
    throw usage_error(fmt::format("s3://{}/{}: the object is {} bytes, more than the {} bytes a "
                                  "dlsize manifest or journal may be; dlsize will not read it",
                                  bucket, key, info->size, max_bytes));
  text.resize(info->size);
  text.resize(c.get_object(bucket, key, std::as_writable_bytes(std::span(text))));
  return text;
}

dataset_layout open_dataset(const s3::location& where, const s3::settings& settings) {
  s3::client c(s3::client_options_for(settings, 0), s3::resolve_credentials(settings));
  const std::string key = where.key(kManifestName);
  const std::string source = fmt::format("s3://{}/{}", where.bucket, key);
  const auto text = get_text_object(c, where.bucket, key, core::kManifestJson.max_bytes);
  if (!text) {
    if (c.head_object(where.bucket, where.key(kS3JournalName)))
      throw usage_error(fmt::format("--dataset: '{}' is an unfinished generation (no {}); rerun "
                                    "the same `dlsize datagen` command to finish it",
                                    where.url(), kManifestName));
    throw usage_error(fmt::format("--dataset: '{}' is not a dlsize dataset: the object {} is "
                                  "missing. valid: a prefix made by `dlsize datagen`",
                                  where.url(), source));
  }
  return layout_from_manifest(*text, where.url(), source);
}

} // namespace dlsize::dataset
