// The Variant binary encoding (src/variant/variant.h, json.h, builder.h): every example of
// parquet-testing/variant/ decodes to the value data_dictionary.json gives for it; hostile
// bytes (truncations, byte changes, hand-made bad headers) are errors, never a crash; values
// built by the encoder read back.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "testing/files.h"
#include "variant/builder.h"
#include "variant/json.h"
#include "variant/path.h"
#include "variant/variant.h"

namespace pqsift::variant {
namespace {

std::span<const uint8_t> Span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string ReadText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Numbers equal to float precision (the dictionary gives decimals and floats as doubles),
// everything else exactly.
bool SameJson(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-7 * std::max(std::fabs(x), std::fabs(y));
  }
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !SameJson(it.value(), b.at(it.key()))) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!SameJson(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

TEST(VariantEncodingTest, EveryParquetTestingExampleDecodesToItsValue) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "variant";
  // data_dictionary.json ends its object with a trailing comma: not JSON; drop it.
  std::string dict_text = ReadText(dir / "data_dictionary.json");
  const size_t close = dict_text.rfind('}');
  const size_t comma = dict_text.find_last_not_of(" \t\r\n", close - 1);
  if (comma != std::string::npos && dict_text[comma] == ',') dict_text.erase(comma, 1);
  const nlohmann::json dict = nlohmann::json::parse(dict_text);

  // The temporal values, whose text the dictionary gives in Spark's session forms, and the
  // types the names promise.
  const std::map<std::string, std::string> exact = {
      {"primitive_date", "\"2025-04-16\""},
      {"primitive_time", "\"12:33:54.123456\""},
      {"primitive_timestamp", "\"2025-04-16 16:34:56.78+00\""},
      {"primitive_timestampntz", "\"2025-04-16 12:34:56.78\""},
      {"primitive_timestamp_nanos", "\"2024-11-07 12:33:54.123456789+00\""},
      {"primitive_timestampntz_nanos", "\"2024-11-07 12:33:54.123456789\""},
      {"primitive_decimal4", "12.34"},
      {"primitive_decimal8", "12345678.90"},
      {"primitive_decimal16", "12345678912345678.90"},
      {"primitive_float", "1234567936"},  // the shortest text of the float 1234567940
      {"primitive_uuid", "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\""},
  };
  const std::map<std::string, Type> types = {
      {"primitive_null", Type::kNull},
      {"primitive_boolean_true", Type::kBoolean},
      {"primitive_boolean_false", Type::kBoolean},
      {"primitive_int8", Type::kInt8},
      {"primitive_int16", Type::kInt16},
      {"primitive_int32", Type::kInt32},
      {"primitive_int64", Type::kInt64},
      {"primitive_float", Type::kFloat},
      {"primitive_double", Type::kDouble},
      {"primitive_decimal4", Type::kDecimal4},
      {"primitive_decimal8", Type::kDecimal8},
      {"primitive_decimal16", Type::kDecimal16},
      {"primitive_date", Type::kDate},
      {"primitive_time", Type::kTimeNtzMicros},
      {"primitive_timestamp", Type::kTimestampMicros},
      {"primitive_timestampntz", Type::kTimestampNtzMicros},
      {"primitive_timestamp_nanos", Type::kTimestampNanos},
      {"primitive_timestampntz_nanos", Type::kTimestampNtzNanos},
      {"primitive_binary", Type::kBinary},
      {"primitive_string", Type::kString},
      {"primitive_uuid", Type::kUuid},
      {"short_string", Type::kString},
      {"long_string", Type::kString},
      {"object_empty", Type::kObject},
      {"object_primitive", Type::kObject},
      {"object_nested", Type::kObject},
      {"array_empty", Type::kArray},
      {"array_primitive", Type::kArray},
      {"array_nested", Type::kArray},
  };
  int decoded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".metadata") continue;
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    const std::string md_bytes = ReadText(entry.path());
    const std::string value_bytes = ReadText(dir / (name + ".value"));
    auto md = Metadata::Parse(Span(md_bytes));
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    auto v = Value::Parse(*md, Span(value_bytes));
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    const std::string json = ToJson(*v);
    auto t = types.find(name);
    ASSERT_NE(t, types.end()) << "an example this test does not know: give it a type";
    EXPECT_EQ(TypeName(v->type()), TypeName(t->second));
    if (auto e = exact.find(name); e != exact.end()) {
      EXPECT_EQ(json, e->second);
    } else if (dict.contains(name)) {
      const nlohmann::json mine = nlohmann::json::parse(json);
      EXPECT_TRUE(SameJson(mine, dict.at(name))) << json << " vs " << dict.at(name).dump();
    } else {
      // long_string is not in the dictionary: a 152-byte (long form) string.
      ASSERT_EQ(name, "long_string");
      EXPECT_EQ(value_bytes[0], '\x40');
      EXPECT_EQ(v->string().size(), 152u);
      EXPECT_TRUE(v->string().starts_with("This string is for sure and certainly longe"));
    }
    ++decoded;
  }
  EXPECT_GE(decoded, 29);
}

