#pragma once
// MPI calls checked through one macro (the call's text and location in the error), and a wait
// for a non-blocking request that gives up after a timeout. For the MPI files only.
#include <mpi.h>

#include <string>

namespace dlsize::cluster {

// Throws run_error "CALL failed: MPI's error string. at file:line" unless rc is MPI_SUCCESS.
void check_mpi(int rc, const char* call, const char* file, int line);

// Tests req until it completes; throws run_error naming what after timeout_s. With timeout_s
// <= 0 it waits without a limit, until 30 s after a stop request (SIGINT, SIGTERM).
void wait_request(MPI_Request& req, double timeout_s, const std::string& what);

} // namespace dlsize::cluster

#define DLSIZE_MPI(call) ::dlsize::cluster::check_mpi((call), #call, __FILE__, __LINE__)
