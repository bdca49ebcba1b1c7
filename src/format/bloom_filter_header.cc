#include "format/bloom_filter_header.h"

#include "format/thrift_decoder.h"

namespace pqsift::format {
namespace {

using thrift::CType;
using thrift::FieldHeader;

// The algorithm, hash and compression fields are unions of empty structs: keep the member id
// (0 for an empty union). False when the field is not a struct (skipped, so absent).
bool DecodeUnionMember(ThriftDecoder& d, const FieldHeader& f, int16_t& member) {
  if (!d.reader.AcceptField(f, CType::kStruct)) return false;
  member = 0;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& m) {
    if (member == 0 && m.type == CType::kStruct) member = m.id;
    return false;
  });
  return true;
}

}  // namespace

Status DecodeBloomFilterHeader(std::span<const uint8_t> bytes, BloomFilterHeader& out,
                               size_t* header_size) {
  ThriftDecoder d(bytes, 1u << 12);
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.num_bytes)) req.Set(0);
        return true;
      case 2:
        if (DecodeUnionMember(d, f, out.algorithm)) req.Set(1);
        return true;
      case 3:
        if (DecodeUnionMember(d, f, out.hash)) req.Set(2);
        return true;
      case 4:
        if (DecodeUnionMember(d, f, out.compression)) req.Set(3);
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
