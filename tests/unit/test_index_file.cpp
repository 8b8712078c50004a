// Unit tests for src/dataset/index_file.hpp: an index read back is checked against its digest
// and counts, and a damaged or hostile one is refused by name.
#include <fstream>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "dataset/index_file.hpp"

namespace {

using namespace dlsize::dataset;
namespace fs = std::filesystem;

// An index of the lines given, with a correct digest and counts unless told otherwise.
fs::path write_index(const std::string& name, const std::vector<std::string>& lines,
                     std::uint64_t files, std::uint64_t claimed_lines) {
  index_digest d;
  d.add("/data\n");
  for (const auto& l : lines)
    d.add(l + "\n");
  const nlohmann::json h = {{"schema", kIndexSchema},
                            {"dir", "/data"},
                            {"digest", d.text()},
                            {"counts", {{"lines", claimed_lines}, {"files", files}}}};
  const fs::path p = fs::temp_directory_path() / (name + "-" + std::to_string(getpid()));
  std::ofstream out(p, std::ios::trunc);
  out << h.dump() << "\n";
  for (const auto& l : lines)
    out << l << "\n";
  return p;
}

std::uint64_t read_all(const fs::path& p) {
  index_reader in(p);
  index_line line;
  std::uint64_t n = 0;
  while (in.next(line))
    ++n;
  return n;
}

const std::vector<std::string> kLines = {
    R"({"path":"a.jpg","size":10,"mtime_ns":1})",
    R"({"path":"l","skipped":"symlink","reason":"a symbolic link"})"};

} // namespace

TEST_CASE("index_reader reads back every line of an index whose digest and counts match",
          "[index]") {
  const auto p = write_index("dlsize-index-ok", kLines, 1, 2);
  CHECK(read_all(p) == 2);
  CHECK(index_reader(p).dir() == "/data");
  fs::remove(p);
}

TEST_CASE("index_reader refuses an index whose lines or counts were edited", "[index]") {
  auto p = write_index("dlsize-index-counts", kLines, 2, 2);
  CHECK_THROWS_WITH(read_all(p), Catch::Contains("edited by hand or truncated"));
  fs::remove(p);
  p = write_index("dlsize-index-edit", kLines, 1, 2);
  std::string text;
  {
    std::ifstream in(p);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text.replace(text.find("\"size\":10"), 9, "\"size\":11");
  std::ofstream(p, std::ios::trunc) << text;
  CHECK_THROWS_AS(read_all(p), dlsize::usage_error);
  fs::remove(p);
}

TEST_CASE("index_reader refuses what is not an index, naming the file", "[index]") {
  const fs::path p = fs::temp_directory_path() / ("dlsize-index-bad-" + std::to_string(getpid()));
  for (const char* text :
       {"", "{}\n", "[1]\n", "{\"schema\":\"dlsize.index/1\"}\n", "not json\n"}) {
    std::ofstream(p, std::ios::trunc) << text;
    CHECK_THROWS_WITH(index_reader{p}, Catch::Contains(p.string()));
  }
  const auto q = write_index("dlsize-index-line", {R"(["no","object"])"}, 0, 1);
  CHECK_THROWS_WITH(read_all(q), Catch::Contains("expected an object with a path"));
  fs::remove(p);
  fs::remove(q);
  CHECK_THROWS_AS(index_reader{fs::temp_directory_path()}, dlsize::usage_error);
}

TEST_CASE("append_json_string writes any UTF-8 name as JSON that parses back to it and refuses "
          "other bytes",
          "[index]") {
  for (const std::string name : {"plain.jpg", "qu\"o\\te", "tab\there\x01",
                                 "caf\xc3\xa9/\xe6\x97\xa5", "\xf0\x9f\x98\x80.png"}) {
    std::string out = "x";
    REQUIRE(append_json_string(out, name));
    CHECK(nlohmann::json::parse(out.substr(1)).get<std::string>() == name);
  }
  for (const std::string bad : {"\xff", "a\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    std::string out = "keep";
    CHECK_FALSE(append_json_string(out, bad));
    CHECK(out == "keep");
  }
}

TEST_CASE("the index digest does not depend on the lines' order or on how bytes are split",
          "[index]") {
  index_digest a, b, c, d;
  a.add("/data\n{\"path\":\"x\"}\n{\"path\":\"y\"}\n");
  b.add("/data\n");
  b.add("{\"path\":\"y\"}\n{\"path\":\"x\"}\n");
  c.add("/da");
  c.add("ta\n{\"path\":\"x\"}");
  c.add("\n{\"path\":\"y\"}\n");
  d.add("/data\n{\"path\":\"x\"}\n{\"path\":\"z\"}\n");
  CHECK(a.text() == b.text());
  CHECK(a.text() == c.text());
  CHECK(a.text() != d.text());
  CHECK(a.text().rfind("fnv1a64:", 0) == 0);
}
