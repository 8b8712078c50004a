// Parsing of a profile's model.layers into the expanded layer list of model_spec.
#include <fmt/format.h>

#include "core/json_checks.hpp"
#include "model/model_spec.hpp"

namespace dlsize::model {
namespace {

using core::json_checker;

// Adds the expanded layers of the profile's entries, one entry at a time.
class builder {
public:
  builder(const json_checker& c, model_spec& m) : m_c(c), m_m(m) {}

  void entry(const nlohmann::json& e, std::size_t i) {
    const std::string path = fmt::format("model.layers[{}]", i);
    if (!e.is_object())
      m_c.fail(path, "must be an object such as {\"type\": \"conv\", ...}");
    const std::string type = m_c.string(e, path, "type");
    m_path = path;
    m_given = e.contains("name") ? m_c.string(e, path, "name") : std::string();
    m_base = m_given.empty() ? fmt::format("layers[{}]", i) : m_given;
    m_first_of_entry = m_m.layers.size();
    int in = m_last;
    if (e.contains("input"))
      in = resolve(e, "input");
    if (type == "conv") {
      m_c.only_keys(e, path,
                    {"type", "name", "input", "filters", "kernel", "stride", "pad", "dilation",
                     "bias", "norm", "activation"});
      conv(e, in);
    } else if (type == "conv_transpose") {
      m_c.only_keys(e, path,
                    {"type", "name", "input", "filters", "kernel", "stride", "pad", "bias"});
      layer l = geometry(e, op::conv_transpose);
      l.input = in;
      push(l, "");
    } else if (type == "max_pool") {
      m_c.only_keys(e, path, {"type", "name", "input", "kernel", "stride", "pad"});
      layer l = simple(op::max_pool, in);
      l.kernel = m_c.integer(e, path, "kernel", 1, 64);
      l.stride = m_c.integer_or(e, path, "stride", 1, 64, 1);
      l.pad = m_c.integer_or(e, path, "pad", 0, 64, 0);
      push(l, "");
    } else if (type == "fc") {
      m_c.only_keys(e, path, {"type", "name", "input", "outputs", "bias"});
      layer l = simple(op::fc, in);
      l.filters = m_c.integer(e, path, "outputs", 1, 1'000'000);
      l.bias = flag(e, "bias", true);
      push(l, "");
    } else if (type == "add" || type == "concat") {
      m_c.only_keys(e, path, {"type", "name", "input", "with"});
      layer l = simple(type == "add" ? op::add : op::concat, in);
      l.other = resolve(e, "with");
      push(l, "");
    } else if (type == "batch_norm" || type == "instance_norm" || type == "relu" ||
               type == "global_avg_pool") {
      m_c.only_keys(e, path, {"type", "name", "input"});
      const op k = type == "batch_norm"      ? op::batch_norm
                   : type == "instance_norm" ? op::instance_norm
                   : type == "relu"          ? op::relu
                                             : op::global_avg_pool;
      push(simple(k, in), "");
    } else if (type == "bottleneck") {
      m_c.only_keys(e, path, {"type", "name", "input", "width", "blocks", "stride", "expansion"});
      bottleneck(e, in);
    } else {
      m_c.fail(path + ".type", fmt::format("unknown layer type '{}'. valid: conv, conv_transpose, "
                                           "batch_norm, instance_norm, relu, max_pool, "
                                           "global_avg_pool, fc, add, concat, bottleneck",
                                           type));
    }
    // The entry's name names its output, the last of its layers.
    if (!m_given.empty())
      m_m.layers.back().name = m_given;
    for (std::size_t k = m_first_of_entry; k < m_m.layers.size(); ++k)
      check_unique(k);
  }

private:
  // A convolution, with the normalization and activation an entry may fold into it.
  void conv(const nlohmann::json& e, int in) {
    const std::string& path = m_path;
    layer l = geometry(e, op::conv);
    l.dilation = m_c.integer_or(e, path, "dilation", 1, 64, 1);
    l.input = in;
    const bool has_norm = e.contains("norm"), has_act = e.contains("activation");
    int at = push(l, has_norm || has_act ? "conv" : "");
    if (has_norm) {
      const std::string n = m_c.string(e, path, "norm");
      if (n != "batch_norm" && n != "instance_norm")
        m_c.fail(path + ".norm", fmt::format("'{}' is not a normalization. valid: batch_norm, "
                                             "instance_norm",
                                             n));
      at = push(simple(n == "batch_norm" ? op::batch_norm : op::instance_norm, at),
                has_act ? "norm" : "");
    }
    if (has_act) {
      const std::string a = m_c.string(e, path, "activation");
      if (a != "relu")
        m_c.fail(path + ".activation", fmt::format("'{}' is not an activation. valid: relu", a));
      push(simple(op::relu, at), "");
    }
  }

  layer simple(op kind, int in) const {
    layer l;
    l.kind = kind;
    l.input = in;
    return l;
  }

  layer geometry(const nlohmann::json& e, op kind) const {
    layer l;
    l.kind = kind;
    l.filters = m_c.integer(e, m_path, "filters", 1, 1'000'000);
    l.kernel = m_c.integer(e, m_path, "kernel", 1, 64);
    l.stride = m_c.integer_or(e, m_path, "stride", 1, 64, 1);
    l.pad = m_c.integer_or(e, m_path, "pad", 0, 64, 0);
    l.bias = flag(e, "bias", false);
    return l;
  }

  bool flag(const nlohmann::json& e, const char* key, bool fallback) const {
    if (!e.contains(key))
      return fallback;
    if (!e[key].is_boolean())
      m_c.fail(m_path + "." + key, "must be true or false");
    return e[key].get<bool>();
  }

