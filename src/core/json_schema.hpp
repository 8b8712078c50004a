#pragma once
// A small JSON Schema validator for the subset dlsize's own schemas (docs/*.schema.json) use, so
// that `dlsize validate` works where Python is not installed: type, required, properties,
// additionalProperties, items, minItems, maxItems, enum, const, minimum, maximum,
// exclusiveMinimum, pattern (ECMAScript std::regex), oneOf, anyOf, allOf and $ref to a JSON
// pointer in the same document (#/$defs/x, #/definitions/x). Annotations ($schema, $id, title,
// description) are ignored; any other keyword is refused, so a schema never silently asks for
// more than is checked.
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize {

// One reason a document does not validate: where (a JSON pointer, "" for the root) and why.
struct schema_problem {
  std::string path;
  std::string message;
};

class json_schema {
public:
  // Throws run_error for a schema that uses a keyword outside the subset or a $ref that does not
  // resolve (checked over the whole schema up front).
  explicit json_schema(nlohmann::json schema);

  // The problems of doc, at most limit of them; empty when doc is valid.
  std::vector<schema_problem> validate(const nlohmann::json& doc, std::size_t limit = 20) const;
  // The schema's "title" ("" when it has none): what its documents are, for messages.
  std::string title() const;
  // The problems of doc against the part of the schema that `ref` points to ("#/$defs/line"),
  // for a document of several parts (an index's lines). Throws run_error when ref does not
  // resolve.
  std::vector<schema_problem> validate_at(const nlohmann::json& doc, const std::string& ref,
                                          std::size_t limit = 20) const;

private:
  void check_schema(const nlohmann::json& s, const std::string& where);
  const nlohmann::json& resolve(const std::string& ref) const;
  void check(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
             std::vector<schema_problem>& out, std::size_t limit) const;
  void check_object(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
                    std::vector<schema_problem>& out, std::size_t limit) const;
  void check_alternatives(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
                          std::vector<schema_problem>& out, std::size_t limit) const;
  void report_closest(const nlohmann::json& alternatives,
                      const std::vector<std::vector<schema_problem>>& each, const std::string& path,
                      std::vector<schema_problem>& out) const;
  nlohmann::json m_schema;
  std::map<std::string, std::regex> m_patterns;
};

} // namespace dlsize
