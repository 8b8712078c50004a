#pragma once
// The coordination of one run across the ranks of a job, while readers and accelerators run:
// a common start, step and epoch syncs of every accelerator of the job (the stand-in for the
// gradient allreduce and the epoch barrier), a halt that reaches every rank when any rank fails
// or is asked to stop, liveness (a rank silent for the timeout ends the job, named), counters
// for the job's progress line, and at the end the gathering of every rank's results on rank 0.
//
// With one rank every call answers at once. The MPI link runs its own thread that makes every
// MPI call of the run, so that the run's threads never block inside MPI.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/defaults.hpp"

namespace dlsize::cluster {

// Counters a rank publishes while it runs (summed over the job on rank 0).
struct job_counters {
  std::uint64_t bytes = 0;
  std::uint64_t samples = 0;
  std::uint64_t compute_ns = 0;
  std::uint64_t steps = 0; // steps its first accelerator has run
};

struct run_link_options {
  // Called once, from the link's thread (or inline with one rank), when the job halts: any rank
  // failed (failure = true) or was asked to stop (a signal, the time limit). The reason names
  // the rank and host it came from when the job has several ranks.
  std::function<void(const std::string& reason, bool failure)> on_halt;
  // This rank's counters, read at every heartbeat.
  std::function<job_counters()> counters;
  // What this rank is doing, in words (its step, what it read, its oldest read in flight), sent
  // with its heartbeats: rank 0 names it with the rank when the rank goes silent or stalls.
  std::function<std::string()> activity;
  double heartbeat_s = 0.2;
  // --stall-timeout: a rank that answers but neither reads nor steps nor waits for the others
  // this long halts the job, named (a silent rank is --rank-timeout's); 0: never.
  double stall_timeout_s = core::defaults::stall_timeout_s;
};

struct sync_result {
  std::uint64_t end_ns = 0; // the latest end over the job, ns since the common start
  bool halted = false;      // the job halted: the caller stops instead of going on
};

// A rank that did not run for a while (its process was stopped, its host stalled) and came back:
// its figures include the pause. Kept on rank 0 when the pause outlasted the lesser of the stall
// timeout (or half the rank timeout where the stall timeout is 0) and 10 s, the longest pause
// of each rank.
struct rank_pause {
  int rank = 0;
  double seconds = 0; // how long the rank's link did not run
  double at_s = 0;    // when the pause began, seconds since the common start
};

// What came of the run, after finish().
struct run_outcome {
  bool halted = false; // the job stopped before every rank finished
  bool failed = false; // ... because of a failure (else a stop request)
  std::string reason;  // why, as the rank where it came from said it
  int origin = -1;     // the rank the halt came from (-1: none)
  bool broken = false; // a rank stopped answering: the job cannot end cleanly (abort it)
  // Rank 0: every rank's payload, by rank ("" for a rank whose payload never came). Empty on
  // the other ranks.
  std::vector<std::string> payloads;
  std::vector<int> missing;       // rank 0: ranks whose payload never came
  bool root_lost = false;         // another rank: rank 0 stopped answering
  std::vector<rank_pause> pauses; // rank 0: ranks that paused longer than the warning's limit
};

class run_link {
public:
  virtual ~run_link() = default;
  // Meets every rank and returns this rank's monotonic time of the common start (ns). Times
  // given to sync() count from it.
  virtual std::uint64_t start() = 0;
  // All accelerators of the job meet: every rank gives the latest end among its own (ns since
  // the start) and gets the latest of the job. Blocks until every rank arrived or the job
  // halted. Called by one thread of a rank at a time, the same number of times on every rank
  // unless the job halts.
  virtual sync_result sync(std::uint64_t local_end_ns) = 0;
  // This rank failed, or was asked to stop: the job halts, on_halt runs on every rank.
  virtual void fail(const std::string& reason) = 0;
  virtual void stop(const std::string& reason) = 0;
  // The job's counters (rank 0; the sum of what every rank sent last) or this rank's.
  virtual job_counters totals() = 0;
  // This rank's part is over: waits until every rank's is (or the job halted and every rank
  // left its syncs), then sends payload to rank 0. Never hangs: a rank silent for the timeout
  // ends the wait, with the rank named in the outcome and listed as missing.
  virtual run_outcome finish(const std::string& payload) = 0;
};

} // namespace dlsize::cluster
