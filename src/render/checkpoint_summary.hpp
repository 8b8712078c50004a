#pragma once
// The summary dlsize checkpoint prints when a run ends, made from its report alone: each phase
// that ran (checkpoints, size, duration and throughput of the slowest rank, the aggregate), the
// MLPerf Storage verdict with the rules that did not pass, and the status.
#include <string>

#include "report/checkpoint_document.hpp"

namespace dlsize::render {

std::string checkpoint_summary(const report::checkpoint_document& report);

} // namespace dlsize::render
