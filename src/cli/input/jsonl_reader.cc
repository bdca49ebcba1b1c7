#include "cli/input/jsonl_reader.h"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "arrow/builder.h"
#include "cli/input/jsonl_variant.h"

namespace pqsift::cli {
namespace {

// `flag` names a column the first `sampled` objects of the input `name` do not have.
Status NoSuchColumn(std::string_view flag, const std::string& column, const std::string& name,
                    size_t sampled) {
  std::string message(flag);
  message += " names column '" + column + "', which " + name;
  message += " does not have (in its first " + std::to_string(sampled) + " objects)";
  return Status::InvalidArgument(message);
}

// Keys keep the order they are written in (DuckDB's read_json does the same).
using Json = nlohmann::ordered_json;

// The text a scalar JSON value is parsed from: a string's contents ("" as an empty quoted CSV
// field: NULL except in string columns), else the value's JSON text (numbers, booleans, and
// objects or arrays stored in a string column).
TextField FieldOf(const Json& v, std::string& scratch) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    return {s, s.empty() ? FieldKind::kEmptyQuoted : FieldKind::kValue};
  }
  scratch = v.dump();
  return {scratch, FieldKind::kValue};
}

// What the sampled values at one position (a column, a struct field, a list's elements) were.
struct Shape {
  TypeInference scalar;
  bool scalars = false, objects = false, arrays = false;
  std::vector<std::pair<std::string, std::unique_ptr<Shape>>> fields;  // first-seen order
  std::unique_ptr<Shape> element;

  Shape& FieldShape(const std::string& key) {
    for (auto& [name, shape] : fields) {
      if (name == key) return *shape;
    }
    return *fields.emplace_back(key, std::make_unique<Shape>()).second;
  }

  // False when `v` nests deeper than kMaxDepth (which the reader then refuses, rather than
  // recursing as deep as a hostile line asks).
  bool See(const Json& v, int depth = 0) {
    if (depth > kMaxDepth) return false;
    std::string scratch;
    switch (v.type()) {
      case Json::value_t::null: return true;
      case Json::value_t::object:
        objects = true;
        for (const auto& [key, value] : v.items()) {
          if (!FieldShape(key).See(value, depth + 1)) return false;
        }
        return true;
      case Json::value_t::array:
        arrays = true;
        if (!element) element = std::make_unique<Shape>();
        for (const Json& x : v) {
          if (!element->See(x, depth + 1)) return false;
        }
        return true;
      default:
        scalars = true;
        scalar.See(FieldOf(v, scratch), v.is_string());
        return true;
    }
  }

  static constexpr int kMaxDepth = 64;

  std::shared_ptr<const DataType> Type() const {
    if (scalars + objects + arrays != 1) return LargeUtf8();  // only nulls, or mixed kinds
    if (objects) {
      if (fields.empty()) return LargeUtf8();  // Parquet has no struct without fields
      std::vector<Field> out;
      for (const auto& [name, shape] : fields) out.push_back(Field{name, shape->Type(), true});
      return Struct(std::move(out));
    }
    if (arrays) return LargeList(Field{"element", element->Type(), true});
    return scalar.Type();
  }
};

// One column (or nested position) of the batch being built from JSON values.
class JsonColumn {
 public:
  explicit JsonColumn(std::shared_ptr<const DataType> type) : type_(std::move(type)) {
    if (type_->id == TypeId::kStruct) {
      for (const Field& f : type_->children) children_.emplace_back(f.type);
    } else if (type_->id == TypeId::kLargeList) {
      children_.emplace_back(type_->children[0].type);
      offsets_.Append(0);
    } else {
      text_.emplace(type_);
    }
  }

