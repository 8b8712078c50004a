#pragma once
// Dropping the kernel's page cache (sync, then 3 into /proc/sys/vm/drop_caches) so that a
// buffered restore reads the storage, not the memory of what was just written. Only ever on
// request: it empties the cache of every process on the host.
#include <string>

namespace dlsize::io {

// The control file: /proc/sys/vm/drop_caches, or $DLSIZE_DROP_CACHES_FILE (tests point it at a
// file of their own so that they need not empty the host's cache).
std::string drop_caches_file();

// "" when this process may drop the caches (root and the control file writable), otherwise why
// not, for the refusal.
std::string drop_caches_refusal();

// Syncs and drops the page cache, dentries and inodes. Throws run_error when the write fails.
void drop_caches();

} // namespace dlsize::io
