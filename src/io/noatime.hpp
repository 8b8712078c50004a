#pragma once
// O_NOATIME on the opens of a dataset's files, so that a benchmark of someone's dataset leaves
// its access times as they were (docs/datasets.md). The kernel permits the flag to the file's
// owner and to CAP_FOWNER (root); to anyone else the open fails with EPERM. The first such
// refusal turns the flag off for the rest of the process: a dataset of another user's costs one
// failed open, not one a sample.

namespace dlsize::io {

// O_NOATIME while no open has been refused it, else 0: to add to an open's flags.
int noatime_flag();

// After an open whose flags were `flags_used` failed with `err`: true when the refusal was
// O_NOATIME's (EPERM with the flag set), which is then turned off; the open should be retried
// without it (noatime_flag() now gives 0). False otherwise: the error is the open's own.
bool noatime_refused(int err, int flags_used);

// open(path, flags | noatime_flag()), retried without O_NOATIME when it is refused. Returns the
// descriptor, or -1 with errno set as open does.
int open_noatime(const char* path, int flags);

} // namespace dlsize::io
