#pragma once
// The terminal text of `dlsize index stats`: the counts, the size distributions, the folders,
// the sample size histogram, the formats and what was skipped when indexed.
#include <cstdio>

#include "dataset/index_stats_document.hpp"

namespace dlsize::dataset {

void print_index_stats(const index_stats_document& s, std::FILE* out = stdout);

} // namespace dlsize::dataset
