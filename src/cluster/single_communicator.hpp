#pragma once
// The job of one rank: every collective answers locally, and the run link halts at once.
#include <memory>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

std::unique_ptr<communicator> make_single_communicator();

} // namespace dlsize::cluster
