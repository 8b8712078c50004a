#pragma once
// How the ranks of one job talk (DESIGN.md, "Distribution"). One process per rank; a process
// started without an MPI launcher is a job of one rank. MPI (MPICH) is the only distributed
// engine: the single-rank communicator answers every collective locally, the MPI one runs them
// over MPI_COMM_WORLD. Collectives are called by one thread at a time, in the same order on
// every rank; each gives up with run_error when another rank does not take part within the
// timeout (a rank that hung or died), so that no job waits forever.
#include <memory>
#include <string>
#include <vector>

#include "cluster/run_link.hpp"
#include "core/defaults.hpp"

namespace dlsize::cluster {

// Where this rank sits in the job.
struct placement {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0; // among the ranks of its host
  int local_ranks = 1;
  int node = 0; // its host's index, hosts numbered in order of their first rank
  int nodes = 1;
  std::string host;
  std::vector<std::string> rank_hosts; // every rank's host, by rank
  std::vector<int> rank_nodes;         // every rank's node, by rank
  std::vector<int> rank_local;         // every rank's local rank, by rank
};

class communicator {
public:
  virtual ~communicator() = default;
  const placement& where() const { return m_where; }
  int rank() const { return m_where.rank; }
  int size() const { return m_where.ranks; }
  // "rank 2 (host node7)", for messages.
  std::string rank_name(int rank) const;
  // "single process" or "MPI (MPICH 4.0.2)".
  virtual std::string name() const = 0;

  // Every rank's string, by rank, on every rank.
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;
  // Every rank's string on rank 0 (by rank); an empty vector on the others.
  virtual std::vector<std::string> gather(const std::string& mine) = 0;
  // Rank 0's string on every rank (the argument is ignored elsewhere).
  virtual std::string broadcast(const std::string& from_root) = 0;
  virtual void barrier() = 0;
  // Ends the whole job now with this exit code: for a rank that cannot take part in what the
  // others do next. The single-rank communicator exits the process.
  [[noreturn]] virtual void abort(int exit_code) = 0;
  // The coordination of one run (see run_link.hpp).
  virtual std::unique_ptr<run_link> open_run_link(run_link_options opt) = 0;

  // How long a collective or a silent rank is waited for before the job is given up (0: no
  // limit, for phases as long as the slowest rank's work; a stop request still ends them).
  double timeout_s() const { return m_timeout_s; }
  void set_timeout_s(double s) { m_timeout_s = s; }
  // How long MPI_Finalize may take at the end of the job before the rank leaves without it:
  // bench's --rank-timeout; 10 s for the commands that have no such option.
  double finalize_timeout_s() const { return m_finalize_timeout_s; }
  void set_finalize_timeout_s(double s) { m_finalize_timeout_s = s; }
  // Agreements (agreement.hpp) made so far: before the first one, an error on any rank is
  // still agreed on; after it, an error only one rank sees ends the job.
  int agreements() const { return m_agreements; }
  void count_agreement() { ++m_agreements; }

protected:
  placement m_where;
  double m_timeout_s = core::defaults::rank_timeout_s;
  double m_finalize_timeout_s = 10;
  int m_agreements = 0;
};

// The process's communicator, made by init_world (a single rank before it is called).
communicator& world();

// Joins the job this process was launched into: MPI when an MPI launcher started it (mpiexec,
// srun --mpi=pmi2), else a single rank. Throws usage_error for a launch this build cannot
// serve: another MPI's launcher, or a launcher with several ranks and no MPI in this build.
void init_world(int& argc, char**& argv);
// The rank a launcher gave this process in its environment (0 when none): for messages before
// the job is joined.
int launcher_rank();
// For a rank of a job that cannot end cleanly (a rank is gone): rank 0 writes what it has and
// ends the job; the others wait for that end here, at most the timeout (10 s at least), and then
// exit with 1 themselves.
[[noreturn]] void await_abort(const communicator& comm);
// Leaves MPI (a no-op for a single rank). Call once, at the end of main, with the code the
// process exits with: a finalize that does not return within finalize_timeout_s (bench's
// --rank-timeout, 10 s for the other commands) ends the process with that code, saying so.
void finalize_world(int exit_code);

} // namespace dlsize::cluster