  // Appends `v` (null: a missing key). InvalidArgument naming the problem (and the field path
  // inside the column) when it does not fit the type.
  Status Append(const Json* v) {
    if (v == nullptr || v->is_null()) return AppendNull();
    switch (type_->id) {
      case TypeId::kStruct: {
        if (!v->is_object()) return Mismatch(*v, "an object");
        validity_.Append(true);
        for (size_t i = 0; i < children_.size(); ++i) {
          const std::string& key = type_->children[i].name;
          auto it = v->find(key);
          Status st = children_[i].Append(it == v->end() ? nullptr : &*it);
          if (!st.ok()) return Status::InvalidArgument("field '" + key + "': " + st.message());
        }
        return Status::OK();
      }
      case TypeId::kLargeList: {
        if (!v->is_array()) return Mismatch(*v, "an array");
        validity_.Append(true);
        for (const Json& x : *v) PQSIFT_RETURN_IF_ERROR(children_[0].Append(&x));
        elements_ += static_cast<int64_t>(v->size());
        offsets_.Append(elements_);
        return Status::OK();
      }
      default: {
        std::string scratch;
        TextField f = FieldOf(*v, scratch);
        if (!text_->Append(f)) {
          return Status::InvalidArgument("'" + std::string(f.text) + "' is not a valid " +
                                         type_->ToString());
        }
        return Status::OK();
      }
    }
  }

  std::shared_ptr<Array> Finish() {
    if (text_) return text_->Finish();
    auto out = std::make_shared<Array>();
    out->type = type_;
    out->length = validity_.length();
    out->null_count = validity_.null_count();
    out->buffers.push_back(validity_.FinishValidity());
    validity_ = BitmapBuilder();
    if (type_->id == TypeId::kLargeList) {
      out->buffers.push_back(offsets_.Finish());
      offsets_ = TypedBufferBuilder<int64_t>();
      offsets_.Append(0);
      elements_ = 0;
    }
    for (JsonColumn& child : children_) out->children.push_back(child.Finish());
    return out;
  }

 private:
  Status AppendNull() {
    if (text_) {
      text_->Append({std::string_view(), FieldKind::kNull});
      return Status::OK();
    }
    validity_.Append(false);
    if (type_->id == TypeId::kLargeList) {
      offsets_.Append(elements_);
    } else {
      for (JsonColumn& child : children_) PQSIFT_RETURN_IF_ERROR(child.Append(nullptr));
    }
    return Status::OK();
  }

  Status Mismatch(const Json& v, const char* wanted) const {
    std::string text = v.dump();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return Status::InvalidArgument(text + " is not " + wanted + " (the column is " +
                                   type_->ToString() + ")");
  }

  std::shared_ptr<const DataType> type_;
  std::optional<TextColumn> text_;  // scalar types
  BitmapBuilder validity_;          // struct, list
  TypedBufferBuilder<int64_t> offsets_;
  int64_t elements_ = 0;
  std::vector<JsonColumn> children_;
};

}  // namespace

struct JsonLinesReader::State {
  std::istream* in = nullptr;
  std::string name;
  JsonLinesOptions options;
  std::shared_ptr<BatchSchema> schema;
  std::vector<JsonColumn> columns;
  std::vector<std::unique_ptr<JsonVariantColumn>> variants;  // per column; null: not a variant
  std::deque<std::pair<int64_t, Json>> sample;  // (line number, object), read for inference
  std::string line;
  int64_t line_number = 0;

  // The next object and its line number; false at the end of the input.
  Result<bool> Read(Json& object, int64_t& number) {
    while (std::getline(*in, line)) {
      ++line_number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        object = Json::parse(line);
      } catch (const Json::exception& e) {
        return Status::InvalidArgument(name + ": line " + std::to_string(line_number) +
                                       ": not valid JSON (" + e.what() + ")");
      }
      if (!object.is_object()) {
        return Status::InvalidArgument(name + ": line " + std::to_string(line_number) +
                                       ": not a JSON object");
      }
      number = line_number;
      return true;
    }
    if (in->bad()) return Status::IOError(name + ": read failed");
    return false;
  }

  Status Add(const Json& object, int64_t number) {
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string& key = schema->fields[c].name;
      auto it = object.find(key);
      const Json* value = it == object.end() ? nullptr : &*it;
      Status st = variants[c] ? variants[c]->Append(value) : columns[c].Append(value);
      if (!st.ok()) {
        return Status::InvalidArgument(name + ": line " + std::to_string(number) + ", column '" +
                                       key + "': " + st.message() +
                                       " (give the column's type with --schema)");
      }
    }
    return Status::OK();
  }
};

JsonLinesReader::JsonLinesReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
JsonLinesReader::~JsonLinesReader() = default;

