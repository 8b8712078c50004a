// Unit tests for src/s3/xml_text.hpp: the text of an S3 XML answer's elements, entities replaced.
#include <catch2/catch.hpp>

#include "core/markup_escape.hpp"
#include "s3/xml_text.hpp"

namespace s3 = dlsize::s3;

TEST_CASE("xml text replaces entities and numeric references", "[s3][xml]") {
  CHECK(s3::xml_unescape("a&amp;b&lt;c&gt;&quot;&apos;") == "a&b<c>\"'");
  CHECK(s3::xml_unescape("&#65;&#x42;&#xe9;") == "AB\xc3\xa9");
  CHECK(s3::xml_unescape("keep &bogus; and & alone") == "keep &bogus; and & alone");
  CHECK(dlsize::core::markup_escape("<a & \"b\" 'c'>") ==
        "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;");
  CHECK(s3::xml_text("<R xmlns=\"x\"><Key>a&amp;b</Key><Keys>no</Keys></R>", "Key") == "a&b");
  CHECK(s3::xml_text("<R><Empty/></R>", "Empty").empty());
  CHECK_FALSE(s3::xml_element("<R><KeyCount>1</KeyCount></R>", "Key"));
}
