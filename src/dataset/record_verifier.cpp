#include "dataset/record_verifier.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/crc32c.hpp"
#include "dataset/tfrecord_frame.hpp"

namespace dlsize::dataset {

static_assert(kTfrecordHeaderBytes <= kHeaderBytes, "one header buffer holds either kind");

void record_verifier::reset(const dataset_layout& layout, std::uint64_t file,
                            std::uint64_t first_record, std::uint64_t count) {
  m_layout = &layout;
  m_tfrecord = layout.tfrecord_records();
  m_head_bytes = m_tfrecord ? kTfrecordHeaderBytes : kHeaderBytes;
  m_foot_bytes = m_tfrecord ? kTfrecordFooterBytes : 0;
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
  // A TFRecord file's records are named by their place in it, as TensorFlow's readers count.
  const std::uint64_t label = m_tfrecord ? m_next - m_layout->first_record(m_file) : m_next;
  if (m_mismatches++ == 0)
    m_first_error = fmt::format("{} record {} (offset {}): {}", m_layout->relative_path(m_file),
                                label, m_rec_start, what);
}

void record_verifier::fail(const std::string& what) {
  if (m_mismatches++ == 0)
    m_first_error = fmt::format("{}: {}", m_layout->relative_path(m_file), what);
}

void record_verifier::check_header() {
  if (m_tfrecord) {
    const std::string why = check_tfrecord_header(m_header.data(), m_rec_bytes);
    if (!why.empty())
      mismatch(why);
    m_header_ok = why.empty();
    return;
  }
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

void record_verifier::finish_record() {
  if (m_rec_bytes < m_head_bytes + m_foot_bytes) {
    mismatch(fmt::format("{} bytes, shorter than a header and footer ({})", m_rec_bytes,
                         m_head_bytes + m_foot_bytes));
  } else if (m_header_ok && m_tfrecord) {
    const std::string why = check_tfrecord_footer(m_footer.data(), m_crc);
    if (!why.empty())
      mismatch(why);
  } else if (m_header_ok) {
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
    const auto up_to = [&](std::uint64_t end) {
      return static_cast<std::size_t>(std::min<std::uint64_t>(bytes, end - rel));
    };
    std::size_t take;
    if (m_rec_bytes < m_head_bytes + m_foot_bytes) {
      take = up_to(m_rec_bytes); // too short to hold a record: named when it ends
    } else if (rel < m_head_bytes) {
      take = up_to(m_head_bytes);
      std::memcpy(m_header.data() + rel, data, take);
      if (rel + take == m_head_bytes)
        check_header();
    } else if (const std::uint64_t body_end = m_rec_bytes - m_foot_bytes; rel < body_end) {
      take = up_to(body_end);
      if (m_header_ok)
        m_crc = crc32c(m_crc, data, take);
    } else {
      take = up_to(m_rec_bytes);
      std::memcpy(m_footer.data() + (rel - body_end), data, take);
    }
    data += take;
    bytes -= take;
    m_pos += take;
    if (m_pos == m_rec_start + m_rec_bytes)
      finish_record();
  }
}

} // namespace dlsize::dataset
