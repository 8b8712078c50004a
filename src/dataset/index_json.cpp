// The one place an index's JSON keys are written and read (dataset/index_document.hpp).
#include "dataset/index_document.hpp"
#include "dataset/index_line.hpp"

namespace dlsize::dataset {
namespace {

using json = nlohmann::json;

// j[key] as a whole number when it is a number, else def (as json::value reads a count).
std::uint64_t whole_or(const json& j, const char* key, std::uint64_t def = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<std::uint64_t>() : def;
}

std::string text_or(const json& j, const char* key, std::string def = {}) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : def;
}

// A string or null (absent reads as null).
std::optional<std::string> text_or_null(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

json text_or_null(const std::optional<std::string>& s) {
  return s ? json(*s) : json(nullptr);
}

std::uint64_t count(const json& j, const char* key, bool strict) {
  return strict ? j.at(key).get<std::uint64_t>() : whole_or(j, key);
}

index_bucket_identity bucket_from_json(const json& j) {
  index_bucket_identity b;
  const auto e = j.find("endpoints");
  if (e != j.end() && e->is_array())
    for (const auto& v : *e)
      b.endpoints.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  b.bucket = text_or(j, "bucket");
  b.prefix = text_or(j, "prefix");
  b.region = text_or(j, "region");
  b.addressing = text_or(j, "addressing");
  return b;
}

index_scan_options options_from_json(const json& j) {
  index_scan_options o;
  const auto ex = j.find("exclude");
  if (ex != j.end() && ex->is_array())
    for (const auto& v : *ex)
      if (v.is_string())
        o.exclude.push_back(v.get<std::string>());
  const auto md = j.find("metadata_only");
  o.metadata_only = md != j.end() && md->is_boolean() && md->get<bool>();
  o.bucket = j.contains("keys");
  if (o.bucket) {
    o.keys = text_or_null(j, "keys");
  } else {
    o.symlinks = text_or(j, "symlinks");
    o.files_from = text_or_null(j, "files_from");
  }
  if (j.contains("threads"))
    o.threads = whole_or(j, "threads");
  return o;
}

} // namespace

void index_counts::add(const index_counts& o) {
  lines += o.lines, files += o.files, bytes += o.bytes, samples += o.samples;
  sample_bytes += o.sample_bytes, dirs += o.dirs, excluded += o.excluded;
  problems += o.problems, content_bytes += o.content_bytes;
  for (const auto& [k, v] : o.skipped)
    skipped[k] += v;
  for (const auto& [k, v] : o.formats)
    for (std::size_t i = 0; i < 3; ++i)
      formats[k][i] += v[i];
}

json formats_json(const index_counts& c) {
  json f = json::object();
  for (const auto& [k, v] : c.formats)
    f[k] = {{"files", v[0]}, {"bytes", v[1]}, {"samples", v[2]}};
  return f;
}

json to_json(const index_counts& c) {
  return {{"lines", c.lines},
          {"files", c.files},
          {"bytes", c.bytes},
          {"samples", c.samples},
          {"sample_bytes", c.sample_bytes},
          {"dirs", c.dirs},
          {"excluded", c.excluded},
          {"problems", c.problems},
          {"content_bytes_read", c.content_bytes},
          {"skipped", c.skipped},
          {"formats", formats_json(c)}};
}

index_counts counts_from_json(const json& j, bool strict) {
  index_counts n;
  n.lines = count(j, "lines", strict), n.files = count(j, "files", strict);
  n.bytes = count(j, "bytes", strict), n.samples = count(j, "samples", strict);
  n.sample_bytes = count(j, "sample_bytes", strict), n.dirs = count(j, "dirs", strict);
  n.excluded = count(j, "excluded", strict), n.problems = count(j, "problems", strict);
  n.content_bytes = count(j, "content_bytes_read", strict);
  const auto sk = j.find("skipped");
  if (strict || (sk != j.end() && sk->is_object()))
    for (const auto& [k, v] : j.at("skipped").items())
      n.skipped[k] = strict ? v.get<std::uint64_t>() : v.is_number() ? v.get<std::uint64_t>() : 0;
  const auto fo = j.find("formats");
  if (strict || (fo != j.end() && fo->is_object()))
    for (const auto& [k, v] : j.at("formats").items())
      n.formats[k] = {count(v, "files", strict), count(v, "bytes", strict),
                      count(v, "samples", strict)};
  return n;
}

json to_json(const index_bucket_identity& b) {
  return {{"endpoints", b.endpoints},
          {"bucket", b.bucket},
          {"prefix", b.prefix},
          {"region", b.region},
          {"addressing", b.addressing}};
}

json to_json(const index_scan_options& o) {
  json j = {{"exclude", o.exclude}, {"metadata_only", o.metadata_only}};
  if (o.bucket) {
    j["keys"] = text_or_null(o.keys);
  } else {
    j["symlinks"] = o.symlinks;
    j["files_from"] = text_or_null(o.files_from);
  }
  if (o.threads)
    j["threads"] = *o.threads;
  return j;
}

json to_json(const index_scan_identity& s) {
  json j = {{"dir", s.dir}, {"options", to_json(s.options)}};
  if (s.s3)
    j["s3"] = to_json(*s.s3);
  return j;
}

json to_json(const index_header& h) {
  json j = {{"schema", h.schema},
            {"tool", h.tool},
            {"dir", h.dir},
            {"created_at", h.created_at},
            {"scan_s", h.scan_s},
            {"resumed", h.resumed},
            {"options", to_json(h.options)},
            {"counts", to_json(h.counts)},
            {"digest", h.digest}};
  if (h.s3)
    j["s3"] = to_json(*h.s3);
  if (h.requests)
    j["requests"] = {{"list", h.requests->list},
                     {"head", h.requests->head},
                     {"get", h.requests->get},
                     {"retries", h.requests->retries}};
  return j;
}

std::optional<index_header> header_from_json(const json& j) {
  if (!j.is_object() || text_or(j, "schema") != kIndexSchema ||
      !j.value("dir", json()).is_string() || !j.value("digest", json()).is_string() ||
      !j.value("counts", json()).is_object())
    return std::nullopt;
  index_header h;
  h.tool = j.value("tool", json());
  h.dir = j.at("dir").get<std::string>();
  if (const auto s3 = j.find("s3"); s3 != j.end() && s3->is_object())
    h.s3 = bucket_from_json(*s3);
  h.created_at = text_or(j, "created_at");
  if (const auto s = j.find("scan_s"); s != j.end() && s->is_number())
    h.scan_s = s->get<double>();
  if (const auto r = j.find("resumed"); r != j.end() && r->is_boolean())
    h.resumed = r->get<bool>();
  if (const auto o = j.find("options"); o != j.end() && o->is_object())
    h.options = options_from_json(*o);
  if (const auto r = j.find("requests"); r != j.end() && r->is_object())
    h.requests = index_requests{whole_or(*r, "list"), whole_or(*r, "head"), whole_or(*r, "get"),
                                whole_or(*r, "retries")};
  h.counts = counts_from_json(j.at("counts"), false);
  h.digest = j.at("digest").get<std::string>();
  return h;
}

std::optional<index_line> line_from_json(const json& j) {
  if (!j.is_object() || !j.value("path", json()).is_string())
    return std::nullopt;
  index_line l;
  l.path = j.at("path").get<std::string>();
  if (j.contains("skipped"))
    l.skipped = text_or(j, "skipped");
  if (const auto s = j.find("size"); s != j.end() && s->is_number_unsigned())
    l.size = s->get<std::uint64_t>();
  if (const auto m = j.find("mtime_ns"); m != j.end() && m->is_number_integer())
    l.mtime_ns = m->get<std::int64_t>();
  l.format = text_or(j, "format");
  if (const auto p = j.find("problem"); p != j.end())
    l.problem = p->is_string() ? p->get<std::string>() : p->dump();
  const auto rec = j.find("records");
  l.has_records = rec != j.end();
  if (!l.has_records || !rec->is_array() || rec->empty())
    return l;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> records;
  records.reserve(rec->size());
  for (const auto& r : *rec) {
    if (!r.is_array() || r.size() != 2 || !r[0].is_number_unsigned() || !r[1].is_number_unsigned())
      return l;
    records.emplace_back(r[0].get<std::uint64_t>(), r[1].get<std::uint64_t>());
  }
  l.records = std::move(records);
  return l;
}

std::string skipped_line_json(std::string_view rel, std::string_view kind, std::string_view why) {
  return json{{"path", rel}, {"skipped", kind}, {"reason", why}}.dump(
      -1, ' ', false, json::error_handler_t::replace);
}

namespace {

template <class T> void put_present(json& j, const char* key, const std::optional<T>& v) {
  if (v)
    j[key] = *v;
}

json to_json(const archive_member& m) {
  json j = {{"name", m.name}, {"bytes", m.bytes}, {"compressed", m.compressed}};
  put_present(j, "dtype", m.dtype);
  put_present(j, "shape", m.shape);
  return j;
}

} // namespace

json to_json(const format_details& d) {
  json j = json::object();
  put_present(j, "records", d.records);
  put_present(j, "dtype", d.dtype);
  put_present(j, "shape", d.shape);
  put_present(j, "fortran_order", d.fortran_order);
  put_present(j, "data_offset", d.data_offset);
  put_present(j, "width", d.width);
  put_present(j, "height", d.height);
  put_present(j, "components", d.components);
  put_present(j, "bit_depth", d.bit_depth);
  put_present(j, "color_type", d.color_type);
  put_present(j, "rows", d.rows);
  put_present(j, "row_groups", d.row_groups);
  put_present(j, "members", d.members);
  if (d.listed) {
    j["listed"] = json::array();
    for (const auto& m : *d.listed)
      j["listed"].push_back(to_json(m));
  }
  return j;
}

} // namespace dlsize::dataset
