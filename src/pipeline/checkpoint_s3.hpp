#pragma once
// Checkpoints in a bucket: `dlsize checkpoint --dir s3://BUCKET/PREFIX`. Each rank's shard is the
// object PREFIX/checkpoint-00000K/rank-RRRRR.file-FFF.shard, put by a multipart upload (the s3
// engine's writer: --s3-part-size parts, --queue-depth of them in flight) and read back by range
// GETs of a part each (the s3 engine's reader), every block checked as on files. Uploads are
// invisible until completed and aborted on a stop or failure, so no object is ever half there.
// The manifest object PREFIX/dlsize-checkpoint.json is the run's journal: it claims the prefix
// (refused when anything is under it) and lists the checkpoints this run sealed; only objects it
// lists, of the right size and whose first bytes are a block header of this run, rank and file,
// are ever deleted. Built only with libcurl (DLSIZE_HAVE_S3).
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset/checkpoint_block.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "pipeline/checkpoint_phase.hpp"
#include "pipeline/dataset_access.hpp"
#include "report/checkpoint_document.hpp"

namespace dlsize::pipeline {

struct s3_checkpoint {
  s3_dataset place;                    // the bucket, prefix and settings (completed)
  std::uint64_t part_size = 64u << 20; // --s3-part-size
};

std::string s3_shard_key(const s3_checkpoint& c, std::uint64_t k, unsigned rank, unsigned file);

// Rank 0, before any write: the prefix must hold nothing (a dlsize checkpoint included: dlsize
// never writes over one); the manifest is put, claiming it. Throws usage_error naming --dir and
// the key found.
void s3_claim(const s3_checkpoint& c, const dataset::checkpoint_set& set);
// Rank 0, --writes 0: the manifest. Throws usage_error when there is none or it does not parse.
dataset::checkpoint_set s3_open(const s3_checkpoint& c);
void s3_write_manifest(const s3_checkpoint& c, const dataset::checkpoint_set& set);
// Rank 0, once every rank's uploads of checkpoint k completed: every object is there with its
// size (HEAD). Throws run_error naming the key otherwise.
void s3_check_sealed(const s3_checkpoint& c, const dataset::checkpoint_set& set, std::uint64_t k);
// Deletes checkpoint k's objects (missing ones are fine): every rank's (rank 0), or `only_rank`'s.
// An object that is not this run's (another size, or first bytes that are not its block header)
// is never deleted: with `strict` (--keep-last) it stops the run, usage_error naming the key;
// else it is named on stderr, and returned ("s3://BUCKET/KEY (why)") for the report's warnings.
inline constexpr unsigned kEveryRank = ~0u;
std::vector<std::string> s3_remove_checkpoint(const s3_checkpoint& c,
                                              const dataset::checkpoint_set& set, std::uint64_t k,
                                              bool strict, unsigned only_rank = kEveryRank);
void s3_remove_manifest(const s3_checkpoint& c);

// Every rank: uploads its objects of checkpoint k. Failures are in the result, not thrown.
rank_phase s3_write_rank(const s3_checkpoint& c, const dataset::checkpoint_set& set, unsigned rank,
                         std::uint64_t k, const phase_io& io, const dataset::block_pool& pool);
// Every rank: reads back `rank`'s objects of checkpoint k by range GETs and checks every block.
rank_phase s3_read_rank(const s3_checkpoint& c, const dataset::checkpoint_set& set, unsigned rank,
                        std::uint64_t k, const phase_io& io);

// Whether the bucket stopped answering: a rank's request gave up after its retries (every try
// failed for --s3-max-retries or --s3-retry-budget), or rank 0's failed so. Nothing more is
// then asked of it (the clean-up included): the report says what was left.
bool s3_unanswered(const std::vector<rank_phase>& ranks);
bool s3_unanswered(const std::exception& e);

// The report's checkpoint.s3 block: the bucket and the write's and read's requests (each a
// storage.s3 block), the part size and the time each upload took.
report::checkpoint_s3_section s3_checkpoint_section(const s3_checkpoint& c,
                                                    const std::vector<rank_s3_figures>& writes,
                                                    const std::vector<rank_s3_figures>& reads,
                                                    unsigned queue_depth);

} // namespace dlsize::pipeline
