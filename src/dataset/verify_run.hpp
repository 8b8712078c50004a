#pragma once
// The run of a verification, wherever the bytes come from (files, objects): files taken in turn
// by `threads` watched readers, each checked by a checker of the reader's own.
#include <cstdint>
#include <functional>
#include <string>

#include "dataset/layout.hpp"
#include "dataset/record_verifier.hpp"
#include "dataset/verify.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {

// Feeds file f's bytes to v (reset for f first) and returns how many were read.
using file_checker =
    std::function<std::uint64_t(std::uint64_t file, record_verifier& v, io::worker_context& io)>;

// verify_dataset's run over a layout: make_checker is called once per reader; name turns a
// verifier's problem (which starts with the file's relative path) into the line reported; unit
// ("file", "object") names a file in the progress line and messages.
verify_result verify_layout(const dataset_layout& layout, unsigned threads, bool show,
                            double stall_timeout_s,
                            const std::function<file_checker()>& make_checker,
                            const std::function<std::string(const std::string&)>& name,
                            const char* unit);

} // namespace dlsize::dataset