TEST(VariantEncodingTest, ObjectsKeepNameOrderAndNestedTypes) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "variant";
  const std::string md_bytes = ReadText(dir / "object_primitive.metadata");
  const std::string value_bytes = ReadText(dir / "object_primitive.value");
  auto md = Metadata::Parse(Span(md_bytes));
  ASSERT_TRUE(md.ok());
  auto v = Value::Parse(*md, Span(value_bytes));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(ToJson(*v),
            "{\"boolean_false_field\":false,\"boolean_true_field\":true,"
            "\"double_field\":1.23456789,\"int_field\":1,\"null_field\":null,"
            "\"string_field\":\"Apache Parquet\",\"timestamp_field\":\"2025-04-16T12:34:56.78\"}");
  auto f = v->Get("int_field");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->integer(), 1);
  EXPECT_FALSE(v->Get("nope").has_value());
}

// Every truncation and a sample of byte changes of every example: an error or a value that
// renders; never a crash (the sanitizer builds check the reads).
TEST(VariantEncodingTest, DamagedExamplesAreErrorsNotCrashes) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "variant";
  int errors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".metadata") continue;
    const std::string md_bytes = ReadText(entry.path());
    const std::string value_bytes = ReadText(dir / (entry.path().stem().string() + ".value"));
    auto try_pair = [&](const std::string& m, const std::string& v) {
      auto md = Metadata::Parse(Span(m));
      if (!md.ok()) return ++errors, void();
      auto value = Value::Parse(*md, Span(v));
      if (!value.ok()) return ++errors, void();
      (void)ToJson(*value);
    };
    for (size_t n = 0; n < value_bytes.size(); ++n) try_pair(md_bytes, value_bytes.substr(0, n));
    for (size_t n = 0; n < md_bytes.size(); ++n) try_pair(md_bytes.substr(0, n), value_bytes);
    for (size_t i = 0; i < value_bytes.size(); ++i) {
      for (uint8_t x : {0x01, 0x02, 0x04, 0x10, 0x40, 0x80, 0xFF}) {
        std::string v = value_bytes;
        v[i] = static_cast<char>(v[i] ^ x);
        try_pair(md_bytes, v);
      }
    }
    for (size_t i = 0; i < md_bytes.size(); ++i) {
      std::string m = md_bytes;
      m[i] = static_cast<char>(m[i] ^ 0x5A);
      try_pair(m, value_bytes);
    }
  }
  EXPECT_GT(errors, 0);
}

std::string EmptyMetadata() { return std::string("\x01\x00\x00", 3); }

Status ParseStatus(const std::string& m, const std::string& v) {
  auto md = Metadata::Parse(Span(m));
  if (!md.ok()) return md.status();
  auto value = Value::Parse(*md, Span(v));
  return value.ok() ? Status::OK() : value.status();
}

