// Unit tests for the typed resume state of `dlsize index` (dataset/index_journal_document.hpp,
// dataset/index_journal_json.cpp): a chunk's trailer is the line the string-keyed code wrote
// (names as hex) and reads back typed; a state's first line names its scan.
#include <string>

#include <catch2/catch.hpp>

#include "dataset/index_journal_document.hpp"

using namespace dlsize::dataset;

TEST_CASE("a chunk trailer is written as before and reads back typed", "[index]") {
  index_chunk_trailer t;
  t.chunk.unit = "dir:a";
  t.chunk.final = true;
  t.chunk.counts.lines = 2;
  t.chunk.subdirs = {"b\xff"}; // a name that is not UTF-8
  t.chunk.links = {{7, 9, "c"}};
  t.chunk.followed = {{1, 2}};
  t.lines = 2;
  t.hash = "00000000000000ff";
  const std::string line = to_json(t).dump();
  CHECK(line == R"({"~chunk":{"counts":{"bytes":0,"content_bytes_read":0,"dirs":0,"excluded":0,)"
                R"("files":0,"formats":{},"lines":2,"problems":0,"sample_bytes":0,"samples":0,)"
                R"("skipped":{}},"final":true,"followed":[[1,2]],"hash":"00000000000000ff",)"
                R"("lines":2,"links":[[7,9,"63"]],"subdirs":["62ff"],"unit":"6469723a61"}})");
  CHECK(is_trailer_line(line));
  CHECK_FALSE(is_trailer_line(R"({"path":"a"})"));
  const index_chunk_trailer back = trailer_from_json(nlohmann::json::parse(line));
  CHECK(to_json(back).dump() == line);
  CHECK(back.chunk.subdirs == t.chunk.subdirs);
  CHECK(back.chunk.links.at(0).name == "c");
  // Damaged: odd hex, a missing key.
  auto odd = nlohmann::json::parse(line);
  odd["~chunk"]["unit"] = "646";
  CHECK_THROWS(trailer_from_json(odd));
  auto missing = nlohmann::json::parse(line);
  missing["~chunk"].erase("followed");
  CHECK_THROWS(trailer_from_json(missing));
}

TEST_CASE("a resume state's first line names its scan", "[index]") {
  index_resume_head h;
  h.scan.dir = "/data";
  const nlohmann::json first = to_json(h);
  const auto scan = resume_scan_of(first);
  REQUIRE(scan);
  CHECK(*scan == to_json(h.scan));
  CHECK_FALSE(resume_scan_of(nlohmann::json::parse(R"({"schema":"dlsize.index/1"})")));
  CHECK_FALSE(resume_scan_of(nlohmann::json::parse("[1]")));
  CHECK(resume_scan_of(nlohmann::json::parse(R"({"schema":"dlsize.index-resume/1"})"))->is_null());
}
