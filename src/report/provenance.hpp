#pragma once
// The run-level facts a report adds once its sections are made: the backend block (label and
// identity) and, from the hosts' own facts in system.hosts[], the top-level system.os,
// storage.mount, storage.device and storage.io_limits (rank 0's host), with a warning for every
// fact in which the hosts differ.
#include "report/bench_report.hpp"

namespace dlsize::report {

// Adds those fields to a bench report that already has config, dataset, system, io and storage.
void add_provenance(bench_report& report);

} // namespace dlsize::report
