#include <catch2/catch.hpp>

#include "pipeline/checkpoint_job.hpp"
#include "test_support.hpp"

using Catch::Matchers::StartsWith;
using namespace dlsize::pipeline;
using namespace dlsize::test;

namespace {

checkpoint_job_options folder_job() {
  checkpoint_job_options o;
  o.req.workload = "llama3-8b";
  o.req.dir = "ckpt";
  o.effective = {{"workload", "llama3-8b"}, {"dir", "ckpt"}, {"out", "r.json"}, {"label", nullptr}};
  return o;
}

} // namespace

TEST_CASE("checkpoint's rule sequence resolves a folder run and its config block",
          "[checkpoint_job]") {
  const auto opt = checkpoint_options_of(folder_job(), false);
  CHECK(opt.workload.name == "llama3-8b");
  CHECK_FALSE(opt.s3);
  CHECK(opt.io.request_size == 1u << 20);
  CHECK(opt.io.verify);
  CHECK_FALSE(opt.accelerator);
  CHECK(opt.config == nlohmann::json{{"workload", "llama3-8b"}, {"dir", "ckpt"}});
}

TEST_CASE("checkpoint's rule sequence refuses a part size for a folder and an unknown "
          "accelerator",
          "[checkpoint_job]") {
  auto o = folder_job();
  o.req.given = {"--s3-part-size"};
  CHECK_THAT(usage_error_message([&] { checkpoint_options_of(o, false); }),
             StartsWith("--s3-part-size: only for a bucket (s3://BUCKET/PREFIX); --dir 'ckpt'"));
  o = folder_job();
  o.accelerator = "z80";
  CHECK_THAT(usage_error_message([&] { checkpoint_options_of(o, false); }),
             StartsWith("--accelerator: 'z80' is not a simulated accelerator"));
}
