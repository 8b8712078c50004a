#pragma once
// The defaults that more than one option, config or options struct shares, each written once.
// An option typed as text (parsed when the rules run) takes the _text form; a struct that holds
// the parsed value takes the number. tests/unit/test_defaults.cpp checks that the two agree.
#include <cstdint>

namespace dlsize::core::defaults {

// --queue-depth: requests in flight per reader (bench) or per rank (checkpoint).
inline constexpr unsigned queue_depth = 16;

// --request-size: the largest read or write request.
inline constexpr std::uint32_t request_size = 1u << 20;
inline constexpr const char* request_size_text = "1MiB";

// --stall-timeout: a request, metadata call or transfer that makes no progress this long ends
// the phase; 0: never.
inline constexpr double stall_timeout_s = 60;
inline constexpr const char* stall_timeout_text = "60s";

// --rank-timeout: a rank silent this long ends the job; also the limit of a job's last waits
// (the final agreement, MPI_Finalize).
inline constexpr double rank_timeout_s = 60;

// --precision of a CUDA accelerator (accel::cuda_options' precision).
inline constexpr const char* precision_text = "fp16";

// --cache: how the readers read (io::engine_options' cache).
inline constexpr const char* cache_text = "direct";

// --rules: the MLPerf Storage edition a run or a point is judged by (report::kDefaultRules).
inline constexpr const char* rules_text = "v3";

// A workload's au_threshold when its profile gives none, and the figures' before one is read.
inline constexpr double au_threshold = 0.9;

// --mttf: the mean time to failure of one accelerator (plan, size and compare's goodput, bench's
// optimal checkpoint interval), with where it comes from.
inline constexpr double mttf_s = 50000.0 * 3600;
inline constexpr const char* mttf_source =
    "50,000 h per accelerator: MLCommons' framing of MLPerf Storage's checkpoint workload (a "
    "100,000-accelerator cluster fails about every 30 minutes); Meta's Llama 3 report counts 419 "
    "unexpected interruptions in 54 days on 16,384 H100s, about 50,700 GPU-hours each";

} // namespace dlsize::core::defaults
