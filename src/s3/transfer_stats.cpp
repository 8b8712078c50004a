#include "s3/transfer_stats.hpp"

#include <mutex>

#include <fmt/format.h>

namespace dlsize::s3 {

void transfer_stats::merge(const transfer_stats& o) {
  requests += o.requests;
  bytes += o.bytes;
  retries += o.retries;
  errors += o.errors;
  connections += o.connections;
  for (const auto& [cause, n] : o.retries_by_cause)
    retries_by_cause[cause] += n;
  for (const auto& [cause, n] : o.errors_by_cause)
    errors_by_cause[cause] += n;
  first_byte.merge(o.first_byte);
  latency.merge(o.latency);
  if (server.empty())
    server = o.server;
}

namespace {

std::mutex g_clients_mutex;
transfer_stats g_clients; // every ended client's figures

} // namespace

void add_client_figures(const transfer_stats& xs) {
  const std::lock_guard lock(g_clients_mutex);
  g_clients.merge(xs);
}

transfer_stats client_figures() {
  const std::lock_guard lock(g_clients_mutex);
  return g_clients;
}

std::string requests_text(const transfer_stats& xs) {
  std::string text = fmt::format("{} requests, {} retried", xs.requests, xs.retries);
  std::string causes;
  for (const auto& [cause, n] : xs.retries_by_cause)
    causes += fmt::format("{}{}: {}", causes.empty() ? "" : ", ", cause, n);
  return causes.empty() ? text : fmt::format("{} ({})", text, causes);
}

} // namespace dlsize::s3
