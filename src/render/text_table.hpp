#pragma once
// A table of already formatted cells, built once and rendered as Markdown or HTML so that both
// outputs of a report say the same thing.
#include <string>
#include <vector>

namespace dlsize::render {

struct text_table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// A GitHub-flavoured Markdown table ('|' in cells escaped), ending with a newline.
std::string markdown_table(const text_table& t);

} // namespace dlsize::render