TEST(VariantEncodingTest, HostileHeadersAreErrors) {
  const std::string md = EmptyMetadata();
  // metadata: version 2, empty, a dictionary larger than the bytes, offsets past the end,
  // unsorted strings marked sorted, invalid UTF-8.
  EXPECT_FALSE(ParseStatus(std::string("\x02\x00\x00", 3), std::string(1, '\0')).ok());
  EXPECT_FALSE(ParseStatus("", std::string(1, '\0')).ok());
  EXPECT_FALSE(ParseStatus(std::string("\x01\xFF\x00", 3), std::string(1, '\0')).ok());
  EXPECT_FALSE(ParseStatus(std::string("\x01\x01\x00\x05"
                                       "ab",
                                       6),
                           std::string(1, '\0'))
                   .ok());
  EXPECT_FALSE(ParseStatus(std::string("\x11\x02\x00\x01\x02"
                                       "ba",
                                       7),
                           std::string(1, '\0'))
                   .ok());
  EXPECT_FALSE(ParseStatus(std::string("\x01\x01\x00\x01\xFF", 5), std::string(1, '\0')).ok());
  EXPECT_TRUE(ParseStatus(std::string("\x11\x02\x00\x01\x02"
                                      "ab",
                                      7),
                          std::string(1, '\0'))
                  .ok());
  // values: unknown primitive, truncated int64, string longer than the bytes, trailing bytes.
  EXPECT_FALSE(ParseStatus(md, std::string(1, static_cast<char>(60 << 2))).ok());
  EXPECT_FALSE(ParseStatus(md, std::string("\x18\x01\x02", 3)).ok());
  EXPECT_FALSE(ParseStatus(md, std::string("\x40\xFF\xFF\xFF\x7F"
                                           "ab",
                                           7))
                   .ok());
  EXPECT_FALSE(ParseStatus(md, std::string("\x00\x00", 2)).ok());
  // A short string that is not UTF-8.
  EXPECT_FALSE(ParseStatus(md, std::string("\x05\xC3", 2)).ok());
  // An object whose field id is not in the (empty) dictionary.
  EXPECT_FALSE(ParseStatus(md, std::string("\x02\x01\x00\x00\x01\x00", 6)).ok());
  // An array whose element offset points past its fields.
  EXPECT_FALSE(ParseStatus(md, std::string("\x03\x01\x05\x01\x00", 5)).ok());
  // Arrays nested deeper than kMaxDepth: each level one element holding the next.
  std::string deep;
  EncodeNull(deep);
  for (int i = 0; i < kMaxDepth + 2; ++i) {
    std::string outer;
    EncodeArray(outer, {Span(deep)});
    deep = outer;
  }
  EXPECT_FALSE(ParseStatus(md, deep).ok());
  // Overlapping elements: many elements sharing one large nested value, level after level,
  // would take exponential time to walk; the element budget refuses it.
  std::string shared;
  EncodeNull(shared);
  for (int level = 0; level < 12; ++level) {
    // An array of 16 elements, every offset 0.
    std::string a("\x0B\x10", 2);  // 2-byte offsets, 16 elements
    for (int k = 0; k < 16; ++k) a.append(std::string("\x00\x00", 2));
    const auto n = static_cast<uint16_t>(shared.size());
    a.push_back(static_cast<char>(n & 0xFF));
    a.push_back(static_cast<char>(n >> 8));
    a += shared;
    shared = a;
    if (shared.size() > 60000) break;
  }
  EXPECT_FALSE(ParseStatus(md, shared).ok());
}

TEST(VariantEncodingTest, ObjectFieldsMustBeSortedAndUnique) {
  const std::string md(
      "\x01\x02\x00\x01\x02"
      "ab",
      7);  // unsorted dictionary "a", "b"
  auto m = Metadata::Parse(Span(md));
  ASSERT_TRUE(m.ok());
  // {b: null, a: null} with ids in the wrong order, and {a, a}.
  const std::string unsorted("\x02\x02\x01\x00\x00\x01\x02\x00\x00", 9);
  const std::string duplicate("\x02\x02\x00\x00\x00\x01\x02\x00\x00", 9);
  const std::string good("\x02\x02\x00\x01\x00\x01\x02\x00\x00", 9);
  EXPECT_FALSE(Value::Parse(*m, Span(unsorted)).ok());
  EXPECT_FALSE(Value::Parse(*m, Span(duplicate)).ok());
  auto v = Value::Parse(*m, Span(good));
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(ToJson(*v), "{\"a\":null,\"b\":null}");
}

