// The journal a generation into a bucket keeps (dlsize.s3-datagen-journal/1): the only place its
// JSON is made and read.
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "dataset/datagen.hpp"

namespace dlsize::dataset {
namespace {

constexpr const char* kJournalSchema = "dlsize.s3-datagen-journal/1";

} // namespace

std::string object_journal_text(const object_journal_document& d) {
  nlohmann::json ranges = nlohmann::json::array();
  for (const auto& [from, to] : d.written)
    ranges.push_back({from, to});
  return nlohmann::json{
             {"schema", kJournalSchema}, {"params", d.params.to_json()}, {"written", ranges}}
             .dump() +
         "\n";
}

object_journal_document object_journal_from_text(std::string_view text, const std::string& source,
                                                 std::uint64_t files) {
  const nlohmann::json j = core::parse_json(text, source, core::kManifestJson);
  if (!j.is_object() || j.value("schema", "") != kJournalSchema)
    throw usage_error(fmt::format("{}: not a dlsize datagen journal (schema {}); dlsize will not "
                                  "touch this prefix",
                                  source, kJournalSchema));
  object_journal_document d;
  d.params = dataset_params::from_json(core::json_checker(source).object(j, "", "params"), source);
  const auto written = j.find("written");
  if (written == j.end() || !written->is_array())
    throw usage_error(fmt::format("{}: written: missing or not an array", source));
  for (const auto& range : *written) {
    if (!range.is_array() || range.size() != 2 || !range[0].is_number_unsigned() ||
        !range[1].is_number_unsigned() || range[0] >= range[1] || range[1] > files)
      throw usage_error(fmt::format("{}: written: {} is not a range of files [from, to) of the "
                                    "{} files",
                                    source, range.dump(), files));
    d.written.emplace_back(range[0].get<std::uint64_t>(), range[1].get<std::uint64_t>());
  }
  return d;
}

} // namespace dlsize::dataset
