#include "dataset/record_verifier.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/crc32c.hpp"

namespace dlsize::dataset {

void record_verifier::reset(const dataset_layout& layout, std::uint64_t file,
                            std::uint64_t first_record, std::uint64_t count) {
  m_layout = &layout;
  m_file = file;
  m_next = first_record;
  m_end = first_record + count;
  m_pos = 0;
  m_checked = 0;
  m_mismatches = 0;
  m_first_error.clear();
  if (m_next < m_end)
    start_record();
}

void record_verifier::start_record() {
  m_rec_start = m_layout->record_offset(m_next);
  m_rec_bytes = m_layout->record_bytes(m_next);
  m_crc = 0;
  m_header_ok = false;
}

void record_verifier::mismatch(const std::string& what) {
  if (m_mismatches++ == 0)
    m_first_error = fmt::format("{} record {} (offset {}): {}", m_layout->relative_path(m_file),
                                m_next, m_rec_start, what);
}

void record_verifier::fail(const std::string& what) {
  if (m_mismatches++ == 0)
    m_first_error = fmt::format("{}: {}", m_layout->relative_path(m_file), what);
}

void record_verifier::finish_record() {
  if (m_header_ok) {
    auto h = decode_header(m_header.data());
    if (h->payload_crc != m_crc)
      mismatch(fmt::format("payload checksum mismatch (stored crc32c {:08x}, computed {:08x})",
                           h->payload_crc, m_crc));
  }
  ++m_checked;
  ++m_next;
  if (m_next < m_end)
    start_record();
}

void record_verifier::feed(std::uint64_t file_offset, const std::byte* data, std::size_t bytes) {
  if (m_next >= m_end)
    return;
  if (file_offset > m_pos && m_pos < m_rec_start + m_rec_bytes && file_offset > m_rec_start) {
    mismatch(fmt::format("bytes missing before offset {}", file_offset));
  }
  m_pos = file_offset;
  while (bytes > 0 && m_next < m_end) {
    if (m_pos < m_rec_start) {
      const auto skip =
          static_cast<std::size_t>(std::min<std::uint64_t>(bytes, m_rec_start - m_pos));
      data += skip;
      bytes -= skip;
      m_pos += skip;
      continue;
    }
    const std::uint64_t rel = m_pos - m_rec_start;
    std::size_t take;
    if (rel < kHeaderBytes) {
      take = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, kHeaderBytes - rel));
      std::memcpy(m_header.data() + rel, data, take);
      if (rel + take == kHeaderBytes) {
        auto h = decode_header(m_header.data());
        if (!h) {
          mismatch("bad record header (magic, version or header size)");
        } else if (h->dataset_id != m_layout->params().dataset_id()) {
          mismatch(fmt::format("record belongs to another dataset (id {:016x})", h->dataset_id));
        } else if (h->index != m_next) {
          mismatch(fmt::format("header names record {}", h->index));
        } else if (h->payload_bytes != m_rec_bytes - kHeaderBytes) {
          mismatch(fmt::format("payload length {} in header, expected {}", h->payload_bytes,
                               m_rec_bytes - kHeaderBytes));
        } else {
          m_header_ok = true;
        }
      }
    } else {
      take = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, m_rec_bytes - rel));
      if (m_header_ok)
        m_crc = crc32c(m_crc, data, take);
    }
    data += take;
    bytes -= take;
    m_pos += take;
    if (m_pos == m_rec_start + m_rec_bytes)
      finish_record();
  }
}

} // namespace dlsize::dataset
