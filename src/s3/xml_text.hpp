#pragma once
// Just enough XML for S3's responses, which are flat documents of named elements without
// namespaces prefixes, CDATA or comments: the text of an element, every element of a name, and
// the five entities and numeric references. Not a validating parser: a malformed body gives
// missing elements, which the callers report with the request that got them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::s3 {

// The raw content of the first element `name` in doc (between its start and end tags; empty for
// `<name/>`), or nullopt when there is none.
std::optional<std::string_view> xml_element(std::string_view doc, std::string_view name);

// The raw content of every element `name` in doc, in order (elements of one name do not nest in
// S3's documents).
std::vector<std::string_view> xml_elements(std::string_view doc, std::string_view name);

// The text of the first element `name`, entities replaced; empty when there is none.
std::string xml_text(std::string_view doc, std::string_view name);

// Replaces &amp; &lt; &gt; &quot; &apos; and &#N; / &#xN; (as UTF-8); an unknown entity is kept.
std::string xml_unescape(std::string_view text);

} // namespace dlsize::s3
