#include <limits>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/json_schema.hpp"
#include "report/schemas.hpp"

using dlsize::json_schema;
using nlohmann::json;

namespace {
const json kSchema = R"({
  "$id": "urn:test:1", "type": "object", "required": ["n", "kind"],
  "additionalProperties": false,
  "properties": {
    "n": {"type": "integer", "minimum": 0, "maximum": 10},
    "x": {"type": ["number", "null"], "exclusiveMinimum": 0},
    "kind": {"enum": ["a", "b"]},
    "id": {"type": "string", "pattern": "^[0-9a-f]{4}$"},
    "list": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/row"}},
    "v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
  },
  "$defs": {"row": {"type": "object", "required": ["k"], "properties": {"k": {"const": 1}}}}
})"_json;

std::string first_problem(const json& doc) {
  const auto p = json_schema(kSchema).validate(doc);
  return p.empty() ? "" : p[0].path + ": " + p[0].message;
}
} // namespace

TEST_CASE("json schema validator accepts a document of the schema", "[json_schema]") {
  CHECK(first_problem(R"({"n": 3, "kind": "a", "x": null, "id": "00ff", "list": [{"k": 1}],
                          "v": "s"})"_json) == "");
  CHECK(first_problem(R"({"n": 3.0, "kind": "b", "x": 0.5, "v": 2})"_json) == "");
}

TEST_CASE("json schema validator names the JSON path and the rule broken", "[json_schema]") {
  CHECK(first_problem(R"({"kind": "a"})"_json) == ": required field 'n' is missing");
  CHECK(first_problem(R"({"n": 11, "kind": "a"})"_json) == "/n: 11 is above the maximum 10");
  CHECK(first_problem(R"({"n": -1, "kind": "a"})"_json) == "/n: -1 is below the minimum 0");
  CHECK(first_problem(R"({"n": 1.5, "kind": "a"})"_json) == "/n: 1.5 is not of type \"integer\"");
  CHECK(first_problem(R"({"n": 1, "kind": "c"})"_json) ==
        "/kind: \"c\" is not one of [\"a\",\"b\"]");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "x": 0})"_json) == "/x: 0 is not above 0");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "id": "00FF"})"_json) ==
        "/id: \"00FF\" does not match ^[0-9a-f]{4}$");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "extra": 1})"_json) ==
        "/extra: is not a field of this object");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "list": []})"_json) ==
        "/list: has 0 items, fewer than 1");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "list": [{"k": 2}]})"_json) ==
        "/list/0/k: 2 is not 1");
  CHECK(first_problem(R"({"n": 1, "kind": "a", "v": true})"_json)
            .rfind("/v: matches none of the 2 alternatives", 0) == 0);
  // A bound written as 1e15 reads as people write it.
  const json_schema big(R"({"type": "number", "maximum": 1e15})"_json);
  CHECK(big.validate(json(1e308))[0].message == "1e+308 is above the maximum 1e+15");
}

TEST_CASE("json schema validator gives the problems of the closest alternative", "[json_schema]") {
  const json_schema s(R"({"oneOf": [
    {"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
    "$defs": {"a": {"type": "object", "required": ["x", "kind"], "properties": {"kind": {"const": "a"}}},
              "b": {"type": "object", "required": ["y", "z", "kind"], "properties": {"kind": {"const": "b"}}}}})"_json);
  const auto p = s.validate(R"({"kind": "a"})"_json);
  REQUIRE(p.size() == 1);
  CHECK(p[0].message ==
        "required field 'x' is missing (by the closest of the 2 alternatives: #/$defs/a)");
  // Alternatives that fail alike (both need "w") are one answer, not a tie.
  const json_schema alike(R"({"oneOf": [
    {"required": ["w"], "properties": {"kind": {"const": "a"}}},
    {"required": ["w"], "properties": {"kind": {"enum": ["a", "c"]}}}]})"_json);
  CHECK(alike.validate(R"({"kind": "a"})"_json)[0].message.rfind("required field 'w' is missing",
                                                                 0) == 0);
  // A sub-schema by pointer, as JSON lines' $defs/line.
  CHECK(s.validate_at(R"({"kind": "b", "y": 1, "z": 2})"_json, "#/$defs/b").empty());
  CHECK_THROWS_AS(s.validate_at(json::object(), "#/$defs/none"), dlsize::run_error);
}

TEST_CASE("json schema validator takes no infinite number for a number", "[json_schema]") {
  const json_schema s(R"({"type": "number"})"_json);
  CHECK_FALSE(s.validate(json(std::numeric_limits<double>::infinity())).empty());
  CHECK(s.validate(json(1e308)).empty());
}

TEST_CASE("json schema validator refuses a keyword it does not check", "[json_schema]") {
  CHECK_THROWS_AS(json_schema(R"({"type": "object", "patternProperties": {}})"_json),
                  dlsize::run_error);
  CHECK_THROWS_AS(json_schema(R"({"$ref": "#/$defs/missing"})"_json), dlsize::run_error);
}

TEST_CASE("every embedded schema is in the validator's subset and names its kind",
          "[json_schema]") {
  const auto kinds = dlsize::report::schema_kinds();
  CHECK(kinds == std::vector<std::string>{"dlsize.allreduce-calibration/1", "dlsize.calibration/1",
                                          "dlsize.checkpoint/1", "dlsize.compare/1",
                                          "dlsize.dataset/1", "dlsize.index-resume/1",
                                          "dlsize.index/1", "dlsize.plan/1", "dlsize.report/1",
                                          "dlsize.s3-datagen-journal/1", "dlsize.sizing/1",
                                          "dlsize.sweep/1", "dlsize.workload/1"});
  CHECK(dlsize::report::schema_for("dlsize.nothing/1") == nullptr);
}
