// ThriftDecoder's memory budget and RequiredFields, the machinery shared by every Parquet
// struct decoder.
#include "format/thrift_decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "thrift/compact_writer.h"

namespace pqsift::format {
namespace {

std::span<const uint8_t> Span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(ThriftDecoderTest, ReserveChargesTheBudgetUntilItRunsOut) {
  std::string bytes(4, '\0');
  ThriftDecoder d(Span(bytes), 100);
  std::vector<int64_t> a, b, c;
  EXPECT_TRUE(d.Reserve(a, 10));  // 80 of 100
  EXPECT_GE(a.capacity(), 10u);
  EXPECT_TRUE(d.Reserve(b, 2));  // 96
  EXPECT_TRUE(d.reader.ok());
  EXPECT_FALSE(d.Reserve(c, 1));  // 8 more than the 4 left
  EXPECT_EQ(c.capacity(), 0u);
  EXPECT_EQ(d.reader.error(), "decoded metadata would exceed its memory budget at byte 0");
}

TEST(ThriftDecoderTest, ExactBudgetIsAllowed) {
  std::string bytes;
  ThriftDecoder d(Span(bytes), 64);
  std::vector<int32_t> v;
  EXPECT_TRUE(d.Reserve(v, 16));
  std::vector<char> w;
  EXPECT_TRUE(d.Reserve(w, 0));
  EXPECT_FALSE(d.Reserve(w, 1));
}

TEST(ThriftDecoderTest, ReadListIntoReadsEachElement) {
  thrift::CompactWriter w;
  w.WriteListFieldHeader(1, thrift::CType::kI64, 3);
  for (int64_t v : {5, -6, 7}) w.WriteVarintElement(v);
  std::string bytes = w.Take();
  ThriftDecoder d(Span(bytes), 1 << 10);
  int16_t last = 0;
  thrift::FieldHeader f = d.reader.ReadFieldHeader(last);
  std::vector<int64_t> out;
  d.ReadListInto(f, thrift::CType::kI64, out,
                 [&](int64_t& v) { v = d.reader.ReadVarintElement(); });
  EXPECT_TRUE(d.reader.ok()) << d.reader.error();
  EXPECT_EQ(out, (std::vector<int64_t>{5, -6, 7}));
}

TEST(ThriftDecoderTest, ReadListIntoStopsAtTheBudget) {
  thrift::CompactWriter w;
  w.WriteListFieldHeader(1, thrift::CType::kI64, 100);
  for (int i = 0; i < 100; ++i) w.WriteVarintElement(i);
  std::string bytes = w.Take();
  ThriftDecoder d(Span(bytes), 799);  // 100 int64 need 800
  int16_t last = 0;
  thrift::FieldHeader f = d.reader.ReadFieldHeader(last);
  std::vector<int64_t> out;
  d.ReadListInto(f, thrift::CType::kI64, out,
                 [&](int64_t& v) { v = d.reader.ReadVarintElement(); });
  EXPECT_FALSE(d.reader.ok());
  EXPECT_TRUE(out.empty());
}

TEST(ThriftDecoderTest, RequiredFieldsReportTheFirstMissingOne) {
  std::string bytes;
  ThriftDecoder d(Span(bytes), 0);
  RequiredFields req;
  req.Set(0);
  req.Set(2);
  EXPECT_FALSE(req.Check(d, "Thing", {"a", "b", "c"}));
  EXPECT_EQ(d.reader.error(), "Thing.b (required) is missing at byte 0");

  ThriftDecoder ok(Span(bytes), 0);
  RequiredFields all;
  for (int i = 0; i < 3; ++i) all.Set(i);
  EXPECT_TRUE(all.Check(ok, "Thing", {"a", "b", "c"}));
  EXPECT_TRUE(ok.reader.ok());
}

}  // namespace
}  // namespace pqsift::format
