#pragma once
// dlsize plan's terminal text: the read side (demand, the bandwidth N accelerators need, the
// scaling curve, the dataset a valid run needs, requests and epochs), the object store's side
// (plan --s3: GET rate, requests in flight, which limit binds) and the checkpoint's writes.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/object_requests.hpp"
#include "analysis/plan.hpp"

namespace dlsize::render {

// Prints the read side of `plan` (analysis::make_plan's, with its scaling) to stdout; with
// `objects` (plan --s3), the object store's lines beside the bandwidth.
void print_read_plan(const nlohmann::json& plan, const analysis::plan_inputs& in,
                     const analysis::object_plan* objects);

// Prints the checkpoint side (analysis::checkpoint_plan's JSON) of workload `name`.
void print_checkpoint(const nlohmann::json& c, const std::string& name);

} // namespace dlsize::render
