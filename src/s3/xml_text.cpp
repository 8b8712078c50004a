#include "s3/xml_text.hpp"

#include <charconv>
#include <cstdint>

namespace dlsize::s3 {

namespace {

struct element_span {
  std::size_t content_begin;
  std::size_t content_end;
  std::size_t after;
};

// The first element `name` at or after `from`: where its content begins and ends, and where
// the search goes on.
std::optional<element_span> find_element(std::string_view doc, std::string_view name,
                                         std::size_t from) {
  const std::string open = "<" + std::string(name);
  const std::string close = "</" + std::string(name) + ">";
  for (std::size_t at = doc.find(open, from); at != std::string_view::npos;
       at = doc.find(open, at + 1)) {
    const std::size_t tag_end = at + open.size();
    if (tag_end >= doc.size())
      return std::nullopt;
    const char next = doc[tag_end];
    if (next != '>' && next != ' ' && next != '/' && next != '\t' && next != '\n')
      continue;
    const std::size_t gt = doc.find('>', tag_end);
    if (gt == std::string_view::npos)
      return std::nullopt;
    if (doc[gt - 1] == '/')
      return element_span{gt + 1, gt + 1, gt + 1};
    const std::size_t end = doc.find(close, gt + 1);
    if (end == std::string_view::npos)
      return std::nullopt;
    return element_span{gt + 1, end, end + close.size()};
  }
  return std::nullopt;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// One entity's text (between '&' and ';') appended as what it stands for; false if unknown.
bool append_entity(std::string& out, std::string_view entity) {
  static constexpr std::pair<std::string_view, char> named[] = {
      {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
  for (const auto& [name, c] : named)
    if (entity == name) {
      out += c;
      return true;
    }
  if (entity.size() < 2 || entity[0] != '#')
    return false;
  const bool hex = entity[1] == 'x' || entity[1] == 'X';
  const std::string_view digits = entity.substr(hex ? 2 : 1);
  std::uint32_t cp = 0;
  const auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
  if (ec != std::errc() || end != digits.data() + digits.size() || cp > 0x10FFFF)
    return false;
  append_utf8(out, cp);
  return true;
}

} // namespace

std::optional<std::string_view> xml_element(std::string_view doc, std::string_view name) {
  const auto e = find_element(doc, name, 0);
  if (!e)
    return std::nullopt;
  return doc.substr(e->content_begin, e->content_end - e->content_begin);
}

std::vector<std::string_view> xml_elements(std::string_view doc, std::string_view name) {
  std::vector<std::string_view> out;
  for (auto e = find_element(doc, name, 0); e; e = find_element(doc, name, e->after))
    out.push_back(doc.substr(e->content_begin, e->content_end - e->content_begin));
  return out;
}

std::string xml_text(std::string_view doc, std::string_view name) {
  const auto e = xml_element(doc, name);
  return e ? xml_unescape(*e) : std::string();
}

std::string xml_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t amp = text.find('&', i);
    out.append(text.substr(i, amp == std::string_view::npos ? std::string_view::npos : amp - i));
    if (amp == std::string_view::npos)
      break;
    const std::size_t semi = text.find(';', amp);
    if (semi == std::string_view::npos ||
        !append_entity(out, text.substr(amp + 1, semi - amp - 1))) {
      out += '&';
      i = amp + 1;
    } else {
      i = semi + 1;
    }
  }
  return out;
}

} // namespace dlsize::s3