  int resolve(const nlohmann::json& e, const char* key) const {
    const std::string n = m_c.string(e, m_path, key);
    const int idx = m_m.find(n);
    if (idx < 0 || static_cast<std::size_t>(idx) >= m_first_of_entry)
      m_c.fail(m_path + "." + key, fmt::format("no earlier layer is named '{}'", n));
    return idx;
  }

  // Appends l named base.part (or base when part is empty) and makes it the current output.
  int push(layer l, const std::string& part) {
    l.name = part.empty() ? m_base : m_base + "." + part;
    m_m.layers.push_back(std::move(l));
    m_last = static_cast<int>(m_m.layers.size()) - 1;
    return m_last;
  }

  // ResNet v1.5 bottlenecks (torchvision): 1x1, 3x3 with the stride, 1x1 to width x expansion;
  // a 1x1 projection with batch norm where the stride or the channels change.
  void bottleneck(const nlohmann::json& e, int in) {
    const std::uint64_t width = m_c.integer(e, m_path, "width", 1, 1'000'000);
    const std::uint64_t blocks = m_c.integer_or(e, m_path, "blocks", 1, 1000, 1);
    const std::uint64_t stride = m_c.integer_or(e, m_path, "stride", 1, 64, 1);
    const std::uint64_t expansion = m_c.integer_or(e, m_path, "expansion", 1, 64, 4);
    const std::string base = m_base;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      m_base = fmt::format("{}.block{}", base, b);
      const std::uint64_t s = b == 0 ? stride : 1;
      const bool project = b == 0 && (s != 1 || channels_of(in) != width * expansion);
      const int block_in = in;
      int at = push(conv(block_in, width, 1, 1, 0), "conv1");
      at = push(simple(op::batch_norm, at), "bn1");
      at = push(simple(op::relu, at), "relu1");
      at = push(conv(at, width, 3, s, 1), "conv2");
      at = push(simple(op::batch_norm, at), "bn2");
      at = push(simple(op::relu, at), "relu2");
      at = push(conv(at, width * expansion, 1, 1, 0), "conv3");
      const int main_path = push(simple(op::batch_norm, at), "bn3");
      int shortcut = block_in;
      if (project) {
        const int p = push(conv(block_in, width * expansion, 1, s, 0), "proj");
        shortcut = push(simple(op::batch_norm, p), "proj_bn");
      }
      layer sum = simple(op::add, main_path);
      sum.other = shortcut;
      at = push(sum, "add");
      in = push(simple(op::relu, at), "relu");
    }
    m_base = base;
  }

  layer conv(int in, std::uint64_t filters, std::uint64_t k, std::uint64_t s,
             std::uint64_t p) const {
    layer l = simple(op::conv, in);
    l.filters = filters;
    l.kernel = k;
    l.stride = s;
    l.pad = p;
    return l;
  }

  // Output channels of layer idx (its shape is not inferred yet): the last layer that sets
  // channels on the way back to the input.
  std::uint64_t channels_of(int idx) const {
    while (idx >= 0) {
      const layer& l = m_m.layers[static_cast<std::size_t>(idx)];
      if (l.kind == op::conv || l.kind == op::conv_transpose || l.kind == op::fc)
        return l.filters;
      if (l.kind == op::concat)
        return channels_of(l.input) + channels_of(l.other);
      idx = l.input;
    }
    return m_m.input.channels;
  }

  void check_unique(std::size_t k) const {
    const std::string& n = m_m.layers[k].name;
    for (std::size_t j = 0; j < k; ++j)
      if (m_m.layers[j].name == n)
        m_c.fail(m_path + ".name", fmt::format("'{}' names two layers", n));
  }

  const json_checker& m_c;
  model_spec& m_m;
  int m_last = -1;
  std::size_t m_first_of_entry = 0;
  std::string m_path, m_given, m_base;
};

} // namespace

model_spec parse_model(const nlohmann::json& model, const std::string& source) {
  json_checker c(source);
  if (!model.is_object())
    c.fail("model", "must be an object");
  model_spec m;
  m.name = model.contains("name") ? c.string(model, "model", "name") : std::string("model");
  const auto it = model.find("input");
  if (it == model.end())
    c.fail("model.input", "missing; give [H, W, C] or [D, H, W, C]");
  if (!it->is_array() || it->size() < 3 || it->size() > 4)
    c.fail("model.input", "must be [H, W, C] or [D, H, W, C]");
  for (std::size_t d = 0; d < it->size(); ++d) {
    const auto& v = (*it)[d];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 1'000'000)
      c.fail(fmt::format("model.input[{}]", d), "must be an integer from 1 to 1,000,000");
    const auto n = v.get<std::uint64_t>();
    if (d + 1 == it->size())
      m.input.channels = n;
    else
      m.input.spatial.push_back(n);
  }
  m.batch_size = c.integer(model, "model", "batch_size", 1, 1'000'000);
  if (model.contains("loss")) {
    m.loss = c.string(model, "model", "loss");
    if (m.loss != "softmax_cross_entropy")
      c.fail("model.loss", fmt::format("'{}' is not a loss. valid: softmax_cross_entropy", m.loss));
  }
  const auto layers = model.find("layers");
  if (layers == model.end() || !layers->is_array() || layers->empty())
    c.fail("model.layers", "must be a non-empty array of layers");
  builder b(c, m);
  for (std::size_t i = 0; i < layers->size(); ++i)
    b.entry((*layers)[i], i);
  m.source = source;
  infer_shapes(m);
  return m;
}

} // namespace dlsize::model
