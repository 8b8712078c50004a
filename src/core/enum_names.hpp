#pragma once
// One table per enum of its values and the names they are written as (in reports, options and
// configs), and the lookups both ways over it. An enum's header holds its table and a names_of
// overload that returns it, found by argument-dependent lookup:
//
//   inline constexpr core::enum_table<cache_mode, 3> kCacheModeNames{{
//       {cache_mode::direct, "direct", "O_DIRECT, the default"}, ...}};
//   constexpr const auto& names_of(cache_mode) { return kCacheModeNames; }
//
// Every name is a string literal, so name_of(e).data() is null-terminated.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace dlsize::core {

template <typename E> struct enum_name {
  E value;
  std::string_view name;
  std::string_view note = {}; // what the value means, in "valid:" lists; empty: nothing to add
};

template <typename E, std::size_t N> using enum_table = std::array<enum_name<E>, N>;

// The name of e; "?" for a value its table lacks.
template <typename E> constexpr std::string_view name_of(E e) {
  for (const auto& n : names_of(E{}))
    if (n.value == e)
      return n.name;
  return "?";
}

// The value named text, exactly; nullopt for none.
template <typename E> constexpr std::optional<E> find_enum(std::string_view text) {
  for (const auto& n : names_of(E{}))
    if (n.name == text)
      return n.value;
  return std::nullopt;
}

// The names in table order, joined by ", ": "none, signal, time_limit, stall".
template <typename E> std::string name_list() {
  std::string out;
  for (const auto& n : names_of(E{}))
    out.append(out.empty() ? "" : ", ").append(n.name);
  return out;
}

// The names with their notes, for a "valid:" list: "files (one sample per file), shards (...)".
template <typename E> std::string valid_names() {
  std::string out;
  for (const auto& n : names_of(E{})) {
    out.append(out.empty() ? "" : ", ").append(n.name);
    if (!n.note.empty())
      out.append(" (").append(n.note).append(")");
  }
  return out;
}

// The value named text. Throws usage_error "WHERE: invalid NOUN 'TEXT'. valid: NAMES (NOTES)".
template <typename E>
E parse_enum(std::string_view text, std::string_view where, std::string_view noun = "value") {
  if (const auto e = find_enum<E>(text))
    return *e;
  throw usage_error(
      fmt::format("{}: invalid {} '{}'. valid: {}", where, noun, text, valid_names<E>()));
}

// The value named text in a file dlsize wrote. Throws run_error "unknown WHAT. value: TEXT;
// valid: NAMES".
template <typename E> E read_enum(std::string_view text, std::string_view what) {
  if (const auto e = find_enum<E>(text))
    return *e;
  throw run_error(fmt::format("unknown {}. value: {}; valid: {}", what, text, name_list<E>()));
}

} // namespace dlsize::core
