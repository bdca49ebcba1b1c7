#include "column/dictionary_page.h"

#include <algorithm>

#include "column/arrow_type.h"
#include "column/value_accumulator.h"

namespace pqsift::column {
namespace {

bool IsDictionaryEncoding(Encoding e) {
  return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary;
}

}  // namespace

bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta) {
  if (meta.encoding_stats) {
    bool any_data_page = false;
    for (const PageEncodingStats& s : *meta.encoding_stats) {
      if (s.page_type != PageType::kDataPage && s.page_type != PageType::kDataPageV2) continue;
      if (s.count > 0) any_data_page = true;
      if (!IsDictionaryEncoding(s.encoding) && s.count != 0) return false;
    }
    return any_data_page;
  }
  bool dictionary = false;
  for (Encoding e : meta.encodings) {
    if (IsDictionaryEncoding(e)) {
      dictionary = true;
    } else if (e == Encoding::kBitPacked ||
               (e == Encoding::kRle && meta.type != PhysicalType::kBoolean)) {
      continue;  // definition / repetition levels
    } else {
      return false;  // PLAIN or any other value encoding: a data page may hold it
    }
  }
  return dictionary;
}

std::optional<ByteRange> DictionaryPageRange(const ColumnMetaData& meta, uint64_t file_size) {
  if (!meta.dictionary_page_offset) return std::nullopt;
  int64_t begin = *meta.dictionary_page_offset;
  int64_t end = meta.data_page_offset;
  // Some writers store 0 for "no dictionary page"; a dictionary page precedes the data pages.
  if (begin <= 0 || end <= begin) return std::nullopt;
  ByteRange range{static_cast<uint64_t>(begin), static_cast<uint64_t>(end - begin)};
  if (!CheckRange(range.offset, range.length, file_size, "dictionary page").ok()) {
    return std::nullopt;
  }
  return range;
}

Result<std::shared_ptr<Array>> ReadDictionaryPage(const ColumnDescriptor& column,
                                                  const ColumnMetaData& meta,
                                                  std::span<const uint8_t> bytes, uint64_t offset,
                                                  const std::string& where,
                                                  PageReaderOptions options) {
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const DataType> type, ArrowTypeForLeaf(column));
  PageReader pages(bytes, offset, meta.codec, where, std::move(options));
  PQSIFT_ASSIGN_OR_RETURN(bool any, pages.Next());
  if (!any) return Status::Corruption(where + ": no page where the dictionary page should be");
  if (pages.header().type != PageType::kDictionaryPage) {
    return Status::Corruption(where + ": the page at offset " +
                              std::to_string(pages.page_file_offset()) + " is a " +
                              PageTypeName(pages.header().type) + ", not a dictionary page");
  }
  PQSIFT_ASSIGN_OR_RETURN(Page page, pages.Read());
  PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<ValueAccumulator> values,
                          MakeValueAccumulator(column, type));
  Status st = values->SetDictionary(page.body, page.num_values);
  if (st.ok()) st = values->ReadDictionary();
  if (!st.ok()) return Status::Corruption(where + ": dictionary page: " + st.message());
  return values->Finish();
}

}  // namespace pqsift::column
