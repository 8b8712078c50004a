#pragma once
// Escaping of text for markup read as HTML or as XML: the HTML pages of render and the XML
// bodies of S3 requests.
#include <string>
#include <string_view>

namespace dlsize::core {

// Text with &, <, >, " and ' escaped (the last as &#39;, which HTML and XML both read).
std::string markup_escape(std::string_view text);

} // namespace dlsize::core
