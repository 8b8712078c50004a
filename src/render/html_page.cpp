#include "render/html_page.hpp"

#include <fmt/format.h>

#include "core/markup_escape.hpp"

namespace dlsize::render {
namespace {

constexpr const char* kStyle =
    R"(body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
th,td{border:1px solid #bbb;padding:0.3em 0.6em;text-align:left;vertical-align:top}
th{background:#eee}
td{font-variant-numeric:tabular-nums}
figure{margin:1em 0}
figcaption{font-size:0.9em;color:#555}
ul.warnings li{color:#8a4b00}
pre{background:#f4f4f4;padding:0.6em;overflow-x:auto;white-space:pre-wrap}
svg{max-width:100%;height:auto}
)";

} // namespace

std::string html_escape(std::string_view text) {
  return core::markup_escape(text);
}

html_page::html_page(std::string title) : m_title(std::move(title)) {}

void html_page::heading(int level, std::string_view text) {
  m_body += fmt::format("<h{0}>{1}</h{0}>\n", level, html_escape(text));
}

void html_page::paragraph(std::string_view text) {
  m_body += "<p>" + html_escape(text) + "</p>\n";
}

void html_page::list(const std::vector<std::string>& items, std::string_view css_class) {
  if (items.empty())
    return;
  m_body += css_class.empty() ? "<ul>\n" : fmt::format("<ul class=\"{}\">\n", css_class);
  for (const auto& i : items)
    m_body += "<li>" + html_escape(i) + "</li>\n";
  m_body += "</ul>\n";
}

void html_page::table(const text_table& t) {
  m_body += "<table>\n<thead><tr>";
  for (const auto& h : t.header)
    m_body += "<th>" + html_escape(h) + "</th>";
  m_body += "</tr></thead>\n<tbody>\n";
  for (const auto& r : t.rows) {
    m_body += "<tr>";
    for (const auto& c : r)
      m_body += "<td>" + html_escape(c) + "</td>";
    m_body += "</tr>\n";
  }
  m_body += "</tbody>\n</table>\n";
}

void html_page::figure(const std::string& svg, std::string_view caption) {
  m_body +=
      "<figure>\n" + svg + "<figcaption>" + html_escape(caption) + "</figcaption>\n</figure>\n";
}

void html_page::code(std::string_view text) {
  m_body += "<pre>" + html_escape(text) + "</pre>\n";
}

std::string html_page::render() const {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                     "<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n<h1>{}</h1>\n{}"
                     "</body>\n</html>\n",
                     html_escape(m_title), kStyle, html_escape(m_title), m_body);
}

} // namespace dlsize::render
