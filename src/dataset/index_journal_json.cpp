// The one place the JSON keys of `dlsize index`'s resume state are written and read
// (dataset/index_journal_document.hpp).
#include <fmt/format.h>

#include "dataset/index_journal_document.hpp"

namespace dlsize::dataset {
namespace {

using json = nlohmann::json;

constexpr std::string_view kTrailer = "{\"~chunk\":";

std::string hex(std::string_view s) {
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s)
    fmt::format_to(std::back_inserter(out), "{:02x}", c);
  return out;
}

std::string unhex(const std::string& h) {
  if (h.size() % 2)
    throw std::invalid_argument("odd hex");
  std::string out;
  for (std::size_t i = 0; i < h.size(); i += 2)
    out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return out;
}

} // namespace

json to_json(const index_resume_head& h) {
  return {{"schema", h.schema}, {"scan", to_json(h.scan)}};
}

std::optional<json> resume_scan_of(const json& j) {
  if (!j.is_object() || j.value("schema", "") != kIndexResumeSchema)
    return std::nullopt;
  const auto scan = j.find("scan");
  return scan == j.end() ? json(nullptr) : *scan;
}

json to_json(const index_chunk_trailer& t) {
  const index_chunk& c = t.chunk;
  json subdirs = json::array(), links = json::array();
  for (const auto& d : c.subdirs)
    subdirs.push_back(hex(d));
  for (const auto& l : c.links)
    links.push_back({l.dev, l.ino, hex(l.name)});
  return {{"~chunk",
           {{"unit", hex(c.unit)},
            {"final", c.final},
            {"lines", t.lines},
            {"hash", t.hash},
            {"counts", to_json(c.counts)},
            {"subdirs", subdirs},
            {"links", links},
            {"followed", c.followed}}}};
}

index_chunk_trailer trailer_from_json(const json& j) {
  const json& t = j.at("~chunk");
  index_chunk_trailer r;
  r.lines = t.at("lines").get<std::uint64_t>();
  r.hash = t.at("hash").get<std::string>();
  index_chunk& c = r.chunk;
  c.unit = unhex(t.at("unit").get<std::string>());
  c.final = t.at("final").get<bool>();
  c.counts = counts_from_json(t.at("counts"), true);
  for (const auto& d : t.at("subdirs"))
    c.subdirs.push_back(unhex(d.get<std::string>()));
  for (const auto& l : t.at("links"))
    c.links.push_back({l.at(0).get<std::uint64_t>(), l.at(1).get<std::uint64_t>(),
                       unhex(l.at(2).get<std::string>())});
  c.followed = t.at("followed").get<std::vector<std::pair<std::uint64_t, std::uint64_t>>>();
  return r;
}

bool is_trailer_line(std::string_view line) {
  return line.rfind(kTrailer, 0) == 0;
}

} // namespace dlsize::dataset
