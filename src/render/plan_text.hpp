#pragma once
// dlsize plan's terminal text: the read side (demand, the bandwidth N accelerators need, the
// scaling curve, the dataset a valid run needs, requests and epochs), the object store's side
// (plan --s3: GET rate, requests in flight, which limit binds) and the checkpoint's writes, each
// from its part of the typed plan (analysis/plan_document.hpp).
#include <string>

#include "analysis/plan_document.hpp"

namespace dlsize::render {

// Prints the read side of workload `workload`'s plan to stdout, with its scaling and, for plan
// --s3, the object store's lines beside the bandwidth.
void print_read_plan(const std::string& workload, const analysis::plan_reads& plan);

// Prints the checkpoint side of workload `name`'s plan.
void print_checkpoint(const std::string& name, const analysis::checkpoint_plan_document& c);

} // namespace dlsize::render
