#pragma once
// The job of one rank: every collective answers locally, and the run link halts at once.
#include <memory>

#include "dist/communicator.hpp"

namespace dlsize::dist {

std::unique_ptr<communicator> make_single_communicator();

} // namespace dlsize::dist
