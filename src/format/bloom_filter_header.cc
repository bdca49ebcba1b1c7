#include "format/bloom_filter_header.h"

#include "format/thrift_decoder.h"

namespace pqsift::format {
namespace {

using thrift::CType;
using thrift::FieldHeader;

// The algorithm, hash and compression fields are unions of empty structs: keep the member id.
int16_t DecodeUnionMember(ThriftDecoder& d, const FieldHeader& f) {
  int16_t member = 0;
  if (!d.reader.ExpectType(f, CType::kStruct)) return 0;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& m) {
    if (member == 0 && m.type == CType::kStruct) member = m.id;
    return false;
  });
  return member;
}

}  // namespace

Status DecodeBloomFilterHeader(std::span<const uint8_t> bytes, BloomFilterHeader& out,
                               size_t* header_size) {
  ThriftDecoder d(bytes, 1u << 12);
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        out.num_bytes = d.reader.ReadI32(f);
        req.Set(0);
        return true;
      case 2:
        out.algorithm = DecodeUnionMember(d, f);
        req.Set(1);
        return true;
      case 3:
        out.hash = DecodeUnionMember(d, f);
        req.Set(2);
        return true;
      case 4:
        out.compression = DecodeUnionMember(d, f);
        req.Set(3);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "BloomFilterHeader", {"numBytes", "algorithm", "hash", "compression"});
  }
  if (!d.reader.ok())
    return Status::Corruption("malformed bloom filter header: " + d.reader.error());
  if (out.num_bytes <= 0)
    return Status::Corruption("bloom filter header: numBytes is not positive");
  *header_size = d.reader.position();
  return Status::OK();
}

}  // namespace pqsift::format
