#pragma once
// A document's value that a run may leave out (absent: not this kind of run's) or write as null
// (not measured): the field of every typed document (report/bench_report.hpp, the host facts
// of telemetry/host_facts.hpp). Their JSON is read and written by the field lists of
// report/json_fields.hpp.
#include <optional>
#include <utility>

namespace dlsize {

template <class T> struct field {
  bool present = false;
  std::optional<T> value;

  field() = default;
  field(T v) : present(true), value(std::move(v)) {} // NOLINT: a value is a present field
  static field null() {
    field f;
    f.present = true;
    return f;
  }
  // A present value, or null when there is none.
  static field of(std::optional<T> v) {
    field f;
    f.present = true;
    f.value = std::move(v);
    return f;
  }
  bool has_value() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
  T value_or(T fallback) const { return value.value_or(std::move(fallback)); }
};

} // namespace dlsize
