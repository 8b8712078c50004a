// Unit tests for src/cluster/agreement.hpp and the single-rank communicator and run link: how the
// ranks' failures are told, how differing options are found, what one rank does alone.
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/agreement.hpp"
#include "cluster/single_communicator.hpp"
#include "core/error.hpp"

namespace {

using namespace dlsize;
using cluster::communicator;

// A communicator of `hosts.size()` ranks that only describes its placement (the agreement's
// messages are made from it; nothing is sent).
class fake_job final : public communicator {
public:
  explicit fake_job(std::vector<std::string> hosts) {
    m_where.ranks = static_cast<int>(hosts.size());
    m_where.rank_hosts = std::move(hosts);
  }
  std::string name() const override { return "fake"; }
  std::vector<std::string> allgather(const std::string&) override { return {}; }
  std::vector<std::string> gather(const std::string&) override { return {}; }
  std::string broadcast(const std::string& s) override { return s; }
  void barrier() override {}
  [[noreturn]] void abort(int) override { throw std::logic_error("abort"); }
  std::unique_ptr<cluster::run_link> open_run_link(cluster::run_link_options) override {
    return nullptr;
  }
};

cluster::rank_answer ok() {
  return cluster::rank_answer::success(nullptr);
}
cluster::rank_answer failed(const std::string& m, int code = 2) {
  return cluster::rank_answer::failure(code, m);
}

} // namespace

TEST_CASE("a failure every rank shares is told once, as the ranks said it", "[agreement]") {
  fake_job job({"a", "a", "b"});
  CHECK(cluster::combine_failures(
            job, {failed("--epochs: must be at least 1"), failed("--epochs: must be at least 1"),
                  failed("--epochs: must be at least 1")}) == "--epochs: must be at least 1");
}

TEST_CASE("failures of some ranks name each rank and host", "[agreement]") {
  fake_job job({"node1", "node1", "node2", "node3"});
  const std::string m = cluster::combine_failures(job, {ok(), failed("--dataset: 'ds' is missing"),
                                                        failed("--dataset: 'ds' is missing"),
                                                        failed("disk full", 1)});
  CHECK(m.find("ranks 1, 2 (hosts node1, node2): --dataset: 'ds' is missing") != std::string::npos);
  CHECK(m.find("rank 3 (host node3): disk full") != std::string::npos);
  CHECK(m.find("rank 0") == std::string::npos);
}

TEST_CASE("require_same names the rank, the key and both values of a difference", "[agreement]") {
  fake_job job({"n0", "n1", "n2"});
  const nlohmann::json base = {{"dataset_id", "ab"}, {"config", {{"epochs", 2}, {"seed", 1}}}};
  nlohmann::json other = base;
  other["config"]["epochs"] = 3;
  CHECK_NOTHROW(cluster::require_same(job, {base, base, base}, "run"));
  try {
    cluster::require_same(job, {base, base, other}, "run");
    FAIL("no error for differing options");
  } catch (const cluster::job_error& e) {
    CHECK(e.exit_code() == 2);
    const std::string m = e.what();
    CHECK(m.find("rank 2 (host n2) has config.epochs 3, rank 0 has 2") != std::string::npos);
    CHECK(m.find("rank 1") == std::string::npos);
  }
}

TEST_CASE("a single rank's agreement passes the part's own error through unchanged",
          "[agreement]") {
  auto one = cluster::make_single_communicator();
  CHECK(one->size() == 1);
  CHECK(cluster::agree(*one, [] { return nlohmann::json(7); }) == std::vector<nlohmann::json>{7});
  CHECK_THROWS_AS(cluster::agree(*one, []() -> nlohmann::json { throw usage_error("--x: bad"); }),
                  usage_error);
  CHECK(one->agreements() == 2);
  CHECK(cluster::exit_code_of(usage_error("u")) == 2);
  CHECK(cluster::exit_code_of(run_error("r")) == 1);
  CHECK(cluster::exit_code_of(cluster::job_error(2, "j")) == 2);
}

TEST_CASE("a single rank's run link halts at once, and a failure outranks an earlier stop",
          "[agreement]") {
  auto one = cluster::make_single_communicator();
  std::vector<std::pair<std::string, bool>> halts;
  cluster::run_link_options o;
  o.on_halt = [&](const std::string& why, bool failure) { halts.emplace_back(why, failure); };
  auto link = one->open_run_link(o);
  link->start();
  CHECK(link->sync(123).end_ns == 123);
  CHECK_FALSE(link->sync(5).halted);
  link->stop("interrupted by signal 2");
  CHECK(link->sync(5).halted);
  link->stop("time limit reached"); // a second stop changes nothing
  link->fail("accelerator 1 step 3: 2 samples could not be read");
  link->fail("a later failure");
  const auto out = link->finish("payload");
  REQUIRE(halts.size() == 2);
  CHECK(halts[0] == std::make_pair(std::string("interrupted by signal 2"), false));
  CHECK(halts[1].second);
  CHECK(out.halted);
  CHECK(out.failed);
  CHECK(out.origin == 0);
  CHECK(out.reason == "accelerator 1 step 3: 2 samples could not be read");
  CHECK(out.payloads == std::vector<std::string>{"payload"});
  CHECK(out.missing.empty());
}

TEST_CASE("a rank's answer travels as JSON and back; a bare answer is a failure", "[agreement]") {
  const auto part = cluster::rank_answer::from_json(
      cluster::rank_answer::success({{"dataset_id", "ab"}}).to_json());
  CHECK(part.ok);
  CHECK(part.value == nlohmann::json({{"dataset_id", "ab"}}));
  const auto f = cluster::rank_answer::from_json(failed("disk full", 3).to_json());
  CHECK_FALSE(f.ok);
  CHECK(f.code == 3);
  CHECK(f.message == "disk full");
  const auto bare = cluster::rank_answer::from_json(nlohmann::json::object());
  CHECK_FALSE(bare.ok);
  CHECK(bare.code == 1);
  CHECK(bare.message == "failed");
}
