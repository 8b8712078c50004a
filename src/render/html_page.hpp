#pragma once
// One self-contained HTML page: inline CSS, inline SVG figures, no scripts and no external
// resources, so that it reads the same in a browser with no network. The markup is also
// well-formed XML (every element closed, no named entities other than XML's).
#include <string>
#include <string_view>
#include <vector>

#include "render/text_table.hpp"

namespace dlsize::render {

// Text with &, <, >, " and ' escaped for HTML and XML.
std::string html_escape(std::string_view text);

class html_page {
public:
  explicit html_page(std::string title);

  void heading(int level, std::string_view text);
  void paragraph(std::string_view text);
  // Items as a bulleted list; css_class "warnings" shows them as warnings.
  void list(const std::vector<std::string>& items, std::string_view css_class = "");
  void table(const text_table& t);
  // svg: markup made by svg_chart (trusted, not escaped).
  void figure(const std::string& svg, std::string_view caption);
  void code(std::string_view text);

  std::string render() const;

private:
  std::string m_title;
  std::string m_body;
};

} // namespace dlsize::render
