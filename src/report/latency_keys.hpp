#pragma once
// The keys of a latency summary (report/bench_report.hpp's latency_summary), listed once for
// the reports that hold one: report/bench_report_json.cpp and report/checkpoint_json.cpp read and
// write them each with an operation of their own, called as op(key, field).
#include <type_traits>

#include "report/bench_report.hpp"

namespace dlsize::report {

template <class S>
requires std::is_same_v<std::remove_const_t<S>, latency_summary>
void latency_keys(S& s, auto& op) {
  op("count", s.count);
  op("mean_s", s.mean_s);
  op("p50_s", s.p50_s);
  op("p90_s", s.p90_s);
  op("p99_s", s.p99_s);
  op("p999_s", s.p999_s);
  op("max_s", s.max_s);
}

} // namespace dlsize::report
