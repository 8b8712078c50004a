#pragma once
// The storage figures of a run's warm epochs: everything after the first epoch, whose reads
// start from a cold cache. The storage counter is read at each telemetry point, so the bytes
// the storage delivered after the first epoch ended are the counter's total less its share up
// to that time (linear within the --sample-interval that holds it).
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

// The first epoch's end (from_s), the bytes the readers consumed after it (read_bytes), what the
// storage delivered after it (storage_read_bytes), hit_ratio (1 − storage ÷ read, within
// [0, 1]) and storage_per_read_byte (storage ÷ read, unclamped: above 1 is read amplification)
// of a finished report; null for one epoch, no storage counter, a report of several nodes (the
// timeseries is one host's), or no time for the first epoch's end.
report::field<report::warm_epochs_section> warm_storage(const report::bench_report& report);

} // namespace dlsize::pipeline