TEST(VariantEncodingTest, EncodedValuesReadBack) {
  const std::string md(
      "\x11\x02\x00\x01\x02"
      "xy",
      7);
  auto m = Metadata::Parse(Span(md));
  ASSERT_TRUE(m.ok());
  std::string i8, big, dec, str, longstr, date, ts, uuid, bin, flt, arr, obj;
  EncodeInteger(i8, Type::kInt8, -34);
  EncodeInteger(big, Type::kInt64, -9876543210);
  EncodeDecimal(dec, Type::kDecimal16, Decimal{-98765432101234567, 9});
  EncodeString(str, "h\"i\n");
  EncodeString(longstr, std::string(100, 'z'));
  EncodeDate(date, -4438);
  EncodeTicks(ts, Type::kTimestampNanos, 1730982834123456789);
  const uint8_t u[16] = {0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
                         0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56};
  EncodeUuid(uuid, std::span<const uint8_t, 16>(u, 16));
  const uint8_t b[3] = {1, 2, 255};
  EncodeBinary(bin, b);
  EncodeFloat(flt, -10.11f);
  EncodeArray(arr, {Span(i8), Span(str)});
  std::vector<FieldBytes> fields = {{1, "y", Span(arr)}, {0, "x", Span(dec)}};
  EncodeObject(obj, fields);
  const std::pair<std::string*, std::string> cases[] = {
      {&i8, "-34"},
      {&big, "-9876543210"},
      {&dec, "-98765432.101234567"},
      {&str, "\"h\\\"i\\n\""},
      {&longstr, "\"" + std::string(100, 'z') + "\""},
      {&date, "\"1957-11-07\""},
      {&ts, "\"2024-11-07 12:33:54.123456789+00\""},
      {&uuid, "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\""},
      {&bin, "\"AQL/\""},
      {&flt, "-10.11"},
      {&arr, "[-34,\"h\\\"i\\n\"]"},
      {&obj, "{\"x\":-98765432.101234567,\"y\":[-34,\"h\\\"i\\n\"]}"},
  };
  for (const auto& [bytes, json] : cases) {
    auto v = Value::Parse(*m, Span(*bytes));
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_EQ(ToJson(*v), json);
    EXPECT_TRUE(Equal(*v, *v));
  }
  auto a = Value::Parse(*m, Span(i8));
  auto c = Value::Parse(*m, Span(big));
  EXPECT_FALSE(Equal(*a, *c));
}

}  // namespace
}  // namespace pqsift::variant

namespace pqsift::variant {
namespace {

TEST(VariantPathTest, ParsesMemberAndIndexSteps) {
  auto p = ParsePath("$.a['b c'][2].d");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->size(), 4u);
  EXPECT_EQ((*p)[0].name, "a");
  EXPECT_EQ((*p)[1].name, "b c");
  EXPECT_TRUE((*p)[2].is_index);
  EXPECT_EQ((*p)[2].index, 2u);
  EXPECT_EQ((*p)[3].name, "d");
  auto bare = ParsePath("a.b");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->size(), 2u);
  EXPECT_TRUE(ParsePath("$")->empty());
  for (const char* bad : {"$.", "$[", "$[x]", "$['a", "$.a]", "$[99999999999]", "$..a"}) {
    EXPECT_FALSE(ParsePath(bad).ok()) << bad;
  }
}

TEST(VariantPathTest, ExtractsOrGivesNothing) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "variant";
  const std::string md_bytes = ReadText(dir / "array_nested.metadata");
  const std::string value_bytes = ReadText(dir / "array_nested.value");
  auto md = Metadata::Parse(Span(md_bytes));
  ASSERT_TRUE(md.ok());
  auto v = Value::Parse(*md, Span(value_bytes));
  ASSERT_TRUE(v.ok());
  auto at = [&](const char* path) -> std::string {
    auto steps = ParsePath(path);
    if (!steps.ok()) return "error";
    auto r = Extract(*v, *steps);
    return r ? ToJson(*r) : "missing";
  };
  EXPECT_EQ(at("$[0].thing.names[1]"), "\"Spider\"");
  EXPECT_EQ(at("$[2].id"), "2");
  EXPECT_EQ(at("$[1]"), "null");
  EXPECT_EQ(at("$[1].id"), "missing");
  EXPECT_EQ(at("$[3]"), "missing");
  EXPECT_EQ(at("$.id"), "missing");
}

}  // namespace
}  // namespace pqsift::variant
