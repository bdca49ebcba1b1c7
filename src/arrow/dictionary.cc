#include "arrow/dictionary.h"

#include <algorithm>

#include "arrow/builder.h"
#include "arrow/layout.h"
#include "arrow/select.h"
#include "arrow/sort.h"

namespace pqsift {

std::shared_ptr<Array> RepeatDictionaryIndex(std::shared_ptr<Array> dictionary, int32_t index,
                                             int64_t length) {
  auto indices = std::make_shared<ArrowBuffer>();
  indices->Resize(static_cast<size_t>(length) * sizeof(int32_t));
  std::fill_n(indices->as<int32_t>(), length, index);
  auto out = std::make_shared<Array>();
  out->type = Dictionary(dictionary->type);
  out->length = length;
  out->buffers = {nullptr, std::move(indices)};
  out->dictionary = std::move(dictionary);
  return out;
}

Result<std::shared_ptr<Array>> DecodeDictionary(const Array& array) {
  const std::shared_ptr<const DataType>& value_type = array.type->value_type;
  if (array.null_count == array.length || array.dictionary->length == 0) {
    return MakeAllNullArray(value_type, array.length);
  }
  // A null element takes dictionary element 0 here and gets its null back below.
  std::vector<RowRef> rows(static_cast<size_t>(array.length));
  for (int64_t i = 0; i < array.length; ++i) {
    rows[static_cast<size_t>(i)].row = array.IsValid(i) ? layout::DictionaryIndex(array, i) : 0;
  }
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> values, TakeRows({array.dictionary}, rows));
  if (array.null_count == 0) return values;
  BitmapBuilder validity;
  for (int64_t i = 0; i < array.length; ++i) {
    validity.Append(array.IsValid(i) && values->IsValid(i));
  }
  values->null_count = validity.null_count();
  values->buffers[0] = validity.Finish();
  return values;
}

UnifiedDictionary UnifyDictionaries(std::span<const Array* const> arrays) {
  UnifiedDictionary out;
  std::vector<const Array*> distinct;
  std::vector<int64_t> starts;  // of each distinct dictionary in the unified one
  int64_t size = 0;
  for (const Array* a : arrays) {
    const Array* d = a->dictionary.get();
    auto found = std::find(distinct.begin(), distinct.end(), d);
    if (found == distinct.end()) {
      distinct.push_back(d);
      starts.push_back(size);
      size += d->length;
      found = distinct.end() - 1;
    }
    out.bases.push_back(
        static_cast<int32_t>(starts[static_cast<size_t>(found - distinct.begin())]));
  }
  if (distinct.size() == 1) {
    out.dictionary = arrays.front()->dictionary;
    return out;
  }
  std::vector<ElementRange> whole(distinct.size());
  std::vector<RangesOf> sources;
  for (size_t k = 0; k < distinct.size(); ++k) {
    whole[k] = {0, distinct[k]->length};
    if (distinct[k]->length > 0) sources.push_back({distinct[k], {&whole[k], 1}});
  }
  if (sources.empty()) {
    out.dictionary = arrays.front()->dictionary;  // all empty: any of them will do
    return out;
  }
  out.dictionary = SelectRanges(sources);
  return out;
}

}  // namespace pqsift
