#pragma once
// Checks the records inside a byte range of one data file as its bytes arrive in file order,
// chunk by chunk (so a 150 MB sample needs no 150 MB buffer). Bytes outside the records (the
// alignment padding of an O_DIRECT read) are skipped. A record is a header, a body whose CRC32C
// is taken as it streams by, and a footer: dlsize's own records (dataset/record.hpp: a 32-byte
// header that holds the payload's CRC, no footer), or, for an indexed dataset of TFRecord files
// (dataset_layout::tfrecord_records), TFRecord records (dataset/tfrecord_frame.hpp: the length
// and its masked CRC, the data, the data's masked CRC).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "dataset/layout.hpp"
#include "dataset/record.hpp"

namespace dlsize::dataset {

class record_verifier {
public:
  // Records [first_record, first_record + count) of `file`.
  void reset(const dataset_layout& layout, std::uint64_t file, std::uint64_t first_record,
             std::uint64_t count);
  // Bytes of the file starting at file_offset; offsets must continue the previous feed.
  void feed(std::uint64_t file_offset, const std::byte* data, std::size_t bytes);
  // True once every record has been checked; call after the last feed.
  bool complete() const { return m_next == m_end; }
  std::uint64_t checked() const { return m_checked; }
  std::uint64_t mismatches() const { return m_mismatches; }
  // "file record R (offset O): what"; empty when all matched. R is the dataset's record number
  // for dlsize's records (the one their header holds), the record's place in its file (from 0)
  // for TFRecord files.
  const std::string& first_error() const { return m_first_error; }
  // Records a problem found outside feed (a truncated file, say).
  void fail(const std::string& what);

private:
  void start_record();
  void check_header();
  void finish_record();
  void mismatch(const std::string& what);

  const dataset_layout* m_layout = nullptr;
  bool m_tfrecord = false;
  std::size_t m_head_bytes = kHeaderBytes; // of the record's kind
  std::size_t m_foot_bytes = 0;
  std::uint64_t m_file = 0;
  std::uint64_t m_next = 0; // record being checked
  std::uint64_t m_end = 0;
  std::uint64_t m_rec_start = 0;
  std::uint64_t m_rec_bytes = 0;
  std::uint64_t m_pos = 0; // next file offset expected
  std::array<std::byte, kHeaderBytes> m_header{};
  std::array<std::byte, 4> m_footer{};
  std::uint32_t m_crc = 0;
  bool m_header_ok = false;
  std::uint64_t m_checked = 0;
  std::uint64_t m_mismatches = 0;
  std::string m_first_error;
};

} // namespace dlsize::dataset