std::shared_ptr<const BatchSchema> JsonLinesReader::schema() const { return state_->schema; }

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::Open(std::istream& in,
                                                               const std::string& name,
                                                               const JsonLinesOptions& options) {
  if (options.batch_rows < 1) return Status::InvalidArgument("batch_rows must be at least 1");
  auto s = std::make_unique<State>();
  s->in = &in;
  s->name = name;
  s->options = options;
  PQSIFT_ASSIGN_OR_RETURN(auto given, ParseSchemaList(options.schema));

  Shape top;  // the lines: objects whose fields are the columns
  while (static_cast<int64_t>(s->sample.size()) < std::max<int64_t>(options.infer_rows, 1)) {
    Json object;
    int64_t number = 0;
    PQSIFT_ASSIGN_OR_RETURN(bool more, s->Read(object, number));
    if (!more) break;
    if (!top.See(object)) {
      return Status::InvalidArgument(name + ": line " + std::to_string(number) +
                                     ": objects and arrays nest deeper than " +
                                     std::to_string(Shape::kMaxDepth) + " levels");
    }
    s->sample.emplace_back(number, std::move(object));
  }
  s->schema = std::make_shared<BatchSchema>();
  for (const auto& [key, shape] : top.fields) {
    s->schema->fields.push_back(Field{key, shape->Type(), true});
  }
  for (const auto& [column, type] : given) {
    Field* field = nullptr;
    for (Field& f : s->schema->fields) {
      if (f.name == column) field = &f;
    }
    if (field == nullptr) {
      return NoSuchColumn("--schema", column, name, s->sample.size());
    }
    field->type = type;
  }
  if (s->schema->fields.empty()) {
    return Status::InvalidArgument(name + ": no keys in its first objects to make columns of");
  }
  PQSIFT_ASSIGN_OR_RETURN(auto shred, ParseShredList(options.shred));
  std::vector<std::string> variant_columns = options.variant_columns;
  for (const auto& [column, fields] : shred) variant_columns.push_back(column);
  s->variants.resize(s->schema->fields.size());
  for (const std::string& column : variant_columns) {
    size_t c = 0;
    while (c < s->schema->fields.size() && s->schema->fields[c].name != column) ++c;
    if (c == s->schema->fields.size()) {
      return NoSuchColumn("--variant", column, name, s->sample.size());
    }
    if (s->variants[c]) continue;
    std::optional<std::vector<ShredField>> fields;
    for (const auto& [named, given_fields] : shred) {
      if (named == column) fields = given_fields;
    }
    if (!fields) {
      std::vector<const Json*> values;
      for (const auto& [number, object] : s->sample) {
        auto it = object.find(column);
        if (it != object.end()) values.push_back(&*it);
      }
      fields = InferShredding(values);
    }
    s->schema->fields[c].type = ShreddedVariantType(*fields);
    s->variants[c] = std::make_unique<JsonVariantColumn>(std::move(*fields));
  }
  for (size_t c = 0; c < s->schema->fields.size(); ++c) {
    // A variant column's JsonColumn is unused: a placeholder of no children.
    s->columns.emplace_back(s->variants[c] ? LargeUtf8() : s->schema->fields[c].type);
  }
  return std::unique_ptr<JsonLinesReader>(new JsonLinesReader(std::move(s)));
}

Result<std::shared_ptr<RecordBatch>> JsonLinesReader::Next() {
  State& s = *state_;
  int64_t rows = 0;
  for (; rows < s.options.batch_rows && !s.sample.empty(); ++rows) {
    PQSIFT_RETURN_IF_ERROR(s.Add(s.sample.front().second, s.sample.front().first));
    s.sample.pop_front();
  }
  Json object;
  int64_t number = 0;
  for (; rows < s.options.batch_rows; ++rows) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, s.Read(object, number));
    if (!more) break;
    PQSIFT_RETURN_IF_ERROR(s.Add(object, number));
  }
  if (rows == 0) return std::shared_ptr<RecordBatch>();
  auto batch = std::make_shared<RecordBatch>();
  batch->schema = s.schema;
  batch->num_rows = rows;
  for (size_t c = 0; c < s.columns.size(); ++c) {
    batch->columns.push_back(s.variants[c] ? s.variants[c]->Finish() : s.columns[c].Finish());
  }
  return batch;
}

}  // namespace pqsift::cli
