// Unit tests for src/dataset/index_journal.hpp: the resume state of `dlsize index` keeps the
// chunks of finished units, drops the rest, and is consistent whatever byte a SIGKILL stopped
// its last write at.
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "dataset/index_journal.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using dlsize::dataset::index_chunk;
using dlsize::dataset::index_journal;
using dlsize::dataset::index_scan_identity;
using dlsize::test::usage_error_message;
namespace fs = std::filesystem;

namespace {

const index_scan_identity kScan = [] {
  index_scan_identity s;
  s.dir = "/data";
  s.options.exclude = {"*.txt"};
  s.options.symlinks = "skip";
  return s;
}();

struct journal_dir {
  fs::path path = fs::temp_directory_path() / ("journal-" + std::to_string(getpid()));
  journal_dir() { fs::create_directories(path); }
  ~journal_dir() { fs::remove_all(path); }
};

index_chunk chunk(const std::string& unit, bool final, std::uint64_t lines) {
  index_chunk c;
  c.unit = unit;
  c.final = final;
  c.counts.lines = lines;
  c.counts.files = lines;
  return c;
}

std::vector<std::string> lines_of(const index_journal& j) {
  std::vector<std::string> out;
  j.for_each_line([&](std::string_view l) { out.emplace_back(l); });
  return out;
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("a resumed journal keeps the finished folders and drops a half-read one",
          "[index_journal]") {
  journal_dir t;
  const fs::path out = t.path / "i.json";
  {
    index_journal j(out, kScan);
    CHECK_FALSE(j.resumed());
    auto root = chunk("dir:", true, 1);
    root.subdirs = {"a", std::string("b\xff", 2)};
    root.links.push_back({1, 2, "x/y.bin"});
    j.append("{\"path\":\"f.bin\",\"size\":1}\n", root);
    j.append("{\"path\":\"a/1.bin\",\"size\":1}\n", chunk("dir:a", false, 1));
  }
  index_journal j(out, kScan);
  CHECK(j.resumed());
  REQUIRE(j.finished().size() == 1);
  const auto& c = j.finished()[0];
  CHECK(c.unit == "dir:");
  CHECK(c.subdirs == std::vector<std::string>{"a", std::string("b\xff", 2)});
  REQUIRE(c.links.size() == 1);
  CHECK(c.links[0].name == "x/y.bin");
  CHECK(c.counts.files == 1);
  CHECK(lines_of(j) == std::vector<std::string>{"{\"path\":\"f.bin\",\"size\":1}\n"});
  j.remove();
  CHECK_FALSE(fs::exists(index_journal::path_for(out)));
}

TEST_CASE("a journal cut at any byte opens with whole finished chunks only", "[index_journal]") {
  journal_dir t;
  const fs::path full = t.path / "full.json";
  {
    index_journal j(full, kScan);
    j.append("{\"path\":\"a\",\"size\":1}\n{\"path\":\"b\",\"size\":2}\n", chunk("dir:", true, 2));
    j.append("{\"path\":\"s/c\",\"size\":3}\n", chunk("dir:s", true, 1));
  }
  const std::string bytes = bytes_of(index_journal::path_for(full));
  const std::size_t first_line = bytes.find('\n') + 1;
  const fs::path cut = t.path / "cut.json";
  std::size_t seen_one = 0, seen_two = 0;
  for (std::size_t n = first_line; n <= bytes.size(); ++n) {
    std::ofstream(index_journal::path_for(cut), std::ios::binary | std::ios::trunc)
        << bytes.substr(0, n);
    index_journal j(cut, kScan);
    const auto lines = lines_of(j);
    std::uint64_t counted = 0;
    for (const auto& c : j.finished())
      counted += c.counts.lines;
    CHECK(lines.size() == counted);
    seen_one += j.finished().size() == 1;
    seen_two += j.finished().size() == 2;
  }
  CHECK(seen_one > 0);
  CHECK(seen_two == 1); // only the whole file holds both
}

TEST_CASE("a journal of another scan, or one in use, is refused naming the file",
          "[index_journal]") {
  journal_dir t;
  const fs::path out = t.path / "i.json";
  index_journal j(out, kScan);
  const auto state = index_journal::path_for(out).string();
  CHECK_THAT(usage_error_message([&] { index_journal other(out, kScan); }),
             Contains("another dlsize index is using the resume state '" + state + "'"));
  index_scan_identity moved = kScan;
  moved.dir = "/elsewhere";
  j.remove();
  { index_journal again(out, kScan); }
  CHECK_THAT(usage_error_message([&] { index_journal other(out, moved); }),
             Contains("the resume state '" + state + "' is of another scan") &&
                 Contains("/elsewhere") && Contains("scan afresh"));
  std::ofstream(t.path / "empty.json.resume").close(); // killed before its first line
  CHECK_FALSE(index_journal(t.path / "empty.json", kScan).resumed());
  std::ofstream(t.path / "x.json.resume") << "not a state\n";
  CHECK_THAT(usage_error_message([&] { index_journal other(t.path / "x.json", kScan); }),
             Contains("is not a dlsize index resume state"));
}
